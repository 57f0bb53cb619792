#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `entitle configure ENGINE` (issue 12) on the files engines ship and load:
# what it adds, that the engine still reads the file, that a second run
# changes nothing, and that every refusal is one line that leaves the
# files as they were.  The engines run containers through what it wrote in
# cri.bats (containerd), docker.bats and podman.bats; the editors' corner
# cases are test/unit/test-configure.c.

load helpers

setup() {
  common_setup
  write_entitle_config '{"profiles": {"confined": ["network.none", "security.confined"], "view": ["security.view"]}}'
  T=$BATS_TEST_TMPDIR/etc
  BIN=$BATS_TEST_TMPDIR/bin
  mkdir -p "$T" "$BIN"
  ln -s "$(realpath "$ENTITLE")" "$BIN/entitle"
}

# conf ENGINE FILE [ARG...]: entitle configure ENGINE for FILE, entitle at
# $BIN/entitle.
conf() {
  local engine=$1 file=$2
  shift 2
  run --separate-stderr "$ENTITLE" configure "$engine" --config "$file" --binary "$BIN/entitle" "$@"
}

# only_added OLD NEW: NEW is OLD with lines added, none changed or removed.
only_added() {
  if diff "$1" "$2" | grep -q '^<'; then
    diff "$1" "$2" >&2
    echo "lines of $1 changed" >&2
    return 1
  fi
}

# configured_twice ENGINE FILE ARG...: the first run writes FILE (keeping
# FILE.entitle-backup, the file as it was), a TOML file with only lines
# added; the second writes nothing.
configured_twice() {
  local engine=$1 file=$2
  shift 2
  cp "$file" "$BATS_TEST_TMPDIR/before"
  conf "$engine" "$file" "$@"
  [ "$status" -eq 0 ]
  [[ "$output" == "configure: wrote \`$file\` (the previous one is \`$file.entitle-backup\`); runtimes entitle"* ]]
  cmp "$file.entitle-backup" "$BATS_TEST_TMPDIR/before"
  [ "$engine" = docker ] || only_added "$BATS_TEST_TMPDIR/before" "$file"
  cp "$file" "$BATS_TEST_TMPDIR/after"
  conf "$engine" "$file" "$@"
  [ "$status" -eq 0 ]
  [[ "$output" == "configure: \`$file\` already registers entitle"*": nothing to write" ]]
  cmp "$file" "$BATS_TEST_TMPDIR/after"
  cmp "$file.entitle-backup" "$BATS_TEST_TMPDIR/before"
}

@test "configure containerd: the configs containerd 1.6 ships and writes keep every line, and containerd loads the result" {
  require_tools containerd containerd
  containerd config default >"$T/default.toml"
  files=("$T/default.toml")
  if [ -f /etc/containerd/config.toml ]; then
    cp /etc/containerd/config.toml "$T/debian.toml"
    files+=("$T/debian.toml")
  fi
  for f in "${files[@]}"; do
    configured_twice containerd "$f" --profile confined --profile view
    run containerd --config "$f" config dump
    [ "$status" -eq 0 ]
    for name in entitle entitle-confined entitle-view; do
      grep -A 20 "runtimes.$name.options\]" <<<"$output" | grep -qx "  *BinaryName = \"$BIN/$name\""
      grep -A 12 "runtimes.$name\]" <<<"$output" | grep -qx '  *pod_annotations = \["io.entitle.\*"\]'
    done
  done
  # The symlinks beside entitle, relative: entitle-NAME selects profile NAME.
  [ "$(readlink "$BIN/entitle-confined")" = entitle ]
  [ "$(readlink "$BIN/entitle-view")" = entitle ]
}

