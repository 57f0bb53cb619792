#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cgroup BPF enforcement (DESIGN §4) with real runc: entitle-hook attaches
# the programs at createRuntime and forgets the container at poststop.
# The containers join a network namespace the test makes, with addresses
# on its loopback, so that "ECONNREFUSED" means the packet left (allowed
# by policy) and "EPERM" means the program refused it.

load helpers

PIN=${ENTITLE_BPF_PINS:-/sys/fs/bpf/entitle}

setup() {
  common_setup
  require_bpf_build
  make_netns "entitle-$$-$BATS_TEST_NUMBER" 10.200.0.1 10.200.0.2 fd00:200::1 fd00:200::2
}

teardown() {
  common_teardown
  drop_netns
}

# cgroup_id DIR: the id the programs key on (the kernfs inode).
cgroup_id() {
  stat -c %i "$1"
}

# has_policy ID: cgroup ID has a policy (test/policy-of.sh).
has_policy() {
  "$POLICY_OF" "$1" >/dev/null
}

# policy_freed ID: the storage of cgroup ID is gone.  The kernel frees it
# from a work queue once the cgroup is removed: wait for it (at most 10 s).
policy_freed() {
  for _ in $(seq 100); do
    has_policy "$1" || return 0
    sleep 0.1
  done
  echo "cgroup $1 still has a policy" >&2
  return 1
}

