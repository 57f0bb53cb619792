#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# entitle in front of crun (ENTITLE_CONFIG names crun as the runtime).
# crun 1.8.1 refuses this hybrid-cgroup host, so every crun call runs in
# run-crun.sh's namespace with --cgroup-manager=disabled (ent_crun, crn).

load helpers

setup() {
  common_setup
  require_crun
  use_crun
}

@test "crun: run of /bin/true exits 0 as with crun" {
  make_bundle "$BUNDLE" /bin/true
  step crun run crn run -b "$BUNDLE" "$CTID"
  step entitle run ent_crun run -b "$BUNDLE" "$CTID"
  [ "$(step_value entitle run rc)" = 0 ]
  compare_steps crun entitle
}

@test "crun: run passes the container's stdout, stderr and exit status 3 through" {
  make_bundle "$BUNDLE" /bin/sh -c 'echo to-stdout; echo to-stderr >&2; exit 3'
  step crun run crn run -b "$BUNDLE" "$CTID"
  step entitle run ent_crun run -b "$BUNDLE" "$CTID"
  [ "$(step_value entitle run rc)" = 3 ]
  [ "$(step_value entitle run out)" = to-stdout ]
  [ "$(step_value entitle run err)" = to-stderr ]
  compare_steps crun entitle
}

@test "crun: create, start, state, exec, list, kill and delete answer as crun" {
  make_bundle "$BUNDLE"
  lifecycle crun crun crn
  lifecycle crun entitle ent_crun
  [ "$(step_value entitle 4-state-running out | jq -r .status)" = running ]
  [ "$(step_value entitle 5-exec rc)" = 5 ]
  [ "$(step_value entitle 6-list-json out | jq -r '.[0].id')" = "$CTID" ]
  [ "$(step_value entitle 9-state-stopped out | jq -r .status)" = stopped ]
  [ "$(step_value entitle 11-state-deleted rc)" != 0 ]
  compare_steps crun entitle
}

@test "crun: an unknown command fails as it does with crun" {
  step crun unknown crn frobnicate
  step entitle unknown ent_crun frobnicate
  [ "$(step_value entitle unknown rc)" != 0 ]
  compare_steps crun entitle
}

@test "crun: --version prints crun's lines first, as crun prints them, then entitle's" {
  expected=$("$CRUN_BIN" --version)
  n=$(printf '%s\n' "$expected" | wc -l)
  [[ "$expected" == "crun version "* ]]
  run --separate-stderr "$ENTITLE" --version
  [ "$status" -eq 0 ]
  [ "$(printf '%s\n' "$output" | head -n "$n")" = "$expected" ]
  [[ "${lines[n]}" == "entitle version "* ]]
  [ "${lines[n + 2]}" = "runtime: $CRUN_BIN" ]
  [ "${#lines[@]}" -eq $((n + 3)) ]
}

@test "crun: without entitlements create leaves the bundle unchanged" {
  make_bundle "$BUNDLE"
  before=$(fingerprint "$BUNDLE")
  ent_crun create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1
  [ "$(crn state "$CTID" | jq -r .status)" = created ]
  [ "$(fingerprint "$BUNDLE")" = "$before" ]
}

@test "crun: without entitlements --config FILE is passed through untouched" {
  make_bundle "$BUNDLE" /bin/sh -c 'echo from-other'
  mv "$BUNDLE/config.json" "$BUNDLE/other.json"
  before=$(fingerprint "$BUNDLE")
  run_detached ent_crun run -b "$BUNDLE" --config "$BUNDLE/other.json" "$CTID"
  [ "$status" -eq 0 ]
  [ "$output" = from-other ]
  [ "$(fingerprint "$BUNDLE")" = "$before" ]
}

@test "network.none: under crun denies AF_INET, AF_INET6 and AF_PACKET, allows AF_UNIX" {
  probe_bundle "$BUNDLE" "socket inet" "socket inet6" "socket packet" "socket unix"
  run_bundle crn
  expect_lines "socket inet: ok" "socket inet6: ok" "socket packet: ok" "socket unix: ok"

  set_entitlements "$BUNDLE" network.none
  run_bundle ent_crun
  expect_lines "socket inet: EPERM" "socket inet6: EPERM" "socket packet: EPERM" "socket unix: ok"
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = network.none ]
}

