#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Image labels under Docker 20.10, for real (issue 28, docs/image-labels.md
# "Docker 20.10"): a private dockerd (docker-helpers.bash) with entitle
# added as the runtime `entitle`, and an admin config whose image_labels
# names that dockerd's data root.  The images are the probe's busybox,
# imported with `--change 'LABEL io.entitle.entitlements=...'`.  On
# create entitle reads ROOT/containers/ID/config.v2.json, the image
# config it names by digest (hashed), and asks for what the label says;
# each case runs first under plain runc, where the label changes nothing.

load helpers
load docker-helpers

PLAIN=entitle-busybox:latest
# The same rootfs, whose label asks for network.none.
LABELLED=entitle-label:network-none
# Whose label asks for security.admin: it widens, the admin must grant it.
ADMIN=entitle-label:security-admin

SCRIPT="$ENGINE_SCRIPT; exit 3"
CAP_SYS_ADMIN=21

setup_file() {
  dk_setup
  # entitle, after keeping the config.json dockerd wrote in the bundle
  # (config.json.dockerd), to compare with what runc got.
  cat >"$DK_DIR/bin/entitle-keep" <<WRAP
#!/bin/sh
prev=
for a; do
  [ "\$prev" = --bundle ] && cp "\$a/config.json" "\$a/config.json.dockerd"
  prev=\$a
done
exec "$DK_DIR/bin/entitle" "\$@"
WRAP
  chmod +x "$DK_DIR/bin/entitle-keep"
  labels_on
  dk_start --add-runtime "entitle=$DK_DIR/bin/entitle" --add-runtime "entitle-keep=$DK_DIR/bin/entitle-keep"
  dk_import "$PLAIN"
  dk_import "$LABELLED" --change 'LABEL io.entitle.entitlements=network.none'
  dk_import "$ADMIN" --change 'LABEL io.entitle.entitlements=security.admin'
}

teardown_file() {
  dk_teardown
}

setup() {
  common_setup
  labels_on
}

# dk_import NAME [OPTION...]: the probe's busybox as the image NAME.
dk_import() {
  local name=$1
  shift
  dk import --change 'CMD ["/bin/sh"]' --change 'ENV PATH=/bin' "$@" "$DK_DIR/rootfs.tar" "$name" >/dev/null
}

# admin_config JSON: the admin config every runtime call of this dockerd
# reads (DK_DIR/entitle.json), replaced in one rename.
admin_config() {
  printf '%s\n' "$1" >"$DK_DIR/entitle.json.new"
  mv "$DK_DIR/entitle.json.new" "$DK_DIR/entitle.json"
}

# labels_on [KEY: VALUE...]: image labels read from this dockerd's data
# root, and the other keys of the admin config given.
labels_on() {
  admin_config "{\"image_labels\": {\"docker\": [\"$DK_DIR/root\"]}${1:+, $1}}"
}

# bundle ID: the bundle of container ID (Docker's containerd namespace moby).
bundle() {
  echo "$DK_DIR/exec/containerd/daemon/io.containerd.runtime.v2.task/moby/$1"
}

# image_id NAME: the digest of the image config NAME names now.
image_id() {
  dk image inspect -f '{{.Id}}' "$1"
}

@test "Docker image label: an image labelled network.none confines docker run --runtime entitle, with no flag; under runc the label changes nothing" {
  run --separate-stderr dk run --rm --network none --runtime runc "$LABELLED" /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = ok ]
  run --separate-stderr dk run --rm --network none --runtime entitle "$LABELLED" /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = EPERM ]
  [ "${lines[1]}" = ok ]
}

@test "Docker image label: entitle writes the label and the image's digest into the config.json runc runs" {
  id=$(dk run -d --network none --runtime entitle "$LABELLED" /probe sleep 600)
  run jq -c '.annotations' "$(bundle "$id")/config.json"
  [ "$status" -eq 0 ]
  [ "$(jq -r '."io.entitle.image-label"' <<<"$output")" = network.none ]
  [ "$(jq -r '."io.entitle.image-digest"' <<<"$output")" = "$(image_id "$LABELLED")" ]
  dk rm -f "$id" >/dev/null
}

