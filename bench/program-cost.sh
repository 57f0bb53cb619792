#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/program-cost.sh [REV]: what a change to the cgroup programs costs
# an allowed call.  The sock_create and connect4 programs of this build
# (B) and of git revision REV (A, default main) run, each alone on a
# cgroup, 10^5 socket+connect+close to 127.0.0.1:1, which their egress
# policy allows; the kernel times every run of each program
# (kernel.bpf_stats_enabled, on for the measurement only).  Rounds go A B,
# then B A; printed: each round's ns per run, then the median and quartiles
# of B/A per program.  Root, clang, bpftool, libbpf-dev, jq, git.
#
# Environment: ENTITLE_BUILDDIR (default .), ROUNDS (default 12).
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${ENTITLE_BUILDDIR:-.}" && pwd)
REV=${1:-main}
ROUNDS=${ROUNDS:-12}
W=$(mktemp -d /tmp/entitle-program-cost.XXXXXX)
CG=/sys/fs/cgroup/unified/entitle-program-cost-$$
[ -d /sys/fs/cgroup/unified ] || CG=/sys/fs/cgroup/entitle-program-cost-$$
old=$(cat /proc/sys/kernel/bpf_stats_enabled)
cleanup() {
  sysctl -qw kernel.bpf_stats_enabled="$old"
  rmdir "$CG" 2>/dev/null || true
  rm -rf /sys/fs/bpf/entitle-program-cost-$$-a /sys/fs/bpf/entitle-program-cost-$$-b "$W"
}
trap cleanup EXIT

mkdir -p "$W/a"
git -C "$SRC" show "$REV:bpf/progs/entitle.bpf.c" >"$W/a/entitle.bpf.c"
git -C "$SRC" show "$REV:bpf/progs/policy.h" >"$W/a/policy.h"
arch=$(uname -m | sed 's/x86_64/x86/; s/aarch64/arm64/')
multi=$(gcc -print-multiarch 2>/dev/null || echo "$(uname -m)-linux-gnu")
clang -g -O2 -target bpf -D__TARGET_ARCH_"$arch" -I"$W/a" -I"/usr/include/$multi" -c "$W/a/entitle.bpf.c" -o "$W/a.o"
cp "$BUILD/bpf/progs/entitle.bpf.o" "$W/b.o"
cc -O2 -I"$SRC/bpf/progs" -o "$W/attach" "$SRC/bench/program-cost.c" -lbpf
cc -O2 -o "$W/loops" "$SRC/bench/loops.c"
mkdir -p /sys/fs/bpf/entitle-program-cost-$$-a /sys/fs/bpf/entitle-program-cost-$$-b
sysctl -qw kernel.bpf_stats_enabled=1

per_run() { bpftool prog show id "$1" -j | jq -r '.run_time_ns / .run_cnt'; }
one() { # a|b -> "SOCK_CREATE_NS CONNECT4_NS"
  local ids
  mkdir "$CG"
  ids=$("$W/attach" "$W/$1.o" "$CG" /sys/fs/bpf/entitle-program-cost-$$-"$1")
  sh -c "echo \$\$ >$CG/cgroup.procs; exec $W/loops connect 100000 1" >/dev/null
  set -- $ids
  echo "$(per_run "$1") $(per_run "$2")"
  rmdir "$CG"
}
for r in $(seq "$ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then a=$(one a); b=$(one b); else b=$(one b); a=$(one a); fi
  echo "$a $b"
done >"$W/rounds"
awk '{ printf "round %d: sock_create A %.1f B %.1f ns, connect4 A %.1f B %.1f ns\n", NR, $1, $3, $2, $4 }' "$W/rounds"
quartiles() { sort -n | awk '{ v[NR] = $1 } END { printf "median %.3f, IQR %.3f-%.3f\n", v[int((NR + 1) / 2)], v[int(NR / 4) + 1], v[int(3 * NR / 4)] }'; }
echo "sock_create B/A: $(awk '{ print $3 / $1 }' "$W/rounds" | quartiles)"
echo "connect4 B/A: $(awk '{ print $4 / $2 }' "$W/rounds" | quartiles)"
