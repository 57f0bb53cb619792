#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/create-path.sh: the path engines take (issue 25), by hand.  CPU of
# the process tree of `create`+`start`+`delete --force` of a `/bin/true`
# container, four commands interleaved in one run (bench/pairs.c, each
# command one bench/chain.c of the three verbs):
#   A  entitle, `network.egress=10.0.0.0/8:443,security.confined` on
#      Docker's config (config.json restored before each round)
#   B  runc, Docker's config (the issue's baseline)
#   C  runc, the config entitle writes for A with its hooks removed
#      (jq 'del(.hooks)'): what the rewritten config costs runc
#   D  runc, the config entitle writes for A on `run`, its createRuntime
#      hook included: C plus what runc's run of entitle-hook costs
# So B->C is the rewrite's effect on runc, C->D the hook, D->A entitle's
# own processes (front, entitle-full, and where create attaches itself,
# the attach).
# Prints medians (ms) and, for A/B, A/C, A/D, the median ratio, IQR and
# min-max; then B/C... from the medians.
#
# Environment: ENTITLE_BUILDDIR (default .), BENCH_ROUNDS (60),
# BENCH_AGAINST (another build tree: A against it, A', in place of D),
# BENCH_PID_FILE (1: create gets --pid-file, as engines give it),
# BENCH_BESIDE (counts, ascending, default "0": before each measurement as
# many containers run beside, each a busybox `sleep` that entitle created
# and started with the same entitlements under a runc root of their own;
# all are deleted at the end, on failure too),
# BENCH_OUTPUT (line: A and B only, one line per count of BENCH_BESIDE,
# "N medA medB ratio q1 q3 min max", for bench/run),
# BENCH_WORKDIR (default: a new directory under /tmp, removed).
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${ENTITLE_BUILDDIR:-.}" && pwd)
ROUNDS=${BENCH_ROUNDS:-60}
ENTITLE=$BUILD/shim/entitle
RUNC=$(command -v runc || echo /usr/sbin/runc)
BUSYBOX=$(command -v busybox || echo /bin/busybox)
EGRESS='network.egress=10.0.0.0/8:443,security.confined'

BESIDE=${BENCH_BESIDE:-0}
OUTPUT=${BENCH_OUTPUT:-}

die() {
  echo "bench/create-path.sh: $*" >&2
  exit 1
}
[ "$(id -u)" -eq 0 ] || die "needs root: it runs real containers"
[ -x "$ENTITLE" ] || die "build first (make), or set ENTITLE_BUILDDIR"
case $OUTPUT in
'' | line) ;;
*) die "BENCH_OUTPUT is line or unset, not '$OUTPUT'" ;;
esac
prev=-1
for n in $BESIDE; do
  if ! [[ $n =~ ^[0-9]+$ ]] || [ "$n" -le "$prev" ]; then
    die "BENCH_BESIDE: counts in ascending order, not '$BESIDE'"
  fi
  prev=$n
done
# The results on fd 3, everything else on stderr.
exec 3>&1 1>&2

W=${BENCH_WORKDIR:-$(mktemp -d /tmp/entitle-create-path.XXXXXX)}
ROOT=$W/runc-root
BROOT=$W/beside-root
mkdir -p "$W"
# The bundles, runc's root and entitle's state directory on a tmpfs, where
# engines keep them on a standard host (/run is a tmpfs; this VM's is not):
# an ext4 create of the temporary config file costs more than the rewrite.
# BENCH_TMPFS=0 leaves them on the disk.
if [ "${BENCH_TMPFS:-1}" = 1 ]; then
  mount -t tmpfs -o mode=0755 entitle-bench "$W"
