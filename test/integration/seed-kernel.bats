#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The seed kernel (issue 26, docs/seeds.md): eBPF seccomp filters and
# Checmate, ported to Linux 6.1 (test/kernels/seeds/), for real.  `make
# check-seed-kernel` boots that kernel under QEMU and runs this file there;
# on a kernel without the patch sets (mainline, this build host) every
# test skips, with the reason.  Observed as a user would: the seeds'
# samples (test/integration/helper/seed-samples.c), and containers, each
# attack first under plain runc.
#
# The last test locks Checmate's socket_connect hook, which stays locked
# until the machine reboots: nothing after it may need a reset there.

load helpers

# What the kernel has, probed once for the file (a probe costs seconds
# under QEMU).
setup_file() {
  "$ENTITLE" probe --json >"$BATS_FILE_TMPDIR/probe.json" || true
}

setup() {
  common_setup
  SRCDIR=${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}
  BUILDDIR=${ENTITLE_BUILDDIR:-$BATS_TEST_DIRNAME/../..}
  SAMPLES="$BUILDDIR/test/integration/helper/seed-samples"
}

teardown() {
  common_teardown
}

# probe FIELD: FIELD of the file's `entitle probe --json`.
probe() {
  jq -r "$1" "$BATS_FILE_TMPDIR/probe.json"
}

# require_seeds [checmate|seccomp]: skip where the kernel lacks the patch
# set(s).
require_seeds() {
  if [ "${1:-seccomp}" = seccomp ] && [ "$(probe .seccomp_filter_extended)" != true ]; then
    skip "this kernel has no eBPF seccomp filters (SECCOMP_MODE_FILTER_EXTENDED): make check-seed-kernel boots one that has"
  fi
  if [ "${1:-checmate}" = checmate ] && [ "$(probe .checmate)" != true ]; then
    skip "this kernel has no Checmate (PR_CHECMATE): make check-seed-kernel boots one that has"
  fi
}

# example_admin NAME JQ: the admin configuration examples/NAME.json
# rewritten by JQ, with the objects make built beside it.
example_admin() {
  example_objects "$BATS_TEST_TMPDIR"
  write_entitle_config "$(jq "$2" "$SRCDIR/examples/$1.json")"
}

@test "seed kernel: entitle probe reports both seed interfaces" {
  if [ "$(probe .checmate)" != true ] && [ "$(probe .seccomp_filter_extended)" != true ]; then
    skip "this kernel carries neither seed patch set: make check-seed-kernel boots one that does"
  fi
  [ "$(probe .checmate)" = true ]
  [ "$(probe .seccomp_filter_extended)" = true ]
  run --separate-stderr "$ENTITLE" probe
  [ "$status" -eq 0 ]
  [[ "$output" == *"seccomp eBPF filters (SECCOMP_MODE_FILTER_EXTENDED): yes"* ]]
  [[ "$output" == *"Checmate (PR_CHECMATE): yes"* ]]
  # The paths that follow: Checmate's socket_connect for egress, the
  # filter for network.none, not refused as on mainline.
  [[ "$(grep '^  network.egress: ' <<<"$output")" == *"Checmate (socket_connect)"* ]]
  [[ "$(grep '^  network.none: ' <<<"$output")" == *"eBPF seccomp"* ]]
  [[ "$output" != *"this kernel has no Checmate"* ]]
  [[ "$output" != *"this kernel has no eBPF seccomp filters"* ]]
}

@test "seed sample seccomp1: close(999) fails with EPERM, close(998) runs on to EBADF" {
  require_seeds seccomp
  run --separate-stderr "$SAMPLES" seccomp1 "$BUILDDIR/examples"
  expect_lines "load: ok" "install: ok" "close 999: EPERM" "close 998: EBADF"
  [ "$status" -eq 0 ]
}

@test "seed sample seccomp2: a filter installed under no_new_privs refuses sched_yield, and its tracer reads the same program back" {
  require_seeds seccomp
  run --separate-stderr "$SAMPLES" seccomp2 "$BUILDDIR/examples"
  expect_lines "load: ok" "install: ok" "sched_yield: EPERM" "classic read of filter 0: EMEDIUMTYPE" \
    "read back filter 0: the program loaded" "read back filter 1: ENOENT"
  [ "$status" -eq 0 ]
}

@test "seed sample checmate1: connect() to port 1 refused at socket_connect, installed once, until the hook is reset" {
  require_seeds checmate
  run --separate-stderr "$SAMPLES" checmate1 "$BUILDDIR/examples"
  [ "$status" -eq 0 ]
  # Nothing listens on port 1: the kernel's answer before and after.
  [ "${lines[1]}" = "connect to port 1 before: ECONNREFUSED" ]
  expect_lines "load: ok" "connect to port 1 before: ECONNREFUSED" "install at socket_connect: ok" \
    "install again: EEXIST" "connect to port 1: EPERM" "reset: ok" "connect to port 1 after: ECONNREFUSED"
}

