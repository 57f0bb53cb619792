#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the libFuzzer targets with clang and run each for FUZZ_SECONDS
# (make fuzz calls this; see test/README.md).
#
#   FUZZ_SECONDS   run time per target (default 60; 0 only builds)
#   FUZZ_JOBS      targets run at once (default 1)
#   FUZZ_FLAGS     extra libFuzzer flags (e.g. -dict=..., -max_len=...)
#   FUZZ_CC        clang (default clang)
#
# Arguments: the targets (default all: config-json entitlements
# admin-config args bpf-plan).  Called by make with srcdir, builddir,
# FUZZ_CPPFLAGS and FUZZ_LIBS in the environment.  Everything is written
# under $builddir/test/fuzz/: bin/ (the targets), work/TARGET/ (the
# growing corpus, seeded from the checked-in one), artifacts/TARGET/
# (crashing inputs) and logs/TARGET.log.
set -eu
: "${srcdir:?}" "${builddir:?}"
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_JOBS=${FUZZ_JOBS:-1}
FUZZ_FLAGS=${FUZZ_FLAGS:-}
FUZZ_CC=${FUZZ_CC:-clang}
targets=${*:-config-json entitlements admin-config args bpf-plan}
out=$builddir/test/fuzz
san='-fsanitize=address,undefined -fno-sanitize-recover=all'
cflags="-g -O1 -std=c11 -fno-omit-frame-pointer -Wall -Wextra -Werror -Wno-unused-command-line-argument $san"
libinc=$(for d in base catalogue kernel model compile read host; do printf -- " -I%s/lib/%s" "$srcdir" "$d"; done)
cppflags="${FUZZ_CPPFLAGS:-}$libinc -I$srcdir/bpf/progs -I$builddir/bpf/progs -I$srcdir/shim -I$srcdir/test/fuzz -I$builddir"

mkdir -p "$out/bin/obj" "$out/logs"

# libentitle (all of lib/; the probe runner, which needs libbpf, is in bpf/), with
# coverage instrumentation; then one binary a target.
objs=
n=0
for c in "$srcdir"/lib/*/*.c; do
	o=$out/bin/obj/$(basename "$c" .c).o
	objs="$objs $o"
	# shellcheck disable=SC2086
	$FUZZ_CC $cppflags $cflags -fsanitize=fuzzer-no-link -c "$c" -o "$o" &
	n=$((n + 1))
	[ $((n % $(nproc))) != 0 ] || wait
done
wait
for t in $targets; do
	extra=
	[ "$t" = args ] && extra=$srcdir/shim/args.c
	$FUZZ_CC $cppflags $cflags -fsanitize=fuzzer -DFUZZ_TARGET="\"$t\"" \
		"$srcdir/test/fuzz/fuzz-$t.c" $extra $objs ${FUZZ_LIBS:-} -o "$out/bin/fuzz-$t"
done
echo "fuzz: built $(echo $targets | wc -w) targets in $out/bin"
[ "$FUZZ_SECONDS" -gt 0 ] || exit 0

run_one() {
	t=$1
	mkdir -p "$out/work/$t" "$out/artifacts/$t"
	dict=
	[ -f "$srcdir/test/fuzz/$t.dict" ] && dict=-dict=$srcdir/test/fuzz/$t.dict
	# Leaks are bugs too (detect_leaks); -timeout catches hangs.
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	"$out/bin/fuzz-$t" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$out/artifacts/$t/" $dict $FUZZ_FLAGS \
		"$out/work/$t" "$srcdir/test/fuzz/corpus/$t" >"$out/logs/$t.log" 2>&1
}

status=0
running=0
for t in $targets; do
	( start=$SECONDS
	  if run_one "$t"; then r=ok; else r=FAILED; fi
	  last=$(grep -E '^#[0-9]+' "$out/logs/$t.log" | tail -n 1)
	  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/logs/$t.log")
	  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/logs/$t.log")
	  echo "fuzz $t: $r after $((SECONDS - start))s, $execs execs, $rate exec/s; last: $last"
	  [ $r = ok ] || { echo "  see $out/logs/$t.log and $out/artifacts/$t/"; exit 1; } ) &
	running=$((running + 1))
	if [ "$running" -ge "$FUZZ_JOBS" ]; then
		wait -n 2>/dev/null || status=1
		running=$((running - 1))
	fi
done
while [ "$running" -gt 0 ]; do
	wait -n 2>/dev/null || status=1
	running=$((running - 1))
done
exit "$status"
