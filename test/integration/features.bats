#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `features` is passed through and extended (DESIGN §1): the runtime's JSON
# with entitle's facts added under "annotations"; where the runtime has no
# `features` (crun 1.8.1) entitle synthesises the required fields.

load helpers

@test "features: with runc, runc's answer with io.entitle.* added to its annotations" {
  "$RUNC_BIN" features >"$BATS_TEST_TMPDIR/features-runc.json" || skip "this runc has no features command"
  run --separate-stderr "$ENTITLE" features
  [ "$status" -eq 0 ]
  printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/features-entitle.json"
  jq -e 'type == "object"' "$BATS_TEST_TMPDIR/features-entitle.json"
  # Every key of runc's answer, with the same value, annotations aside...
  jq -n --slurpfile r "$BATS_TEST_TMPDIR/features-runc.json" --slurpfile e "$BATS_TEST_TMPDIR/features-entitle.json" -e '
    [$r[0] | keys[] | select(. != "annotations")] as $k
    | all($k[]; . as $key | $r[0][$key] == $e[0][$key])'
  # ...and no other key.
  [ "$(jq -c 'keys' "$BATS_TEST_TMPDIR/features-entitle.json")" = "$(jq -c 'keys' "$BATS_TEST_TMPDIR/features-runc.json")" ]
  # runc's annotations are all there, untouched, with entitle's beside them.
  jq -n --slurpfile r "$BATS_TEST_TMPDIR/features-runc.json" --slurpfile e "$BATS_TEST_TMPDIR/features-entitle.json" -e '
    ($r[0].annotations // {}) as $ra | $e[0].annotations as $ea
    | all($ra | keys[]; $ra[.] == $ea[.])'
  version=$(jq -r '.annotations["io.entitle.version"]' "$BATS_TEST_TMPDIR/features-entitle.json")
  [ "$version" = "$(entitle_version)" ]
  # Nothing but io.entitle.* is added.
  jq -n --slurpfile r "$BATS_TEST_TMPDIR/features-runc.json" --slurpfile e "$BATS_TEST_TMPDIR/features-entitle.json" -e '
    [$e[0].annotations | keys[] | select(startswith("io.entitle.") | not)]
    == [($r[0].annotations // {}) | keys[]]'
}

@test "features: with runc, the global flags engines pass are accepted" {
  "$RUNC_BIN" features >/dev/null || skip "this runc has no features command"
  run --separate-stderr "$ENTITLE" --root "$ROOT" --log "$BATS_TEST_TMPDIR/log" --log-format json features
  [ "$status" -eq 0 ]
  printf '%s\n' "$output" | jq -e '.annotations["io.entitle.version"] and .ociVersionMin'
}

@test "features: with crun 1.8.1, entitle synthesises ociVersionMin, ociVersionMax and annotations" {
  require_crun
  use_crun
  if "$CRUN_BIN" features >"$BATS_TEST_TMPDIR/features-crun.json" 2>/dev/null; then
    skip "this crun has its own features command (checked like runc's)"
  fi
  run --separate-stderr "$ENTITLE" features
  [ "$status" -eq 0 ]
  printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/features-entitle.json"
  jq -e '
    (.ociVersionMin | test("^[0-9]+\\.[0-9]+\\.[0-9]+"))
    and (.ociVersionMax | test("^[0-9]+\\.[0-9]+\\.[0-9]+"))
    and (.annotations | type == "object")' "$BATS_TEST_TMPDIR/features-entitle.json"
  [ "$(jq -r '.annotations["io.entitle.version"]' "$BATS_TEST_TMPDIR/features-entitle.json")" = "$(entitle_version)" ]
  # The range reaches the spec version crun states.
  spec=$("$CRUN_BIN" --version | sed -n 's/^spec: *//p')
  max=$(jq -r .ociVersionMax "$BATS_TEST_TMPDIR/features-entitle.json")
  [ "$(printf '%s\n' "$spec" "$max" | sort -V | tail -n 1)" = "$max" ]
}

@test "features: with crun that lacks it, other unknown commands still fail as crun's do" {
  require_crun
  use_crun
  step crun unknown run_crun_ns "$CRUN_BIN" frobnicate
  step entitle unknown run_crun_ns "$ENTITLE" frobnicate
  [ "$(step_value entitle unknown rc)" != 0 ]
  compare_steps crun entitle
}

@test "explain: says what network.none changes, from the catalogue, without a runtime" {
  run --separate-stderr env PATH=/nonexistent "$ENTITLE" explain network.none security.confined
  [ "$status" -eq 0 ]
  [[ "$output" == *"network.none"* ]]
  [[ "$output" == *"CAP_NET_RAW"* ]]
  [[ "$output" == *"AF_UNIX only"* ]]
  [[ "$output" == *"noNewPrivileges = true"* ]]
  [ -z "$stderr" ]
  run --separate-stderr "$ENTITLE" explain network.bogus
  [ "$status" -ne 0 ]
  [ "$stderr" = 'entitle: unknown entitlement `network.bogus`' ]
}

@test "explain: every entitlement of the catalogue has its entry in entitlements(7)" {
  names=$("$ENTITLE" features | jq -r '.annotations["io.entitle.entitlements"]' | tr , '\n')
  [ "$(printf '%s\n' "$names" | wc -l)" -ge 20 ]
  # Entries are `.B NAME` or `.BI NAME= VALUE`; roff writes - as \-.
  entries=$(grep -A1 '^\.TP' "${ENTITLE_BUILDDIR:-$ENTITLE_SRCDIR}/man/entitlements.7" | sed -n 's/^\.BI\{0,1\} \([^ =]*\)=\{0,1\}.*/\1/p' | sed 's/\\-/-/g')
  for n in $names; do
    printf '%s\n' "$entries" | grep -qx "$n" || {
      echo "missing from entitlements.7: $n"
      return 1
    }
    "$ENTITLE" explain "$n" >/dev/null
  done
}

@test "features: io.entitle.mechanisms names cgroup BPF, Landlock and the layers exactly when entitle probe finds them" {
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  "$ENTITLE" probe --json >"$BATS_TEST_TMPDIR/probe.json"
  # Every attach point but device, which the runtimes use, not entitle.
  all=$(jq -r '[.cgroup_bpf[] | select(. != "device")] | length' "$BATS_TEST_TMPDIR/probe.json")
  abi=$(jq -r .landlock_abi "$BATS_TEST_TMPDIR/probe.json")
  mech=$("$ENTITLE" features | jq -r '.annotations["io.entitle.mechanisms"]')
  want=seccomp,capabilities,namespaces,paths,device-cgroup
  [ "$all" -ne 10 ] || want+=,cgroup-bpf
  [ "$abi" -eq 0 ] || want+=,landlock
  [ "$(jq -r .checmate "$BATS_TEST_TMPDIR/probe.json")" = false ] || want+=,checmate
  [ "$(jq -r .seccomp_filter_extended "$BATS_TEST_TMPDIR/probe.json")" = false ] || want+=,seccomp-ebpf
  [ "$(jq -r .lsm_cgroup "$BATS_TEST_TMPDIR/probe.json")" = false ] || want+=,bpf-lsm
  [ "$mech" = "$want" ]
  # entitle-full probes in its own process: the hook's path changes nothing.
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state2\", \"hook\": \"/nonexistent\"}"
  [ "$(env -u ENTITLE_HOOK "$ENTITLE" features | jq -r '.annotations["io.entitle.mechanisms"]')" = "$want" ]
}