@test "Docker image label: docker run -e ENTITLE_ENTITLEMENTS= (empty, asks nothing) replaces the image's label: the operator's channel wins" {
  run --separate-stderr dk run --rm --network none --runtime entitle -e ENTITLE_ENTITLEMENTS= "$LABELLED" /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = ok ]
}

@test "Docker image label: docker run --label io.entitle.entitlements=security.insecure is not the image's label: still confined by network.none" {
  run --separate-stderr dk run --rm --network none --runtime runc --label io.entitle.entitlements=security.insecure \
    "$LABELLED" /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = ok ]
  run --separate-stderr dk run --rm --network none --runtime entitle --label io.entitle.entitlements=security.insecure \
    "$LABELLED" /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = EPERM ]
}

@test "Docker image label: a label asking for security.admin is refused without the admin's grant, naming the image's digest; granted, it runs" {
  run --separate-stderr dk run --rm --network none --runtime runc "$ADMIN" /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  lacks_cap "$(cap_line "$output" CapEff)" $CAP_SYS_ADMIN
  run --separate-stderr dk run --rm --network none --runtime entitle "$ADMIN" /bin/sh -c "$SCRIPT"
  [ "$status" -ne 0 ]
  [ -z "$output" ]
  [[ "$stderr" == *"OCI runtime create failed: entitle: image $(image_id "$ADMIN"): entitlement \"security.admin\" requested by the container through the image's label \`io.entitle.entitlements\` is not granted by $DK_DIR/entitle.json"* ]]
  [ -z "$(dk ps -aq)" ]
  labels_on '"grant": ["security.admin"]'
  run --separate-stderr dk run --rm --network none --runtime entitle "$ADMIN" /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  has_cap "$(cap_line "$output" CapEff)" $CAP_SYS_ADMIN
}

@test "Docker image label: an image without the label runs as under runc, its config.json as dockerd wrote it" {
  dk_runs_as_runc "$PLAIN"
  id=$(dk run -d --network none --runtime entitle-keep "$PLAIN" /probe sleep 600)
  b=$(bundle "$id")
  cmp "$b/config.json.dockerd" "$b/config.json"
  [ "$(jq -c '.annotations // {} | with_entries(select(.key | startswith("io.entitle")))' "$b/config.json")" = '{}' ]
  dk rm -f "$id" >/dev/null
}

@test "Docker image label: the tag moved to a label-less image between docker create and docker start: the created container still runs the labelled image, confined" {
  tag=entitle-label:race
  dk_import "$tag" --change 'LABEL io.entitle.entitlements=network.none' --change 'LABEL test=race'
  dk create --name "r$BATS_TEST_NUMBER" --network none --runtime runc "$tag" /bin/sh -c "$SCRIPT" >/dev/null
  dk create --name "c$BATS_TEST_NUMBER" --network none --runtime entitle "$tag" /bin/sh -c "$SCRIPT" >/dev/null
  labelled=$(image_id "$tag")
  dk_import "$tag"
  [ "$(image_id "$tag")" != "$labelled" ]
  [ "$(dk image inspect -f '{{index .Config.Labels "io.entitle.entitlements"}}' "$tag")" = "" ]
  run --separate-stderr dk start -a "r$BATS_TEST_NUMBER"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = ok ]
  run --separate-stderr dk start -a "c$BATS_TEST_NUMBER"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = EPERM ]
  dk rm -f "r$BATS_TEST_NUMBER" "c$BATS_TEST_NUMBER" >/dev/null
}

