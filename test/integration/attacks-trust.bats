#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Attacks on what entitle trusts (issue 10, classes 1, 2, 3, 9, 10, and the
# egress/rung contradiction; DESIGN §7 "io.entitle.applied ... output
# only", "require on modifiers is a floor", "on_unenforceable: warn",
# "network.egress").  Where a container can show the effect, the same
# bundle runs first under plain runc; refusals are checked as DESIGN §5
# says: one "entitle: " line naming what it must, the bundle byte for
# byte unchanged, no container.

load attack-helpers

setup() {
  attack_setup 10.0.0.1
}

teardown() {
  attack_teardown
}

# The network capabilities network.none drops (DESIGN §3).
NET_CAPS=(CAP_NET_ADMIN CAP_NET_BIND_SERVICE CAP_NET_RAW CAP_NET_BROADCAST)

# forge_applied DIR LIST: the bundle claims entitle already applied LIST,
# with this entitle's version, as a rewritten config would.
forge_applied() {
  edit_config "$1" '.annotations["io.entitle.applied"] = $a | .annotations["io.entitle.version"] = $v' \
    --arg a "$2" --arg v "$(entitle_version)"
}

# process_json FILE ARG...: the bundle's own process (Docker's default
# capabilities, as an engine's exec copies it), running ARG....
process_json() {
  local file=$1
  shift
  jq '.process | .args = $args' --argjson args "$(printf '%s\n' "$@" | jq -R . | jq -s .)" \
    "$BUNDLE/config.json" >"$file"
}

# default_caps_but NAME...: the mask of Docker's default set less NAME....
default_caps_but() {
  local drop=" $* " keep=() c
  for c in $(jq -r '.[]' <<<"$DEFAULT_CAPS"); do
    [[ "$drop" == *" $c "* ]] || keep+=("$c")
  done
  cap_mask "${keep[@]}"
}

# names_both A B: $stderr names A and B each on its own (where one holds
# the other, as 10.0.0.1/32 and 10.0.0.1/32:443, the shorter must occur
# outside the longer).
names_both() {
  local long=$1 short=$2
  [ "${#long}" -ge "${#short}" ] || {
    long=$2
    short=$1
  }
  if [[ "$stderr" != *"$long"* ]] || [[ "${stderr//"$long"/}" != *"$short"* ]]; then
    echo "the message does not name both \"$1\" and \"$2\": $stderr" >&2
    return 1
  fi
}

# exec_caps RUNNER PROCESS-FILE: run `exec --process` into $CTID.
exec_caps() {
  run --separate-stderr "$1" exec --process "$2" "$CTID"
  [ "$status" -eq 0 ] || {
    echo "exec failed ($status): $stderr" >&2
    return 1
  }
}

@test "entitle: a forged io.entitle.applied=security.insecure gives exec --process nothing (no entitlements, no admin config)" {
  make_bundle "$BUNDLE"
  forge_applied "$BUNDLE" security.insecure
  process_json "$BATS_TEST_TMPDIR/p.json" /probe caps
  want=$(cap_mask $(jq -r '.[]' <<<"$DEFAULT_CAPS"))
  [ ! -e "$ENTITLE_CONFIG" ]
  create_started ent "$BUNDLE" "$CTID"
  # runc gives the exec'd process exactly p.json's capabilities ...
  exec_caps rnc "$BATS_TEST_TMPDIR/p.json"
  same_mask "$(cap_line "$output" CapEff)" "$want" "runc's CapEff"
  same_mask "$(cap_line "$output" CapBnd)" "$want" "runc's CapBnd"
  # ... and so must entitle: nothing added for the forged record.
  exec_caps ent "$BATS_TEST_TMPDIR/p.json"
  same_mask "$(cap_line "$output" CapEff)" "$want" "entitle's CapEff"
  same_mask "$(cap_line "$output" CapBnd)" "$want" "entitle's CapBnd"
}

