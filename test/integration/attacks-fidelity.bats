#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fidelity to the engine's profile (issue 23): the errno a program sees
# when entitle's seccomp rules deny a call.  Podman's profile denies every
# call it does not list with ENOSYS (defaultErrnoRet 38), Docker's and
# containerd's with EPERM; entitlements(7) promises EPERM for entitle's
# denials under all of them, and entitle leaves the errnos of the engine's
# own denials as they are.  Each case runs first under the plain runtime
# with the profile Podman 4.3 wrote (test/data/engines/podman-default.json),
# where a call the profile does not list reads ENOSYS; then through
# entitle with the entitlement.

load helpers

PODMAN_CONFIG="${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}/test/data/engines/podman-default.json"

setup() {
  common_setup
  local arch
  arch="SCMP_ARCH_$(uname -m | tr a-z A-Z)"
  if ! jq -e --arg a "$arch" '.linux.seccomp.architectures | index($a)' "$PODMAN_CONFIG" >/dev/null; then
    skip "Podman's recorded profile is for another architecture than $arch"
  fi
}

# podman_recorded DIR: DIR's linux.seccomp is the one Podman wrote.
podman_recorded() {
  edit_config "$1" '.linux.seccomp = $c[0].linux.seccomp' --slurpfile c "$PODMAN_CONFIG"
}

# line_of PROBE: the result the probe PROBE printed in $lines.
line_of() {
  local l
  for l in "${lines[@]}"; do
    if [[ "$l" == "$1: "* ]]; then
      echo "${l#"$1: "}"
      return 0
    fi
  done
  echo "(no line for $1)"
}

@test "network.none under Podman's profile: socket(AF_INET) and every family but AF_UNIX read EPERM, not the profile's ENOSYS" {
  probe_bundle "$BUNDLE" "socket inet" "socket inet6" "socket netlink" "socket packet" "socket vsock" \
    "socket unix" "personality 6"
  podman_recorded "$BUNDLE"
  run_bundle rnc
  [ "$(line_of "socket inet")" = ok ]
  [ "$(line_of "socket unix")" = ok ]
  # The profile's default errno: personality(PER_BSD) is not listed.
  [ "$(line_of "personality 6")" = ENOSYS ]

  set_entitlements "$BUNDLE" network.none
  run_bundle ent
  # network.none does not touch personality: the engine's errno stays.
  expect_lines "socket inet: EPERM" "socket inet6: EPERM" "socket netlink: EPERM" "socket packet: EPERM" \
    "socket vsock: EPERM" "socket unix: ok" "personality 6: ENOSYS"
}

@test "network.user under Podman's profile: raw, packet and unlisted families read EPERM; inet, netlink and unix stay allowed" {
  probe_bundle "$BUNDLE" "socket raw" "socket packet" "socket vsock" "socket inet" "socket inet dgram" \
    "socket netlink" "socket unix"
  podman_recorded "$BUNDLE"
  run_bundle rnc
  # Docker's default capabilities hold CAP_NET_RAW.
  [ "$(line_of "socket raw")" = ok ]
  [ "$(line_of "socket packet")" = ok ]
  [ "$(line_of "socket inet")" = ok ]

  set_entitlements "$BUNDLE" network.user
  run_bundle ent
  expect_lines "socket raw: EPERM" "socket packet: EPERM" "socket vsock: EPERM" "socket inet: ok" \
    "socket inet dgram: ok" "socket netlink: ok" "socket unix: ok"
}

@test "host.devices.none under Podman's profile: mknod of a device reads EPERM, a FIFO is still made" {
  probe_bundle "$BUNDLE" "mknod-dev /dev/fidelity-null" "mkfifo /dev/fidelity-fifo"
  podman_recorded "$BUNDLE"
  run_bundle rnc
  expect_lines "mknod-dev /dev/fidelity-null: ok" "mkfifo /dev/fidelity-fifo: ok"

  set_entitlements "$BUNDLE" host.devices.none
  run_bundle ent
  expect_lines "mknod-dev /dev/fidelity-null: EPERM" "mkfifo /dev/fidelity-fifo: ok"
}

@test "security.confined under Podman's profile: personality and clone into a namespace read EPERM; fork still works" {
  probe_bundle "$BUNDLE" "personality 6" "personality 8" "clone user" "clone none" "personality 0"
  podman_recorded "$BUNDLE"
  run_bundle rnc
  [ "$(line_of "personality 6")" = ENOSYS ]
  [ "$(line_of "personality 8")" = ok ]
  [ "$(line_of "clone none")" = ok ]

  set_entitlements "$BUNDLE" security.confined
  run_bundle ent
  expect_lines "personality 6: EPERM" "personality 8: EPERM" "clone user: EPERM" "clone none: ok" \
    "personality 0: ok"
}

@test "network.none under Podman's profile through crun: socket(AF_INET) reads EPERM" {
  require_crun
  use_crun
  probe_bundle "$BUNDLE" "socket inet" "socket unix" "personality 6"
  podman_recorded "$BUNDLE"
  run_bundle crn
  expect_lines "socket inet: ok" "socket unix: ok" "personality 6: ENOSYS"

  set_entitlements "$BUNDLE" network.none
  run_bundle ent_crun
  expect_lines "socket inet: EPERM" "socket unix: ok" "personality 6: ENOSYS"
}

@test "without entitlements under Podman's profile: entitle changes no errno and no byte of config.json" {
  probe_bundle "$BUNDLE" "socket inet" "personality 6" "personality 8"
  podman_recorded "$BUNDLE"
  sum=$(sha256sum <"$BUNDLE/config.json")
  run_bundle rnc
  expect_lines "socket inet: ok" "personality 6: ENOSYS" "personality 8: ok"

  run_bundle ent
  expect_lines "socket inet: ok" "personality 6: ENOSYS" "personality 8: ok"
  [ "$(sha256sum <"$BUNDLE/config.json")" = "$sum" ]
}
