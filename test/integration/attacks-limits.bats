#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Attacks on entitle's limits (issue 10, classes 11, 12 and 16): the
# per-container BPF capacity, two containers in one cgroup, and configs
# near the 16 MiB limit.  Each runs first under plain runc, then through
# entitle.

load attack-helpers

# entitle's limit on network.egress rules per container (entitlements(7)).
EGRESS_MAX=64

setup() {
  # 10.201.0.1 and .64 are listed by the big container, .65 is not.
  attack_setup 10.201.0.1 10.201.0.64 10.201.0.65
}

teardown() {
  attack_teardown
}

# egress_rules N: N network.egress items, 10.201.0.1/32:80 upwards.
egress_rules() {
  local i items=()
  for i in $(seq "$1"); do
    items+=("network.egress=10.201.$((i / 256)).$((i % 256))/32:80")
  done
  local IFS=,
  echo "${items[*]}"
}

@test "network.egress: a container at the rule limit and the next container each get their own policy; one rule more is refused" {
  make_bundle "$BUNDLE" /bin/sh -c 'sleep 600'
  join_netns "$BUNDLE"
  cp -r "$BUNDLE" "$BATS_TEST_TMPDIR/b2"
  probes='/probe connect 10.201.0.1 80; /probe connect 10.201.0.64 80; /probe connect 10.201.0.65 80'
  create_started rnc "$BUNDLE" "$CTID-runc"
  run rnc exec "$CTID-runc" /bin/sh -c "$probes"
  expect_lines ECONNREFUSED ECONNREFUSED ECONNREFUSED

  set_entitlements "$BUNDLE" "$(egress_rules "$EGRESS_MAX")"
  create_started ent "$BUNDLE" "$CTID-a"
  set_entitlements "$BATS_TEST_TMPDIR/b2" "network.egress=$ADDR_A/32:80"
  create_started ent "$BATS_TEST_TMPDIR/b2" "$CTID-b"
  run ent exec "$CTID-a" /bin/sh -c "$probes"
  expect_lines ECONNREFUSED ECONNREFUSED EPERM
  run ent exec "$CTID-b" /bin/sh -c "/probe connect $ADDR_A 80; /probe connect $ADDR_B 80"
  expect_lines ECONNREFUSED EPERM

  set_entitlements "$BUNDLE" "$(egress_rules $((EGRESS_MAX + 1)))"
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused network.egress
}

@test "network.egress: a second container in the first one's cgroup is refused, and the first keeps its policy" {
  make_bundle "$BUNDLE" /bin/sh -c 'sleep 600'
  join_netns "$BUNDLE"
  cg="entitle-atk-shared-$$-$BATS_TEST_NUMBER"
  edit_config "$BUNDLE" '.linux.cgroupsPath = $p' --arg p "/$cg"
  cp -r "$BUNDLE" "$BATS_TEST_TMPDIR/b2"
  # runc runs both in the one cgroup.
  create_started rnc "$BUNDLE" "$CTID-runc1"
  create_started rnc "$BATS_TEST_TMPDIR/b2" "$CTID-runc2"
  [ "$(rnc state "$CTID-runc2" | jq -r .status)" = running ]
  [ "$(sed -n 's/^0:://p' "/proc/$(rnc state "$CTID-runc1" | jq -r .pid)/cgroup")" = \
    "$(sed -n 's/^0:://p' "/proc/$(rnc state "$CTID-runc2" | jq -r .pid)/cgroup")" ]
  rnc delete -f "$CTID-runc2" 2>/dev/null
  rnc delete -f "$CTID-runc1"

  set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32:80"
  set_entitlements "$BATS_TEST_TMPDIR/b2" "network.egress=$ADDR_B/32:80"
  create_started ent "$BUNDLE" "$CTID-a"
  run_detached ent create -b "$BATS_TEST_TMPDIR/b2" "$CTID-b"
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"entitle: "*"$cg"* ]] || {
    echo "the refusal does not name the cgroup $cg: $stderr" >&2
    false
  }
  run ent state "$CTID-b"
  [ "$status" -ne 0 ] || [ "$(jq -r .status <<<"$output")" = stopped ]
  [ "$(ent state "$CTID-a" | jq -r .status)" = running ]
  run ent exec "$CTID-a" /bin/sh -c "/probe connect $ADDR_A 80; /probe connect $ADDR_B 80"
  expect_lines ECONNREFUSED EPERM
}