@test "network.none: with a forged io.entitle.applied=security.insecure, exec --process gets network.none's narrowing only" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  forge_applied "$BUNDLE" security.insecure
  process_json "$BATS_TEST_TMPDIR/p.json" /probe caps
  jq -e '.capabilities.effective | index("CAP_NET_RAW")' "$BATS_TEST_TMPDIR/p.json" >/dev/null
  create_started ent "$BUNDLE" "$CTID"
  exec_caps rnc "$BATS_TEST_TMPDIR/p.json"
  has_cap "$(cap_line "$output" CapEff)" $CAP_NET_RAW

  want=$(default_caps_but "${NET_CAPS[@]}")
  exec_caps ent "$BATS_TEST_TMPDIR/p.json"
  same_mask "$(cap_line "$output" CapEff)" "$want" "entitle's CapEff"
  same_mask "$(cap_line "$output" CapBnd)" "$want" "entitle's CapBnd"
  same_mask "$(cap_line "$output" CapPrm)" "$want" "entitle's CapPrm"
}

@test "require: a forged io.entitle.applied at create does not skip the admin's required or default network.egress" {
  net_bundle "$BUNDLE" "connect $ADDR_A 80" "connect $ADDR_B 80"
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  rule="network.egress=$ADDR_A/32:80"
  run_bundle rnc
  expect_lines "connect $ADDR_A 80: ECONNREFUSED" "connect $ADDR_B 80: ECONNREFUSED"

  n=0
  for source in require defaults; do
    write_entitle_config "{\"$source\": [\"$rule\"]}"
    for forged in "$rule" security.insecure ""; do
      cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
      forge_applied "$BUNDLE" "$forged"
      run_bundle ent "$BUNDLE" "$CTID-$((n++))"
      if ! expect_lines "connect $ADDR_A 80: ECONNREFUSED" "connect $ADDR_B 80: EPERM"; then
        echo "with $source [$rule] and a forged io.entitle.applied \"$forged\"" >&2
        false
      fi
      # The record is the true one.
      [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = "$rule" ]
    done
  done
}

@test "network.user: exec --process without a capabilities object gets no capability the container's init lacks" {
  make_bundle "$BUNDLE"
  jq '.process | del(.capabilities) | .args = ["/bin/sh", "-c",
      "grep ^Cap /proc/self/status; echo ---; grep ^Cap /proc/1/status"]' \
    "$BUNDLE/config.json" >"$BATS_TEST_TMPDIR/p.json"
  set_entitlements "$BUNDLE" network.user
  create_started ent "$BUNDLE" "$CTID"
  # What runc gives such a process ...
  exec_caps rnc "$BATS_TEST_TMPDIR/p.json"
  runc_out=$output
  init=$(printf '%s\n' "$output" | sed '1,/^---$/d')
  lacks_cap "$(cap_line "$init" CapEff)" $CAP_NET_RAW
  # ... and entitle: no more than runc, no more than init, in every set.
  exec_caps ent "$BATS_TEST_TMPDIR/p.json"
  self=$(printf '%s\n' "$output" | sed '/^---$/,$d')
  runc_self=$(printf '%s\n' "$runc_out" | sed '/^---$/,$d')
  for set in CapInh CapPrm CapEff CapBnd CapAmb; do
    caps_within "$(cap_line "$runc_self" $set)" "$(cap_line "$init" $set)" "runc's exec $set"
    caps_within "$(cap_line "$self" $set)" "$(cap_line "$init" $set)" "entitle's exec $set (init's is the bound)"
    caps_within "$(cap_line "$self" $set)" "$(cap_line "$runc_self" $set)" "entitle's exec $set (runc's is the bound)"
  done
}

@test "require: a requested egress rule wider than the admin's floor is refused, naming both" {
  make_bundle "$BUNDLE"
  write_entitle_config '{"require": ["network.egress=10.0.0.1/32"]}'
  for wide in 0.0.0.0/0 10.0.0.0/24 10.0.0.2/32; do
    set_entitlements "$BUNDLE" "network.egress=$wide"
    snapshot
    run_detached ent create -b "$BUNDLE" "$CTID"
    refused
    names_both 10.0.0.1/32 "$wide"
  done
  # A port floor: the whole address, or another port, is wider.
  write_entitle_config '{"require": ["network.egress=10.0.0.1/32:443"]}'
  for wide in 10.0.0.1/32 10.0.0.1/32:80 10.0.0.1/32:443-444; do
    set_entitlements "$BUNDLE" "network.egress=$wide"
    snapshot
    run_detached ent create -b "$BUNDLE" "$CTID"
    refused
    names_both 10.0.0.1/32:443 "$wide"
  done
}

