# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by bench/run: what looking up the image's label costs on the
# create path (issue 28, docs/image-labels.md), as instruction counts
# (callgrind) and CPU time, each against the same create with the request
# in the annotation and no lookup.  A containers/storage store laid out as
# Podman 4.3 writes it (ROOT/vfs-containers/containers.json, the image's
# config at ROOT/vfs-images/ID/=BASE64("sha256:ID")), with 1 and with 1000
# containers in its record, and a Docker data root as Docker 20.10 writes
# it (containers/ID/config.v2.json, image/vfs/imagedb/content/sha256/ID,
# image/vfs/layerdb/mounts/ID/mount-id).  The runtime is the static stub;
# the label asks host.devices.none, which has no cgroup BPF part: create
# then execs the runtime, as it did before it attached itself (with a BPF
# part it runs the runtime's create and attaches, which a stub cannot
# serve).  The lookup costs the same whatever the label asks.

# store_bundle ROOT N: a store of N containers whose last is "c-bench",
# the bundle ROOT/vfs-containers/c-bench/userdata and its config.json;
# prints the bundle.
store_bundle() {
  local root=$1 n=$2 cfg id b64 dir
  rm -rf "$root"
  mkdir -p "$root/vfs-containers" "$root/vfs/dir"
  cfg='{"created":"2026-12-05T10:00:00Z","architecture":"amd64","os":"linux","config":{"Env":["PATH=/bin"],"Cmd":["/bin/sh"],"Labels":{"io.entitle.entitlements":"host.devices.none"}},"rootfs":{"type":"layers","diff_ids":["sha256:dba2ead0a82f3032010d46a41462b905b260c31b8549c451ec38a916cd6adf36"]},"history":[{"created":"2026-12-05T10:00:00Z","created_by":"/bin/sh -c #(nop) ADD file in / "}]}'
  id=$(printf '%s' "$cfg" | sha256sum | cut -c1-64)
  b64=$(printf 'sha256:%s' "$id" | base64 -w0)
  mkdir -p "$root/vfs-images/$id"
  printf '%s' "$cfg" >"$root/vfs-images/$id/=$b64"
  awk -v n="$n" -v id="$id" 'BEGIN {
    printf "[";
    for (i = 1; i <= n; i++) {
      c = (i == n) ? "c-bench" : sprintf("c-%064d", i);
      printf "%s{\"id\":\"%s\",\"names\":[\"name-%d\"],\"image\":\"%s\",\"layer\":\"layer-%d\",\"metadata\":\"{\\\"image-name\\\":\\\"localhost/app:latest\\\",\\\"name\\\":\\\"name-%d\\\",\\\"created-at\\\":1764928800}\",\"created\":\"2026-12-05T10:00:00Z\",\"flags\":{\"MountLabel\":\"\",\"ProcessLabel\":\"\"}}", (i > 1 ? "," : ""), c, i, id, i, i;
    }
    printf "]";
  }' >"$root/vfs-containers/containers.json"
  dir=$root/vfs-containers/c-bench/userdata
  bundle "$dir" docker "" -- /bin/true
  jq --arg p "$root/vfs/dir/layer-$n" '.root.path = $p' "$dir/config.json" >"$dir/c" && mv "$dir/c" "$dir/config.json"
  cp "$dir/config.json" "$dir/config.orig"
  echo "$dir"
}

# The same config with the request in the annotation: the baseline.
annotated_bundle() {
  local from=$1 dir=$2
  mkdir -p "$dir"
  jq '.annotations["io.entitle.entitlements"] = "host.devices.none"' "$from/config.orig" >"$dir/config.json"
  cp "$dir/config.json" "$dir/config.orig"
}

# docker_bundle ROOT: a Docker data root holding container c-docker (64
# hex digits, as Docker's ids are) and the bundle .../moby/ID; prints it.
docker_bundle() {
  local root=$1 cfg id ctr dir
  ctr=$(printf 'bench' | sha256sum | cut -c1-64)
  rm -rf "$root"
  cfg='{"architecture":"amd64","config":{"Env":["PATH=/bin"],"Cmd":["/bin/sh"],"Labels":{"io.entitle.entitlements":"host.devices.none"}},"created":"2026-12-05T10:00:00Z","os":"linux","rootfs":{"type":"layers","diff_ids":["sha256:dba2ead0a82f3032010d46a41462b905b260c31b8549c451ec38a916cd6adf36"]}}'
  id=$(printf '%s' "$cfg" | sha256sum | cut -c1-64)
  mkdir -p "$root/containers/$ctr" "$root/image/vfs/imagedb/content/sha256" "$root/image/vfs/layerdb/mounts/$ctr"
  printf '%s' "$cfg" >"$root/image/vfs/imagedb/content/sha256/$id"
  printf 'mount-bench' >"$root/image/vfs/layerdb/mounts/$ctr/mount-id"
  jq -n --arg id "$ctr" --arg img "sha256:$id" \
    '{ID: $id, Created: "2026-12-05T10:00:00Z", Path: "/bin/sh", Args: [], Image: $img, Driver: "vfs",
      Config: {Hostname: "h", Env: ["PATH=/bin"], Cmd: ["/bin/sh"], Image: "app:latest",
               Labels: {"io.entitle.entitlements": "host.devices.none"}},
      Name: "/bench", RestartCount: 0, Platform: "linux", MountLabel: "", ProcessLabel: "",
      HostnamePath: "", HostsPath: "", LogPath: "", ShmPath: "", ResolvConfPath: ""}' \
    >"$root/containers/$ctr/config.v2.json"
  dir=$W/run-docker/io.containerd.runtime.v2.task/moby/$ctr
  bundle "$dir" docker "" -- /bin/true
  jq --arg p "$root/vfs/dir/mount-bench" '.root.path = $p' "$dir/config.json" >"$dir/c" && mv "$dir/c" "$dir/config.json"
  cp "$dir/config.json" "$dir/config.orig"
  echo "$dir"
}

