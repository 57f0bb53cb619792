#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/engine-path.sh: end to end through an engine (issue 25).  A
# private containerd (its own socket, root and state directories, the
# state on a tmpfs as /run/containerd is; stopped by its pid at the end)
# with a busybox image imported, then `ctr run --rm --seccomp IMAGE ID
# /bin/true` interleaved (bench/pairs.c):
#   A  --runc-binary entitle, --annotation
#      io.entitle.entitlements=network.egress=10.0.0.0/8:443,security.confined
#   B  --runc-binary runc, no annotation
# both with containerd's default seccomp profile (Docker's) and
# capabilities.  The figure is the wall time of each `ctr run`: the shim
# that runs the runtime is containerd's child, not ctr's, so the CPU of
# ctr's process tree would miss the runtime altogether.  Prints the medians
# (ms) and the median ratio A/B, its IQR and min-max.
#
# Environment: ENTITLE_BUILDDIR (default .), BENCH_ROUNDS (50), BENCH_OUTPUT
# (line: one line, "medA medB ratio q1 q3 min max", for bench/run).
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${ENTITLE_BUILDDIR:-.}" && pwd)
ROUNDS=${BENCH_ROUNDS:-50}
OUTPUT=${BENCH_OUTPUT:-}
ENTITLE=$BUILD/shim/entitle
RUNC=$(command -v runc || echo /usr/sbin/runc)
BUSYBOX=$(command -v busybox || echo /bin/busybox)
EGRESS='network.egress=10.0.0.0/8:443,security.confined'
IMAGE=docker.io/library/entitle-bench:latest

die() {
  echo "bench/engine-path.sh: $*" >&2
  exit 1
}
[ "$(id -u)" -eq 0 ] || die "needs root: it runs containerd"
[ -x "$ENTITLE" ] || die "build first (make), or set ENTITLE_BUILDDIR"
for t in containerd ctr containerd-shim-runc-v2 jq cc "$RUNC"; do
  command -v "$t" >/dev/null || die "needs $t (Debian packages containerd, runc, jq, gcc)"
done
CTR=$(command -v ctr)
# The results on fd 3, everything else on stderr.
exec 3>&1 1>&2

# A short path: the socket's name must fit in sun_path.
D=$(mktemp -d /tmp/entitle-eng.XXXXXX)
NS=entitle-bench-${D##*.}
SOCK=$D/containerd.sock
cr() { "$CTR" -a "$SOCK" -n "$NS" "$@"; }
cleanup() {
  local id pid m
  trap '' PIPE
  if [ -S "$SOCK" ]; then
    for id in $(cr containers list -q 2>/dev/null); do
      cr tasks kill -s KILL "$id" >/dev/null 2>&1 || true
      cr tasks delete -f "$id" >/dev/null 2>&1 || true
      cr containers delete "$id" >/dev/null 2>&1 || true
    done
  fi
  if [ -f "$D/containerd.pid" ]; then
    pid=$(cat "$D/containerd.pid")
    kill "$pid" 2>/dev/null || true
    timeout 15 tail --pid="$pid" -f /dev/null || true
  fi
  findmnt -rn -o TARGET | grep "^$D/" | sort -r | while read -r m; do
    umount -l "$m" || true
  done
  rm -rf "$D"
  find /sys/fs/cgroup/*/"$NS" /sys/fs/cgroup/"$NS" -depth -type d -exec rmdir {} + 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 129' HUP INT TERM PIPE

cc -O2 -o "$D/pairs" "$SRC/bench/pairs.c"
"$SRC/test/busybox-rootfs.sh" "$D/rootfs" "$BUSYBOX"
"$SRC/test/oci-image.sh" "$D/rootfs" "$D/image.tar" /bin/sh
"$SRC/test/containerd-config.sh" "$D" >"$D/config.toml"
mkdir "$D/state"
mount -t tmpfs -o mode=0711 entitle-bench "$D/state"
# entitle inherits containerd's environment through the shim: its own
# admin config, its state beside containerd's.
echo "{\"state_dir\": \"$D/state/entitle\"}" >"$D/entitle.json"
ENTITLE_CONFIG=$D/entitle.json containerd --config "$D/config.toml" >"$D/containerd.log" 2>&1 &
echo $! >"$D/containerd.pid"
for _ in $(seq 100); do
  cr version >/dev/null 2>&1 && break
  sleep 0.1
done
cr version >/dev/null 2>&1 || die "containerd did not start: $(tail -5 "$D/containerd.log")"
cr images import --base-name "${IMAGE%:*}" "$D/image.tar" >/dev/null

# run RUNTIME [OPTION...]: the words of one `ctr run` of /bin/true.
run() {
  local rt=$1
  shift
  echo "$CTR" -a "$SOCK" -n "$NS" run --rm --seccomp --runc-binary "$rt" --runc-root "$D/state/runc" "$@" \
    "$IMAGE" @ID@ /bin/true
}
# shellcheck disable=SC2046 # the words of each command
read -r ma mb r q1 q3 lo hi < <("$D/pairs" -m wall -n "$ROUNDS" -w 3 -- \
  $(run "$ENTITLE" --annotation "io.entitle.entitlements=$EGRESS") :: $(run "$RUNC"))
[ -n "$hi" ] || die "a ctr run failed"
if [ "$OUTPUT" = line ]; then
  echo "$ma $mb $r $q1 $q3 $lo $hi" >&3
  exit 0
fi
f() { printf '%.3f' "$1"; }
cat >&3 <<OUT
ctr run --rm --seccomp of /bin/true through containerd $(containerd --version | awk '{ print $3 }'), wall ms, $ROUNDS rounds interleaved, $(date -u '+%F %H:%M UTC'), $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null)
  A --runc-binary entitle, $EGRESS: $(f "$ma")
  B --runc-binary runc:                  $(f "$mb")
  A/B median $(f "$r") IQR $(f "$q1")-$(f "$q3") min-max $(f "$lo")-$(f "$hi")
OUT
