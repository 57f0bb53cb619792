#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The layers beside cgroup BPF and seccomp (DESIGN §4): Checmate and eBPF
# seccomp (seed patch sets mainline never merged) and BPF LSM.  Their code
# runs against a fake kernel in test/unit/test-seeds.c; here, what this
# host does for real: where it lacks a layer, nothing of it is written or
# run and nothing is refused, and a test of the layer itself is skipped
# with the reason the probe gives.

load helpers

setup() {
  common_setup
  PROBE_JSON="$BATS_TEST_TMPDIR/probe.json"
  "$ENTITLE" probe --json >"$PROBE_JSON"
}

teardown() {
  common_teardown
}

probe() {
  jq -r "$1" "$PROBE_JSON"
}

@test "layers: where the kernel has neither seed layer, create writes no filter fd and no poststop (runc)" {
  [ "$(probe .checmate)" = false ] || skip "this kernel has Checmate"
  [ "$(probe .seccomp_filter_extended)" = false ] || skip "this kernel has eBPF seccomp filters"
  make_bundle "$BUNDLE" /probe sleep 1
  set_entitlements "$BUNDLE" "security.confined,network.egress=10.0.0.0/8"
  run --separate-stderr "$ENTITLE" compile -b "$BUNDLE"
  [ "$status" -eq 0 ]
  # No helper in front of the command (no fs.* here, no eBPF seccomp),
  # and a createRuntime hook without poststop (runc manages the cgroup).
  [ "$(jq -r '.process.args[0]' <<<"$output")" = /probe ]
  [ "$(jq -r '.hooks | keys | join(",")' <<<"$output")" = createRuntime ]
  # With fs.read the helper comes, with Landlock's rules only (fs.write
  # needs Landlock ABI 3, which a 6.1 kernel lacks).
  set_entitlements "$BUNDLE" "security.confined,fs.read=/tmp"
  run --separate-stderr "$ENTITLE" compile -b "$BUNDLE"
  [ "$status" -eq 0 ]
  [[ "$(jq -c '.process.args' <<<"$output")" != *seccomp-fd* ]]
}

@test "layers: entitle checmate reset says, in one line, that this kernel has no Checmate" {
  [ "$(probe .checmate)" = false ] || skip "this kernel has Checmate: test/unit/test-seeds.c covers reset"
  run --separate-stderr "$ENTITLE" checmate reset socket_connect
  [ "$status" -ne 0 ]
  [ "$stderr" = 'entitle: checmate: this kernel has no Checmate (PR_CHECMATE is unknown to it)' ]
  run --separate-stderr "$ENTITLE" checmate reset no_such_hook
  [ "$status" -ne 0 ]
  [ "$stderr" = 'entitle: checmate: unknown hook `no_such_hook`' ]
  run --separate-stderr "$ENTITLE" checmate
  [ "$status" -ne 0 ]
  [[ "$stderr" == 'entitle: checmate: usage: entitle checmate reset HOOK'* ]]
}

@test "layers: Checmate: a create installs entitle's program at socket_connect, and reset takes it off" {
  [ "$(probe .checmate)" = true ] || skip "this kernel has no Checmate (PR_CHECMATE): test/unit/test-seeds.c runs the layer on the fake kernel"
  make_bundle "$BUNDLE" /probe sleep 600
  set_entitlements "$BUNDLE" "network.egress=10.0.0.0/8"
  create_started ent "$BUNDLE" "$CTID"
  # Installed: the reset takes it off, and the next create installs it
  # again.  "lock" is the fake kernel's test: a locked hook stays locked
  # until a reboot, on this host too.
  run --separate-stderr "$ENTITLE" checmate reset socket_connect
  [[ "$stderr" != *"is locked"* ]] || skip "this host's socket_connect hook is locked (deny_reset) until a reboot"
  [ "$status" -eq 0 ]
  [ "$output" = "checmate: every program taken off hook socket_connect" ]
}

