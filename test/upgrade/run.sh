#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run.sh: an upgrade while containers run (issue 11).  The previous
# release of entitle (the last commit before the per-container state moved
# into cgroup storage, OLD below) is built from this repository's history
# and installed; containers are started through it, one under runc and one
# under crun with --cgroup-manager=disabled (whose cgroup the hook makes);
# then this build is installed over it, at the same paths, as an admin
# would.  What must hold:
#   - the containers started before keep their egress policy, also for an
#     exec through the new build;
#   - a container started after the upgrade gets the new build's policy;
#   - deleted through the new build, nothing of any of them is left: no
#     cgroup, no cgroup entitle made, no record, no pin but the new
#     build's.
# Everything runs in a private mount namespace with its own bpffs and a
# private state directory, so that the host's pins are not touched.
#
# Exit 77 (skip) without git history to build OLD from, or without crun.
# Environment: ENTITLE_BUILDDIR, ENTITLE_SRCDIR, ENTITLE_PROBE (as
# Makefile.am's AM_TESTS_ENVIRONMENT sets them).
set -euo pipefail

OLD=${ENTITLE_UPGRADE_FROM:-9c1567f}
src=${ENTITLE_SRCDIR:?}
build=${ENTITLE_BUILDDIR:?}
probe=${ENTITLE_PROBE:?}

skip() {
  echo "upgrade: SKIP: $*"
  exit 77
}

command -v git >/dev/null || skip "needs git"
git -C "$src" cat-file -e "$OLD^{commit}" 2>/dev/null || skip "no commit $OLD in $src (a tarball, or a shallow clone)"
command -v crun >/dev/null || skip "needs crun"
command -v busybox >/dev/null || skip "needs busybox-static"
# OLD pins at the default place: a build configured --with-bpf-pins
# elsewhere would never meet its pins.
[ "${ENTITLE_BPF_PINS:-/sys/fs/bpf/entitle}" = /sys/fs/bpf/entitle ] ||
  skip "this build pins at $ENTITLE_BPF_PINS, $OLD at /sys/fs/bpf/entitle (configure without --with-bpf-pins)"

W=$(mktemp -d /tmp/entitle-upgrade.XXXXXX)
trap 'rm -rf "$W"' EXIT

echo "upgrade: building $OLD"
mkdir "$W/old"
git -C "$src" archive "$OLD" | tar -x -C "$W/old"
(cd "$W/old" && ./autogen.sh >/dev/null 2>&1 && ./configure -q --disable-integration-tests >/dev/null &&
  make -j2 >"$W/old-build.log" 2>&1) ||
  {
    tail -20 "$W/old-build.log"
    echo "upgrade: FAIL: $OLD does not build"
    exit 1
  }

# A rootfs, bundles, a network namespace with 10.200.0.1 and .2 on its lo.
mkdir -p "$W/rootfs/bin"
cp "$(command -v busybox)" "$W/rootfs/bin/busybox"
ln -s busybox "$W/rootfs/bin/sh"
ln -s busybox "$W/rootfs/bin/sleep"
cp "$probe" "$W/rootfs/probe"
NETNS="entitle-upgrade-$$"
ip netns add "$NETNS"
# On a failure the containers go too (the crun one ends with its shell).
cleanup() {
  local id
  for id in up-runc up-new; do
    runc --root "$W/runc-root" delete -f "$id" >/dev/null 2>&1 || true
  done
  ip netns delete "$NETNS" 2>/dev/null
  rm -rf "$W"
}
trap cleanup EXIT
ip -n "$NETNS" link set lo up
ip -n "$NETNS" addr add 10.200.0.1/32 dev lo
ip -n "$NETNS" addr add 10.200.0.2/32 dev lo
for b in runc crun new; do
  mkdir -p "$W/$b"
  (cd "$W/$b" && runc spec)
  jq --arg rootfs "$W/rootfs" --arg netns "/var/run/netns/$NETNS" '
    .root = {path: $rootfs, readonly: true}
    | .process.terminal = false
    | .process.args = ["/bin/sleep", "600"]
    | .linux.namespaces = ([.linux.namespaces[] | select(.type != "network")] + [{type: "network", path: $netns}])
    | .annotations["io.entitle.entitlements"] = "network.egress=10.200.0.1/32:80"' \
    "$W/$b/config.json" >"$W/$b/c" && mv "$W/$b/c" "$W/$b/config.json"
done
echo '{"state_dir": "'"$W"'/state"}' >"$W/entitle.json"
echo '{"state_dir": "'"$W"'/state", "runtime": "'"$(command -v crun)"'"}' >"$W/entitle-crun.json"

