#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Admin rungs versus entitle's enforcement (issue 23, class 2; DESIGN §8
# "Admin rungs versus BPF policy"): a container granted security.admin or
# host.devices.admin holds CAP_SYS_ADMIN in the host's user namespace.
# Each attack runs first under plain runc with the privileges the grant
# gives (the capabilities entitle compiles for it, and nothing else of
# entitle's rewrite, as an engine's --cap-add would), where the container
# shows from inside that it reached another container's policy or left
# its cgroup; then through entitle, where it must not, and the other
# tenant's egress still holds.  The other tenant is a container of the
# test's own, held to network.egress=A in $NETNS.

load attack-helpers

setup() {
  attack_setup
  write_entitle_config '{"grant": ["security.admin", "host.devices.admin", "host.processes.admin"]}'
  # The cgroups a probe makes (by its name) below the cgroup2 root when
  # nothing holds it to its own.
  STRAY="entitle-atk-$$-$BATS_TEST_NUMBER"
}

teardown() {
  local mnt
  attack_teardown
  mnt=$(cgroup2_root)
  [ ! -d "$mnt/$STRAY" ] || rmdir "$mnt/$STRAY" 2>/dev/null || true
}

# cgroup2_root: where this host mounts cgroup2.
cgroup2_root() {
  awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo
}

# nsdelegate: the host's cgroup2 is mounted with nsdelegate, where the
# kernel refuses a migration that the writer's cgroup namespace does not
# see (systemd's cgroup2-only hosts; not this project's hybrid CI host).
nsdelegate() {
  sed -n 's/.* - cgroup2 [^ ]* //p' /proc/self/mountinfo | head -n 1 | grep -q nsdelegate
}

# victim_start NAME: another tenant's container $CTID-NAME, held to
# network.egress=$ADDR_A/32 in $NETNS and started through entitle: its
# cgroup (below the cgroup2 root) in VICTIM_CG, the cgroup's id (what the
# policy is keyed by) in VICTIM_ID.  Its egress holds to begin with.
victim_start() {
  local dir="$BATS_TEST_TMPDIR/$1" pid
  make_bundle "$dir" /probe sleep 600
  join_netns "$dir"
  set_entitlements "$dir" "network.egress=$ADDR_A/32"
  create_started ent "$dir" "$CTID-$1"
  pid=$(ent state "$CTID-$1" | jq -r .pid)
  VICTIM_CG=$(sed -n 's/^0:://p' "/proc/$pid/cgroup")
  VICTIM_ID=$(stat -c %i "$(cgroup_dir "$pid")")
  victim_egress "$1" EPERM
}

# victim_egress NAME WANT: the victim's connect to the unlisted $ADDR_B
# gives WANT (EPERM while its egress holds, ECONNREFUSED once it is gone).
victim_egress() {
  run ent exec "$CTID-$1" /probe connect "$ADDR_B" 80
  expect_lines "$2"
}

# attacker DIR ENTITLEMENTS ARG...: a bundle in $NETNS that runs ARG...
# and requests ENTITLEMENTS, in the engine's cgroup namespace, as Docker's
# --cgroupns=host and runc's spec on a hybrid host give it (runc's spec on
# a cgroup2-only host has a cgroup namespace of its own).
attacker() {
  local dir=$1 ents=$2
  shift 2
  make_bundle "$dir" "$@"
  join_netns "$dir"
  set_entitlements "$dir" "$ents"
  edit_config "$dir" '.linux.namespaces |= map(select(.type != "cgroup"))'
}

# as_engine DIR: DIR's config as an engine gives the privileges of its
# entitlements without entitle: the capabilities entitle compiles for them
# and nothing else (no annotation, no hook, the engine's namespaces and
# seccomp section).
as_engine() {
  local caps
  caps=$("$ENTITLE" compile -b "$1" 2>/dev/null | jq -c '.process.capabilities')
  edit_config "$1" '.process.capabilities = $c | del(.annotations["io.entitle.entitlements"])' --argjson c "$caps"
}

