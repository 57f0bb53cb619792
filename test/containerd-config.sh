#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# containerd-config.sh DIR [--cri IMAGE --cni CONFDIR --runtime NAME=BINARY
#                      --runc-root DIR]
#
# Print the config.toml of a private containerd (version 2, Debian's 1.6):
# its root, state and socket (DIR/containerd.sock) under DIR, no debug or
# metrics listener, the plugins this host cannot use off.  Without --cri
# the CRI plugin is off too (ctr only).  With --cri, the CRI plugin serves
# on the same socket with IMAGE as the sandbox image, the CNI networks of
# CONFDIR, and the default runtime NAME: the runc shim running BINARY
# with its state under --runc-root.  The one config of containerd.bats,
# cri.bats, configure.bats (test/integration/helpers.bash) and
# test/data/engines/record.sh.
set -euo pipefail

d=$1
shift
image="" cni="" runtime="" runc_root=""
while [ $# -gt 0 ]; do
  case $1 in
  --cri) image=$2 ;;
  --cni) cni=$2 ;;
  --runtime) runtime=$2 ;;
  --runc-root) runc_root=$2 ;;
  *)
    echo "containerd-config.sh: unknown option $1" >&2
    exit 1
    ;;
  esac
  shift 2
done

# has_cap BIT: this process's bounding set has capability BIT.
has_cap() {
  local bnd
  bnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)
  (((0x$bnd >> $1) & 1))
}

cat <<EOF
version = 2
root = "$d/root"
state = "$d/state"
disabled_plugins = [$([ -n "$image" ] || echo '"io.containerd.grpc.v1.cri", ')"io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper",
  "io.containerd.snapshotter.v1.aufs", "io.containerd.internal.v1.opt",
  "io.containerd.tracing.processor.v1.otlp"]
[grpc]
  address = "$d/containerd.sock"
[ttrpc]
  address = "$d/containerd.sock.ttrpc"
[debug]
  address = ""
[metrics]
  address = ""
EOF
[ -n "$image" ] || exit 0
cat <<EOF
[plugins]
  [plugins."io.containerd.grpc.v1.cri"]
    sandbox_image = "$image"
    stream_server_address = "127.0.0.1"
    stream_server_port = "0"
    enable_selinux = false
    netns_mounts_under_state_dir = true
    # The sandbox's oomScoreAdj would be -998, which needs CAP_SYS_RESOURCE:
    # hosts without it keep containerd's own score.
    restrict_oom_score_adj = $(if has_cap 24; then echo false; else echo true; fi)
    [plugins."io.containerd.grpc.v1.cri".cni]
      bin_dir = "/usr/lib/cni"
      conf_dir = "$cni"
    [plugins."io.containerd.grpc.v1.cri".containerd]
      snapshotter = "overlayfs"
      default_runtime_name = "${runtime%%=*}"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.${runtime%%=*}]
        runtime_type = "io.containerd.runc.v2"
        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.${runtime%%=*}.options]
          BinaryName = "${runtime#*=}"
          Root = "$runc_root"
EOF
