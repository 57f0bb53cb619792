#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# entitle why (issue 13): the denials entitle's cgroup programs record,
# the container, the entitlement whose rule denied each and the one that
# would allow it, against real runc and real programs.  Each denial is
# first shown to happen under plain runc's neighbour (allowed there, and
# nothing recorded), then through entitle.  Every test has its own admin
# config and state_dir, so that the records it reads are its own; the
# store of denials is shared by the build (its pins), so a test reads its
# own container's only.

load attack-helpers

setup() {
  attack_setup
  STATE="$BATS_TEST_TMPDIR/state"
  write_entitle_config "{\"state_dir\": \"$STATE\"}"
}

teardown() {
  if [ -n "${FOLLOW_PID-}" ]; then
    kill "$FOLLOW_PID" 2>/dev/null || true
    wait "$FOLLOW_PID" 2>/dev/null || true
  fi
  attack_teardown
}

# why ARG...: entitle why with the test's root and config.
why() {
  "$ENTITLE" --root "$ROOT" why "$@"
}

@test "why: an egress denial names the destination, the rule that denied it and the value that would allow it" {
  net_bundle "$BUNDLE" "connect $ADDR_B 80"
  run_bundle rnc
  expect_lines "connect $ADDR_B 80: ECONNREFUSED"
  run --separate-stderr why "$CTID"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"no record of container \`$CTID\`"* ]]

  set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32:80"
  run_bundle ent
  expect_lines "connect $ADDR_B 80: EPERM"
  run --separate-stderr why "$CTID"
  [ "$status" -eq 0 ]
  [ "${lines[0]:21}" = "$CTID: connect to $ADDR_B:80 (tcp): denied by network.egress=$ADDR_A/32:80, from annotation \`io.entitle.entitlements\` (cgroup BPF connect4); allowed by network.egress=$ADDR_B/32:80" ]
  [ "${#lines[@]}" -eq 2 ]
  [[ "${lines[1]}" == "note: seccomp denials"* ]]

  run why "$CTID" --json
  [ "$status" -eq 0 ]
  [ "$(jq -r '.denials | length' <<<"$output")" = 1 ]
  [ "$(jq -r '.denials[0] | [.container, .program, .address, .port, .denied_by, .denied_by_source, .allowed_by] | join(" ")' <<<"$output")" = \
    "$CTID connect4 $ADDR_B 80 network.egress=$ADDR_A/32:80 annotation network.egress=$ADDR_B/32:80" ]
}

@test "why: a rule a custom entitlement implies is named after that entitlement" {
  write_entitle_config "{\"state_dir\": \"$STATE\", \"entitlements\": {\"example.com.web\": {\"egress\": [\"$ADDR_A/32:80\"]}}}"
  net_bundle "$BUNDLE" "connect $ADDR_B 80"
  set_entitlements "$BUNDLE" "example.com.web"
  run_bundle ent
  expect_lines "connect $ADDR_B 80: EPERM"
  run why "$CTID" --json
  [ "$status" -eq 0 ]
  [ "$(jq -r '.denials[0] | [.container, .denied_by, .allowed_by] | join(" ")' <<<"$output")" = \
    "$CTID example.com.web (network.egress=$ADDR_A/32:80) network.egress=$ADDR_B/32:80" ]
}

@test "why: names the container after it was deleted, and other containers' denials are not its" {
  net_bundle "$BUNDLE" "connect $ADDR_B 80" "bind 8081"
  set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32:80,network.bind=8080"
  run_bundle ent
  expect_lines "connect $ADDR_B 80: EPERM" "bind 8081: EPERM"
  run_bundle ent "$BUNDLE" "$CTID-b"
  ! rnc state "$CTID" 2>/dev/null
  run why "$CTID"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 3 ]
  [[ "${lines[0]}" == *" $CTID: connect to $ADDR_B:80 (tcp): denied by network.egress=$ADDR_A/32:80, from annotation \`io.entitle.entitlements\` "* ]]
  [[ "${lines[1]}" == *" $CTID: bind to port 8081 (tcp): denied by network.bind=8080, from annotation \`io.entitle.entitlements\` (cgroup BPF bind4); allowed by network.bind=8081" ]]
  run why --json
  [ "$(jq --arg a "$CTID" --arg b "$CTID-b" '[.denials[] | select(.container == $a or .container == $b)] | length' <<<"$output")" = 4 ]
  run why --since 1h "$CTID" --json
  [ "$(jq '.denials | length' <<<"$output")" = 2 ]
}

@test "why: a tight loop of denials gets the errno every time and records at most 16 a minute" {
  make_bundle "$BUNDLE" /bin/sh -c "n=0; for i in \$(seq 100); do [ \"\$(/probe connect $ADDR_B 80)\" = EPERM ] && n=\$((n+1)); done; echo \$n"
  join_netns "$BUNDLE"
  set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32:80"
  run_bundle ent
  expect_lines 100
  run why "$CTID" --json
  [ "$(jq '.denials | length' <<<"$output")" = 16 ]
}

@test "why: \"denials\": false in the admin config records nothing" {
  net_bundle "$BUNDLE" "connect $ADDR_B 80"
  write_entitle_config "{\"state_dir\": \"$STATE\", \"denials\": false}"
  set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32:80"
  run_bundle ent
  expect_lines "connect $ADDR_B 80: EPERM"
  run why "$CTID" --json
  [ "$status" -eq 0 ]
  [ "$(jq '.denials | length' <<<"$output")" = 0 ]
}