# moved_to CGROUP [LINE...]: $output (a cgroup-move or cgroup-handle
# probe) is "ok", the probe's cgroup line for CGROUP, then LINE... (what
# the command it ran there printed).
moved_to() {
  expect_lines ok "0::$1" "${@:2}"
}

@test "security.admin, host.devices.admin: bpf(2) reaches no other container's policy (its map by id)" {
  victim_start v1
  attacker "$BATS_TEST_TMPDIR/atk" security.admin /probe bpf-policy "$VICTIM_ID" zero
  as_engine "$BATS_TEST_TMPDIR/atk"
  run_bundle rnc "$BATS_TEST_TMPDIR/atk" "$CTID-runc"
  expect_lines rewrote
  victim_egress v1 ECONNREFUSED

  victim_start v2
  for rung in security.admin host.devices.admin; do
    attacker "$BATS_TEST_TMPDIR/atk" "$rung" /probe bpf-policy "$VICTIM_ID" zero
    run_bundle ent "$BATS_TEST_TMPDIR/atk" "$CTID-$rung"
    expect_lines EPERM
  done
  victim_egress v2 EPERM
}

@test "security.admin: a cgroup2 mount reaches no cgroup but its own, and its own egress holds" {
  victim_start v
  attacker "$BATS_TEST_TMPDIR/atk" "security.admin,network.egress=$ADDR_A/32" \
    /probe cgroup-move /dev/c "${VICTIM_CG#/}"
  as_engine "$BATS_TEST_TMPDIR/atk"
  run_bundle rnc "$BATS_TEST_TMPDIR/atk" "$CTID-runc"
  moved_to "$VICTIM_CG"

  attacker "$BATS_TEST_TMPDIR/atk" "security.admin,network.egress=$ADDR_A/32" /bin/sh -c \
    "/probe cgroup-move /dev/c '${VICTIM_CG#/}'; /probe cgroup-move /dev/d ..; /probe cgroup-move /dev/e '' /probe connect $ADDR_B 80"
  run_bundle ent "$BATS_TEST_TMPDIR/atk" "$CTID-ent"
  expect_lines ENOENT ENOENT ok "0::/" EPERM
  victim_egress v EPERM
}

@test "security.admin: a cgroup the container makes keeps the egress of its own" {
  script="mkdir /dev/c && mount -t cgroup2 none /dev/c && mkdir /dev/c/$STRAY && /probe cgroup-move /dev/d $STRAY /probe connect $ADDR_B 80"
  # Under plain runc, in a cgroup namespace as entitle gives it: the move is
  # real, and nothing holds the container there.
  attacker "$BATS_TEST_TMPDIR/atk" "security.admin,network.egress=$ADDR_A/32" /bin/sh -c "$script"
  as_engine "$BATS_TEST_TMPDIR/atk"
  edit_config "$BATS_TEST_TMPDIR/atk" '.linux.namespaces += [{type: "cgroup"}]'
  run_bundle rnc "$BATS_TEST_TMPDIR/atk" "$CTID-runc"
  moved_to "/$STRAY" ECONNREFUSED

  attacker "$BATS_TEST_TMPDIR/atk" "security.admin,network.egress=$ADDR_A/32" /bin/sh -c "$script"
  run_bundle ent "$BATS_TEST_TMPDIR/atk" "$CTID-ent"
  moved_to "/$STRAY" EPERM
}

@test "security.admin: a cgroup's handle (open_by_handle_at) reaches no other cgroup" {
  victim_start v
  attacker "$BATS_TEST_TMPDIR/atk" security.admin /probe cgroup-handle /dev/c "$VICTIM_ID"
  as_engine "$BATS_TEST_TMPDIR/atk"
  run_bundle rnc "$BATS_TEST_TMPDIR/atk" "$CTID-runc"
  moved_to "$VICTIM_CG"
  # A cgroup namespace bounds paths, not handles: only nsdelegate makes
  # the kernel refuse the write.
  edit_config "$BATS_TEST_TMPDIR/atk" '.linux.namespaces += [{type: "cgroup"}]'
  run_bundle rnc "$BATS_TEST_TMPDIR/atk" "$CTID-runc-ns"
  if nsdelegate; then
    expect_lines ENOENT
  else
    [ "${lines[0]}" = ok ]
  fi

  attacker "$BATS_TEST_TMPDIR/atk" security.admin /probe cgroup-handle /dev/c "$VICTIM_ID"
  run_bundle ent "$BATS_TEST_TMPDIR/atk" "$CTID-ent"
  expect_lines EPERM
  victim_egress v EPERM
}