@test "network.none: under crun an allowlist profile's socket() rules are narrowed too" {
  probe_bundle "$BUNDLE" "socket inet" "socket unix" "socket unix dgram"
  require_cc
  names=$(syscall_names)
  # crun passes an argument rule as one AND rule (DESIGN §3): what entitle
  # writes must mean the same under crun as under runc.
  edit_config "$BUNDLE" '.linux.seccomp = {defaultAction: "SCMP_ACT_ERRNO", defaultErrnoRet: 1,
    syscalls: [{names: $names, action: "SCMP_ACT_ALLOW"},
      {names: ["socket"], action: "SCMP_ACT_ALLOW",
       args: [{index: 0, value: 40, op: "SCMP_CMP_NE"}, {index: 1, value: 99, op: "SCMP_CMP_NE"}]}]}' \
    --argjson names "$names"
  run_bundle crn
  expect_lines "socket inet: ok" "socket unix: ok" "socket unix dgram: ok"

  set_entitlements "$BUNDLE" network.none
  run_bundle ent_crun
  expect_lines "socket inet: EPERM" "socket unix: ok" "socket unix dgram: ok"
}

@test "network.none: with crun's --config FILE, FILE is rewritten and config.json left alone" {
  probe_bundle "$BUNDLE" "socket inet" "socket unix"
  set_entitlements "$BUNDLE" network.none
  mv "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/other.orig"
  # A config.json without the request, which crun will not run.
  probe_bundle "$BUNDLE" "socket unix"
  sum=$(sha256sum <"$BUNDLE/config.json")
  for form in "--config F" "--config=F" "-f F"; do
    cp "$BATS_TEST_TMPDIR/other.orig" "$BUNDLE/other.json"
    case "$form" in
      *=F) run_detached ent_crun run -b "$BUNDLE" "${form%=F}=$BUNDLE/other.json" "$CTID" ;;
      *) run_detached ent_crun run -b "$BUNDLE" "${form% F}" "$BUNDLE/other.json" "$CTID" ;;
    esac
    expect_lines "socket inet: EPERM" "socket unix: ok"
    [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/other.json")" = network.none ]
    [ "$(sha256sum <"$BUNDLE/config.json")" = "$sum" ]
  done
}

@test "security.confined: under crun sets NoNewPrivs and drops CAP_DAC_OVERRIDE" {
  probe_bundle "$BUNDLE" nnp caps
  set_entitlements "$BUNDLE" security.confined
  run_bundle ent_crun
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "nnp: 1" ]
  lacks_cap "$(cap_line "$output" CapEff)" $CAP_DAC_OVERRIDE
}

@test "network.none: under crun run.oci.seccomp_bpf_data cannot replace entitle's profile" {
  probe_bundle "$BUNDLE" "socket inet" "socket unix"
  # A raw BPF program of one instruction: return SECCOMP_RET_ALLOW.
  allow_all=$(printf '\x06\x00\x00\x00\x00\x00\xff\x7f' | base64)
  edit_config "$BUNDLE" '.annotations["run.oci.seccomp_bpf_data"] = $bpf
    | .linux.seccomp = {defaultAction: "SCMP_ACT_ALLOW",
        syscalls: [{names: ["socket"], action: "SCMP_ACT_ERRNO"}]}' --arg bpf "$allow_all"
  # crun runs the annotation's program, not the profile...
  run_bundle crn
  expect_lines "socket inet: ok" "socket unix: ok"
  # ...so entitle must not leave it beside its own.
  edit_config "$BUNDLE" 'del(.linux.seccomp)'
  set_entitlements "$BUNDLE" network.none
  run_bundle ent_crun
  expect_lines "socket inet: EPERM" "socket unix: ok"
}

@test "security.confined: under crun exec --process with full caps is confined" {
  make_bundle "$BUNDLE"
  jq '.process | .args = ["/bin/sh", "-c", "/probe nnp; /probe caps"]' "$BUNDLE/config.json" \
    >"$BATS_TEST_TMPDIR/process.json"
  set_entitlements "$BUNDLE" security.confined
  create_started ent_crun "$BUNDLE" "$CTID"
  run --separate-stderr ent_crun exec --process "$BATS_TEST_TMPDIR/process.json" "$CTID"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = 1 ]
  lacks_cap "$(cap_line "$output" CapEff)" $CAP_DAC_OVERRIDE
}

@test "crun: --cgroup-manager given as two words does not hide the command" {
  probe_bundle "$BUNDLE" "socket inet"
  set_entitlements "$BUNDLE" network.none
  run --separate-stderr run_crun_ns "$ENTITLE" --cgroup-manager disabled --root "$CRUN_ROOT" \
    run -b "$BUNDLE" "$CTID"
  [ "$output" = "socket inet: EPERM" ]
}


@test "crun: create on a cold probe cache says nothing the runtime does not (libbpf's refusals are the probe's answers)" {
  # A state_dir of its own: no probe cache, as on the first create after
  # boot; network.none has a BPF part, so create probes the host, and
  # the BPF loader asks whether lsm_cgroup programs run here.
  write_entitle_config "{\"runtime\": \"$CRUN_BIN\", \"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  run_detached ent_crun create -b "$BUNDLE" "$CTID"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ -z "$output" ]
  [ -s "$BATS_TEST_TMPDIR/state/probe.json" ]
  ent_crun delete -f "$CTID"
}
