#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# entitle's node installer (docs/kubernetes.md), what daemonset.yaml runs
# from its image (the Containerfile copies it to /usr/local/bin/entitle-install):
#
#   install.sh install [--watch]   install entitle on this node and register
#                                  it with containerd; with --watch, then
#                                  install again whenever the admin config
#                                  or containerd's config changes
#   install.sh uninstall           the exact inverse
#
# install, each step only when the one before it succeeded:
#   1. the admin config (CONFIG_SOURCE, the mounted ConfigMap) checked by
#      the image's own `entitle config check`, and its profile names by
#      what Kubernetes takes as a handler: a config refused is never put
#      in place, and nothing else is done;
#   2. the image's programs (STAGING: bin/entitle, libexec/entitle/
#      entitle-full, entitle-hook, entitle-init) copied to PREFIX, each by
#      rename (a running program keeps its file), once it is known that
#      they were built for PREFIX (they find their helpers there);
#   3. the admin config written to /etc/entitle/entitle.json, by rename;
#   4. `entitle configure containerd --drop-in` with one --profile per
#      profile of that config (profiles are declared there only), and the
#      links entitle-NAME of profiles no longer there removed;
#   5. containerd restarted (RESTART) when its config or the drop-in
#      changed; running pods keep running (their shims stay);
#   6. the node labelled entitle.io/ready=true (kubectl, NODE_NAME from the
#      downward API), the label the RuntimeClasses select.
# uninstall: the label removed first (no new pod lands here), `entitle
# configure containerd --remove` (containerd's config byte for byte as it
# was before the first install) and a restart when that changed it, the
# programs and links removed, /etc/entitle/entitle.json removed (and
# /etc/entitle, PREFIX when nothing else is in them).
#
# Every host path is under ROOT, at which the engine sees it too: "" in
# the DaemonSet (the host's directories are mounted where the host has
# them), a private tree in test/integration/k8s-install.bats.
#
# Environment, or an option of the same name (--root DIR, ...):
#   ENTITLE_ROOT           ROOT (default "")
#   ENTITLE_PREFIX         where the programs go, the --prefix the image was
#                          built with (default /opt/entitle)
#   ENTITLE_STAGING        the image's copy of PREFIX (default /staging/PREFIX)
#   ENTITLE_CONFIG_SOURCE  the admin config to install (default
#                          /config/entitle.json, the mounted ConfigMap)
#   ENTITLE_ENGINE_CONFIG  containerd's config (default
#                          ROOT/etc/containerd/config.toml)
#   ENTITLE_DROP_IN        the drop-in entitle writes (default
#                          ROOT/etc/containerd/conf.d/entitle.toml)
#   ENTITLE_RESTART        the command that restarts containerd (default:
#                          systemctl restart containerd in the host's
#                          namespaces, through nsenter --target 1)
#   ENTITLE_POLL           seconds between two looks at CONFIG_SOURCE and
#                          ENGINE_CONFIG (default 10)
#   NODE_NAME              the node to label; unset: no label (no API)
#
# The entitle commands run from the image's copy (STAGING), never from
# what is installed.  Errors: one line "entitle: install.sh: ..." on
# stderr, exit status 1.

set -eu

LABEL=entitle.io/ready
PROGRAMS="bin/entitle libexec/entitle/entitle-full libexec/entitle/entitle-hook libexec/entitle/entitle-init"

fail() {
  echo "entitle: install.sh: $*" >&2
  exit 1
}

say() {
  echo "entitle-install: $*"
}

# sum FILE...: one hash of the files' contents ("-" for one that is absent).
sum() {
  for f; do
    if [ -e "$f" ]; then sha256sum <"$f"; else echo -; fi
  done | sha256sum | cut -d' ' -f1
}

# put SRC DST: DST becomes a copy of SRC (its mode too), synced, by rename
# within DST's directory; nothing is done when they are equal.
put() {
  if cmp -s "$1" "$2"; then return 0; fi
  mkdir -p "${2%/*}"
  cp "$1" "$2.entitle-new"
  sync "$2.entitle-new"
  mv -f "$2.entitle-new" "$2"
}

# tool: TOOL, a directory with the image's entitle and entitle-full side
# by side (entitle runs the entitle-full next to it first): what the
# installer runs, before anything is installed and wherever the programs
# were built to be installed.
tool() {
  for p in $PROGRAMS; do
    [ -f "$STAGING/$p" ] || fail "the image has no $STAGING/$p"
  done
  TOOL=$(mktemp -d)
  cp "$STAGING/bin/entitle" "$STAGING/libexec/entitle/entitle-full" "$TOOL/"
}

