#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Concurrency (test/README.md): containers created at once through entitle
# each get exactly their own BPF policy, and concurrent hooks neither mix
# policies up nor load the programs twice.  The
# containers join a network namespace with 10.200.X.1 on its loopback for
# each X, so that "ECONNREFUSED" means allowed and "EPERM" refused (as in
# bpf.bats).

load helpers

N=50

setup() {
  common_setup
  # shellcheck disable=SC2046 # one address a word
  make_netns "entitle-$$-$BATS_TEST_NUMBER" $(for x in $(seq "$N"); do echo "10.200.$x.1"; done)
  # A worker: bundle X requests network.egress=10.200.X.1/32:80 and probes
  # its own address and its neighbour's from inside, then sleeps.
  make_bundle "$BATS_TEST_TMPDIR/base" /bin/true
  join_netns "$BATS_TEST_TMPDIR/base"
  cat >"$BATS_TEST_TMPDIR/worker.sh" <<'SH'
set -e
x=$1 next=$(($1 % N + 1))
b=$DIR/b$x
mkdir -p "$b"
jq --arg e "network.egress=10.200.$x.1/32:80" --arg own "10.200.$x.1" --arg next "10.200.$next.1" '
  .annotations["io.entitle.entitlements"] = $e
  | .process.args = ["/bin/sh", "-c", "/probe connect \($own) 80; /probe connect \($next) 80; exec sleep 600"]' \
  "$DIR/base/config.json" >"$b/config.json"
"$ENTITLE" --root "$ROOT" create -b "$b" "$PREFIX-$x" </dev/null >"$DIR/$x.out" 2>"$DIR/$x.err"
"$ENTITLE" --root "$ROOT" start "$PREFIX-$x" </dev/null >>"$DIR/$x.err" 2>&1
SH
}

teardown() {
  common_teardown
  drop_netns
}

# probed X: container X's two probe lines, waited for.
probed() {
  for _ in $(seq 100); do
    [ "$(wc -l <"$BATS_TEST_TMPDIR/$1.out")" -ge 2 ] && break
    sleep 0.1
  done
  cat "$BATS_TEST_TMPDIR/$1.out"
}

# ipv4_key A.B.C.D: the address as bpftool prints the u32 of the egress
# key (network byte order read on a little-endian host).
ipv4_key() {
  local IFS=.
  set -- $1
  echo $(($1 + ($2 << 8) + ($3 << 16) + ($4 << 24)))
}

@test "concurrency: $N containers created 10 at a time each get exactly their own egress policy" {
  export DIR="$BATS_TEST_TMPDIR" ROOT PREFIX="$CTID" N ENTITLE
  seq "$N" | xargs -P 10 -I{} bash "$BATS_TEST_TMPDIR/worker.sh" {} || {
    cat "$BATS_TEST_TMPDIR"/*.err >&2
    false
  }
  [ "$(rnc list -q | wc -l)" -eq "$N" ]

  # From inside: its own address is reachable, its neighbour's refused.
  for x in $(seq "$N"); do
    got=$(probed "$x" | tr '\n' ' ')
    if [ "$got" != "ECONNREFUSED EPERM " ]; then
      echo "container $x: $got" >&2
      false
    fi
  done

  # In the kernel: one policy per container, in its cgroup's storage,
  # holding its own rule and no other.
  for x in $(seq "$N"); do
    pid=$(rnc state "$CTID-$x" | jq -r .pid)
    cg=$(stat -c %i "$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)$(sed -n 's/^0:://p' "/proc/$pid/cgroup")")
    rules=$("$POLICY_OF" "$cg" | jq -c '[.egress[:.n_egress][] | [.net[0], .mask[0], .lo, .hi]]') || rules=none
    if [ "$rules" != "[[$(ipv4_key "10.200.$x.1"),4294967295,80,80]]" ]; then
      echo "container $x (cgroup $cg): egress rules $rules" >&2
      false
    fi
  done

  # Deleted at once too: nothing of theirs is left.
  seq "$N" | xargs -P 10 -I{} "$ENTITLE" --root "$ROOT" delete -f "$CTID-{}"
  [ -z "$(rnc list -q)" ]
}

@test "concurrency: 10 hooks racing to load into an empty bpffs pin one set of programs" {
  # A private mount namespace with a new bpffs instance on /sys/fs/bpf:
  # the host's pins are neither seen nor touched.
  cat >"$BATS_TEST_TMPDIR/race.sh" <<'SH'
set -e
mount -t bpf bpf /sys/fs/bpf
[ ! -e "$ENTITLE_BPF_PINS" ]
trap 'for x in $(seq 10); do "$ENTITLE" --root "$ROOT" delete -f "$PREFIX-$x" >/dev/null 2>&1 || true; done' EXIT
for x in $(seq 10); do bash "$DIR/worker.sh" "$x" & done
fail=0
for x in $(seq 10); do wait -n || fail=1; done
[ "$fail" = 0 ] || { cat "$DIR"/*.err; exit 1; }
for x in $(seq 10); do
  for _ in $(seq 100); do [ "$(wc -l <"$DIR/$x.out")" -ge 2 ] && break; sleep 0.1; done
  echo "$x $(tr '\n' ' ' <"$DIR/$x.out")"
done
ls "$ENTITLE_BPF_PINS" | tr '\n' ' '; echo
echo "policies $(bpftool -j map dump pinned "$ENTITLE_BPF_PINS"/entitle_policy | jq length)"
SH
  # Each worker's neighbour is X+1 of N: keep it within the ten.
  export DIR="$BATS_TEST_TMPDIR" ROOT PREFIX="$CTID" N=10 ENTITLE
  run unshare -m --propagation private bash "$BATS_TEST_TMPDIR/race.sh"
  echo "$output"
  [ "$status" -eq 0 ]
  for x in $(seq 10); do
    [[ "$output" == *"$x ECONNREFUSED EPERM "* ]]
  done
  [[ "$output" == *"entitle_bind4 entitle_bind6 entitle_connect4 entitle_connect6 entitle_events entitle_events_head entitle_policy entitle_sendmsg4 entitle_sendmsg6 entitle_skb_egress entitle_skb_ingress entitle_sock_create entitle_sysctl entitle_version "* ]]
  [[ "$output" == *"policies 10"* ]]
}
