#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Attacks on exec (issue 23, classes 4 and 6, and fidelity to the runtime):
# a plain exec into an fs.write container must be confined however the
# engine spells --root and whatever is left of entitle's state_dir (DESIGN
# §8: exec decides wrapping from the container's own state; a missing
# record never means unconfined: a state entitle cannot read refuses);
# exec --process takes what runc takes (null capabilities, a FILE that is
# a pipe, /dev/stdin or <(...), more after the process) and gives it the
# container's effects, reading no more than runc and never more than
# 16 MiB.  Each attack runs first under plain runc (or crun) with the same
# container, where it works, then through entitle, observed from inside
# the container: the file the exec'd process could create.

load helpers

setup() {
  common_setup
  LANDLOCK_ABI=$("$ENTITLE" probe --json | jq -r .landlock_abi)
  if [ "$LANDLOCK_ABI" -lt 3 ] 2>/dev/null; then
    skip "this kernel's Landlock ABI ${LANDLOCK_ABI:-0} cannot hold fs.write: create refuses it (landlock.bats)"
  fi
  STATE="$BATS_TEST_TMPDIR/state"
  write_entitle_config "{\"state_dir\": \"$STATE\"}"
}

# writable_bundle ARG...: make_bundle running ARG... on a writable copy of
# the rootfs (the shared one is read-only: every write would fail with
# EROFS whatever entitle did).
writable_bundle() {
  rm -rf "$BATS_TEST_TMPDIR/rootfs"
  cp -a "$ROOTFS" "$BATS_TEST_TMPDIR/rootfs"
  make_bundle "$BUNDLE" "$@"
  edit_config "$BUNDLE" '.root = {path: $r, readonly: false}' --arg r "$BATS_TEST_TMPDIR/rootfs"
}

# What an exec'd process tries: create /etc/x, the shell's word when it
# cannot (its strerror).
CREATE='if e=$( { echo hi >/etc/x; } 2>&1); then echo "create /etc/x: ok"; else echo "create /etc/x: ${e##*: }"; fi; rm -f /etc/x'

# started_fs_write RUNNER: a running container of a writable bundle, under
# RUNNER (rnc: plain runc; ent: entitle, requesting fs.write=/tmp).
started_fs_write() {
  writable_bundle /probe sleep 600
  [ "$1" = rnc ] || set_entitlements "$BUNDLE" fs.write=/tmp
  create_started "$1" "$BUNDLE" "$CTID"
}

# exec_creates RUNTIME-ARG...: run `RUNTIME-ARG... exec $CTID sh -c
# CREATE` (RUNTIME-ARG... is the runtime and its global flags) and check
# that /etc/x could be created.
exec_creates() {
  run --separate-stderr "$@" exec "$CTID" /bin/sh -c "$CREATE"
  expect_lines "create /etc/x: ok"
}

# exec_confined RUNTIME-ARG...: the same, refused by Landlock.
exec_confined() {
  run --separate-stderr "$@" exec "$CTID" /bin/sh -c "$CREATE"
  expect_lines "create /etc/x: Permission denied"
}

@test "class 4: a plain exec with --root spelt ROOT/, ROOT//. or relative is confined as with create's spelling; plain runc execs with each" {
  started_fs_write rnc
  for root in "$ROOT/" "$ROOT//." root; do
    (cd "$BATS_TEST_TMPDIR" && exec_creates "$RUNC_BIN" --root "$root")
  done
  rnc delete -f "$CTID"

  started_fs_write ent
  exec_confined "$ENTITLE" --root "$ROOT"
  for root in "$ROOT/" "$ROOT//." root; do
    (cd "$BATS_TEST_TMPDIR" && exec_confined "$ENTITLE" --root "$root")
  done
}

@test "class 4: a plain exec is confined once entitle's state_dir is cleaned, or the admin config names another; plain runc execs" {
  started_fs_write rnc
  exec_creates rnc
  rnc delete -f "$CTID"

  started_fs_write ent
  rm -rf "$STATE"
  exec_confined ent
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/elsewhere\"}"
  exec_confined ent
  # The default state_dir, /run/entitle, holds no record of this container.
  export ENTITLE_CONFIG=
  exec_confined ent
}

@test "class 4: a container created by plain runc under an id an fs.write container had is exec'd as runc execs it" {
  started_fs_write ent
  exec_confined ent
  ent delete -f "$CTID"
  started_fs_write rnc
  exec_creates ent
}