@test "security.admin, host.devices.admin: refused with host.processes.admin or in the engine's host pid namespace, naming both" {
  # There, setns(2) joins the host's cgroup namespace, whose cgroup2
  # mount shows every container's cgroup.
  attacker "$BATS_TEST_TMPDIR/atk" security.admin /probe cgroup-setns $$ /dev/c
  as_engine "$BATS_TEST_TMPDIR/atk"
  # What host.processes.admin adds to it.
  edit_config "$BATS_TEST_TMPDIR/atk" '.linux.namespaces |= map(select(.type != "pid"))'
  run_bundle rnc "$BATS_TEST_TMPDIR/atk" "$CTID-runc"
  [ "${lines[0]}" = ok ]
  [ "${lines[1]}" -gt 0 ]

  for rung in security.admin host.devices.admin; do
    attacker "$BUNDLE" "$rung,host.processes.admin" /probe cgroup-setns $$ /dev/c
    snapshot
    run_detached ent create -b "$BUNDLE" "$CTID"
    refused "\`$rung\`" "\`host.processes.admin\`" setns
    # The engine's host pid namespace (Docker's --pid=host).
    attacker "$BUNDLE" "$rung" /probe cgroup-setns $$ /dev/c
    edit_config "$BUNDLE" '.linux.namespaces |= map(select(.type != "pid"))'
    snapshot
    run_detached ent create -b "$BUNDLE" "$CTID"
    refused "\`$rung\`" "host's pid namespace"
  done
}

@test "security.admin: a cgroup v1 hierarchy's release_agent is out of reach" {
  attacker "$BATS_TEST_TMPDIR/atk" security.admin /probe release-agent /dev/v
  as_engine "$BATS_TEST_TMPDIR/atk"
  run_bundle rnc "$BATS_TEST_TMPDIR/atk" "$CTID-runc"
  if [ "$output" != ok ]; then
    skip "this kernel mounts no cgroup v1 hierarchy of no controller: $output"
  fi

  attacker "$BATS_TEST_TMPDIR/atk" security.admin /probe release-agent /dev/v
  run_bundle ent "$BATS_TEST_TMPDIR/atk" "$CTID-ent"
  expect_lines EPERM
}

@test "security.admin: beside cgroup BPF where crun manages no cgroup, refused naming both; held where it manages one" {
  require_crun
  attacker "$BUNDLE" "security.admin,network.egress=$ADDR_A/32" /probe cgroup-move /dev/c '' /probe connect "$ADDR_B" 80
  write_entitle_config "{\"runtime\": \"$CRUN_BIN\", \"grant\": [\"security.admin\"]}"
  snapshot
  run_detached ent_crun create -b "$BUNDLE" "$CTID"
  if [ "${#CRUN_MANAGER[@]}" -gt 0 ]; then
    refused "\`security.admin\`" "\`network.egress\`" "cgroup-manager=disabled"
  else
    [ "$status" -eq 0 ]
    ent_crun delete -f "$CTID"
    run_bundle ent_crun
    moved_to / EPERM
  fi
}

@test "network.user on a config without a capabilities object: no capability, as runc gives none (not CAP_SYS_ADMIN and the rest)" {
  make_bundle "$BUNDLE" /probe caps
  edit_config "$BUNDLE" 'del(.process.capabilities)'
  run_bundle rnc "$BUNDLE" "$CTID-runc"
  same_mask "$(cap_line "$output" CapBnd)" 0 "runc's bounding set"

  set_entitlements "$BUNDLE" network.user
  run_bundle ent
  [ "$status" -eq 0 ]
  same_mask "$(cap_line "$output" CapBnd)" 0 "the bounding set"
  same_mask "$(cap_line "$output" CapEff)" 0 "the effective set"
}