fi
# delete_all ROOT: every container of runc's ROOT, force-deleted (eight at
# a time: a delete mostly waits for the container's death).
delete_all() {
  "$RUNC" --root "$1" list -q 2>/dev/null | xargs -r -P 8 -n 1 "$RUNC" --root "$1" delete -f >/dev/null 2>&1 || true
}
cleanup() {
  trap '' PIPE
  delete_all "$ROOT"
  if [ -d "$BROOT" ]; then
    echo "deleting the containers beside ..." || true
    delete_all "$BROOT"
  fi
  if [ "${BENCH_TMPFS:-1}" = 1 ]; then umount "$W"; fi
  [ -n "${BENCH_WORKDIR:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 129' HUP INT TERM PIPE

cc -O2 -o "$W/pairs" "$SRC/bench/pairs.c"
cc -O2 -static -o "$W/chain" "$SRC/bench/chain.c"
"$SRC/test/busybox-rootfs.sh" "$W/rootfs" "$BUSYBOX"
"$SRC/bench/docker-seccomp.sh" >"$W/docker-seccomp.json"

# Docker's config (bench/run's "docker" bundle): runc spec, Docker's
# capabilities and seccomp profile, noNewPrivileges off.
CAPS='["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_FSETID","CAP_FOWNER","CAP_MKNOD","CAP_NET_RAW","CAP_SETGID",
  "CAP_SETUID","CAP_SETFCAP","CAP_SETPCAP","CAP_NET_BIND_SERVICE","CAP_SYS_CHROOT","CAP_KILL","CAP_AUDIT_WRITE"]'
mkdir -p "$W/docker" "$W/ent" "$W/nohook" "$W/hook"
(cd "$W/docker" && "$RUNC" spec)
jq --argjson caps "$CAPS" --slurpfile sc "$W/docker-seccomp.json" --arg rootfs "$W/rootfs" \
  '.process.args = ["/bin/true"] | .process.terminal = false | .root = {path: $rootfs, readonly: true}
   | .process.noNewPrivileges = false
   | .process.capabilities = {bounding: $caps, effective: $caps, permitted: $caps}
   | .linux.seccomp = $sc[0]' "$W/docker/config.json" >"$W/c" && mv "$W/c" "$W/docker/config.json"
jq --arg e "$EGRESS" '.annotations["io.entitle.entitlements"] = $e' "$W/docker/config.json" >"$W/ent/config.orig"
cp "$W/ent/config.orig" "$W/ent/config.json"
# The containers beside: A's config running `sleep`.
jq '.process.args = ["/bin/sleep", "1000000"]' "$W/ent/config.orig" >"$W/sleep.json"

# Each build finds its own entitle-hook beside it (no ENTITLE_HOOK).
echo "{\"state_dir\": \"$W/state\"}" >"$W/entitle.json"
export ENTITLE_CONFIG=$W/entitle.json
unset ENTITLE_HOOK
if [ "$OUTPUT" != line ]; then
  # The rewrite with its hook is the one `run` writes (create writes none
  # where it attaches itself); C is the same without hooks.
  "$ENTITLE" --root "$ROOT" run -b "$W/ent" bench-rewrite </dev/null >/dev/null
  "$RUNC" --root "$ROOT" delete -f bench-rewrite >/dev/null 2>&1 || true
  cp "$W/ent/config.json" "$W/hook/config.json"
  jq 'del(.hooks)' "$W/hook/config.json" >"$W/nohook/config.json"
  cp "$W/ent/config.orig" "$W/ent/config.json"
  "$ENTITLE" --root "$ROOT" create -b "$W/ent" bench-rewrite </dev/null >/dev/null
  "$RUNC" --root "$ROOT" delete -f bench-rewrite >/dev/null 2>&1 || true
  echo "hooks in what run writes: $(jq -c '.hooks // {} | keys' "$W/hook/config.json");" \
    "in what create writes: $(jq -c '.hooks // {} | keys' "$W/ent/config.json")"
  cp "$W/ent/config.orig" "$W/ent/config.json"
fi

# verbs RUNTIME BUNDLE: create, start, delete --force, as one chain; with
# BENCH_PID_FILE=1 create gets --pid-file, as containerd's shim and conmon
# give it.
PIDF=()
[ "${BENCH_PID_FILE:-0}" = 1 ] && PIDF=(--pid-file "$W/pid-@ID@")
verbs() {
  echo "$W/chain" "$1" --root "$ROOT" create "${PIDF[@]}" -b "$2" @ID@ ";;" "$1" --root "$ROOT" start @ID@ \
    ";;" "$1" --root "$ROOT" delete --force @ID@
}
f() { printf '%.3f' "$1"; }
d() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
head_line() {
  echo "create${PIDF[*]:+ --pid-file}+start+delete of /bin/true, CPU ms of the process tree, $ROUNDS rounds" \
    "interleaved, beside $1 running, $(date -u '+%F %H:%M UTC'), $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null)"
}

# BENCH_AGAINST=DIR: this build against the build in DIR (another
# revision, configured with other pins), head to head, instead of D.
against() {
  local old
  old=$(cd "$BENCH_AGAINST" && pwd)/shim/entitle
  cp -r "$W/ent" "$W/old"
  # shellcheck disable=SC2046 # the words of each chain
  read -r ma mo mb mc ro qo1 qo3 lo ho rb qb1 qb3 lb hb rc qc1 qc3 lc hc < <("$W/pairs" -n "$ROUNDS" -w 3 \
    -p "cp $W/ent/config.orig $W/ent/config.json; cp $W/ent/config.orig $W/old/config.json" -- \
    $(verbs "$ENTITLE" "$W/ent") :: $(verbs "$old" "$W/old") :: $(verbs "$RUNC" "$W/docker") :: \
    $(verbs "$RUNC" "$W/nohook"))
  cat <<OUT
$(head_line "$1")
  A  entitle, $EGRESS: $(f "$ma")
  A' entitle in $BENCH_AGAINST, the same:   $(f "$mo")
  B  runc, Docker's config:          $(f "$mb")
  C  runc, A's config, no hooks:     $(f "$mc")
  A/A' median $(f "$ro") IQR $(f "$qo1")-$(f "$qo3") min-max $(f "$lo")-$(f "$ho")
  A/B  median $(f "$rb") IQR $(f "$qb1")-$(f "$qb3") min-max $(f "$lb")-$(f "$hb")
  A/C  median $(f "$rc") IQR $(f "$qc1")-$(f "$qc3") min-max $(f "$lc")-$(f "$hc")
  from the medians: A'/B $(d "$mo" "$mb")
OUT
}

# four N: A, B, C and D interleaved, beside N.
four() {
  # shellcheck disable=SC2046 # the words of each chain
  read -r ma mb mc md rb qb1 qb3 lb hb rc qc1 qc3 lc hc rd qd1 qd3 ld hd < <("$W/pairs" -n "$ROUNDS" -w 3 \
    -p "cp $W/ent/config.orig $W/ent/config.json" -- \
    $(verbs "$ENTITLE" "$W/ent") :: $(verbs "$RUNC" "$W/docker") :: \
    $(verbs "$RUNC" "$W/nohook") :: $(verbs "$RUNC" "$W/hook"))
  cat <<OUT
$(head_line "$1")
  A entitle, $EGRESS: $(f "$ma")
  B runc, Docker's config:          $(f "$mb")
  C runc, A's config, no hooks:     $(f "$mc")
  D runc, A's config, with hooks:   $(f "$md")
  A/B median $(f "$rb") IQR $(f "$qb1")-$(f "$qb3") min-max $(f "$lb")-$(f "$hb")
  A/C median $(f "$rc") IQR $(f "$qc1")-$(f "$qc3") min-max $(f "$lc")-$(f "$hc")
  A/D median $(f "$rd") IQR $(f "$qd1")-$(f "$qd3") min-max $(f "$ld")-$(f "$hd")
  from the medians: C/B $(d "$mc" "$mb") (the rewritten config), D/C $(d "$md" "$mc") (the hook), A/D $(d "$ma" "$md") (entitle's processes)
OUT
}

# line N: A and B alone, one line.
line() {
  local out
  # shellcheck disable=SC2046 # the words of each chain
  out=$("$W/pairs" -n "$ROUNDS" -w 3 -p "cp $W/ent/config.orig $W/ent/config.json" -- \
    $(verbs "$ENTITLE" "$W/ent") :: $(verbs "$RUNC" "$W/docker"))
  echo "$1 $out"
}

# beside N: start containers until N run beside, four at a time, each
# with its own bundle (entitle create --pid-file and start, as an engine
# does).
running=0
beside() {
  local t0=$SECONDS i
  [ "$running" -lt "$1" ] || return 0
  mkdir -p "$BROOT"
  for ((i = running; i < $1; i++)); do
    mkdir "$W/beside-$i"
    cp "$W/sleep.json" "$W/beside-$i/config.json"
  done
  # shellcheck disable=SC2016 # expanded by sh
  seq "$running" $(($1 - 1)) | xargs -P 4 -I @ sh -c '"$1" --root "$2" create --pid-file "$3/beside-@/pid" \
    -b "$3/beside-@" beside-@ </dev/null >/dev/null && "$1" --root "$2" start beside-@' sh "$ENTITLE" "$BROOT" "$W" ||
    die "could not start the containers beside ($running to $1)"
  running=$1
  echo "$1 containers running beside ($((SECONDS - t0)) s to start the last ones)"
}

for n in $BESIDE; do
  beside "$n"
  if [ "$OUTPUT" = line ]; then
    line "$n" >&3
  elif [ -n "${BENCH_AGAINST:-}" ]; then
    against "$n" >&3
  else
    four "$n" >&3
  fi
done
