# SPDX-License-Identifier: GPL-2.0-or-later
#
# The CRI client of cri.bats and k8s-install.bats: pods run through a
# private containerd's CRI plugin as the kubelet runs them
# (test/data/engines/cri/cri.py).  The caller sets CRI_DIR (containerd's
# socket is CRI_DIR/containerd.sock) and CRI_CGROUP (the pods' cgroup
# parent).

IMAGE=docker.io/library/entitle-busybox:latest
CRI_PY="${BATS_TEST_DIRNAME}/../data/engines/cri/cri.py"
PYTHON=/usr/bin/python3 # Debian's, with python3-grpcio and python3-protobuf

# require_cri: skip unless what a private containerd with the CRI plugin,
# its CNI bridge and the CRI client need is installed.
require_cri() {
  require_tools "containerd protobuf-compiler python3-grpcio python3-protobuf containernetworking-plugins busybox-static" \
    containerd ctr containerd-shim-runc-v2 protoc busybox "$PYTHON" /usr/lib/cni/bridge /usr/lib/cni/host-local
  if ! "$PYTHON" -c 'import grpc, google.protobuf' 2>/dev/null; then
    skip "not installed: python3-grpcio and python3-protobuf (the CRI client's)"
  fi
}

# cri_ready: the image imported, the client's protobuf module generated,
# and the CRI plugin answering.
cri_ready() {
  ctr -a "$CRI_DIR/containerd.sock" -n k8s.io images import \
    --base-name docker.io/library/entitle-busybox "$CRI_DIR/image.tar" >/dev/null
  mkdir -p "$CRI_DIR/proto"
  protoc -I "$(dirname "$CRI_PY")" --python_out="$CRI_DIR/proto" "$(dirname "$CRI_PY")/api.proto"
  cri_wait
}

# cri_wait: until the CRI plugin answers (after a start or a restart).
cri_wait() {
  for _ in $(seq 100); do
    cri version >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "the CRI plugin did not answer" >&2
  return 1
}

# cri_teardown: whatever a failed test left killed (the shims outlive
# containerd), containerd stopped, CRI_DIR and the CNI bridge CRI_BRIDGE
# removed.
cri_teardown() {
  local id c=(ctr -a "$CRI_DIR/containerd.sock" -n k8s.io)
  [ -n "${CRI_DIR:-}" ] || return 0
  for id in $("${c[@]}" containers list -q 2>/dev/null); do
    "${c[@]}" tasks kill -s KILL "$id" >/dev/null 2>&1 || true
    "${c[@]}" tasks delete -f "$id" >/dev/null 2>&1 || true
  done
  containerd_stop "$CRI_DIR" "$CRI_CGROUP"
  ip link del "$CRI_BRIDGE" 2>/dev/null || true
}

cri() {
  "$PYTHON" "$CRI_PY" --address "$CRI_DIR/containerd.sock" --proto-dir "$CRI_DIR/proto" "$@"
}

# pod NAME [OPTION...] -- COMMAND...: run COMMAND in a pod of its own, as
# the kubelet would, to completion; $log is what the container wrote,
# $output all cri.py printed (ids, exit status, log), $stderr its errors.
POD_SEQ=0
pod() {
  local name="$1-$BATS_TEST_NUMBER-$((++POD_SEQ))"
  shift
  mkdir -p "$CRI_DIR/logs/$name"
  run --separate-stderr cri run "$name" --cgroup-parent "/$CRI_CGROUP/$name" \
    --log-dir "$CRI_DIR/logs/$name" --print-log "$@"
  log=$(printf '%s\n' "${lines[@]}" | sed '1,/^exit /d')
}
