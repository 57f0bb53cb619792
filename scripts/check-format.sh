#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Check that every C file of the tree is as clang-format (the .clang-format
# at the root: crun's style) writes it; with --fix, rewrite them so.  The
# files are git's tracked ones (a checkout), else every .c and .h below the
# source directory but the generated BPF skeletons and instructions (a
# tarball).  CI runs it through scripts/test.sh: a diff fails the build.
set -eu
cd "$(dirname "$0")/.."
fix=false
[ "${1:-}" = --fix ] && fix=true
command -v clang-format >/dev/null || {
	echo "check-format: clang-format not found (Debian package clang-format)" >&2
	exit 1
}
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files=$(git ls-files '*.c' '*.h')
else
	files=$(find . -name '*.[ch]' ! -name '*.skel.h' ! -name 'seed-insns.h' ! -path './build-*' ! -path './_build/*' | sed 's|^\./||' | sort)
fi
if $fix; then
	# shellcheck disable=SC2086 # one file a word
	clang-format -i $files
	exit 0
fi
# shellcheck disable=SC2086
if ! clang-format --dry-run --Werror $files 2>"${TMPDIR:-/tmp}/check-format.$$"; then
	sed -n 's/^\([^: ]*\.[ch]\):[0-9]*:[0-9]*: .*clang-format-violations.*/\1/p' "${TMPDIR:-/tmp}/check-format.$$" |
		sort -u | sed 's/^/check-format: not formatted: /' >&2
	rm -f "${TMPDIR:-/tmp}/check-format.$$"
	echo "check-format: run scripts/check-format.sh --fix (or make clang-format)" >&2
	exit 1
fi
rm -f "${TMPDIR:-/tmp}/check-format.$$"
