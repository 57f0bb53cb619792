#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# An entitle configured --disable-bpf (README.md, "Build and install")
# with real runc: every entitlement that needs a BPF program (network.none
# too: its sock_create program denies inet sockets) is refused at create,
# naming it and the build, before the runtime starts and with the bundle
# untouched; the entitlements that need none work as in a build with BPF.
# The refusals run only in such a build.

load helpers

NO_BPF="this entitle was built without BPF (configure --disable-bpf)"

# require_nobpf_build: skip in a build that has its BPF programs.
require_nobpf_build() {
  if bpf_build; then
    skip "this entitle was built with BPF: the refusals of a build configured --disable-bpf are tested there"
  fi
}

@test "nobpf: entitle features says whether the build has its BPF programs" {
  run --separate-stderr "$ENTITLE" features
  [ "$status" -eq 0 ]
  bpf=$(printf '%s\n' "$output" | jq -r '.annotations["io.entitle.bpf"]')
  mech=$(printf '%s\n' "$output" | jq -r '.annotations["io.entitle.mechanisms"]')
  if [ "$bpf" = false ]; then
    # Nothing BPF is offered, whatever the kernel runs.
    [[ ",$mech," != *,cgroup-bpf,* && ",$mech," != *,bpf-lsm,* ]]
    [[ ",$mech," != *,checmate,* && ",$mech," != *,seccomp-ebpf,* ]]
  else
    [ "$bpf" = true ]
  fi
}

@test "nobpf: network.egress is refused at create, naming it and the build; nothing changes" {
  require_nobpf_build
  make_bundle "$BUNDLE"
  request_entitlements "$BUNDLE" network.egress=10.0.0.0/8:443
  snapshot
  run_detached "$ENTITLE" --root "$ROOT" create -b "$BUNDLE" "$CTID"
  refused '`network.egress=10.0.0.0/8:443`' "$NO_BPF"
}

@test "nobpf: network.none, whose sock_create program holds inet sockets, is refused beside host.processes.none, naming only it" {
  require_nobpf_build
  make_bundle "$BUNDLE"
  request_entitlements "$BUNDLE" network.none,host.processes.none
  snapshot
  run_detached "$ENTITLE" --root "$ROOT" create -b "$BUNDLE" "$CTID"
  refused '`network.none`' "$NO_BPF"
  [[ "$stderr" != *host.processes* ]]
}

@test "nobpf: with on_unenforceable warn the program is left out with the same reason, not silently" {
  require_nobpf_build
  write_entitle_config "{\"on_unenforceable\": \"warn\", \"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  probe_bundle "$BUNDLE" "socket inet"
  request_entitlements "$BUNDLE" network.egress=10.0.0.0/8:443
  run_bundle ent
  [ "$status" -eq 0 ]
  [[ "$stderr" == *'`network.egress=10.0.0.0/8:443`'*"$NO_BPF"* ]]
}

@test "nobpf: host.processes.none, which needs no BPF program, gives the container a pid namespace of its own" {
  make_bundle "$BUNDLE" /bin/sh -c 'readlink /proc/self/ns/pid; echo $$'
  edit_config "$BUNDLE" '.linux.namespaces |= map(select(.type != "pid"))'
  request_entitlements "$BUNDLE" host.processes.none
  run_bundle ent
  [ "$status" -eq 0 ]
  [ "${lines[0]}" != "$(readlink /proc/self/ns/pid)" ]
  [ "${lines[1]}" = 1 ]
}

@test "nobpf: explain names the build as the reason the cgroup programs are not taken" {
  require_nobpf_build
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  run --separate-stderr "$ENTITLE" explain network.egress=10.0.0.0/8:443
  [ "$status" -eq 0 ]
  [[ "$output" == *"$NO_BPF"* ]]
}