@test "why: a denial of a packet from outside (network.ingress) names the source" {
  make_bundle "$BUNDLE" /probe accept-once 8080 3
  join_netns "$BUNDLE"
  set_entitlements "$BUNDLE" "network.ingress=$ADDR_A/32:8080"
  create_started ent "$BUNDLE" "$CTID"
  wait_first_line "$BATS_TEST_TMPDIR/$CTID.out" >/dev/null
  run in_netns "$ENTITLE_PROBE" from "$ADDR_B" connect "$ADDR_B" 8080 1
  [ "$output" = ETIMEDOUT ]
  run why "$CTID" --json
  [ "$(jq -r '[.denials[] | select(.program == "skb_ingress")][0] | [.address, .port, .denied_by, .allowed_by] | join(" ")' <<<"$output")" = \
    "$ADDR_B 8080 network.ingress=$ADDR_A/32:8080 network.ingress=$ADDR_B/32:8080" ]
}

# Seccomp denies these first, before any cgroup program runs, and only
# `entitle why --follow` sees them, through an fexit program on
# __secure_computing that it attaches while it runs (docs/denials.md).
# Where the kernel refuses that program the denial is still shown to
# happen, and the rest is skipped with the kernel's reason.

# follow_start ARG...: entitle why --follow ARG... in the background, once
# it says what it follows (under TCG the load takes seconds);
# FOLLOW_SECCOMP is the kernel's refusal, empty where it follows seccomp.
follow_start() {
  FOLLOW_OUT="$BATS_TEST_TMPDIR/follow.out"
  FOLLOW_ERR="$BATS_TEST_TMPDIR/follow.err"
  # Not through why(): $! must be entitle's pid, not a subshell's.
  "$ENTITLE" --root "$ROOT" why --follow "$@" >"$FOLLOW_OUT" 2>"$FOLLOW_ERR" 3>&- &
  FOLLOW_PID=$!
  for _ in $(seq 600); do
    grep -q '^note: ' "$FOLLOW_ERR" && break
    sleep 0.1
  done
  cat "$FOLLOW_ERR" >&2
  grep -q '^note: following' "$FOLLOW_ERR"
  FOLLOW_SECCOMP=$(sed -n 's/.*seccomp denials are not observable on this host: //p' "$FOLLOW_ERR")
}

# follow_stop: interrupt it (it prints what it has read, and ends with 0),
# then skip with the kernel's reason where it could not follow seccomp
# (having printed nothing of this container: without an ID it follows
# every container's cgroup programs, and make -j2 check runs other files'
# containers beside this one); $output and $lines hold what it printed.
follow_stop() {
  kill -INT "$FOLLOW_PID"
  wait "$FOLLOW_PID"
  FOLLOW_PID=
  if [ -n "$FOLLOW_SECCOMP" ]; then
    run grep -F "$CTID" "$FOLLOW_OUT"
    [ -z "$output" ]
    skip "seccomp denials are not observable on this host: $FOLLOW_SECCOMP"
  fi
  run cat "$FOLLOW_OUT"
}

@test "why: a network.none container that opens an inet socket names network.none and suggests network.user" {
  probe_bundle "$BUNDLE" "socket inet"
  run_bundle rnc
  expect_lines "socket inet: ok"
  set_entitlements "$BUNDLE" network.none
  follow_start "$CTID"
  run_bundle ent
  expect_lines "socket inet: EPERM"
  follow_stop
  [ "${#lines[@]}" -eq 1 ]
  [[ "${lines[0]}" == *" $CTID: socket(AF_INET, SOCK_STREAM) (pid "*", probe): denied by network.none, from annotation \`io.entitle.entitlements\` (seccomp, EPERM: socket() and socketpair() for AF_UNIX only); allowed by network.user" ]]

  # After the fact, why points at --follow.
  run why "$CTID" --json
  [ "$status" -eq 0 ]
  [[ "$(jq -r '.not_observed[0]' <<<"$output")" == "seccomp denials "*"are not kept: \`entitle why --follow\` shows them as they happen"* ]]
}

@test "why: a confined container that calls mount names security.confined" {
  probe_bundle "$BUNDLE" "mount /tmp"
  edit_config "$BUNDLE" '.process.capabilities[] += ["CAP_SYS_ADMIN"]'
  run_bundle rnc
  expect_lines "mount /tmp: ok"
  set_entitlements "$BUNDLE" security.confined
  follow_start --json
  run_bundle ent
  expect_lines "mount /tmp: EPERM"
  follow_stop
  run jq -c --arg id "$CTID" 'select(.container == $id)' "$FOLLOW_OUT"
  [ "${#lines[@]}" -eq 1 ]
  [ "$(jq -r '[.program, .syscall, .denied, .result, .command, .denied_by, .allowed_by] | join(" ")' <<<"${lines[0]}")" = \
    "seccomp mount mount() EPERM probe security.confined security.admin" ]
}

@test "why: --follow follows the records of the cgroup programs too, and only those of container ID" {
  net_bundle "$BUNDLE" "connect $ADDR_B 80"
  set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32:80"
  follow_start "$CTID"
  run_bundle ent "$BUNDLE" "$CTID-other"
  expect_lines "connect $ADDR_B 80: EPERM"
  run_bundle ent
  expect_lines "connect $ADDR_B 80: EPERM"
  # The store is looked at every half second.
  wait_lines "$FOLLOW_OUT" 1
  kill -INT "$FOLLOW_PID"
  wait "$FOLLOW_PID"
  FOLLOW_PID=
  run cat "$FOLLOW_OUT"
  [ "${#lines[@]}" -eq 1 ]
  [ "${lines[0]:21}" = "$CTID: connect to $ADDR_B:80 (tcp): denied by network.egress=$ADDR_A/32:80, from annotation \`io.entitle.entitlements\` (cgroup BPF connect4); allowed by network.egress=$ADDR_B/32:80" ]
}
