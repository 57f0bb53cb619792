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
  remove_args=()
  BIN=$BATS_TEST_TMPDIR/bin
  mkdir -p "$T" "$BIN"
  ln -s "$(realpath "$ENTITLE")" "$BIN/entitle"
}

# conf ENGINE FILE [ARG...]: entitle configure ENGINE for FILE, entitle at
# $BIN/entitle.
# containerd's drop-in is $T/conf.d/entitle.toml unless an argument is
# --in-place.
conf() {
  local engine=$1 file=$2 dropin=()
  shift 2
  if [ "$engine" = containerd ] && [[ " $* " != *" --in-place "* ]]; then
    dropin=(--drop-in "$T/conf.d/entitle.toml")
  fi
  run --separate-stderr "$ENTITLE" configure "$engine" --config "$file" --binary "$BIN/entitle" "${dropin[@]}" "$@"
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
    configured_twice containerd "$f" --in-place --profile confined --profile view
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
  # The two runtimes, and runtime_supports_json (Podman then passes --log).
  [ "$(diff "$BATS_TEST_TMPDIR/before" "$T/containers.conf" | grep -c "^>")" -eq 3 ]
  grep -qx "runtime_supports_json = \[\"crun\", \"runc\", \"kata\", \"runsc\", \"youki\", \"krun\", \"entitle\", \"entitle-confined\"\]" "$T/containers.conf"
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
  conf containerd "$T/config.toml" --in-place
  [ "$status" -eq 0 ]
  [ "$(stat -c %a "$T/config.toml")" = 600 ]
  [ "$(stat -c %a "$T/config.toml.entitle-backup")" = 600 ]
}

# installed_removed ENGINE FILE ARG...: configure ENGINE for FILE (and
# ARG), check that a second run changes nothing (on_installed FILE checks
# the result), then --remove: FILE is byte for byte what it was (or still
# not there), the drop-in $dropin (empty: none) and the profiles'
# symlinks gone; a second --remove finds nothing.  --remove gets the
# arguments remove_args too.
installed_removed() {
  local engine=$1 file=$2 existed=false
  shift 2
  rm -f "$BATS_TEST_TMPDIR/before"
  if [ -e "$file" ]; then
    existed=true
    cp "$file" "$BATS_TEST_TMPDIR/before"
  fi
  conf "$engine" "$file" "$@"
  [ "$status" -eq 0 ]
  [ -z "$dropin" ] || [ -f "$dropin" ]
  conf "$engine" "$file" "$@"
  [ "$status" -eq 0 ]
  [[ "$output" == "configure: \`"*"\` already registers entitle"*": nothing to write" ]]
  on_installed "$file"
  conf "$engine" "$file" --remove "${remove_args[@]}"
  [ "$status" -eq 0 ]
  if $existed; then cmp "$BATS_TEST_TMPDIR/before" "$file"; else [ ! -e "$file" ]; fi
  [ -z "$dropin" ] || [ ! -e "$dropin" ]
  [ ! -e "$BIN/entitle-confined" ]
  [ -e "$BIN/entitle" ]
  conf "$engine" "$file" --remove "${remove_args[@]}"
  [ "$status" -eq 0 ]
  [[ "$output" == *"registers nothing of entitle: nothing to remove" ]]
}

# containerd_loads FILE: containerd reads FILE and the drop-in it imports:
# entitle's runtimes, entitle the default, runc still there, and the CRI
# settings of FILE.
containerd_loads() {
  local dump
  dump=$(containerd --config "$1" config dump)
  grep -A 20 'runtimes.entitle-confined.options\]' <<<"$dump" | grep -qx "  *BinaryName = \"$BIN/entitle-confined\""
  grep -A 12 'runtimes.entitle\]' <<<"$dump" | grep -qx '  *pod_annotations = \["io.entitle.\*"\]'
  grep -qx '  *default_runtime_name = "entitle"' <<<"$dump"
  # The CRI plugin refuses a default_runtime_name it has no table for.
  grep -q 'runtimes.runc\]' <<<"$dump"
  if grep -q sandbox_image "$1"; then
    [ "$(grep sandbox_image <<<"$dump" | tr -d ' ')" = "$(grep sandbox_image "$1" | tr -d ' ')" ]
  fi
}

