#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fs.write and fs.read for real (issue 14): Landlock, applied by the
# in-container helper entitle-init (entitle-init(8)) that entitle mounts at
# /dev/entitle-init and puts in front of the container's command and of
# every exec'd one.  Each attack runs first under the plain runtime, where
# it works, then through entitle.  The containers write to a copy of the
# busybox rootfs (the shared one is read-only, which would refuse every
# write with EROFS whatever entitle did).

load helpers

setup() {
  common_setup
  require_landlock
  # The probe cache in the test's own state_dir.
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  NETNS=
}

teardown() {
  common_teardown
  [ -z "$NETNS" ] || ip netns delete "$NETNS" 2>/dev/null || true
}

# What a process tries: create /etc/x and /tmp/x (the shell's words when
# it cannot: its strerror), write the existing /etc/passwd, read it.  One
# line: make_bundle takes one argument a line.
WRITES='for f in /etc/x /tmp/x; do if e=$( { echo hi >"$f"; } 2>&1); then echo "create $f: ok"; else echo "create $f: ${e##*: }"; fi; done; printf "write /etc/passwd: "; /probe write /etc/passwd; printf "read /etc/passwd: "; /probe read /etc/passwd'

writes_work() {
  expect_lines "create /etc/x: ok" "create /tmp/x: ok" "write /etc/passwd: ok" "read /etc/passwd: ok"
}

writes_confined() {
  expect_lines "create /etc/x: Permission denied" "create /tmp/x: ok" "write /etc/passwd: EACCES" \
    "read /etc/passwd: ok"
}

# process_file FILE ARG...: an engine's process file running ARG...
process_file() {
  local file=$1
  shift
  jq '.process | .args = $args' --argjson args "$(printf '%s\n' "$@" | jq -R . | jq -s .)" \
    "$BUNDLE/config.json" >"$file"
}

@test "fs.write=/tmp: /etc/x cannot be created (EACCES), /tmp/x can, reading works; plain runc writes both" {
  require_fs_write
  writable_bundle /bin/sh -c "$WRITES"
  run_bundle rnc
  [ "$status" -eq 0 ]
  writes_work
  rm -f "$BATS_TEST_TMPDIR/rootfs/etc/x" "$BATS_TEST_TMPDIR/rootfs/tmp/x"

  set_entitlements "$BUNDLE" fs.write=/tmp
  run_bundle ent
  [ "$status" -eq 0 ]
  writes_confined
  [ ! -e "$BATS_TEST_TMPDIR/rootfs/etc/x" ]
  # What the config says: the helper, read-only, in front of the command.
  jq -e '.process.args[:4] == ["/dev/entitle-init", "--fs.write", "/tmp", "--"]
      and .process.args[4:6] == ["/bin/sh", "-c"]
      and (.mounts[-1] | .destination == "/dev/entitle-init" and .type == "bind"
        and (.options | index("ro")))' "$BUNDLE/config.json"
}

@test "fs.write: the helper is gone once the command runs: pid 1 is the command, confined (NoNewPrivs)" {
  require_fs_write
  writable_bundle /probe sleep 600
  set_entitlements "$BUNDLE" fs.write=/tmp
  create_started ent "$BUNDLE" "$CTID"
  pid=$(ent state "$CTID" | jq -r .pid)
  [ "$(tr '\0' ' ' <"/proc/$pid/cmdline")" = "/probe sleep 600 " ]
  [ "$(readlink "/proc/$pid/exe")" = /probe ]
  grep -qx 'NoNewPrivs:[[:space:]]*1' "/proc/$pid/status"
  run --separate-stderr ent exec "$CTID" ps -o pid,args
  [ "$status" -eq 0 ]
  [[ "${lines[1]}" =~ ^\ +1\ /probe\ sleep\ 600$ ]]
  [[ "$output" != *entitle-init* ]]
}

