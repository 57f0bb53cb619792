#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The node installer of deploy/kubernetes/ (install.sh, what the DaemonSet
# runs) for real, without a cluster: installed into a private tree ROOT
# (the host's /etc/containerd, /etc/entitle and the prefix, as the
# installer's --root sees them) from a staging copy of this build's
# programs (what the image holds), with the ConfigMap's admin config,
# against a private containerd (Debian's 1.6, the CRI plugin, a CNI bridge,
# as cri.bats starts it) whose config.toml is ROOT/etc/containerd/config.toml.
# Pods run through the CRI plugin as the kubelet runs them.
#
# The programs find their helpers (entitle-full, entitle-init) in the
# libexec directory of their build's --prefix: containerd runs in a mount
# namespace of its own where ROOT/PREFIX is mounted on PREFIX, so that
# what the installer put in ROOT is what entitle finds, and the host's
# PREFIX is never written.  The tests run in order: install, a second
# install, a refused config, a ConfigMap edited, uninstall.

load helpers
load cri-helpers

INSTALL="$BATS_TEST_DIRNAME/../../deploy/kubernetes/install.sh"
CHECK="${BATS_TEST_DIRNAME}/helper/check-kubernetes.py"

setup_file() {
  require_root
  require_entitle
  require_cri
  require_tools "util-linux" unshare
  if ! "$PYTHON" -c 'import yaml' 2>/dev/null; then
    skip "needs python3-yaml (the ConfigMap's admin config is read from deploy/kubernetes/)"
  fi
  # The prefix this build's programs look in: PREFIX/libexec/entitle.
  PREFIX=$(tr -c '[:print:]' '\n' <"$ENTITLE" | sed -n 's|/libexec/entitle/entitle-full$||p' | head -n1)
  if [ -z "$PREFIX" ] || [ ! -d "$PREFIX" ]; then
    skip "this build's prefix \`$PREFIX\` is not a directory here (containerd's mount namespace mounts the installed tree on it)"
  fi
  CRI_DIR=$(mktemp -d /tmp/entitle-k8s.XXXXXX)
  export CRI_DIR CRI_BRIDGE="entk8s-${CRI_DIR##*.}" CRI_CGROUP="entitle-k8s-${CRI_DIR##*.}"
  export PREFIX K8S_ROOT="$CRI_DIR/root" STAGING="$CRI_DIR/staging"
  # The image's /staging: this build's programs where make install puts them.
  mkdir -p "$STAGING/bin" "$STAGING/libexec/entitle"
  cp "$ENTITLE" "$STAGING/bin/entitle"
  cp "$ENTITLE_BUILDDIR/shim/entitle-full" "$ENTITLE_BUILDDIR/oci-hooks/entitle-hook" \
    "$ENTITLE_BUILDDIR/init/entitle-init" "$STAGING/libexec/entitle/"
  # The mounted ConfigMap.
  mkdir "$CRI_DIR/config"
  "$PYTHON" "$CHECK" "$ENTITLE_SRCDIR/deploy/kubernetes" config >"$CRI_DIR/config/entitle.json"
  probe_image "$CRI_DIR" /bin/sleep 3600
  "$CNI_BRIDGE" "$CRI_DIR/cni" entitle-k8s "$CRI_BRIDGE" 10.218.0.0/24 "$CRI_DIR/cni-data"
  mkdir -p "$K8S_ROOT/etc/containerd" "$K8S_ROOT$PREFIX"
  "$CONTAINERD_CONFIG" "$CRI_DIR" --cri "$IMAGE" --cni "$CRI_DIR/cni" --runtime "runc=$RUNC_BIN" \
    --runc-root "$CRI_DIR/runc" >"$K8S_ROOT/etc/containerd/config.toml"
  cp "$K8S_ROOT/etc/containerd/config.toml" "$CRI_DIR/config.toml.recorded"
  write_restart
  "$CRI_DIR/restart.sh" || return 1
  cri_ready
}

teardown_file() {
  cri_teardown
}

