#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Attacks on how keys are read (issue 23, fidelity to the runtime): runc
# decodes config.json and exec's process file with Go's encoding/json,
# which matches a key to a struct field regardless of case (and takes
# U+017F for s and U+212A for k), a later key decoding into the same
# field; entitle, like crun, reads keys as written.  A key that only folds
# to a field's name would be judged missing by entitle and applied by
# runc.  Each attack runs first under plain runc with the same config,
# which applies the folded key (seen from inside the container: CapEff, a
# mount that succeeds, NoNewPrivs, a masked path), then through entitle,
# which refuses it as DESIGN §5 says: one "entitle: " line naming the key
# and the field runc reads it as, the bundle unchanged, no container, and
# for exec no process.  Keys of maps (annotations) are data: any case runs.

load helpers

CAP_SYS_ADMIN=21
LONG_S=$'\u017f'
KELVIN=$'\u212a'

# The capabilities the attacker's key asks for.
WIDE='{"bounding": ["CAP_SYS_ADMIN", "CAP_DAC_OVERRIDE"], "effective": ["CAP_SYS_ADMIN", "CAP_DAC_OVERRIDE"],
  "permitted": ["CAP_SYS_ADMIN", "CAP_DAC_OVERRIDE"]}'

# process_file FILE FILTER ARG...: the bundle's process (Docker's default
# capabilities), running ARG..., edited by the jq FILTER (with $wide).
process_file() {
  local file=$1 filter=$2
  shift 2
  jq ".process | .args = \$args | $filter" --argjson args "$(printf '%s\n' "$@" | jq -R . | jq -s .)" \
    --argjson wide "$WIDE" "$BUNDLE/config.json" >"$file"
}

# exec_refused RUNNER FILE KEY FIELD: exec -p FILE through RUNNER is
# refused in one line naming KEY and FIELD, and nothing ran.
exec_refused() {
  run --separate-stderr "$1" exec -p "$2" "$CTID"
  one_error_line
  if [[ "$stderr" != *"\`$3\`"* ]] || [[ "$stderr" != *"\`$4\`"* ]]; then
    echo "the message does not name \`$3\` and \`$4\`: $stderr" >&2
    return 1
  fi
}

# exec_ok RUNNER FILE: exec -p FILE through RUNNER succeeds.
exec_ok() {
  run --separate-stderr "$1" exec -p "$2" "$CTID"
  [ "$status" -eq 0 ] || {
    printf 'exec -p %s through %s: status %s: %s\n' "$2" "$1" "$status" "$stderr" >&2
    return 1
  }
}

@test "exec --process: \"Capabilities\" after \"capabilities\" gives runc's process CAP_SYS_ADMIN; entitle refuses it in one line" {
  P="$BATS_TEST_TMPDIR/p.json"
  make_bundle "$BUNDLE"
  process_file "$P" '.Capabilities = $wide' /probe caps
  # Both keys are there, the exact one first.
  [ "$(jq -c 'keys_unsorted | map(select(ascii_downcase == "capabilities"))' "$P")" = '["capabilities","Capabilities"]' ]
  create_started rnc "$BUNDLE" "$CTID"
  exec_ok rnc "$P"
  has_cap "$(cap_line "$output" CapEff)" $CAP_SYS_ADMIN
  has_cap "$(cap_line "$output" CapEff)" $CAP_DAC_OVERRIDE
  rnc delete -f "$CTID"

  set_entitlements "$BUNDLE" security.confined
  create_started ent "$BUNDLE" "$CTID"
  process_file "$P" '.Capabilities = $wide' /probe caps
  exec_refused ent "$P" Capabilities process.capabilities
  # Without the folded key the same process runs, narrowed.
  process_file "$P" . /probe caps
  exec_ok ent "$P"
  lacks_cap "$(cap_line "$output" CapEff)" $CAP_SYS_ADMIN
}

@test "exec --process: a folded key alone (\"Capabilities\", \"capabilitieſ\") is runc's capabilities; entitle refuses it" {
  P="$BATS_TEST_TMPDIR/p.json"
  make_bundle "$BUNDLE"
  create_started rnc "$BUNDLE" "$CTID"
  for key in Capabilities "capabilitie$LONG_S"; do
    process_file "$P" "del(.capabilities) | .[\"$key\"] = \$wide" /probe caps
    exec_ok rnc "$P"
    if ! has_cap "$(cap_line "$output" CapEff)" $CAP_SYS_ADMIN; then
      echo "runc did not read $key as capabilities: $output" >&2
      false
    fi
  done
  rnc delete -f "$CTID"

  set_entitlements "$BUNDLE" security.confined
  create_started ent "$BUNDLE" "$CTID"
  for key in Capabilities "capabilitie$LONG_S"; do
    process_file "$P" "del(.capabilities) | .[\"$key\"] = \$wide" /probe caps
    exec_refused ent "$P" "$key" process.capabilities
  done
}

