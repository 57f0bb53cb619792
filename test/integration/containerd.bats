#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# End to end through containerd (Debian's 1.6): a private containerd on its
# own socket, root and state dirs; an OCI image this file builds from
# busybox-static and the probe (no network, no pull); `ctr run
# --runc-binary $ENTITLE --annotation io.entitle.entitlements=...`.

load helpers

IMAGE=docker.io/library/entitle-busybox:latest

setup_file() {
  local missing tool
  for tool in containerd ctr containerd-shim-runc-v2 busybox jq; do
    command -v "$tool" >/dev/null || missing+=" $tool"
  done
  if [ -n "$missing" ]; then
    skip "not installed:$missing (Debian packages containerd, busybox-static)"
  fi
  if [ "$(id -u)" -ne 0 ]; then
    skip "needs root: it runs containerd"
  fi
  if [ ! -x "$ENTITLE" ] || [ ! -x "$ENTITLE_PROBE" ]; then
    skip "entitle or the probe is not built: set ENTITLE and ENTITLE_PROBE or run make check"
  fi
  # A short path: the socket's name must fit in sun_path.
  CTRD_DIR=$(mktemp -d /tmp/entitle-ctrd.XXXXXX)
  export CTRD_DIR
  # runc names cgroups /NAMESPACE/ID: a namespace of this run only.
  export CTRD_NS="entitle-test-${CTRD_DIR##*.}"
  probe_image "$CTRD_DIR" /bin/sh
  # entitle installed as `runc` first on containerd's PATH (as
  # docs/integration.md offers): what `ctr run` without --runc-binary runs.
  mkdir "$CTRD_DIR/bin"
  ln -s "$(realpath "$ENTITLE")" "$CTRD_DIR/bin/runc"
  # The shim and entitle inherit containerd's environment: entitle must
  # not read the host's /etc/entitle/entitle.json (ENTITLE_CONFIG= : none).
  PATH="$CTRD_DIR/bin:$PATH" ENTITLE_CONFIG= containerd_start "$CTRD_DIR" || return 1
  ctr -a "$CTRD_DIR/containerd.sock" -n "$CTRD_NS" images import \
    --base-name docker.io/library/entitle-busybox "$CTRD_DIR/image.tar" >/dev/null
  # Image labels (issue 28): the same image whose config carries the label
  # an image author writes, and entitle with an admin config that asks
  # this containerd for its record of each container (a wrapper, since
  # ctr's --runc-binary takes no arguments).
  OCI_IMAGE_LABELS='{"io.entitle.entitlements": "network.none"}' \
    "$OCI_IMAGE" "$CTRD_DIR/rootfs" "$CTRD_DIR/labelled.tar" /bin/sh
  ctr -a "$CTRD_DIR/containerd.sock" -n "$CTRD_NS" images import \
    --base-name docker.io/library/entitle-labelled "$CTRD_DIR/labelled.tar" >/dev/null
  echo '{"image_labels": {"containerd": ["'"$CTRD_DIR/containerd.sock"'"]}}' >"$CTRD_DIR/labels.json"
  printf '#!/bin/sh\nexec %s --entitle-config=%s "$@"\n' "$(realpath "$ENTITLE")" "$CTRD_DIR/labels.json" \
    >"$CTRD_DIR/bin/entitle-labels"
  chmod +x "$CTRD_DIR/bin/entitle-labels"
}

teardown_file() {
  [ -n "${CTRD_DIR:-}" ] || return 0
  containerd_stop "$CTRD_DIR" "$CTRD_NS"
}

setup() {
  common_setup
  ENT_ABS=$(realpath "$ENTITLE")
}

teardown() {
  local id
  [ -S "${CTRD_DIR:-/nonexistent}/containerd.sock" ] || return 0
  for id in $(cr containers list -q 2>/dev/null); do
    cr tasks kill -s KILL "$id" >/dev/null 2>&1 || true
    cr tasks delete -f "$id" >/dev/null 2>&1 || true
    cr containers delete "$id" >/dev/null 2>&1 || true
  done
  common_teardown
}

# cr ARG...: ctr on the private containerd, in the test namespace.
cr() {
  ctr -a "$CTRD_DIR/containerd.sock" -n "$CTRD_NS" "$@"
}

