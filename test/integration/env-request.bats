#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# ENTITLE_ENTITLEMENTS in process.env (issue 24, DESIGN §8 "Requests
# through the environment"): one more request source for engines that pass
# no annotation (Docker 20.10), with exactly the trust of the annotation:
# it asks, only the admin grants.  The annotation, when the config has it,
# is the whole request and process.env is not read; of duplicate entries
# the last is the request, as runc gives the workload the last; the
# variable stays in the workload's environment; an exec'd process's own
# environment chooses nothing.  Against real runc, each effect shown first
# under plain runc where the container can show it.

load attack-helpers

setup() {
  attack_setup
}

teardown() {
  attack_teardown
}

# env_request DIR VALUE...: append ENTITLE_ENTITLEMENTS=VALUE to the
# process's environment, once per VALUE, in order.
env_request() {
  local dir=$1 v
  shift
  for v in "$@"; do
    edit_config "$dir" '.process.env += ["ENTITLE_ENTITLEMENTS=" + $v]' --arg v "$v"
  done
}

# What the socket tests run: an inet and a unix socket, and the variable
# as the workload sees it.
SOCKETS='printf "inet: "; /probe socket inet; printf "unix: "; /probe socket unix; echo "env: ${ENTITLE_ENTITLEMENTS-unset}"'

applied() {
  jq -r '.annotations["io.entitle.applied"] // "none"' "$BUNDLE/config.json"
}

@test "process.env: ENTITLE_ENTITLEMENTS=network.none denies an inet socket (EPERM); the workload still sees the variable" {
  make_bundle "$BUNDLE" /bin/sh -c "$SOCKETS"
  env_request "$BUNDLE" network.none
  run_bundle rnc
  expect_lines "inet: ok" "unix: ok" "env: network.none"
  run_bundle ent
  expect_lines "inet: EPERM" "unix: ok" "env: network.none"
  [ "$(applied)" = network.none ]
  # The rewritten config keeps the variable, once.
  [ "$(jq '[.process.env[] | select(startswith("ENTITLE_ENTITLEMENTS="))] | length' "$BUNDLE/config.json")" = 1 ]
}

@test "process.env: a request that widens (security.admin) is refused naming the source, bundle untouched; granted, it applies" {
  make_bundle "$BUNDLE" /probe caps
  env_request "$BUNDLE" security.admin
  snapshot
  run_detached ent run -b "$BUNDLE" "$CTID"
  refused '"security.admin"' "process.env \`ENTITLE_ENTITLEMENTS\`" "not granted"

  write_entitle_config '{"grant": ["security.admin"]}'
  run_bundle ent
  [ "$status" -eq 0 ]
  has_cap "$(cap_line "$output" CapEff)" 21 # CAP_SYS_ADMIN
  [ "$(applied)" = security.admin ]
}

@test "process.env: a request wider than the admin's require is refused naming both and the source" {
  make_bundle "$BUNDLE" /bin/true
  write_entitle_config '{"require": ["network.user"], "grant": ["network.*"]}'
  env_request "$BUNDLE" network.proxy
  snapshot
  run_detached ent run -b "$BUNDLE" "$CTID"
  refused '"network.proxy"' '"network.user"' "process.env \`ENTITLE_ENTITLEMENTS\`"
}

@test "process.env and the annotation: the annotation, even empty, is the whole request and process.env is not read" {
  make_bundle "$BUNDLE" /bin/sh -c "$SOCKETS"
  env_request "$BUNDLE" network.none
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run_bundle ent
  expect_lines "inet: EPERM" "unix: ok" "env: network.none"

  # network.user allows an inet socket: only the annotation applied.
  cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
  set_entitlements "$BUNDLE" network.user
  run_bundle ent "$BUNDLE" "$CTID-a"
  expect_lines "inet: ok" "unix: ok" "env: network.none"
  [ "$(applied)" = network.user ]

  # An empty annotation asks for nothing, and the variable is not read:
  # not even a request that would be refused.
  cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
  env_request "$BUNDLE" security.insecure
  set_entitlements "$BUNDLE" ""
  sum=$(sha256sum <"$BUNDLE/config.json")
  run_bundle ent "$BUNDLE" "$CTID-b"
  expect_lines "inet: ok" "unix: ok" "env: security.insecure"
  [ "$(sha256sum <"$BUNDLE/config.json")" = "$sum" ]
}

