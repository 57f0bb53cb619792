#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Bad input (DESIGN §5): each case gives one error line starting
# "entitle: " on stderr, nothing on stdout, a non-zero exit status, no
# container, and a bundle whose every file, mode and owner is unchanged.

load helpers

# bad_bundle ENTITLEMENTS: the test bundle requesting ENTITLEMENTS.
bad_bundle() {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" "$1"
}


@test "badinput: malformed JSON in config.json is refused" {
  # The request is there, but the JSON is broken: the object is not
  # closed, or garbage follows it.
  for damage in '$d' '$s/}/} x/'; do
    bad_bundle network.none
    sed -i "$damage" "$BUNDLE/config.json"
    grep -q io.entitle.entitlements "$BUNDLE/config.json"
    if jq . "$BUNDLE/config.json" >/dev/null 2>&1; then
      echo "sed $damage left valid JSON" >&2
      false
    fi
    snapshot
    run_detached ent create -b "$BUNDLE" "$CTID"
    refused
  done
}

@test "badinput: config.json that is JSON but not an object is refused" {
  make_bundle "$BUNDLE"
  echo '["io.entitle.entitlements", "network.none"]' >"$BUNDLE/config.json"
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused
}

@test "badinput: a config.json of 17 MiB is refused" {
  bad_bundle network.none
  head -c $((17 * 1024 * 1024)) /dev/zero | tr '\0' a >"$BATS_TEST_TMPDIR/pad"
  edit_config "$BUNDLE" '.annotations["org.example.padding"] = $pad' --rawfile pad "$BATS_TEST_TMPDIR/pad"
  [ "$(stat -c %s "$BUNDLE/config.json")" -gt $((17 * 1024 * 1024)) ]
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused
}

@test "badinput: an unknown entitlement is refused, naming it" {
  bad_bundle network.bogus
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused network.bogus
}

@test "badinput: a malformed entitlement name is refused, naming it" {
  # Each name, and the part of it the message must show.
  for pair in "Network.None Network.None" "network..none network..none" \
    "network.none= network.none" "-network.none -network.none" \
    "network.none;id network.none;id" "network.egress network.egress"; do
    bad_bundle "${pair% *}"
    snapshot
    run_detached ent create -b "$BUNDLE" "$CTID"
    refused "${pair#* }"
  done
}

@test "badinput: an unknown entitlement is refused by run too" {
  bad_bundle host.bogus
  snapshot
  run_detached ent run -b "$BUNDLE" "$CTID"
  refused host.bogus
}

@test "badinput: two rungs of one ladder are refused, naming both" {
  bad_bundle network.none,network.user
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused network.none network.user
}

@test "badinput: a modifier that contradicts the rung is refused" {
  bad_bundle network.none,network.egress=10.0.0.0/8
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused network.none network.egress
}

@test "badinput: a catalogue version newer than entitle knows is refused" {
  bad_bundle network.none
  edit_config "$BUNDLE" '.annotations["io.entitle.catalogue"] = "999"'
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused 999
}

@test "badinput: a runtime in the admin config that does not exist is refused" {
  bad_bundle network.none
  write_entitle_config '{"runtime": "/nonexistent/runc"}'
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused /nonexistent/runc
  # Commands that touch no bundle fail the same way.
  run_detached ent list
  one_error_line
  [[ "$stderr" == *"/nonexistent/runc"* ]]
}

@test "badinput: no runc or crun on PATH and no admin config is refused" {
  bad_bundle network.none
  mkdir "$BATS_TEST_TMPDIR/bin"
  snapshot
  PATH="$BATS_TEST_TMPDIR/bin" run_detached "$ENTITLE" --root "$ROOT" create -b "$BUNDLE" "$CTID"
  refused
  PATH="$BATS_TEST_TMPDIR/bin" run_detached "$ENTITLE" --root "$ROOT" list
  one_error_line
}

@test "badinput: a runc on PATH that is entitle itself is not run" {
  mkdir "$BATS_TEST_TMPDIR/bin"
  ln -s "$ENTITLE" "$BATS_TEST_TMPDIR/bin/runc"
  # Either it finds no runtime or it loops: a bounded wait tells them apart.
  timeout=$(command -v timeout)
  PATH="$BATS_TEST_TMPDIR/bin" run_detached "$timeout" 20 "$ENTITLE" --root "$ROOT" list
  if [ "$status" -eq 124 ]; then
    echo "entitle ran itself as the runtime (killed after 20 s)" >&2
    false
  fi
  one_error_line
}