@test "require: a requested egress rule inside the floor is accepted, and then only it applies" {
  net_bundle "$BUNDLE" "connect 10.0.0.1 443" "connect 10.0.0.1 80"
  run_bundle rnc
  expect_lines "connect 10.0.0.1 443: ECONNREFUSED" "connect 10.0.0.1 80: ECONNREFUSED"
  write_entitle_config '{"require": ["network.egress=10.0.0.1/32"]}'
  # The floor alone allows every port of 10.0.0.1 ...
  run_bundle ent "$BUNDLE" "$CTID-floor"
  expect_lines "connect 10.0.0.1 443: ECONNREFUSED" "connect 10.0.0.1 80: ECONNREFUSED"
  # ... the narrower request only 443.
  set_entitlements "$BUNDLE" network.egress=10.0.0.1/32:443
  run_bundle ent "$BUNDLE" "$CTID-narrow"
  expect_lines "connect 10.0.0.1 443: ECONNREFUSED" "connect 10.0.0.1 80: EPERM"
}

@test "require: a requested bind range outside the admin's floor is refused, naming both" {
  make_bundle "$BUNDLE"
  write_entitle_config '{"require": ["network.bind=8000-8999"]}'
  for wide in 1-65535 9000 7999-8000 8000-9000; do
    set_entitlements "$BUNDLE" "network.bind=$wide"
    snapshot
    run_detached ent create -b "$BUNDLE" "$CTID"
    refused
    names_both 8000-8999 "$wide"
  done
}

@test "require: a requested bind range inside the floor is accepted, and then only it applies" {
  probe_bundle "$BUNDLE" "bind 8080" "bind 8081"
  run_bundle rnc
  expect_lines "bind 8080: ok" "bind 8081: ok"
  write_entitle_config '{"require": ["network.bind=8000-8999"]}'
  run_bundle ent "$BUNDLE" "$CTID-floor"
  expect_lines "bind 8080: ok" "bind 8081: ok"
  set_entitlements "$BUNDLE" network.bind=8080
  run_bundle ent "$BUNDLE" "$CTID-narrow"
  expect_lines "bind 8080: ok" "bind 8081: EPERM"
}

# entitle's limit on network.bind ranges per container (entitlements(7)).
BIND_MAX=8

# bind_ranges N: N network.bind items of one port each, none adjacent.
bind_ranges() {
  local i items=()
  for i in $(seq "$1"); do
    items+=("network.bind=$((9000 + 2 * i))")
  done
  local IFS=,
  echo "${items[*]}"
}

@test "network.bind: more ranges than entitle holds are refused at create, also under on_unenforceable warn; the required egress never lapses" {
  write_entitle_config "{\"on_unenforceable\": \"warn\", \"require\": [\"network.egress=$ADDR_A/32:80\"]}"
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" "$(bind_ranges $((BIND_MAX + 1)))"
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused network.bind

  # At the limit it runs, with every restriction in force.
  net_bundle "$BUNDLE" "connect $ADDR_A 80" "connect $ADDR_B 80" "bind 9002" "bind 9003"
  set_entitlements "$BUNDLE" "$(bind_ranges "$BIND_MAX")"
  run_bundle ent
  expect_lines "connect $ADDR_A 80: ECONNREFUSED" "connect $ADDR_B 80: EPERM" "bind 9002: ok" "bind 9003: EPERM"
}

@test "network.egress: refused together with network.proxy, network.admin, network.host or security.insecure, naming both" {
  make_bundle "$BUNDLE"
  write_entitle_config '{"grant": ["network.*", "network.host", "security.insecure"]}'
  for rung in network.proxy network.admin network.host security.insecure; do
    # Granted, the rung alone is accepted ...
    run --separate-stderr "$ENTITLE" --root "$ROOT" compile -b "$BUNDLE" --entitlements "$rung"
    [ "$status" -eq 0 ] || {
      echo "$rung alone: $stderr" >&2
      false
    }
    # ... with an egress allowlist it is a contradiction.
    set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32,$rung"
    snapshot
    run_detached ent create -b "$BUNDLE" "$CTID"
    refused network.egress "$rung"
  done
}
