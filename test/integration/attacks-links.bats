#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Symbolic links and device nodes against fs.read and fs.write (issue 23,
# classes 3 and 5).  entitle-init gives Landlock its rules on the paths it
# opens: the listed paths, the loader's directories of a dynamic command
# and the device entries.  Opened through a link, a rule would hold what
# the link leads to: an image's /data -> / or /usr/local/lib -> /, or a
# /dev/null -> / that the container, which may write /dev under fs.read
# alone, plants before an operator's exec.  Each attack runs first under
# plain runc (or crun) with the same config, where it works, then through
# entitle, and what the process could read or write is observed from
# inside.  The secret is /etc/secret, outside every listed path.

load helpers

setup() {
  common_setup
  require_landlock
  PROFILE=links
}

# links_profile ENTITLEMENT...: the admin config, whose profile `links`
# gives ENTITLEMENT... to every container of that runtime name; exec
# marks in the test's state_dir.
links_profile() {
  write_entitle_config "$(jq -n --arg dir "$BATS_TEST_TMPDIR/state" '{state_dir: $dir, profiles: {links: $ARGS.positional}}' --args "$@")"
}

# entp ARG...: entitle as the runtime entitle-links, in front of runc.
entp() {
  "$ENTITLE" --entitle-profile="$PROFILE" --root "$ROOT" "$@"
}

# secret_bundle ARG...: writable_bundle with /etc/secret.
secret_bundle() {
  writable_bundle "$@"
  echo secret >"$BATS_TEST_TMPDIR/rootfs/etc/secret"
}

# merged_usr: a dynamically linked /usr/bin/cat in the rootfs, with its
# loader and libraries laid out as this host's merged /usr has them:
# /lib -> usr/lib, /lib64 -> usr/lib64, and each link on the way to a
# file (Debian's /usr/lib64/ld-linux-x86-64.so.2 ->
# /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2).
merged_usr() {
  local rootfs="$BATS_TEST_TMPDIR/rootfs" d f
  if [ ! -L /lib ] || file_is_static /usr/bin/cat; then
    skip "needs a merged-/usr host whose /usr/bin/cat is dynamically linked, to copy an image from"
  fi
  for d in /lib /lib64 /lib32 /libx32; do
    [ ! -L "$d" ] || cp -P "$d" "$rootfs$d"
  done
  mkdir -p "$rootfs/usr/bin" "$rootfs/usr/local/lib"
  cp /usr/bin/cat "$rootfs/usr/bin/cat"
  for f in $(ldd /usr/bin/cat | grep -o '/[^ ]*'); do
    copy_chain "$rootfs" "$f"
  done
}