# On a hybrid host crun runs with --cgroup-manager=disabled, and its every
# exec went through entitle-full already (to join the cgroup the hook
# made); the mark decided only on a cgroup2-only host (the kernel rows).
@test "class 4: crun: a plain exec with a relative --root, after state_dir is cleaned, is confined; plain crun execs" {
  require_crun
  writable_bundle /probe sleep 600
  create_started crn "$BUNDLE" "$CTID"
  (cd "$BATS_TEST_TMPDIR" && exec_creates run_crun_ns "$CRUN_BIN" "${CRUN_MANAGER[@]}" --root crun-root)
  crn delete -f "$CTID"

  write_entitle_config "{\"runtime\": \"$CRUN_BIN\", \"state_dir\": \"$STATE\"}"
  set_entitlements "$BUNDLE" fs.write=/tmp
  create_started ent_crun "$BUNDLE" "$CTID"
  rm -rf "$STATE"
  (cd "$BATS_TEST_TMPDIR" && exec_confined run_crun_ns "$ENTITLE" "${CRUN_MANAGER[@]}" --root crun-root)
}

@test "class 4: a container whose runtime state is gone runs nothing through entitle, as through runc: the runtime's error" {
  started_fs_write rnc
  mv "$ROOT/$CTID/state.json" "$BATS_TEST_TMPDIR/state.json"
  step runc exec rnc exec "$CTID" /bin/sh -c "$CREATE"
  mv "$BATS_TEST_TMPDIR/state.json" "$ROOT/$CTID/state.json"
  rnc delete -f "$CTID"

  started_fs_write ent
  mv "$ROOT/$CTID/state.json" "$BATS_TEST_TMPDIR/state.json"
  step entitle exec ent exec "$CTID" /bin/sh -c "$CREATE"
  mv "$BATS_TEST_TMPDIR/state.json" "$ROOT/$CTID/state.json"
  [ "$(step_value entitle exec rc)" != 0 ]
  [ -z "$(step_value entitle exec out)" ]
  compare_steps runc entitle
  exec_confined ent
}

@test "class 4: a state that names a bundle entitle cannot read refuses the exec in one line; so does plain runc" {
  # No annotations in the state (runc spec writes none): the request is
  # the bundle's config to say, and it is gone.  runc reads it too, for
  # the process of a plain exec.
  writable_bundle /probe sleep 600
  create_started rnc "$BUNDLE" "$CTID"
  mv "$BUNDLE/config.json" "$BUNDLE/config.json.away"
  run --separate-stderr rnc exec "$CTID" /bin/sh -c "$CREATE"
  [ "$status" -ne 0 ]
  [ -z "$output" ]
  [[ "$stderr" == *"config.json not found"* ]]
  run --separate-stderr ent exec "$CTID" /bin/sh -c "$CREATE"
  one_error_line
  [[ "$stderr" == "entitle: exec \`$CTID\`: "*"$BUNDLE/config.json"*"No such file or directory" ]]
}

@test "class 4: a plain exec into a container with no entitlement is the runtime's: same output and status" {
  writable_bundle /probe sleep 600
  create_started ent "$BUNDLE" "$CTID"
  step runc exec rnc exec "$CTID" /bin/sh -c "$CREATE; exit 3"
  step entitle exec ent exec "$CTID" /bin/sh -c "$CREATE; exit 3"
  [ "$(step_value entitle exec rc)" = 3 ]
  [ "$(step_value entitle exec out)" = "create /etc/x: ok" ]
  step runc missing rnc exec "$CTID-none" /bin/true
  step entitle missing ent exec "$CTID-none" /bin/true
  [ "$(step_value entitle missing rc)" != 0 ]
  compare_steps runc entitle
}

# process_file FILE ARG...: an engine's process file, the bundle's process
# running ARG....
process_file() {
  local file=$1
  shift
  jq '.process | .args = $args' --argjson args "$(printf '%s\n' "$@" | jq -R . | jq -s .)" \
    "$BUNDLE/config.json" >"$file"
}

@test "class 6: exec --process with \"capabilities\": null into an fs.write container runs confined, with the container's capabilities, as runc runs it" {
  started_fs_write rnc
  process_file "$BATS_TEST_TMPDIR/p.json" /bin/sh -c "$CREATE; grep CapEff /proc/self/status"
  jq '.capabilities = null' "$BATS_TEST_TMPDIR/p.json" >"$BATS_TEST_TMPDIR/null.json"
  run --separate-stderr rnc exec -p "$BATS_TEST_TMPDIR/null.json" "$CTID"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "create /etc/x: ok" ]
  runc_caps=$(cap_line "$output" CapEff)
  rnc delete -f "$CTID"

  started_fs_write ent
  jq '.capabilities = null' "$BATS_TEST_TMPDIR/p.json" >"$BATS_TEST_TMPDIR/null.json"
  run --separate-stderr ent exec -p "$BATS_TEST_TMPDIR/null.json" "$CTID"
  [ "$status" -eq 0 ] || {
    printf 'status %s: %s\n' "$status" "$stderr" >&2
    false
  }
  [ "${lines[0]}" = "create /etc/x: Permission denied" ]
  # fs.write changes no capability: the process has the container's.
  [ "$(cap_line "$output" CapEff)" = "$runc_caps" ]
}

