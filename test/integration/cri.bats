#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Kubernetes' path, through containerd's CRI plugin (issue 12): a private
# containerd (Debian's 1.6) with the CRI plugin on its own socket, root and
# state, a CNI bridge of this file (no address, no gateway, a private
# range), a sandbox image this file builds (busybox, its command a sleep),
# and the runtime handlers `entitle configure containerd --profile
# confined` wrote into a drop-in its config imports: `entitle` (pod_annotations
# io.entitle.*) and `entitle-confined` (BinaryName the symlink
# entitle-confined, the profile of the admin config).  The CRI client
# (test/data/engines/cri/cri.py) runs RunPodSandbox, CreateContainer and
# StartContainer with runtime_handler as the kubelet does for a pod whose
# RuntimeClass names that handler, and reads the container's log.

load helpers
load cri-helpers

setup_file() {
  require_root
  require_entitle
  require_cri
  # A short path: the socket's name must fit in sun_path.
  CRI_DIR=$(mktemp -d /tmp/entitle-cri.XXXXXX)
  # Names of this run only: the CNI bridge (at most 15 bytes) and the pods'
  # cgroup parent.
  export CRI_DIR CRI_BRIDGE="entcri-${CRI_DIR##*.}" CRI_CGROUP="entitle-cri-${CRI_DIR##*.}"
  probe_image "$CRI_DIR" /bin/sleep 3600
  "$CNI_BRIDGE" "$CRI_DIR/cni" entitle-cri "$CRI_BRIDGE" 10.219.0.0/24 "$CRI_DIR/cni-data"
  containerd_config "$CRI_DIR" --cri "$IMAGE" --cni "$CRI_DIR/cni" --runtime "runc=$RUNC_BIN" \
    --runc-root "$CRI_DIR/runc"
  # entitle as installed: the engine runs BIN/entitle and the symlink
  # BIN/entitle-confined that configure makes beside it.
  mkdir "$CRI_DIR/bin"
  ln -s "$(realpath "$ENTITLE")" "$CRI_DIR/bin/entitle"
  # image_labels: entitle asks this containerd for its record of each
  # container, which holds the labels of the image it was made from.
  echo '{"profiles": {"confined": ["network.none", "security.confined"]},
    "image_labels": {"containerd": ["'"$CRI_DIR/containerd.sock"'"]}}' >"$CRI_DIR/entitle.json"
  # The runtimes in a drop-in config.toml imports, entitle the default
  # handler; config.toml is the private one and that imports line.
  cp "$CRI_DIR/config.toml" "$CRI_DIR/config.toml.orig"
  ENTITLE_CONFIG="$CRI_DIR/entitle.json" "$ENTITLE" configure containerd --config "$CRI_DIR/config.toml" \
    --drop-in "$CRI_DIR/conf.d/entitle.toml" --binary "$CRI_DIR/bin/entitle" --profile confined \
    --set-as-default >"$CRI_DIR/configure.out"
  # containerd passes its environment to the runc shim and so to entitle:
  # the admin config of this file, never the host's.
  ENTITLE_CONFIG="$CRI_DIR/entitle.json" containerd_start "$CRI_DIR" || return 1
  cri_ready
  # The same image with the label an image author writes.
  OCI_IMAGE_LABELS='{"io.entitle.entitlements": "network.none"}' \
    "$OCI_IMAGE" "$CRI_DIR/rootfs" "$CRI_DIR/labelled.tar" /bin/sleep 3600
  ctr -a "$CRI_DIR/containerd.sock" -n k8s.io images import \
    --base-name docker.io/library/entitle-labelled "$CRI_DIR/labelled.tar" >/dev/null
}

teardown_file() {
  cri_teardown
}

SCRIPT=$ENGINE_SCRIPT

