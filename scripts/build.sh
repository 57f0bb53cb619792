#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Configure and build in the source tree.
set -eu
cd "$(dirname "$0")/.."
[ -x configure ] || ./autogen.sh
[ -f Makefile ] || ./configure "$@"
make -j"$(nproc)"
