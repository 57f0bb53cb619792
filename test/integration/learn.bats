#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# entitle learn (issue 13): workloads with known answers.  Each proposal is
# then run through entitle, where it works, and narrowed by one step
# (a rung down the ladder, or another value), where it fails the way its
# evidence line says.  Real runc, real programs in counting mode, a real
# seccomp listener.

load attack-helpers

setup() {
  attack_setup
  # The learn run's counting programs are cgroup BPF programs.
  require_bpf_build
  STATE="$BATS_TEST_TMPDIR/state"
  write_entitle_config "{\"state_dir\": \"$STATE\", \"grant\": [\"security.admin\"]}"
}

teardown() {
  attack_teardown
}

learn() {
  "$ENTITLE" learn -b "$BUNDLE" "$@" </dev/null
}

# proposal: $output's "entitlements:" line, the list.
proposal() {
  sed -n 's/^entitlements: //p' <<<"$output"
}

# evidence NAME: the evidence line of NAME in $output.
evidence() {
  sed -n "s|^  $1: ||p" <<<"$output"
}

# skip_unless_caps_watched: $output is learn's; skip with its reason where
# no way of watching capability checks works on this kernel (bpf/cap-watch.h).
skip_unless_caps_watched() {
  local why
  why=$(sed -n 's/^  capabilities: not observed on this kernel: //p' <<<"$output")
  [ -z "$why" ] || skip "learn watches no capability check on this kernel: $why"
  [[ "$output" =~ "capabilities seen by "(tp_btf|fexit)"/cap_capable" ]]
  echo "# capabilities seen by ${BASH_REMATCH[1]}/cap_capable on $(uname -r)" >&3
}

# learn_watching STDERR: learn the bundle (its config kept for runs_with),
# skipped with the reason where no capability program works; the
# workload printed STDERR.
learn_watching() {
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run --separate-stderr learn
  [ "$status" -eq 0 ]
  skip_unless_caps_watched
  [ "$stderr" = "$1" ]
}

# with_cap NAME: the bundle's engine gives NAME too.
with_cap() {
  edit_config "$BUNDLE" '.process.capabilities |= map_values(. + [$cap])' --arg cap "$1"
}

# runs_with LIST WANT...: the bundle, with LIST as its entitlements, runs
# through entitle and prints WANT....
runs_with() {
  local list=$1
  shift
  cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
  set_entitlements "$BUNDLE" "$list"
  run_bundle ent "$BUNDLE" "$CTID-$((++RUNS))"
  expect_lines "$@"
}

@test "learn: a workload that only computes gets network.none,security.confined" {
  make_bundle "$BUNDLE" /bin/sh -c 'i=0; while [ $i -lt 100 ]; do i=$((i+1)); done; echo $i'
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run --separate-stderr learn
  [ "$status" -eq 0 ]
  [ "$(proposal)" = "network.none,security.confined" ]
  [ "$(evidence network.none)" = "nothing the run used is denied by it" ]
  [ "$stderr" = 100 ] # the workload's output, apart from the proposal
  runs_with "network.none,security.confined" 100
}

@test "learn: a workload that connects to a listener in a test-made network namespace gets network.user and the exact egress rule" {
  server_start srv in_netns "$ENTITLE_PROBE" accept-once 8080 20
  net_bundle "$BUNDLE" "connect $ADDR_A 8080"
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run --separate-stderr learn
  [ "$status" -eq 0 ]
  [ "$(proposal)" = "network.user,security.confined,network.egress=$ADDR_A/32:8080" ]
  [ "$(evidence network.user)" = "socket(AF_INET, SOCK_STREAM): denied by network.none (seccomp: socket() and socketpair() for AF_UNIX only)" ]
  [ "$(evidence "network.egress=$ADDR_A/32:8080")" = "connect to $ADDR_A:8080 (tcp)" ]
  [ "$stderr" = "connect $ADDR_A 8080: ok" ]
  server_start srv2 in_netns "$ENTITLE_PROBE" accept-once 8080 20
  runs_with "network.user,security.confined,network.egress=$ADDR_A/32:8080" "connect $ADDR_A 8080: ok"
  # One step narrower each, failing as the evidence says (network.none
  # contradicts the network modifiers: they go with it).
  runs_with "network.none,security.confined" "connect $ADDR_A 8080: EPERM"
  runs_with "network.user,security.confined,network.egress=$ADDR_A/32:8081" "connect $ADDR_A 8080: EPERM"
}

@test "learn: a workload that binds port 8080 gets network.bind=8080" {
  probe_bundle "$BUNDLE" "bind 8080"
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run --separate-stderr learn
  [ "$status" -eq 0 ]
  [ "$(proposal)" = "network.user,security.confined,network.bind=8080" ]
  [ "$(evidence network.bind=8080)" = "bind to port 8080 (tcp)" ]
  runs_with "network.user,security.confined,network.bind=8080" "bind 8080: ok"
  runs_with "network.none,security.confined" "bind 8080: EPERM"
  runs_with "network.user,security.confined,network.bind=8081" "bind 8080: EPERM"
}