# ctr_run [--annotation K=V...] -- COMMAND...: run COMMAND in a new
# container of the test image (CTR_IMAGE) through entitle (CTR_RUNTIME),
# to completion.
ctr_run() {
  local opts=()
  while [ "$1" != -- ]; do
    opts+=("$1")
    shift
  done
  shift
  run --separate-stderr cr run --rm --runc-binary "${CTR_RUNTIME:-$ENT_ABS}" --runc-root "$CTRD_DIR/runc" \
    "${opts[@]}" "${CTR_IMAGE:-$IMAGE}" "$CTID" "$@"
}

@test "containerd: without entitlements ctr run through entitle answers as through runc" {
  script='/probe socket inet; /probe socket unix; /probe caps; exit 3'
  run --separate-stderr cr run --rm --runc-binary "$RUNC_BIN" --runc-root "$CTRD_DIR/runc" \
    "$IMAGE" "$CTID-runc" /bin/sh -c "$script"
  runc_status=$status runc_output=$output
  ctr_run -- /bin/sh -c "$script"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = ok ]
  [ "$status" -eq "$runc_status" ]
  [ "$output" = "$runc_output" ]
}

@test "network.none: ctr run --annotation denies AF_INET, not AF_UNIX; without it both work" {
  script='/probe socket inet; /probe socket inet6; /probe socket unix; /probe caps'
  ctr_run -- /bin/sh -c "$script"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = ok ]
  [ "${lines[1]}" = ok ]
  [ "${lines[2]}" = ok ]
  has_cap "$(cap_line "$output" CapEff)" $CAP_NET_RAW

  ctr_run --annotation io.entitle.entitlements=network.none -- /bin/sh -c "$script"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = EPERM ]
  [ "${lines[1]}" = EPERM ]
  [ "${lines[2]}" = ok ]
  lacks_cap "$(cap_line "$output" CapEff)" $CAP_NET_RAW
}

@test "security.confined: ctr task exec gets the init process's restrictions" {
  cr run -d --runc-binary "$ENT_ABS" --runc-root "$CTRD_DIR/runc" \
    --annotation io.entitle.entitlements=security.confined "$IMAGE" "$CTID" /probe sleep 600
  # containerd builds the exec's process from its stored spec: full caps.
  run --separate-stderr cr tasks exec --exec-id probe "$CTID" /bin/sh -c \
    "grep -E '^(Cap|NoNewPrivs)' /proc/self/status; echo ---; grep -E '^(Cap|NoNewPrivs)' /proc/1/status"
  [ "$status" -eq 0 ]
  same_as_init "ctr tasks exec"
}

@test "containerd: entitle's error reaches ctr through the runtime's JSON log" {
  ctr_run --annotation io.entitle.entitlements=network.bogus -- /bin/true
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"entitle: "*network.bogus* ]]
  # Nothing is left behind.
  [ -z "$(cr containers list -q)" ]
}

@test "network.admin: through containerd, refused without an admin grant" {
  ctr_run --annotation io.entitle.entitlements=network.admin -- /bin/true
  [ "$status" -ne 0 ]
  [[ "$stderr" == *'entitlement "network.admin" requested by the container is not granted by'* ]]
}

@test "network.none: through containerd with entitle installed as runc on its PATH, the container is confined" {
  script='/probe socket inet; /probe socket unix'
  # No --runc-binary: the shim runs the `runc` on containerd's PATH.  A
  # bounded wait: entitle and entitle-full once exec'd each other for ever.
  run --separate-stderr timeout 60 ctr -a "$CTRD_DIR/containerd.sock" -n "$CTRD_NS" run --rm \
    --runc-root "$CTRD_DIR/runc" "$IMAGE" "$CTID" /bin/sh -c "$script"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = ok ]
  [ "${lines[1]}" = ok ]

  run --separate-stderr timeout 60 ctr -a "$CTRD_DIR/containerd.sock" -n "$CTRD_NS" run --rm \
    --runc-root "$CTRD_DIR/runc" --annotation io.entitle.entitlements=network.none \
    "$IMAGE" "$CTID" /bin/sh -c "$script"
  if [ "$status" -ne 0 ]; then
    echo "ctr run: status $status (124: killed, an exec loop): $stderr" >&2
    false
  fi
  [ "${lines[0]}" = EPERM ]
  [ "${lines[1]}" = ok ]
}

