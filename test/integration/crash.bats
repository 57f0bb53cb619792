#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Crash safety (test/README.md): entitle killed (SIGKILL) at each step of
# the create path leaves config.json either as it was or as the complete
# rewrite, never a temporary file that a later run trips on, and a retried
# create succeeds.  Needs a build with --enable-fault-injection: at
# ENTITLE_FAULT_POINT ("NAME") a process whose environment holds
# ENTITLE_FAULT=NAME kills itself.

load helpers

setup() {
  common_setup
  # getenv ("ENTITLE_FAULT") is compiled in only with fault injection.
  if ! grep -qa ENTITLE_FAULT "$ENTITLE"; then
    skip "entitle is built without fault injection (./configure --enable-fault-injection)"
  fi
  # The host probe is kept in state_dir by the same atomic write: have it
  # there first, so that the fault points fire in the write of config.json.
  "$ENTITLE" explain security.confined >/dev/null
}

# temporaries DIR: the names of entitle's temporary files left in DIR.
temporaries() {
  find "$1" -maxdepth 1 -name '.entitle-config-*' -printf '%f\n' | sort
}

# crash_at POINT EXPECTED: kill entitle create at POINT; config.json must
# then be EXPECTED (original or rewrite), whole; a retried create succeeds,
# runs the container, and leaves no temporary file.
crash_at() {
  local point=$1 expected=$2 orig rewrite got
  make_bundle "$BUNDLE" /bin/echo ran
  set_entitlements "$BUNDLE" network.none,security.confined
  orig=$(sha256sum <"$BUNDLE/config.json")
  # The complete rewrite, as create writes it: a copy of the bundle
  # created up to the exec of the runtime (compile prints the same but for
  # the createRuntime hook, which create leaves out where it attaches
  # itself).
  cp -r "$BUNDLE" "$BATS_TEST_TMPDIR/reference"
  ENTITLE_FAULT=before-exec run_detached ent create -b "$BATS_TEST_TMPDIR/reference" "$CTID-reference"
  [ "$status" -eq 137 ]
  rewrite=$(sha256sum <"$BATS_TEST_TMPDIR/reference/config.json")
  rm -rf "$BATS_TEST_TMPDIR/reference"
  [ "$orig" != "$rewrite" ]

  ENTITLE_FAULT=$point run_detached ent create -b "$BUNDLE" "$CTID"
  if [ "$status" -ne 137 ]; then
    echo "entitle was not killed at $point (status $status): $stderr" >&2
    return 1
  fi
  # The runtime never ran.
  run_detached rnc state "$CTID"
  [ "$status" -ne 0 ]
  got=$(sha256sum <"$BUNDLE/config.json")
  if [ "$got" != "$orig" ] && [ "$got" != "$rewrite" ]; then
    echo "after a kill at $point config.json is neither the original nor the rewrite" >&2
    return 1
  fi
  if [ "$got" != "${!expected}" ]; then
    echo "after a kill at $point config.json is not the $expected" >&2
    return 1
  fi
  jq -e . "$BUNDLE/config.json" >/dev/null

  # The retry: created, started, ran; nothing of the killed run is left.
  create_started ent "$BUNDLE" "$CTID"
  wait_status ent "$CTID" stopped
  [ "$(cat "$BATS_TEST_TMPDIR/$CTID.out")" = ran ]
  [ "$(sha256sum <"$BUNDLE/config.json")" = "$rewrite" ]
  if [ -n "$(temporaries "$BUNDLE")" ]; then
    echo "left in the bundle: $(temporaries "$BUNDLE")" >&2
    return 1
  fi
  ent delete "$CTID"
}

@test "crash: killed after parsing config.json, the bundle is untouched and a retry runs" {
  crash_at after-parse orig
  # Nothing was written yet: no temporary either.
}

@test "crash: killed with the temporary written but not renamed, the original stays and a retry cleans up" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  ENTITLE_FAULT=before-rename run_detached ent create -b "$BUNDLE" "$CTID"
  [ "$status" -eq 137 ]
  # This is the one step that can leave a temporary behind.
  [ "$(temporaries "$BUNDLE" | wc -l)" -eq 1 ]
  rm -rf "$BUNDLE"
  crash_at before-rename orig
}

@test "crash: killed after the rename, before the directory fsync, the rewrite is whole and a retry runs" {
  crash_at after-rename rewrite
}

@test "crash: killed between the rewrite and the exec of the runtime, a retry runs" {
  crash_at before-exec rewrite
}