@test "badinput: config.json that is a symlink out of the bundle is refused, the target unchanged" {
  make_bundle "$BATS_TEST_TMPDIR/elsewhere"
  set_entitlements "$BATS_TEST_TMPDIR/elsewhere" network.none
  mkdir -p "$BUNDLE"
  ln -s "$BATS_TEST_TMPDIR/elsewhere/config.json" "$BUNDLE/config.json"
  target=$(fingerprint "$BATS_TEST_TMPDIR/elsewhere")
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused
  [ -L "$BUNDLE/config.json" ]
  [ "$(fingerprint "$BATS_TEST_TMPDIR/elsewhere")" = "$target" ]
}

@test "badinput: config.json that is a relative symlink to ../ is refused, the target unchanged" {
  make_bundle "$BATS_TEST_TMPDIR/up"
  set_entitlements "$BATS_TEST_TMPDIR/up" network.none
  mv "$BATS_TEST_TMPDIR/up/config.json" "$BATS_TEST_TMPDIR/config-up.json"
  mkdir -p "$BUNDLE"
  ln -s ../config-up.json "$BUNDLE/config.json"
  target=$(sha256sum <"$BATS_TEST_TMPDIR/config-up.json")
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused
  [ "$(sha256sum <"$BATS_TEST_TMPDIR/config-up.json")" = "$target" ]
}

@test "badinput: with --log-format json the error is appended to the log as a JSON record" {
  bad_bundle network.bogus
  log="$BATS_TEST_TMPDIR/log.json"
  echo '{"level":"info","msg":"an earlier record","time":"2024-01-01T00:00:00Z"}' >"$log"
  snapshot
  run_detached "$ENTITLE" --root "$ROOT" --log "$log" --log-format json create -b "$BUNDLE" "$CTID"
  refused network.bogus
  [ "$(wc -l <"$log")" -eq 2 ]
  [ "$(head -n 1 "$log" | jq -r .msg)" = "an earlier record" ]
  tail -n 1 "$log" | jq -e --arg msg "${stderr#entitle: }" \
    '.level == "error" and (.msg | contains($msg)) and (.msg | contains("network.bogus")) and (.time | type == "string")'
}

@test "badinput: a log message quoting bytes that are not UTF-8 is still a valid record, JSON or text" {
  # A bundle path is any bytes; the error quotes it.  logrus (runc's log)
  # writes each ill-formed byte as \ufffd: so does entitle, and the engine
  # that reads the log can parse the line.
  bundle="$BATS_TEST_TMPDIR/x"$'\xff'
  mkdir -p "$bundle/config.json"
  log="$BATS_TEST_TMPDIR/log.json"
  run_detached "$ENTITLE" --root "$ROOT" --log "$log" --log-format json create -b "$bundle" "$CTID"
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"is not a regular file"* ]]
  [ "$(wc -l <"$log")" -eq 1 ]
  iconv -f UTF-8 -t UTF-8 "$log" >/dev/null
  grep -qF 'x\ufffd/config.json' "$log"
  jq -e '.level == "error" and (.msg | contains("is not a regular file"))' "$log"
  # In the text format the byte is escaped as Go's %q escapes it.
  log="$BATS_TEST_TMPDIR/log.txt"
  run_detached "$ENTITLE" --root "$ROOT" --log "$log" --log-format text create -b "$bundle" "$CTID"
  [ "$status" -ne 0 ]
  iconv -f UTF-8 -t UTF-8 "$log" >/dev/null
  grep -qF 'x\xff/config.json` is not a regular file"' "$log"
}

@test "badinput: with --log in text format the error is appended to the log" {
  bad_bundle network.bogus
  log="$BATS_TEST_TMPDIR/log.txt"
  echo 'an earlier line' >"$log"
  snapshot
  run_detached "$ENTITLE" --root "$ROOT" --log "$log" create -b "$BUNDLE" "$CTID"
  refused network.bogus
  [ "$(head -n 1 "$log")" = "an earlier line" ]
  tail -n 1 "$log" | grep -F error | grep -qF network.bogus
}

