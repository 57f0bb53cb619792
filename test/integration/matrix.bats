#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The fast subset of the engine-config matrix (issue 11): every config
# that a real engine wrote on this machine (test/data/engines/, recorded
# by record.sh) x the common entitlement sets, through entitle in front of
# runc, and x network.none,security.confined in front of crun in a
# cgroup2-only mount namespace.  Each cell runs the config under the plain
# runtime first (a config that cannot run here is "baseline cannot run
# here", not a failure), then through entitle: the container runs and the
# probes inside see every promise of the set, or entitle refuses with one
# line naming an entitlement.  test/matrix/run.sh does the work and prints
# the matrix; `make check-matrix` runs all of it (every catalogue
# entitlement alone too, and runc in the cgroup2-only namespace).

bats_require_minimum_version 1.5.0

# Each test runs 20 configs twice (baseline and cell); the whole file
# takes about a minute on two cores.
: "${BATS_TEST_TIMEOUT:=600}"

: "${ENTITLE_SRCDIR:=${BATS_TEST_DIRNAME}/../..}"
: "${ENTITLE_BUILDDIR:=$ENTITLE_SRCDIR}"
: "${ENTITLE:=$ENTITLE_BUILDDIR/shim/entitle}"
: "${ENTITLE_HOOK:=$ENTITLE_BUILDDIR/oci-hooks/entitle-hook}"
: "${ENTITLE_PROBE:=$ENTITLE_BUILDDIR/test/integration/helper/entitle-probe}"
export ENTITLE ENTITLE_HOOK ENTITLE_PROBE ENTITLE_SRCDIR
MATRIX=$ENTITLE_SRCDIR/test/matrix/run.sh
CORPUS=$ENTITLE_SRCDIR/test/data/engines

setup() {
  if [ "$(id -u)" -ne 0 ]; then
    skip "needs root: it runs real containers"
  fi
  local tool missing=""
  for tool in runc jq ip unshare busybox prlimit; do
    command -v "$tool" >/dev/null || missing+=" $tool"
  done
  if [ -n "$missing" ]; then
    skip "not installed:$missing (Debian packages runc, jq, iproute2, util-linux, busybox-static)"
  fi
  if [ ! -x "$ENTITLE" ] || [ ! -x "$ENTITLE_HOOK" ] || [ ! -x "$ENTITLE_PROBE" ]; then
    skip "entitle, entitle-hook or the probe is not built: run make check"
  fi
}

# matrix ARG...: run.sh with ARG... in a work dir of this test; its output
# (the matrix, every failed cell with what happened) is the test's.
matrix() {
  "$MATRIX" --keep "$BATS_TEST_TMPDIR/matrix" "$@"
}

@test "matrix: the corpus is record.sh's: every config is in index.json with its engine and command, and VERSIONS names the engines" {
  local f name
  for f in "$CORPUS"/*.json; do
    name=$(basename "$f" .json)
    [ "$name" = index ] && continue
    jq -e --arg n "$name" '.[$n] | .engine and .command and (.bind_sources | type == "object")
      and (.host_namespaces | type == "array")' "$CORPUS/index.json" >/dev/null || {
      echo "$name.json has no complete entry in index.json" >&2
      return 1
    }
    jq -e '.ociVersion and .process and .root and .linux' "$f" >/dev/null
  done
  for name in $(jq -r 'keys[]' "$CORPUS/index.json"); do
    [ -f "$CORPUS/$name.json" ]
  done
  for engine in runc containerd podman dockerd; do
    grep -q "^$engine: " "$CORPUS/VERSIONS"
  done
}

@test "matrix: a cell where entitle applies nothing is failed, naming what the probe saw" {
  # An "entitle" that passes create and run straight to runc: the promise
  # of network.none is not kept, and the matrix must say so.
  cat >"$BATS_TEST_TMPDIR/fake-entitle" <<EOF
#!/bin/sh
case " \$* " in *" features "*) exec "$ENTITLE" "\$@" ;; esac
exec runc "\$@"
EOF
  chmod +x "$BATS_TEST_TMPDIR/fake-entitle"
  run --separate-stderr env ENTITLE="$BATS_TEST_TMPDIR/fake-entitle" \
    "$MATRIX" --keep "$BATS_TEST_TMPDIR/matrix" --mode runc --config runc-spec --set network.none
  [ "$status" -eq 1 ]
  [[ "$output" == *"run 0, refused 0, baseline-cannot-run 0, failed 1"* ]]
  [[ "$output" == *"socket inet: ok, want EPERM"* ]]
  [[ "$output" == *"runc-spec x network.none [runc]"* ]]
}

@test "matrix: under Podman's configs (default errno ENOSYS) each denial of network.none, network.user, host.devices.none and security.confined reads EPERM" {
  matrix --mode runc --config podman-default --config podman-network-host \
    --set network.none --set network.user --set host.devices.none --set security.confined
}

@test "network.none,security.confined: holds on every recorded engine config through runc, or is refused" {
  matrix --mode runc --set network.none,security.confined
}

@test "network.user,security.confined,network.egress=10.200.0.1/32: holds on every recorded engine config through runc, or is refused" {
  matrix --mode runc --set network.user,security.confined,network.egress=10.200.0.1/32
}

@test "network.admin,security.admin,host.devices.admin: Docker-in-Docker holds on every recorded engine config through runc, or is refused" {
  matrix --mode runc --set network.admin,security.admin,host.devices.admin
}

@test "host.processes.none,host.devices.none: holds on every recorded engine config through runc, or is refused" {
  matrix --mode runc --set host.processes.none,host.devices.none
}

@test "network.none,security.confined: holds on every recorded engine config through crun in a cgroup2-only mount namespace, or is refused" {
  if ! command -v crun >/dev/null; then
    skip "crun is not installed (Debian package crun)"
  fi
  matrix --mode crun-cgroup2 --set network.none,security.confined
}
