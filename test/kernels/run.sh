#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run.sh [ROW...]: `make check-kernels` (test/kernels/README.md).  Boots
# each kernel row of test/kernels/rows (and a row of rows-seed, named on
# the command line only) under qemu-system-x86_64 (TCG: no
# KVM is assumed) with this host's root shared read-only, runs
# test/kernels/guest.sh there, and prints one "N passed, N failed, N
# skipped" line per row and one for all.  A row whose guest did not finish
# (no kernel, no boot, a hang past its timeout) counts as one failure.
#
# Environment (make check-kernels sets the first three):
#   ENTITLE_SRCDIR, ENTITLE_BUILDDIR   the trees (absolute)
#   ENTITLE_BPF_PINS                   where the build pins its objects
#   KERNELS_CACHE    downloaded kernels (default BUILDDIR/test/kernels/cache)
#   KERNELS_TIMEOUT  seconds a row may take, boot to power-off (default 1800: a row takes 290-920 s on an idle 2-core host, and twice that beside other work)
#   KERNELS_JOBS     rows booted at once (default 3, every row: a guest has
#                    one vCPU, and the rows' work is uneven)
#   KERNELS_TESTS    the integration tests to run (default test/kernels/tests)
#   KERNELS_UNIT     the unit tests to run (default: the list below)
#   KERNELS_COMMAND  a shell command the guest runs instead of the tests (in
#                    the build tree, its output in results/ROW/command.out):
#                    a look at a row by hand
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${ENTITLE_SRCDIR:?}
build=${ENTITLE_BUILDDIR:?}
cache=${KERNELS_CACHE:-$build/test/kernels/cache}
out=$build/test/kernels/results
timeout_s=${KERNELS_TIMEOUT:-1800}
jobs=${KERNELS_JOBS:-3}
tests=${KERNELS_TESTS:-$here/tests}
unit=${KERNELS_UNIT:-"test/unit/test-probe-json test/unit/test-probe-fake test/unit/test-catalogue test/unit/test-compile
test/unit/test-seccomp test/unit/test-landlock test/unit/test-seeds test/unit/test-denial"}

say() {
	echo "entitle-kernels: $*"
}

for tool in qemu-system-x86_64 apt-get dpkg-deb depmod modprobe cpio gzip busybox; do
	command -v "$tool" >/dev/null || {
		say "needs $tool (apt-get install qemu-system-x86 kmod cpio busybox-static)"
		exit 1
	}
done

# rows_wanted: the rows file's lines, those named on the command line only
# (rows-seed's too: the seed kernel is built, not downloaded, and runs
# only when named).
rows_wanted() {
	files=$here/rows
	[ $# -eq 0 ] || files="$files $here/rows-seed"
	cat $files | grep -v -e '^#' -e '^ *$' | while read -r name meta append; do
		if [ $# -eq 0 ]; then
			echo "$name $meta $append"
		else
			for w in "$@"; do
				[ "$w" = "$name" ] && echo "$name $meta $append"
			done
		fi
	done
}

# boot_row NAME META APPEND: one guest, its results in $out/NAME.
boot_row() {
	name=$1 meta=$2 append=$3
	dir=$out/$name
	rm -rf "$dir"
	mkdir -p "$dir"
	case $meta in
	seed) kernel_of="$here/seed-build.sh" ;;
	*) kernel_of="$here/fetch.sh $meta" ;;
	esac
	kdir=$(sh $kernel_of "$cache" 2>"$dir/fetch.err") || {
		say "$name: $(cat "$dir/fetch.err")"
		return
	}
	[ -f "$kdir/initramfs.gz" ] || sh "$here/initramfs.sh" "$kdir" "$kdir/initramfs.gz" || {
		say "$name: the initramfs could not be built"
		return
	}
	# The list travels with the job: the guest's /tmp is its own.
	cp "$tests" "$dir/tests"
	cat >"$dir/job.env" <<JOB
ROW='$name'
GUEST_SCRIPT='$here/guest.sh'
SRCDIR='$src'
BUILDDIR='$build'
BPF_PINS='${ENTITLE_BPF_PINS:-/sys/fs/bpf/entitle}'
TESTS=/run/kernels/tests
UNIT_TESTS='$(echo $unit)'
JOB
	if [ -n "${KERNELS_COMMAND:-}" ]; then
		printf '%s\n' "$KERNELS_COMMAND" >"$dir/command"
	fi
	[ "$append" = - ] && append=
	# One vCPU: with two, TCG's threads race the kernel's live text
	# patching (static keys flipped as BPF programs attach): 6.12 died of an
	# int3 oops in __alloc_pages.  Rows run side by side instead.
	smp=1
	start=$(date +%s)
	say "$name: booting $(cat "$kdir/release") ${append:+($append)}"
	timeout -k 10 "$timeout_s" qemu-system-x86_64 -nographic -no-reboot -m 3G -smp "$smp" \
		-accel tcg,thread=multi -cpu max -kernel "$kdir/vmlinuz" -initrd "$kdir/initramfs.gz" \
		-append "console=ttyS0 panic=-1 quiet cgroup_no_v1=all $append" \
		-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$dir,mount_tag=results,security_model=none" -nic none \
		</dev/null 2>&1 | tee "$dir/console.log" | progress "$name" "$start"
	echo "$(($(date +%s) - start))" >"$dir/seconds"
}

# progress ROW START: the guest's progress lines off its console, each
# with the seconds since qemu started, by this host's clock (the guest's
# runs slow under TCG); the first ("up") gives the row's boot time.
progress() {
	cr=$(printf '\r')
	while IFS= read -r line; do
		line=${line%"$cr"}
		# The first may follow the firmware's escape codes.
		case $line in
		*"entitle-kernels: "*) line="entitle-kernels: ${line#*entitle-kernels: }" ;;
		esac
		case $line in
		"entitle-kernels: $1: up:"*)
			echo "$(($(date +%s) - $2))" >"$out/$1/boot-seconds"
			echo "$line (after $(cat "$out/$1/boot-seconds") s)"
			;;
		"entitle-kernels: "*) echo "$line [$(($(date +%s) - $2)) s]" ;;
		esac
	done
}

