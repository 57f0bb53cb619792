#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Attacks on the other syscall paths and on the capability bounds (issue
# 10, classes 4 and 5 and "Also"; DESIGN §7 "Every syscall path",
# "security.confined / security.view").  Each attack runs first under
# plain runc, with the seccomp profile an engine writes, where it works;
# then through entitle with the entitlement, which must stop it.
#
# The profiles: containerd 1.6's default, captured from `ctr run
# --seccomp` (attack-helpers.bash: containerd_profile), Podman's, expanded
# from Debian's /usr/share/containers/seccomp.json (podman_profile), an
# allow-by-default one, and none at all (entitle then generates one).

load attack-helpers

# The socket families network.none must deny on every path; AF_INET is
# there too, although the cgroup sock_create program would catch it.
DENIED_FAMILIES=(netlink vsock packet inet)

# The capabilities security.confined keeps at most (DESIGN §7), and
# security.view's.
CONFINED_MAX=(CAP_CHOWN CAP_FOWNER CAP_MKNOD CAP_NET_RAW CAP_NET_BIND_SERVICE
  CAP_SYS_CHROOT CAP_KILL CAP_AUDIT_WRITE)
VIEW_MAX=("${CONFINED_MAX[@]}" CAP_DAC_READ_SEARCH)

setup() {
  common_setup
}

# probes_of PREFIX: "PREFIX FAMILY" for every denied family.
probes_of() {
  local f
  for f in "${DENIED_FAMILIES[@]}"; do
    echo "$1 $f"
  done
}

# all_ok PROBE...: every "PROBE: ok" line is in $output, in order.
all_ok() {
  local p want=()
  for p in "$@"; do
    want+=("$p: ok")
  done
  expect_lines "${want[@]}"
}

# none_ok PROBE...: $output has one line per PROBE, none of them "ok":
# each is SIGSYS (the 32-bit ABI is gone from the filter), EPERM or
# ENOSYS (seccomp's errno).
none_ok() {
  local i=0 p result bad=0
  if [ "${#lines[@]}" -ne $# ]; then
    printf 'expected %d probe lines, got (status %s):\n%s\nstderr:\n%s\n' $# "$status" "$output" "$stderr" >&2
    return 1
  fi
  for p in "$@"; do
    result=${lines[$i]#"$p: "}
    case "$result" in
      SIGSYS | EPERM | ENOSYS) ;;
      *)
        echo "$p: $result (expected SIGSYS, EPERM or ENOSYS)" >&2
        bad=1
        ;;
    esac
    i=$((i + 1))
  done
  return "$bad"
}

# int80_probes: the 32-bit socketcall(SYS_SOCKET) and socket(2) of every
# denied family.
int80_probes() {
  probes_of "int80 socketcall"
  probes_of "int80 socket"
}

# none_stops PROBE...: under plain runc every PROBE and "socket unix"
# succeed; under entitle with network.none none of the PROBEs does, and
# the unix socket (the last line) still does.
none_stops() {
  run_bundle rnc
  all_ok "$@" "socket unix"

  set_entitlements "$BUNDLE" network.none
  run_bundle ent
  [ "${lines[-1]}" = "socket unix: ok" ]
  unset 'lines[-1]'
  none_ok "$@"
}

@test "network.none: int 0x80 socketcall and socket create no netlink, vsock, packet or inet socket (containerd's profile)" {
  require_int80
  require_family vsock
  containerd_profile "$BATS_TEST_TMPDIR/containerd.json"
  mapfile -t probes < <(int80_probes)
  probe_bundle "$BUNDLE" "${probes[@]}" "socket unix"
  use_profile "$BUNDLE" "$BATS_TEST_TMPDIR/containerd.json"
  # containerd's profile allows socket() and socketcall() for x86 too.
  jq -e '.linux.seccomp.architectures | index("SCMP_ARCH_X86")' "$BUNDLE/config.json" >/dev/null
  none_stops "${probes[@]}"
}

@test "network.none: int 0x80 socketcall and socket create no netlink, vsock, packet or inet socket (entitle's generated profile)" {
  require_int80
  require_family vsock
  mapfile -t probes < <(int80_probes)
  probe_bundle "$BUNDLE" "${probes[@]}" "socket unix"
  edit_config "$BUNDLE" 'del(.linux.seccomp)'
  none_stops "${probes[@]}"
}

@test "network.none: io_uring creates no netlink or vsock socket (containerd's profile, which allows io_uring)" {
  require_io_uring_socket
  require_family vsock
  containerd_profile "$BATS_TEST_TMPDIR/containerd.json"
  probe_bundle "$BUNDLE" "uring-socket netlink" "uring-socket vsock" "uring-socket packet" "socket unix"
  use_profile "$BUNDLE" "$BATS_TEST_TMPDIR/containerd.json"
  run_bundle rnc
  all_ok "uring-socket netlink" "uring-socket vsock" "uring-socket packet" "socket unix"

  set_entitlements "$BUNDLE" network.none
  run_bundle ent
  expect_lines "uring-socket netlink: EPERM" "uring-socket vsock: EPERM" "uring-socket packet: EPERM" \
    "socket unix: ok"
}

