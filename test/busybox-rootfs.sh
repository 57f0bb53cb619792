#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# busybox-rootfs.sh DIR [BUSYBOX]: make DIR the root filesystem every test
# container runs (test/README.md): a static busybox with a link for each
# applet, the mount points the runtimes need, and root in /etc/passwd and
# /etc/group.  BUSYBOX defaults to the one on PATH (Debian's
# busybox-static).  The integration tests, the matrix, the engine
# recorder and the benchmarks all build theirs with this script (and
# test/oci-image.sh makes an image of it for the engines).
set -eu
dir=$1
busybox=${2:-$(command -v busybox)}
mkdir -p "$dir/bin" "$dir/dev" "$dir/etc" "$dir/proc" "$dir/sys" "$dir/tmp" "$dir/run"
cp "$busybox" "$dir/bin/busybox"
for applet in $("$busybox" --list); do
  [ "$applet" = busybox ] || ln -s busybox "$dir/bin/$applet"
done
echo 'root:x:0:0:root:/:/bin/sh' >"$dir/etc/passwd"
echo 'root:x:0:' >"$dir/etc/group"
