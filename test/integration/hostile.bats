#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Hostile bundles (test/README.md, "Hostile input"): each requests an
# entitlement, so that entitle has to read and write config.json, and
# each gets one "entitle: " error line (or, where the input is valid, a
# correct run), an untouched bundle, within 10 s and 256 MiB of address
# space.  badinput.bats has the symlinks out of the bundle, malformed
# JSON and the 17 MiB file; these are the rest.

load helpers

# The bounds every case runs in: a hang or a runaway allocation fails.
LIMIT_AS=$((256 << 20))

bounded() {
  timeout 10 prlimit --as="$LIMIT_AS" "$@"
}

# hostile_create: create through entitle, bounded.
hostile_create() {
  run_detached bounded "$ENTITLE" --root "$ROOT" create -b "$BUNDLE" "$CTID"
  if [ "$status" -eq 124 ]; then
    echo "entitle hung (killed after 10 s)" >&2
    return 1
  fi
}

# prepend_member TEXT: insert TEXT (raw bytes: `"key": value,`) as the
# first member of config.json's top-level object.
prepend_member() {
  local f="$BUNDLE/config.json"
  { printf '{'; printf '%s' "$1"; tail -c +2 "$f"; } >"$f.new"
  mv "$f.new" "$f"
}

# nested N OPEN CLOSE: OPEN N times, then CLOSE N times.
nested() {
  printf "%$1s" "" | sed "s/ /$2/g"
  printf "%$1s" "" | sed "s/ /$3/g"
}

# ran_ok: the container created by the last call runs and prints "ran".
ran_ok() {
  rnc start "$CTID"
  wait_status rnc "$CTID" stopped
  [ "$(cat "$BATS_TEST_TMPDIR/ran.out")" = ran ]
}

# run_bundle_bounded: create through entitle (bounded in time; the runtime
# it execs is not bounded in memory: a Go runtime reserves more address
# space than that), then run the container.
run_valid() {
  timeout 10 "$ENTITLE" --root "$ROOT" create -b "$BUNDLE" "$CTID" </dev/null \
    >"$BATS_TEST_TMPDIR/ran.out" 2>"$BATS_TEST_TMPDIR/ran.err" || {
    cat "$BATS_TEST_TMPDIR/ran.err" >&2
    return 1
  }
  ran_ok
}

@test "hostile: config.json that is a FIFO is refused at once, with or without a writer" {
  make_bundle "$BUNDLE"
  # No annotation can reach entitle through a FIFO nobody writes: the
  # admin's floor makes it read the config.
  write_entitle_config '{"require": ["network.none"]}'
  rm "$BUNDLE/config.json"
  mkfifo "$BUNDLE/config.json"
  snapshot
  hostile_create
  refused "config.json" "not a regular file"

  # A writer waiting to feed it a config that requests an entitlement.
  rm -f "$BUNDLE/config.json"
  make_bundle "$BATS_TEST_TMPDIR/src"
  set_entitlements "$BATS_TEST_TMPDIR/src" network.none
  mkfifo "$BUNDLE/config.json"
  rm "$ENTITLE_CONFIG"
  export ENTITLE_CONFIG=
  cat "$BATS_TEST_TMPDIR/src/config.json" >"$BUNDLE/config.json" 2>/dev/null &
  writer=$!
  snapshot
  hostile_create
  kill "$writer" 2>/dev/null || true
  refused "config.json" "not a regular file"
}

@test "hostile: config.json that is a symlink to a FIFO, or to /dev/zero, is refused" {
  make_bundle "$BUNDLE"
  write_entitle_config '{"require": ["network.none"]}'
  mkfifo "$BATS_TEST_TMPDIR/fifo"
  for target in "$BATS_TEST_TMPDIR/fifo" /dev/zero; do
    rm -f "$BUNDLE/config.json"
    ln -s "$target" "$BUNDLE/config.json"
    snapshot
    hostile_create
    refused "config.json" "not a regular file"
    [ -L "$BUNDLE/config.json" ]
  done
}