@test "fs.write: exec (plain and --process) is confined as the container; plain runc exec writes" {
  require_fs_write
  writable_bundle /probe sleep 600
  create_started rnc "$BUNDLE" "$CTID"
  run --separate-stderr rnc exec "$CTID" /bin/sh -c "$WRITES"
  writes_work
  rnc delete -f "$CTID"
  rm -f "$BATS_TEST_TMPDIR/rootfs/etc/x" "$BATS_TEST_TMPDIR/rootfs/tmp/x"

  set_entitlements "$BUNDLE" fs.write=/tmp
  create_started ent "$BUNDLE" "$CTID"
  run --separate-stderr ent exec "$CTID" /bin/sh -c "$WRITES"
  [ "$status" -eq 0 ]
  writes_confined
  rm -f "$BATS_TEST_TMPDIR/rootfs/tmp/x"
  process_file "$BATS_TEST_TMPDIR/process.json" /bin/sh -c "$WRITES"
  sum=$(sha256sum <"$BATS_TEST_TMPDIR/process.json")
  run --separate-stderr ent exec --process "$BATS_TEST_TMPDIR/process.json" "$CTID"
  [ "$status" -eq 0 ]
  writes_confined
  # The runtime ran entitle's copy: the engine's file is left as given.
  [ "$(sha256sum <"$BATS_TEST_TMPDIR/process.json")" = "$sum" ]
}

@test "fs.read=/data: only /data and what the command needs to run are readable; plain runc reads /etc" {
  writable_bundle /bin/sh -c 'cat /data/f; cat /etc/passwd >/dev/null; ls / >/dev/null; printf "probe read /etc/passwd: "; /probe read /etc/passwd; printf "probe read /data/f: "; /probe read /data/f'
  run_bundle rnc
  [ "$status" -eq 0 ]
  expect_lines data "probe read /etc/passwd: ok" "probe read /data/f: ok"

  # sh is busybox, the command's own file: it runs.  /probe is another
  # program, which the container lists to run it.
  set_entitlements "$BUNDLE" fs.read=/data,fs.read=/probe
  run_bundle ent
  [ "$status" -eq 0 ]
  expect_lines data "probe read /etc/passwd: EACCES" "probe read /data/f: ok"
  [[ "$stderr" == *"cat: can't open '/etc/passwd': Permission denied"* ]]
  [[ "$stderr" == *"ls: can't open '/': Permission denied"* ]]

  set_entitlements "$BUNDLE" fs.read=/data
  run_bundle ent
  [[ "$stderr" == *"/probe: Permission denied"* ]]
}

@test "fs.write: a path missing in the container stops it before the command runs, in one line" {
  require_fs_write
  writable_bundle /bin/sh -c 'echo the command ran'
  set_entitlements "$BUNDLE" fs.write=/nonexistent
  run -127 --separate-stderr ent run -b "$BUNDLE" "$CTID" </dev/null
  [ "$status" -eq 127 ]
  [ -z "$output" ]
  [ "$stderr" = 'entitle-init: fs.write `/nonexistent`: No such file or directory' ]
}

@test "crun: fs.write=/tmp confines the container and a plain exec; plain crun writes" {
  require_fs_write
  require_crun
  writable_bundle /bin/sh -c "$WRITES"
  run --separate-stderr crn run -b "$BUNDLE" "$CTID" </dev/null
  [ "$status" -eq 0 ]
  writes_work
  rm -f "$BATS_TEST_TMPDIR/rootfs/etc/x" "$BATS_TEST_TMPDIR/rootfs/tmp/x"

  write_entitle_config "{\"runtime\": \"$CRUN_BIN\", \"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  set_entitlements "$BUNDLE" fs.write=/tmp
  run --separate-stderr ent_crun run -b "$BUNDLE" "$CTID" </dev/null
  [ "$status" -eq 0 ]
  writes_confined
  rm -f "$BATS_TEST_TMPDIR/rootfs/tmp/x"

  edit_config "$BUNDLE" '.process.args = ["/probe", "sleep", "600"]'
  id="$CTID-exec"
  create_started ent_crun "$BUNDLE" "$id"
  run --separate-stderr ent_crun exec "$id" /bin/sh -c "$WRITES"
  [ "$status" -eq 0 ]
  writes_confined
}

