#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# entitle config check [FILE] (issue 24): the admin config as entitle's own
# parser reads it, in its strict mode, plus every name it holds: each error
# one "entitle: " line on stderr, exit status 1; a good file "`FILE`: ok"
# on stdout, exit status 0.  What the installer runs before it puts a
# config in place.

load helpers

# check FILE...: entitle config check, its output and status in bats' run.
check() {
  run --separate-stderr "$ENTITLE" config check "$@"
}

# errors LINE...: the check failed with exactly these lines on stderr
# (each after "entitle: "), nothing on stdout; exit status 1, or $want_status.
errors() {
  local want got
  want=$(printf 'entitle: %s\n' "$@")
  got=$(printf '%s\n' "${stderr_lines[@]}")
  if [ "$status" -ne "${want_status:-1}" ] || [ -n "$output" ] || [ "$want" != "$got" ]; then
    printf 'status %s, stdout:\n%s\nexpected on stderr:\n%s\ngot:\n%s\n' "$status" "$output" "$want" "$got" >&2
    return 1
  fi
}

@test "config check: a typo in grant, which create accepts silently, is an error naming the closest entitlement" {
  make_bundle "$BUNDLE" /probe caps
  set_entitlements "$BUNDLE" security.admin
  write_entitle_config '{"grant": ["securty.admin"]}'
  # create reads the file and grants nothing: the typo is found only by
  # the refusal of what it meant to grant.
  run_bundle ent
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"entitlement \"security.admin\" requested by the container is not granted by $ENTITLE_CONFIG"* ]]

  check "$ENTITLE_CONFIG"
  errors "\`$ENTITLE_CONFIG\`: \`grant\`: unknown entitlement \`securty.admin\`: did you mean \`security.admin\`?"
}

@test "config check: every error of the file, one line each, in order: keys, then grant, defaults, require, profiles" {
  f="$BATS_TEST_TMPDIR/e.json"
  cat >"$f" <<'EOF'
{
  "grant": ["network.*", "netwrk.*", "network.egress=10.0.0.0/33", "network.*=10.0.0.0/8", "security.insecure"],
  "defaults": ["network.user security.confinedd"],
  "requrie": ["network.none"],
  "require": ["host.processes.nnoe"],
  "profiles": {"web": ["network.nnoe"], "ok": ["network.none"]},
  "lock": "yes",
  "on_unenforceable": "ignore"
}
EOF
  check "$f"
  errors \
    "\`$f\`: unknown key \`requrie\`: did you mean \`require\`?" \
    "\`$f\`: \`lock\` must be true or false" \
    "\`$f\`: \`on_unenforceable\` must be \"refuse\" or \"warn\"" \
    "\`$f\`: \`grant\`: \`netwrk.*\` matches no entitlement (a \`*\` stands for whole components)" \
    "\`$f\`: \`grant\`: malformed value in entitlement \`network.egress=10.0.0.0/33\`: expected network.egress=CIDR[:PORT[-PORT]] (an IPv4 or IPv6 prefix, with an optional port or port range)" \
    "\`$f\`: \`grant\`: \`network.*=10.0.0.0/8\`: a grant with a value names one entitlement, not a glob" \
    "\`$f\`: \`defaults\`: unknown entitlement \`security.confinedd\`: did you mean \`security.confined\`?" \
    "\`$f\`: \`require\`: unknown entitlement \`host.processes.nnoe\`: did you mean \`host.processes.none\`?" \
    "\`$f\`: profile \`web\`: unknown entitlement \`network.nnoe\`: did you mean \`network.none\`?"
}

@test "config check: invalid JSON says its line and column" {
  f="$BATS_TEST_TMPDIR/j.json"
  printf '{\n  "grant": ["network.*",]\n}\n' >"$f"
  check "$f"
  errors "load \`$f\`: invalid JSON: parse error: unallowed token at this point in JSON text at line 2, column 25"
  printf '{\n  "lock": true,\n  "lock": false\n}\n' >"$f"
  check "$f"
  errors "load \`$f\`: invalid JSON: duplicate object key \`lock\` at line 4, column 1"
  printf '{"grant": ["network.*"' >"$f"
  check "$f"
  errors "load \`$f\`: invalid JSON: parse error: premature EOF at line 1, column 22"
}

