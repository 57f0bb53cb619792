#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Profiles (DESIGN §7): the admin names a set of entitlements, and every
# container of the runtime entitle runs as (entitle-NAME, or the global
# flag --entitle-profile=NAME) gets it, without an annotation and without
# a grant.  The set create applies, profile included, is the one the hook
# attaches and every later exec applies.

load helpers

PROFILES='{"profiles": {
  "confined": ["network.none", "security.confined"],
  "egress": ["network.egress=10.200.0.1/32:80"],
  "dind": ["security.admin"]}}'

setup() {
  common_setup
  write_entitle_config "$PROFILES"
  # entitle as containerd's BinaryName sees it: a symlink whose name is
  # entitle-PROFILE.
  BIN="$BATS_TEST_TMPDIR/bin"
  mkdir -p "$BIN"
  ln -s "$ENTITLE" "$BIN/entitle-confined"
  ln -s "$ENTITLE" "$BIN/entitle-egress"
  ln -s "$ENTITLE" "$BIN/entitle-dind"
  ln -s "$ENTITLE" "$BIN/entitle-nope"
  make_netns "entitle-$$-$BATS_TEST_NUMBER" 10.200.0.1 10.200.0.2
}

teardown() {
  common_teardown
  drop_netns
}

# as NAME ARG...: entitle run as entitle-NAME with the test's state dir.
as() {
  local name=$1
  shift
  "$BIN/entitle-$name" --root "$ROOT" "$@"
}

# as_egress ARG...: `as egress`, as one word for create_started.
as_egress() {
  as egress "$@"
}


@test "profile: entitle-confined confines a container that asks for nothing; plain entitle does not" {
  probe_bundle "$BUNDLE" "socket inet" "mount /tmp" nnp
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run_bundle ent
  expect_lines "socket inet: ok" "mount /tmp: EPERM" "nnp: 0"
  cmp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run --separate-stderr as confined run -b "$BUNDLE" "$CTID" </dev/null
  expect_lines "socket inet: EPERM" "mount /tmp: EPERM" "nnp: 1"
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = network.none,security.confined ]
}

@test "profile: --entitle-profile=NAME selects it in every spelling, and never reaches the runtime" {
  probe_bundle "$BUNDLE" "socket inet"
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run_flag_forms entitle-profile confined "socket inet: EPERM"
  # Commands entitle passes through reach runc without the flag (runc
  # would refuse a flag it does not know).
  make_bundle "$BUNDLE"
  create_started rnc "$BUNDLE" "$CTID"
  run "$ENTITLE" --entitle-profile=confined --root "$ROOT" state "$CTID"
  [ "$status" -eq 0 ]
  [ "$(jq -r .status <<<"$output")" = running ]
  # The flag wins over the name.
  probe_bundle "$BUNDLE" "socket inet"
  run --separate-stderr as dind --entitle-profile=confined run -b "$BUNDLE" "$CTID-x" </dev/null
  [ "$output" = "socket inet: EPERM" ]
}

@test "profile: network.egress of a profile is enforced by the cgroup programs, for the init and for exec" {
  make_bundle "$BUNDLE" /probe sleep 600
  join_netns "$BUNDLE"
  # Plain runc first: both addresses answer (ECONNREFUSED: the packet got there).
  create_started rnc "$BUNDLE" "$CTID-runc"
  run rnc exec "$CTID-runc" /probe connect 10.200.0.2 80
  [ "$output" = ECONNREFUSED ]
  rnc delete -f "$CTID-runc"

  # The process an engine passes to exec --process: from its own spec.
  jq '.process | .args = ["/probe", "caps"]' "$BUNDLE/config.json" >"$BATS_TEST_TMPDIR/process.json"
  create_started as_egress "$BUNDLE" "$CTID"
  # create attaches the set it decided itself (no hook of entitle's in
  # config.json); the hook that compile (and run) writes is told the
  # profile, so that it derives the same set.
  [ "$(jq '[(.hooks.createRuntime // [])[] | select(.args[0] == "entitle-hook")] | length' "$BUNDLE/config.json")" = 0 ]
  run as egress compile -b "$BUNDLE"
  [ "$status" -eq 0 ]
  [ "$(jq -c '.hooks.createRuntime[0].args | index("--profile") as $i | .[$i + 1]' <<<"$output")" = '"egress"' ]
  run as egress exec "$CTID" /probe connect 10.200.0.2 80
  [ "$output" = EPERM ]
  run as egress exec "$CTID" /probe connect 10.200.0.1 80
  [ "$output" = ECONNREFUSED ]
  # exec --process gets the profile's process-level effects too: egress
  # drops CAP_NET_RAW (bit 13), which the engine's process asks for and
  # keeps without the profile.
  run ent exec --process "$BATS_TEST_TMPDIR/process.json" "$CTID"
  has_cap "$(cap_line "$output" CapEff)" 13
  run as egress exec --process "$BATS_TEST_TMPDIR/process.json" "$CTID"
  lacks_cap "$(cap_line "$output" CapEff)" 13
}

