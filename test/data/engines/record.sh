#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record.sh [--out DIR] [ENGINE...]: record the config.json that real
# container engines hand their OCI runtime on this machine (see README.md).
# ENGINE is runc, ctr, cri, podman or docker (default: all).  Run by hand,
# as root; the output (NAME.json, index.json, VERSIONS) is committed.
#
# Each engine runs privately: its own root, state and socket under a
# temporary directory, started here and stopped by its pid at the end
# (never systemd, never the host's default sockets).  Its runtime is the
# capture runtime (capture-runtime.sh), which copies the config and execs
# runc.  Images are built here from busybox-static: nothing is pulled.
# Pods use a CNI bridge of this run on a private range, without a gateway
# or masquerading, or the host's network; Docker's default network is a
# bridge of this run without iptables rules or masquerading.  Every
# container runs /bin/true: nothing is sent anywhere.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$HERE
ENGINES=()
while [ $# -gt 0 ]; do
  case $1 in
  --out)
    OUT=$(realpath "$2")
    shift 2
    ;;
  -h | --help)
    sed -n '3,16p' "$0"
    exit 0
    ;;
  *)
    ENGINES+=("$1")
    shift
    ;;
  esac
done
[ ${#ENGINES[@]} -gt 0 ] || ENGINES=(runc ctr cri podman docker)

if [ "$(id -u)" -ne 0 ]; then
  echo "record.sh: needs root (it starts containerd, dockerd and podman)" >&2
  exit 1
fi

# need ENGINE: what recording ENGINE takes, with the Debian packages.
need() {
  local tools pkgs t missing=""
  case $1 in
  runc) tools="runc" pkgs="runc" ;;
  ctr) tools="containerd ctr containerd-shim-runc-v2" pkgs="containerd" ;;
  cri) tools="containerd protoc /usr/bin/python3 /usr/lib/cni/bridge /usr/lib/cni/host-local"
    pkgs="containerd protobuf-compiler python3-grpcio python3-protobuf containernetworking-plugins" ;;
  podman) tools="podman conmon /usr/lib/cni/bridge" pkgs="podman containernetworking-plugins" ;;
  docker) tools="dockerd /usr/bin/docker containerd" pkgs="docker.io containerd" ;;
  *) echo "record.sh: unknown engine $1 (runc ctr cri podman docker)" >&2 && exit 1 ;;
  esac
  for t in $tools jq busybox ip; do
    command -v "$t" >/dev/null || missing+=" $t"
  done
  if [ "$1" = cri ] && ! /usr/bin/python3 -c 'import grpc, google.protobuf' 2>/dev/null; then
    missing+=" python3-grpcio/python3-protobuf"
  fi
  if [ -n "$missing" ]; then
    echo "record.sh: $1 needs$missing (Debian packages: $pkgs jq busybox-static iproute2)" >&2
    exit 1
  fi
}
for engine in "${ENGINES[@]}"; do
  need "$engine"
done

RUNC=$(command -v runc)
DOCKER=/usr/bin/docker # Debian's docker.io client, the daemon's version
PYTHON=/usr/bin/python3 # Debian's, with python3-grpcio and python3-protobuf
IMAGE=docker.io/library/entitle-busybox:latest
# Short: sockets live under it and must fit in sun_path.
T=$(mktemp -d /tmp/entitle-rec.XXXXXX)
mkdir -p "$T/captured" "$OUT"
PIDS=()
BRIDGES=(entrec-cri0 entrec-pod0 entrec-dkr0)
CGROUP_PARENT=/kubepods/besteffort
CGROUPS_BEFORE=$(ls -d /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods 2>/dev/null || true)

log() {
  echo "record.sh: $*" >&2
}