@test "hostile: /dev/zero bind-mounted over config.json is refused" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  # A private mount namespace: nothing to clean up if the test fails.
  cat >"$BATS_TEST_TMPDIR/zero.sh" <<'SH'
mount --bind /dev/zero "$BUNDLE/config.json" || exit 99
timeout 10 prlimit --as="$LIMIT_AS" "$ENTITLE" --root "$ROOT" create -b "$BUNDLE" "$CTID"
SH
  run_detached env BUNDLE="$BUNDLE" ROOT="$ROOT" CTID="$CTID" ENTITLE="$ENTITLE" LIMIT_AS="$LIMIT_AS" \
    unshare -m --propagation private sh "$BATS_TEST_TMPDIR/zero.sh"
  [ "$status" -ne 99 ]
  [ "$status" -ne 124 ]
  one_error_line
  [[ "$stderr" == *"not a regular file"* ]]
  # Outside that namespace the file is the bundle's own, untouched.
  jq -e '.annotations["io.entitle.entitlements"] == "network.none" and (.annotations["io.entitle.applied"] == null)' \
    "$BUNDLE/config.json"
  ! rnc state "$CTID" >/dev/null 2>&1
}

@test "hostile: JSON nested 100000 levels deep is refused" {
  for pair in '[ ]' '{"a": }'; do
    make_bundle "$BUNDLE"
    set_entitlements "$BUNDLE" network.none
    prepend_member "\"org.example.deep\": $(nested 100000 "${pair% *}" "${pair#* }" | sed 's/{"a": }/{"a":0}/'),"
    [ "$(stat -c %s "$BUNDLE/config.json")" -gt 200000 ]
    snapshot
    hostile_create
    refused "nested too deeply"
  done
}

@test "hostile: numbers out of range in entitlement values are refused, naming the item" {
  for item in network.bind=65536 network.bind=99999999999999999999999 network.bind=0 \
    network.egress=10.0.0.0/33:443 network.egress=10.0.0.0/8:18446744073709551617 \
    network.egress=300.0.0.1/32 network.egress=::/129 network.bind-map=80:99999; do
    make_bundle "$BUNDLE"
    set_entitlements "$BUNDLE" "$item"
    snapshot
    hostile_create
    refused "$item"
  done
  # The catalogue version too.
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  edit_config "$BUNDLE" '.annotations["io.entitle.catalogue"] = "18446744073709551617"'
  snapshot
  hostile_create
  refused 18446744073709551617
}

@test "hostile: numbers beyond any machine type in the JSON are kept as written, and the container runs" {
  make_bundle "$BUNDLE" /bin/echo ran
  set_entitlements "$BUNDLE" network.none
  numbers='[1e999999, -1e999999, 123456789012345678901234567890123456789, 1e-999999, -0, 0.10000000000000000000000000000001]'
  prepend_member "\"org.example.numbers\": $numbers,"
  snapshot
  run_detached bounded "$ENTITLE" --root "$ROOT" compile -b "$BUNDLE"
  [ "$status" -eq 0 ]
  [ "$(fingerprint "$BUNDLE")" = "$BEFORE" ]
  run_valid
  for n in 1e999999 -1e999999 123456789012345678901234567890123456789 1e-999999 -0 0.10000000000000000000000000000001; do
    grep -qF -- "$n" "$BUNDLE/config.json"
  done
  jq -e '.annotations["io.entitle.applied"] != null' "$BUNDLE/config.json"
}

@test "hostile: a key twice in one object is refused, naming it" {
  # The runtime (Go's encoding/json) would merge the two annotations
  # objects and see the request that the last one alone hides.
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  prepend_member '"annotations": {"org.example": "x"},'
  snapshot
  hostile_create
  refused "duplicate object key" annotations

  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  sed -i 's/"io.entitle.entitlements": "network.none"/"io.entitle.entitlements": "network.none", "io.entitle.entitlements": "network.user"/' \
    "$BUNDLE/config.json"
  [ "$(grep -o io.entitle.entitlements "$BUNDLE/config.json" | wc -l)" -eq 2 ]
  snapshot
  hostile_create
  refused "duplicate object key" io.entitle.entitlements

  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  sed -i 's/"terminal": false/"terminal": false, "terminal": true/' "$BUNDLE/config.json"
  snapshot
  hostile_create
  refused "duplicate object key" terminal
}

@test "hostile: invalid UTF-8 is refused with a one-line message" {
  # A stray byte, an overlong "/", a surrogate, a cut sequence; in a
  # value, in a key and in the request itself.
  for bad in '\377' '\300\257' '\355\240\200' '\342\202'; do
    for where in value key request; do
      make_bundle "$BUNDLE"
      set_entitlements "$BUNDLE" network.none
      case $where in
      value) prepend_member "$(printf '"org.example": "a%bz",' "$bad")" ;;
      key) prepend_member "$(printf '"org.example.%b": 1,' "$bad")" ;;
      request) sed -i "s/\"network.none\"/\"network.none$(printf '%b' "$bad")\"/" "$BUNDLE/config.json" ;;
      esac
      ! iconv -f UTF-8 -t UTF-8 "$BUNDLE/config.json" >/dev/null 2>&1
      snapshot
      hostile_create
      refused "invalid JSON"
      # The message itself is valid UTF-8.
      printf '%s' "$stderr" | iconv -f UTF-8 -t UTF-8 >/dev/null
    done
  done
}