@test "layers: BPF LSM: the programs are built where the build host had BTF" {
  if ! grep -q '^#define ENTITLE_HAVE_BPF_LSM 1' "$ENTITLE_BUILDDIR/config.h"; then
    skip "this build had no kernel BTF: the BPF LSM programs are left out"
  fi
  [ -s "$ENTITLE_BUILDDIR/bpf/progs/lsm.bpf.o" ]
  for p in entitle_lsm_socket_listen entitle_lsm_file_open entitle_lsm_sb_mount entitle_lsm_task_kill; do
    bpftool btf dump file "$ENTITLE_BUILDDIR/bpf/progs/lsm.bpf.o" | grep -q "FUNC '$p'"
  done
}

@test "layers: BPF LSM: a confined container's signal to a task outside its cgroup is refused (task_kill)" {
  require_lsm
  # The host's pid namespace, so that the container sees the task; the
  # attack under plain runc first: CAP_KILL (Docker's default, which
  # confined keeps) kills it.
  sleep 300 &
  outside=$!
  make_bundle "$BUNDLE" /bin/sh -c "kill $outside 2>&1; echo status \$?"
  edit_config "$BUNDLE" '.linux.namespaces |= map(select(.type != "pid"))'
  run_bundle rnc "$BUNDLE" "$CTID-runc"
  [ "$output" = "status 0" ]
  ! kill -0 "$outside" 2>/dev/null
  sleep 300 &
  outside=$!
  make_bundle "$BUNDLE" /bin/sh -c "kill $outside 2>&1; echo status \$?"
  edit_config "$BUNDLE" '.linux.namespaces |= map(select(.type != "pid"))'
  set_entitlements "$BUNDLE" security.confined
  run_bundle ent "$BUNDLE"
  alive=$(kill -0 "$outside" 2>/dev/null && echo yes || echo no)
  kill "$outside" 2>/dev/null || true
  [[ "$output" == *"Operation not permitted"* ]]
  [ "$alive" = yes ]
}

# require_lsm: skip where the kernel runs no lsm_cgroup program.
require_lsm() {
  [ "$(probe .lsm_cgroup)" = true ] || skip "this kernel does not run lsm_cgroup programs: $(probe .lsm_cgroup_error)"
}

# The runtime mounts the container's root, pivots into it, masks and
# remounts paths read-only after createRuntime, when the hook has attached
# sb_mount and the runtime's init already sits in the cgroup: where BPF
# LSM runs (a stock Debian 12 host) a confined container did not start
# ("error jailing process inside rootfs: mount ., flags: 0x84000:
# operation not permitted").
@test "layers: BPF LSM: a confined container starts: the runtime's own mounts pass (runc, crun)" {
  require_lsm
  make_bundle "$BUNDLE" /bin/sh -c 'echo started; /probe mount /tmp; exit 0'
  set_entitlements "$BUNDLE" security.confined
  run_bundle ent "$BUNDLE"
  [ "$status" -eq 0 ]
  expect_lines started EPERM
  require_crun
  use_crun
  run_bundle ent_crun "$BUNDLE" "$CTID-crun"
  [ "$status" -eq 0 ]
  expect_lines started EPERM
}

# lsm_only_bundle DIR JQ PROBE...: a probe_bundle edited by JQ, rewritten
# by entitle for security.confined (its hook included, which attaches the
# BPF LSM programs), then given CAP_SYS_ADMIN back, no seccomp filter, and
# JQ again: where seccomp, capabilities and mounts would let the probes
# through, only the BPF LSM layer stands in their way.  Run by bare runc;
# the hook the config names does what it does under entitle.
lsm_only_bundle() {
  local dir=$1 jq=$2
  shift 2
  probe_bundle "$dir" "$@"
  edit_config "$dir" "$jq"' | .process.capabilities |= map_values(. + ["CAP_SYS_ADMIN"])'
  set_entitlements "$dir" security.confined
  "$ENTITLE" compile -b "$dir" >"$dir/config.json.new"
  mv "$dir/config.json.new" "$dir/config.json"
  edit_config "$dir" "$jq"' | del(.linux.seccomp) | .process.capabilities |= map_values(. + ["CAP_SYS_ADMIN"] | unique)'
}