cleanup() {
  local pid m
  set +e
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null
  done
  findmnt -rn -o TARGET | grep "^$T/" | sort -r | while read -r m; do
    umount -l "$m"
  done
  for m in "${BRIDGES[@]}"; do
    ip link del "$m" 2>/dev/null
  done
  # The pods' cgroup parents, if this run made them (runc removes only
  # the containers' own cgroups).
  if [ -z "$CGROUPS_BEFORE" ]; then
    find /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods -depth -type d \
      -exec rmdir {} \; 2>/dev/null
  fi
  find /sys/fs/cgroup/*/entrec* /sys/fs/cgroup/entrec* -depth -type d -exec rmdir {} \; 2>/dev/null
  if [ -n "${RECORD_KEEP:-}" ]; then
    log "kept $T (RECORD_KEEP)"
  else
    rm -rf "$T"
  fi
}
trap cleanup EXIT

# wait_for WHAT COMMAND...: poll COMMAND until it succeeds (10 s).
wait_for() {
  local what=$1
  shift
  for _ in $(seq 100); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  log "$what did not come up"
  return 1
}

# keep NAME ENGINE COMMAND: move the one config captured since the last
# call to $OUT/NAME.json and note it in the index; with a second NAME
# (the CRI's pod sandbox), the sandbox's config goes there.
INDEX=$T/index.json
echo '{}' >"$INDEX"
keep() {
  local name=$1 engine=$2 command=${3//$T\//} sandbox_name=${4:-} f n=0 dest kind
  for f in "$T"/captured/*.json; do
    [ -e "$f" ] || continue
    case $f in *.meta.json) continue ;; esac
    kind=$(jq -r '.annotations["io.kubernetes.cri.container-type"] // "container"' "$f")
    if [ "$kind" = sandbox ]; then
      [ -n "$sandbox_name" ] || {
        rm -f "$f" "${f%.json}.meta.json"
        continue
      }
      dest=$sandbox_name
    else
      dest=$name
    fi
    n=$((n + 1))
    jq . "$f" >"$OUT/$dest.json"
    jq --arg name "$dest" --arg engine "$engine" --arg command "$command" \
      --arg kind "$kind" --slurpfile meta "${f%.json}.meta.json" \
      '.[$name] = {engine: $engine, command: $command, container: $kind} + $meta[0]' \
      "$INDEX" >"$INDEX.new"
    mv "$INDEX.new" "$INDEX"
    rm -f "$f" "${f%.json}.meta.json"
    log "recorded $dest ($command)"
  done
  if [ $n -eq 0 ]; then
    log "nothing was captured for $name ($command)"
    return 1
  fi
}

# The capture runtime, with this run's paths.
CAPTURE=$T/capture-runtime
sed -e "s|@CAPTURE_DIR@|$T/captured|" -e "s|@RUNC@|$RUNC|" \
  "$HERE/capture-runtime.sh" >"$CAPTURE"
chmod 755 "$CAPTURE"

# The image: busybox-static and its applets, PATH=/bin, default command a
# long sleep (it is the CRI's sandbox image too).  $T/rootfs.tar for
# docker/podman import, $T/image.tar (an OCI layout) for ctr import.
build_image() {
  "$HERE/../../busybox-rootfs.sh" "$T/rootfs"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$T/rootfs" -cf "$T/rootfs.tar" .
  "$HERE/../../oci-image.sh" "$T/rootfs" "$T/image.tar" /bin/sleep 3600
}

versions() {
  {
    echo "# Engines that wrote the configs of this directory (record.sh, $(date -u +%Y-%m-%d))."
    echo "kernel: $(uname -r) $(uname -m)"
    echo "debian: $(cat /etc/debian_version)"
    echo "runc: $("$RUNC" --version | head -n 1)"
    for p in runc containerd podman docker.io conmon containernetworking-plugins crun busybox-static; do
      echo "package $p: $(dpkg-query -W -f '${Version}' "$p" 2>/dev/null || echo not installed)"
    done
    echo "containerd: $(containerd --version)"
    echo "ctr: $(ctr --version)"
    echo "podman: $(podman --version)"
    echo "dockerd: $(dockerd --version)"
    echo "docker: $("$DOCKER" --version)"
    echo "cgroups: $(if [ -e /sys/fs/cgroup/cgroup.controllers ]; then echo unified; elif [ -d /sys/fs/cgroup/unified ]; then echo hybrid; else echo legacy; fi)"
  } >"$OUT/VERSIONS"
}

record_runc() {
  mkdir -p "$T/runc-spec"
  (cd "$T/runc-spec" && "$RUNC" spec)
  jq . "$T/runc-spec/config.json" >"$OUT/runc-spec.json"
  jq '.["runc-spec"] = {engine: "runc", command: "runc spec", container: "container",
    bind_sources: {}, host_namespaces: []}' "$INDEX" >"$INDEX.new"
  mv "$INDEX.new" "$INDEX"
  log "recorded runc-spec (runc spec)"
}

CTRD_SOCK=$T/containerd/containerd.sock
start_containerd() {
  [ -S "$CTRD_SOCK" ] && return 0
  "$HERE/../../cni-bridge.sh" "$T/cni" entrec-cri entrec-cri0 10.213.0.0/24
  mkdir -p "$T/containerd"
  "$HERE/../../containerd-config.sh" "$T/containerd" --cri "$IMAGE" --cni "$T/cni" \
    --runtime "capture=$CAPTURE" --runc-root "$T/runc-cri" >"$T/containerd.toml"
  containerd --config "$T/containerd.toml" >"$T/containerd.log" 2>&1 &
  PIDS+=($!)
  wait_for containerd ctr -a "$CTRD_SOCK" version || {
    cat "$T/containerd.log" >&2
    return 1
  }
}

ctrn() {
  ctr -a "$CTRD_SOCK" -n "$1" "${@:2}"
}

record_ctr() {
  local variant opts n=0
  start_containerd
  ctrn entrec images import --base-name docker.io/library/entitle-busybox "$T/image.tar" >/dev/null
  for variant in plain seccomp privileged net-host; do
    n=$((n + 1))
    case $variant in
    plain) opts=() ;;
    *) opts=("--$variant") ;;
    esac
    ctrn entrec run --rm --runc-binary "$CAPTURE" --runc-root "$T/runc-ctr" \
      "${opts[@]}" "$IMAGE" "entrec-ctr-$n" /bin/true
    keep "ctr-$variant" "containerd $(containerd --version | cut -d' ' -f3)" \
      "ctr run --rm ${opts[*]:+${opts[*]} }IMAGE ID /bin/true"
  done
}

record_cri() {
  local variant opts n=0 proto=$T/proto
  start_containerd
  ctrn k8s.io images import --base-name docker.io/library/entitle-busybox "$T/image.tar" >/dev/null
  mkdir -p "$proto"
  protoc -I "$HERE/cri" --python_out="$proto" "$HERE/cri/api.proto"
  wait_for "the CRI plugin" "$PYTHON" "$HERE/cri/cri.py" --address "$CTRD_SOCK" --proto-dir "$proto" version
  # The audit profile of the Kubernetes seccomp tutorial: log everything,
  # deny nothing (an allow-by-default profile, as a node admin installs it).
  echo '{"defaultAction": "SCMP_ACT_LOG"}' >"$T/audit.json"
  for variant in runtime-default unconfined host-network privileged localhost-audit; do
    n=$((n + 1))
    case $variant in
    runtime-default) opts=(--seccomp runtime-default) ;;
    unconfined) opts=(--seccomp unconfined) ;;
    host-network) opts=(--seccomp runtime-default --host-network) ;;
    privileged) opts=(--privileged) ;;
    localhost-audit) opts=(--seccomp "localhost:$T/audit.json") ;;
    esac
    mkdir -p "$T/pods/$n"
    "$PYTHON" "$HERE/cri/cri.py" --address "$CTRD_SOCK" --proto-dir "$proto" run "entrec-$n" \
      --cgroup-parent "$CGROUP_PARENT/pod-entrec-$n" --log-dir "$T/pods/$n" "${opts[@]}" -- /bin/true >&2
    local sandbox=
    case $variant in runtime-default | host-network) sandbox="cri-$variant-sandbox" ;; esac
    keep "cri-$variant" "containerd $(containerd --version | cut -d' ' -f3) CRI" \
      "cri.py run ${opts[*]} -- /bin/true" "$sandbox"
  done
}

record_podman() {
  local variant opts d=$T/podman
  mkdir -p "$d/hooks.d" "$d/tmp"
  "$HERE/../../cni-bridge.sh" "$d/net" podman entrec-pod0 10.214.0.0/24
  # The host's containers.conf applies, as it would for any user.
  pm() {
    podman --root "$d/root" --runroot "$d/run" --tmpdir "$d/tmp" --storage-driver vfs \
      --runtime "$CAPTURE" --cgroup-manager cgroupfs --events-backend file \
      --network-config-dir "$d/net" --hooks-dir "$d/hooks.d" "$@"
  }
  pm import --change 'CMD ["/bin/sleep", "3600"]' --change 'ENV PATH=/bin' \
    "$T/rootfs.tar" "$IMAGE" >/dev/null
  for variant in default privileged network-host seccomp-unconfined; do
    case $variant in
    default) opts=() ;;
    privileged) opts=(--privileged) ;;
    network-host) opts=(--network host) ;;
    seccomp-unconfined) opts=(--security-opt seccomp=unconfined) ;;
    esac
    # A container that cannot start here still had its config captured
    # (podman raises RLIMIT_NOFILE to 2^20: hosts without CAP_SYS_RESOURCE
    # whose hard limit is lower refuse that).
    pm run --rm "${opts[@]}" "$IMAGE" /bin/true || log "podman run ${opts[*]:-(default)} failed (above)"
    keep "podman-$variant" "podman $(podman --version | cut -d' ' -f3)" \
      "podman run --rm ${opts[*]:+${opts[*]} }IMAGE /bin/true"
  done
}

record_docker() {
  local variant opts d=$T/docker
  start_containerd
  mkdir -p "$d"
  echo '{}' >"$d/daemon.json"
  # Docker's default network is its bridge: one of this run, on a private
  # range, without iptables rules or masquerading (the container runs
  # /bin/true and sends nothing).
  ip link add entrec-dkr0 type bridge
  ip addr add 10.215.0.1/24 dev entrec-dkr0
  dockerd --config-file "$d/daemon.json" --data-root "$d/root" --exec-root "$d/exec" \
    --pidfile "$d/dockerd.pid" -H "unix://$d/docker.sock" --containerd "$CTRD_SOCK" \
    --containerd-namespace entrec-moby --containerd-plugins-namespace entrec-plugins \
    --storage-driver vfs --iptables=false --ip6tables=false --ip-masq=false --bridge=entrec-dkr0 \
    --add-runtime "capture=$CAPTURE" --default-runtime capture >"$d/dockerd.log" 2>&1 &
  PIDS+=($!)
  dk() {
    "$DOCKER" -H "unix://$d/docker.sock" "$@"
  }
  wait_for dockerd dk version || {
    cat "$d/dockerd.log" >&2
    return 1
  }
  dk import --change 'CMD ["/bin/sleep", "3600"]' --change 'ENV PATH=/bin' \
    "$T/rootfs.tar" "$IMAGE" >/dev/null
  for variant in default privileged network-host cap-add-all; do
    case $variant in
    default) opts=() ;;
    privileged) opts=(--privileged) ;;
    network-host) opts=(--network host) ;;
    cap-add-all) opts=(--cap-add ALL) ;;
    esac
    # A container that cannot start here still had its config captured.
    dk run --rm "${opts[@]}" "$IMAGE" /bin/true || log "docker run ${opts[*]:-(default)} failed (above)"
    keep "docker-$variant" "docker $(dockerd --version | cut -d' ' -f3 | tr -d ,)" \
      "docker run --rm ${opts[*]:+${opts[*]} }IMAGE /bin/true"
  done
}

build_image
for engine in "${ENGINES[@]}"; do
  "record_$engine"
done
versions
# Merge this run's entries into the committed index.
[ -f "$OUT/index.json" ] || echo '{}' >"$OUT/index.json"
jq -S -s '.[0] + .[1]' "$OUT/index.json" "$INDEX" >"$OUT/index.json.new"
mv "$OUT/index.json.new" "$OUT/index.json"
log "done: $(jq -r 'keys | join(" ")' "$OUT/index.json")"