@test "process.env: of duplicate entries the last is the request, the one runc gives the workload" {
  make_bundle "$BUNDLE" /bin/sh -c "$SOCKETS"
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  env_request "$BUNDLE" security.insecure network.none
  run_bundle rnc
  expect_lines "inet: ok" "unix: ok" "env: network.none"
  run_bundle ent "$BUNDLE" "$CTID-a"
  expect_lines "inet: EPERM" "unix: ok" "env: network.none"

  cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
  env_request "$BUNDLE" network.none security.insecure
  snapshot
  run_detached ent run -b "$BUNDLE" "$CTID"
  refused '"security.insecure"' "process.env \`ENTITLE_ENTITLEMENTS\`"
}

@test "process.env: only a variable named exactly ENTITLE_ENTITLEMENTS asks; an empty one asks nothing, the config byte for byte untouched" {
  make_bundle "$BUNDLE" /bin/sh -c "$SOCKETS"
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  env_request "$BUNDLE" network.none
  run_bundle ent
  expect_lines "inet: EPERM" "unix: ok" "env: network.none"

  for env in "MY_ENTITLE_ENTITLEMENTS=network.none" "ENTITLE_ENTITLEMENTS_X=network.none" \
    "entitle_entitlements=network.none" "ENTITLE_ENTITLEMENTS=" "ENTITLE_ENTITLEMENTS= "; do
    cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
    edit_config "$BUNDLE" '.process.env += [$e]' --arg e "$env"
    sum=$(sha256sum <"$BUNDLE/config.json")
    run_bundle ent "$BUNDLE" "$CTID-$((n++))"
    [ "${lines[0]}" = "inet: ok" ]
    if [ "$(sha256sum <"$BUNDLE/config.json")" != "$sum" ]; then
      echo "with $env the config was rewritten" >&2
      false
    fi
  done
}

@test "process.env: a malformed request is one error line naming the source, bundle untouched" {
  make_bundle "$BUNDLE" /bin/true
  env_request "$BUNDLE" network.nnoe
  snapshot
  run_detached ent run -b "$BUNDLE" "$CTID"
  refused "process.env \`ENTITLE_ENTITLEMENTS\`" "unknown entitlement \`network.nnoe\`" "did you mean \`network.none\`?"
}

# started_env VALUE: a running container of $BUNDLE (sleeping) that asks
# for VALUE through process.env (nothing if empty); config.orig is the
# engine's config, before entitle.
started_env() {
  make_bundle "$BUNDLE"
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  [ -z "$1" ] || env_request "$BUNDLE" "$1"
  create_started ent "$BUNDLE" "$CTID"
}

# exec_process FILE ENV ARG...: the engine's process (config.orig's: full
# default capabilities) with ENTITLE_ENTITLEMENTS=ENV added, running ARG....
exec_process() {
  local file=$1 env=$2
  shift 2
  jq '.process | .args = $args | .env += ["ENTITLE_ENTITLEMENTS=" + $e]' --arg e "$env" \
    --argjson args "$(printf '%s\n' "$@" | jq -R . | jq -s .)" "$BATS_TEST_TMPDIR/config.orig" >"$file"
}

