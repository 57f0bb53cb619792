#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Soak (make soak): CYCLES create/start/delete cycles of one container with
# BPF-enforced entitlements through entitle + runc (egress rules, and with
# security.confined the sysctl it sets, in its own network namespace), then the proof that
# nothing is left: no policy of those containers in the pinned cgroup
# storage (their egress rules and sysctl keys live in it), no cgroup, no
# program of ours attached to a cgroup of theirs; and the peak RSS and
# open fds of the shim and of the hook at each step, first 100 cycles
# against the last 100.
#
# Environment (make soak sets it): ENTITLE, ENTITLE_HOOK (the real hook),
# ENTITLE_SRCDIR; SOAK_CYCLES (default 1000); SOAK_RESULTS, where the
# summary goes (default test/soak/results.md in the build tree).
set -euo pipefail

CYCLES=${SOAK_CYCLES:-1000}
: "${ENTITLE:?set ENTITLE to the entitle binary}"
: "${ENTITLE_HOOK:?set ENTITLE_HOOK to the entitle-hook binary}"
: "${ENTITLE_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${SOAK_RESULTS:=test/soak/results.md}"
ENTITLEMENTS=${SOAK_ENTITLEMENTS:-network.egress=10.0.0.0/8:443,security.confined}
PIN=${ENTITLE_BPF_PINS:-/sys/fs/bpf/entitle}
REAL_HOOK=$ENTITLE_HOOK

[ "$(id -u)" = 0 ] || { echo "soak: needs root" >&2; exit 77; }
for tool in runc bpftool jq busybox cc; do
  command -v "$tool" >/dev/null || { echo "soak: needs $tool" >&2; exit 77; }
done