@test "learn: a workload that mounts a tmpfs gets security.admin, with the evidence line" {
  probe_bundle "$BUNDLE" "mount /tmp"
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  # The engine gave no CAP_SYS_ADMIN: the mount fails in the run too, and
  # is seen all the same.
  run --separate-stderr learn
  [ "$status" -eq 0 ]
  [ "$stderr" = "mount /tmp: EPERM" ]
  [ "$(proposal)" = "network.none,security.admin" ]
  [ "$(evidence security.admin)" = "mount(): denied by security.confined and security.view (seccomp)" ]
  runs_with "network.none,security.admin" "mount /tmp: ok"
  runs_with "network.none,security.view" "mount /tmp: EPERM"
}

@test "learn: the run keeps the engine's profile: what it denies stays denied, what it allows runs as before" {
  probe_bundle "$BUNDLE" "personality 6" "keyctl"
  edit_config "$BUNDLE" '.linux.seccomp = {defaultAction: "SCMP_ACT_ALLOW",
      syscalls: [{names: ["personality"], action: "SCMP_ACT_ERRNO"}]}'
  run_bundle rnc
  expect_lines "personality 6: EPERM" "keyctl: ok"
  run --separate-stderr learn
  [ "$status" -eq 0 ]
  [ "$stderr" = "$(printf 'personality 6: EPERM\nkeyctl: ok')" ]
  # keyctl was seen (security.confined denies it); personality was not.
  [ "$(proposal)" = "network.none,security.admin" ]
  [[ "$(evidence security.admin)" == "keyctl(): denied by security.confined and security.view"* ]]
}

@test "learn: --write puts the proposal in the annotation and changes nothing else; it says what a run cannot observe" {
  make_bundle "$BUNDLE" /bin/true
  mode=$(stat -c %a "$BUNDLE/config.json")
  before=$(jq -S 'del(.annotations)' "$BUNDLE/config.json")
  run --separate-stderr learn --write --json
  [ "$status" -eq 0 ]
  [ "$(jq -r .entitlements <<<"$output")" = "network.none,security.confined" ]
  [ "$(jq -r '.annotations["io.entitle.entitlements"]' "$BUNDLE/config.json")" = "network.none,security.confined" ]
  [ "$(jq -S 'del(.annotations)' "$BUNDLE/config.json")" = "$before" ]
  [ "$(stat -c %a "$BUNDLE/config.json")" = "$mode" ]
  [ -z "$(ls -A "$BUNDLE" | grep -v '^config.json$')" ]
  [[ "$(jq -r '.not_observed | join("\n")' <<<"$output")" == *"host.devices.*: not proposed: what its rungs restrict is not seen by a run"* ]]
}

@test "learn: --duration stops a workload that does not end" {
  make_bundle "$BUNDLE" /probe sleep 600
  run --separate-stderr learn --duration 1 --json
  [ "$status" -eq 0 ]
  [ "$(jq -r .run.timed_out <<<"$output")" = true ]
  [ -z "$(rnc list -q)" ]
}

@test "learn: a workload that uses no capability gets no capability evidence" {
  make_bundle "$BUNDLE" /bin/sh -c 'i=0; while [ $i -lt 100 ]; do i=$((i+1)); done; echo $i'
  learn_watching 100
  [ "$(proposal)" = "network.none,security.confined" ]
  ! grep -q CAP_ <<<"$output"
}

@test "learn: a workload that uses CAP_NET_ADMIN (the engine gave it) gets network.admin, the capability as evidence" {
  probe_bundle "$BUNDLE" "netadmin"
  with_cap CAP_NET_ADMIN
  learn_watching "netadmin: ok"
  # security.confined stays: network.admin adds CAP_NET_ADMIN after its bound.
  [ "$(proposal)" = "network.admin,security.confined" ]
  [ "$(evidence network.admin)" = "CAP_NET_ADMIN used by ioctl(): denied by network.none and network.user and network.proxy (it takes CAP_NET_ADMIN away)" ]
  write_entitle_config "{\"state_dir\": \"$STATE\", \"grant\": [\"network.admin\", \"network.proxy\"]}"
  runs_with "network.admin,security.confined" "netadmin: ok"
  runs_with "network.proxy,security.confined" "netadmin: EPERM"
}