@test "exec --process: \"NoNewPrivileges\": false after \"noNewPrivileges\": true turns it off under runc; entitle refuses it" {
  P="$BATS_TEST_TMPDIR/p.json"
  make_bundle "$BUNDLE"
  create_started rnc "$BUNDLE" "$CTID"
  process_file "$P" '.noNewPrivileges = true' /probe nnp
  exec_ok rnc "$P"
  [ "$output" = 1 ]
  process_file "$P" '.noNewPrivileges = true | .NoNewPrivileges = false' /probe nnp
  exec_ok rnc "$P"
  [ "$output" = 0 ]
  rnc delete -f "$CTID"

  set_entitlements "$BUNDLE" security.confined
  create_started ent "$BUNDLE" "$CTID"
  exec_refused ent "$P" NoNewPrivileges process.noNewPrivileges
}

@test "create: \"Process\" after \"process\" gives runc's container CAP_SYS_ADMIN (a mount succeeds); entitle refuses it, the bundle untouched" {
  make_bundle "$BUNDLE" /bin/sh -c '/probe caps; /probe mount'
  run_bundle rnc
  lacks_cap "$(cap_line "$output" CapEff)" $CAP_SYS_ADMIN
  [ "${lines[-1]}" = EPERM ]
  edit_config "$BUNDLE" '.Process = {capabilities: $wide}' --argjson wide "$WIDE"
  run_bundle rnc "$BUNDLE" "$CTID-runc"
  [ "$status" -eq 0 ]
  has_cap "$(cap_line "$output" CapEff)" $CAP_SYS_ADMIN
  [ "${lines[-1]}" = ok ]

  set_entitlements "$BUNDLE" security.confined
  snapshot
  run_detached ent run -b "$BUNDLE" "$CTID"
  refused '`Process`' '`process`'
}

@test "create: a folded key with no exact one (\"Process\") is the process to runc; entitle refuses it" {
  make_bundle "$BUNDLE"
  edit_config "$BUNDLE" '.Process = (.process | .args = ["/probe", "caps"] | .capabilities = $wide) | del(.process)' \
    --argjson wide "$WIDE"
  run_bundle rnc
  [ "$status" -eq 0 ]
  has_cap "$(cap_line "$output" CapEff)" $CAP_SYS_ADMIN

  set_entitlements "$BUNDLE" security.confined
  snapshot
  run_detached ent run -b "$BUNDLE" "$CTID"
  refused '`Process`' '`process`'
}

@test "create: \"maſKedPaths\" (U+017F, U+212A) after \"maskedPaths\" unmasks /proc/keys under runc; entitle refuses it" {
  key="ma${LONG_S}${KELVIN}edPaths"
  make_bundle "$BUNDLE" /bin/sh -c 'grep -c " /proc/keys " /proc/self/mountinfo'
  jq -e '.linux.maskedPaths | index("/proc/keys")' "$BUNDLE/config.json" >/dev/null
  run_bundle rnc
  [ "$output" = 1 ]
  edit_config "$BUNDLE" '.linux[$k] = []' --arg k "$key"
  run_bundle rnc "$BUNDLE" "$CTID-runc"
  [ "$output" = 0 ]

  set_entitlements "$BUNDLE" security.confined
  snapshot
  run_detached ent run -b "$BUNDLE" "$CTID"
  refused "\`$key\`" '`linux.maskedPaths`'
}

@test "create: annotations whose keys differ only in case are data: the container runs through entitle as through runc" {
  make_bundle "$BUNDLE" /bin/sh -c 'echo ran'
  edit_config "$BUNDLE" '.annotations += {"org.example.Key": "1", "org.example.key": "2", "ORG.EXAMPLE.KEY": "3"}'
  run_bundle rnc
  expect_lines ran
  set_entitlements "$BUNDLE" security.confined
  run_bundle ent "$BUNDLE" "$CTID-ent"
  expect_lines ran
  [ "$(jq -r '.annotations["org.example.Key"] + .annotations["org.example.key"] + .annotations["ORG.EXAMPLE.KEY"]' \
    "$BUNDLE/config.json")" = 123 ]
}

@test "crun: reads keys as written (a folded \"Capabilities\" is ignored); entitle in front of crun refuses it as in front of runc, and runs annotations in any case" {
  require_crun
  P="$BATS_TEST_TMPDIR/p.json"
  make_bundle "$BUNDLE"
  create_started crn "$BUNDLE" "$CTID"
  process_file "$P" '.Capabilities = $wide' /probe caps
  exec_ok crn "$P"
  lacks_cap "$(cap_line "$output" CapEff)" $CAP_SYS_ADMIN
  crn delete -f "$CTID"

  write_entitle_config "{\"runtime\": \"$CRUN_BIN\"}"
  edit_config "$BUNDLE" '.annotations += {"org.example.Key": "1", "org.example.key": "2"}'
  set_entitlements "$BUNDLE" security.confined
  create_started ent_crun "$BUNDLE" "$CTID"
  exec_refused ent_crun "$P" Capabilities process.capabilities
  process_file "$P" . /probe caps
  exec_ok ent_crun "$P"
  lacks_cap "$(cap_line "$output" CapEff)" $CAP_SYS_ADMIN
}
