#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Without entitlements entitle is transparent: every command gives the
# stdout, stderr and exit status that bare runc gives (DESIGN §1).  Each
# case runs the same commands through runc and through entitle, one after
# the other, with the same --root, bundle and container id, and compares
# them after dropping what is volatile (pids, creation times).

load helpers

STATE_FILTER='del(.pid, .created)'

@test "passthrough: run of /bin/true exits 0 as with runc" {
  make_bundle "$BUNDLE" /bin/true
  step runc run rnc run -b "$BUNDLE" "$CTID"
  step entitle run ent run -b "$BUNDLE" "$CTID"
  [ "$(step_value entitle run rc)" = 0 ]
  compare_steps runc entitle
}

@test "passthrough: run passes the container's stdout, stderr and exit status 3 through" {
  make_bundle "$BUNDLE" /bin/sh -c 'echo to-stdout; echo to-stderr >&2; exit 3'
  step runc run rnc run -b "$BUNDLE" "$CTID"
  step entitle run ent run -b "$BUNDLE" "$CTID"
  [ "$(step_value entitle run rc)" = 3 ]
  [ "$(step_value entitle run out)" = to-stdout ]
  [ "$(step_value entitle run err)" = to-stderr ]
  compare_steps runc entitle
}

@test "passthrough: create, start, state, exec, ps, list, kill and delete answer as runc" {
  make_bundle "$BUNDLE"
  lifecycle runc runc rnc
  lifecycle runc entitle ent
  # The runs did what they should, so that equal outputs mean something.
  [ "$(step_value entitle 4-state-running out | jq -r .status)" = running ]
  [ "$(step_value entitle 5-exec rc)" = 5 ]
  [ "$(step_value entitle 5-exec out)" = out ]
  [ "$(step_value entitle 7-list-json out | jq -r '.[0].id')" = "$CTID" ]
  [ "$(step_value entitle 10-state-stopped out | jq -r .status)" = stopped ]
  [ "$(step_value entitle 12-state-deleted rc)" != 0 ]
  compare_steps runc entitle
}

@test "passthrough: pause and resume answer as runc" {
  make_bundle "$BUNDLE"
  for r in rnc ent; do
    create_started "$r" "$BUNDLE" "$CTID"
    step "$r" 1-pause "$r" pause "$CTID"
    step_json "$r" 2-state-paused "$STATE_FILTER" "$r" state "$CTID"
    step "$r" 3-pause-again "$r" pause "$CTID"
    step "$r" 4-resume "$r" resume "$CTID"
    step_json "$r" 5-state-resumed "$STATE_FILTER" "$r" state "$CTID"
    step "$r" 6-delete "$r" delete "$CTID"
    step "$r" 7-delete-force "$r" delete -f "$CTID"
  done
  [ "$(step_value ent 2-state-paused out | jq -r .status)" = paused ]
  [ "$(step_value ent 5-state-resumed out | jq -r .status)" = running ]
  compare_steps rnc ent
}

@test "passthrough: ps table has runc's header and rows" {
  make_bundle "$BUNDLE"
  for r in rnc ent; do
    create_started "$r" "$BUNDLE" "$CTID"
    step "$r" ps "$r" ps "$CTID"
    # Keep the UID and CMD columns: PIDs and times vary.
    awk '{ print $1, $(NF - 1), $NF }' "$BATS_TEST_TMPDIR/out/$r/ps.out" >"$BATS_TEST_TMPDIR/ps"
    mv "$BATS_TEST_TMPDIR/ps" "$BATS_TEST_TMPDIR/out/$r/ps.out"
    "$r" delete -f "$CTID"
  done
  [ "$(step_value ent ps rc)" = 0 ]
  grep -q 'root.*sleep' "$BATS_TEST_TMPDIR/out/ent/ps.out"
  compare_steps rnc ent
}

@test "passthrough: an unknown command fails as it does with runc" {
  step runc unknown rnc frobnicate
  step entitle unknown ent frobnicate
  [ "$(step_value entitle unknown rc)" != 0 ]
  compare_steps runc entitle
}

