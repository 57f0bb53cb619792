#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# oci-image.sh ROOTFS IMAGE.TAR CMD [ARG...]: write IMAGE.TAR, an OCI image
# layout (`ctr images import` takes it) of one gzip layer holding ROOTFS,
# with PATH=/bin and CMD as its default command, tagged "latest".  The
# layer's bytes depend only on ROOTFS (sorted names, owner 0, mtime 0).
# OCI_IMAGE_LABELS, a JSON object, becomes the config's Labels (image-admission.bats).
# Needs jq.
set -eu
rootfs=$1 out=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/layout/blobs/sha256"

case "$(uname -m)" in
x86_64) arch=amd64 ;;
aarch64) arch=arm64 ;;
armv7l) arch=arm ;;
i?86) arch=386 ;;
*) arch=$(uname -m) ;;
esac

# blob FILE: store FILE in the layout; sets $digest ("sha256:...") and $size.
blob() {
  digest=$(sha256sum "$1" | cut -d' ' -f1)
  size=$(stat -c %s "$1")
  cp "$1" "$work/layout/blobs/sha256/$digest"
  digest=sha256:$digest
}

tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$rootfs" -cf "$work/layer.tar" .
diff_id=sha256:$(sha256sum "$work/layer.tar" | cut -d' ' -f1)
gzip -n "$work/layer.tar"
blob "$work/layer.tar.gz"
layer=$digest layer_size=$size

jq -n -c --arg arch "$arch" --arg diff "$diff_id" --argjson labels "${OCI_IMAGE_LABELS:-null}" '{
  architecture: $arch, os: "linux",
  config: ({Cmd: $ARGS.positional, Env: ["PATH=/bin"]} + if $labels == null then {} else {Labels: $labels} end),
  rootfs: {type: "layers", diff_ids: [$diff]}}' --args "$@" >"$work/config.json"
blob "$work/config.json"
config=$digest config_size=$size

jq -n -c --arg c "$config" --argjson cs "$config_size" --arg l "$layer" --argjson ls "$layer_size" '{
  schemaVersion: 2, mediaType: "application/vnd.oci.image.manifest.v1+json",
  config: {mediaType: "application/vnd.oci.image.config.v1+json", digest: $c, size: $cs},
  layers: [{mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", digest: $l, size: $ls}]}' \
  >"$work/manifest.json"
blob "$work/manifest.json"

jq -n -c --arg m "$digest" --argjson ms "$size" --arg arch "$arch" '{
  schemaVersion: 2,
  manifests: [{mediaType: "application/vnd.oci.image.manifest.v1+json", digest: $m, size: $ms,
    platform: {architecture: $arch, os: "linux"},
    annotations: {"org.opencontainers.image.ref.name": "latest"}}]}' >"$work/layout/index.json"
echo '{"imageLayoutVersion": "1.0.0"}' >"$work/layout/oci-layout"
tar -C "$work/layout" -cf "$out" .
