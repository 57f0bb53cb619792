# SPDX-License-Identifier: GPL-2.0-or-later
#
# A private dockerd 20.10 (Debian's docker.io) for docker.bats and
# image-labels-docker.bats: its own data root (DK_DIR/root), exec root,
# pidfile and socket under DK_DIR; vfs storage, no iptables, no bridge;
# the containerd it starts itself under its exec root.  Containers run
# with --network none: nothing is sent.

DOCKER=/usr/bin/docker # Debian's client, the daemon's version

# dk_setup: skip unless Docker is installed; DK_DIR (a short path: the
# sockets' names must fit in sun_path) and DK_CGROUP, the probe image's
# files (probe_image) and DK_DIR/bin/entitle.
dk_setup() {
  require_root
  require_entitle
  require_tools "docker.io busybox-static" dockerd "$DOCKER" containerd busybox
  DK_DIR=$(mktemp -d /tmp/entitle-dk.XXXXXX)
  export DK_DIR DK_CGROUP="entitle-docker-${DK_DIR##*.}"
  probe_image "$DK_DIR" /bin/sh
  mkdir "$DK_DIR/bin"
  ln -s "$(realpath "$ENTITLE")" "$DK_DIR/bin/entitle"
}

# dk_start OPTION...: dockerd with OPTION... added; waits until it
# answers.  dockerd passes its environment to the containerd it starts,
# and that to the runc shim and entitle: the admin config is
# DK_DIR/entitle.json.
dk_start() {
  ENTITLE_CONFIG="$DK_DIR/entitle.json" dockerd --data-root "$DK_DIR/root" --exec-root "$DK_DIR/exec" \
    --pidfile "$DK_DIR/dockerd.pid" -H "unix://$DK_DIR/docker.sock" --storage-driver vfs --iptables=false \
    --ip6tables=false --ip-masq=false --bridge=none --cgroup-parent "/$DK_CGROUP" "$@" \
    >"$DK_DIR/dockerd.log" 2>&1 3>&- &
  for _ in $(seq 150); do
    dk version >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  dk version >/dev/null || {
    cat "$DK_DIR/dockerd.log" >&2
    return 1
  }
}

# dk_teardown: every container removed, dockerd stopped (it stops the
# containerd it started), DK_DIR and the cgroups gone.
dk_teardown() {
  [ -n "${DK_DIR:-}" ] || return 0
  # shellcheck disable=SC2046 # one word per container
  dk rm -f $(dk ps -aq 2>/dev/null) >/dev/null 2>&1 || true
  daemon_stop "$DK_DIR/dockerd.pid" "$DK_DIR" "$DK_CGROUP"
}

dk() {
  "$DOCKER" -H "unix://$DK_DIR/docker.sock" "$@"
}

# dk_runs_as_runc IMAGE: ENGINE_SCRIPT in IMAGE answers under --runtime
# entitle exactly as under --runtime runc (status, stdout, stderr), and
# unconfined.
dk_runs_as_runc() {
  local script="$ENGINE_SCRIPT; exit 3" runc_status runc_output runc_stderr
  run --separate-stderr dk run --rm --network none --runtime runc "$1" /bin/sh -c "$script"
  runc_status=$status runc_output=$output runc_stderr=$stderr
  [ "$status" -eq 3 ] && [ "${lines[0]}" = ok ] || return 1
  run --separate-stderr dk run --rm --network none --runtime entitle "$1" /bin/sh -c "$script"
  [ "$status" -eq "$runc_status" ] && [ "$output" = "$runc_output" ] && [ "$stderr" = "$runc_stderr" ]
}