# pad_config DIR BYTES SHAPE: grow DIR/config.json, written compact as
# engines write it, to BYTES (give or take one entry) with entries runc
# accepts: SHAPE "labels" adds annotations with short keys (an image's
# many labels), 17 bytes each; "rlimits" appends RLIMIT_CORE 0 to
# process.rlimits again and again, 41 bytes each: small objects in an
# array, the shape pretty-printing bloats most (11 MB become 18 MB).
pad_config() {
  local dir=$1 want=$2 shape=$3 have n filter
  have=$(jq -c . "$dir/config.json" | wc -c)
  case "$shape" in
    labels)
      n=$(((want - have) / 16))
      awk -v n="$n" 'BEGIN { printf "{"; for (i = 0; i < n; i++) printf "%s\"l.%07d\":\"v\"", (i ? "," : ""), i; print "}" }' \
        >"$BATS_TEST_TMPDIR/pad.json"
      filter='.annotations += $pad[0]'
      ;;
    rlimits)
      n=$(((want - have) / 41))
      awk -v n="$n" 'BEGIN { printf "["; for (i = 0; i < n; i++) printf "%s{\"type\":\"RLIMIT_CORE\",\"hard\":0,\"soft\":0}", (i ? "," : ""); print "]" }' \
        >"$BATS_TEST_TMPDIR/pad.json"
      filter='.process.rlimits += $pad[0]'
      ;;
  esac
  jq -c "$filter" --slurpfile pad "$BATS_TEST_TMPDIR/pad.json" "$dir/config.json" >"$dir/config.json.new"
  mv "$dir/config.json.new" "$dir/config.json"
  rm -f "$BATS_TEST_TMPDIR/pad.json"
}

# request_compact DIR LIST: set_entitlements, keeping config.json compact.
request_compact() {
  jq -c '.annotations["io.entitle.entitlements"] = $e' --arg e "$2" "$1/config.json" >"$1/config.json.new"
  mv "$1/config.json.new" "$1/config.json"
}

@test "entitle: an 11 MB config.json that runc runs runs with security.confined and network.egress (compact rewrite)" {
  for shape in rlimits labels; do
    net_bundle "$BUNDLE" "connect $ADDR_A 80" "connect $ADDR_B 80"
    pad_config "$BUNDLE" $((11 * 1000 * 1000)) $shape
    size=$(stat -c %s "$BUNDLE/config.json")
    [ "$size" -gt $((10900 * 1000)) ]
    cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
    run_bundle rnc "$BUNDLE" "$CTID-runc-$shape"
    expect_lines "connect $ADDR_A 80: ECONNREFUSED" "connect $ADDR_B 80: ECONNREFUSED"

    request_compact "$BUNDLE" "security.confined,network.egress=$ADDR_A/32:80"
    run_bundle ent "$BUNDLE" "$CTID-$shape"
    if ! expect_lines "connect $ADDR_A 80: ECONNREFUSED" "connect $ADDR_B 80: EPERM"; then
      echo "($shape: config.json is $(stat -c %s "$BUNDLE/config.json") bytes after the rewrite)" >&2
      false
    fi
    # The rewrite is compact: below the limit, and near the input's size.
    out=$(stat -c %s "$BUNDLE/config.json")
    [ "$out" -lt $((16 * 1024 * 1024)) ]
    [ "$out" -lt $((size + 1024 * 1024)) ] || {
      echo "$shape: the rewrite is $out bytes for $size bytes of input" >&2
      false
    }
    # Nothing of the input is lost: the request and entitle's two records
    # are the only annotations added.
    count='(.annotations | length) + (.process.rlimits | length)'
    [ "$(jq "$count" "$BUNDLE/config.json")" -eq $(($(jq "$count" "$BATS_TEST_TMPDIR/config.orig") + 3)) ]
  done
}

# The bound entitle keeps (docs/design.md): a parsed node is 32 bytes with
# its text and key, so the densest shape here (an object of three members
# every 41 bytes) takes about 10 times its size, annotations about 8.
@test "entitle: a 15.7 MB config.json compiles with a peak RSS below 12 times its size" {
  if [ ! -x /usr/bin/time ]; then
    skip "needs GNU time (Debian package time) to measure the peak RSS"
  fi
  for shape in rlimits labels; do
    make_bundle "$BUNDLE"
    pad_config "$BUNDLE" $((15700 * 1000)) $shape
    request_compact "$BUNDLE" "security.confined,network.egress=$ADDR_A/32:80"
    size=$(stat -c %s "$BUNDLE/config.json")
    [ "$size" -gt $((15600 * 1000)) ]
    [ "$size" -lt $((16 * 1024 * 1024)) ]
    run --separate-stderr /usr/bin/time -f 'maxrss %M' -o "$BATS_TEST_TMPDIR/time" \
      "$ENTITLE" --root "$ROOT" compile -b "$BUNDLE"
    [ "$status" -eq 0 ] || {
      echo "$shape: compile failed ($status): $stderr" >&2
      false
    }
    [ "$(printf '%s\n' "$output" | jq -r '.annotations["io.entitle.applied"]')" = \
      "network.egress=$ADDR_A/32:80,security.confined" ]
    kib=$(sed -n 's/^maxrss //p' "$BATS_TEST_TMPDIR/time")
    echo "# $shape: peak RSS $kib KiB for $size bytes ($((kib * 1024 * 10 / size)) tenths of the input)" >&3
    [ $((kib * 1024)) -lt $((12 * size)) ] || {
      echo "$shape: peak RSS $kib KiB is not below 12 x $size bytes" >&2
      false
    }
  done
}