@test "passthrough: a command on a missing container fails as with runc" {
  for c in state start kill delete pause resume ps; do
    step runc "$c" rnc "$c" no-such-container
    step entitle "$c" ent "$c" no-such-container
  done
  [ "$(step_value entitle state rc)" != 0 ]
  compare_steps runc entitle
}

# version_is_runtime_then_entitle RUNTIME: $output (of entitle --version)
# is RUNTIME --version's output as it prints it, then entitle's three
# lines naming RUNTIME.
version_is_runtime_then_entitle() {
  local expected n
  expected=$("$1" --version)
  n=$(printf '%s\n' "$expected" | wc -l)
  if [ "$(printf '%s\n' "$output" | head -n "$n")" != "$expected" ] || [ "${#lines[@]}" -ne $((n + 3)) ] ||
    [[ "${lines[n]}" != "entitle version "[0-9]* ]] || [[ "${lines[n + 1]}" != "catalogue: "[0-9]* ]] ||
    [ "${lines[n + 2]}" != "runtime: $1" ]; then
    printf "expected %s --version, then entitle's lines:\n%s\ngot (status %s):\n%s\n" "$1" "$expected" \
      "$status" "$output" >&2
    return 1
  fi
}

@test "passthrough: --version prints runc's lines first, as runc prints them, then entitle's" {
  run --separate-stderr "$ENTITLE" --version
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  version_is_runtime_then_entitle "$RUNC_BIN"
}

@test "passthrough: --version, -v and version: line 0 is runc's, and lines 0-2 pass runc's own version.bats checks" {
  # runc's integration suite (tests/integration/version.bats) reads the
  # first three lines of `runc -v`; first under runc itself.
  for form in --version -v; do
    run --separate-stderr "$RUNC_BIN" "$form"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" =~ runc\ version\ [0-9]+\.[0-9]+\.[0-9]+ ]]
    [[ "${lines[1]}" =~ commit:+ ]]
    [[ "${lines[2]}" =~ spec:\ [0-9]+\.[0-9]+\.[0-9]+ ]]
  done
  runc_first=${lines[0]}
  for form in --version -v version; do
    run --separate-stderr "$ENTITLE" "$form"
    [ "$status" -eq 0 ]
    if [ "${lines[0]}" != "$runc_first" ]; then
      printf "entitle %s: line 0 is '%s', runc's is '%s'\n" "$form" "${lines[0]}" "$runc_first" >&2
      false
    fi
    [[ "${lines[0]}" =~ runc\ version\ [0-9]+\.[0-9]+\.[0-9]+ ]]
    [[ "${lines[1]}" =~ commit:+ ]]
    [[ "${lines[2]}" =~ spec:\ [0-9]+\.[0-9]+\.[0-9]+ ]]
  done
}

@test "passthrough: --version of a runtime that fails exits with its status, its message on stderr; no runtime is one line" {
  # A runtime whose --version fails (exit 3, a message on stderr): first
  # on its own.
  printf '#!/bin/sh\necho "runtime: cannot tell my version" >&2\nexit 3\n' >"$BATS_TEST_TMPDIR/broken-runc"
  chmod +x "$BATS_TEST_TMPDIR/broken-runc"
  run --separate-stderr "$BATS_TEST_TMPDIR/broken-runc" --version
  [ "$status" -eq 3 ]
  [ "$stderr" = "runtime: cannot tell my version" ]

  write_entitle_config "{\"runtime\": \"$BATS_TEST_TMPDIR/broken-runc\"}"
  run --separate-stderr "$ENTITLE" --version
  [ "$status" -eq 3 ]
  [ "$stderr" = "runtime: cannot tell my version" ]
  [[ "${lines[0]}" == "entitle version "* ]]
  [ "${lines[2]}" = "runtime: $BATS_TEST_TMPDIR/broken-runc" ]

  # None at all: one line, status 1.
  write_entitle_config '{"runtime": "/nonexistent/runc"}'
  run --separate-stderr "$ENTITLE" --version
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  one_error_line
  [[ "$stderr" == *"/nonexistent/runc"* ]]
}