@test "configure podman: Debian's containers.conf keeps its comments, and Podman finds the runtimes in it" {
  require_tools podman podman
  [ -f /usr/share/containers/containers.conf ] || skip "no /usr/share/containers/containers.conf (Debian package golang-github-containers-common)"
  cp /usr/share/containers/containers.conf "$T/containers.conf"
  configured_twice podman "$T/containers.conf" --profile confined
  [ "$(diff "$BATS_TEST_TMPDIR/before" "$T/containers.conf" | grep -c '^>')" -eq 2 ]
  run env CONTAINERS_CONF="$T/containers.conf" podman --root "$BATS_TEST_TMPDIR/pm/root" \
    --runroot "$BATS_TEST_TMPDIR/pm/run" --storage-driver vfs --runtime entitle-confined \
    info --format '{{.Host.OCIRuntime.Path}}'
  [ "$status" -eq 0 ]
  [ "$output" = "$BIN/entitle-confined" ]
}

@test "configure docker: daemon.json keeps its keys and values; runtimeArgs carry the profile" {
  echo '{"debug": true, "log-opts": {"max-size": "10m"}, "default-runtime": "runc", "mtu": 1500.0}' >"$T/daemon.json"
  configured_twice docker "$T/daemon.json" --profile confined
  [ "$(jq -c 'del(.runtimes)' "$T/daemon.json")" = '{"debug":true,"log-opts":{"max-size":"10m"},"default-runtime":"runc","mtu":1500}' ]
  # Numbers as written.
  grep -q '"mtu": 1500.0,$' "$T/daemon.json"
  [ "$(jq -c .runtimes "$T/daemon.json")" = "{\"entitle\":{\"path\":\"$BIN/entitle\"},\"entitle-confined\":{\"path\":\"$BIN/entitle\",\"runtimeArgs\":[\"--entitle-profile=confined\"]}}" ]
  # Docker runs entitle with the flag: no symlink is needed.
  [ ! -e "$BIN/entitle-confined" ]
}

@test "configure crio and a new file: made with mode 0644, no backup (CRI-O is not in Debian 12: the file only)" {
  conf crio "$T/50-entitle.conf" --profile view
  [ "$status" -eq 0 ]
  [ "$output" = "configure: wrote \`$T/50-entitle.conf\` (new); runtimes entitle, entitle-view; for crio to use them: systemctl restart crio" ]
  [ "$(stat -c %a "$T/50-entitle.conf")" = 644 ]
  [ ! -e "$T/50-entitle.conf.entitle-backup" ]
  [ "$(cat "$T/50-entitle.conf")" = "[crio.runtime.runtimes.entitle]
  runtime_path = \"$BIN/entitle\"
  runtime_type = \"oci\"

[crio.runtime.runtimes.entitle-view]
  runtime_path = \"$BIN/entitle-view\"
  runtime_type = \"oci\"" ]
}

@test "configure: the backup and the new file keep the file's mode" {
  printf 'version = 2\n' >"$T/config.toml"
  chmod 600 "$T/config.toml"
  conf containerd "$T/config.toml"
  [ "$status" -eq 0 ]
  [ "$(stat -c %a "$T/config.toml")" = 600 ]
  [ "$(stat -c %a "$T/config.toml.entitle-backup")" = 600 ]
}

# files: what configure may write, the engines' configs and entitle's
# directory, as fingerprint lists them.
files() {
  fingerprint "$T"
  fingerprint "$BIN"
}

@test "configure --dry-run prints the result and writes nothing: no file, no backup, no symlink" {
  printf '# mine\nversion = 2\n' >"$T/config.toml"
  before=$(files)
  conf containerd "$T/config.toml" --profile confined --dry-run
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "# mine" ]
  [[ "$output" == *"BinaryName = \"$BIN/entitle-confined\""* ]]
  [ "$(files)" = "$before" ]
}

# refused_untouched WORD...: the last conf failed as DESIGN §5 says: one
# "entitle: configure: " line holding every WORD, and no file changed since
# $before (files).
refused_untouched() {
  local word
  one_error_line
  [[ "$stderr" == "entitle: configure: "* ]]
  for word in "$@"; do
    if [[ "$stderr" != *"$word"* ]]; then
      echo "the message does not name \"$word\": $stderr" >&2
      return 1
    fi
  done
  if [ "$(files)" != "$before" ]; then
    diff <(echo "$before") <(files) >&2
    echo "files changed" >&2
    return 1
  fi
}