@test "layers: BPF LSM: the confined container's process cannot mount from its first instruction (sb_mount, move_mount)" {
  require_lsm
  # The attack under plain runc: with CAP_SYS_ADMIN and no seccomp filter
  # both mounts go through.
  probe_bundle "$BUNDLE" "mount /tmp" "move-mount /tmp"
  edit_config "$BUNDLE" '.process.capabilities |= map_values(. + ["CAP_SYS_ADMIN"])'
  run_bundle rnc "$BUNDLE"
  [ "$status" -eq 0 ]
  expect_lines "mount /tmp: ok" "move-mount /tmp: ok"
  # The same container, with only entitle's BPF LSM layer of
  # security.confined: refused from its first instruction.
  lsm_only_bundle "$BUNDLE" . "mount /tmp" "move-mount /tmp"
  [ "$(jq -r '.hooks.createRuntime[0].args[1]' "$BUNDLE/config.json")" = createRuntime ]
  [ "$(jq -r '.linux.seccomp' "$BUNDLE/config.json")" = null ]
  run_bundle rnc "$BUNDLE" "$CTID-lsm"
  expect_lines "mount /tmp: EPERM" "move-mount /tmp: EPERM"
}

# security.confined makes /proc/sys read-only and its cgroup program
# refuses a sysctl write; the LSM program refuses the open itself, where
# the mount would let it through (a runtime that skips readonlyPaths).
@test "layers: BPF LSM: a confined container cannot open /proc/sys for writing but the keys linux.sysctl sets (file_open)" {
  require_lsm
  local sysctls='.linux.sysctl = {"net.ipv4.ip_forward": "1"} | .linux.readonlyPaths -= ["/proc/sys"]'
  probe_bundle "$BUNDLE" "write /proc/sys/net/ipv4/ip_forward" "write /proc/sys/net/ipv4/ping_group_range"
  edit_config "$BUNDLE" "$sysctls"
  run_bundle rnc "$BUNDLE"
  expect_lines "write /proc/sys/net/ipv4/ip_forward: ok" "write /proc/sys/net/ipv4/ping_group_range: ok"
  lsm_only_bundle "$BUNDLE" "$sysctls" "write /proc/sys/net/ipv4/ip_forward" "write /proc/sys/net/ipv4/ping_group_range"
  run_bundle rnc "$BUNDLE" "$CTID-lsm"
  expect_lines "write /proc/sys/net/ipv4/ip_forward: ok" "write /proc/sys/net/ipv4/ping_group_range: EPERM"
}

# enter_and_mount PID: a host process (all capabilities, no seccomp) that
# joins PID's cgroup, then enters its mount namespace and root, and mounts.
enter_and_mount() {
  run sh -c 'echo $$ >"$1/cgroup.procs" && exec nsenter -t "$2" -m -r /probe mount /tmp' \
    sh "$(cgroup_dir "$1")" "$1"
}

@test "layers: BPF LSM: a process that enters a confined container later cannot mount (sb_mount)" {
  require_lsm
  make_bundle "$BUNDLE" /probe sleep 600
  create_started rnc "$BUNDLE" "$CTID-runc"
  enter_and_mount "$(rnc state "$CTID-runc" | jq -r .pid)"
  [ "$output" = ok ]
  set_entitlements "$BUNDLE" security.confined
  create_started ent "$BUNDLE" "$CTID"
  enter_and_mount "$(ent state "$CTID" | jq -r .pid)"
  [ "$output" = EPERM ]
}

@test "layers: eBPF seccomp: a confined container's process holds entitle's filter beside the runtime's" {
  [ "$(probe .seccomp_filter_extended)" = true ] || skip "this kernel has no eBPF seccomp filters (SECCOMP_MODE_FILTER_EXTENDED)"
  make_bundle "$BUNDLE" /bin/sh -c 'grep Seccomp_filters /proc/self/status'
  set_entitlements "$BUNDLE" security.confined
  run_bundle ent "$BUNDLE"
  [ "$status" -eq 0 ]
  [ "$(awk '{ print $2 }' <<<"$output")" -ge 2 ]
}