@test "passthrough: without entitlements create leaves config.json byte-identical" {
  make_bundle "$BUNDLE"
  before=$(fingerprint "$BUNDLE")
  sum=$(sha256sum <"$BUNDLE/config.json")
  ent create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1
  [ "$(rnc state "$CTID" | jq -r .status)" = created ]
  [ "$(sha256sum <"$BUNDLE/config.json")" = "$sum" ]
  [ "$(fingerprint "$BUNDLE")" = "$before" ]
  ent delete -f "$CTID"
}

@test "passthrough: without entitlements run leaves the bundle unchanged" {
  make_bundle "$BUNDLE" /bin/true
  # Annotations of other projects are no request to entitle.
  edit_config "$BUNDLE" '.annotations = {"org.example.foo": "bar", "io.entitle.unrelated": "x"}'
  before=$(fingerprint "$BUNDLE")
  ent run -b "$BUNDLE" "$CTID" </dev/null
  [ "$(fingerprint "$BUNDLE")" = "$before" ]
}

@test "passthrough: --root puts the state where runc would" {
  make_bundle "$BUNDLE"
  other="$BATS_TEST_TMPDIR/other-root"
  "$ENTITLE" --root="$other" create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1
  [ -d "$other/$CTID" ]
  [ "$("$RUNC_BIN" --root "$other" state "$CTID" | jq -r .id)" = "$CTID" ]
  # The default root and the test's root know nothing of it.
  run rnc state "$CTID"
  [ "$status" -ne 0 ]
  "$ENTITLE" --root "$other" delete -f "$CTID"
  [ ! -e "$other/$CTID" ]
}

@test "passthrough: --log and --log-format json reach runc, which writes its own log" {
  for label in runc entitle; do
    log="$BATS_TEST_TMPDIR/$label.log"
    if [ $label = runc ]; then r=$RUNC_BIN; else r=$ENTITLE; fi
    step "$label" delete "$r" --root "$ROOT" --log "$log" --log-format json delete no-such-container
    [ -s "$log" ]
    # One JSON record per line, as runc writes them; drop the time.
    jq -c 'del(.time)' "$log" >"$BATS_TEST_TMPDIR/out/$label/log"
  done
  [ "$(step_value entitle delete rc)" != 0 ]
  jq -e 'select(.level == "error") | .msg | test("no-such-container|not exist")' \
    "$BATS_TEST_TMPDIR/entitle.log" >/dev/null
  compare_steps runc entitle
}

@test "passthrough: --log-format text and --debug reach runc" {
  make_bundle "$BUNDLE" /bin/true
  for label in runc entitle; do
    log="$BATS_TEST_TMPDIR/$label.log"
    if [ $label = runc ]; then r=$RUNC_BIN; else r=$ENTITLE; fi
    step "$label" run "$r" --debug --root "$ROOT" --log "$log" --log-format text run -b "$BUNDLE" "$CTID"
    [ "$(step_value "$label" run rc)" = 0 ]
    # runc logs at debug level only when --debug reached it.
    grep -q 'level=debug' "$log"
  done
}

# The bundle is found as runc finds it: a request in its config.json must be
# seen whatever the spelling of --bundle.
@test "bundle: every spelling of --bundle and the cwd are honoured" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  n=0
  for form in "-b B" "-b=B" "--bundle B" "--bundle=B" "-bundle B" "-bundle=B" "after-id B" "cwd"; do
    n=$((n + 1))
    cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
    id="$CTID-$n"
    case "$form" in
      cwd) (cd "$BUNDLE" && ent create "$id") ;;
      "after-id B") ent create "$id" --bundle "$BUNDLE" ;;
      *=B) ent create "${form%=B}=$BUNDLE" "$id" ;;
      *) ent create "${form% B}" "$BUNDLE" "$id" ;;
    esac </dev/null >"$BATS_TEST_TMPDIR/create.out" 2>&1 || {
      echo "create with $form failed: $(cat "$BATS_TEST_TMPDIR/create.out")" >&2
      false
    }
    [ "$(rnc state "$id" | jq -r .bundle)" = "$BUNDLE" ]
    applied=$(jq -r '.annotations["io.entitle.applied"] // "none"' "$BUNDLE/config.json")
    if [ "$applied" != network.none ]; then
      echo "with $form, config.json was not rewritten (io.entitle.applied: $applied)" >&2
      false
    fi
    rnc delete -f "$id"
  done
}