# copy_chain ROOTFS PATH: PATH's file, and each link on the way to it,
# at this host's paths (their directories resolved) in ROOTFS.
copy_chain() {
  local rootfs=$1 p=$2 dir
  while :; do
    dir=$(readlink -f "$(dirname "$p")")
    p="$dir/$(basename "$p")"
    mkdir -p "$rootfs$dir"
    cp -P "$p" "$rootfs$p"
    [ -L "$p" ] || return 0
    case $(readlink "$p") in
      /*) p=$(readlink "$p") ;;
      *) p="$dir/$(readlink "$p")" ;;
    esac
  done
}

# planted COMMAND: a container of $BUNDLE, started through RUNNER ($2,
# default entp), whose process runs the shell COMMAND (it plants what the
# attack needs), says "planted" and sleeps; returns once it has said so.
planted() {
  local runner=${2:-entp}
  edit_config "$BUNDLE" '.process.args = ["/bin/sh", "-c", $cmd + "; echo planted; exec sleep 600"]' \
    --arg cmd "$1"
  create_started "$runner" "$BUNDLE" "$CTID"
  for _ in $(seq 100); do
    grep -qx planted "$BATS_TEST_TMPDIR/$CTID.out" && return 0
    sleep 0.05
  done
  cat "$BATS_TEST_TMPDIR/$CTID.err" >&2
  echo "the container did not plant: $1" >&2
  return 1
}

# exec_both [-N] RUNNER ARG...: ARG... exec'd into $CTID through RUNNER,
# plain and with --process (a process file as an engine writes it), each
# exiting N when given (bats' run -N); the two runs' stdout and stderr, in
# $output and $stderr, each prefixed with "plain: " or "process: ".
exec_both() {
  local want=() runner file="$BATS_TEST_TMPDIR/process.json" out err
  [[ $1 != -* ]] || {
    want=("$1")
    shift
  }
  runner=$1
  shift
  run "${want[@]}" --separate-stderr "$runner" exec "$CTID" "$@"
  out=$(sed 's/^/plain: /' <<<"$output") err=$(sed 's/^/plain: /' <<<"$stderr")
  jq '.process | .args = $args' --argjson args "$(printf '%s\n' "$@" | jq -R . | jq -s .)" \
    "$BUNDLE/config.json" >"$file"
  run "${want[@]}" --separate-stderr "$runner" exec --process "$file" "$CTID"
  output=$(printf '%s\n' "$out" "$(sed 's/^/process: /' <<<"$output")")
  stderr=$(printf '%s\n' "$err" "$(sed 's/^/process: /' <<<"$stderr")")
  mapfile -t lines <<<"$output"
}

@test "class 3: a profile's fs.write=/data where the image ships /data -> /: plain runc writes /etc/x; entitle refuses, naming fs.write, and nothing is written" {
  require_fs_write
  secret_bundle /bin/sh -c 'echo x >/data/etc/x && echo wrote'
  rm -r "$BATS_TEST_TMPDIR/rootfs/data"
  ln -s / "$BATS_TEST_TMPDIR/rootfs/data"
  run_bundle rnc
  expect_lines wrote
  [ "$(cat "$BATS_TEST_TMPDIR/rootfs/etc/x")" = x ]
  rm "$BATS_TEST_TMPDIR/rootfs/etc/x"

  links_profile fs.write=/data
  run -127 --separate-stderr entp run -b "$BUNDLE" "$CTID" </dev/null
  [ -z "$output" ]
  [ "$stderr" = 'entitle-init: fs.write `/data`: `/data` is a symbolic link (to `/`), which a rule never follows: list the path it leads to' ]
  [ ! -e "$BATS_TEST_TMPDIR/rootfs/etc/x" ]
}

@test "class 3: a profile's fs.read=/app where the image ships /app -> /: plain runc reads /etc/secret; entitle refuses, naming fs.read; a link on the way (merged /lib) too" {
  secret_bundle /bin/sh -c 'cat /app/etc/secret /etc/secret'
  ln -s / "$BATS_TEST_TMPDIR/rootfs/app"
  run_bundle rnc
  expect_lines secret secret

  links_profile fs.read=/app
  run -127 --separate-stderr entp run -b "$BUNDLE" "$CTID" </dev/null
  [ -z "$output" ]
  [ "$stderr" = 'entitle-init: fs.read `/app`: `/app` is a symbolic link (to `/`), which a rule never follows: list the path it leads to' ]

  # The link in the middle: a merged-/usr image's /lib -> usr/lib.
  merged_usr
  links_profile fs.read=/lib/x86_64-linux-gnu
  run -127 --separate-stderr entp run -b "$BUNDLE" "$CTID" </dev/null
  [ "$stderr" = 'entitle-init: fs.read `/lib/x86_64-linux-gnu`: `/lib` is a symbolic link (to `usr/lib`), which a rule never follows: list the path it leads to' ]
  # The path it leads to works.
  links_profile fs.read=/usr/lib/x86_64-linux-gnu
  edit_config "$BUNDLE" '.process.args[-1] = "cat /data/f /etc/secret; ls /usr/lib/x86_64-linux-gnu | grep -c libc"'
  run_bundle entp
  expect_lines 1
  [[ "$stderr" == *"cat: can't open '/data/f': Permission denied"*"cat: can't open '/etc/secret': Permission denied"* ]]
}

@test "class 3: a dynamic command where the image ships /usr/local/lib -> /: plain runc reads /etc/secret; under fs.read it runs (the merged-/usr loader through /lib64) and cannot" {
  secret_bundle /usr/bin/cat /data/f /etc/secret
  merged_usr
  rmdir "$BATS_TEST_TMPDIR/rootfs/usr/local/lib"
  ln -s / "$BATS_TEST_TMPDIR/rootfs/usr/local/lib"
  run_bundle rnc
  [ "$status" -eq 0 ]
  expect_lines data secret

  links_profile fs.read=/data
  run_bundle entp
  expect_lines data
  [ "$status" -eq 1 ]
  [ "$stderr" = "/usr/bin/cat: /etc/secret: Permission denied" ]
}

@test "class 5: under fs.read the container plants /dev/null -> /: plain runc's exec reads /etc/secret; entitle's exec, plain and --process, cannot" {
  secret_bundle
  planted 'rm /dev/null && ln -s / /dev/null' rnc
  exec_both rnc cat /etc/secret /dev/null/etc/secret
  expect_lines "plain: secret" "plain: secret" "process: secret" "process: secret"
  rnc delete -f "$CTID"

  links_profile fs.read=/data
  planted 'rm /dev/null && ln -s / /dev/null'
  exec_both entp cat /data/f /etc/secret /dev/null/etc/secret
  expect_lines "plain: data" "process: data"
  [ "$(grep -c "Permission denied" <<<"$stderr")" -eq 4 ]
}

@test "class 5: under fs.read=/data the container replaces /data with /data -> /: plain runc's exec reads /etc/secret; entitle's, plain and --process, is refused naming fs.read" {
  local refused='entitle-init: fs.read `/data`: `/data` is a symbolic link (to `/`), which a rule never follows: list the path it leads to'
  secret_bundle
  planted 'mv /data /data.old && ln -s / /data' rnc
  exec_both rnc cat /data/etc/secret
  expect_lines "plain: secret" "process: secret"
  rnc delete -f "$CTID"
  rm "$BATS_TEST_TMPDIR/rootfs/data"
  mv "$BATS_TEST_TMPDIR/rootfs/data.old" "$BATS_TEST_TMPDIR/rootfs/data"

  links_profile fs.read=/data
  planted 'mv /data /data.old && ln -s / /data'
  exec_both -127 entp cat /data/etc/secret /etc/secret
  expect_lines "plain: " "process: "
  [ "$stderr" = "$(printf '%s\n' "plain: $refused" "process: $refused")" ]
}

@test "class 5: under fs.read the container plants /usr/local/lib -> /: plain runc's exec of a dynamic command reads /etc/secret; entitle's, plain and --process, runs and cannot" {
  secret_bundle
  merged_usr
  planted 'rmdir /usr/local/lib && ln -s / /usr/local/lib' rnc
  exec_both rnc /usr/bin/cat /etc/secret
  expect_lines "plain: secret" "process: secret"
  rnc delete -f "$CTID"
  rm "$BATS_TEST_TMPDIR/rootfs/usr/local/lib"
  mkdir "$BATS_TEST_TMPDIR/rootfs/usr/local/lib"

  links_profile fs.read=/data
  planted 'rmdir /usr/local/lib && ln -s / /usr/local/lib'
  exec_both entp /usr/bin/cat /data/f /etc/secret
  expect_lines "plain: data" "process: data"
  [ "$stderr" = "$(printf '%s\n' "plain: /usr/bin/cat: /etc/secret: Permission denied" \
    "process: /usr/bin/cat: /etc/secret: Permission denied")" ]
}

# A device entry must be the device it names: a node of a disk the
# container was given, made at /dev/null (CAP_MKNOD is in the default
# set), would be read through /dev/null's rule.
@test "class 5: under fs.read the container makes /dev/null a node of its disk: plain runc's exec reads the disk there; entitle's, plain and --process, cannot" {
  local img="$BATS_TEST_TMPDIR/disk.img" dev maj min
  command -v losetup >/dev/null || skip "needs losetup (Debian package mount)"
  printf 'on the disk\n' >"$img"
  truncate -s 1M "$img"
  dev=$(losetup -f --show "$img") || skip "no loop device on this host"
  echo "$dev" >"$BATS_TEST_TMPDIR/loop"
  maj=$((0x$(stat -c %t "$dev"))) min=$((0x$(stat -c %T "$dev")))
  secret_bundle
  edit_config "$BUNDLE" '.linux.devices = [{path: "/dev/disk0", type: "b", major: $maj, minor: $min, fileMode: 384}]
      | .linux.resources.devices += [{allow: true, type: "b", major: $maj, minor: $min, access: "rwm"}]' \
    --argjson maj "$maj" --argjson min "$min"
  plant="rm /dev/null && mknod /dev/null b $maj $min"
  planted "$plant" rnc
  exec_both rnc head -n 1 /dev/null
  expect_lines "plain: on the disk" "process: on the disk"
  rnc delete -f "$CTID"

  links_profile fs.read=/data
  planted "$plant"
  exec_both entp head -n 1 /dev/disk0 /dev/null
  expect_lines "plain: " "process: "
  [ "$(grep -c "Permission denied" <<<"$stderr")" -eq 4 ]
}

@test "fs.read: the device entries the runtime made keep working (/dev/null, /dev/zero, /dev/urandom, runc's /dev/ptmx -> pts/ptmx); plain runc the same" {
  local cmd='echo x >/dev/null && head -c 4 /dev/zero | wc -c && head -c 4 /dev/urandom | wc -c && exec 3<>/dev/ptmx && echo ptmx'
  secret_bundle /bin/sh -c "$cmd"
  run_bundle rnc
  expect_lines 4 4 ptmx

  links_profile fs.read=/data
  run_bundle entp
  expect_lines 4 4 ptmx
  [ -z "$stderr" ]
}

@test "crun: under fs.read the container plants /dev/null -> /: plain crun's exec reads /etc/secret; entitle's cannot" {
  require_crun
  secret_bundle
  planted 'rm /dev/null && ln -s / /dev/null' crn
  run --separate-stderr crn exec "$CTID" cat /etc/secret /dev/null/etc/secret
  expect_lines secret secret
  crn delete -f "$CTID"

  write_entitle_config "$(jq -n --arg dir "$BATS_TEST_TMPDIR/state" --arg rt "$CRUN_BIN" '{runtime: $rt, state_dir: $dir}')"
  set_entitlements "$BUNDLE" fs.read=/data
  planted 'rm /dev/null && ln -s / /dev/null' ent_crun
  run --separate-stderr ent_crun exec "$CTID" cat /data/f /etc/secret /dev/null/etc/secret
  expect_lines data
  [ "$(grep -c "Permission denied" <<<"$stderr")" -eq 2 ]
}

teardown() {
  common_teardown
  [ ! -f "$BATS_TEST_TMPDIR/loop" ] || losetup -d "$(cat "$BATS_TEST_TMPDIR/loop")"
}