WORK=$(mktemp -d /tmp/entitle-soak.XXXXXX)
ROOT=$WORK/root
TAGID="soak-$$"
cleanup() {
  local id
  for id in $(runc --root "$ROOT" list -q 2>/dev/null); do
    "$ENTITLE" --root "$ROOT" delete -f "$id" >/dev/null 2>&1 || true
  done
  [ -n "${SOAK_KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

"$ENTITLE_SRCDIR/test/busybox-rootfs.sh" "$WORK/rootfs"
POLICY_OF=$ENTITLE_SRCDIR/test/policy-of.sh

# The probe runs the shim and the hook (it traces them: they may be
# static); the hook is reached through a wrapper that the runtime runs.
cc -O2 -o "$WORK/procstat" "$ENTITLE_SRCDIR/test/soak/procstat.c"
cat >"$WORK/hook" <<SH
#!/bin/sh
exec $WORK/procstat $WORK/stats hook-\$1 $REAL_HOOK "\$@"
SH
chmod +x "$WORK/hook"
export ENTITLE_HOOK=$WORK/hook
export ENTITLE_CONFIG= # set and empty: no admin config (the host's is not read)

mkdir -p "$WORK/bundle"
(cd "$WORK/bundle" && runc spec)
jq --arg rootfs "$WORK/rootfs" --arg ent "$ENTITLEMENTS" '
  .process.args = ["/bin/true"] | .process.terminal = false
  | .root = {path: $rootfs, readonly: true}
  | .linux.sysctl = {"net.ipv4.ip_forward": "1"}
  | .annotations["io.entitle.entitlements"] = $ent' \
  "$WORK/bundle/config.json" >"$WORK/config.orig.json"

shim() {
  "$WORK/procstat" "$WORK/stats" "shim-$1" "$ENTITLE" --root "$ROOT" "$@" </dev/null
}

wait_stopped() {
  local s
  for _ in $(seq 200); do
    s=$(runc --root "$ROOT" state "$1" 2>/dev/null | jq -r .status) || true
    [ "$s" = stopped ] && return 0
    sleep 0.02
  done
  echo "soak: $1 is \"$s\", not stopped" >&2
  return 1
}

mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
: >"$WORK/cgroups"
echo "soak: $CYCLES cycles of $ENTITLEMENTS (work dir $WORK)"
start=$(date +%s)
for i in $(seq "$CYCLES"); do
  id=$TAGID-$i
  cp "$WORK/config.orig.json" "$WORK/bundle/config.json"
  shim create -b "$WORK/bundle" "$id" >/dev/null 2>"$WORK/err" || {
    echo "soak: cycle $i: create failed: $(cat "$WORK/err")" >&2
    exit 1
  }
  pid=$(runc --root "$ROOT" state "$id" | jq -r .pid)
  cg=$mnt$(sed -n 's/^0:://p' "/proc/$pid/cgroup")
  cgid=$(stat -c %i "$cg")
  echo "$cgid $cg" >>"$WORK/cgroups"
  # Now and then, that the hook did install the policy (else the counts
  # below would prove nothing).
  if [ "$i" -eq 1 ] || [ $((i % 100)) -eq 0 ]; then
    "$POLICY_OF" "$cgid" >/dev/null || {
      echo "soak: cycle $i: no policy for cgroup $cgid ($cg)" >&2
      exit 1
    }
  fi
  shim start "$id" >/dev/null
  wait_stopped "$id"
  shim delete "$id" >/dev/null
  # Each stage appends a line per cycle: tag them with the cycle number.
  sed -i "/^[a-z]/s/^/$i /" "$WORK/stats"
  [ $((i % 100)) -ne 0 ] || echo "soak: $i cycles, $(($(date +%s) - start)) s"
done
elapsed=$(($(date +%s) - start))

# What is left of those containers.  The kernel frees a cgroup's storage
# from a work queue after the cgroup is removed: give it 10 s.
left_policy=0
for _ in $(seq 100); do
  left_policy=0
  while read -r cgid _; do
    "$POLICY_OF" "$cgid" >/dev/null && left_policy=$((left_policy + 1))
  done <"$WORK/cgroups"
  [ "$left_policy" = 0 ] && break
  sleep 0.1
done
left_cgroups=0
while read -r _ cg; do [ ! -d "$cg" ] || left_cgroups=$((left_cgroups + 1)); done <"$WORK/cgroups"
left_progs=$(bpftool -j cgroup tree 2>/dev/null | jq --arg t "$TAGID-" \
  '[.[] | select(.cgroup | contains($t)) | .programs[] | select(.name | startswith("entitle_"))] | length')
total_policy=$(bpftool -j map dump pinned "$PIN/entitle_policy" | jq length)

# Peak RSS (kB) and open fds per stage: medians of the first and last 100.
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
n=$((CYCLES < 100 ? CYCLES : 100))
rows=""
flat=yes
# One row per program each step ran (shim-create:entitle, then
# shim-create:entitle-full, ...), as the probe saw them.
for tag in $(awk '{ print $2 }' "$WORK/stats" | sort -u); do
  first_rss=$(awk -v t="$tag" -v n="$n" '$2 == t && $1 <= n { print $3 }' "$WORK/stats" | median)
  last_rss=$(awk -v t="$tag" -v c="$CYCLES" -v n="$n" '$2 == t && $1 > c - n { print $3 }' "$WORK/stats" | median)
  first_fd=$(awk -v t="$tag" -v n="$n" '$2 == t && $1 <= n { print $4 }' "$WORK/stats" | median)
  last_fd=$(awk -v t="$tag" -v c="$CYCLES" -v n="$n" '$2 == t && $1 > c - n { print $4 }' "$WORK/stats" | median)
  max_fd=$(awk -v t="$tag" '$2 == t { print $4 }' "$WORK/stats" | sort -n | tail -n 1)
  count=$(awk -v t="$tag" '$2 == t' "$WORK/stats" | wc -l)
  rows+="| $tag | $count | $first_rss | $last_rss | $first_fd | $last_fd | $max_fd |"$'\n'
  # Flat: the last hundred's median within 10% (and 1 MiB) of the first's, fds equal.
  if [ "$count" -eq 0 ] || [ "$last_fd" != "$first_fd" ] ||
    awk -v a="$first_rss" -v b="$last_rss" 'BEGIN { exit !(b > a * 1.1 && b > a + 1024) }'; then
    flat=no
  fi
done

verdict=PASS
for v in "$left_policy" "$left_cgroups" "$left_progs"; do
  [ "$v" = 0 ] || verdict=FAIL
done
[ "$flat" = yes ] || verdict=FAIL

summary="# Soak results

\`make soak\`: $CYCLES create/start/delete cycles of a container (runc $(runc --version | sed -n 's/^runc version //p'), kernel $(uname -r))
requesting \`$ENTITLEMENTS\` through entitle, in ${elapsed} s
($(awk -v c="$CYCLES" -v e="$elapsed" 'BEGIN { printf "%.0f", e ? e * 1000 / c : 0 }') ms per cycle).

## Left behind by those containers

| what | count |
|---|---|
| policies (\`entitle_policy\`, cgroup storage: egress rules, bind ranges, sysctl keys) | $left_policy |
| cgroups | $left_cgroups |
| programs of ours attached to their cgroups | $left_progs |

(All policies in the shared storage at the end, other users of the host
included: $total_policy.)

## Peak RSS (kB) and open fds, median of the first and the last $n cycles

Measured by a probe that traces each program (test/soak/procstat.c) as it
exits or execs the next one: the front and entitle-full on each shim step,
the hook at createRuntime (and at poststop where there is one).

| process and step | samples | RSS first | RSS last | fds first | fds last | fds max |
|---|---|---|---|---|---|---|
$rows
Verdict: **$verdict** (nothing left: every count 0; flat: the last median
RSS within 10% or 1 MiB of the first, the same fd count)."

echo
echo "$summary"
mkdir -p "$(dirname "$SOAK_RESULTS")"
echo "$summary" >"$SOAK_RESULTS"
[ "$verdict" = PASS ]