# The TCP second layer: Landlock refuses a connect or a bind before the
# cgroup programs see it, with EACCES where they say EPERM, so the errno
# tells which layer refused.
@test "fs.write with network.bind and network.egress: Landlock's TCP rules refuse first (EACCES), never what the programs allow" {
  require_fs_write
  NETNS="entitle-$$-$BATS_TEST_NUMBER"
  ip netns add "$NETNS"
  ip -n "$NETNS" link set lo up
  ip -n "$NETNS" addr add 10.200.0.1/32 dev lo
  probe_bundle "$BUNDLE" "bind 8081" "bind 8080" "bind 0" "connect 10.200.0.1 81" "connect 10.200.0.1 80"
  edit_config "$BUNDLE" '.linux.namespaces = ([.linux.namespaces[] | select(.type != "network")]
      + [{type: "network", path: $p}])' --arg p "/var/run/netns/$NETNS"
  run_bundle rnc
  expect_lines "bind 8081: ok" "bind 8080: ok" "bind 0: ok" "connect 10.200.0.1 81: ECONNREFUSED" \
    "connect 10.200.0.1 80: ECONNREFUSED"

  set_entitlements "$BUNDLE" network.bind=8080,network.egress=10.200.0.1/32:80
  run_bundle ent
  expect_lines "bind 8081: EPERM" "bind 8080: ok" "bind 0: ok" "connect 10.200.0.1 81: EPERM" \
    "connect 10.200.0.1 80: ECONNREFUSED"

  set_entitlements "$BUNDLE" fs.write=/tmp,network.bind=8080,network.egress=10.200.0.1/32:80
  run_bundle ent
  expect_lines "bind 8081: EACCES" "bind 8080: ok" "bind 0: ok" "connect 10.200.0.1 81: EACCES" \
    "connect 10.200.0.1 80: ECONNREFUSED"

  # An egress rule without a port allows every port: no connect layer.
  set_entitlements "$BUNDLE" fs.write=/tmp,network.egress=10.200.0.1/32
  run_bundle ent
  expect_lines "bind 8081: ok" "bind 8080: ok" "bind 0: ok" "connect 10.200.0.1 81: ECONNREFUSED" \
    "connect 10.200.0.1 80: ECONNREFUSED"
}

@test "fs.write: truncate(2) of a file outside the paths is refused (Landlock ABI 3); plain runc truncates" {
  require_fs_write
  writable_bundle /probe truncate /etc/passwd
  run_bundle rnc
  [ "$output" = ok ]
  [ ! -s "$BATS_TEST_TMPDIR/rootfs/etc/passwd" ]
  writable_bundle /probe truncate /etc/passwd
  set_entitlements "$BUNDLE" fs.write=/tmp
  run_bundle ent
  [ "$output" = EACCES ]
  [ -s "$BATS_TEST_TMPDIR/rootfs/etc/passwd" ]
}

# Debian 12's 6.1 has Landlock ABI 2: no truncate right.  What fs.write
# cannot hold there is never silently missing.
@test "fs.write: where Landlock lacks the truncate right (ABI < 3), create refuses it; under on_unenforceable warn it runs, says so, and only truncate stays open" {
  [ "$LANDLOCK_ABI" -lt 3 ] || skip "this kernel's Landlock ABI $LANDLOCK_ABI holds all of fs.write (the test above)"
  writable_bundle /bin/sh -c "/probe write /etc/group; /probe truncate /etc/passwd"
  set_entitlements "$BUNDLE" fs.write=/tmp
  before=$(fingerprint "$BUNDLE")
  run_bundle ent
  one_error_line
  [ "$stderr" = "entitle: entitlement \`fs.write\` cannot be enforced here: it needs Landlock ABI 3, and this kernel has ABI $LANDLOCK_ABI: truncate(2) of a file outside the listed paths would stay allowed" ]
  [ "$(fingerprint "$BUNDLE")" = "$before" ]
  [ -s "$BATS_TEST_TMPDIR/rootfs/etc/passwd" ]

  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\", \"on_unenforceable\": \"warn\"}"
  run_bundle ent
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"entitle: warning: entitlement \`fs.write\` not enforced: it needs Landlock ABI 3"* ]]
  expect_lines EACCES ok
  [ ! -s "$BATS_TEST_TMPDIR/rootfs/etc/passwd" ]
}
