#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/follow-cost.sh: what `entitle why --follow` costs the syscalls of
# the host while it runs: its fexit program on __secure_computing
# (docs/denials.md), attached and detached in turn around getppid loops in
# one process, without and then with a seccomp filter (bench/follow-cost.c
# says how).  Root, on a built tree whose build has the program
# (configure found the build host's BTF, x86); cc, libbpf-dev,
# libseccomp-dev.  Where the kernel refuses the program it says so and
# exits 1.
#
# Environment: ENTITLE_BUILDDIR (default .), ROUNDS (default 40), LOOPS
# (getppid calls per side of a round, default 10^5).
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${ENTITLE_BUILDDIR:-.}" && pwd)
ROUNDS=${ROUNDS:-40}
LOOPS=${LOOPS:-100000}
W=$(mktemp -d /tmp/entitle-follow-cost.XXXXXX)
trap 'rm -rf "$W"' EXIT

[ -f "$BUILD/bpf/seccomp-denials.skel.h" ] || {
  echo "bench/follow-cost.sh: this build has no seccomp follower (no BTF, or not x86)" >&2
  exit 1
}
${CC:-cc} -O2 -I"$SRC/bpf/progs" -I"$BUILD/bpf" -o "$W/follow-cost" "$SRC/bench/follow-cost.c" -lbpf -lseccomp
echo "$(uname -r): getppid x $LOOPS per side, $ROUNDS rounds" >&2
"$W/follow-cost" "$ROUNDS" "$LOOPS"
