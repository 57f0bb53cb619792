#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fetch.sh META CACHE: the kernel Debian's package META depends on
# (linux-image-amd64 names the 6.1 of the day, linux-image-6.12-amd64 the
# 6.12), downloaded with `apt-get download` and unpacked privately: never
# installed on this host.  Prints the directory it leaves it in,
# CACHE/PACKAGE_VERSION/, which holds
#   vmlinuz      the kernel
#   config       its build configuration
#   release      its `uname -r`
#   modules/     the modules the guest loads, uncompressed
#   modules.list their insmod order (test/kernels/init reads it)
# A directory already there is reused: a second run downloads nothing.
set -eu
meta=$1
cache=$2
# The modules of a guest whose root is the host's, shared over virtio 9p,
# with a tmpfs overlay on top (where the kernel builds them in, modprobe
# prints "builtin" and nothing is loaded); loop, whose /dev/loop-control
# the device cgroup tests open, and vsock, whose sockets the attacks on
# other ABIs try to create.
want="virtio_pci 9pnet_virtio 9p overlay loop vsock"

die() {
	echo "fetch.sh: $*" >&2
	exit 1
}

pkg=$(apt-cache depends --important "$meta" 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[^ <>]*\)$/\1/p' | head -n 1)
[ -n "$pkg" ] || die "no kernel package behind $meta (apt-get update first?)"
ver=$(apt-cache show --no-all-versions "$pkg" | sed -n 's/^Version: //p' | head -n 1)
[ -n "$ver" ] || die "no version of $pkg"
dir=$cache/${pkg}_$ver
if [ -f "$dir/modules.list" ] && [ "$(cat "$dir/wanted" 2>/dev/null)" = "$want" ]; then
	echo "$dir"
	exit 0
fi
mkdir -p "$cache"
work=$(mktemp -d "$cache/.fetch-XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download -q "$pkg=$ver" >/dev/null 2>"$work/apt.err") ||
	die "apt-get download $pkg=$ver: $(tail -n 1 "$work/apt.err")"
mkdir "$work/x" "$work/out" "$work/out/modules"
dpkg-deb --fsys-tarfile "$work"/*.deb | tar -x -C "$work/x" ./boot ./lib/modules
rel=$(ls "$work/x/lib/modules")
cp "$work/x/boot/vmlinuz-$rel" "$work/out/vmlinuz"
cp "$work/x/boot/config-$rel" "$work/out/config"
echo "$rel" >"$work/out/release"
depmod -b "$work/x" "$rel"
for m in $want; do
	modprobe -d "$work/x" -S "$rel" --show-depends "$m" ||
		die "$pkg has no module $m"
done | sed -n 's/^insmod \([^ ]*\).*/\1/p' | awk '!seen[$0]++' >"$work/paths"
: >"$work/out/modules.list"
while read -r path; do
	name=$(basename "$path")
	case $name in
	*.ko.xz) xz -dc "$path" >"$work/out/modules/${name%.xz}" ;;
	*.ko) cp "$path" "$work/out/modules/$name" ;;
	*) die "unknown module format: $name" ;;
	esac
	echo "${name%.xz}" >>"$work/out/modules.list"
done <"$work/paths"
echo "$want" >"$work/out/wanted"
rm -rf "$dir"
mv "$work/out" "$dir"
echo "$dir"
