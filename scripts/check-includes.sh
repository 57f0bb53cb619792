#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The source directories are a stack of stages (docs/design.md §6): a file
# includes headers of its own stage and of the stages below it, never of
# one above.  This prints one line on stderr per upward include
#   lib/compile/x.c includes lib/read/y.h: compile is below read
# and fails; a quoted include that no stage holds fails too.  make check
# runs it (TAP on stdout).  --graph prints which stages each stage
# includes instead, one line a stage.
#
# The same order holds at link time: where the objects are built (in the
# directory make check runs it from), no object of lib/libentitle.a or
# lib/libentitle-bpf.a leaves a symbol undefined that an object of a stage
# above its own defines (nm); one line per such symbol.
#
# `#include "x.h"` is found as the compiler finds it: beside the file,
# else by its name in the stages (Makefile.am's LIB_INCLUDES; no two of
# them hold a header of the same name), the headers make generates (the
# targets of Makefile.am's rules) included.
set -eu
builddir=$(pwd)
cd "$(dirname "$0")/.."

# The stages, bottom first: the one list of their order.
STAGES="bpf/progs lib/base lib/catalogue lib/kernel lib/model lib/compile lib/read lib/host bpf init shim oci-hooks full"

mode=check
[ "${1:-}" = --graph ] && mode=graph

# The objects of stage $1 in the two archives: one for each of its
# sources that the build compiled (none before a build; a stale object
# of a moved source is not one).
objects() {
	local prefix src o
	case $1 in
	bpf) prefix=lib_libentitle_bpf_a- ;;
	lib/*) prefix=libentitle_a- ;;
	*) return 0 ;;
	esac
	for src in "$1"/*.c; do
		o="$builddir/$1/$prefix$(basename "$src" .c).o"
		if [ -e "$o" ]; then echo "$o"; fi
	done
}

# Symbols of stage $2's objects that one of stage $1's leaves undefined.
upward() {
	# shellcheck disable=SC2046 # one object a word
	LC_ALL=C comm -12 <(objects "$1" | xargs -r nm -u | awk '{print $NF}' | sort -u) \
		<(objects "$2" | xargs -r nm --defined-only | awk '$2 ~ /^[TDBRV]$/ {print $3}' | sort -u)
}

check_links() {
	local bad=0 seen=0 below above sym stages=" $STAGES "
	for below in $stages; do
		[ -n "$(objects "$below")" ] || continue
		seen=$((seen + 1))
		above=${stages#* "$below" }
		for a in $above; do
			for sym in $(upward "$below" "$a"); do
				echo "$below references $sym, defined in $a above it" >&2
				bad=$((bad + 1))
			done
		done
	done
	if [ "$seen" -eq 0 ]; then
		echo "ok 2 # SKIP no objects here: build first"
	elif [ "$bad" -gt 0 ]; then
		echo "not ok 2 - $bad symbol(s) against the stage order"
		return 1
	else
		echo "ok 2 - the objects of $seen stages reference no symbol of a stage above"
	fi
}

files=
for d in $STAGES; do
	[ -d "$d" ] || continue
	files="$files $(find "$d" -maxdepth 1 -type f \( -name '*.[ch]' -o -name '*.def' \) | LC_ALL=C sort)"
done
generated=$(sed -n 's/^\([A-Za-z0-9_./-]*\.h\):.*/\1/p' Makefile.am)
# And those of its pattern rules (bpf/%.skel.h: bpf/progs/%.bpf.o), one
# for each source their first prerequisite is made from.
patterns=$(sed -n 's/^\([A-Za-z0-9_./-]*%[A-Za-z0-9_.-]*\.h\): *\([A-Za-z0-9_./-]*%[A-Za-z0-9_.-]*\.o\).*/\1 \2/p' Makefile.am)
while read -r target prereq; do
	[ -n "$target" ] || continue
	src=${prereq%.o}.c
	for f in "${src%%\%*}"*"${src#*%}"; do
		[ -e "$f" ] || continue
		stem=${f#"${src%%\%*}"}
		stem=${stem%"${src#*%}"}
		generated="$generated
${target%%\%*}$stem${target#*%}"
	done
done <<EOF_PATTERNS
$patterns
EOF_PATTERNS

[ "$mode" = graph ] || echo "1..2"
status=0
# shellcheck disable=SC2086 # one file a word
STAGES="$STAGES" GENERATED="$generated" LC_ALL=C awk -v mode="$mode" '
function dir_of(p) { return p ~ /\// ? substr(p, 1, match(p, /\/[^\/]*$/) - 1) : "." }
function base_of(p) { return substr(p, match(p, /[^\/]*$/)) }
function short(s) { sub(/^lib\//, "", s); return s }
function own(path, d, b) {
	d = dir_of(path); b = base_of(path)
	if (b in owner && owner[b] != d) owner[b] = "?"
	else owner[b] = d
}
BEGIN {
	n = split(ENVIRON["STAGES"], s, " ")
	for (i = 1; i <= n; i++) rank[s[i]] = i
	m = split(ENVIRON["GENERATED"], g, "\n")
	for (i = 1; i <= m; i++) if (g[i] != "") own(g[i])
	for (i = 1; i < ARGC; i++) if (ARGV[i] ~ /\.(h|def)$/) own(ARGV[i])
	for (i = 1; i < ARGC; i++) present[ARGV[i]] = 1
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
	h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
	from = dir_of(FILENAME)
	if ((from "/" h) in present) next
	if (h ~ /\//) to = dir_of(h); else to = (h in owner) ? owner[h] : ""
	if (to == "" || to == "?") {
		if (mode == "check") printf "%s includes \"%s\": %s\n", FILENAME, h, to == "" ? "no stage holds it" : "two stages hold it" > "/dev/stderr"
		bad++; next
	}
	if (!(to in rank) || to == from) next
	edge[from, to] = 1
	if (rank[to] > rank[from] && mode == "check") {
		printf "%s includes %s/%s: %s is below %s\n", FILENAME, to, base_of(h), short(from), short(to) > "/dev/stderr"
		bad++
	}
}
END {
	if (mode == "graph") {
		for (i = 1; i <= n; i++) {
			line = ""
			for (j = n; j >= 1; j--) if ((s[i], s[j]) in edge) line = line " " s[j]
			printf "%s ->%s\n", s[i], line
		}
		exit 0
	}
	if (bad) { printf "not ok 1 - %d include(s) against the stage order\n", bad; exit 1 }
	printf "ok 1 - %d files include no stage above their own\n", ARGC - 1
}' $files || status=1
if [ "$mode" = check ]; then
	check_links || status=1
fi
exit "$status"