say "image labels: the lookup on the create path"
S1=$(store_bundle "$W/store-1" 1)
S1000=$(store_bundle "$W/store-1000" 1000)
D1=$(docker_bundle "$W/docker-root")
annotated_bundle "$S1" "$W/lbl-annotated"
echo "{\"runtime\": \"$W/stub\", \"image_labels\": {\"containers-storage\": [\"$W/store-1\", \"$W/store-1000\"], \"docker\": [\"$W/docker-root\"]}}" >"$W/labels.json"
for pair in "store-1:$S1:c-bench" "store-1000:$S1000:c-bench" "docker:$D1:${D1##*/}"; do
  IFS=: read -r name b id <<<"$pair"
  # The lookup must find the label, else the row measures nothing.
  cp "$b/config.orig" "$b/config.json"
  ENTITLE_CONFIG=$W/labels.json "$ENTITLE" --root "$ROOT" create -b "$b" "$id" </dev/null >/dev/null
  [ "$(jq -r '.annotations["io.entitle.image-label"]' "$b/config.json")" = host.devices.none ] ||
    { echo "bench: the label was not found for $b" >&2; exit 1; }
  cp "$b/config.orig" "$b/config.json"
  a=$(ENTITLE_CONFIG=$W/labels.json instr "$FULL" --root "$ROOT" create -b "$b" "$id")
  cp "$b/config.orig" "$b/config.json"
  cp "$W/lbl-annotated/config.orig" "$W/lbl-annotated/config.json"
  c=$(ENTITLE_CONFIG=$W/stub.json instr "$FULL" --root "$ROOT" create -b "$W/lbl-annotated" bench-annotated)
  r=$(ratio "$a" "$c")
  row "instructions of entitle-full's create, \`host.devices.none\` from the image's label ($name)" \
    "label looked up: $(kinstr "$a")" "request in the annotation, no lookup: $(kinstr "$c")" "$r" "—" "—" "report" "—"
done
read -r ma mb r q1 q3 lo hi < <("$P" -n "$(n 200)" -w 5 -p "$RESTORE; cp $S1/config.orig $S1/config.json" -- \
  /usr/bin/env ENTITLE_CONFIG="$W/labels.json" "$ENTITLE" --root "$ROOT" create -b "$S1" c-bench :: \
  /usr/bin/env ENTITLE_CONFIG="$W/stub.json" "$ENTITLE" --root "$ROOT" create -b "$W/lbl-annotated" bench-annotated)
row "create, CPU ms, \`host.devices.none\` from the image's label (store of 1)" "label looked up ($(fmt "$ma"))" \
  "request in the annotation ($(fmt "$mb"))" "$(fmt "$r")" "$(fmt "$q1")–$(fmt "$q3")" "$(fmt "$lo")–$(fmt "$hi")" \
  "≤ 1.02" "$(verdict "$r" 1.02)"
# A create the lookup does not apply to (an engine not recognised): the
# front opens no more files than without image_labels.  The two admin
# configs differ in that one value only (parsing a longer file costs
# instructions of its own).
cp "$W/plain/config.orig" "$W/plain/config.json"
echo "{\"runtime\": \"$W/stub\", \"image_labels\": true}" >"$W/labels-on.json"
echo "{\"runtime\": \"$W/stub\", \"image_labels\": false}" >"$W/labels-off.json"
a=$(ENTITLE_CONFIG=$W/labels-on.json instr "$ENTITLE" --root "$ROOT" create -b "$W/plain" bench-new)
b=$(ENTITLE_CONFIG=$W/labels-off.json instr "$ENTITLE" --root "$ROOT" create -b "$W/plain" bench-new)
r=$(ratio "$a" "$b")
row "instructions until the runtime is exec'd: \`create\` without entitlements, an engine not recognised" \
  "\`image_labels\` on: $(kinstr "$a")" "off: $(kinstr "$b")" "$r" "—" "—" "≤ 1.01" "$(verdict "$r" 1.01)"
