#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Custom entitlements (issue 15, entitle.json(5) `entitlements`): the seed
# samples of examples/ for real in containers on this kernel, each first
# shown not to happen under the bare runtime, observed from inside (the
# errno the process sees); the admin's definitions that are refused, each
# with one line and the bundle untouched.

load helpers

setup() {
  common_setup
  # The examples' BPF objects, which a build without BPF does not build.
  require_bpf_build
  SRCDIR=${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}
  BUILDDIR=${ENTITLE_BUILDDIR:-$BATS_TEST_DIRNAME/../..}
}

teardown() {
  common_teardown
  drop_netns
}

# example_config NAME: ENTITLE_CONFIG is examples/NAME.json as shipped,
# with the objects make built beside it (a build outside the source tree
# gets both copied into one directory, as `make install` puts them).
example_config() {
  local dir="$SRCDIR/examples"
  if [ ! -f "$dir/$1.bpf.o" ] && [ ! -f "$dir/$1-connect4.bpf.o" ]; then
    dir="$BATS_TEST_TMPDIR/examples"
    mkdir -p "$dir"
    cp "$SRCDIR/examples/$1.json" "$BUILDDIR"/examples/*.bpf.o "$dir/"
  fi
  [ -f "$dir/$1.json" ]
  export ENTITLE_CONFIG="$dir/$1.json"
}

@test "seccomp1: close(999) fails with EPERM while close of another bad fd gives EBADF (the classic rule; the eBPF seccomp program is skipped here)" {
  probe_bundle "$BUNDLE" "close 999" "close 998"
  run_bundle rnc
  expect_lines "close 999: EBADF" "close 998: EBADF"

  example_config seccomp1
  set_entitlements "$BUNDLE" example.com.seccomp1
  run_bundle ent
  expect_lines "close 999: EPERM" "close 998: EBADF"
  # What the container ran under: the definition's digest.
  [[ "$(jq -r '.annotations["io.entitle.custom"]' "$BUNDLE/config.json")" =~ ^example\.com\.seccomp1@[0-9a-f]{16}$ ]]
}

@test "seccomp1: the same under crun, by the example's profile (--entitle-profile=seccomp1)" {
  require_crun
  probe_bundle "$BUNDLE" "close 999" "close 998"
  run_bundle crn
  expect_lines "close 999: EBADF" "close 998: EBADF"

  # The example with the runtime named, which is the host's to say.
  example_objects "$BATS_TEST_TMPDIR"
  write_entitle_config "$(jq '.runtime = $crun' --arg crun "$CRUN_BIN" "$SRCDIR/examples/seccomp1.json")"
  run --separate-stderr run_crun_ns "$ENTITLE" --entitle-profile=seccomp1 --cgroup-manager=disabled \
    --root "$CRUN_ROOT" run -b "$BUNDLE" "$CTID" </dev/null
  expect_lines "close 999: EPERM" "close 998: EBADF"
}

@test "seccomp2: sched_yield() fails with EPERM" {
  probe_bundle "$BUNDLE" "sched_yield"
  run_bundle rnc
  expect_lines "sched_yield: ok"

  example_config seccomp2
  set_entitlements "$BUNDLE" example.com.seccomp2
  run_bundle ent
  expect_lines "sched_yield: EPERM"
}

@test "checmate1: connect() to port 1 fails with EPERM, through the admin's cgroup/connect4 program (the Checmate one is skipped here)" {
  make_netns "entitle-custom-$$-$BATS_TEST_NUMBER" 10.203.0.1
  probe_bundle "$BUNDLE" "connect 10.203.0.1 1" "connect 10.203.0.1 2"
  join_netns "$BUNDLE"
  run_bundle rnc
  expect_lines "connect 10.203.0.1 1: ECONNREFUSED" "connect 10.203.0.1 2: ECONNREFUSED"

  example_config checmate1
  set_entitlements "$BUNDLE" example.com.checmate1
  run_bundle ent
  expect_lines "connect 10.203.0.1 1: EPERM" "connect 10.203.0.1 2: ECONNREFUSED"
}

@test "checmate1: the program reads the port from the entitlement's data (entitle_data), here under crun in a cgroup the hook made" {
  require_crun
  make_netns "entitle-custom-$$-$BATS_TEST_NUMBER" 10.203.0.1
  probe_bundle "$BUNDLE" "connect 10.203.0.1 1" "connect 10.203.0.1 2"
  join_netns "$BUNDLE"
  run_bundle crn
  expect_lines "connect 10.203.0.1 1: ECONNREFUSED" "connect 10.203.0.1 2: ECONNREFUSED"

  example_objects "$BATS_TEST_TMPDIR"
  write_entitle_config "$(jq '.entitlements["example.com.checmate1"].data = [2] | .runtime = $crun' \
    --arg crun "$CRUN_BIN" "$SRCDIR/examples/checmate1.json")"
  set_entitlements "$BUNDLE" example.com.checmate1
  run_bundle ent_crun
  expect_lines "connect 10.203.0.1 1: ECONNREFUSED" "connect 10.203.0.1 2: EPERM"
}

# seed_path FIELD: what explain says of an admin's program at the seed
# interface whose `entitle probe` FIELD is given, on this host: used, or
# left to the entitlement's other parts.
seed_path() {
  if [ "$("$ENTITLE" probe --json | jq -r ".$1")" = true ]; then
    echo "enforced by the admin's"
  else
    echo "not used here: this kernel has no"
  fi
}

@test "explain: each example's parts, and the path each of its programs takes on this host" {
  example_config checmate1
  run --separate-stderr "$ENTITLE" explain example.com.checmate1
  [ "$status" -eq 0 ]
  [[ "$output" == *"custom entitlement of $ENTITLE_CONFIG"* ]]
  [[ "$output" == *"connect4: program deny_port of "*"checmate1-connect4.bpf.o"* ]]
  [[ "$output" == *"cgroup BPF (connect4): enforced by cgroup BPF"* ]]
  [[ "$output" == *"Checmate (checmate/socket_connect): $(seed_path checmate)"* ]]
  run --separate-stderr "$ENTITLE" explain --json example.com.checmate1
  jq -e '.[0] | .custom == $c and (.digest | test("^[0-9a-f]{16}$")) and .data == [1]
    and ([.bpf[].attach] == ["connect4", "checmate/socket_connect"])
    and ([.mechanisms[] | select(.mechanism == "Checmate") | .enforceable] == [$here == "true"])' \
    --arg c "$ENTITLE_CONFIG" --arg here "$("$ENTITLE" probe --json | jq -r .checmate)" <<<"$output"
  run --separate-stderr "$ENTITLE" explain
  [[ "$output" == *"example.com.checmate1"* ]]
  run --separate-stderr "$ENTITLE" explain example.com.checmat1
  [[ "$stderr" == *"did you mean \`example.com.checmate1\`"* ]]

  example_config seccomp1
  run --separate-stderr "$ENTITLE" explain example.com.seccomp1
  [ "$status" -eq 0 ]
  [[ "$output" == *"seccomp: enforced by seccomp (linux.seccomp, loaded by the runtime)"* ]]
  [[ "$output" == *"eBPF seccomp (seccomp): $(seed_path seccomp_filter_extended)"* ]]
}

@test "refused: a row whose only program is at a seed interface this kernel lacks, naming the entitlement and the kernel feature" {
  local lacked=0
  if [ "$(seed_path seccomp_filter_extended)" != "enforced by the admin's" ]; then
    bad_definition '{"entitlements": {"example.com.x": {"bpf": [{"object": "seccomp1.bpf.o", "program": "close_999", "attach": "seccomp"}]}}}' \
      "entitlement \`example.com.x\`" "no eBPF seccomp (SECCOMP_MODE_FILTER_EXTENDED)"
    lacked=$((lacked + 1))
  fi
  if [ "$(seed_path checmate)" != "enforced by the admin's" ]; then
    bad_definition '{"entitlements": {"example.com.x": {"bpf": [{"object": "checmate1.bpf.o", "program": "deny_port", "attach": "checmate/socket_connect"}]}}}' \
      "entitlement \`example.com.x\`" "no Checmate (PR_CHECMATE)"
    lacked=$((lacked + 1))
  fi
  [ "$lacked" -gt 0 ] || skip "this kernel has both eBPF seccomp and Checmate"
}

@test "features: the custom entitlements with the digest of their definition" {
  example_config seccomp2
  run --separate-stderr "$ENTITLE" features
  [ "$status" -eq 0 ]
  jq -r '.annotations["io.entitle.entitlements"]' <<<"$output" | tr , '\n' | grep -qx example.com.seccomp2
  [[ "$(jq -r '.annotations["io.entitle.custom"]' <<<"$output")" =~ ^example\.com\.seccomp2@[0-9a-f]{16}$ ]]
}

# bad_definition JSON WORD...: with the admin config JSON (written in the
# test's directory, beside the examples' objects), a create that asks for
# example.com.x is refused with one line naming each WORD, the bundle
# untouched.
bad_definition() {
  local json=$1
  shift
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" example.com.x
  example_objects "$BATS_TEST_TMPDIR"
  write_entitle_config "$json"
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused "$@"
}

@test "refused: a syscall libseccomp does not know" {
  bad_definition '{"entitlements": {"example.com.x": {"seccomp": [{"names": ["no_such_call"]}]}}}' \
    entitlement example.com.x "unknown syscall \`no_such_call\`"
}

@test "refused: a program whose type its attach point does not take" {
  bad_definition '{"entitlements": {"example.com.x": {"bpf": [{"object": "checmate1-connect4.bpf.o", "program": "deny_port", "attach": "sysctl"}]}}}' \
    example.com.x deny_port "cannot attach at sysctl"
  bad_definition '{"entitlements": {"example.com.x": {"bpf": [{"object": "checmate1-connect4.bpf.o", "program": "deny_port", "attach": "bind4"}]}}}' \
    example.com.x deny_port "cannot attach at bind4"
  bad_definition '{"entitlements": {"example.com.x": {"bpf": [{"object": "seccomp1.bpf.o", "program": "close_999", "attach": "connect4"}]}}}' \
    example.com.x close_999 "cannot attach at connect4"
  bad_definition '{"entitlements": {"example.com.x": {"bpf": [{"object": "checmate1-connect4.bpf.o", "program": "deny_port", "attach": "seccomp"}]}}}' \
    example.com.x "its section must be \`seccomp\`"
}

@test "refused: a missing object, and a program the object does not hold" {
  bad_definition '{"entitlements": {"example.com.x": {"bpf": [{"object": "nowhere.bpf.o", "program": "p", "attach": "connect4"}]}}}' \
    example.com.x "$BATS_TEST_TMPDIR/nowhere.bpf.o" "No such file"
  bad_definition '{"entitlements": {"example.com.x": {"bpf": [{"object": "seccomp1.bpf.o", "program": "nope", "attach": "seccomp"}]}}}' \
    example.com.x "has no program \`nope\`"
}

@test "refused: a name that would shadow a built-in, and a name without a vendor" {
  bad_definition '{"entitlements": {"network.example.x": {"seccomp": [{"names": ["ptrace"]}]}}}' \
    network.example.x "built-in domain"
  bad_definition '{"entitlements": {"example.nodebug": {"seccomp": [{"names": ["ptrace"]}]}}}' \
    example.nodebug "vendor component"
}

@test "the trust rule: a custom entitlement that widens needs a grant; one that narrows does not" {
  probe_bundle "$BUNDLE" caps
  set_entitlements "$BUNDLE" example.com.debug
  def='"entitlements": {"example.com.debug": {"capabilities": {"add": ["CAP_SYS_PTRACE"]}}}'
  write_entitle_config "{$def}"
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused example.com.debug "not granted by $ENTITLE_CONFIG"

  write_entitle_config "{$def, \"grant\": [\"example.com.*\"]}"
  run_bundle ent
  [ "$status" -eq 0 ]
  has_cap "$(cap_line "$output" CapBnd)" 19

  # Without a grant: a narrowing one (it drops a capability).
  write_entitle_config '{"entitlements": {"example.com.no-chown": {"capabilities": {"drop": ["CAP_CHOWN"]}}}}'
  set_entitlements "$BUNDLE" example.com.no-chown
  run_bundle ent "$BUNDLE" "$CTID-2"
  [ "$status" -eq 0 ]
  lacks_cap "$(cap_line "$output" CapBnd)" 0
}