@test "bundle: a bundle elsewhere than the cwd is the one rewritten" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  # A decoy config.json in the cwd must be left alone.
  decoy="$BATS_TEST_TMPDIR/cwd"
  make_bundle "$decoy"
  set_entitlements "$decoy" network.none
  before=$(fingerprint "$decoy")
  (cd "$decoy" && ent create -b "$BUNDLE" "$CTID") </dev/null >/dev/null 2>&1
  [ "$(fingerprint "$decoy")" = "$before" ]
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = network.none ]
}

@test "bundle: a bundle directory named like a command is found as runc finds it" {
  make_bundle "$BATS_TEST_TMPDIR/create"
  set_entitlements "$BATS_TEST_TMPDIR/create" network.none
  (cd "$BATS_TEST_TMPDIR" && ent create -b create create) </dev/null >/dev/null 2>&1
  [ "$(rnc state create | jq -r .bundle)" = "$BATS_TEST_TMPDIR/create" ]
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BATS_TEST_TMPDIR/create/config.json")" = network.none ]
  rnc delete -f create
}

@test "passthrough: entitle becomes runc in the same process, with or without entitlements" {
  make_bundle "$BUNDLE"
  runc_exe=$(readlink -f "$RUNC_BIN")
  for ents in "" network.none; do
    [ -z "$ents" ] || set_entitlements "$BUNDLE" "$ents"
    # Not through the ent function: a background function is a subshell.
    "$ENTITLE" --root "$ROOT" run -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1 3>&- &
    pid=$!
    wait_status ent "$CTID" running
    exe=$(readlink "/proc/$pid/exe")
    rnc kill "$CTID" KILL
    wait "$pid" || true
    if [ "$exe" != "$runc_exe" ]; then
      echo "with \"$ents\", the process entitle started is $exe, not $runc_exe" >&2
      false
    fi
  done
}

@test "passthrough: --preserve-fds hands fd 3 to the container, with or without entitlements" {
  make_bundle "$BUNDLE" /bin/sh -c 'echo to-fd-3 >&3'
  for ents in "" network.none; do
    [ -z "$ents" ] || set_entitlements "$BUNDLE" "$ents"
    : >"$BATS_TEST_TMPDIR/fd3"
    ent run --preserve-fds 1 -b "$BUNDLE" "$CTID" </dev/null 3>"$BATS_TEST_TMPDIR/fd3"
    [ "$(cat "$BATS_TEST_TMPDIR/fd3")" = to-fd-3 ]
  done
}

@test "passthrough: stdin reaches the container, with or without entitlements" {
  make_bundle "$BUNDLE" /bin/cat
  for ents in "" network.none; do
    [ -z "$ents" ] || set_entitlements "$BUNDLE" "$ents"
    run --separate-stderr ent run -b "$BUNDLE" "$CTID" <<<"data for $ents"
    [ "$status" -eq 0 ]
    [ "$output" = "data for $ents" ]
  done
}

@test "passthrough: a relative --root, --pid-file and --bundle are the caller's, as runc has them" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  mkdir "$BATS_TEST_TMPDIR/cwd"
  cd "$BATS_TEST_TMPDIR/cwd"
  "$ENTITLE" --root ./state create -b ../bundle --pid-file ct.pid "$CTID" </dev/null >/dev/null 2>&1
  [ -d "$BATS_TEST_TMPDIR/cwd/state/$CTID" ]
  [ -s "$BATS_TEST_TMPDIR/cwd/ct.pid" ]
  [ ! -e "$BUNDLE/ct.pid" ]
  state=$("$RUNC_BIN" --root ./state state "$CTID")
  [ "$(jq -r .bundle <<<"$state")" = "$BUNDLE" ]
  [ "$(jq -r .pid <<<"$state")" = "$(cat ct.pid)" ]
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = network.none ]
  "$RUNC_BIN" --root ./state delete -f "$CTID"
}

@test "passthrough: global flags before the command do not hide it" {
  probe_bundle "$BUNDLE" "socket inet"
  set_entitlements "$BUNDLE" network.none
  run --separate-stderr "$ENTITLE" --debug --log "$BATS_TEST_TMPDIR/log" --log-format=json \
    --rootless=false --criu /usr/sbin/criu -root "$ROOT" run -b "$BUNDLE" "$CTID"
  [ "$output" = "socket inet: EPERM" ]
  jq -e 'select(.level == "debug")' "$BATS_TEST_TMPDIR/log" >/dev/null
}