@test "hostile: 100000 annotations are kept, in bounded time and memory, and the container runs" {
  make_bundle "$BUNDLE" /bin/echo ran
  # (jq would take minutes to add them one by one.)
  seq 0 99999 | awk 'BEGIN { printf "{" } { printf "%s\"org.example.a%d\": \"v%d\"", sep, $1, $1; sep = "," }
    END { print "}" }' >"$BATS_TEST_TMPDIR/annotations.json"
  edit_config "$BUNDLE" '.annotations = $a[0]' --slurpfile a "$BATS_TEST_TMPDIR/annotations.json"
  set_entitlements "$BUNDLE" network.none
  snapshot
  # Memory: entitle alone (compile reads, rewrites and prints the same).
  run_detached bounded "$ENTITLE" --root "$ROOT" compile -b "$BUNDLE"
  [ "$status" -eq 0 ]
  [ "$(fingerprint "$BUNDLE")" = "$BEFORE" ]
  run_valid
  jq -e '(.annotations | length) == 100003 and .annotations["org.example.a99999"] == "v99999"
    and .annotations["io.entitle.applied"] != null' "$BUNDLE/config.json"
}

@test "hostile: entitlement lists of 1 MiB are refused at once with a short message" {
  local list="$BATS_TEST_TMPDIR/list"
  # One entitlement repeated; distinct valid items; one item of 1 MiB; an
  # empty item ahead of 1 MiB of text.
  yes network.none | head -c $((1 << 20)) | paste -sd, >"$list.1"
  seq 100000 | sed 's|^|network.egress=10.0.0.0/8:|' | head -c $((1 << 20)) | paste -sd, | sed 's/,[^,]*$//' >"$list.2"
  { printf network.egress=; head -c $((1 << 20)) /dev/zero | tr '\0' 1; } >"$list.3"
  { printf network.none,,; head -c $((1 << 20)) /dev/zero | tr '\0' x; } >"$list.4"
  for n in 1 2 3 4; do
    [ "$(stat -c %s "$list.$n")" -gt $((1000 * 1024)) ]
    make_bundle "$BUNDLE"
    edit_config "$BUNDLE" '.annotations["io.entitle.entitlements"] = ($l | rtrimstr("\n"))' --rawfile l "$list.$n"
    snapshot
    hostile_create
    refused io.entitle.entitlements
  done
}