@test "containerd: entitle inspect ID finds the container in containerd's runc root of its namespace, without --root" {
  # The roots are looked for under ENTITLE_RUN_DIR (/run by default): this
  # containerd's runc root is that base's containerd/runc, as /run's is
  # an installed containerd's.
  base="$CTRD_DIR/run-$BATS_TEST_NUMBER"
  mkdir -p "$base/containerd/runc"
  cr run -d --runc-binary "$ENT_ABS" --runc-root "$base/containerd/runc" \
    --annotation io.entitle.entitlements=network.none "$IMAGE" "$CTID" /probe sleep 600
  pid=$(cr tasks list | awk -v id="$CTID" '$1 == id { print $2 }')
  [ "$pid" -gt 0 ]
  run --separate-stderr env ENTITLE_RUN_DIR="$base" "$ENTITLE" inspect --json "$CTID"
  [ "$status" -eq 0 ]
  [ "$(jq -r .pid <<<"$output")" = "$pid" ]
  [ "$(jq -r .container <<<"$output")" = "$CTID" ]
  [ "$(jq -r .root <<<"$output")" = "$base/containerd/runc/$CTRD_NS" ]
  [ "$(jq -r '.policy.rules | length' <<<"$output")" -gt 0 ]
  run --separate-stderr env ENTITLE_RUN_DIR="$base" "$ENTITLE" inspect "$CTID"
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == "process $pid, init of container $CTID of --root $base/containerd/runc/$CTRD_NS, cgroup "* ]]
  # Where no root holds it: one line naming the roots searched and the
  # --root to pass.
  run --separate-stderr env ENTITLE_RUN_DIR="$base/none" "$ENTITLE" inspect "$CTID"
  one_error_line
  [[ "$stderr" == *"searched its default root, $base/none/docker/runtime-runc/moby, $base/none/runc and $base/none/crun;"* ]]
  [[ "$stderr" == *"--root /run/containerd/runc/NAMESPACE"* ]]
}

# Image labels (issue 28): containerd copies the labels of the image's
# config into its record of the container when it makes it; entitle asks
# containerd for that record (image_labels.containerd).

LABELLED=docker.io/library/entitle-labelled:latest

# lbl_run RUNTIME [OPTION...] -- COMMAND...: ctr run of the labelled image.
lbl_run() {
  CTR_RUNTIME=$1 CTR_IMAGE=$LABELLED ctr_run "${@:2}"
}

@test "containerd, image label: ctr run of an image labelled network.none is confined with no flag where the admin turns image labels on" {
  lbl_run "$RUNC_BIN" -- /probe socket inet
  [ "$output" = ok ]
  # Off by default.
  lbl_run "$ENT_ABS" -- /probe socket inet
  [ "$output" = ok ]
  lbl_run "$CTRD_DIR/bin/entitle-labels" -- /probe socket inet
  [ "$output" = EPERM ]
  # The same bytes without the label: nothing asked, nothing written.
  CTR_RUNTIME=$CTRD_DIR/bin/entitle-labels ctr_run -- /probe socket inet
  [ "$output" = ok ]
}

@test "containerd, image label: the annotation replaces what the image asks, even emptied" {
  lbl_run "$CTRD_DIR/bin/entitle-labels" --annotation io.entitle.entitlements= -- /probe socket inet
  [ "$output" = ok ]
  lbl_run "$CTRD_DIR/bin/entitle-labels" --annotation io.entitle.entitlements=network.user -- /probe socket inet
  [ "$output" = ok ]
}

@test "containerd, image label: a containerd that does not answer leaves the container as it asked, with a warning" {
  # A task's bundle where the shim's TTRPC_ADDRESS names a socket of the
  # admin config that nobody listens on: the record cannot be read, and
  # the container, which may have asked nothing, runs.
  local bundle="$BATS_TEST_TMPDIR/state/io.containerd.runtime.v2.task/ns/$CTID"
  probe_bundle "$bundle" "socket inet"
  echo '{"image_labels": {"containerd": ["'"$BATS_TEST_TMPDIR/down.sock"'"]}}' >"$BATS_TEST_TMPDIR/down.json"
  run --separate-stderr env TTRPC_ADDRESS="$BATS_TEST_TMPDIR/down.sock.ttrpc" "$ENTITLE" \
    --entitle-config="$BATS_TEST_TMPDIR/down.json" --root "$ROOT" run -b "$bundle" "$CTID"
  [ "$status" -eq 0 ]
  [ "$output" = "socket inet: ok" ]
  [[ "$stderr" == "entitle: warning: containerd's record of container $CTID: gRPC "*"/down.sock\`: No such file or directory: the image's label \`io.entitle.entitlements\` is not read" ]]
}