@test "learn: a workload refused CAP_NET_ADMIN (the engine did not give it) gets network.admin, which gives it" {
  probe_bundle "$BUNDLE" "netadmin"
  learn_watching "netadmin: EPERM"
  [ "$(proposal)" = "network.admin,security.confined" ]
  [ "$(evidence network.admin)" = "CAP_NET_ADMIN asked for by ioctl(), refused in the run: denied by network.none and network.user and network.proxy (it does not give CAP_NET_ADMIN)" ]
  write_entitle_config "{\"state_dir\": \"$STATE\", \"grant\": [\"network.admin\"]}"
  runs_with "network.admin,security.confined" "netadmin: ok"
}

@test "learn: a workload that writes a file it does not own with CAP_DAC_OVERRIDE gets security.admin" {
  make_bundle "$BUNDLE" /bin/sh -c 'echo x >/dev/shm/f && chown 1000 /dev/shm/f && chmod 600 /dev/shm/f && printf "write: "; /probe write /dev/shm/f'
  learn_watching "write: ok"
  [ "$(proposal)" = "network.none,security.admin" ]
  [ "$(evidence security.admin)" = "CAP_DAC_OVERRIDE used by openat(): denied by security.confined and security.view (it takes CAP_DAC_OVERRIDE away)" ]
  runs_with "network.none,security.admin" "write: ok"
  runs_with "network.none,security.view" "write: EACCES"
}

# widening NAME: the line under NAME's evidence that says it widens the
# engine's config, without its leading spaces.
widening() {
  sed -n "/^  $1: /{n;s/^    widens/widens/p}" <<<"$output"
}

@test "learn: a proposal that widens the engine's config says it needs the admin's grant and the narrower choice (one io_uring_setup, one raw socket)" {
  # Issue 23, class 7: one io_uring_setup made learn propose
  # security.admin, one raw socket network.proxy, and nothing said that
  # the engine's own config, which needs no grant, covered both.
  # containerd's profile allows io_uring.
  containerd_profile "$BATS_TEST_TMPDIR/containerd.json"
  probe_bundle "$BUNDLE" "io_uring"
  use_profile "$BUNDLE" "$BATS_TEST_TMPDIR/containerd.json"
  write_entitle_config "{\"state_dir\": \"$STATE\"}"
  learn_watching "io_uring: ok"
  [ "$(proposal)" = "network.user,security.admin" ]
  [ "$(widening security.admin)" = "widens the engine's config: needs the admin's grant; narrower: no security.* rung: the engine's config let io_uring_setup() through in the run" ]
  # network.user only narrows: nothing more is said of it.
  [ -z "$(widening network.user)" ]
  # The narrower choice runs, and needs no grant; the proposal is refused
  # without one, as the line says.
  runs_with "network.user" "io_uring: ok"
  cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
  set_entitlements "$BUNDLE" "network.user,security.admin"
  run_bundle ent "$BUNDLE" "$CTID-$((++RUNS))"
  [ "$status" -ne 0 ]
  [[ "$stderr" == *'"security.admin" requested by the container is not granted'* ]]
  # Granted, it says so.
  write_entitle_config "{\"state_dir\": \"$STATE\", \"grant\": [\"security.admin\"]}"
  cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
  run --separate-stderr learn --json
  [ "$status" -eq 0 ]
  [ "$(jq -r '.proposal[] | select(.entitlement == "security.admin") | .grant' <<<"$output")" = granted ]
  [ "$(jq -r '.proposal[] | select(.entitlement == "network.user") | .widens' <<<"$output")" = false ]

  # A raw socket, where the engine gives CAP_NET_RAW.
  write_entitle_config "{\"state_dir\": \"$STATE\"}"
  probe_bundle "$BUNDLE" "socket raw"
  with_cap CAP_NET_RAW
  learn_watching "socket raw: ok"
  [ "$(proposal)" = "network.proxy,security.confined" ]
  [ "$(widening network.proxy)" = "widens the engine's config: needs the admin's grant; narrower: no network.* rung: the engine's config let socket(AF_INET, SOCK_RAW) through in the run" ]
}

@test "learn: where nothing narrower covers the evidence, the widening proposal says why (a capability refused; the rest of the proposal refuses the call)" {
  probe_bundle "$BUNDLE" "mount /tmp"
  write_entitle_config "{\"state_dir\": \"$STATE\"}"
  learn_watching "mount /tmp: EPERM"
  [ "$(proposal)" = "network.none,security.admin" ]
  [ "$(widening security.admin)" = "widens the engine's config: needs the admin's grant; narrower: none: the engine's config refused mount() a capability, and no narrower security.* rung allows it" ]

  # No seccomp profile from the engine: the one entitle writes for
  # network.user leaves io_uring out.
  probe_bundle "$BUNDLE" "io_uring"
  learn_watching "io_uring: ok"
  [ "$(proposal)" = "network.user,security.admin" ]
  [ "$(widening security.admin)" = "widens the engine's config: needs the admin's grant; narrower: none: the rest of the proposal (network.user) refuses io_uring_setup() on the engine's config" ]
  runs_with "network.user" "io_uring: EPERM"
}