@test "crash: the clean-up of stale temporaries removes only entitle's own, unlocked, regular files" {
  make_bundle "$BUNDLE" /bin/echo ran
  set_entitlements "$BUNDLE" network.none
  echo outside >"$BATS_TEST_TMPDIR/outside"
  # A stale temporary of a killed entitle: removed.
  echo stale >"$BUNDLE/.entitle-config-Ab12Cd"
  # Not ours, or not safe to remove: kept.
  ln -s "$BATS_TEST_TMPDIR/outside" "$BUNDLE/.entitle-config-LinkXX"
  mkdir "$BUNDLE/.entitle-config-DirXXX"
  mkfifo "$BUNDLE/.entitle-config-FifoXX"
  echo other >"$BUNDLE/.entitle-config-toolong"
  echo other >"$BUNDLE/.entitle-config-a.b-cd"
  echo other >"$BUNDLE/entitle-config-Ab12Cd"
  # One a live writer holds (locked): kept.
  echo live >"$BUNDLE/.entitle-config-LiveXX"
  (
    exec 9<"$BUNDLE/.entitle-config-LiveXX"
    flock 9
    exec sleep 60
  ) </dev/null >/dev/null 2>&1 &
  locker=$!
  for _ in $(seq 50); do
    flock -n "$BUNDLE/.entitle-config-LiveXX" true || break
    sleep 0.1
  done

  create_started ent "$BUNDLE" "$CTID"
  kill "$locker"
  wait_status ent "$CTID" stopped
  [ "$(cat "$BATS_TEST_TMPDIR/$CTID.out")" = ran ]
  [ ! -e "$BUNDLE/.entitle-config-Ab12Cd" ]
  [ -L "$BUNDLE/.entitle-config-LinkXX" ]
  [ "$(cat "$BATS_TEST_TMPDIR/outside")" = outside ]
  [ -d "$BUNDLE/.entitle-config-DirXXX" ]
  [ -p "$BUNDLE/.entitle-config-FifoXX" ]
  [ -f "$BUNDLE/.entitle-config-toolong" ]
  [ -f "$BUNDLE/.entitle-config-a.b-cd" ]
  [ -f "$BUNDLE/entitle-config-Ab12Cd" ]
  [ "$(cat "$BUNDLE/.entitle-config-LiveXX")" = live ]
}

# attach_fault POINT: kill the attach that follows the runtime's create at
# POINT (full/attach-after.c); create fails with one line and leaves no
# container, no cgroup of it, and no record; a retried create enforces.
attach_fault() {
  local mnt
  net_probe_bundle
  ENTITLE_FAULT=$1 run_detached ent create -b "$BUNDLE" "$CTID"
  [ "$status" -eq 1 ]
  one_error_line
  [[ "$stderr" == *"$CTID"* ]]
  [ -z "$(rnc list -q)" ]
  mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
  [ -z "$(find "$mnt" -maxdepth 4 -type d -name "*$CTID*")" ]
  if grep -rlx -- "$ROOT" /run/entitle/containers 2>/dev/null; then
    echo "a record of the container is left" >&2
    return 1
  fi

  create_started ent "$BUNDLE" "$CTID"
  wait_status ent "$CTID" stopped
  [ "$(cat "$BATS_TEST_TMPDIR/$CTID.out")" = EPERM ]
}

# net_probe_bundle: a bundle whose connect to 127.0.0.1:1 (refused by the
# host's loopback when allowed) network.egress to 10.0.0.0/8 refuses.
net_probe_bundle() {
  make_bundle "$BUNDLE" /probe connect 127.0.0.1 1
  set_entitlements "$BUNDLE" network.egress=10.0.0.0/8:443
}

@test "crash: the attach killed after the runtime's create, the container is deleted and nothing is left" {
  attach_fault after-runtime-create
}

@test "crash: the attach killed once all is attached and recorded, the container is deleted and nothing is left" {
  attach_fault after-attach
}

@test "crash: entitle itself killed after the runtime's create, before the attach: start refuses the container, delete removes it, a new create enforces" {
  net_probe_bundle
  # The runtime ran under plain runc first: this connect is refused by the
  # host's loopback, not by a policy, without entitle.
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.json"
  run_bundle rnc
  [ "$output" = ECONNREFUSED ]
  cp "$BATS_TEST_TMPDIR/config.json" "$BUNDLE/config.json"

  ENTITLE_FAULT=runtime-created run_detached ent create -b "$BUNDLE" "$CTID"
  [ "$status" -eq 137 ] || [ "$status" -gt 128 ]
  # The container exists, created, without its programs: entitle refuses
  # to start it, and it stays unstarted.
  [ "$(rnc state "$CTID" | jq -r .status)" = created ]
  run --separate-stderr ent start "$CTID"
  [ "$status" -ne 0 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "entitle: container \`$CTID\` was created without its policy"* ]]
  [ "$(rnc state "$CTID" | jq -r .status)" = created ]
  ent delete "$CTID"
  [ -z "$(rnc list -q)" ]

  create_started ent "$BUNDLE" "$CTID"
  wait_status ent "$CTID" stopped
  [ "$(cat "$BATS_TEST_TMPDIR/$CTID.out")" = EPERM ]
}
