#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The Kubernetes path of image labels (issue 28, docs/kubernetes.md "Image
# labels"): deploy/kubernetes/image-labels/entitle-image-labels, the
# mutating admission webhook, against a real registry (Debian's
# docker-registry, private on 127.0.0.1, its own storage) holding images
# this file builds (busybox, one with the label io.entitle.entitlements,
# one without) and pushes with skopeo.  Each case feeds it an
# AdmissionReview in the shape the API server sends
# (test/kubernetes/image-labels/pod-review.json) and applies the JSONPatch
# it answers, as the API server would; the last runs the mutated pod
# through containerd's CRI plugin as the kubelet would (cri.bats' client)
# and entitle honours the image's label.  No API server runs here.

load helpers
load cri-helpers

SRC=${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}
WEBHOOK="$SRC/deploy/kubernetes/image-labels/entitle-image-labels"
REVIEW="$SRC/test/kubernetes/image-labels/pod-review.json"
LABELS='{"io.entitle.entitlements": "network.none"}'

setup_file() {
  require_entitle
  require_tools "docker-registry skopeo" docker-registry skopeo
  # A short path: containerd's socket (the last case) must fit in sun_path.
  D=$(mktemp -d /tmp/entitle-img.XXXXXX)
  export D CRI_DIR="$D/cri" CRI_BRIDGE="entimg-${D##*.}" CRI_CGROUP="entitle-img-${D##*.}"
  probe_image "$D" /bin/sleep 3600
  OCI_IMAGE_LABELS=$LABELS "$OCI_IMAGE" "$D/rootfs" "$D/labelled.tar" /bin/sleep 3600
  registry_start "$D" || return 1
  export REG="127.0.0.1:$(cat "$D/registry.port")"
  push "$D/labelled.tar" ent-lbl:1
  push "$D/image.tar" ent-nolbl:1
}

teardown_file() {
  [ -n "${D:-}" ] || return 0
  cri_teardown
  pid_stop "$D/registry.pid"
  pid_stop "$D/serve.pid"
  rm -rf "$D"
}