# write_restart: CRI_DIR/restart.sh, the installer's ENTITLE_RESTART here:
# stop the private containerd, start it again in its mount namespace
# (ROOT/PREFIX on PREFIX), with the installed admin config
# (ROOT/etc/entitle/entitle.json) and nothing of the build tree's.
write_restart() {
  cat >"$CRI_DIR/restart.sh" <<EOF
#!/bin/bash
set -eu
d=$CRI_DIR
if [ -f "\$d/containerd.pid" ]; then
  pid=\$(cat "\$d/containerd.pid")
  kill "\$pid" 2>/dev/null || true
  while kill -0 "\$pid" 2>/dev/null; do sleep 0.1; done
fi
env -u ENTITLE_HOOK -u ENTITLE_INIT ENTITLE_CONFIG="$K8S_ROOT/etc/entitle/entitle.json" \\
  unshare --mount --propagation private sh -c 'mount --bind "\$1" "\$2" && exec containerd --config "\$3"' \\
  sh "$K8S_ROOT$PREFIX" "$PREFIX" "$K8S_ROOT/etc/containerd/config.toml" >>"\$d/containerd.log" 2>&1 3>&- &
echo \$! >"\$d/containerd.pid"
for _ in \$(seq 100); do
  ctr -a "\$d/containerd.sock" version >/dev/null 2>&1 && exit 0
  sleep 0.1
done
echo "containerd did not start" >&2
exit 1
EOF
  chmod +x "$CRI_DIR/restart.sh"
}

# install_sh ARG...: install.sh against ROOT, the private containerd and
# the mounted ConfigMap CRI_DIR/config; no node name (no API).  With
# INSTALL_EXEC=exec, in place of the calling (sub)shell.
install_sh() {
  ${INSTALL_EXEC:-} env -u NODE_NAME ENTITLE_ROOT="$K8S_ROOT" ENTITLE_PREFIX="$PREFIX" ENTITLE_STAGING="$STAGING" \
    ENTITLE_CONFIG_SOURCE="$CRI_DIR/config/entitle.json" ENTITLE_RESTART="$CRI_DIR/restart.sh" "$INSTALL" "$@"
}

# installer ARG...: install_sh in bats' run (stderr apart).
installer() {
  run --separate-stderr install_sh "$@"
}

# configmap JSON: the mounted ConfigMap's entitle.json becomes JSON, by
# rename, as the kubelet replaces it.
configmap() {
  printf '%s\n' "$1" >"$CRI_DIR/config/.entitle.json.new"
  mv "$CRI_DIR/config/.entitle.json.new" "$CRI_DIR/config/entitle.json"
}

# wait_for_lines FILE TEXT N: until FILE has N lines with TEXT (the
# watcher's progress), or a watcher that died or hangs fails the test.
wait_for_lines() {
  for _ in $(seq 600); do
    [ "$(grep -c "$2" "$1")" -lt "$3" ] || return 0
    kill -0 "$watcher" 2>/dev/null || break
    sleep 0.1
  done
  cat "$1" >&2
  return 1
}

@test "install: every program and the admin config in place; a pod of a profile's RuntimeClass is confined" {
  installer install
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  for p in bin/entitle libexec/entitle/entitle-full libexec/entitle/entitle-hook libexec/entitle/entitle-init; do
    cmp "$STAGING/$p" "$K8S_ROOT$PREFIX/$p"
  done
  cmp "$CRI_DIR/config/entitle.json" "$K8S_ROOT/etc/entitle/entitle.json"
  [[ "$output" == *"restarting containerd"* ]]
  # No API here: the label step says so and is skipped.
  [[ "$output" == *"no NODE_NAME: no Kubernetes API here, the node's label entitle.io/ready is left as it is"* ]]
  cri_wait
  pod confined --runtime-handler entitle-confined -- /bin/sh -c "$ENGINE_SCRIPT"
  [ "$status" -eq 0 ]
  output=$log confined_output EPERM
}

@test "install: fs.read in a pod works, entitle-init is installed (the inline installer left it out: runc's error mounting)" {
  require_landlock
  pod plain --runtime-handler entitle-confined -- /probe read /etc/passwd
  [ "$status" -eq 0 ]
  [ "$log" = ok ]
  pod read --runtime-handler entitle-confined --annotation io.entitle.entitlements=fs.read=/probe \
    -- /probe read /etc/passwd
  [ "$status" -eq 0 ]
  [ "$log" = EACCES ]
}