@test "network.none: io_uring creates no netlink or vsock socket (an allow-by-default profile)" {
  require_io_uring_socket
  require_family vsock
  probe_bundle "$BUNDLE" "uring-socket netlink" "uring-socket vsock" "uring-socket inet" "socket unix"
  edit_config "$BUNDLE" '.linux.seccomp = {defaultAction: "SCMP_ACT_ALLOW",
    architectures: ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"],
    syscalls: [{names: ["kexec_load"], action: "SCMP_ACT_ERRNO"}]}'
  [ "$(uname -m)" = x86_64 ] || edit_config "$BUNDLE" 'del(.linux.seccomp.architectures)'
  run_bundle rnc
  all_ok "uring-socket netlink" "uring-socket vsock" "uring-socket inet" "socket unix"

  set_entitlements "$BUNDLE" network.none
  run_bundle ent
  expect_lines "uring-socket netlink: EPERM" "uring-socket vsock: EPERM" "uring-socket inet: EPERM" \
    "socket unix: ok"
}

@test "network.none: io_uring creates no socket when the bundle has no seccomp section" {
  require_io_uring_socket
  probe_bundle "$BUNDLE" "uring-socket netlink" "uring-socket inet" "socket unix"
  edit_config "$BUNDLE" 'del(.linux.seccomp)'
  run_bundle rnc
  all_ok "uring-socket netlink" "uring-socket inet" "socket unix"

  set_entitlements "$BUNDLE" network.none
  run_bundle ent
  expect_lines "uring-socket netlink: EPERM" "uring-socket inet: EPERM" "socket unix: ok"
}

# privileged_base: the capabilities `ctr run --privileged` gives (every
# one in the host's bounding set) in the three sets containerd fills, and
# no seccomp profile.
privileged_base() {
  edit_config "$BUNDLE" '.process.capabilities = {bounding: $c, effective: $c, permitted: $c}
      | del(.linux.seccomp)' --argjson c "$(host_cap_names)"
}

# within_bound RUNNER MAX-CAPS...: the container's CapEff, CapPrm and
# CapBnd have no capability outside MAX-CAPS.
within_bound() {
  local runner=$1 max set
  shift
  max=$(cap_mask "$@")
  run_bundle "$runner"
  [ "$status" -eq 0 ]
  for set in CapEff CapPrm CapBnd; do
    caps_within "$(cap_line "$output" $set)" "$max" "$set"
  done
}

@test "security.confined: on a --privileged base keeps at most Docker's default set minus what confined drops" {
  probe_bundle "$BUNDLE" caps
  privileged_base
  # Under runc the container has everything the host has, CAP_SYS_ADMIN,
  # CAP_NET_ADMIN, CAP_BPF and CAP_SYS_BOOT included.
  run_bundle rnc
  [ "$status" -eq 0 ]
  host=$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)
  same_mask "$(cap_line "$output" CapEff)" "$host" "runc's CapEff"
  has_cap "$(cap_line "$output" CapEff)" 21
  has_cap "$(cap_line "$output" CapEff)" 39

  set_entitlements "$BUNDLE" security.confined
  within_bound ent "${CONFINED_MAX[@]}"
  # An upper bound, not a drop of everything: what it allows stays.
  eff=$(cap_line "$output" CapEff)
  for cap in CAP_CHOWN CAP_FOWNER CAP_KILL CAP_NET_BIND_SERVICE; do
    [ "$(((0x$eff & 0x$(cap_mask $cap))))" -ne 0 ] || {
      echo "security.confined dropped $cap" >&2
      false
    }
  done
}

@test "security.view: on a --privileged base keeps at most confined's set plus CAP_DAC_READ_SEARCH" {
  probe_bundle "$BUNDLE" caps
  privileged_base
  run_bundle rnc
  [ "$status" -eq 0 ]
  has_cap "$(cap_line "$output" CapEff)" 12

  set_entitlements "$BUNDLE" security.view
  within_bound ent "${VIEW_MAX[@]}"
  has_cap "$(cap_line "$output" CapEff)" 2
}

@test "security.confined: the bound holds for exec --process with the --privileged capabilities" {
  make_bundle "$BUNDLE"
  privileged_base
  jq '.process | .args = ["/probe", "caps"]' "$BUNDLE/config.json" >"$BATS_TEST_TMPDIR/process.json"
  set_entitlements "$BUNDLE" security.confined
  create_started ent "$BUNDLE" "$CTID"
  run --separate-stderr rnc exec --process "$BATS_TEST_TMPDIR/process.json" "$CTID"
  [ "$status" -eq 0 ]
  has_cap "$(cap_line "$output" CapEff)" 21

  run --separate-stderr ent exec --process "$BATS_TEST_TMPDIR/process.json" "$CTID"
  [ "$status" -eq 0 ]
  max=$(cap_mask "${CONFINED_MAX[@]}")
  for set in CapEff CapPrm CapBnd; do
    caps_within "$(cap_line "$output" $set)" "$max" "exec's $set"
  done
}

@test "security.confined and security.view: process_vm_readv is denied where ptrace is (Podman's/Docker's profile allows both)" {
  probe_bundle "$BUNDLE" process-vm ptrace
  podman_profile "$BATS_TEST_TMPDIR/podman.json"
  use_profile "$BUNDLE" "$BATS_TEST_TMPDIR/podman.json"
  run_bundle rnc
  expect_lines "process-vm: ok" "ptrace: ok"

  for e in security.confined security.view; do
    set_entitlements "$BUNDLE" "$e"
    run_bundle ent
    expect_lines "process-vm: EPERM" "ptrace: EPERM"
  done
}

@test "security.confined: process_vm_readv is denied when the bundle has no seccomp section" {
  probe_bundle "$BUNDLE" process-vm
  edit_config "$BUNDLE" 'del(.linux.seccomp)'
  run_bundle rnc
  expect_lines "process-vm: ok"

  set_entitlements "$BUNDLE" security.confined
  run_bundle ent
  expect_lines "process-vm: EPERM"
}