# profiles FILE: the names of the admin config's profiles, one a line.
profiles() {
  jq -r '(.profiles // {}) | keys[]' "$1"
}

# check_config FILE: `entitle config check` of the image's entitle, then
# each profile NAME as a RuntimeClass handler entitle-NAME, which
# Kubernetes wants a DNS label (RFC 1123, at most 63 bytes).
check_config() {
  if ! out=$(ENTITLE_CONFIG='' "$TOOL/entitle" config check "$1" 2>&1); then
    fail "the admin config $CONFIG_SOURCE is refused, nothing installed: $(echo "$out" |
      sed "s/^entitle: //; s|\`$1\`|\`$CONFIG_SOURCE\`|g" | paste -sd';' -)"
  fi
  bad=$(profiles "$1" | grep -vxE '[a-z0-9]([-a-z0-9]{0,53}[a-z0-9])?' | head -n1) || true
  [ -z "$bad" ] ||
    fail "profile \`$bad\` of $CONFIG_SOURCE cannot be a RuntimeClass handler entitle-$bad (lowercase letters, digits and '-', at most 55 bytes); nothing installed"
}

# check_prefix: the image's programs look for their helpers in
# PREFIX/libexec/entitle (their build's --prefix, compiled in): installed
# anywhere else entitle would run, then fail on the first fs.read with
# runc's "error mounting .../entitle-init".
check_prefix() {
  grep -qF "$PREFIX/libexec/entitle/entitle-full" "$STAGING/bin/entitle" ||
    fail "the programs in $STAGING were not built with --prefix=$PREFIX (they would not find entitle-init); nothing installed"
}