cat >"$W/inside.sh" <<'SH'
set -euo pipefail
mount --make-rprivate /
mount -t bpf bpf /sys/fs/bpf
export ENTITLE_HOOK=$W/inst/entitle-hook
install_build() {
  mkdir -p "$W/inst"
  for f in shim/entitle shim/entitle-full oci-hooks/entitle-hook; do
    cp "$1/$f" "$W/inst/$(basename "$f").new"
    mv "$W/inst/$(basename "$f").new" "$W/inst/$(basename "$f")"
  done
}
runc_e() { ENTITLE_CONFIG=$W/entitle.json "$W/inst/entitle" --root "$W/runc-root" "$@"; }
# The crun container lives in a namespace of its own where cgroup2 is
# mounted on /sys/fs/cgroup: one shell runs its whole life.
cgroup_of() { sed -n 's/^0:://p' "/proc/$1/cgroup"; }
check() {
  local what=$1 want=$2 got=$3
  if [ "$got" != "$want" ]; then
    echo "upgrade: FAIL: $what: $got, want $want"
    exit 1
  fi
  echo "upgrade: ok: $what"
}

install_build "$OLD_BUILD"
runc_e create -b "$W/runc" up-runc </dev/null >/dev/null 2>&1
runc_e start up-runc
check "old build, runc: an unlisted address" EPERM "$(runc_e exec up-runc /probe connect 10.200.0.2 80 || true)"

mkfifo "$W/crun-go"
(
  ENTITLE_CONFIG=$W/entitle-crun.json unshare -m --propagation private sh -c '
    mount -t cgroup2 none /sys/fs/cgroup
    e() { "$W/inst/entitle" --cgroup-manager=disabled --root "$W/crun-root" "$@"; }
    e create -b "$W/crun" up-crun </dev/null >/dev/null 2>&1 && e start up-crun && echo started || echo failed
    e exec up-crun /probe connect 10.200.0.2 80 || true
    read go <"$W/crun-go"
    e exec up-crun /probe connect 10.200.0.2 80 || true
    e exec up-crun /probe connect 10.200.0.1 80 || true
    e delete -f up-crun
    ls /sys/fs/cgroup$(sed -n "s/^0:://p" /proc/self/cgroup) | grep -c "^entitle-up-crun$" || true
  ' >"$W/crun-out" 2>&1
) &
crun_pid=$!
# A check that fails before the go still lets the crun shell delete its
# container.
trap '[ -p "$W/crun-go" ] && timeout 10 sh -c "echo go >$W/crun-go"; wait' EXIT
for _ in $(seq 100); do [ "$(wc -l <"$W/crun-out" 2>/dev/null || echo 0)" -ge 2 ] && break; sleep 0.1; done
check "old build, crun: started" started "$(sed -n 1p "$W/crun-out")"
check "old build, crun: an unlisted address" EPERM "$(sed -n 2p "$W/crun-out")"

install_build "$NEW_BUILD"
check "new build, runc container of the old: an unlisted address" EPERM "$(runc_e exec up-runc /probe connect 10.200.0.2 80 || true)"
check "new build, runc container of the old: the listed one" ECONNREFUSED "$(runc_e exec up-runc /probe connect 10.200.0.1 80 || true)"
runc_e create -b "$W/new" up-new </dev/null >/dev/null 2>&1
runc_e start up-new
check "new build, a new container: an unlisted address" EPERM "$(runc_e exec up-new /probe connect 10.200.0.2 80 || true)"
check "the new build's pins replaced the old's" "" "$(ls /sys/fs/bpf/entitle | grep -x 'entitle_owners\|entitle_egress4' || true)"

echo go >"$W/crun-go"
rm "$W/crun-go"
wait "$crun_pid" || true
check "new build, crun container of the old: an unlisted address" EPERM "$(sed -n 3p "$W/crun-out")"
check "new build, crun container of the old: the listed one" ECONNREFUSED "$(sed -n 4p "$W/crun-out")"
check "new build, crun container of the old: the cgroup the old build made is gone" 0 "$(tail -n 1 "$W/crun-out")"
check "no record of a made cgroup is left" "" "$(ls "$W/state/cgroups" 2>/dev/null || true)"

for id in up-runc up-new; do
  cg=$(cgroup_of "$(runc_e state "$id" | jq -r .pid)")
  runc_e delete -f "$id"
  check "$id deleted: its cgroup is gone" no "$([ -d "/sys/fs/cgroup/unified$cg" ] && echo yes || echo no)"
done
SH

echo "upgrade: containers under $OLD, then this build"
timeout 300 env W="$W" OLD_BUILD="$W/old" NEW_BUILD="$build" unshare -m --propagation private bash "$W/inside.sh"