@test "profile: its entitlements need no grant (security.admin without a grant list)" {
  probe_bundle "$BUNDLE" "mount /tmp"
  run_bundle ent
  [ "$output" = "mount /tmp: EPERM" ]
  # The same rung requested by the container needs the admin's grant.
  set_entitlements "$BUNDLE" security.admin
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run_bundle ent
  [ "$status" -ne 0 ]
  [[ "$stderr" == *'entitlement "security.admin" requested by the container is not granted by'* ]]
  cmp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  set_entitlements "$BUNDLE" ""
  run --separate-stderr as dind run -b "$BUNDLE" "$CTID" </dev/null
  [ "$output" = "mount /tmp: ok" ]
}

@test "profile: a floor in its domains: a wider rung asked by the container is refused, naming the profile" {
  probe_bundle "$BUNDLE" "socket inet"
  set_entitlements "$BUNDLE" network.user
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run --separate-stderr as confined run -b "$BUNDLE" "$CTID" </dev/null
  [ "$status" -ne 0 ]
  [ "$stderr" = "entitle: entitlement \"network.user\" requested by the container is wider than \"network.none\" required by profile \`confined\` of $ENTITLE_CONFIG" ]
  cmp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  # A narrower request in another domain combines with it.
  set_entitlements "$BUNDLE" host.processes.none
  run --separate-stderr as confined run -b "$BUNDLE" "$CTID" </dev/null
  [ "$output" = "socket inet: EPERM" ]
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = host.processes.none,network.none,security.confined ]
}

@test "profile: an unknown one fails create naming those that exist; state, kill and delete still reach the runtime" {
  probe_bundle "$BUNDLE" "socket inet"
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run --separate-stderr as nope run -b "$BUNDLE" "$CTID" </dev/null
  [ "$status" -ne 0 ]
  [ "$stderr" = "entitle: unknown profile \`nope\`: $ENTITLE_CONFIG defines \`confined\`, \`egress\`, \`dind\`" ]
  cmp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run --separate-stderr "$ENTITLE" --entitle-profile=nope --root "$ROOT" run -b "$BUNDLE" "$CTID" </dev/null
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"unknown profile \`nope\`"* ]]
  # A container started under a profile the admin has since removed is
  # never stranded.
  make_bundle "$BUNDLE"
  create_started rnc "$BUNDLE" "$CTID"
  run --separate-stderr as nope state "$CTID"
  [ "$status" -eq 0 ]
  [ "$(jq -r .status <<<"$output")" = running ]
  [[ "$stderr" == *"unknown profile \`nope\`"*"the runtime runs without it"* ]]
  run as nope kill "$CTID" KILL
  [ "$status" -eq 0 ]
  wait_status rnc "$CTID" stopped
  run as nope delete "$CTID"
  [ "$status" -eq 0 ]
  run rnc state "$CTID"
  [ "$status" -ne 0 ]
}

@test "profile: the names of entitle's own programs select none, and a profile may not take them" {
  probe_bundle "$BUNDLE" "socket inet"
  ln -s "$ENTITLE" "$BIN/entitle-full"
  run --separate-stderr "$BIN/entitle-full" --root "$ROOT" run -b "$BUNDLE" "$CTID" </dev/null
  [ "$output" = "socket inet: ok" ]
  write_entitle_config '{"profiles": {"hook": ["network.none"]}}'
  run --separate-stderr ent run -b "$BUNDLE" "$CTID-2" </dev/null
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"profile name \`hook\` must be lowercase letters, digits and single dashes, and not \`full\`, \`hook\` or \`init\`"* ]]
}