@test "configure containerd: a drop-in and one imports entry; --remove leaves config.toml byte for byte as it was" {
  require_tools containerd containerd
  dropin=$T/conf.d/entitle.toml
  containerd config default >"$T/default.toml"
  printf 'version = 2\n' >"$T/other.toml"
  printf 'version = 2\nimports = ["%s"]\n\n[grpc]\n  address = "/run/x.sock"\n' "$T/other.toml" >"$T/imports.toml"
  printf '# kept\n\nversion = 2\n[plugins."io.containerd.grpc.v1.cri"]\n  sandbox_image = "example.org/pause:1"\n' >"$T/cri.toml"
  : >"$T/empty.toml"
  files=("$T/default.toml" "$T/imports.toml" "$T/cri.toml" "$T/empty.toml" "$T/missing.toml")
  if [ -f /etc/containerd/config.toml ]; then
    cp /etc/containerd/config.toml "$T/debian.toml"
    files+=("$T/debian.toml")
  fi
  on_installed() {
    # One line of config.toml changed, and containerd loads the pair.
    if [ -e "$BATS_TEST_TMPDIR/before" ]; then
      [ "$(diff "$BATS_TEST_TMPDIR/before" "$1" | grep -c '^[<>]')" -le 2 ]
    fi
    grep -q "^imports = .*\"$dropin\"" "$1"
    containerd_loads "$1"
  }
  for f in "${files[@]}"; do
    installed_removed containerd "$f" --profile confined --set-as-default
  done
  # The entry goes from an array of others, which stay.
  grep -qx "imports = \\[\"$T/other.toml\"\\]" "$T/imports.toml"
}

@test "configure containerd --config FILE alone: the drop-in beside FILE, never the host's /etc/containerd/conf.d" {
  printf 'version = 2\n' >"$T/config.toml"
  ls -la /etc/containerd/conf.d >"$BATS_TEST_TMPDIR/host-before" 2>&1 || true
  (cd "$T" && "$ENTITLE" configure containerd --config config.toml --binary "$BIN/entitle" --profile confined)
  grep -qx "imports = \[\"$T/conf.d/entitle.toml\"\]" "$T/config.toml"
  grep -q 'runtimes.entitle-confined' "$T/conf.d/entitle.toml"
  ls -la /etc/containerd/conf.d >"$BATS_TEST_TMPDIR/host-after" 2>&1 || true
  cmp "$BATS_TEST_TMPDIR/host-before" "$BATS_TEST_TMPDIR/host-after"
  "$ENTITLE" configure containerd --config "$T/config.toml" --binary "$BIN/entitle" --remove
  [ "$(cat "$T/config.toml")" = "version = 2" ]
  [ ! -e "$T/conf.d/entitle.toml" ]
}

@test "configure docker --remove: daemon.json byte for byte as it was, its default runtime back" {
  dropin=""
  echo '{"debug":true,"default-runtime":"runc","runtimes":{"x":{"path":"/bin/x"}}}' >"$T/daemon.json"
  on_installed() {
    [ "$(jq -r '."default-runtime"' "$1")" = entitle ]
    [ ! -e "$BATS_TEST_TMPDIR/before" ] || [ "$(jq -r '.runtimes.x.path' "$1")" = /bin/x ]
  }
  installed_removed docker "$T/daemon.json" --profile confined --set-as-default
  installed_removed docker "$T/new.json" --profile confined --set-as-default
}

