#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-crun.sh COMMAND [ARG...]: run COMMAND where crun runs: in a private
# mount namespace whose /sys/fs/cgroup is a cgroup2 mount.
#
# crun 1.8.1 refuses hybrid cgroup hosts (cgroup v1 controllers with v2 at
# /sys/fs/cgroup/unified), which is how the build host is set up.  Inside
# the namespace it sees a pure cgroup2 layout; pass it
# --cgroup-manager=disabled so that it creates no cgroup at all.  The
# mounts vanish with the namespace: nothing is left on the host.  On a
# cgroup2-only host (the kernel rows' guests, test/kernels/) COMMAND runs
# as it is.
set -eu

if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARG...]" >&2
  exit 2
fi

if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
  exec "$@"
fi

exec unshare --mount --propagation private -- /bin/sh -c '
  set -e
  mount --make-rprivate /
  mount -t cgroup2 none /sys/fs/cgroup
  exec "$@"' run-crun "$@"
