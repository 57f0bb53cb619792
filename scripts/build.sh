#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Configure and build in the source tree: scripts/build.sh [CONFIGURE-ARG...].
# The tree is configured with exactly these arguments: an earlier configure
# is kept only when config.status recorded the same ones (scripts/test.sh
# needs --enable-fault-injection, scripts/demo.sh passes none).
set -eu
cd "$(dirname "$0")/.."
[ -x configure ] || ./autogen.sh
want=$(printf '%s\n' "$@")
had=
# config.status --config prints configure's arguments quoted for the shell.
[ -f config.status ] && had=$(eval "printf '%s\\n' $(./config.status --config)")
if [ ! -f Makefile ] || [ ! -f config.status ] || [ "$want" != "$had" ]; then
	reconfigure=false
	[ -f Makefile ] && reconfigure=true
	./configure "$@"
	# New flags do not make make rebuild what the old ones built.
	if $reconfigure; then
		make clean >/dev/null
	fi
fi
make -j"$(nproc)"