# exec_via KIND RUNNER: exec --process with the process file $P given as
# KIND through RUNNER (rnc, ent, crn, ent_crun): file; fifo (a named pipe
# its writer closes); held (a named pipe its writer keeps open after the
# process: runc's decoder stops at the end of the object); stdin (a pipe);
# substitution (<(...)); more (a file with another object after the
# process, which runc never reads).
exec_via() {
  local kind=$1 runner=$2 fifo="$BATS_TEST_TMPDIR/p.fifo" writer
  case $kind in
  file) run --separate-stderr "$runner" exec -p "$P" "$CTID" ;;
  fifo | held)
    rm -f "$fifo"
    mkfifo "$fifo"
    if [ "$kind" = fifo ]; then
      cat "$P" >"$fifo" &
    else
      sh -c 'cat "$1"; exec sleep 600' sh "$P" >"$fifo" &
    fi
    writer=$!
    run --separate-stderr "$runner" exec -p "$fifo" "$CTID"
    kill "$writer" 2>/dev/null || true
    wait "$writer" || true
    ;;
  stdin) run --separate-stderr "$runner" exec -p /dev/stdin "$CTID" < <(cat "$P") ;;
  substitution) run --separate-stderr "$runner" exec --process <(cat "$P") "$CTID" ;;
  more)
    { cat "$P"; echo '{"args": ["/bin/false"]}'; } >"$P.more"
    run --separate-stderr "$runner" exec -p "$P.more" "$CTID"
    ;;
  esac
}

# execs_via RUNNER KIND...: exec_via each KIND, each creating /etc/x as
# $WANT says, with the descriptors $FDS (the first kind's, when empty).
execs_via() {
  local runner=$1 kind
  shift
  for kind in "$@"; do
    exec_via "$kind" "$runner"
    if [ "$status" -ne 0 ] || [ "${lines[0]}" != "create /etc/x: $WANT" ]; then
      printf 'exec -p as %s through %s: status %s\n%s\n%s\n' "$kind" "$runner" "$status" "$output" "$stderr" >&2
      return 1
    fi
    # No descriptor of entitle's reaches the process.
    : "${FDS:=$(printf '%s\n' "${lines[@]:1}")}"
    if [ "$(printf '%s\n' "${lines[@]:1}")" != "$FDS" ]; then
      printf 'exec -p as %s through %s: the process has the fds\n%s\nnot\n%s\n' "$kind" "$runner" \
        "$(printf '%s\n' "${lines[@]:1}")" "$FDS" >&2
      return 1
    fi
  done
}

@test "fidelity: exec -p FILE where FILE is a pipe, /dev/stdin, <(...), or has more after the process, is taken, confined, as runc takes it; FILE is left as given" {
  P="$BATS_TEST_TMPDIR/p.json"
  started_fs_write rnc
  process_file "$P" /bin/sh -c "$CREATE; ls /proc/self/fd"
  WANT=ok FDS=
  execs_via rnc file fifo held stdin substitution more
  rnc delete -f "$CTID"

  started_fs_write ent
  process_file "$P" /bin/sh -c "$CREATE; ls /proc/self/fd"
  sum=$(sha256sum <"$P")
  WANT="Permission denied"
  execs_via ent file fifo held stdin substitution more
  [ "$(sha256sum <"$P")" = "$sum" ]
}

@test "fidelity: crun: exec -p FILE where FILE is a pipe, /dev/stdin or <(...) is taken, confined, as crun takes it" {
  require_crun
  P="$BATS_TEST_TMPDIR/p.json"
  writable_bundle /probe sleep 600
  create_started crn "$BUNDLE" "$CTID"
  process_file "$P" /bin/sh -c "$CREATE; ls /proc/self/fd"
  # crun reads FILE to its end: a writer that holds it open would hang it.
  WANT=ok FDS=
  execs_via crn file fifo stdin substitution
  crn delete -f "$CTID"

  write_entitle_config "{\"runtime\": \"$CRUN_BIN\", \"state_dir\": \"$STATE\"}"
  set_entitlements "$BUNDLE" fs.write=/tmp
  create_started ent_crun "$BUNDLE" "$CTID"
  process_file "$P" /bin/sh -c "$CREATE; ls /proc/self/fd"
  WANT="Permission denied"
  execs_via ent_crun file fifo held stdin substitution
}

@test "fidelity: exec -p of a process that never ends is refused in one line once entitle has read 16 MiB; /dev/zero at once, as runc refuses it" {
  started_fs_write ent
  # A JSON string that never closes, from a writer that never stops:
  # runc would read it for ever (its decoder has no bound).
  run --separate-stderr timeout 60 "$ENTITLE" --root "$ROOT" exec \
    -p <(printf '{"args": ["'; yes a | tr -d '\n') "$CTID"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "entitle: "*"/dev/fd/"*" is larger than 16 MiB" ]]

  run --separate-stderr rnc exec -p /dev/zero "$CTID"
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"invalid character"* ]]
  run --separate-stderr timeout 20 "$ENTITLE" --root "$ROOT" exec -p /dev/zero "$CTID"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "entitle: "*"/dev/zero"*"invalid JSON"* ]]
}
