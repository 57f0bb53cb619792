#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# valgrind (memcheck) over entitle's create path and entitle-hook, with a
# real container under runc (make valgrind; test/README.md "Valgrind").
# Needs root, valgrind, runc, busybox-static and jq.
#
#   ENTITLE, ENTITLE_HOOK  the binaries (default: this build tree's)
#
# Covered, each with --leak-check=full --error-exitcode=1:
#   1. entitle compile -b BUNDLE      the whole rewrite, through to exit
#   2. entitle compile --diff         the same, plus the diff child
#   3. entitle --root R create        the rewrite, then the exec of runc;
#      (--trace-children=no: runc runs natively.  execv ends entitle
#      without an exit, so no leak check runs and --error-exitcode does
#      not apply: any error report in its log fails the check instead.)
#   4. entitle-hook createRuntime     run by runc during 3, through a
#      wrapper (ENTITLE_HOOK) that runs the real hook under valgrind: it
#      attaches the cgroup BPF programs and fills the maps
#   5. entitle-hook poststop          the same, on delete
#   6. entitle --root R delete        pass-through, exec'd like 3
#   7. entitle-hook probe --json      loads and tests every program
set -eu
here=$(cd "$(dirname "$0")" && pwd)
builddir=${builddir:-$(cd "$here/../.." && pwd)}
ENTITLE=${ENTITLE:-$builddir/shim/entitle}
HOOK=${ENTITLE_HOOK:-$builddir/oci-hooks/entitle-hook}
RUNC=$(command -v runc || echo /usr/sbin/runc)
SUPP=$here/entitle.supp

fail() { echo "valgrind: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (it runs a real container)"
command -v valgrind >/dev/null || fail "valgrind is not installed (Debian package valgrind)"
command -v jq >/dev/null || fail "needs jq"
busybox=$(command -v busybox) || fail "needs busybox-static"
[ -x "$ENTITLE" ] && [ -x "$HOOK" ] || fail "build first: $ENTITLE, $HOOK"

T=$(mktemp -d /tmp/entitle-valgrind.XXXXXX)
R=$T/root
ID=entitle-valgrind-$$
cleanup() {
	"$RUNC" --root "$R" delete -f "$ID" >/dev/null 2>&1 || true
	rm -rf "$T"
}
trap cleanup EXIT

VG="valgrind --quiet --leak-check=full --show-leak-kinds=definite,possible"
VG="$VG --errors-for-leak-kinds=definite,possible --error-exitcode=1 --trace-children=no"
VG="$VG --num-callers=30 --suppressions=$SUPP"

# The rootfs and a bundle that asks for BPF-enforced entitlements.
mkdir -p "$T/rootfs"/{bin,dev,etc,proc,sys,tmp} "$T/bundle"
cp "$busybox" "$T/rootfs/bin/busybox"
ln -s busybox "$T/rootfs/bin/sh"
ln -s busybox "$T/rootfs/bin/sleep"
(cd "$T/bundle" && "$RUNC" spec)
jq --arg rootfs "$T/rootfs" '
  .process.args = ["/bin/sleep", "600"] | .process.terminal = false
  | .root = {path: $rootfs, readonly: true}
  | .annotations["io.entitle.entitlements"] =
      "network.egress=10.0.0.0/8:443,network.egress=10.1.0.0/16:80-90,network.bind=8080,security.confined"' \
	"$T/bundle/config.json" >"$T/bundle/config.json.new"
mv "$T/bundle/config.json.new" "$T/bundle/config.json"
export ENTITLE_CONFIG=$T/entitle.json
echo '{"grant": ["network.*", "security.*"], "require": ["security.confined"]}' >"$ENTITLE_CONFIG"

# The hook runs with runc's empty environment: bake what it needs into
# the wrapper entitle puts in config.json in its place.
cat >"$T/hook" <<HOOK
#!/bin/sh
exec $VG --log-file=$T/hook.%p.log $HOOK "\$@"
HOOK
chmod +x "$T/hook"
export ENTITLE_HOOK=$T/hook

status=0
# check NAME LOG: LOG holds no error report (a stack trace is one).
check() {
	if grep -qE '^==[0-9]+== +(at|by) 0x' "$2" || grep -qE 'ERROR SUMMARY: [1-9]' "$2"; then
		echo "FAIL $1 (valgrind log: $2)"
		cat "$2"
		status=1
	else
		echo "ok   $1"
	fi
}
# run NAME COMMAND...: COMMAND under valgrind exits 0 with a clean log.
run() {
	local name=$1 rc=0
	shift
	$VG --log-file="$T/$name.log" "$@" >"$T/$name.out" 2>&1 </dev/null || rc=$?
	if [ $rc != 0 ]; then
		echo "FAIL $name (exit $rc)"
		cat "$T/$name.out" "$T/$name.log"
		status=1
	else
		check "$name" "$T/$name.log"
	fi
}

run compile "$ENTITLE" compile -b "$T/bundle"
grep -q '"io.entitle.applied"' "$T/compile.out" || { echo "FAIL compile: nothing rewritten"; status=1; }
run compile-diff "$ENTITLE" compile --diff -b "$T/bundle"
run create "$ENTITLE" --root "$R" create -b "$T/bundle" "$ID"
[ "$("$RUNC" --root "$R" state "$ID" | jq -r .status)" = created ] || { echo "FAIL create: no container"; status=1; }
for l in "$T"/hook.*.log; do
	[ -e "$l" ] || { echo "FAIL createRuntime: the hook did not run"; status=1; break; }
	check "hook createRuntime" "$l"
	mv "$l" "$l.create"
done
run delete "$ENTITLE" --root "$R" delete -f "$ID"
for l in "$T"/hook.*.log; do
	[ -e "$l" ] || { echo "FAIL poststop: the hook did not run"; status=1; break; }
	check "hook poststop" "$l"
done
run hook-probe "$HOOK" probe --json
if [ $status = 0 ]; then echo "valgrind: all clean"; fi
exit $status