@test "Docker image label: an image config that is not its digest any more fails the start with one line; nothing is left running" {
  tag=entitle-label:corrupt
  dk_import "$tag" --change 'LABEL io.entitle.entitlements=network.none' --change 'LABEL test=corrupt'
  digest=$(image_id "$tag")
  config="$DK_DIR/root/image/vfs/imagedb/content/sha256/${digest#sha256:}"
  # Created first: dockerd itself no longer finds an image whose config
  # is not its digest.
  dk create --name "r$BATS_TEST_NUMBER" --network none --runtime runc "$tag" /bin/sh -c "$SCRIPT" >/dev/null
  dk create --name "c$BATS_TEST_NUMBER" --network none --runtime entitle "$tag" /bin/sh -c "$SCRIPT" >/dev/null
  printf ' ' >>"$config"
  run --separate-stderr dk start -a "r$BATS_TEST_NUMBER"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = ok ]
  run --separate-stderr dk start -a "c$BATS_TEST_NUMBER"
  [ "$status" -ne 0 ]
  [ -z "$output" ]
  # Besides dockerd's own `error waiting for container: context canceled`.
  [ "$(grep -c 'entitle: ' <<<"$stderr")" -eq 1 ]
  [[ "$stderr" == *"OCI runtime create failed: entitle: image $digest: its config \`$config\` has the digest sha256:"* ]]
  [ "$(dk inspect -f '{{.State.Running}}' "c$BATS_TEST_NUMBER")" = false ]
  [ -z "$("$RUNC_BIN" --root "$DK_DIR/exec/runtime-runc/moby" list -q)" ]
  dk rm -f "r$BATS_TEST_NUMBER" "c$BATS_TEST_NUMBER" >/dev/null
}

@test "Docker image label: without image_labels in the admin config (off by default) the labelled image runs unconfined" {
  admin_config '{}'
  run --separate-stderr dk run --rm --network none --runtime entitle "$LABELLED" /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = ok ]
}

@test "Docker image label: entitle inspect and why name the image's label as the source" {
  # A cgroup BPF part (network.egress), whose denials why reads on any
  # host (seccomp's need the fexit program: docs/denials.md).
  tag=entitle-label:egress
  dk_import "$tag" --change 'LABEL io.entitle.entitlements=network.egress=127.0.0.1/32:80'
  run dk run --rm --network none --runtime runc "$tag" /probe connect 127.0.0.2 80
  [ "$output" = ECONNREFUSED ]
  # The roots are looked for under ENTITLE_RUN_DIR, as in docker.bats.
  base="$DK_DIR/run-$BATS_TEST_NUMBER"
  mkdir "$base"
  ln -s "$DK_DIR/exec" "$base/docker"
  id=$(dk run -d --network none --runtime entitle "$tag" /probe sleep 600)
  run dk exec "$id" /probe connect 127.0.0.1 80
  [ "$output" = ECONNREFUSED ]
  run dk exec "$id" /probe connect 127.0.0.2 80
  [ "$output" = EPERM ]
  run --separate-stderr env ENTITLE_RUN_DIR="$base" "$ENTITLE" inspect "$id"
  [ "$status" -eq 0 ]
  grep -qxF "  sources: network.egress=127.0.0.1/32:80 from the image's label \`io.entitle.entitlements\`" <<<"$output"
  run --separate-stderr env ENTITLE_RUN_DIR="$base" "$ENTITLE" inspect --json "$id"
  [ "$status" -eq 0 ]
  [ "$(jq -r '.policy.sources["network.egress=127.0.0.1/32:80"]' <<<"$output")" = image ]
  run --separate-stderr env ENTITLE_RUN_DIR="$base" "$ENTITLE" why "$id" --json
  [ "$status" -eq 0 ]
  [ "$(jq -r '.denials[0] | [.address, .port, .denied_by, .denied_by_source] | join(" ")' <<<"$output")" = \
    "127.0.0.2 80 network.egress=127.0.0.1/32:80 image" ]
  dk rm -f "$id" >/dev/null
}
