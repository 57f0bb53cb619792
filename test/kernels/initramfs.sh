#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# initramfs.sh KERNEL_DIR OUT: the guest's initramfs for the kernel that
# test/kernels/fetch.sh left in KERNEL_DIR: a static busybox (Debian's
# busybox-static), the kernel's modules and their order, and
# test/kernels/init as /init; a gzip'ed cpio archive written to OUT.
set -eu
kdir=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
busybox=$(command -v busybox) || {
	echo "initramfs.sh: no busybox (install busybox-static)" >&2
	exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/proc" "$work/sys" "$work/dev" "$work/modules"
cp "$busybox" "$work/bin/busybox"
for a in sh mount umount insmod mkdir switch_root poweroff echo cat; do
	ln -s busybox "$work/bin/$a"
done
# A kernel with everything built in (the seed kernel) has none.
for m in "$kdir"/modules/*.ko; do
	[ ! -f "$m" ] || cp "$m" "$work/modules/"
done
cp "$kdir/modules.list" "$work/modules.list"
cp "$here/init" "$work/init"
chmod 0755 "$work/init"
(cd "$work" && find . | cpio -o -H newc --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