@test "configure: refusals are one line and change no file" {
  printf 'version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd]\n  runtimes.entitle = {}\n' >"$T/dotted.toml"
  printf 'version = 2\n[plugins\n' >"$T/broken.toml"
  printf '[plugins]\n' >"$T/v1.toml"
  echo '{"runtimes": ' >"$T/daemon.json"
  printf 'version = 2\n' >"$T/ok.toml"
  ln -s ok.toml "$T/link.toml"
  before=$(files)

  conf containerd "$T/dotted.toml" --profile nope
  refused_untouched "unknown profile \`nope\`: $ENTITLE_CONFIG defines \`confined\`, \`view\`"
  conf podman "$T/containers.conf" --profile confined --profile nope
  refused_untouched "unknown profile \`nope\`"
  run --separate-stderr "$ENTITLE" configure kubernetes
  refused_untouched "unknown engine \`kubernetes\` (entitle configures containerd, docker, podman, crio)"
  run --separate-stderr "$ENTITLE" configure --dry-run
  refused_untouched "name the engine: containerd, docker, podman, crio"
  conf containerd "$T/dotted.toml" --bogus
  refused_untouched "unknown option \`--bogus\`"
  conf containerd "$T/dotted.toml"
  refused_untouched "\`$T/dotted.toml\` line 3: table" "is made by a dotted key or an inline table, which entitle configure does not edit"
  conf containerd "$T/broken.toml"
  refused_untouched "\`$T/broken.toml\` line 2: a table header is not closed"
  conf containerd "$T/v1.toml"
  refused_untouched "\`$T/v1.toml\` has no \`version\`"
  conf docker "$T/daemon.json"
  refused_untouched "\`$T/daemon.json\`: invalid JSON"
  conf containerd "$T/link.toml" --profile confined
  refused_untouched "\`$T/link.toml\` is a symbolic link"
  run --separate-stderr "$ENTITLE" configure containerd --config "$T/new.toml" --binary "$BIN/nothing"
  refused_untouched "entitle is not at \`$BIN/nothing\`"
  run --separate-stderr "$ENTITLE" configure containerd --config "$T/new.toml" --binary bin/entitle
  refused_untouched "needs an absolute path"
  # A file by the name of a profile's symlink that is not entitle.
  echo other >"$BIN/entitle-confined"
  before=$(files)
  conf containerd "$T/new.toml" --profile confined
  refused_untouched "\`$BIN/entitle-confined\` exists and is not entitle"
}

@test "configure: a malformed admin config fails it, as every policy command" {
  echo '{"profiles": ' >"$ENTITLE_CONFIG"
  conf containerd "$T/config.toml" --profile confined
  [ "$status" -ne 0 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "entitle: "*"$ENTITLE_CONFIG"* ]]
  [ ! -e "$T/config.toml" ]
}

@test "build: make install puts the hooks.d file in HOOKSDIR, which configure --with-hooksdir sets" {
  local b=$ENTITLE_BUILDDIR
  run "$ENTITLE_SRCDIR/configure" --help
  [[ "$output" == *"--with-hooksdir=DIR"*"DATADIR/containers/oci/hooks.d)"* ]]
  # What configure substitutes is what make install uses (configuring a
  # tree again takes longer than this whole file).
  make -s -C "$b" install-hooksdDATA DESTDIR="$BATS_TEST_TMPDIR/dest" HOOKSDIR=/usr/share/containers/oci/hooks.d
  cmp "$BATS_TEST_TMPDIR/dest/usr/share/containers/oci/hooks.d/entitle.json" "$b/oci-hooks/entitle.json"
  [ "$(find "$BATS_TEST_TMPDIR/dest" -type f | wc -l)" -eq 1 ]
}