@test "badinput: in the text log a message with quotes and backslashes is quoted as logrus quotes it" {
  # The trust rule quotes the entitlement: "security.admin".
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" security.admin
  log="$BATS_TEST_TMPDIR/log.txt"
  snapshot
  run_detached "$ENTITLE" --root "$ROOT" --log "$log" --log-format text create -b "$BUNDLE" "$CTID"
  refused security.admin
  line=$(tail -n 1 "$log")
  # One msg="..." field whose inner quotes are escaped: reading it back
  # as a Go-quoted string gives the message on stderr.
  [[ "$line" =~ ^time=\"[^\"]+\"\ level=error\ msg=(\".*\")$ ]]
  [ "$(jq -r . <<<"${BASH_REMATCH[1]}")" = "$stderr" ]
  [[ "${BASH_REMATCH[1]}" == *'\"security.admin\"'* ]]
}

@test "badinput: an entitlements annotation that is not a string is refused" {
  make_bundle "$BUNDLE"
  edit_config "$BUNDLE" '.annotations["io.entitle.entitlements"] = ["network.none"]'
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused io.entitle.entitlements
}

@test "badinput: a malformed admin config is refused, not ignored" {
  # Ignoring it would silently drop the admin's floor.
  make_bundle "$BUNDLE"
  for cfg in '{"require": ["network.none"]' '{"require": ["network.bogus"]}' '["network.none"]'; do
    write_entitle_config "$cfg"
    snapshot
    run_detached ent create -b "$BUNDLE" "$CTID"
    refused "$ENTITLE_CONFIG"
  done
}

@test "badinput: an admin config named by ENTITLE_CONFIG or --entitle-config that does not exist is refused" {
  # DESIGN §7: only the default path may be absent; a named file that is
  # not there is a mistake, not "no admin config".
  missing="$BATS_TEST_TMPDIR/no-such.json"
  for ents in network.none ""; do
    make_bundle "$BUNDLE"
    [ -z "$ents" ] || set_entitlements "$BUNDLE" "$ents"
    snapshot
    ENTITLE_CONFIG=$missing run_detached ent create -b "$BUNDLE" "$CTID"
    refused "$missing" "named by ENTITLE_CONFIG" "does not exist"
    run_detached "$ENTITLE" --entitle-config="$missing" --root "$ROOT" create -b "$BUNDLE" "$CTID"
    refused "$missing" "named by --entitle-config" "does not exist"
  done
  run_detached "$ENTITLE" --entitle-config= --root "$ROOT" create -b "$BUNDLE" "$CTID"
  refused "--entitle-config" "needs a file name"
}

@test "badinput: a malformed or missing admin config strands no container: state, kill and delete reach runc, with a warning" {
  make_bundle "$BUNDLE"
  create_started ent "$BUNDLE" "$CTID"
  expected=$(rnc state "$CTID" | jq -S .)
  missing="$BATS_TEST_TMPDIR/no-such.json"
  write_entitle_config '{"require": ["network.none"],'
  for cfg in "$ENTITLE_CONFIG" "$missing"; do
    export ENTITLE_CONFIG=$cfg
    for c in "state $CTID" "list -q" "ps $CTID" "--version"; do
      # shellcheck disable=SC2086 # the command and its arguments
      run_detached ent $c
      if [ "$status" -ne 0 ] || [ "${#stderr_lines[@]}" -ne 1 ] ||
        [[ "${stderr_lines[0]}" != "entitle: warning: "*"$cfg"*"the runtime runs without it" ]]; then
        printf '%s with %s: status %s, stderr:\n%s\n' "$c" "$cfg" "$status" "$stderr" >&2
        false
      fi
    done
    [ "$(ent state "$CTID" 2>/dev/null | jq -S .)" = "$expected" ]
    [ "$(ent list -q 2>/dev/null)" = "$CTID" ]
    # What applies policy refuses, naming the config.
    run_detached ent exec "$CTID" /bin/true
    one_error_line
    [[ "$stderr" == *"$cfg"* ]]
  done
  export ENTITLE_CONFIG="$BATS_TEST_TMPDIR/entitle.json"
  run_detached ent kill "$CTID" KILL
  [ "$status" -eq 0 ]
  wait_status rnc "$CTID" stopped
  run_detached ent delete "$CTID"
  [ "$status" -eq 0 ]
  [[ "$stderr" == "entitle: warning: "* ]]
  run rnc state "$CTID"
  [ "$status" -ne 0 ]
}