@test "config check: the lists as create resolves them: a contradiction, two rungs of a ladder, an empty entry" {
  f="$BATS_TEST_TMPDIR/r.json"
  echo '{"defaults": ["network.none"], "require": ["network.egress=10.0.0.0/8"]}' >"$f"
  check "$f"
  errors "\`$f\`: \`defaults\` and \`require\`: entitlement \`network.egress\` contradicts \`network.none\`"
  echo '{"profiles": {"web": ["network.none network.user"]}}' >"$f"
  check "$f"
  errors "\`$f\`: conflicting entitlements \`network.none\` and \`network.user\` in profile \`web\`: one network rung only"
  echo '{"defaults": ["network.none,,security.confined"]}' >"$f"
  check "$f"
  errors "\`$f\`: empty entitlement in \`defaults\` \`network.none,,security.confined\`"
}

@test "config check: custom entitlements: a field with the closest one, a syscall libseccomp does not know, the names that use them" {
  f="$BATS_TEST_TMPDIR/c.json"
  echo '{"entitlements": {"example.com.x": {"sccomp": []}}}' >"$f"
  check "$f"
  errors "\`$f\`: entitlement \`example.com.x\`: unknown field \`sccomp\`: did you mean \`seccomp\`? (see entitle.json(5))"
  echo '{"entitlements": {"example.com.x": {"seccomp": [{"names": ["nosuchcall"], "action": "errno"}]}},
         "grant": ["example.com.*", "example.com.y"], "defaults": ["example.com.x"]}' >"$f"
  check "$f"
  errors "\`$f\`: \`grant\`: unknown entitlement \`example.com.y\`: did you mean \`example.com.x\`?" \
    "\`$f\`: entitlement \`example.com.x\`: unknown syscall \`nosuchcall\` (libseccomp 2.5, this architecture)"
}

@test "config check: the configs entitle ships pass, and a good file prints ok" {
  src=${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}
  check "$src/docs/entitle.json.example"
  [ "$status" -eq 0 ]
  [ "$output" = "\`$src/docs/entitle.json.example\`: ok" ]
  [ -z "$stderr" ]
  f="$BATS_TEST_TMPDIR/g.json"
  echo '{"grant": ["network.*", "security.insecure", "network.egress=10.0.0.0/8:443", "*"],
         "defaults": ["network.user, security.confined"], "require": ["host.processes.none"],
         "profiles": {"web": ["network.none"]}, "lock": false}' >"$f"
  check "$f"
  [ "$status" -eq 0 ]
  [ "$output" = "\`$f\`: ok" ]
}

@test "config check: without FILE, the config entitle would load; none at the default path or ENTITLE_CONFIG= is no error; a named file must exist" {
  write_entitle_config '{"grant": ["netwrk.*"]}'
  check
  errors "\`$ENTITLE_CONFIG\`: \`grant\`: \`netwrk.*\` matches no entitlement (a \`*\` stands for whole components)"
  good="$BATS_TEST_TMPDIR/good.json"
  echo '{}' >"$good"
  run --separate-stderr "$ENTITLE" --entitle-config="$good" config check
  [ "$status" -eq 0 ]
  [ "$output" = "\`$good\`: ok" ]

  ENTITLE_CONFIG= check
  [ "$status" -eq 0 ]
  [ "$output" = "no admin config (ENTITLE_CONFIG is set and empty): entitle applies no policy" ]
  # The built-in path (configure's sysconfdir), where this host has none.
  default=$(sed -n 's/^#define ENTITLE_CONFIG_FILE "\(.*\)"$/\1/p' "${ENTITLE_BUILDDIR:-$BATS_TEST_DIRNAME/../..}/config.h")
  if [ -n "$default" ] && [ ! -e "$default" ]; then
    run --separate-stderr env -u ENTITLE_CONFIG "$ENTITLE" config check
    [ "$status" -eq 0 ]
    [ "$output" = "no admin config at \`$default\`: entitle applies no policy" ]
  fi

  check "$BATS_TEST_TMPDIR/none.json"
  errors "config check: open \`$BATS_TEST_TMPDIR/none.json\`: No such file or directory"
  ENTITLE_CONFIG="$BATS_TEST_TMPDIR/none.json" check
  errors "config check: open \`$BATS_TEST_TMPDIR/none.json\`: No such file or directory"
}

@test "config check: a missing or unknown subcommand, an extra argument: one line, exit 2 (the command line's)" {
  run --separate-stderr "$ENTITLE" config
  want_status=2 errors "config: a command is needed: the command is \`entitle config check [FILE]\`"
  run --separate-stderr "$ENTITLE" config chek
  want_status=2 errors "config: unknown command \`chek\`: the command is \`entitle config check [FILE]\`"
  check a.json b.json
  want_status=2 errors "config check: unexpected argument \`b.json\`"
}
