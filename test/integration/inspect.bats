#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# entitle inspect ID|PID (issues 13 and 14): what the kernel enforces on a
# running container, read from the kernel and never from config.json: the
# programs attached to its cgroup, their policy, its seccomp filter (read
# with ptrace and disassembled), its capabilities.  Real runc, real
# programs, real filters.

load helpers

setup() {
  common_setup
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
}

teardown() {
  local r id
  for r in "$BATS_TEST_TMPDIR"/run/containerd/runc/* "$BATS_TEST_TMPDIR"/run/runc; do
    [ -d "$r" ] || continue
    for id in $("$RUNC_BIN" --root "$r" list -q 2>/dev/null); do
      "$RUNC_BIN" --root "$r" delete -f "$id" >/dev/null 2>&1 || true
    done
  done
  common_teardown
}

inspect() {
  "$ENTITLE" --root "$ROOT" inspect "$@"
}

# runc_in ROOT ARG...: runc with the state dir ROOT (an engine's root
# under $BATS_TEST_TMPDIR/run).
runc_in() {
  "$RUNC_BIN" --root "$1" "${@:2}"
}

@test "inspect: a running container's classic seccomp filter, disassembled with syscall names; the container runs on" {
  make_bundle "$BUNDLE" /bin/sh -c 'while :; do /probe sleep 1; echo tick; done'
  create_started rnc "$BUNDLE" "$CTID"
  run inspect "$CTID"
  [ "$status" -eq 0 ]
  [[ "$output" == *"Seccomp: 0"* ]]
  [[ "$output" == *"seccomp: no filter"* ]]
  rnc delete -f "$CTID"

  set_entitlements "$BUNDLE" security.confined
  create_started ent "$BUNDLE" "$CTID"
  run inspect "$CTID"
  [ "$status" -eq 0 ]
  [[ "$output" == *"Seccomp: 2"* ]]
  [[ "$output" == *"seccomp filter 0 (classic, "*" instructions"* ]]
  [[ "$output" == *": ld [4] ; arch"* ]]
  [[ "$output" == *"; x86_64"* || "$(uname -m)" != x86_64 ]]
  [[ "$output" == *"; socket"* ]]
  [[ "$output" == *"ret #0x00050001 ; ERRNO(EPERM)"* ]]
  [[ "$output" == *"ret #0x7fff0000 ; ALLOW"* ]]
  # As many instructions as the kernel holds: the JSON's count is the text's.
  run inspect --json "$CTID"
  n=$(jq '.seccomp[0].instructions | length' <<<"$output")
  [ "$n" -gt 100 ]
  [ "$(jq -r '.status.NoNewPrivs' <<<"$output")" = 1 ]
  [ "$(jq -r '.status.CapEff_names | index("CAP_SYS_ADMIN")' <<<"$output")" = null ]
  # Stopped for the read, then running on.
  lines_before=$(wc -l <"$BATS_TEST_TMPDIR/$CTID.out")
  sleep 2.5
  [ "$(wc -l <"$BATS_TEST_TMPDIR/$CTID.out")" -gt "$lines_before" ]
  [ "$(rnc state "$CTID" | jq -r .status)" = running ]
}

@test "inspect: the programs and the policy come from the kernel, not from config.json; the admin's program of a custom entitlement named" {
  require_bpf_build
  make_bundle "$BUNDLE"
  # The custom entitlement of examples/checmate1.json: its cgroup/connect4
  # program, which the hook loads for this container beside entitle's.
  example_objects "$BATS_TEST_TMPDIR"
  write_entitle_config "$(jq '.state_dir = $s' --arg s "$BATS_TEST_TMPDIR/state" \
    "${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}/examples/checmate1.json")"
  set_entitlements "$BUNDLE" "network.egress=10.9.0.0/16:443,network.bind=8080-8081,example.com.checmate1"
  create_started ent "$BUNDLE" "$CTID"
  # What config.json says now does not matter.
  set_entitlements "$BUNDLE" network.none
  run inspect --json "$CTID"
  [ "$status" -eq 0 ]
  [ "$(jq -r '.policy.egress | join(" ")' <<<"$output")" = "10.9.0.0/16:443" ]
  [ "$(jq -r '.policy.bind | join(" ")' <<<"$output")" = "8080-8081" ]
  [ "$(jq -r '.policy.entitlements' <<<"$output")" = "example.com.checmate1,network.bind=8080-8081,network.egress=10.9.0.0/16:443" ]
  [ "$(jq -r '.policy.denials_recorded' <<<"$output")" = true ]
  [ "$(jq -r '[.programs[] | select(.owner == "entitle, this build") | .point] | sort | join(" ")' <<<"$output")" = \
    "bind4 bind6 connect4 connect6 sendmsg4 sendmsg6 skb_egress skb_ingress sock_create" ]
  [ "$(jq -c '[.programs[] | select(.owner == "the admin'"'"'s") | [.point, .name, .entitlement]]' <<<"$output")" = \
    '[["connect4","deny_port","example.com.checmate1"]]' ]
  run inspect "$CTID"
  [[ "$output" == *"connect4     id "*" deny_port        (the admin's, custom entitlement example.com.checmate1)"* ]]
  pid=$(rnc state "$CTID" | jq .pid)
  run inspect --json "$pid"
  [ "$status" -eq 0 ]
  [ "$(jq -r '.policy.egress | join(" ")' <<<"$output")" = "10.9.0.0/16:443" ]
  [ "$(jq -r .container <<<"$output")" = null ]
}

@test "inspect: a build without BPF says it did not ask for the cgroup programs, never that there are none" {
  if bpf_build; then
    skip "this entitle was built with BPF: the test above lists the programs it finds"
  fi
  make_bundle "$BUNDLE" /bin/sh -c 'while :; do /probe sleep 1; done'
  create_started rnc "$BUNDLE" "$CTID"
  run --separate-stderr inspect "$CTID"
  [ "$status" -eq 0 ]
  [[ "$output" == *"programs attached (effective, bpf_prog_query):"$'\n'"  not asked: this entitle was built without BPF (configure --disable-bpf)"$'\n'* ]]
  [[ "$output" == *"policy: none"* ]]
  rnc delete -f "$CTID"
}

@test "inspect: denials off in the admin config shows in the policy" {
  make_bundle "$BUNDLE"
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\", \"denials\": false}"
  set_entitlements "$BUNDLE" "network.egress=10.9.0.0/16:443"
  create_started ent "$BUNDLE" "$CTID"
  run inspect "$CTID"
  [ "$status" -eq 0 ]
  [[ "$output" == *"records of denials: off"* ]]
}

@test "inspect: an unknown container or process is one error line" {
  run --separate-stderr inspect "nope-$CTID"
  one_error_line
  [[ "$stderr" == *"is neither a running container"* ]]
  run --separate-stderr inspect
  one_error_line
}

@test "inspect: without --root, the engines' roots are searched; an id in two of them is an error naming both" {
  base="$BATS_TEST_TMPDIR/run"
  make_bundle "$BUNDLE"
  runc_in "$base/containerd/runc/k8s.io" create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1
  pid=$(runc_in "$base/containerd/runc/k8s.io" state "$CTID" | jq .pid)
  run --separate-stderr env ENTITLE_RUN_DIR="$base" "$ENTITLE" inspect --json "$CTID"
  [ "$status" -eq 0 ]
  [ "$(jq -r .pid <<<"$output")" = "$pid" ]
  [ "$(jq -r .root <<<"$output")" = "$base/containerd/runc/k8s.io" ]
  # --root given: only there.
  run --separate-stderr env ENTITLE_RUN_DIR="$base" "$ENTITLE" --root "$ROOT" inspect "$CTID"
  one_error_line
  [[ "$stderr" == *"is neither a running container of "*" under --root $ROOT nor a process"* ]]

  # The same id in Podman's root too (its own cgroup).
  mkdir -p "$BATS_TEST_TMPDIR/b2"
  jq --arg p "/$CTID-b2" '.linux.cgroupsPath = $p' "$BUNDLE/config.json" >"$BATS_TEST_TMPDIR/b2/config.json"
  runc_in "$base/runc" create -b "$BATS_TEST_TMPDIR/b2" "$CTID" </dev/null >/dev/null 2>&1
  run --separate-stderr env ENTITLE_RUN_DIR="$base" "$ENTITLE" inspect "$CTID"
  one_error_line
  [ "$stderr" = "entitle: inspect: container \`$CTID\` is in $base/containerd/runc/k8s.io and $base/runc: say which with --root" ]
}