@test "passthrough: a config.json over 16 MiB without entitlements is runc's to run" {
  # Transparency covers every bundle runc runs: with no entitlement from
  # any source, entitle has nothing to parse, hence nothing to refuse.
  make_bundle "$BUNDLE" /bin/echo ran
  head -c $((17 * 1024 * 1024)) /dev/zero | tr '\0' a >"$BATS_TEST_TMPDIR/pad"
  edit_config "$BUNDLE" '.annotations["org.example.padding"] = $pad' --rawfile pad "$BATS_TEST_TMPDIR/pad"
  step runc run rnc run -b "$BUNDLE" "$CTID"
  step entitle run ent run -b "$BUNDLE" "$CTID"
  [ "$(step_value runc run out)" = ran ]
  compare_steps runc entitle
}

# install_as_runc DIR HOW: DIR/runc is entitle, as docs/integration.md
# offers it: HOW is "symlink" (to the build's entitle) or "copy" (with
# entitle-full beside it, where a copied front looks for it).
install_as_runc() {
  local dir=$1 how=$2
  mkdir -p "$dir"
  case $how in
    symlink) ln -s "$(realpath "$ENTITLE")" "$dir/runc" ;;
    copy)
      cp "$ENTITLE" "$dir/runc"
      cp "$(dirname "$ENTITLE")/entitle-full" "$dir/entitle-full"
      ;;
  esac
}

# as_runc DIR ARG...: `runc ARG...` with DIR first on PATH, stopped after
# 20 s (entitle and entitle-full once exec'd each other for ever).
as_runc() {
  local dir=$1
  shift
  PATH="$dir:$PATH" timeout 20 runc "$@"
}

@test "passthrough: installed as runc (symlink or copy), runc --version is the real runc's, then entitle's" {
  for how in symlink copy; do
    install_as_runc "$BATS_TEST_TMPDIR/$how" "$how"
    run_detached as_runc "$BATS_TEST_TMPDIR/$how" --version
    if [ "$status" -ne 0 ]; then
      printf 'as a %s, runc --version: status %s (124: killed, an exec loop)\n%s\n' "$how" "$status" "$stderr" >&2
      false
    fi
    version_is_runtime_then_entitle "$RUNC_BIN"
  done
}

@test "passthrough: installed as runc (symlink or copy), runc features is the real runc's, with entitle's facts" {
  runc_features=$("$RUNC_BIN" features | jq -S 'del(.annotations)')
  version=$("$ENTITLE" features | jq -r '.annotations["io.entitle.version"]')
  [ -n "$version" ] && [ "$version" != null ]
  for how in symlink copy; do
    install_as_runc "$BATS_TEST_TMPDIR/$how" "$how"
    run_detached as_runc "$BATS_TEST_TMPDIR/$how" features
    [ "$status" -eq 0 ]
    [ "$(jq -S 'del(.annotations)' <<<"$output")" = "$runc_features" ]
    [ "$(jq -r '.annotations["io.entitle.version"]' <<<"$output")" = "$version" ]
  done
}

@test "network.none: installed as runc (symlink or copy), runc run confines the container, and state, kill and delete reach the real runc" {
  probe_bundle "$BUNDLE" "socket inet" "socket unix"
  set_entitlements "$BUNDLE" network.none
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  for how in symlink copy; do
    cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
    install_as_runc "$BATS_TEST_TMPDIR/$how" "$how"
    run_detached as_runc "$BATS_TEST_TMPDIR/$how" --root "$ROOT" run -b "$BUNDLE" "$CTID-$how"
    [ "$status" -eq 0 ]
    expect_lines "socket inet: EPERM" "socket unix: ok"
    [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = network.none ]
  done
  # The lifecycle of a detached container, through the same runc.
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  dir="$BATS_TEST_TMPDIR/symlink"
  as_runc "$dir" --root "$ROOT" create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1
  [ "$(as_runc "$dir" --root "$ROOT" state "$CTID" | jq -r .status)" = created ]
  as_runc "$dir" --root "$ROOT" kill "$CTID" KILL
  wait_status rnc "$CTID" stopped
  as_runc "$dir" --root "$ROOT" delete "$CTID"
  run rnc state "$CTID"
  [ "$status" -ne 0 ]
}

