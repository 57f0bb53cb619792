#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The tree as a new user meets it (issue 11, bug 6): a build-tree entitle
# finds its own helpers (no `make install` needed), scripts/build.sh and
# scripts/demo.sh on a fresh checkout, `make clean`, the tarball, and what
# entitlements(7) says is not enforced.  The checkout tests work on a copy
# of the files git tracks, so the tree under test is never touched: one
# copy for the file, which the demo builds first as a new user would, and
# the tests after it configure again, package and clean (a build is a
# minute or two on CI's two cores: the file makes three).

load helpers

# These tests configure and build whole trees (two builds in one test):
# minutes on two busy cores, not the two minutes a container test gets.
BATS_TEST_TIMEOUT=600

SRCDIR=${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}
BUILDDIR=${ENTITLE_BUILDDIR:-$BATS_TEST_DIRNAME/../..}

# The file's fresh checkout.
TREE=$BATS_FILE_TMPDIR/src

setup_file() {
  if git -C "$SRCDIR" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    fresh_tree "$TREE"
  fi
}

setup() {
  common_setup
  # The build tree's helpers must be found without being named.
  unset ENTITLE_HOOK
}

# require_checkout: a git checkout (the tarball has no file list to copy
# from) and the autotools.
require_checkout() {
  if ! git -C "$SRCDIR" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    skip "needs the git checkout of the sources (ENTITLE_SRCDIR)"
  fi
  if ! command -v autoreconf >/dev/null; then
    skip "needs autoconf and automake"
  fi
}

# fresh_tree DIR: the files git tracks, as a fresh clone has them: nothing
# configured, built or generated.
fresh_tree() {
  mkdir -p "$1"
  git -C "$SRCDIR" ls-files -z | tar -C "$SRCDIR" --null -T - -cf - | tar -C "$1" -xf -
}

# configured DIR: the file's tree configured, as the demo leaves it (when
# the demo was filtered out or failed, configured here without arguments).
configured() {
  [ -f "$1/Makefile" ] || (cd "$1" && ./autogen.sh && ./configure -q) >"$BATS_TEST_TMPDIR/configure.log" 2>&1 || {
    tail -n 30 "$BATS_TEST_TMPDIR/configure.log" >&2
    return 1
  }
}

# tracked_files: the list fresh_tree copied, one per line.
tracked_files() {
  git -C "$SRCDIR" ls-files
}

@test "build: a build-tree entitle writes the build tree's entitle-hook into config.json, and the container runs" {
  hook=$(realpath "$BUILDDIR/oci-hooks/entitle-hook")
  probe_bundle "$BUNDLE" "socket inet"
  set_entitlements "$BUNDLE" network.none
  run --separate-stderr "$ENTITLE" compile -b "$BUNDLE"
  [ "$status" -eq 0 ]
  [ "$(jq -r '[.hooks.createRuntime[].path, (.hooks.poststop // [])[].path] | unique | .[]' <<<"$output")" = "$hook" ]
  cp "$BUNDLE/config.json" "$BATS_TEST_TMPDIR/config.orig"
  run --separate-stderr ent run -b "$BUNDLE" "$CTID"
  [ "$output" = "socket inet: EPERM" ]
  # ENTITLE_HOOK, then the admin config's hook, still win.
  cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
  run --separate-stderr env ENTITLE_HOOK=/opt/elsewhere/entitle-hook "$ENTITLE" compile -b "$BUNDLE"
  [ "$(jq -r '.hooks.createRuntime[0].path' <<<"$output")" = /opt/elsewhere/entitle-hook ]
  write_entitle_config '{"hook": "/opt/config/entitle-hook"}'
  run --separate-stderr "$ENTITLE" compile -b "$BUNDLE"
  [ "$(jq -r '.hooks.createRuntime[0].path' <<<"$output")" = /opt/config/entitle-hook ]
}

@test "build: entitle probe from the build tree answers, as JSON" {
  run --separate-stderr "$ENTITLE" probe --json
  if [ "$status" -ne 0 ]; then
    echo "entitle probe: status $status: $stderr" >&2
    false
  fi
  jq -e 'type == "object"' <<<"$output" >/dev/null
}

@test "build: scripts/demo.sh, README's first command, runs on a fresh checkout without make install" {
  require_checkout
  # The demo's hook pins its programs apart from any other build's.
  pins=/sys/fs/bpf/entitle-demo-$$
  run --separate-stderr env ENTITLE_NO_DEPS=1 ENTITLE_BPF_PINS="$pins" \
    "$TREE/scripts/demo.sh"
  rm -rf "$pins"
  if [ "$status" -ne 0 ]; then
    printf 'demo.sh: status %s\n%s\n%s\n' "$status" "$(tail -n 20 <<<"$output")" "$(tail -n 20 <<<"$stderr")" >&2
    false
  fi
  # Without entitlements loopback answers; with network.none no socket opens.
  plain=$(sed -n '/^== without/,/^== with /p' <<<"$output")
  none=$(sed -n '/^== with /,$p' <<<"$output")
  [[ "$plain" == *"Connection refused"* ]]
  [[ "$none" == *"Operation not permitted"* ]]
}

