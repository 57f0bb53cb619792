#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `exec --process FILE` (DESIGN §1): engines build FILE from their own
# stored spec (containerd: spec.Process, full capabilities), not from the
# rewritten config.json, so entitle must give the exec'd process the
# container's process-level effects.  Without entitlements FILE is passed
# through untouched.

load helpers

STATUS_LINES='^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):'

# process_file FILE ARG...: the process of the bundle as make_bundle wrote
# it, before any rewrite (full default capabilities, noNewPrivileges
# false), running ARG...
process_file() {
  local file=$1
  shift
  jq '.process | .args = $args' \
    --argjson args "$(printf '%s\n' "$@" | jq -R . | jq -s .)" \
    "$BATS_TEST_TMPDIR/config.orig" >"$file"
}

# started_with ENTITLEMENTS: a running container of $BUNDLE requesting
# ENTITLEMENTS (none if empty), its original config kept as config.orig.
started_with() {
  make_bundle "$BUNDLE"
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  [ -z "$1" ] || set_entitlements "$BUNDLE" "$1"
  create_started ent "$BUNDLE" "$CTID"
}

@test "security.confined: exec --process with full caps gets the init process's caps and NoNewPrivs" {
  started_with security.confined
  process_file "$BATS_TEST_TMPDIR/process.json" /bin/sh -c \
    "grep -E '$STATUS_LINES' /proc/self/status; echo ---; grep -E '$STATUS_LINES' /proc/1/status"
  jq -e '.capabilities.effective | index("CAP_DAC_OVERRIDE")' "$BATS_TEST_TMPDIR/process.json"
  run --separate-stderr ent exec --process "$BATS_TEST_TMPDIR/process.json" "$CTID"
  [ "$status" -eq 0 ]
  # The init process is confined, and so is the exec'd one, exactly as much.
  same_as_init "exec --process"
}

@test "security.confined: every spelling of --process is recognised" {
  started_with security.confined
  for form in "-p F" "-p=F" "--process F" "--process=F" "-process F"; do
    f="$BATS_TEST_TMPDIR/process.json"
    process_file "$f" /probe caps
    case "$form" in
      *=F) run --separate-stderr ent exec "${form%=F}=$f" "$CTID" ;;
      *) run --separate-stderr ent exec "${form% F}" "$f" "$CTID" ;;
    esac
    [ "$status" -eq 0 ]
    if ! lacks_cap "$(cap_line "$output" CapEff)" $CAP_DAC_OVERRIDE; then
      echo "with exec $form the process kept CAP_DAC_OVERRIDE" >&2
      false
    fi
  done
}

@test "security.confined: exec without --process is confined too" {
  started_with security.confined
  run --separate-stderr ent exec "$CTID" /bin/sh -c '/probe nnp; /probe caps'
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = 1 ]
  lacks_cap "$(cap_line "$output" CapEff)" $CAP_DAC_OVERRIDE
}

@test "network.none: exec --process with full caps gets no network caps and no inet socket" {
  started_with network.none
  process_file "$BATS_TEST_TMPDIR/process.json" /bin/sh -c \
    "/probe caps; /probe socket inet; /probe socket packet; /probe socket unix"
  jq -e '.capabilities.effective | index("CAP_NET_RAW")' "$BATS_TEST_TMPDIR/process.json"
  run --separate-stderr ent exec -p "$BATS_TEST_TMPDIR/process.json" "$CTID"
  for set in CapEff CapPrm CapBnd; do
    lacks_cap "$(cap_line "$output" $set)" $CAP_NET_RAW
    lacks_cap "$(cap_line "$output" $set)" $CAP_NET_BIND_SERVICE
  done
  [ "${lines[-3]}" = EPERM ]
  [ "${lines[-2]}" = EPERM ]
  [ "${lines[-1]}" = ok ]
}

@test "exec: without entitlements exec --process is passed through untouched" {
  started_with ""
  f="$BATS_TEST_TMPDIR/process.json"
  process_file "$f" /bin/sh -c '/probe nnp; /probe caps; /probe socket raw; exit 7'
  sum=$(sha256sum <"$f")
  step runc exec rnc exec -p "$f" "$CTID"
  step entitle exec ent exec -p "$f" "$CTID"
  [ "$(sha256sum <"$f")" = "$sum" ]
  [ "$(step_value entitle exec rc)" = 7 ]
  out=$(step_value entitle exec out)
  [ "$(printf '%s\n' "$out" | head -n 1)" = 0 ]
  has_cap "$(cap_line "$out" CapEff)" $CAP_DAC_OVERRIDE
  has_cap "$(cap_line "$out" CapEff)" $CAP_NET_RAW
  compare_steps runc entitle
}

@test "exec: a missing process file fails as with runc" {
  started_with network.none
  step runc exec rnc exec -p "$BATS_TEST_TMPDIR/no-such-process.json" "$CTID"
  step entitle exec ent exec -p "$BATS_TEST_TMPDIR/no-such-process.json" "$CTID"
  [ "$(step_value entitle exec rc)" != 0 ]
  # entitle may refuse on its own ("entitle: ..."), or leave it to runc.
  err=$(step_value entitle exec err)
  [[ "$err" == "entitle: "* ]] || compare_steps runc entitle
}

@test "exec: a -p or --process after the command belongs to the command" {
  started_with security.confined
  run --separate-stderr ent exec "$CTID" /bin/echo -p "$BATS_TEST_TMPDIR/nonexistent"
  [ "$status" -eq 0 ]
  [ "$output" = "-p $BATS_TEST_TMPDIR/nonexistent" ]
  run --separate-stderr ent exec "$CTID" /bin/echo --process=x
  [ "$status" -eq 0 ]
  [ "$output" = "--process=x" ]
}

@test "network.none: exec --cap cannot give back a capability the entitlements take away" {
  started_with network.none
  run --separate-stderr ent exec --cap CAP_NET_RAW "$CTID" /probe caps
  [ "$status" -ne 0 ]
  [[ "$stderr" == *'capability `CAP_NET_RAW` is taken away'* ]]
  run --separate-stderr ent exec -c=CAP_NET_ADMIN "$CTID" /probe caps
  [ "$status" -ne 0 ]
  # A capability the entitlements leave alone is the engine's to give.
  run --separate-stderr ent exec --cap CAP_KILL "$CTID" /probe caps
  [ "$status" -eq 0 ]
}