# made_records: the records of the cgroups entitle-hook made for crun
# containers (oci-hooks/made.c), in the default state_dir.
made_records() {
  cat /run/entitle/cgroups/* 2>/dev/null || true
}

@test "network.egress: only the listed destination and port (IPv4, TCP and UDP)" {
  net_bundle "$BUNDLE" "connect 10.200.0.1 80" "connect 10.200.0.2 80" "connect 10.200.0.1 81" \
    "sendto 10.200.0.1 80" "sendto 10.200.0.2 80"
  run_bundle ent
  expect_lines "connect 10.200.0.1 80: ECONNREFUSED" "connect 10.200.0.2 80: ECONNREFUSED" \
    "connect 10.200.0.1 81: ECONNREFUSED" "sendto 10.200.0.1 80: ok" "sendto 10.200.0.2 80: ok"

  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  run_bundle ent
  expect_lines "connect 10.200.0.1 80: ECONNREFUSED" "connect 10.200.0.2 80: EPERM" \
    "connect 10.200.0.1 81: EPERM" "sendto 10.200.0.1 80: ok" "sendto 10.200.0.2 80: EPERM"
}

@test "create attaches after the runtime's create: network.egress holds with no createRuntime hook in config.json" {
  net_bundle "$BUNDLE" "connect 10.200.0.1 80" "connect 10.200.0.2 80" "sendto 10.200.0.2 80"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  # As the engines call it: create (with --pid-file, as containerd's shim
  # and conmon give it), then start.
  ent create --pid-file "$BATS_TEST_TMPDIR/pid" -b "$BUNDLE" "$CTID" </dev/null \
    >"$BATS_TEST_TMPDIR/$CTID.out" 2>"$BATS_TEST_TMPDIR/$CTID.err"
  [ "$(cat "$BATS_TEST_TMPDIR/pid")" = "$(ent state "$CTID" | jq -r .pid)" ]
  run jq -c '.hooks.createRuntime // [] | map(select(.args[0] == "entitle-hook"))' "$BUNDLE/config.json"
  [ "$output" = "[]" ]
  ent start "$CTID"
  wait_status ent "$CTID" stopped
  mapfile -t lines <"$BATS_TEST_TMPDIR/$CTID.out"
  expect_lines "connect 10.200.0.1 80: ECONNREFUSED" "connect 10.200.0.2 80: EPERM" "sendto 10.200.0.2 80: EPERM"
  ent delete "$CTID"

  # Without --pid-file entitle asks the runtime's state for the init.
  create_started ent "$BUNDLE" "$CTID"
  wait_status ent "$CTID" stopped
  mapfile -t lines <"$BATS_TEST_TMPDIR/$CTID.out"
  expect_lines "connect 10.200.0.1 80: ECONNREFUSED" "connect 10.200.0.2 80: EPERM" "sendto 10.200.0.2 80: EPERM"
}

# console_create RUNTIME: create with a terminal and --console-socket, as
# containerd's shim and conmon do, then start; $output: what the container
# wrote to its terminal, as the socket's receiver read it.
console_create() {
  local sock="$BATS_TEST_TMPDIR/console-$1.sock" recv
  command -v python3 >/dev/null || skip "needs python3 (the console socket's receiver)"
  rm -f "$sock" "$sock.ready"
  # Not holding bats' fd 3, and bounded: a create that fails fails the test
  # instead of leaving the receiver waiting.
  timeout 120 python3 "$BATS_TEST_DIRNAME/helper/console-recv.py" "$sock" >"$sock.out" 2>"$sock.err" 3>&- &
  recv=$!
  for _ in $(seq 100); do [ -e "$sock.ready" ] && break; sleep 0.1; done
  "$1" create --console-socket "$sock" --pid-file "$BATS_TEST_TMPDIR/pid" -b "$BUNDLE" "$CTID" </dev/null
  "$1" start "$CTID"
  wait "$recv"
  wait_status "$1" "$CTID" stopped
  "$1" delete "$CTID"
  output=$(<"$sock.out")
}

@test "create with --console-socket: the engine gets the container's terminal, as from runc alone, with the policy attached" {
  net_bundle "$BUNDLE" "connect 10.200.0.2 80"
  edit_config "$BUNDLE" '.process.terminal = true | .process.args[2] = "tty; " + .process.args[2]'
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  console_create rnc
  want=$output
  [[ "$want" == "/dev/pts/0"$'\n'* ]]
  [[ "$want" == *"connect 10.200.0.2 80: "* ]]
  [[ "$want" != *"connect 10.200.0.2 80: EPERM"* ]]
  cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  console_create ent
  # The same terminal and lines, but the connect the entitlement forbids.
  [ "$output" = "${want%connect 10.200.0.2 80: *}connect 10.200.0.2 80: EPERM" ]
}

@test "create the runtime refuses: the runtime's own line and status, nothing of entitle's, the running container untouched" {
  net_bundle "$BUNDLE" "sleep 600"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  create_started ent "$BUNDLE" "$CTID"
  pid=$(ent state "$CTID" | jq -r .pid)
  # The id is taken: runc alone refuses it so...
  run_detached rnc create -b "$BUNDLE" "$CTID"
  want_status=$status
  want=$(sed 's/^time="[^"]*" //' <<<"$stderr")
  [ "$want_status" -ne 0 ]
  [ -n "$want" ]
  # ...and through entitle, which runs it as its child, the same.
  run_detached ent create -b "$BUNDLE" "$CTID"
  [ "$status" -eq "$want_status" ]
  [ "$(sed 's/^time="[^"]*" //' <<<"$stderr")" = "$want" ]
  [ -z "$output" ]
  [ "$(ent state "$CTID" | jq -r .status)" = running ]
  [ "$(ent state "$CTID" | jq -r .pid)" = "$pid" ]
  has_policy "$(cgroup_id "$(cgroup_dir "$pid")")"
}

@test "upgrade: a container created with the createRuntime hook, as create wrote it before, keeps its policy and is deleted cleanly" {
  net_bundle "$BUNDLE" "connect 10.200.0.1 80" "connect 10.200.0.2 80" "sendto 10.200.0.2 80"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  # The bytes create wrote before it attached itself: compile still writes
  # them (the hook included, for a runtime run alone), and the runtime
  # creates the container from them as it did then.
  ent compile -b "$BUNDLE" >"$BATS_TEST_TMPDIR/before.json"
  [ "$(jq -r '.hooks.createRuntime[] | select(.args[0] == "entitle-hook") | .args[1]' "$BATS_TEST_TMPDIR/before.json")" = createRuntime ]
  cp "$BATS_TEST_TMPDIR/before.json" "$BUNDLE/config.json"
  rnc create -b "$BUNDLE" "$CTID" </dev/null >"$BATS_TEST_TMPDIR/$CTID.out" 2>"$BATS_TEST_TMPDIR/$CTID.err"
  cg=$(cgroup_dir "$(ent state "$CTID" | jq -r .pid)")
  id=$(cgroup_id "$cg")
  has_policy "$id"
  # This build starts, reads and deletes it.
  ent start "$CTID"
  wait_status ent "$CTID" stopped
  mapfile -t lines <"$BATS_TEST_TMPDIR/$CTID.out"
  expect_lines "connect 10.200.0.1 80: ECONNREFUSED" "connect 10.200.0.2 80: EPERM" "sendto 10.200.0.2 80: EPERM"
  ent delete "$CTID"
  [ ! -d "$cg" ]
  policy_freed "$id"
  run rnc state "$CTID"
  [ "$status" -ne 0 ]
}

@test "one empty cgroup keeps the kernel's attach points warm: each program attached there once, no process in it" {
  mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
  warm=$mnt/entitle-warm
  # From none (it holds no process: it can go at any time; the next
  # container with programs makes it again).  Whether a container without
  # programs leaves it unmade is not observable here: it is the host's,
  # and `make -j2 check` runs other files' containers meanwhile.
  [ ! -d "$warm/ready" ] || rmdir "$warm/ready"
  [ ! -d "$warm" ] || rmdir "$warm"
  net_bundle "$BUNDLE" "connect 10.200.0.1 80" "connect 10.200.0.2 80"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  for n in 1 2; do
    run_detached ent create -b "$BUNDLE" "$CTID"
    [ "$status" -eq 0 ]
    ent start "$CTID"
    wait_status ent "$CTID" stopped
    ent delete "$CTID"
  done
  [ -d "$warm/ready" ]
  [ -z "$(cat "$warm/cgroup.procs" "$warm/ready/cgroup.procs")" ]
  run bpftool -j cgroup show "$warm"
  [ "$status" -eq 0 ]
  names=$(jq -r '[.[].name] | sort | join(" ")' <<<"$output")
  echo "attached: $names"
  # Each program of ours once (two containers made it no busier), those a
  # container gets among them.
  [ "$(jq '[.[].name] | group_by(.) | map(length) | max' <<<"$output")" -eq 1 ]
  for p in entitle_connect4 entitle_connect6 entitle_sendmsg4 entitle_sendmsg6 entitle_sock_create; do
    [[ " $names " == *" $p "* ]]
  done
  # And the container's policy is its own, not the empty cgroup's.
  run_bundle ent
  expect_lines "connect 10.200.0.1 80: ECONNREFUSED" "connect 10.200.0.2 80: EPERM"
}

@test "run still attaches from the createRuntime hook" {
  net_bundle "$BUNDLE" "connect 10.200.0.1 80" "connect 10.200.0.2 80"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  run_bundle ent
  expect_lines "connect 10.200.0.1 80: ECONNREFUSED" "connect 10.200.0.2 80: EPERM"
  run jq -r '.hooks.createRuntime[] | select(.args[0] == "entitle-hook") | .args[1]' "$BUNDLE/config.json"
  [ "$output" = createRuntime ]
}

@test "network.egress: IPv6, port ranges, and a wider rule's ports inside a narrower CIDR" {
  net_bundle "$BUNDLE" "connect fd00:200::1 80" "connect fd00:200::2 80" "connect fd00:200::1 81" \
    "sendto fd00:200::2 80" "connect 10.200.0.1 443" "connect 10.200.0.2 443" "connect 10.200.0.1 80"
  set_entitlements "$BUNDLE" "network.egress=fd00:200::1/128:80,network.egress=10.200.0.0/24:443,network.egress=10.200.0.1/32:80-81"
  run_bundle ent
  expect_lines "connect fd00:200::1 80: ECONNREFUSED" "connect fd00:200::2 80: EPERM" \
    "connect fd00:200::1 81: EPERM" "sendto fd00:200::2 80: EPERM" \
    "connect 10.200.0.1 443: ECONNREFUSED" "connect 10.200.0.2 443: ECONNREFUSED" \
    "connect 10.200.0.1 80: ECONNREFUSED"
}

@test "network.egress: an IPv4-mapped IPv6 address is held to the IPv4 rules" {
  net_bundle "$BUNDLE" "connect ::ffff:10.200.0.1 80" "connect ::ffff:10.200.0.2 80"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  run_bundle ent
  expect_lines "connect ::ffff:10.200.0.1 80: ECONNREFUSED" "connect ::ffff:10.200.0.2 80: EPERM"
}

# The kernel runs cgroup/sock_create for inet and inet6 sockets only
# (inet_create, inet6_create): packet and netlink sockets are seccomp's alone.
@test "network.none: the sock_create program refuses inet and inet6 sockets in a shared netns" {
  make_bundle "$BUNDLE"
  join_netns "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  create_started ent "$BUNDLE" "$CTID"
  pid=$(ent state "$CTID" | jq -r .pid)
  cg=$(cgroup_dir "$pid")
  # The container's seccomp filter denies these too; a host process that
  # joins the container's cgroup carries no filter, so only BPF is left.
  run sh -c 'echo $$ >"$1/cgroup.procs" && for f in inet "inet dgram" inet6 unix; do printf "%s: " "$f"; "$2" socket $f; done' \
    sh "$cg" "$ENTITLE_PROBE"
  expect_lines "inet: EPERM" "inet dgram: EPERM" "inet6: EPERM" "unix: ok"
}

@test "network.user: the sock_create program refuses raw inet sockets, not TCP or UDP" {
  make_bundle "$BUNDLE"
  join_netns "$BUNDLE"
  set_entitlements "$BUNDLE" network.user
  create_started ent "$BUNDLE" "$CTID"
  cg=$(cgroup_dir "$(ent state "$CTID" | jq -r .pid)")
  run sh -c 'echo $$ >"$1/cgroup.procs" && for f in raw inet "inet dgram"; do printf "%s: " "$f"; "$2" socket $f; done' \
    sh "$cg" "$ENTITLE_PROBE"
  expect_lines "raw: EPERM" "inet: ok" "inet dgram: ok"
}

@test "network.bind and network.bind-map: bind to 80 lands on 8080, 9090 is refused" {
  make_bundle "$BUNDLE" /bin/sh -c '/probe bind 9090; nc -l -p 80 </dev/null >/dev/null & sleep 600'
  join_netns "$BUNDLE"
  set_entitlements "$BUNDLE" network.bind=8080,network.bind-map=80:8080
  create_started ent "$BUNDLE" "$CTID"
  for _ in $(seq 50); do
    ip netns exec "$NETNS" ss -Hltn | grep -q ':8080 ' && break
    sleep 0.1
  done
  run ip netns exec "$NETNS" ss -Hltn
  [[ "$output" == *":8080 "* ]]
  [[ "$output" != *":80 "* ]]
  [ "$(cat "$BATS_TEST_TMPDIR/$CTID.out")" = EPERM ]
}

@test "security.confined: sysctl writes refused but for the keys linux.sysctl sets" {
  make_bundle "$BUNDLE"
  join_netns "$BUNDLE"
  edit_config "$BUNDLE" '.linux.sysctl = {"net.ipv4.ip_forward": "1"}'
  set_entitlements "$BUNDLE" security.confined
  create_started ent "$BUNDLE" "$CTID"
  cg=$(cgroup_dir "$(ent state "$CTID" | jq -r .pid)")
  # runc wrote ip_forward after the hook attached the program.
  [ "$(ip netns exec "$NETNS" cat /proc/sys/net/ipv4/ip_forward)" = 1 ]
  # A host process in the container's cgroup and netns (nsenter keeps the
  # host's /sys, where the cgroup is; `ip netns exec` would not) writes
  # each key's current value back.
  cat >"$BATS_TEST_TMPDIR/rewrite.sh" <<'SH'
for k in ip_forward ping_group_range; do
  f=/proc/sys/net/ipv4/$k
  v=$(cat $f)
  if (echo "$v" >$f) 2>/dev/null; then echo "$k: ok"; else echo "$k: refused"; fi
done
SH
  run sh -c 'echo $$ >"$1/cgroup.procs" && exec nsenter --net="$2" sh "$3"' \
    sh "$cg" "/var/run/netns/$NETNS" "$BATS_TEST_TMPDIR/rewrite.sh"
  expect_lines "ip_forward: ok" "ping_group_range: refused"

  # Without security.confined the same write goes through.
  ent delete --force "$CTID"
  set_entitlements "$BUNDLE" network.user
  create_started ent "$BUNDLE" "$CTID"
  cg=$(cgroup_dir "$(ent state "$CTID" | jq -r .pid)")
  run sh -c 'echo $$ >"$1/cgroup.procs" && exec nsenter --net="$2" sh "$3"' \
    sh "$cg" "/var/run/netns/$NETNS" "$BATS_TEST_TMPDIR/rewrite.sh"
  expect_lines "ip_forward: ok" "ping_group_range: ok"
}

@test "lifecycle: after delete nothing of the container is left in the maps or attached" {
  net_bundle "$BUNDLE" "sleep 600"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80,network.bind=8080,security.confined
  edit_config "$BUNDLE" '.linux.sysctl = {"net.ipv4.ip_forward": "1"}'
  create_started ent "$BUNDLE" "$CTID"
  cg=$(cgroup_dir "$(ent state "$CTID" | jq -r .pid)")
  id=$(cgroup_id "$cg")
  has_policy "$id"
  # Where the kernel runs lsm_cgroup programs, bind's and confined's are
  # attached beside them, and pinned with the task-storage map of the
  # runtime's setup.
  local lsm="" lsm_pins=""
  if [ "$("$ENTITLE" probe --json | jq -r .lsm_cgroup)" = true ]; then
    lsm=" entitle_lsm_exec entitle_lsm_file_open entitle_lsm_move_mount entitle_lsm_sb_mount entitle_lsm_socket_listen entitle_lsm_task_kill"
    lsm_pins="$lsm entitle_setup"
  fi
  run bpftool -j cgroup show "$cg"
  # (runc's own device program, where cgroup2 is the only hierarchy, has
  # no name.)
  attached=$(jq -r '[.[].name | select(. != "")] | sort | join(" ")' <<<"$output")
  want=$(printf '%s\n' entitle_bind4 entitle_bind6 entitle_connect4 entitle_connect6 entitle_sendmsg4 entitle_sendmsg6 \
    entitle_skb_egress entitle_skb_ingress entitle_sock_create entitle_sysctl $lsm | sort | tr '\n' ' ' | sed 's/ $//')
  echo "attached: $attached"
  echo "expected: $want"
  [ "$attached" = "$want" ]

  ent kill "$CTID" KILL
  wait_status ent "$CTID" stopped
  ent delete "$CTID"
  [ ! -d "$cg" ]
  # The policy was the cgroup's storage: gone with it.
  policy_freed "$id"
  # Only the shared objects stay pinned (the store of denials among them).
  [ "$(ls "$PIN" | sort | tr '\n' ' ')" = "$(printf '%s\n' entitle_bind4 entitle_bind6 entitle_connect4 entitle_connect6 \
    entitle_events entitle_events_head entitle_policy entitle_sendmsg4 entitle_sendmsg6 entitle_skb_egress \
    entitle_skb_ingress entitle_sock_create entitle_sysctl entitle_version $lsm_pins | sort | tr '\n' ' ')" ]
}

@test "lifecycle: kill -9 of the container and delete --force leave nothing behind" {
  net_bundle "$BUNDLE" "sleep 600"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  create_started ent "$BUNDLE" "$CTID"
  pid=$(ent state "$CTID" | jq -r .pid)
  id=$(cgroup_id "$(cgroup_dir "$pid")")
  kill -9 "$pid"
  ent delete --force "$CTID"
  policy_freed "$id"
}

@test "two containers with different egress rules do not see each other's" {
  make_bundle "$BUNDLE" /bin/sh -c 'sleep 600'
  join_netns "$BUNDLE"
  cp -r "$BUNDLE" "$BATS_TEST_TMPDIR/b2"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  set_entitlements "$BATS_TEST_TMPDIR/b2" network.egress=10.200.0.2/32:80
  create_started ent "$BUNDLE" "$CTID-a"
  create_started ent "$BATS_TEST_TMPDIR/b2" "$CTID-b"
  run ent exec "$CTID-a" /bin/sh -c '/probe connect 10.200.0.1 80; /probe connect 10.200.0.2 80'
  expect_lines ECONNREFUSED EPERM
  run ent exec "$CTID-b" /bin/sh -c '/probe connect 10.200.0.1 80; /probe connect 10.200.0.2 80'
  expect_lines EPERM ECONNREFUSED
}

@test "the same id under two runtime roots: each delete forgets only its own" {
  local root2="$BATS_TEST_TMPDIR/root2"
  make_bundle "$BUNDLE" /bin/sh -c 'sleep 600'
  join_netns "$BUNDLE"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  cp -r "$BUNDLE" "$BATS_TEST_TMPDIR/b2"
  # runc would name both cgroups after the id.
  edit_config "$BUNDLE" '.linux.cgroupsPath = $p' --arg p "/$CTID-1"
  edit_config "$BATS_TEST_TMPDIR/b2" '.linux.cgroupsPath = $p' --arg p "/$CTID-2"
  create_started ent "$BUNDLE" "$CTID"
  "$ENTITLE" --root "$root2" create -b "$BATS_TEST_TMPDIR/b2" "$CTID" </dev/null >/dev/null 2>&1
  id2=$(cgroup_id "$(cgroup_dir "$("$ENTITLE" --root "$root2" state "$CTID" | jq -r .pid)")")
  ent delete --force "$CTID"
  has_policy "$id2"
  run "$ENTITLE" --root "$root2" exec "$CTID" /probe connect 10.200.0.2 80
  "$ENTITLE" --root "$root2" delete --force "$CTID"
  [ "$output" = EPERM ]
  policy_freed "$id2"
}

# A host without cgroup v2: a mount namespace without the unified
# hierarchy (runc then runs with cgroup v1 alone).  on_unenforceable
# "warn" leaves out what needs the missing mechanism and nothing else.
@test "fail closed: without cgroup v2 create is refused naming the entitlements; warn runs the rest of them" {
  make_bundle "$BUNDLE" /bin/sh -c '/probe socket raw; /probe caps'
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80,network.user
  snapshot
  cat >"$BATS_TEST_TMPDIR/nov2.sh" <<'SH'
umount -l /sys/fs/cgroup/unified || exit 99
exec "$ENTITLE" --root "$ROOT" run -b "$BUNDLE" "$CTID"
SH
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  run_detached env ROOT="$ROOT" BUNDLE="$BUNDLE" CTID="$CTID" unshare -m --propagation private sh "$BATS_TEST_TMPDIR/nov2.sh"
  refused '`network.egress=10.200.0.1/32:80`, `network.user` cannot be enforced here: no cgroup v2 hierarchy is mounted'

  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state2\", \"on_unenforceable\": \"warn\"}"
  run_detached env ROOT="$ROOT" BUNDLE="$BUNDLE" CTID="$CTID" unshare -m --propagation private sh "$BATS_TEST_TMPDIR/nov2.sh"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *'warning: `network.egress=10.200.0.1/32:80`, `network.user` not enforced: no cgroup v2 hierarchy is mounted'* ]]
  # What capabilities and seccomp enforce still holds.
  [ "${lines[0]}" = EPERM ]
  lacks_cap "$(cap_line "$output" CapEff)" $CAP_NET_RAW
  ent delete --force "$CTID" 2>/dev/null || true
}

# crun with --cgroup-manager=disabled leaves the container in its caller's
# cgroup: the hook makes a child cgroup for it, and removes it at poststop.
@test "crun: network.egress holds in a cgroup the hook makes for the container" {
  require_crun
  net_bundle "$BUNDLE" "connect 10.200.0.1 80" "connect 10.200.0.2 80"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  use_crun
  run_bundle ent_crun
  expect_lines "connect 10.200.0.1 80: ECONNREFUSED" "connect 10.200.0.2 80: EPERM"
  ! made_records | grep -qxF "$CTID"
  run run_crun_ns sh -c 'ls -d /sys/fs/cgroup$(sed -n "s/^0:://p" /proc/self/cgroup)/entitle-* 2>/dev/null'
  [[ "$output" != *"entitle-$CTID"* ]]
}

@test "crun: exec joins the cgroup the hook made, so the policy holds there too" {
  require_crun
  net_bundle "$BUNDLE" "sleep 600"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  use_crun
  # One namespace for the whole lifecycle: each ent_crun call makes its own.
  cat >"$BATS_TEST_TMPDIR/life.sh" <<'SH'
e() { "$ENTITLE" --cgroup-manager=disabled --root "$CRUN_ROOT" "$@"; }
e create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1 || exit 10
e start "$CTID"
e exec "$CTID" /probe connect 10.200.0.1 80
e exec "$CTID" /probe connect 10.200.0.2 80
e delete --force "$CTID"
SH
  run run_crun_ns env ENTITLE="$ENTITLE" CRUN_ROOT="$CRUN_ROOT" BUNDLE="$BUNDLE" CTID="$CTID" \
    sh "$BATS_TEST_TMPDIR/life.sh"
  expect_lines ECONNREFUSED EPERM
}

@test "create on a cold probe cache needs no entitle-hook: with none at its configured path network.egress holds and the probe is kept" {
  # entitle-full probes the host itself (bpf/probe-cache.c) and attaches
  # after the runtime's create: nothing of this create runs the hook.
  net_bundle "$BUNDLE" "connect 10.200.0.1 80" "connect 10.200.0.2 80"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\", \"hook\": \"/nonexistent/entitle-hook\"}"
  env -u ENTITLE_HOOK "$ENTITLE" --root "$ROOT" create -b "$BUNDLE" "$CTID" </dev/null \
    >"$BATS_TEST_TMPDIR/$CTID.out" 2>"$BATS_TEST_TMPDIR/$CTID.err"
  [ ! -s "$BATS_TEST_TMPDIR/$CTID.err" ]
  [ "$(jq -r .boot_id "$BATS_TEST_TMPDIR/state/probe.json")" = "$(cat /proc/sys/kernel/random/boot_id)" ]
  ent start "$CTID"
  wait_status ent "$CTID" stopped
  mapfile -t lines <"$BATS_TEST_TMPDIR/$CTID.out"
  expect_lines "connect 10.200.0.1 80: ECONNREFUSED" "connect 10.200.0.2 80: EPERM"
  ent delete "$CTID"
}

@test "fail closed before the runtime: run, whose createRuntime hook the runtime runs, refuses when there is no entitle-hook; the bundle is untouched" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80,host.processes.none
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\", \"hook\": \"/nonexistent/entitle-hook\"}"
  before=$(sha256sum <"$BUNDLE/config.json")
  run_detached env -u ENTITLE_HOOK "$ENTITLE" --root "$ROOT" run -b "$BUNDLE" "$CTID"
  [ "$status" -ne 0 ]
  [ "$stderr" = 'entitle: `network.egress=10.200.0.1/32:80` cannot be enforced here: the runtime runs entitle-hook for this container: `/nonexistent/entitle-hook`: No such file or directory' ]
  [ "$(sha256sum <"$BUNDLE/config.json")" = "$before" ]
  [ -z "$(rnc list -q)" ]
}

@test "probe: the cache answers for this boot, and a stale boot id is probed again" {
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  ent create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1
  [ "$(jq -r .boot_id "$BATS_TEST_TMPDIR/state/probe.json")" = "$(cat /proc/sys/kernel/random/boot_id)" ]
  # A cache from another boot that says no cgroup BPF is ignored.
  jq '.boot_id = "stale" | .probe.cgroup_bpf = []' "$BATS_TEST_TMPDIR/state/probe.json" >"$BATS_TEST_TMPDIR/p" &&
    mv "$BATS_TEST_TMPDIR/p" "$BATS_TEST_TMPDIR/state/probe.json"
  ent delete --force "$CTID"
  ent create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1
  [ "$(jq -r '.probe.cgroup_bpf | length' "$BATS_TEST_TMPDIR/state/probe.json")" -gt 0 ]
  # This boot's cache is believed: one that says no connect4 refuses.
  ent delete --force "$CTID"
  jq '.probe.cgroup_bpf -= ["connect4"]' "$BATS_TEST_TMPDIR/state/probe.json" >"$BATS_TEST_TMPDIR/p" &&
    mv "$BATS_TEST_TMPDIR/p" "$BATS_TEST_TMPDIR/state/probe.json"
  run_detached ent create -b "$BUNDLE" "$CTID"
  [ "$status" -ne 0 ]
  [[ "$stderr" == *'`network.egress=10.200.0.1/32:80` cannot be enforced here: the kernel refuses cgroup BPF connect4 programs'* ]]
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\", \"on_unenforceable\": \"warn\"}"
  run_detached ent create -b "$BUNDLE" "$CTID"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *'warning'*'not enforced: the kernel refuses cgroup BPF connect4 programs'* ]]
}

# hooksd_bundle: the hooks entitle's hooks.d file gives a container, as
# Podman and CRI-O add them: one command, the stage read from the state.
hooksd_bundle() {
  local hook
  hook=$(jq -c --arg p "$ENTITLE_HOOK" '.hook.path = $p | .hook' "$ENTITLE_BUILDDIR/oci-hooks/entitle.json")
  [ "$(jq -r '.stages | join(" ")' "$ENTITLE_BUILDDIR/oci-hooks/entitle.json")" = "createRuntime poststop" ]
  edit_config "$BUNDLE" '.hooks = {createRuntime: [$h], poststop: [$h]}' --argjson h "$hook"
}

# Podman and CRI-O run the hook from hooks.d without the shim: config.json
# is not rewritten, so the hook applies an entitlement only where its
# config already holds the rest (here the engine dropped CAP_NET_RAW and
# CAP_NET_ADMIN, as `--cap-drop` does, which network.egress needs).
@test "hooks.d: bare runc with entitle-hook as hooks.d adds it enforces network.egress where the caps are dropped" {
  net_bundle "$BUNDLE" "connect 10.200.0.1 80" "connect 10.200.0.2 80"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  edit_config "$BUNDLE" '.process.capabilities |= map_values(map(select(. != "CAP_NET_RAW" and . != "CAP_NET_ADMIN")))'
  hooksd_bundle
  run_bundle rnc
  expect_lines "connect 10.200.0.1 80: ECONNREFUSED" "connect 10.200.0.2 80: EPERM"
}

# Without entitle as the runtime, a container whose entitlements have a
# part only create writes (capabilities, seccomp, paths) is refused: it
# would look confined and not be (an AF_PACKET socket, which CAP_NET_RAW
# opens, sends past the egress programs).
@test "hooks.d: without entitle as the runtime, an entitlement whose other parts are not in the config is refused, naming it" {
  net_bundle "$BUNDLE" "connect 10.200.0.2 80"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  hooksd_bundle
  run_bundle rnc
  [ "$status" -ne 0 ]
  [[ "$stderr" == *'`network.egress` not applied: entitle-hook from hooks.d applies only cgroup BPF programs, and this config is not as entitle'"'"'s create writes it (`'"$BUNDLE"'/config.json` is not as entitle writes it: its capabilities differ); run the container with entitle as its OCI runtime'* ]]
  # security.admin has no cgroup BPF part at all: hooks.d did nothing for
  # it before; now it says so.
  probe_bundle "$BUNDLE" "mount /tmp"
  set_entitlements "$BUNDLE" security.admin
  write_entitle_config '{"grant": ["security.admin"]}'
  hooksd_bundle
  edit_config "$BUNDLE" '.hooks.createRuntime[0].env = ["ENTITLE_CONFIG=" + $c]' --arg c "$ENTITLE_CONFIG"
  run_bundle rnc
  [ "$status" -ne 0 ]
  [[ "$stderr" == *'`security.admin` not applied: entitle-hook from hooks.d'* ]]
  # With entitle as the runtime too, the config is what create writes.
  run_bundle ent
  [ "$output" = "mount /tmp: ok" ]
}

# entitle_config_file: the admin config's path this build reads by default
# (configure --with-config-file).
entitle_config_file() {
  sed -n 's/^#define ENTITLE_CONFIG_FILE "\(.*\)"$/\1/p' "$ENTITLE_BUILDDIR/config.h"
}

# The hooks.d file gives the hook no environment of the test's: no
# ENTITLE_CONFIG, the admin config at its installed path, which this host
# lacks.  The refusal says what to do about it, not ENTITLE_CONFIG, which
# the user never set.
@test "hooks.d: with no admin config, a refused entitlement that needs a grant says where to grant it" {
  [ ! -e "$(entitle_config_file)" ] || skip "this host has an admin config at $(entitle_config_file)"
  probe_bundle "$BUNDLE" "mount /tmp"
  set_entitlements "$BUNDLE" security.admin
  hooksd_bundle
  edit_config "$BUNDLE" '.hooks.createRuntime[0].env = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin"]'
  run_bundle rnc
  [ "$status" -ne 0 ]
  [[ "$stderr" == *'`security.admin` not applied: entitle-hook from hooks.d'* ]]
  [[ "$stderr" != *ENTITLE_CONFIG* ]]
  # runc quotes the hook's stderr in its log line.
  stderr=${stderr//\\\"/\"}
  [[ "$stderr" == *"there is none at $(entitle_config_file) (to grant it, an admin writes {\"grant\": [\"security.admin\"]} there"* ]]
}

@test "entitle-hook: bad input gets one line and a non-zero exit" {
  run --separate-stderr "$ENTITLE_HOOK" createRuntime <<<'not json'
  [ "$status" -eq 1 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == 'entitle: read the container state on stdin: invalid JSON'* ]]
  run --separate-stderr "$ENTITLE_HOOK" createRuntime <<<'{"id": "x", "pid": 1, "bundle": "/nonexistent", "status": "creating"}'
  [ "$status" -eq 1 ]
  [ "$stderr" = 'entitle: open `/nonexistent/config.json`: No such file or directory' ]
  run --separate-stderr "$ENTITLE_HOOK" <<<'{"id": "x", "bundle": "/b", "status": "running"}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == *'neither creating nor stopped'* ]]
  run --separate-stderr "$ENTITLE_HOOK" bogus
  [ "$status" -eq 2 ]
  [[ "$stderr" == usage:* ]]
}

@test "a cgroup below the container's is held to the container's policy" {
  net_bundle "$BUNDLE" "sleep 600"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  create_started ent "$BUNDLE" "$CTID"
  cg=$(cgroup_dir "$(ent state "$CTID" | jq -r .pid)")
  mkdir "$cg/inner" "$cg/inner/deeper"
  run sh -c 'echo $$ >"$1/inner/deeper/cgroup.procs" && exec nsenter --net="$2" "$3" connect 10.200.0.2 80' \
    sh "$cg" "/var/run/netns/$NETNS" "$ENTITLE_PROBE"
  [ "$output" = EPERM ]
  run sh -c 'echo $$ >"$1/inner/deeper/cgroup.procs" && exec nsenter --net="$2" "$3" connect 10.200.0.1 80' \
    sh "$cg" "/var/run/netns/$NETNS" "$ENTITLE_PROBE"
  [ "$output" = ECONNREFUSED ]
  ent delete --force "$CTID"
}

# crun shows only a hook's exit code: the hook's line goes to the log file
# the runtime was given, in its format, where the engine reads errors.
# The hook fails for real: this boot's probe (kept in state_dir) says the
# host has cgroup v2, but the mount namespace crun runs in has none.
@test "crun: a hook that cannot enforce writes its reason to the runtime's --log" {
  require_crun
  make_bundle "$BUNDLE" /bin/true
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  write_entitle_config "{\"runtime\": \"$CRUN_BIN\", \"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  "$ENTITLE" explain network.egress=10.0.0.1/32 >/dev/null
  log="$BATS_TEST_TMPDIR/crun.log"
  cat >"$BATS_TEST_TMPDIR/nov2.sh" <<'SH'
umount -l /sys/fs/cgroup/unified || exit 99
exec "$ENTITLE" --cgroup-manager=disabled --log "$LOG" --log-format json --root "$CRUN_ROOT" run -b "$BUNDLE" "$CTID"
SH
  run env LOG="$log" CRUN_ROOT="$CRUN_ROOT" BUNDLE="$BUNDLE" CTID="$CTID" \
    unshare -m --propagation private sh "$BATS_TEST_TMPDIR/nov2.sh"
  [ "$status" -ne 0 ] && [ "$status" -ne 99 ]
  jq -e -s 'any(.[]; .level == "error" and .msg == "entitle: `network.egress=10.200.0.1/32:80` cannot be enforced here: cgroup BPF: no cgroup v2 hierarchy is mounted")' \
    "$log" >/dev/null
  "$CRUN_BIN" --cgroup-manager=disabled --root "$CRUN_ROOT" delete -f "$CTID" >/dev/null 2>&1 || true
}

# After an upgrade the pinned programs are another build's: they are
# replaced, not reused; containers attached before keep theirs.  In a
# private mount namespace with its own bpffs, so that the host's pins (and
# the other test files running now) are not touched.
@test "pins of another build are replaced; containers started before keep their policy" {
  make_bundle "$BUNDLE" /bin/sh -c 'sleep 600'
  join_netns "$BUNDLE"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  cp -r "$BUNDLE" "$BATS_TEST_TMPDIR/b2"
  cat >"$BATS_TEST_TMPDIR/upgrade.sh" <<'SH'
set -e
mount -t bpf bpf /sys/fs/bpf
e() { "$ENTITLE" --root "$ROOT" "$@"; }
trap 'e delete -f "$ID-old" >/dev/null 2>&1; e delete -f "$ID-new" >/dev/null 2>&1; true' EXIT
e create -b "$B1" "$ID-old" </dev/null >/dev/null 2>&1
e start "$ID-old"
before=$(bpftool -j map show pinned "$ENTITLE_BPF_PINS"/entitle_policy | jq .id)
# Pretend the pinned objects come from another build.
bpftool map update pinned "$ENTITLE_BPF_PINS"/entitle_version key 0 0 0 0 value 1 2 3 4 5 6 7 8
e create -b "$B2" "$ID-new" </dev/null >/dev/null 2>&1
e start "$ID-new"
after=$(bpftool -j map show pinned "$ENTITLE_BPF_PINS"/entitle_policy | jq .id)
[ "$before" != "$after" ] && echo replaced
e exec "$ID-old" /probe connect 10.200.0.2 80 || true
e exec "$ID-new" /probe connect 10.200.0.2 80 || true
e exec "$ID-new" /probe connect 10.200.0.1 80 || true
SH
  run env ID="$CTID" B1="$BUNDLE" B2="$BATS_TEST_TMPDIR/b2" ROOT="$ROOT" \
    unshare -m --propagation private bash "$BATS_TEST_TMPDIR/upgrade.sh"
  expect_lines replaced EPERM EPERM ECONNREFUSED
}

@test "the hook twice for one container (shim and hooks.d): one attachment each, policy kept" {
  net_bundle "$BUNDLE" "sleep 600"
  set_entitlements "$BUNDLE" network.egress=10.200.0.1/32:80
  hooksd_bundle
  create_started ent "$BUNDLE" "$CTID"
  # hooks.d's hook attaches at createRuntime, entitle after the runtime's
  # create (it writes no hook of its own on create).
  [ "$(jq '.hooks.createRuntime | length' "$BUNDLE/config.json")" -eq 1 ]
  cg=$(cgroup_dir "$(ent state "$CTID" | jq -r .pid)")
  run bpftool -j cgroup show "$cg"
  [ "$(jq -r '[.[].name] | sort | join(" ")' <<<"$output")" = \
    "entitle_connect4 entitle_connect6 entitle_sendmsg4 entitle_sendmsg6 entitle_skb_egress entitle_sock_create" ]
  run ent exec "$CTID" /probe connect 10.200.0.2 80
  [ "$output" = EPERM ]
  run ent exec "$CTID" /probe connect 10.200.0.1 80
  [ "$output" = ECONNREFUSED ]
}