@test "passthrough: --entitle-config=FILE is the admin config, and never reaches the runtime" {
  cfg="$BATS_TEST_TMPDIR/other.json"
  echo '{"require": ["network.none"]}' >"$cfg"
  probe_bundle "$BUNDLE" "socket inet"
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run_flag_forms entitle-config "$cfg" "socket inet: EPERM"
  # Without it there is no admin config: nothing applies.
  cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
  run --separate-stderr ent run -b "$BUNDLE" "$CTID"
  [ "$output" = "socket inet: ok" ]
  # Commands entitle passes through answer as runc does.
  make_bundle "$BUNDLE"
  create_started rnc "$BUNDLE" "$CTID"
  step runc state rnc state "$CTID"
  step runc list rnc list -q
  step entitle state "$ENTITLE" --entitle-config="$cfg" --root "$ROOT" state "$CTID"
  step entitle list "$ENTITLE" --root "$ROOT" --entitle-config "$cfg" list -q
  [ "$(step_value entitle state rc)" = 0 ]
  [ "$(step_value entitle list out)" = "$CTID" ]
  compare_steps runc entitle
}

# default_config_path: the admin config entitle reads when neither
# --entitle-config nor ENTITLE_CONFIG names one (configure
# --with-config-file).
default_config_path() {
  sed -n 's/^#define ENTITLE_CONFIG_FILE "\(.*\)"$/\1/p' "${ENTITLE_BUILDDIR:-$BATS_TEST_DIRNAME/../..}/config.h"
}

# with_default_config JSON COMMAND...: run COMMAND in a private mount
# namespace where the default admin config holds JSON (an overlay on its
# directory's parent: the host's file system is not touched).
with_default_config() {
  local json=$1 path dir over
  shift
  path=$(default_config_path)
  dir=$(dirname "$path")
  over=$dir
  [ -d "$dir" ] || over=$(dirname "$dir")
  mkdir -p "$BATS_TEST_TMPDIR/upper" "$BATS_TEST_TMPDIR/work"
  unshare --mount --propagation private -- /bin/sh -c '
    set -e
    mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$3" "$1"
    mkdir -p "$4"
    printf "%s\n" "$5" >"$6"
    shift 6
    exec "$@"' sh "$over" "$BATS_TEST_TMPDIR/upper" "$BATS_TEST_TMPDIR/work" "$dir" "$json" "$path" "$@"
}

@test "passthrough: ENTITLE_CONFIG= (set and empty) means no admin config, for entitle and its hook" {
  [ -n "$(default_config_path)" ] || skip "no config.h in the build tree (set ENTITLE_BUILDDIR)"
  # A default config that would show in the container: egress to one
  # address only, so that a connection to loopback is refused (EPERM).
  floor='{"require": ["network.egress=10.9.9.9/32:1"]}'
  probe_bundle "$BUNDLE" "connect 127.0.0.1 9"
  set_entitlements "$BUNDLE" network.user
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"

  # Unset: the default path is read.
  run --separate-stderr with_default_config "$floor" env -u ENTITLE_CONFIG \
    "$ENTITLE" --root "$ROOT" run -b "$BUNDLE" "$CTID-1"
  [ "$output" = "connect 127.0.0.1 9: EPERM" ]
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = "network.egress=10.9.9.9/32:1,network.user" ]

  # Set and empty: no admin config.  The hook (which the runtime runs with
  # an empty environment) is told so too, and does not read the default.
  cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
  run --separate-stderr with_default_config "$floor" env ENTITLE_CONFIG= \
    "$ENTITLE" --root "$ROOT" run -b "$BUNDLE" "$CTID-2"
  [ "$output" = "connect 127.0.0.1 9: ECONNREFUSED" ]
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = network.user ]
  [ "$(jq -c '[.hooks.createRuntime[0].args | index("--config") as $i | .[$i + 1]]' "$BUNDLE/config.json")" = '[""]' ]
}