@test "exec: ENTITLE_ENTITLEMENTS in an exec'd process's environment chooses nothing: the container's request holds, and without one runc's capabilities exactly" {
  started_env network.none
  p="$BATS_TEST_TMPDIR/p.json"
  for asked in security.insecure network.admin ""; do
    exec_process "$p" "$asked" /bin/sh -c '/probe caps; /probe socket inet'
    jq -e '.capabilities.effective | index("CAP_NET_RAW")' "$p" >/dev/null
    # The probe's status says what it got: 1 for EPERM.
    run --separate-stderr ent exec --process "$p" "$CTID"
    [ -z "$stderr" ]
    [ "${lines[-1]}" = EPERM ]
    for set in CapEff CapPrm CapBnd; do
      lacks_cap "$(cap_line "$output" $set)" $CAP_NET_RAW
      lacks_cap "$(cap_line "$output" $set)" 21 # CAP_SYS_ADMIN
    done
  done
  # runc's own --env flag, without --process.
  run --separate-stderr ent exec --env ENTITLE_ENTITLEMENTS=security.insecure "$CTID" /probe socket inet
  [ -z "$stderr" ]
  [ "$output" = EPERM ]

  # A container that asks for nothing: the exec'd process gets exactly
  # its file's capabilities, as under runc, and the file is untouched.
  CTID="$CTID-none" BUNDLE="$BATS_TEST_TMPDIR/bundle-none"
  started_env ""
  exec_process "$p" security.insecure /probe caps
  want=$(cap_mask $(jq -r '.[]' <<<"$DEFAULT_CAPS"))
  sum=$(sha256sum <"$p")
  run --separate-stderr ent exec --process "$p" "$CTID"
  [ "$status" -eq 0 ]
  same_mask "$(cap_line "$output" CapEff)" "$want" "CapEff"
  same_mask "$(cap_line "$output" CapBnd)" "$want" "CapBnd"
  [ "$(sha256sum <"$p")" = "$sum" ]
}

@test "process.env: a cgroup BPF part (network.egress) is enforced by entitle-hook; why and inspect name the source" {
  STATE="$BATS_TEST_TMPDIR/state"
  write_entitle_config "{\"state_dir\": \"$STATE\", \"defaults\": [\"security.confined\"]}"
  net_bundle "$BUNDLE" "connect $ADDR_A 80" "connect $ADDR_B 80"
  run_bundle rnc
  expect_lines "connect $ADDR_A 80: ECONNREFUSED" "connect $ADDR_B 80: ECONNREFUSED"
  env_request "$BUNDLE" "network.egress=$ADDR_A/32:80"
  run_bundle ent
  expect_lines "connect $ADDR_A 80: ECONNREFUSED" "connect $ADDR_B 80: EPERM"

  run --separate-stderr "$ENTITLE" --root "$ROOT" why "$CTID"
  [ "$status" -eq 0 ]
  [ "${lines[0]:21}" = "$CTID: connect to $ADDR_B:80 (tcp): denied by network.egress=$ADDR_A/32:80, from process.env \`ENTITLE_ENTITLEMENTS\` (cgroup BPF connect4); allowed by network.egress=$ADDR_B/32:80" ]
  run "$ENTITLE" --root "$ROOT" why "$CTID" --json
  [ "$(jq -r '.denials[0] | [.denied_by, .denied_by_source] | join(" ")' <<<"$output")" = \
    "network.egress=$ADDR_A/32:80 env" ]

  # inspect reads a running container: the same request, kept running.
  make_bundle "$BUNDLE"
  env_request "$BUNDLE" "network.egress=$ADDR_A/32:80"
  create_started ent "$BUNDLE" "$CTID-i"
  run --separate-stderr "$ENTITLE" --root "$ROOT" inspect "$CTID-i"
  [ "$status" -eq 0 ]
  grep -qxF "  sources: network.egress=$ADDR_A/32:80 from process.env \`ENTITLE_ENTITLEMENTS\`; security.confined from the admin config's \`defaults\`" <<<"$output"
  run "$ENTITLE" --root "$ROOT" inspect --json "$CTID-i"
  [ "$(jq -r '.. | objects | select(has("sources")) | .sources | to_entries | map(.key + "=" + .value) | join(" ")' <<<"$output")" = \
    "network.egress=$ADDR_A/32:80=env security.confined=defaults" ]
}

@test "process.env through crun: the last of duplicate entries is the request, the one crun gives the workload" {
  require_crun
  use_crun
  make_bundle "$BUNDLE" /bin/sh -c "$SOCKETS"
  env_request "$BUNDLE" security.insecure network.none
  run_bundle crn
  expect_lines "inet: ok" "unix: ok" "env: network.none"
  run_bundle ent_crun
  expect_lines "inet: EPERM" "unix: ok" "env: network.none"
  [ "$(applied)" = network.none ]
}
