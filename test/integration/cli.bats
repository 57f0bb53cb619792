#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The command line as people meet it (issue 12, "A CLI that helps"):
# --help and `entitle help` (entitle's part, then the runtime's help as
# the runtime prints it), the bash completion (completion/entitle, fed by
# the hidden `entitle __complete`), the closest name for a typo at create,
# warnings in the engine's log and never in the container's own stderr
# (also through a private containerd), and the man pages.

load helpers

SRCDIR=${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}
BUILDDIR=${ENTITLE_BUILDDIR:-$BATS_TEST_DIRNAME/../..}

# after_line TEXT LINE: what TEXT holds after its first line LINE.
after_line() {
  awk -v l="$2" 'found { print } $0 == l && !found { found = 1 }' <<<"$1"
}

@test "help: entitle --help and entitle help list entitle's commands, then the runtime's --help as it prints it" {
  want=$("$RUNC_BIN" --help)
  for form in --help -h help; do
    run --separate-stderr "$ENTITLE" $form
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [ "${lines[0]}" = "Usage: entitle [global options] COMMAND [options] [arguments]" ]
    for c in explain compile probe version help create run restore exec features; do
      printf '%s\n' "$output" | grep -q "^  $c  "
    done
    [[ "$output" == *"  --entitle-config FILE   entitle's own: the admin configuration"* ]]
    # Then the runtime's, byte for byte.
    [ "$(after_line "$output" "The runtime's commands and options ($RUNC_BIN --help):")" = "$want" ]
  done
  # entitle's commands come first.
  [[ "$(printf '%s\n' "$output" | grep -n '^  explain ' | cut -d: -f1)" -lt \
    "$(printf '%s\n' "$output" | grep -n "^The runtime's" | cut -d: -f1)" ]]
}

@test "help: each of entitle's commands has --help, -h and help COMMAND, listing its options" {
  for c in explain compile probe checmate why learn inspect config configure version help; do
    run --separate-stderr "$ENTITLE" "$c" --help
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [[ "${lines[0]}" == "Usage: entitle [global options] $c"* ]]
    printf '%s\n' "$output" | grep -q '^Options:$'
    printf '%s\n' "$output" | grep -q '^  -h, --help  '
    [ "$("$ENTITLE" "$c" -h)" = "$output" ]
    [ "$("$ENTITLE" help "$c")" = "$output" ]
    # Nothing of the runtime's: these are entitle's alone.
    [[ "$output" != *"The rest is the runtime's"* ]]
  done
  # The options each one lists, and that the man page names.
  run "$ENTITLE" explain --help
  for o in --json --score --bundle --config --max; do
    [[ "$output" == *"$o"* ]]
  done
  run "$ENTITLE" compile --help
  for o in --bundle --config --entitlements --diff; do
    [[ "$output" == *"$o"* ]]
  done
  # --help wins over the rest of the command line, a broken admin config
  # included.
  printf '{"bogus": ' >"$BATS_TEST_TMPDIR/broken.json"
  run --separate-stderr env ENTITLE_CONFIG="$BATS_TEST_TMPDIR/broken.json" "$ENTITLE" explain --score --help
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [[ "${lines[0]}" == "Usage: entitle [global options] explain"* ]]
}

@test "help: create, run, restore, exec and features --help say what entitle does, then give the runtime's help" {
  for c in create run restore exec features; do
    want=$("$RUNC_BIN" "$c" --help)
    run --separate-stderr "$ENTITLE" "$c" --help
    [ "$status" -eq 0 ]
    [ -z "$stderr" ]
    [[ "${lines[0]}" == "Usage: entitle [global options] $c"* ]]
    printf '%s\n' "$output" | grep -q '^Options entitle reads:$'
    [ "$(after_line "$output" "The rest is the runtime's ($RUNC_BIN $c --help):")" = "$want" ]
    [ "$("$ENTITLE" help "$c")" = "$output" ]
  done
  # The runtime's commands alone: its help only.
  [ "$("$ENTITLE" help kill)" = "$("$RUNC_BIN" kill --help)" ]
  [ "$("$ENTITLE" kill --help)" = "$("$RUNC_BIN" kill --help)" ]
  # A --help of the process exec runs is the process's (runc would run it).
  run "$ENTITLE" help exec
  [[ "$output" == *"The rest is the runtime's"* ]]
}

@test "help: with crun as the runtime, its help follows entitle's" {
  require_crun
  write_entitle_config "{\"runtime\": \"$CRUN_BIN\"}"
  run --separate-stderr "$ENTITLE" create --help
  [ "$status" -eq 0 ]
  [ "$(after_line "$output" "The rest is the runtime's ($CRUN_BIN create --help):")" = "$("$CRUN_BIN" create --help)" ]
  run --separate-stderr "$ENTITLE" --help
  [ "$status" -eq 0 ]
  [ "$(after_line "$output" "The runtime's commands and options ($CRUN_BIN --help):")" = "$("$CRUN_BIN" --help)" ]
}

@test "help: create --help in a bundle that asks for entitlements writes nothing and creates nothing" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none,security.confined
  snapshot
  cd "$BUNDLE"
  for c in create run; do
    run_detached ent "$c" --help "$CTID"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" == "Usage: entitle [global options] $c"* ]]
    [ "$(fingerprint "$BUNDLE")" = "$BEFORE" ]
    [ -z "$(rnc list -q)" ]
  done
  # A global --help before the command too (runc prints its overview).
  run_detached ent --help create "$CTID"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "Usage: entitle [global options] COMMAND [options] [arguments]" ]
  [ "$(fingerprint "$BUNDLE")" = "$BEFORE" ]
  [ -z "$(rnc list -q)" ]
}

@test "create: an unknown entitlement names the closest known one, and nothing changes" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none,security.confinde
  snapshot
  run_detached ent create -b "$BUNDLE" "$CTID"
  refused 'unknown entitlement `security.confinde`: did you mean `security.confined`?'
}

# complete LINE: complete the end of LINE as bash would, with bash's own
# split into COMP_WORDS at its word breaks (`=` and `:`); the candidates
# in $reply, separated by spaces.
complete_line() {
  local line=$1
  reply=$(
    # shellcheck disable=SC1091 # the file under test
    source "$SRCDIR/completion/entitle"
    COMP_LINE=$line
    COMP_POINT=${#line}
    # bash's words: split at blanks, and `=` as a word of its own.
    read -ra COMP_WORDS <<<"${line//=/ = }"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    _entitle
    echo "${COMPREPLY[*]}"
  )
}

@test "completion: commands, options, entitlement names and paths, from entitle itself" {
  E=$ENTITLE
  complete_line "$E ex"
  [ "$reply" = "explain exec" ]
  complete_line "$E "
  [[ " $reply " == *" explain compile probe checmate why learn inspect config configure version help create run restore exec features "* ]]
  [[ " $reply " != *" __complete "* ]]
  [[ " $reply " == *" kill "* ]]
  complete_line "$E --entitle-c"
  [ "$reply" = "--entitle-config" ]
  # A global option's value is not the command.
  complete_line "$E --root /run/x --log-level debug ex"
  [ "$reply" = "explain exec" ]
  complete_line "$E explain --s"
  [ "$reply" = "--score" ]
  complete_line "$E explain network.n"
  [ "$reply" = "network.none" ]
  # A modifier completes to NAME=, for its value.
  complete_line "$E explain network.eg"
  [ "$reply" = "network.egress=" ]
  complete_line "$E explain network.egress="
  [ -z "$reply" ]
  # Every name of the catalogue, as explain lists them.
  complete_line "$E explain "
  [ "$(tr ' ' '\n' <<<"$reply" | sed 's/=$//' | sort)" = "$("$E" explain --json | jq -r '.[].name' | sort)" ]
  # A comma list goes on after its last comma.
  complete_line "$E compile -e network.none,security.con"
  [ "$reply" = "network.none,security.confined" ]
  complete_line "$E compile --entitlements=host.dev"
  [ "$reply" = "host.devices.admin host.devices.none" ]
  # Option values: words, and paths after `=` too.
  complete_line "$E --log-format=j"
  [ "$reply" = "json" ]
  complete_line "$E --log-format "
  [ "$reply" = "text json" ]
  mkdir -p "$BATS_TEST_TMPDIR/bundles/one" "$BATS_TEST_TMPDIR/bundles/two"
  touch "$BATS_TEST_TMPDIR/bundles/config.json"
  complete_line "$E compile -b $BATS_TEST_TMPDIR/bundles/o"
  [ "$reply" = "$BATS_TEST_TMPDIR/bundles/one" ]
  complete_line "$E --entitle-config=$BATS_TEST_TMPDIR/bundles/con"
  [ "$reply" = "$BATS_TEST_TMPDIR/bundles/config.json" ]
  # help names entitle's commands; the container's command is not ours.
  complete_line "$E help cr"
  [ "$reply" = "create" ]
  complete_line "$E exec --"
  [ "$reply" = "--process --cap --help" ]
  complete_line "$E exec id net"
  [ -z "$reply" ]
}

@test "completion: entitle __complete is hidden and reads no admin config" {
  printf '{"bogus": ' >"$BATS_TEST_TMPDIR/broken.json"
  run --separate-stderr env ENTITLE_CONFIG="$BATS_TEST_TMPDIR/broken.json" "$ENTITLE" __complete explain security.v
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "$output" = "$(printf 'words\nsecurity.view')" ]
  run env ENTITLE_CONFIG= "$ENTITLE" --help
  [[ "$output" != *__complete* ]]
  ! grep -q __complete "$SRCDIR/man/entitle.8"
}

# warn_bundle: $BUNDLE asks for network.none and carries crun's
# run.oci.seccomp_bpf_data, which entitle removes with a warning (crun would
# load it in place of the profile entitle writes), on any host; the
# container says "out" and "err".  Made anew for each run: a rewritten
# config holds entitle's profile and no longer the annotation.
WARNING='removed annotation `run.oci.seccomp_bpf_data`: it would replace the seccomp profile entitle wrote'
warn_bundle() {
  make_bundle "$BUNDLE" /bin/sh -c 'echo out; echo err >&2'
  set_entitlements "$BUNDLE" network.none
  edit_config "$BUNDLE" '.annotations["run.oci.seccomp_bpf_data"] = "AAAA"'
}

@test "log: with --log a warning goes to the log only, in its format; an error to stderr and the log" {
  warn_bundle
  warning=$WARNING
  # Without --log: stderr, as before.
  run_detached ent run -b "$BUNDLE" "$CTID"
  [ "$status" -eq 0 ]
  [ "$output" = out ]
  [ "$stderr" = "$(printf 'entitle: warning: %s\nerr' "$warning")" ]
  rnc delete -f "$CTID"
  # With --log: the container's stderr is its own.
  for format in json text; do
    log="$BATS_TEST_TMPDIR/log.$format"
    warn_bundle
    run_detached "$ENTITLE" --root "$ROOT" --log "$log" --log-format "$format" run -b "$BUNDLE" "$CTID"
    [ "$status" -eq 0 ]
    [ "$output" = out ]
    [ "$stderr" = err ]
    rnc delete -f "$CTID"
  done
  # Slurped: an empty log has no warning (jq -e on no input succeeds).
  jq -e -s --arg w "entitle: $warning" 'any(.[]; .level == "warning" and .msg == $w)' "$BATS_TEST_TMPDIR/log.json"
  grep -q "level=warning msg=\"entitle: $warning\"" "$BATS_TEST_TMPDIR/log.text"
  # A log entitle cannot write to loses nothing: the warning goes to stderr.
  warn_bundle
  run_detached "$ENTITLE" --log /proc/no-such-dir/log compile -b "$BUNDLE"
  [ "$status" -eq 0 ]
  [ "$stderr" = "entitle: warning: $warning" ]
  # An error still reaches stderr, and the log.
  set_entitlements "$BUNDLE" fs.write=relative
  run_detached "$ENTITLE" --root "$ROOT" --log "$BATS_TEST_TMPDIR/log.json" --log-format json create -b "$BUNDLE" "$CTID"
  one_error_line
  [ "$(tail -n 1 "$BATS_TEST_TMPDIR/log.json" | jq -r '.level + " " + .msg')" = "error $stderr" ]
}

@test "log: crun's syslog: and journald: targets get entitle's lines through syslog(3)" {
  if ! busybox --list | grep -qx syslogd; then
    skip "needs busybox's syslogd"
  fi
  warn_bundle
  log="$BATS_TEST_TMPDIR/syslog.out"
  # A private /dev with a syslogd of its own: the host's /dev/log, if any,
  # is not touched.
  cat >"$BATS_TEST_TMPDIR/syslog.sh" <<'SH'
mount -t tmpfs tmpfs /dev && mknod -m 666 /dev/null c 1 3 || exit 99
busybox syslogd -n -O "$LOG" </dev/null &
for _ in $(seq 50); do [ -S /dev/log ] && break; sleep 0.1; done
"$ENTITLE" --log syslog:ent-cli compile -b "$BUNDLE" >/dev/null
"$ENTITLE" --log journald:ent-cli-j compile -b "$BUNDLE" >/dev/null
for _ in $(seq 50); do [ "$(grep -c 'entitle: ' "$LOG")" -ge 2 ] && break; sleep 0.1; done
kill $!
SH
  run --separate-stderr env LOG="$log" BUNDLE="$BUNDLE" unshare -m --propagation private sh "$BATS_TEST_TMPDIR/syslog.sh"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  grep -q "user.warn ent-cli\[[0-9]*\]: entitle: $WARNING" "$log"
  grep -q "user.warn ent-cli-j\[[0-9]*\]: entitle: $WARNING" "$log"
}

@test "log: through containerd a warning is in the task's log.json, not in the application's stderr" {
  local missing tool
  for tool in containerd ctr containerd-shim-runc-v2; do
    command -v "$tool" >/dev/null || missing+=" $tool"
  done
  [ -z "$missing" ] || skip "not installed:$missing (Debian package containerd)"
  require_bpf_for network.none
  # A short path: the socket's name must fit in sun_path.
  CTRD_DIR=$(mktemp -d /tmp/entitle-ctrd.XXXXXX)
  CTRD_NS="entitle-cli-${CTRD_DIR##*.}"
  # The shim and entitle run with containerd's environment (no admin config).
  ENTITLE_CONFIG=$ENTITLE_CONFIG containerd_start "$CTRD_DIR"
  cr() { ctr -a "$CTRD_DIR/containerd.sock" -n "$CTRD_NS" "$@"; }
  # The shim gives `runc create` the container's stdio (--rootfs: ctr's
  # flag for a rootfs directory, the positional argument before the id):
  # entitle's stderr there is the application's stderr, which ctr prints
  # as its own.
  run --separate-stderr timeout 60 ctr -a "$CTRD_DIR/containerd.sock" -n "$CTRD_NS" run --rm \
    --runc-binary "$(realpath "$ENTITLE")" --runc-root "$CTRD_DIR/runc" \
    --annotation io.entitle.entitlements=network.none --annotation run.oci.seccomp_bpf_data=AAAA \
    --rootfs "$ROOTFS" "$CTID" /bin/sh -c 'echo out; echo err >&2'
  if [ "$status" -ne 0 ]; then
    echo "ctr run: status $status: $stderr" >&2
    false
  fi
  [ "$output" = out ]
  [ "$stderr" = err ]
  # ... and the warning is where containerd keeps the runtime's log.
  cr run -d --runc-binary "$(realpath "$ENTITLE")" --runc-root "$CTRD_DIR/runc" \
    --annotation io.entitle.entitlements=network.none --annotation run.oci.seccomp_bpf_data=AAAA \
    --rootfs "$ROOTFS" "$CTID" /bin/sleep 600
  # Slurped: an empty log has no warning (jq -e on no input succeeds).
  jq -e -s --arg w "entitle: $WARNING" 'any(.[]; .level == "warning" and .msg == $w)' \
    "$CTRD_DIR/state/io.containerd.runtime.v2.task/$CTRD_NS/$CTID/log.json"
  cr tasks kill -s KILL "$CTID"
  for _ in $(seq 50); do
    cr tasks delete "$CTID" >/dev/null 2>&1 && break
    sleep 0.1
  done
  cr containers delete "$CTID"
}

teardown() {
  if [ -n "${CTRD_DIR:-}" ]; then
    containerd_stop "$CTRD_DIR" "$CTRD_NS"
  fi
  common_teardown
}

@test "man pages: groff -t -man -ww prints no warning, entitlements(7) included" {
  command -v groff >/dev/null || skip "needs groff (Debian package groff-base)"
  for page in "$SRCDIR"/man/*.8 "$SRCDIR"/man/*.5 "$BUILDDIR/man/entitlements.7"; do
    [ -f "$page" ]
    for dev in utf8 ps; do
      run groff -t -man -ww -z -T"$dev" "$page"
      if [ -n "$output" ]; then
        echo "$page (-T$dev): $output" >&2
        false
      fi
    done
  done
}

@test "man pages: entitle(8) names every command and option --help lists" {
  page="$SRCDIR/man/entitle.8"
  for c in explain compile probe checmate why learn inspect config configure version help create run restore exec features; do
    grep -Eq "^\.(B|BR|TP).*\b$c\b" "$page"
    for o in $("$ENTITLE" "$c" --help | sed -n '/^Options/,/^$/p' | grep -o -- '--[a-z-]*' | sort -u); do
      if ! grep -q -- "${o//-/\\\\-}" "$page"; then
        echo "entitle(8) does not name $c $o" >&2
        false
      fi
    done
  done
  for o in $("$ENTITLE" --help | sed -n '/^Global options/,/^$/p' | grep -o -- '--[a-z-]*' | sort -u); do
    grep -q -- "${o//-/\\\\-}" "$page"
  done
  grep -q '^\.SH EXAMPLES' "$page"
}

# same_as_runc WORD...: entitle WORD... prints what runc WORD... prints (its
# log lines' time aside) and exits as it does.
same_as_runc() {
  local want got want_out got_out
  want_out=$("$RUNC_BIN" "$@" 2>&1 | sed 's/^time="[^"]*" //')
  got_out=$("$ENTITLE" "$@" 2>&1 | sed 's/^time="[^"]*" //')
  want=$("$RUNC_BIN" "$@" >/dev/null 2>&1; echo $?)
  got=$("$ENTITLE" "$@" >/dev/null 2>&1; echo $?)
  if [ "$got" != "$want" ] || [ "$got_out" != "$want_out" ]; then
    printf 'entitle %s: status %s, runc: %s
%s
--- runc:
%s
' "$*" "$got" "$want" "$got_out" "$want_out" >&2
    return 1
  fi
}

# usage_error MESSAGE: the last command exited with 2, said MESSAGE on
# stderr as entitle's one line, and nothing on stdout.
usage_error() {
  if [ "$status" -ne 2 ] || [ -n "$output" ] || [ "$stderr" != "entitle: $1" ]; then
    printf 'status %s, stdout: %s\nexpected on stderr: entitle: %s\ngot: %s\n' "$status" "$output" "$1" "$stderr" >&2
    return 1
  fi
}

@test "cli: a bare entitle prints entitle's help, configure included, and says the runtime's commands pass through" {
  run --separate-stderr "$ENTITLE"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "${lines[0]}" = "Usage: entitle [global options] COMMAND [options] [arguments]" ]
  printf '%s\n' "$output" | grep -q '^  configure  '
  [[ "$output" == *"The runtime's commands (start, kill, delete, ps, ...) pass through to it"* ]]
  # entitle's alone: not the runtime's help after it.
  [[ "$output" != *"The runtime's commands and options"* ]]
  # --help lists configure too, and configure has its own help.
  run --separate-stderr "$ENTITLE" --help
  printf '%s\n' "$output" | grep -q '^  configure  '
  run --separate-stderr "$ENTITLE" configure --help
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [[ "${lines[0]}" == "Usage: entitle [global options] configure containerd|docker|podman|crio"* ]]
  for o in --profile --config --binary --drop-in --remove --set-as-default --in-place --dry-run; do
    printf '%s\n' "$output" | grep -q -- "^  $o "
  done
}

@test "cli: a typo of an entitle command exits 2 naming the closest; the runtime's commands and other words pass through" {
  run --separate-stderr "$ENTITLE" explian network.none
  usage_error 'unknown command `explian`: did you mean `explain`?'
  run --separate-stderr "$ENTITLE" --root "$BATS_TEST_TMPDIR/root" configur containerd
  usage_error 'unknown command `configur`: did you mean `configure`?'
  run --separate-stderr "$ENTITLE" wyh
  usage_error 'unknown command `wyh`: did you mean `why`?'
  run --separate-stderr "$ENTITLE" help explian
  usage_error 'help: unknown command `explian`: did you mean `explain`?'
  # runc's `h` (help) is a runtime's command, and a word far from every
  # command of entitle's is the runtime's to refuse: its output, its
  # status.
  same_as_runc h
  same_as_runc frobnicate
  same_as_runc list --quiet
  same_as_runc spec --help
}

@test "cli: a typo of an entitle global option exits 2 naming it; the runtimes' global options still pass through" {
  run --separate-stderr "$ENTITLE" --entitle-confg "$BATS_TEST_TMPDIR/e.json" list
  usage_error 'unknown option `--entitle-confg`: did you mean `--entitle-config`?'
  run --separate-stderr "$ENTITLE" --entitle-profil=x list
  usage_error 'unknown option `--entitle-profil=x`: did you mean `--entitle-profile`?'
  run --separate-stderr "$ENTITLE" --entitle-frobnicate list
  usage_error 'unknown option `--entitle-frobnicate`: entitle'"'"'s own are --entitle-config and --entitle-profile'
  # runc's and crun's global options before the command: the runtime's.
  root=$BATS_TEST_TMPDIR/root
  want=$("$RUNC_BIN" --root "$root" --log "$BATS_TEST_TMPDIR/log" --log-format json --debug --systemd-cgroup list 2>&1)
  [ "$("$ENTITLE" --root "$root" --log "$BATS_TEST_TMPDIR/log" --log-format json --debug --systemd-cgroup list 2>&1)" = "$want" ]
  [ "$("$ENTITLE" --rootless false --root="$root" list -q 2>&1)" = "$("$RUNC_BIN" --rootless false --root="$root" list -q 2>&1)" ]
  # crun's --cgroup-manager, and an option no runtime has: runc's to
  # refuse, in its words and with its status.
  same_as_runc --cgroup-manager=cgroupfs --root "$root" list
  same_as_runc --frobnicate --root "$root" list
}

@test "cli: an unknown option or a missing value of entitle's commands exits 2, naming the closest option" {
  run --separate-stderr "$ENTITLE" probe --bogus
  usage_error 'probe: unknown option `--bogus` (`entitle probe --help` lists them)'
  run --separate-stderr "$ENTITLE" explain --jsno network.none
  usage_error 'explain: unknown option `--jsno`: did you mean `--json`?'
  run --separate-stderr "$ENTITLE" compile --dif
  usage_error 'compile: unknown option `--dif`: did you mean `--diff`?'
  run --separate-stderr "$ENTITLE" why --follw
  usage_error 'why: unknown option `--follw`: did you mean `--follow`?'
  run --separate-stderr "$ENTITLE" inspect --jsn 1
  usage_error 'inspect: unknown option `--jsn`: did you mean `--json`?'
  run --separate-stderr "$ENTITLE" learn --writ
  usage_error 'learn: unknown option `--writ`: did you mean `--write`?'
  run --separate-stderr "$ENTITLE" configure containerd --dryrun
  usage_error 'configure: unknown option `--dryrun`: did you mean `--dry-run`?'
  run --separate-stderr "$ENTITLE" config check --jsn
  usage_error 'config: unknown option `--jsn`: did you mean `--json`?'
  run --separate-stderr "$ENTITLE" explain --score --max
  usage_error 'explain: `--max` needs a value (SCORE)'
  run --separate-stderr "$ENTITLE" probe --json=yes
  usage_error 'probe: `--json` takes no value'
  run --separate-stderr "$ENTITLE" probe extra
  usage_error 'probe: unexpected argument `extra`'
  run --separate-stderr "$ENTITLE" version extra
  usage_error 'version: unexpected argument `extra`'
}

@test "cli: --json is one switch, anywhere on the line, on every command that reports" {
  run --separate-stderr "$ENTITLE" explain network.none --json
  [ "$status" -eq 0 ]
  jq -e 'length == 1 and .[0].name == "network.none"' <<<"$output"
  [ "$("$ENTITLE" explain --json network.none | jq -c .)" = "$(jq -c . <<<"$output")" ]
  for c in explain probe why learn inspect config; do
    "$ENTITLE" "$c" --help | grep -q -- '^  --json  *print JSON$'
  done
  # config check, as the others: a document on stdout, exit 1 when bad.
  echo '{"defaults": ["network.none"]}' >"$BATS_TEST_TMPDIR/good.json"
  run --separate-stderr "$ENTITLE" config check "$BATS_TEST_TMPDIR/good.json" --json
  [ "$status" -eq 0 ]
  jq -e --arg f "$BATS_TEST_TMPDIR/good.json" '.file == $f and .ok == true and .errors == []' <<<"$output"
  echo '{"defaults": ["network.nne"]}' >"$BATS_TEST_TMPDIR/bad.json"
  run --separate-stderr "$ENTITLE" config check --json "$BATS_TEST_TMPDIR/bad.json"
  [ "$status" -eq 1 ]
  [ -z "$stderr" ]
  jq -e '.ok == false and (.errors | length) >= 1' <<<"$output"
}

# synopsis: entitle(8)'s SYNOPSIS as text, one form a line (at each .br):
# the font macros' words, alternating ones joined without a space.
synopsis() {
  awk '
    function words(s,   out, n, w, q) {
      n = 0
      while (s != "") {
        sub(/^ +/, "", s)
        if (s == "") break
        if (substr(s, 1, 1) == "\"") { q = index(substr(s, 2), "\""); w = substr(s, 2, q - 1); s = substr(s, q + 2) }
        else { q = index(s, " "); if (q == 0) q = length(s) + 1; w = substr(s, 1, q - 1); s = substr(s, q + 1) }
        out[++n] = w
      }
      return n
    }
    /^\.SH SYNOPSIS/ { on = 1; next }
    on && /^\.SH/ { if (line != "") print line; exit }
    !on { next }
    /^\.br/ { print line; line = ""; next }
    {
      m = $1; rest = substr($0, length(m) + 2)
      n = words(rest, w); text = ""
      for (i = 1; i <= n; i++) text = text (length(m) == 3 || i == 1 ? "" : " ") w[i]
      line = line (line == "" ? "" : " ") text
    }' "$1" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' -e 's/  */ /g' -e 's/ *| */|/g'
}

@test "cli: help, completion and entitle(8)'s SYNOPSIS agree with the table of commands" {
  man=$(synopsis "$SRCDIR/man/entitle.8")
  own=$("$ENTITLE" --help | sed -n '/^entitle.s commands:/,/^Commands entitle acts on/p' | awk '/^  [a-z]/ { print $1 }')
  [ -n "$own" ]
  for c in $own; do
    # The forms --help shows are the man page's, and the man page has no other.
    want=$("$ENTITLE" "$c" --help | sed -n 's/^\(Usage:\)\{0,1\} *entitle \[global options\] //p' |
      sed -e 's/  */ /g' -e 's/ *| */|/g' -e 's/ $//')
    got=$(grep -E "^entitle $c( |$)" <<<"$man" | sed -e 's/^entitle //' -e 's/ $//')
    if [ "$want" != "$got" ]; then
      printf '%s: --help says\n%s\nentitle(8) says\n%s\n' "$c" "$want" "$got" >&2
      false
    fi
    # Completion offers exactly the options --help lists.
    opts=$("$ENTITLE" "$c" --help | sed -n '/^Options:$/,$p' | grep -o -- '^  \(-[a-z], \)\{0,1\}--[a-z-]*' |
      grep -o -- '--[a-z-]*' | sort)
    [ "$("$ENTITLE" __complete "$c" -- | tail -n +2 | sort)" = "$opts" ]
  done
  # Every command of entitle's the man page names is the table's.
  for c in $(awk '$1 == "entitle" && $2 ~ /^[a-z]/ { print $2 }' <<<"$man" | sort -u); do
    grep -qx "$c" <<<"$own"
  done
}