@test "build: the tarball holds every file README.md links to" {
  require_checkout
  dist="$BATS_TEST_TMPDIR/dist"
  configured "$TREE"
  (cd "$TREE" && make distdir distdir="$dist") >"$BATS_TEST_TMPDIR/build.log" 2>&1 || {
    tail -n 30 "$BATS_TEST_TMPDIR/build.log" >&2
    false
  }
  # Markdown links to files of the tree, from README.md and the pages it
  # links to.
  links=$(cd "$TREE" && grep -oh '\]([^):#]*)' README.md $(grep -oh '\]([^):#]*\.md)' README.md | sed 's/^](\(.*\))$/\1/') |
    sed 's/^](\(.*\))$/\1/' | sort -u)
  [ -n "$links" ]
  missing=$(for f in $links; do [ -e "$dist/$f" ] || echo "$f"; done)
  if [ -n "$missing" ]; then
    printf 'README.md links to files the tarball lacks:\n%s\n' "$missing" >&2
    false
  fi
}

@test "build: scripts/build.sh configures again when its arguments differ from those config.status recorded" {
  require_checkout
  build() {
    (cd "$TREE" && scripts/build.sh "$@") >"$BATS_TEST_TMPDIR/build.log" 2>&1 || {
      tail -n 30 "$BATS_TEST_TMPDIR/build.log" >&2
      return 1
    }
  }
  # scripts/demo.sh builds without arguments (the test above), scripts/test.sh
  # with --enable-fault-injection: the fault points must then be in.
  configured "$TREE"
  build --enable-fault-injection
  # config.status --config prints them quoted for the shell.
  eval "set -- $(cd "$TREE" && ./config.status --config)"
  [ "$*" = "--enable-fault-injection" ]
  grep -qa ENTITLE_FAULT "$TREE/shim/entitle"
  # And back: without them, and the same arguments as config.status's keep
  # the build.
  build
  run grep -qa ENTITLE_FAULT "$TREE/shim/entitle"
  [ "$status" -ne 0 ]
  [ -z "$(cd "$TREE" && ./config.status --config)" ]
  before=$(stat -c %Y "$TREE/config.status")
  build
  [ "$(stat -c %Y "$TREE/config.status")" = "$before" ]
}

@test "build: make install after configure --prefix=OTHER installs binaries that run their siblings from OTHER" {
  require_checkout
  # The tree as the demo left it (built with configure's default prefix),
  # then configured again for another and installed, as a user does.
  configured "$TREE"
  p2="$BATS_TEST_TMPDIR/p2"
  (cd "$TREE" && { [ -x shim/entitle ] || make -j2; } && ./configure -q --prefix="$p2" && make -j2 install) \
    >"$BATS_TEST_TMPDIR/build.log" 2>&1 || {
    tail -n 30 "$BATS_TEST_TMPDIR/build.log" >&2
    false
  }
  probe_bundle "$BUNDLE" "socket inet"
  set_entitlements "$BUNDLE" network.none
  # entitle runs entitle-full, which writes the path of entitle-hook: both
  # the new prefix's.
  run --separate-stderr "$p2/bin/entitle" compile -b "$BUNDLE"
  if [ "$status" -ne 0 ]; then
    echo "$stderr" >&2
    false
  fi
  [ "$(jq -r '[.hooks.createRuntime[].path] | unique | .[]' <<<"$output")" = "$p2/libexec/entitle/entitle-hook" ]
  [ "$(jq -r .hook.path "$p2/share/containers/oci/hooks.d/entitle.json")" = "$p2/libexec/entitle/entitle-hook" ]
}

@test "build: make clean deletes no file that git tracks" {
  require_checkout
  configured "$TREE"
  (cd "$TREE" && make -j2 && make clean) >"$BATS_TEST_TMPDIR/build.log" 2>&1 || {
    tail -n 30 "$BATS_TEST_TMPDIR/build.log" >&2
    false
  }
  gone=$(tracked_files | while read -r f; do [ -e "$TREE/$f" ] || echo "$f"; done)
  if [ -n "$gone" ]; then
    printf 'make clean deleted tracked files:\n%s\n' "$gone" >&2
    false
  fi
}

# not_enforced_in_status MAN: the entitlements the STATUS section of
# entitlements(7) names as "Not enforced in this version".
not_enforced_in_status() {
  sed -n '/^\.SH STATUS/,/^\.SH [^S]/p' "$1" | sed 's/^\.[A-Z]* *//' | tr '\n' ' ' |
    sed -n 's/.*Not enforced in this version: \(.*\)/\1/p' | sed 's/\. .*//' |
    grep -oE '[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+' | sort -u
}

@test "entitlements(7): STATUS names as not enforced exactly the entitlements create refuses as not built" {
  man="$BUILDDIR/man/entitlements.7"
  [ -f "$man" ]
  write_entitle_config '{"grant": ["*", "network.host", "security.insecure"]}'
  make_bundle "$BUNDLE"
  names=$("$ENTITLE" features | jq -r '.annotations["io.entitle.entitlements"]' | tr ',' ' ')
  [ -n "$names" ]
  refused=$(for n in $names; do
    # A modifier with its value kind's example (explain --json).
    e=$n$("$ENTITLE" explain --json "$n" | jq -r '.[0].example // empty | "=" + .')
    if ! out=$("$ENTITLE" compile -b "$BUNDLE" --entitlements "$e" 2>&1 >/dev/null); then
      case $out in
        *"(not built in this version)"*) echo "$n" ;;
        *) echo "compile --entitlements $e failed otherwise: $out" >&2 ;;
      esac
    fi
  done | sort -u)
  claimed=$(not_enforced_in_status "$man")
  if [ "$claimed" != "$refused" ]; then
    printf 'entitlements(7) says not enforced:\n%s\ncreate refuses as not built:\n%s\n' "$claimed" "$refused" >&2
    false
  fi
}