@test "install: a second install writes nothing and does not restart containerd" {
  local pid sums
  pid=$(cat "$CRI_DIR/containerd.pid")
  sums=$(sha256sum "$K8S_ROOT/etc/containerd/config.toml" "$K8S_ROOT/etc/containerd/conf.d/entitle.toml")
  installer install
  [ "$status" -eq 0 ]
  [[ "$output" == *"containerd's config unchanged: no restart"* ]]
  [ "$(cat "$CRI_DIR/containerd.pid")" = "$pid" ]
  kill -0 "$pid"
  [ "$(sha256sum "$K8S_ROOT/etc/containerd/config.toml" "$K8S_ROOT/etc/containerd/conf.d/entitle.toml")" = "$sums" ]
}

# tree_sums: every name under ROOT, and every file's hash.
tree_sums() {
  (cd "$K8S_ROOT" && find . | sort && find . -type f -exec sha256sum {} + | sort)
}

# same_tree SUMS: ROOT is still what tree_sums said (else the difference).
same_tree() {
  diff <(printf '%s\n' "$1") <(tree_sums) >&2
}

# unreachable_api: CRI_DIR/kubeconfig, an API server that refuses every
# connection (nothing listens on port 1).
unreachable_api() {
  printf '%s\n' 'apiVersion: v1' 'kind: Config' 'current-context: c' \
    'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]' \
    'contexts: [{name: c, context: {cluster: c, user: u}}]' 'users: [{name: u, user: {}}]' \
    >"$CRI_DIR/kubeconfig"
}

@test "install: the node's label, where an API is given and does not answer, fails the install (the pod tries again)" {
  require_tools kubectl kubectl
  unreachable_api
  run --separate-stderr env NODE_NAME=node-1 KUBECONFIG="$CRI_DIR/kubeconfig" ENTITLE_ROOT="$K8S_ROOT" \
    ENTITLE_PREFIX="$PREFIX" ENTITLE_STAGING="$STAGING" ENTITLE_CONFIG_SOURCE="$CRI_DIR/config/entitle.json" \
    ENTITLE_RESTART="$CRI_DIR/restart.sh" "$INSTALL" install
  [ "$status" -eq 1 ]
  [ "${stderr_lines[-1]}" = "entitle: install.sh: kubectl label node node-1 entitle.io/ready=true failed" ]
}

@test "install: an admin config entitle config check refuses is never put in place, and nothing else changes" {
  local sums long
  sums=$(tree_sums)
  configmap '{"grant": ["securty.admin"], "profiles": {"confined": ["network.none"]}}'
  installer install
  [ "$status" -eq 1 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "entitle: install.sh: the admin config $CRI_DIR/config/entitle.json is refused, nothing installed: \`$CRI_DIR/config/entitle.json\`: "*"unknown entitlement \`securty.admin\`: did you mean \`security.admin\`?"* ]]
  same_tree "$sums"
  # A profile entitle takes but Kubernetes could not name as a handler
  # (a DNS label: 63 bytes with the "entitle-") is refused too.
  long=$(printf 'p%.0s' {1..56})
  configmap "{\"profiles\": {\"$long\": [\"network.none\"]}}"
  installer install
  [ "$status" -eq 1 ]
  [ "$stderr" = "entitle: install.sh: profile \`$long\` of $CRI_DIR/config/entitle.json cannot be a RuntimeClass handler entitle-$long (lowercase letters, digits and '-', at most 55 bytes); nothing installed" ]
  same_tree "$sums"
  "$PYTHON" "$CHECK" "$ENTITLE_SRCDIR/deploy/kubernetes" config >"$CRI_DIR/config/entitle.json"
}