@test "CRI: config.toml holds one line more than before, the imports of entitle's drop-in" {
  [ "$(diff "$CRI_DIR/config.toml.orig" "$CRI_DIR/config.toml")" = "0a1
> imports = [\"$CRI_DIR/conf.d/entitle.toml\"]" ]
}

@test "CRI: the entitle handler runs a pod without the annotation exactly as runc does" {
  pod plain --runtime-handler runc -- /bin/sh -c "$SCRIPT"
  [ "$status" -eq 0 ]
  runc_log=$log
  [ "${lines[2]}" = "exit 0" ]
  pod plain --runtime-handler entitle -- /bin/sh -c "$SCRIPT"
  [ "$status" -eq 0 ]
  [ "${lines[2]}" = "exit 0" ]
  [ "$log" = "$runc_log" ]
  [ "$(sed -n 1p <<<"$log")" = ok ]
  [ "$(grep NoNewPrivs <<<"$log")" = "NoNewPrivs:	0" ]
}

@test "CRI: a pod annotation io.entitle.entitlements reaches entitle through the entitle handler" {
  pod annotated --runtime-handler entitle --annotation io.entitle.entitlements=network.none \
    -- /bin/sh -c "$SCRIPT"
  [ "$status" -eq 0 ]
  [ "$(sed -n 1,2p <<<"$log")" = "$(printf 'EPERM\nok')" ]
  # The same annotation through a handler without pod_annotations never
  # reaches the runtime: containerd drops it.
  pod annotated --runtime-handler runc --annotation io.entitle.entitlements=network.none -- /bin/sh -c "$SCRIPT"
  [ "$(sed -n 1p <<<"$log")" = ok ]
}

@test "CRI: --set-as-default: a pod that names no handler runs through entitle, as runc without an annotation" {
  pod plain --runtime-handler runc -- /bin/sh -c "$SCRIPT"
  [ "$status" -eq 0 ]
  runc_log=$log
  pod default -- /bin/sh -c "$SCRIPT"
  [ "$status" -eq 0 ]
  [ "$log" = "$runc_log" ]
  pod default --annotation io.entitle.entitlements=network.none -- /bin/sh -c "$SCRIPT"
  [ "$status" -eq 0 ]
  [ "$(sed -n 1,2p <<<"$log")" = "$(printf 'EPERM\nok')" ]
}

@test "CRI: the entitle-confined handler (a RuntimeClass) confines a pod that asks for nothing" {
  pod confined --runtime-handler entitle-confined -- /bin/sh -c "$SCRIPT"
  [ "$status" -eq 0 ]
  output=$log confined_output EPERM
}

@test "CRI: an entitle error reaches the CRI caller as one readable line, and no pod is left" {
  pod bogus --runtime-handler entitle --annotation io.entitle.entitlements=network.bogus -- /bin/true
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  # What the kubelet gets (and shows in the pod's events), here:
  # cri.py: RunPodSandbox: UNKNOWN: failed to create containerd task: failed
  # to create shim task: OCI runtime create failed: entitle: annotation
  # `io.entitle.entitlements`: unknown entitlement `network.bogus`: unknown
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "cri.py: RunPodSandbox: UNKNOWN: "*"OCI runtime create failed: entitle: annotation \`io.entitle.entitlements\`: unknown entitlement \`network.bogus\`"* ]]
  [ -z "$(ctr -a "$CRI_DIR/containerd.sock" -n k8s.io containers list -q)" ]
}

@test "ctr run --runtime ignores the CRI runtime table; --runc-binary entitle-confined is the form that works" {
  local c=(ctr -a "$CRI_DIR/containerd.sock" -n k8s.io)
  run --separate-stderr "${c[@]}" run --rm --runtime entitle-confined "$IMAGE" "ctr-$BATS_TEST_NUMBER" /probe socket inet
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"invalid runtime name entitle-confined"* ]]
  # --runtime-config-path carries no BinaryName to the runc shim: the
  # container runs under plain runc.
  printf 'BinaryName = "%s"\n' "$CRI_DIR/bin/entitle-confined" >"$CRI_DIR/runc-options.toml"
  run --separate-stderr "${c[@]}" run --rm --runtime io.containerd.runc.v2 \
    --runtime-config-path "$CRI_DIR/runc-options.toml" "$IMAGE" "ctr-$BATS_TEST_NUMBER" /probe socket inet
  [ "$output" = ok ]
  run --separate-stderr "${c[@]}" run --rm --runc-binary "$CRI_DIR/bin/entitle-confined" \
    --runc-root "$CRI_DIR/runc" "$IMAGE" "ctr-$BATS_TEST_NUMBER" /probe socket inet
  [ "$output" = EPERM ]
}

@test "CRI, image label: a pod of an image labelled network.none is confined through the entitle handler with no annotation, from containerd's record" {
  local img=docker.io/library/entitle-labelled:latest
  pod lbl --runtime-handler runc --image "$img" -- /probe socket inet
  [ "$(sed -n 1p <<<"$log")" = ok ]
  pod lbl --runtime-handler entitle --image "$img" -- /probe socket inet
  [ "$(sed -n 1p <<<"$log")" = EPERM ]
  # The pod annotation replaces what the image asks.
  pod lbl --runtime-handler entitle --image "$img" --annotation io.entitle.entitlements=network.user -- /probe socket inet
  [ "$(sed -n 1p <<<"$log")" = ok ]
}