@test "eBPF seccomp layer: entitle-init installs entitle's filter in a network.none container; inspect reads it back; the attack fails there and not under plain runc" {
  require_seeds seccomp
  probe_bundle "$BUNDLE" "socket inet" "socket unix"
  run_bundle rnc
  expect_lines "socket inet: ok" "socket unix: ok"

  set_entitlements "$BUNDLE" network.none
  run --separate-stderr "$ENTITLE" compile -b "$BUNDLE"
  [ "$status" -eq 0 ]
  [[ "$(jq -c '.process.args' <<<"$output")" == *'"--seccomp-fd"'* ]]
  run_bundle ent
  expect_lines "socket inet: EPERM" "socket unix: ok"

  make_bundle "$BUNDLE" /bin/sh -c 'grep Seccomp_filters /proc/self/status; /probe sleep 600'
  set_entitlements "$BUNDLE" network.none
  create_started ent "$BUNDLE" "$CTID"
  run --separate-stderr "$ENTITLE" --root "$ROOT" inspect "$CTID"
  [ "$status" -eq 0 ]
  [[ "$output" == *"seccomp filter 0 (classic, "* ]]
  [[ "$output" == *"seccomp filter 1 (eBPF, program "* ]]
  [[ "$output" == *"entitle's filter: denied: "*"by argument: socket and socketpair of AF_UNIX only"* ]]
  run --separate-stderr "$ENTITLE" --root "$ROOT" inspect --json "$CTID"
  [ "$(jq -r '.seccomp[1].kind' <<<"$output")" = ebpf ]
  [ "$(jq -r '.seccomp[1].program_id' <<<"$output")" -gt 0 ]
  # Two filters on the container's process: runc's classic, entitle-init's eBPF.
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    [ ! -s "$BATS_TEST_TMPDIR/$CTID.out" ] || break
    sleep 0.5
  done
  [ "$(cat "$BATS_TEST_TMPDIR/$CTID.out")" = "Seccomp_filters:	2" ]
}

@test "eBPF seccomp layer: exec into a network.none container gets entitle's filter too" {
  require_seeds seccomp
  make_bundle "$BUNDLE" /probe sleep 600
  set_entitlements "$BUNDLE" network.none
  create_started ent "$BUNDLE" "$CTID"
  run --separate-stderr rnc exec "$CTID" /bin/sh -c 'grep Seccomp_filters /proc/self/status; /probe socket inet'
  [ "${lines[0]}" = "Seccomp_filters:	1" ]
  run --separate-stderr ent exec "$CTID" /bin/sh -c 'grep Seccomp_filters /proc/self/status; /probe socket inet; /probe socket unix'
  [ "$status" -eq 0 ]
  expect_lines "Seccomp_filters:	2" EPERM ok
}

@test "custom entitlement at seccomp: examples/seccomp1 and seccomp2 with their classic rules taken out: the admin's eBPF programs alone refuse, in run and exec" {
  require_seeds seccomp
  probe_bundle "$BUNDLE" "close 999" "close 998" "sched_yield"
  run_bundle rnc
  expect_lines "close 999: EBADF" "close 998: EBADF" "sched_yield: ok"

  example_admin seccomp1 'del(.entitlements[].seccomp)'
  set_entitlements "$BUNDLE" example.com.seccomp1
  run_bundle ent
  expect_lines "close 999: EPERM" "close 998: EBADF" "sched_yield: ok"

  example_admin seccomp2 'del(.entitlements[].seccomp)'
  set_entitlements "$BUNDLE" example.com.seccomp2
  run_bundle ent
  expect_lines "close 999: EBADF" "close 998: EBADF" "sched_yield: EPERM"

  example_admin seccomp1 'del(.entitlements[].seccomp)'
  make_bundle "$BUNDLE" /probe sleep 600
  set_entitlements "$BUNDLE" example.com.seccomp1
  create_started ent "$BUNDLE" "$CTID"
  run --separate-stderr ent exec "$CTID" /bin/sh -c '/probe close 999; /probe close 998'
  expect_lines EPERM EBADF
}

# checmate_probe: a bundle that connects to 127.0.0.1 ports 1 and 2 in its
# own network namespace.
checmate_probe() {
  probe_bundle "$BUNDLE" "connect 127.0.0.1 1" "connect 127.0.0.1 2"
}