@test "configure crio: the drop-in in crio.conf.d, entitle the default; --remove deletes it (CRI-O is not in Debian 12: the file only)" {
  dropin=$T/crio.conf.d/90-entitle.conf
  remove_args=(--drop-in "$dropin")
  on_installed() {
    [ "$(sed -n '/^\[crio.runtime\]/,/^$/p' "$dropin")" = '[crio.runtime]
  default_runtime = "entitle"' ]
    grep -qx "  runtime_path = \"$BIN/entitle-confined\"" "$dropin"
  }
  installed_removed crio "$T/crio.conf" --drop-in "$dropin" --profile confined --set-as-default
  [ ! -e "$T/crio.conf" ]
}

@test "configure podman: the drop-in in /etc/containers/containers.conf.d, which Podman reads itself; --remove deletes it" {
  require_tools podman podman unshare
  # Podman's own directory, in a mount namespace of this test: a copy of
  # /etc/containers mounted over it.
  mkdir "$T/containers"
  cp -a /etc/containers/. "$T/containers/"
  local p="podman --root $BATS_TEST_TMPDIR/pm/root --runroot $BATS_TEST_TMPDIR/pm/run --storage-driver vfs"
  cat >"$BATS_TEST_TMPDIR/in-ns.sh" <<EOF
set -e
mount --bind "$T/containers" /etc/containers
"$ENTITLE" configure podman --binary "$BIN/entitle" --profile confined --set-as-default >/dev/null
ls /etc/containers/containers.conf.d
$p info --format '{{.Host.OCIRuntime.Name}} {{.Host.OCIRuntime.Path}}'
$p --runtime entitle-confined info --format '{{.Host.OCIRuntime.Path}}'
"$ENTITLE" configure podman --binary "$BIN/entitle" --remove >/dev/null
ls -A /etc/containers/containers.conf.d
EOF
  run --separate-stderr unshare -m --propagation private bash "$BATS_TEST_TMPDIR/in-ns.sh"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = entitle.conf ]
  [ "${lines[1]}" = "entitle $BIN/entitle" ]
  [ "${lines[2]}" = "$BIN/entitle-confined" ]
  [ "${#lines[@]}" -eq 3 ]
  [ ! -e "$BIN/entitle-confined" ]
  # The host's directory was never touched.
  [ ! -e /etc/containers/containers.conf.d/entitle.conf ]
}

# files: what configure may write, the engines' configs and entitle's
# directory, as fingerprint lists them.
files() {
  fingerprint "$T"
  fingerprint "$BIN"
}

@test "configure --dry-run prints a diff per file, the symlinks and what the engine needs, and writes nothing" {
  printf '# mine\nversion = 2\n' >"$T/config.toml"
  before=$(files)
  conf containerd "$T/config.toml" --profile confined --dry-run
  [ "$status" -eq 0 ]
  [ "$(files)" = "$before" ]
  [ "${lines[0]}" = "--- $T/conf.d/entitle.toml" ]
  [ "${lines[1]}" = "+++ $T/conf.d/entitle.toml" ]
  [[ "${lines[2]}" == "@@ -0,0 +1,"*" @@" ]]
  [[ "$output" == *"+"*" BinaryName = \"$BIN/entitle-confined\""* ]]
  [[ "$output" == *"--- $T/config.toml
+++ $T/config.toml
@@ -1,2 +1,3 @@
+imports = [\"$T/conf.d/entitle.toml\"]
 # mine
 version = 2
symlink $BIN/entitle-confined -> entitle
containerd: restart (systemctl restart containerd)" ]]
  # Docker rereads its runtimes on SIGHUP; the diff is one patch applies.
  echo '{"debug": true}' >"$T/daemon.json"
  before=$(files)
  conf docker "$T/daemon.json" --profile confined --dry-run
  [ "$status" -eq 0 ]
  [ "$(files)" = "$before" ]
  [ "${lines[-1]}" = "docker: reload (systemctl reload docker (dockerd rereads \`runtimes\` on SIGHUP))" ]
  printf '%s\n' "${lines[@]:0:${#lines[@]}-1}" >"$BATS_TEST_TMPDIR/diff"
  patch -s -o "$BATS_TEST_TMPDIR/patched" "$T/daemon.json" <"$BATS_TEST_TMPDIR/diff"
  conf docker "$T/daemon.json" --profile confined
  cmp "$BATS_TEST_TMPDIR/patched" "$T/daemon.json"
  # Nothing to change.
  conf docker "$T/daemon.json" --profile confined --dry-run
  [ "$output" = "docker: nothing to change" ]
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
  conf containerd "$T/ok.toml" --drop-in conf.d/entitle.toml
  refused_untouched "\`--drop-in conf.d/entitle.toml\`: containerd imports an absolute path"
  conf containerd "$T/ok.toml" --remove --profile confined
  refused_untouched "\`--remove\` takes out every runtime of entitle: no \`--profile\`"
  conf containerd "$T/ok.toml" --in-place --remove
  refused_untouched "\`--remove\` undoes a drop-in"
  conf docker "$T/daemon.json" --drop-in "$T/d.json"
  refused_untouched "Docker reads no drop-ins"
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
