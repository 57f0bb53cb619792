#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# guest.sh: what a kernel row runs inside its QEMU guest (test/kernels/init
# hands over to it, as PID 1, in the host's root under a tmpfs overlay).
# /run/kernels is the row's results directory on the host; its job.env
# names the row, the build tree and the tests.  It sets the machine up as
# a cgroup2-only host would be, then writes into /run/kernels:
#   probe.json, probe.txt  `entitle probe` of this kernel
#   unit.tap               the unit tests (test/kernels/README: which)
#   NAME.tap               each integration test file, filtered (tests)
#   status                 "done" once everything ran
# and powers the machine off.  A line starting "entitle-kernels: " on the
# console is progress, which run.sh shows.
R=/run/kernels
. "$R/job.env"
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TMPDIR=/tmp LANG=C.UTF-8

say() {
	echo "entitle-kernels: $ROW: $*" >/dev/console
}

setup_machine() {
	mount -t proc proc /proc
	mount -t sysfs sys /sys
	mount -t devtmpfs dev /dev
	mkdir -p /dev/pts /dev/shm /dev/mqueue
	mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts
	ln -sf pts/ptmx /dev/ptmx
	mount -t tmpfs shm /dev/shm
	mount -t mqueue mqueue /dev/mqueue
	ln -sf /proc/self/fd /dev/fd
	ln -sf /proc/self/fd/0 /dev/stdin
	ln -sf /proc/self/fd/1 /dev/stdout
	ln -sf /proc/self/fd/2 /dev/stderr
	# cgroup2 alone, as systemd mounts it on a unified host.
	mount -t cgroup2 -o nsdelegate cgroup2 /sys/fs/cgroup
	echo "+cpu +memory +pids +io" >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	mount -t bpf bpf /sys/fs/bpf
	mount -t securityfs securityfs /sys/kernel/security
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	# The host's state, hidden: the guest starts with none of it.
	for d in /var/lib/containerd /var/lib/containers /var/lib/docker /var/lib/entitle /etc/entitle /root; do
		[ -d "$d" ] && mount -t tmpfs -o mode=0700 state "$d"
	done
	mkdir -p /run/netns /run/lock
	hostname "entitle-$ROW"
	ip link set lo up
}

# run_tap NAME COMMAND...: COMMAND's TAP output into NAME.tap (its stdin
# is nothing: a test that reads it would eat the list being read), a line
# of progress when it is done.
run_tap() {
	name=$1
	shift
	start=$(date +%s)
	"$@" >"$R/$name.tap" 2>"$R/$name.err" </dev/null
	n_ok=$(grep -c '^ok ' "$R/$name.tap")
	# cmocka writes a skip as "not ok N # SKIP", bats as "ok N ... # skip".
	n_skip=$(grep -c -i '^\(not \)\?ok .* # skip' "$R/$name.tap")
	n_not=$(grep '^not ok ' "$R/$name.tap" | grep -c -v -i ' # skip')
	say "$name: $n_ok ok, $n_not not ok, $n_skip skipped"
}

setup_machine
say "up: $(uname -r), lsm $(cat /sys/kernel/security/lsm)"
cd "$BUILDDIR" || exit 1
export ENTITLE="$BUILDDIR/shim/entitle" ENTITLE_HOOK="$BUILDDIR/oci-hooks/entitle-hook" \
	ENTITLE_PROBE="$BUILDDIR/test/integration/helper/entitle-probe" ENTITLE_SRCDIR="$SRCDIR" \
	ENTITLE_BUILDDIR="$BUILDDIR" ENTITLE_BPF_PINS="$BPF_PINS" CMOCKA_MESSAGE_OUTPUT=TAP \
	BATS_TEST_TIMEOUT=600 ENTITLE_KERNEL_ROW="$ROW" \
	ENTITLE_TEST_SHARED=/tmp/entitle-tests ENTITLE_TEST_SCHEMA=/tmp/entitle-schema
mkdir -p "$ENTITLE_TEST_SHARED"
if [ -f "$R/command" ]; then
	sh "$R/command" >"$R/command.out" 2>&1
	echo "exit $?" >>"$R/command.out"
	echo done >"$R/status"
	busybox poweroff -f
fi
"$ENTITLE" probe --json >"$R/probe.json" 2>"$R/probe.err"
"$ENTITLE" probe >"$R/probe.txt" 2>>"$R/probe.err"
for t in $UNIT_TESTS; do
	run_tap "unit-$(basename "$t")" "$BUILDDIR/$t"
done
# this_row ROWS: ROWS (comma-separated) names this row.
this_row() {
	case ",$1," in
	*",$ROW,"*) return 0 ;;
	*) return 1 ;;
	esac
}

# The lines of the list this row runs, as "N FILE [REGEX]".
row_lines() {
	n=0
	grep -v -e '^#' -e '^$' "$TESTS" | while read -r file filter; do
		n=$((n + 1))
		case $file in
		*.bats) echo "$n $file $filter" ;;
		# A line for some rows only: ROWS FILE [REGEX].
		*) ! this_row "$file" || echo "$n $filter" ;;
		esac
	done
}

row_lines >"$R/lines"
while read -r n file filter; do
	name=$(printf 'int-%02d-%s' "$n" "${file%.bats}")
	if [ -n "$filter" ]; then
		run_tap "$name" bats --tap -f "$filter" "$SRCDIR/test/integration/$file"
	else
		run_tap "$name" bats --tap "$SRCDIR/test/integration/$file"
	fi
	echo "$name" >>"$R/ran"
done <"$R/lines"
# check_schema: TAP of one test, every config entitle wrote in this row's
# tests (the helpers copy them to ENTITLE_TEST_SCHEMA) against the OCI
# runtime-spec schema, with one node start: one per test costs 8 s here.
check_schema() {
	schema=/usr/share/gocode/src/github.com/opencontainers/runtime-spec/schema
	what="the configs entitle wrote validate against the OCI runtime-spec schema"
	set -- "$ENTITLE_TEST_SCHEMA"/*.json
	echo 1..1
	if [ ! -e "$1" ]; then
		echo "ok 1 - $what # skip no test wrote one"
	elif [ ! -f "$schema/config-schema.json" ] || ! NODE_PATH=/usr/share/nodejs node -e 'require("ajv")' 2>/dev/null; then
		echo "ok 1 - $what # skip needs node, node-ajv and golang-github-opencontainers-specs-dev"
	elif NODE_PATH=/usr/share/nodejs node "$SRCDIR/test/integration/helper/validate-oci.js" "$schema" "$@"; then
		echo "ok 1 - $what ($# configs)"
	else
		echo "not ok 1 - $what (the violations: schema.err)"
	fi
}
run_tap schema check_schema
# Done only when every line ran.
[ "$(wc -l <"$R/lines")" = "$(cat "$R/ran" 2>/dev/null | wc -l)" ] && echo done >"$R/status"
sync
busybox poweroff -f