@test "custom entitlement at checmate/socket_connect: examples/checmate1 without its connect4 program: the admin's Checmate program alone refuses port 1" {
  require_seeds checmate
  checmate_probe
  run_bundle rnc
  [ "${#lines[@]}" -eq 2 ]
  plain=${lines[0]#*: }
  [ "$plain" != EPERM ]
  [ "${lines[1]}" = "connect 127.0.0.1 2: $plain" ]

  example_admin checmate1 '.entitlements[].bpf |= map(select(.attach != "connect4"))'
  set_entitlements "$BUNDLE" example.com.checmate1
  run_bundle ent
  expect_lines "connect 127.0.0.1 1: EPERM" "connect 127.0.0.1 2: $plain"
}

@test "Checmate layer: entitle-hook installs entitle's programs for network.egress; entitle checmate reset takes them off (not locked)" {
  require_seeds checmate
  make_bundle "$BUNDLE" /probe sleep 600
  set_entitlements "$BUNDLE" "network.egress=10.0.0.0/8"
  create_started ent "$BUNDLE" "$CTID"
  run --separate-stderr "$ENTITLE" checmate reset socket_connect
  [ "$status" -eq 0 ]
  [ "$output" = "checmate: every program taken off hook socket_connect" ]
  run --separate-stderr "$ENTITLE" checmate reset socket_bind
  [ "$status" -ne 0 ]
  [ "$stderr" = 'entitle: checmate: this kernel'"'"'s Checmate runs no programs at hook `socket_bind`' ]
}

# run_passing_socket BINARY ARG...: bats' run of BINARY ARG... (a runtime
# or entitle, with `run --preserve-fds 1`) with an unconnected TCP socket
# of this host's, made here, as its fd 3.
run_passing_socket() {
  run --separate-stderr /usr/bin/python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
os.dup2(s.fileno(), 3)
os.set_inheritable(3, True)
os.execv(sys.argv[1], sys.argv[1:])' "$@" </dev/null
}

@test "Checmate layer: a socket made outside the container and passed in: its connect escapes the cgroup programs, entitle's Checmate program refuses it (network.egress)" {
  require_seeds checmate
  make_bundle "$BUNDLE" /probe connect-fd 3 127.0.0.1 1
  # Plain runc: the connect reaches this host's loopback, where nothing
  # listens on port 1.
  run_passing_socket "$RUNC_BIN" --root "$ROOT" run --preserve-fds 1 -b "$BUNDLE" "$CTID"
  [ "$output" = ECONNREFUSED ]

  # network.egress lists 10.0.0.0/8 only.  The cgroup programs key on the
  # socket's cgroup, which is this host's: the connect4 program never
  # runs.  Checmate's socket_connect keys on the calling task's, the
  # container's.
  set_entitlements "$BUNDLE" "network.egress=10.0.0.0/8"
  run_passing_socket "$ENTITLE" --root "$ROOT" run --preserve-fds 1 -b "$BUNDLE" "$CTID"
  [ "$output" = EPERM ]
}

@test "Checmate lock (last: it holds until a reboot): reset takes the admin's program off an unlocked hook; with \"lock\" the hook refuses reset and keeps refusing port 1" {
  require_seeds checmate
  checmate_probe
  run_bundle rnc
  plain=${lines[0]#*: }

  example_admin checmate1 '.entitlements[].bpf |= map(select(.attach != "connect4"))'
  make_bundle "$BUNDLE" /bin/sh -c 'while :; do /probe connect 127.0.0.1 1; sleep 1; done'
  set_entitlements "$BUNDLE" example.com.checmate1
  create_started ent "$BUNDLE" "$CTID"
  run --separate-stderr "$ENTITLE" checmate reset socket_connect
  [ "$status" -eq 0 ]
  # Reset: the program is off the hook, the running container's connect
  # reaches the kernel again.
  : >"$BATS_TEST_TMPDIR/$CTID.out"
  sleep 3
  [ "$(tail -n 1 "$BATS_TEST_TMPDIR/$CTID.out")" = "$plain" ]
  ent delete -f "$CTID"

  example_admin checmate1 '.entitlements[].bpf |= map(select(.attach != "connect4")) | .lock = true'
  checmate_probe
  set_entitlements "$BUNDLE" example.com.checmate1
  run_bundle ent
  expect_lines "connect 127.0.0.1 1: EPERM" "connect 127.0.0.1 2: $plain"
  run --separate-stderr "$ENTITLE" checmate reset socket_connect
  [ "$status" -ne 0 ]
  [[ "$stderr" == *'hook `socket_connect` is locked'* ]]
  run_bundle ent
  expect_lines "connect 127.0.0.1 1: EPERM" "connect 127.0.0.1 2: $plain"
}