@test "install --watch: an edited ConfigMap is rolled out; a dropped profile leaves no handler and no link" {
  local drop_in="$K8S_ROOT/etc/containerd/conf.d/entitle.toml" watcher
  [ -L "$K8S_ROOT$PREFIX/bin/entitle-web" ]
  (INSTALL_EXEC=exec ENTITLE_POLL=0.1 install_sh install --watch) >"$CRI_DIR/watch.log" 2>&1 3>&- &
  watcher=$!
  # The first install, which changes nothing, ends with the label step.
  wait_for_lines "$CRI_DIR/watch.log" "left as it is" 1
  # The kubelet replaces the mounted file: web dropped, offline added.
  configmap '{"profiles": {"confined": ["network.none", "security.confined"], "offline": ["network.none"]}}'
  wait_for_lines "$CRI_DIR/watch.log" "left as it is" 2
  # An edit of containerd's main config reaches the drop-in's copy of its
  # CRI tables, which containerd 1.x reads in their place.
  sed -i 's/stream_server_address = "127.0.0.1"/stream_server_address = "127.0.0.2"/' \
    "$K8S_ROOT/etc/containerd/config.toml"
  wait_for_lines "$CRI_DIR/watch.log" "left as it is" 3
  kill "$watcher"
  wait "$watcher" || true
  grep -q 'stream_server_address = "127.0.0.2"' "$drop_in"
  sed -i 's/stream_server_address = "127.0.0.2"/stream_server_address = "127.0.0.1"/' \
    "$K8S_ROOT/etc/containerd/config.toml"
  [ "$(grep -c "changed: installing again" "$CRI_DIR/watch.log")" -eq 2 ]
  grep -q 'entitle-offline' "$drop_in"
  run grep -q 'entitle-web' "$drop_in"
  [ "$status" -eq 1 ]
  cmp "$CRI_DIR/config/entitle.json" "$K8S_ROOT/etc/entitle/entitle.json"
  [ ! -e "$K8S_ROOT$PREFIX/bin/entitle-web" ]
  [ -L "$K8S_ROOT$PREFIX/bin/entitle-offline" ]
  cri_wait
  pod offline --runtime-handler entitle-offline -- /probe socket inet
  [ "$status" -eq 0 ]
  [ "$log" = EPERM ]
  # What a pod of the dropped RuntimeClass gets where the node lost it.
  pod web --runtime-handler entitle-web -- /bin/true
  [ "$status" -eq 1 ]
  [[ "$stderr" == *'no runtime for "entitle-web" is configured'* ]]
}

@test "uninstall: the label comes off first: where that fails, nothing else is touched" {
  local sums
  require_tools kubectl kubectl
  unreachable_api
  sums=$(tree_sums)
  run --separate-stderr env NODE_NAME=node-1 KUBECONFIG="$CRI_DIR/kubeconfig" ENTITLE_ROOT="$K8S_ROOT" \
    ENTITLE_PREFIX="$PREFIX" ENTITLE_STAGING="$STAGING" ENTITLE_RESTART="$CRI_DIR/restart.sh" "$INSTALL" uninstall
  [ "$status" -eq 1 ]
  [ "${stderr_lines[-1]}" = "entitle: install.sh: kubectl label node node-1 entitle.io/ready- failed" ]
  same_tree "$sums"
}

@test "uninstall: containerd's config byte for byte as recorded, no program, link or admin config left; runc runs pods" {
  installer uninstall
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  cmp "$CRI_DIR/config.toml.recorded" "$K8S_ROOT/etc/containerd/config.toml"
  [ ! -e "$K8S_ROOT/etc/containerd/conf.d/entitle.toml" ]
  [ ! -e "$K8S_ROOT$PREFIX" ]
  [ ! -e "$K8S_ROOT/etc/entitle" ]
  cri_wait
  pod plain -- /bin/sh -c "$ENGINE_SCRIPT"
  [ "$status" -eq 0 ]
  [ "$(sed -n 1p <<<"$log")" = ok ]
  pod confined --runtime-handler entitle-confined -- /bin/true
  [ "$status" -eq 1 ]
  [[ "$stderr" == *'no runtime for "entitle-confined" is configured'* ]]
  # A second uninstall finds nothing to do.
  installer uninstall
  [ "$status" -eq 0 ]
  cmp "$CRI_DIR/config.toml.recorded" "$K8S_ROOT/etc/containerd/config.toml"
}