# free_port: a TCP port of 127.0.0.1 nothing listens on now.
free_port() {
  "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# registry_start DIR: docker-registry on 127.0.0.1 (its port in
# DIR/registry.port, its pid in DIR/registry.pid), storage in DIR/registry.
registry_start() {
  local d=$1 port
  port=$(free_port)
  echo "$port" >"$d/registry.port"
  cat >"$d/registry.yml" <<EOF
version: 0.1
log:
  level: warn
storage:
  filesystem:
    rootdirectory: $d/registry
http:
  addr: 127.0.0.1:$port
EOF
  docker-registry serve "$d/registry.yml" >"$d/registry.log" 2>&1 3>&- &
  echo $! >"$d/registry.pid"
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/v2/" >/dev/null && return 0
    sleep 0.1
  done
  cat "$d/registry.log" >&2
  echo "docker-registry did not answer on 127.0.0.1:$port" >&2
  return 1
}

# push TAR NAME:TAG: the OCI image TAR (oci-image.sh's) in the registry.
push() {
  skopeo copy -q "oci-archive:$1" "docker://$REG/$2" --dest-tls-verify=false
}

# manifest_digest REF, config_of REF: what the registry holds for REF.
manifest_digest() {
  skopeo inspect --no-tags --tls-verify=false "docker://$1" | jq -r .Digest
}

config_of() {
  skopeo inspect --config --raw --tls-verify=false "docker://$1"
}

# review [JQ]: a file, the recorded AdmissionReview of pod-review.json
# for this registry, changed by JQ.
review() {
  local f
  f=$(mktemp "$BATS_TEST_TMPDIR/review-XXXXXX.json")
  sed "s|REGISTRY|$REG|g" "$REVIEW" | jq "${1:-.}" >"$f"
  echo "$f"
}

# webhook_review FILE: the webhook's --review of FILE, in $output.
webhook_review() {
  run --separate-stderr "$PYTHON" "$WEBHOOK" --tls-verify=false --review <"$1"
}

# patched REVIEW RESPONSE: the pod of REVIEW with RESPONSE's JSONPatch
# applied, as the API server applies it (add, replace and remove; replace
# and remove must find what they change).
patched() {
  local patch
  [ "$(jq -r .response.patchType <<<"$2")" = JSONPatch ]
  patch=$(jq -r .response.patch <<<"$2" | base64 -d)
  jq --argjson p "$patch" '.request.object | reduce $p[] as $o (.;
    ($o.path | ltrimstr("/") | split("/") | map(gsub("~1"; "/") | gsub("~0"; "~") | (tonumber? // .))) as $at
    | if $o.op == "add" or ($o.op == "replace" and getpath($at) != null) then setpath($at; $o.value)
      elif $o.op == "remove" and getpath($at) != null then delpaths([$at])
      else error("patch op \($o.op) at \($o.path)") end)' "$1"
}

# entry POD CONTAINER: CONTAINER's entry of POD's annotation io.entitle.image.
entry() {
  jq -r '.metadata.annotations["io.entitle.image"]' <<<"$1" | jq -c --arg c "$2" '.[$c]'
}

assert_allowed() {
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "$(jq -r .response.uid <<<"$output")" = 3b1e2c6a-9f0d-4e7b-8a51-6c2d0f4e9a17 ]
  [ "$(jq -r '.apiVersion + " " + .kind' <<<"$output")" = "admission.k8s.io/v1 AdmissionReview" ]
  [ "$(jq -r .response.allowed <<<"$output")" = true ]
}

@test "image-admission: a labelled image by tag is pinned to its manifest digest, its label and config digest in io.entitle.image" {
  local f pod digest config
  # A pod's own io.entitle.image-label (which entitle writes from Docker's
  # or Podman's record, and reads first) would stand in for the image's.
  f=$(review '.request.object.metadata.annotations += {"io.entitle.image-label": "security.insecure"}')
  webhook_review "$f"
  assert_allowed
  pod=$(patched "$f" "$output")
  digest=$(manifest_digest "$REG/ent-lbl:1")
  [ "$(jq -r '.spec.containers[0].image' <<<"$pod")" = "$REG/ent-lbl@$digest" ]
  # The entry's digest is the image id: the config blob's, which the
  # pinned manifest names (and the CRI's ImageRef), not the manifest's.
  config=$(skopeo inspect --raw --tls-verify=false "docker://$REG/ent-lbl@$digest" | jq -r .config.digest)
  [[ "$config" == sha256:* ]] && [ "$config" != "$digest" ]
  [ "$(entry "$pod" app)" = "{\"digest\":\"$config\",\"entitlements\":\"network.none\"}" ]
  # The pod author's io.entitle.image is replaced, other annotations kept.
  [ "$(jq -r '.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]' <<<"$pod")" = "{}" ]
  [ "$(jq -r '.metadata.annotations["io.entitle.image"] | fromjson | keys | join(" ")' <<<"$pod")" = "app init" ]
  [ "$(jq -c '.metadata.annotations | has("io.entitle.image-label")' <<<"$pod")" = false ]
  # Nothing else of the pod changes.
  [ "$(jq -S 'del(.spec.containers[0].image, .spec.initContainers[0].image, .metadata.annotations["io.entitle.image"])' <<<"$pod")" = \
    "$(jq -S '.request.object | del(.spec.containers[0].image, .spec.initContainers[0].image,
      .metadata.annotations["io.entitle.image"], .metadata.annotations["io.entitle.image-label"])' "$f")" ]
}

@test "image-admission: an unlabelled image's entry has no entitlements; init containers are pinned; an image given by digest keeps it" {
  local f pod digest config again
  digest=$(manifest_digest "$REG/ent-nolbl:1")
  config=$(config_of "$REG/ent-nolbl:1" | sha256sum | cut -d' ' -f1)
  f=$(review ".request.object.spec.containers += [{name: \"side\", image: \"$REG/ent-nolbl@$digest\"}]
    | del(.request.object.metadata.annotations)")
  webhook_review "$f"
  assert_allowed
  pod=$(patched "$f" "$output")
  [ "$(jq -r '.spec.initContainers[0].image' <<<"$pod")" = "$REG/ent-nolbl@$digest" ]
  [ "$(entry "$pod" init)" = "{\"digest\":\"sha256:$config\"}" ]
  [ "$(jq -r '.spec.containers[1].image' <<<"$pod")" = "$REG/ent-nolbl@$digest" ]
  [ "$(entry "$pod" side)" = "{\"digest\":\"sha256:$config\"}" ]
  [ "$(jq -r .response.patch <<<"$output" | base64 -d | jq -r '.[].path' | grep -c /containers/1/)" -eq 0 ]
  # Reinvoked on its own output (reinvocationPolicy IfNeeded), the webhook
  # changes no image and writes the same annotation.
  again=$(mktemp "$BATS_TEST_TMPDIR/again-XXXXXX.json")
  jq --argjson pod "$pod" '.request.object = $pod' "$f" >"$again"
  webhook_review "$again"
  assert_allowed
  [ "$(jq -r .response.patch <<<"$output" | base64 -d | jq -c '[.[].path]')" = '["/metadata/annotations/io.entitle.image"]' ]
  [ "$(patched "$again" "$output")" = "$pod" ]
}

@test "image-admission: another image pushed under the tag after admission: the pinned reference still names the labelled one" {
  local f pod pinned
  push "$D/labelled.tar" ent-move:1
  f=$(review ".request.object.spec.containers[0].image = \"$REG/ent-move:1\"")
  webhook_review "$f"
  assert_allowed
  pod=$(patched "$f" "$output")
  pinned=$(jq -r '.spec.containers[0].image' <<<"$pod")
  push "$D/image.tar" ent-move:1
  [ "$(config_of "$REG/ent-move:1" | jq -c .config.Labels)" = null ]
  [ "$(config_of "$pinned" | jq -c .config.Labels)" = "$(jq -c . <<<"$LABELS")" ]
  [ "$(entry "$pod" app)" = "{\"digest\":\"sha256:$(config_of "$pinned" | sha256sum | cut -d' ' -f1)\",\"entitlements\":\"network.none\"}" ]
  # Admitted now, the tag gives the unlabelled image and no request.
  webhook_review "$f"
  assert_allowed
  [ "$(entry "$(patched "$f" "$output")" app | jq -c 'has("entitlements")')" = false ]
}

@test "image-admission: an image that cannot be resolved denies the pod with one message naming container and image" {
  local f message cannot="cannot be resolved, so its io.entitle.entitlements label cannot be read"
  f=$(review ".request.object.spec.containers += [{name: \"gone\", image: \"$REG/ent-absent:1\"}]")
  webhook_review "$f"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "$(jq -c '.response | [.uid, .allowed, has("patch"), .status.code]' <<<"$output")" = \
    '["3b1e2c6a-9f0d-4e7b-8a51-6c2d0f4e9a17",false,false,403]' ]
  message=$(jq -r .response.status.message <<<"$output")
  [ "$(wc -l <<<"$message")" -eq 1 ]
  [[ "$message" == "container \"gone\": image \"$REG/ent-absent:1\" $cannot: "*"manifest unknown"* ]]
  # A registry that does not answer, and a digest that is not one.
  f=$(review ".request.object.spec.initContainers[0].image = \"127.0.0.1:$(free_port)/ent-lbl:1\"")
  webhook_review "$f"
  [ "$(jq -r .response.allowed <<<"$output")" = false ]
  [[ "$(jq -r .response.status.message <<<"$output")" == \
    "container \"init\": image \"127.0.0.1:"*"/ent-lbl:1\" $cannot: "*"connection refused" ]]
  f=$(review ".request.object.spec.containers[0].image = \"$REG/ent-lbl@sha256:abc\"")
  webhook_review "$f"
  [ "$(jq -r .response.status.message <<<"$output")" = \
    "container \"app\": image \"$REG/ent-lbl@sha256:abc\" $cannot: the digest is not sha256 and 64 lower-case hex" ]
}

@test "image-admission: input that is not an AdmissionReview of a pod: one line on stderr, non-zero exit, nothing on stdout" {
  local bad f
  for bad in 'not json' '[]' '{"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview","request":{"uid":"u"}}' \
    '{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}' \
    '{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","kind":{"kind":"Pod"},"object":{"spec":{"containers":"app"}}}}'; do
    f=$(mktemp "$BATS_TEST_TMPDIR/bad-XXXXXX.json")
    echo "$bad" >"$f"
    webhook_review "$f"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "${#stderr_lines[@]}" -eq 1 ]
    [[ "$stderr" == "entitle-image-labels: "* ]]
  done
}

@test "image-admission: --serve over TLS answers POST /mutate as --review does, 400 to a body that is not JSON" {
  local f port want idle
  require_tools "openssl curl" openssl curl
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$D/tls.key" -out "$D/tls.crt" 2>/dev/null
  port=$(free_port)
  "$PYTHON" "$WEBHOOK" --tls-verify=false --serve --cert "$D/tls.crt" --key "$D/tls.key" \
    --listen "127.0.0.1:$port" 2>"$D/serve.log" 3>&- &
  echo $! >"$D/serve.pid"
  for _ in $(seq 100); do
    curl -sf --cacert "$D/tls.crt" "https://127.0.0.1:$port/healthz" >/dev/null && break
    sleep 0.1
  done
  f=$(review)
  webhook_review "$f"
  assert_allowed
  want=$output
  # A client that connects and never starts TLS holds no one else up
  # (--max-time only bounds a failure).
  exec {idle}<>"/dev/tcp/127.0.0.1/$port"
  run curl -sS --max-time 20 --cacert "$D/tls.crt" -H 'Content-Type: application/json' --data-binary "@$f" \
    "https://127.0.0.1:$port/mutate"
  [ "$status" -eq 0 ]
  [ "$output" = "$want" ]
  run curl -sS -o /dev/null -w '%{http_code}' --cacert "$D/tls.crt" --data-binary 'not json' \
    "https://127.0.0.1:$port/mutate"
  [ "$output" = 400 ]
  exec {idle}>&-
  pid_stop "$D/serve.pid"
  rm "$D/serve.pid"
}

# cri_start: a private containerd with the CRI plugin as cri.bats starts
# it, its handler entitle written by `entitle configure containerd` with
# an admin config that enables image labels, the pinned images pulled.
cri_start() {
  mkdir -p "$CRI_DIR/bin"
  cp "$D/image.tar" "$CRI_DIR/image.tar"
  "$CNI_BRIDGE" "$CRI_DIR/cni" entitle-img "$CRI_BRIDGE" 10.217.0.0/24 "$CRI_DIR/cni-data"
  containerd_config "$CRI_DIR" --cri "$IMAGE" --cni "$CRI_DIR/cni" --runtime "runc=$RUNC_BIN" \
    --runc-root "$CRI_DIR/runc"
  ln -s "$(realpath "$ENTITLE")" "$CRI_DIR/bin/entitle"
  echo '{"image_labels": true}' >"$CRI_DIR/entitle.json"
  ENTITLE_CONFIG="$CRI_DIR/entitle.json" "$ENTITLE" configure containerd --config "$CRI_DIR/config.toml" \
    --drop-in "$CRI_DIR/conf.d/entitle.toml" --binary "$CRI_DIR/bin/entitle" >/dev/null
  ENTITLE_CONFIG="$CRI_DIR/entitle.json" containerd_start "$CRI_DIR" || return 1
  cri_ready
}

@test "image-admission: end to end, the mutated pod through the CRI plugin: the image's label confines it on the entitle handler only" {
  local f pod annotation lbl nolbl ref
  require_root
  require_cri
  f=$(review ".request.object.spec.containers += [{name: \"plain\", image: \"$REG/ent-nolbl:1\"}]")
  webhook_review "$f"
  assert_allowed
  pod=$(patched "$f" "$output")
  annotation=$(jq -r '.metadata.annotations["io.entitle.image"]' <<<"$pod")
  lbl=$(jq -r '.spec.containers[0].image' <<<"$pod")
  nolbl=$(jq -r '.spec.containers[1].image' <<<"$pod")
  cri_start
  for ref in "$lbl" "$nolbl"; do
    ctr -a "$CRI_DIR/containerd.sock" -n k8s.io images pull --plain-http "$ref" >/dev/null
  done
  # The kubelet passes the pod's annotations and each container's name
  # and image as the pod spec has them after admission.
  pod e2e --runtime-handler entitle --container-name app --image "$lbl" \
    --annotation "io.entitle.image=$annotation" -- /bin/sh -c "$ENGINE_SCRIPT"
  [ "$status" -eq 0 ]
  [ "$(sed -n 1,2p <<<"$log")" = "$(printf 'EPERM\nok')" ]
  # runc ignores it: the confinement is entitle's.
  pod e2e --runtime-handler runc --container-name app --image "$lbl" \
    --annotation "io.entitle.image=$annotation" -- /bin/sh -c "$ENGINE_SCRIPT"
  [ "$status" -eq 0 ]
  [ "$(sed -n 1,2p <<<"$log")" = "$(printf 'ok\nok')" ]
  # The unlabelled image's container, in the same pod's annotation; a
  # container the annotation does not name.
  pod e2e --runtime-handler entitle --container-name plain --image "$nolbl" \
    --annotation "io.entitle.image=$annotation" -- /bin/sh -c "$ENGINE_SCRIPT"
  [ "$status" -eq 0 ]
  [ "$(sed -n 1,2p <<<"$log")" = "$(printf 'ok\nok')" ]
  pod e2e --runtime-handler entitle --container-name other --image "$lbl" \
    --annotation "io.entitle.image=$annotation" -- /bin/sh -c "$ENGINE_SCRIPT"
  [ "$status" -eq 0 ]
  [ "$(sed -n 1,2p <<<"$log")" = "$(printf 'ok\nok')" ]
}