# stale_links NAME...: remove BIN/entitle-X, the links to entitle of
# profiles X that are not among NAME... any more.
stale_links() {
  for l in "$BIN"/entitle-*; do
    name=${l##*/entitle-}
    if [ -L "$l" ] && [ "$(readlink "$l")" = entitle ] && ! printf '%s\n' "$@" | grep -qxF "$name"; then
      rm -f "$l"
      say "removed $l: profile $name is gone"
    fi
  done
}

configure() {
  "$TOOL/entitle" configure containerd --config "$ENGINE_CONFIG" --drop-in "$DROP_IN" --binary "$BIN/entitle" "$@"
}

# restart_if_changed SUM: restart containerd unless its config and the
# drop-in still have SUM.
restart_if_changed() {
  if [ "$(sum "$ENGINE_CONFIG" "$DROP_IN")" = "$1" ]; then
    say "containerd's config unchanged: no restart"
    return 0
  fi
  say "restarting containerd: $RESTART"
  sh -c "$RESTART" || fail "the restart of containerd failed: $RESTART"
}

# label VALUE: set the node's label (VALUE "-": take it off).  Without a
# node name or an API to ask, say so and go on: the label is for the
# scheduler, which only a cluster has.
label() {
  if [ -z "${NODE_NAME:-}" ]; then
    say "no NODE_NAME: no Kubernetes API here, the node's label $LABEL is left as it is"
    return 0
  fi
  if [ -z "${KUBERNETES_SERVICE_HOST:-}" ] && [ -z "${KUBECONFIG:-}" ]; then
    say "no Kubernetes API (KUBERNETES_SERVICE_HOST, KUBECONFIG): the node's label $LABEL is left as it is"
    return 0
  fi
  if [ "$1" = - ]; then set -- "$LABEL-"; else set -- "$LABEL=$1"; fi
  kubectl label --overwrite node "$NODE_NAME" "$1" >/dev/null || fail "kubectl label node $NODE_NAME $1 failed"
  say "node $NODE_NAME: label $1"
}

install() {
  new="$TOOL/entitle.json"
  cp "$CONFIG_SOURCE" "$new" || fail "cannot read the admin config $CONFIG_SOURCE"
  check_config "$new"
  check_prefix
  for p in $PROGRAMS; do
    put "$STAGING/$p" "$ROOT$PREFIX/$p"
  done
  put "$new" "$ROOT/etc/entitle/entitle.json"
  names=$(profiles "$new")
  before=$(sum "$ENGINE_CONFIG" "$DROP_IN")
  # The names were checked: no blank, no glob character.
  # shellcheck disable=SC2046,SC2086
  ENTITLE_CONFIG="$ROOT/etc/entitle/entitle.json" configure $(printf -- '--profile %s ' $names) ||
    fail "entitle configure containerd failed"
  # shellcheck disable=SC2086
  stale_links $names
  # shellcheck disable=SC2086
  say "installed in $ROOT$PREFIX, profiles:" $names
  restart_if_changed "$before"
  label true
}

uninstall() {
  label -
  before=$(sum "$ENGINE_CONFIG" "$DROP_IN")
  ENTITLE_CONFIG='' configure --remove || fail "entitle configure containerd --remove failed"
  restart_if_changed "$before"
  for l in "$BIN"/entitle-*; do
    if [ -L "$l" ] && [ "$(readlink "$l")" = entitle ]; then rm -f "$l"; fi
  done
  for p in $PROGRAMS; do
    rm -f "$ROOT$PREFIX/$p"
  done
  rm -f "$ROOT/etc/entitle/entitle.json"
  for d in "$ROOT$PREFIX/libexec/entitle" "$ROOT$PREFIX/libexec" "$BIN" "$ROOT$PREFIX" "$ROOT/etc/entitle"; do
    rmdir "$d" 2>/dev/null || true
  done
  say "uninstalled from $ROOT$PREFIX"
}

# watch: install, then look at CONFIG_SOURCE and ENGINE_CONFIG every POLL
# seconds and install again when one changed: the kubelet replaces a
# mounted ConfigMap's files when the ConfigMap is edited, and the drop-in
# carries a copy of the main config's CRI tables (containerd 1.x replaces
# a plugin's tables with an imported file's whole), which must follow an
# edit of the main config.  A config then refused ends the loop with its
# error: the container restarts and its install keeps refusing
# (CrashLoopBackOff, the reason in its log) until the ConfigMap is fixed;
# the node keeps the config it had.
watch() {
  install
  applied=$(sum "$CONFIG_SOURCE" "$ENGINE_CONFIG")
  while :; do
    sleep "$POLL"
    [ "$(sum "$CONFIG_SOURCE" "$ENGINE_CONFIG")" != "$applied" ] || continue
    say "$CONFIG_SOURCE or $ENGINE_CONFIG changed: installing again"
    install
    applied=$(sum "$CONFIG_SOURCE" "$ENGINE_CONFIG")
  done
}

main() {
  [ $# -gt 0 ] || fail "usage: install.sh install [--watch] | uninstall [--OPTION VALUE]..."
  cmd=$1 watch=false
  shift
  while [ $# -gt 0 ]; do
    case $1 in
    --watch)
      watch=true
      shift
      continue
      ;;
    --root) ENTITLE_ROOT=${2-} ;;
    --prefix) ENTITLE_PREFIX=${2-} ;;
    --staging) ENTITLE_STAGING=${2-} ;;
    --config-source) ENTITLE_CONFIG_SOURCE=${2-} ;;
    --engine-config) ENTITLE_ENGINE_CONFIG=${2-} ;;
    --drop-in) ENTITLE_DROP_IN=${2-} ;;
    --restart) ENTITLE_RESTART=${2-} ;;
    --poll) ENTITLE_POLL=${2-} ;;
    *) fail "unknown option $1" ;;
    esac
    [ $# -ge 2 ] || fail "$1 needs a value"
    shift 2
  done
  ROOT=${ENTITLE_ROOT:-}
  PREFIX=${ENTITLE_PREFIX:-/opt/entitle}
  STAGING=${ENTITLE_STAGING:-/staging$PREFIX}
  CONFIG_SOURCE=${ENTITLE_CONFIG_SOURCE:-/config/entitle.json}
  ENGINE_CONFIG=${ENTITLE_ENGINE_CONFIG:-$ROOT/etc/containerd/config.toml}
  DROP_IN=${ENTITLE_DROP_IN:-$ROOT/etc/containerd/conf.d/entitle.toml}
  RESTART=${ENTITLE_RESTART:-nsenter --target 1 --mount --uts --ipc --net --pid -- systemctl restart containerd}
  POLL=${ENTITLE_POLL:-10}
  BIN=$ROOT$PREFIX/bin
  case $cmd in
  install | uninstall) ;;
  *) fail "unknown command $cmd (install or uninstall)" ;;
  esac
  tool
  trap 'rm -rf "$TOOL"' EXIT
  if [ "$cmd" = uninstall ]; then
    uninstall
  elif $watch; then
    watch
  else
    install
  fi
}

main "$@"
