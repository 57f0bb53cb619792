#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# seed-build.sh [--cached] CACHE: the seed kernel (issue 26, docs/seeds.md): Debian's
# linux-source-6.1 with the patches of test/kernels/seeds/ (eBPF seccomp
# filters and Checmate, ported), configured from seeds/config.fragment,
# built with every core under nice.  Prints the directory it leaves the
# kernel in, CACHE/seed-6.1-KEY/, laid out as fetch.sh leaves a Debian
# kernel (vmlinuz, config, release, an empty modules/ and modules.list),
# plus build.log and build-seconds.  KEY is the sha256 of the patches and
# the fragment: a directory already there is reused, so a second run
# builds nothing.  With --cached, only a kernel already there is printed;
# none is one line and exit 1, and nothing is built (CI's choice: a cold
# build takes long, test/README.md).  Any failure is one line on stderr
# and exit 1.
set -eu
cached_only=false
if [ "${1:-}" = --cached ]; then
	cached_only=true
	shift
fi
cache=$1
here=$(cd "$(dirname "$0")" && pwd)
seeds=$here/seeds
tarball=${SEED_KERNEL_SOURCE:-/usr/src/linux-source-6.1.tar.xz}

die() {
	echo "seed-build.sh: $*" >&2
	exit 1
}

say() {
	echo "entitle-kernels: seed-6.1: $*" >&2
}

set -- "$seeds"/*.patch
[ -f "$1" ] && [ -f "$seeds/config.fragment" ] || die "no patches or no config.fragment in $seeds"
key=$(cat "$@" "$seeds/config.fragment" | sha256sum | cut -c1-16)
dir=$cache/seed-6.1-$key
if [ -f "$dir/vmlinuz" ]; then
	echo "$dir"
	exit 0
fi
! $cached_only || die "no seed kernel built for these patches in $cache (make check-seed-kernel builds it)"
[ -f "$tarball" ] || die "no $tarball (apt-get install linux-source-6.1)"
for tool in make gcc bc bison flex pahole perl xz patch; do
	command -v "$tool" >/dev/null ||
		die "needs $tool (apt-get install build-essential bc bison flex dwarves libelf-dev libssl-dev)"
done
mkdir -p "$cache"
work=$cache/seed-6.1-work
rm -rf "$work"
mkdir -p "$work/out"
start=$(date +%s)
say "unpacking $(basename "$tarball")"
nice -n 19 tar -xJf "$tarball" -C "$work" || die "$tarball does not unpack"
src=$(echo "$work"/linux-source-*)
[ -f "$src/Makefile" ] || die "$tarball holds no kernel tree"
for p in "$@"; do
	patch -d "$src" -p1 --quiet --forward <"$p" >"$work/patch.log" 2>&1 ||
		die "$(basename "$p") does not apply to $(basename "$src"): $(head -n 1 "$work/patch.log")"
done
# allnoconfig with the fragment's values forced, then the defaults of
# what the fragment leaves open.
(cd "$src" && nice -n 19 make -s O=../out KCONFIG_ALLCONFIG="$seeds/config.fragment" allnoconfig &&
	nice -n 19 make -s O=../out olddefconfig) >"$work/config.log" 2>&1 ||
	die "the configuration failed: $(tail -n 1 "$work/config.log")"
for opt in $(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/\1/p' "$seeds/config.fragment"); do
	grep -q "^$opt=y$" "$work/out/.config" ||
		die "$opt is not =y in the kernel's .config (a dependency of it is off)"
done
say "building bzImage with $(nproc) jobs (a cold build: see test/README.md)"
(cd "$src" && nice -n 19 make O=../out -j"$(nproc)" LOCALVERSION=-entitle-seed bzImage) >"$work/build.log" 2>&1 ||
	die "the build failed: $(grep -m 1 -e 'error' "$work/build.log" || tail -n 1 "$work/build.log")"
out=$work/result
mkdir -p "$out/modules"
: >"$out/modules.list"
cp "$work/out/arch/x86/boot/bzImage" "$out/vmlinuz"
cp "$work/out/.config" "$out/config"
(cd "$src" && make -s O=../out LOCALVERSION=-entitle-seed kernelrelease) >"$out/release"
cp "$work/build.log" "$out/build.log"
echo "$(($(date +%s) - start))" >"$out/build-seconds"
say "built $(cat "$out/release") in $(cat "$out/build-seconds") s"
rm -rf "$dir"
mv "$out" "$dir"
rm -rf "$work"
echo "$dir"
