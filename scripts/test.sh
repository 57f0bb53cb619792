#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the dependencies, build, and run the whole test suite: unit tests
# (cmocka) and integration tests (bats, real runc, crun and containerd).
set -eu
cd "$(dirname "$0")/.."
[ -n "${ENTITLE_NO_DEPS:-}" ] || scripts/deps.sh
# A test build: the crash-safety tests need the fault injection points.
scripts/build.sh --enable-fault-injection
status=0
# The sources as clang-format writes them (crun's style): a diff fails.
scripts/check-format.sh || status=$?
make -j2 check || status=$?
# The unit tests (and fuzz regressions) again, built with ASan and UBSan
# (test/README.md, "Sanitizers"), out of tree in build-san/.  automake
# refuses to configure out of tree a source directory configured in place,
# as scripts/build.sh leaves this one: build-san/src is a clean copy of the
# sources, the tarball's contents (make distdir).  ENTITLE_NO_SANITIZERS=1
# skips it.
san=
if [ -z "${ENTITLE_NO_SANITIZERS:-}" ]; then
	san=build-san/build/test
	rm -rf build-san
	mkdir build-san
	make distdir distdir=build-san/src >/dev/null
	mkdir build-san/build
	(cd build-san/build &&
		../src/configure -q --enable-sanitizers --disable-integration-tests &&
		make -j2 check) || status=$?
	[ -d "$san" ] || san=
fi
# Show the logs of what failed, then one closing line counting every case.
trs=$(find test $san -name '*.trs' | sort)
if [ "$status" != 0 ]; then
	for t in $(grep -l -E '^:test-result: (FAIL|ERROR|XPASS)' $trs); do
		echo "==== ${t%.trs}.log"
		cat "${t%.trs}.log"
	done
fi
count() { cat $trs | grep -c -E "^:test-result: ($1)" || true; }
echo "$(count PASS) passed, $(count 'FAIL|ERROR|XPASS') failed, $(count SKIP) skipped"
exit "$status"