# count ROW: "PASS FAIL SKIP" of the row's TAP files; a test a plan
# announced that never reported, and a row that did not finish, are one
# failure more each.
count() {
	dir=$out/$1
	p=0 f=0 s=0
	for t in "$dir"/*.tap; do
		[ -f "$t" ] || continue
		# cmocka writes a skip as "not ok N # SKIP", bats as "ok N ... # skip".
		s=$((s + $(grep -c -i '^\(not \)\?ok .* # skip' "$t")))
		p=$((p + $(grep '^ok ' "$t" | grep -c -v -i ' # skip')))
		f=$((f + $(grep '^not ok ' "$t" | grep -c -v -i ' # skip')))
		plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$t" | head -n 1)
		got=$(grep -c '^\(not \)\?ok ' "$t")
		[ -z "$plan" ] || [ "$got" -ge "$plan" ] || f=$((f + plan - got))
	done
	[ "$(cat "$dir/status" 2>/dev/null)" = done ] || f=$((f + 1))
	echo "$p $f $s"
}

mkdir -p "$out"
rows=$(rows_wanted "$@")
[ -n "$rows" ] || {
	say "no such row: $*"
	exit 1
}
# Rows in batches of $jobs: their guests share the cores.
n=0
while read -r name meta append; do
	boot_row "$name" "$meta" "$append" &
	n=$((n + 1))
	[ $((n % jobs)) -ne 0 ] || wait
done <<ROWS
$rows
ROWS
wait
tp=0 tf=0 ts=0
while read -r name meta append; do
	set -- $(count "$name")
	tp=$((tp + $1)) tf=$((tf + $2)) ts=$((ts + $3))
	note=
	[ "$(cat "$out/$name/status" 2>/dev/null)" = done ] || note=" (the guest did not finish: $out/$name/console.log)"
	echo "$name: $1 passed, $2 failed, $3 skipped in $(cat "$out/$name/seconds" 2>/dev/null || echo '?') s" \
		"(boot $(cat "$out/$name/boot-seconds" 2>/dev/null || echo '?') s)$note"
done <<ROWS
$rows
ROWS
echo "all rows: $tp passed, $tf failed, $ts skipped"
[ "$tf" -eq 0 ]
