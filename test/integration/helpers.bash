# SPDX-License-Identifier: GPL-2.0-or-later
#
# Shared setup of entitle's integration tests (bats, real runc and crun).
#
# Environment, as `make check` exports it:
#   ENTITLE        the entitle binary under test (build/shim/entitle)
#   ENTITLE_PROBE  the static helper copied into the rootfs as /probe
# and, where tests run slowly (the kernel rows' guests, test/kernels/):
#   ENTITLE_TEST_SHARED  a directory the bats runs share: the rootfs and
#                        the base bundle config are made there once, not
#                        once per file (20 s each under TCG)
#   ENTITLE_TEST_SCHEMA  a directory the configs entitle wrote are copied
#                        to, validated all at once when the runs are done
#                        (one node start instead of one per test)
#
# Every test gets:
#   ENTITLE_CONFIG  set and empty, which means no admin config (the host's
#                   /etc/entitle/entitle.json is never read), until
#                   write_entitle_config writes $BATS_TEST_TMPDIR/entitle.json
#                   and points ENTITLE_CONFIG at it
#   ROOT            a private runtime state dir (--root) for runc and
#                   for entitle in front of runc
#   CRUN_ROOT       the same for crun
#   CTID            a container id unique on this host
#   BUNDLE          $BATS_TEST_TMPDIR/bundle (made by make_bundle)
#   ROOTFS          the shared read-only busybox rootfs
# and a teardown that force-deletes whatever containers are left in both
# state dirs.

bats_require_minimum_version 1.5.0

# A hung container must fail its test, not the whole run (bats >= 1.7).
: "${BATS_TEST_TIMEOUT:=120}"

: "${ENTITLE:=${BATS_TEST_DIRNAME}/../../shim/entitle}"
: "${ENTITLE_PROBE:=${BATS_TEST_DIRNAME}/helper/entitle-probe}"
export ENTITLE ENTITLE_PROBE
# Where this build pins its BPF objects (configure --with-bpf-pins).
ENTITLE_BPF_PINS=${ENTITLE_BPF_PINS:-/sys/fs/bpf/entitle}
export ENTITLE_BPF_PINS

RUN_CRUN="${BATS_TEST_DIRNAME}/run-crun.sh"
BUSYBOX_ROOTFS="${BATS_TEST_DIRNAME}/../busybox-rootfs.sh"
OCI_IMAGE="${BATS_TEST_DIRNAME}/../oci-image.sh"
CONTAINERD_CONFIG="${BATS_TEST_DIRNAME}/../containerd-config.sh"
CNI_BRIDGE="${BATS_TEST_DIRNAME}/../cni-bridge.sh"
POLICY_OF="${BATS_TEST_DIRNAME}/../policy-of.sh"
CRUN_BIN=$(command -v crun || echo /usr/bin/crun)
# crun 1.8.1 refuses hybrid cgroup hosts (this build host): there it runs
# in run-crun.sh's namespace with --cgroup-manager=disabled, and the hook
# makes its cgroup.  On a cgroup2-only host (the kernel rows' guests,
# test/kernels/) it runs as users run it, managing its own cgroups.
if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
  CRUN_MANAGER=()
else
  CRUN_MANAGER=(--cgroup-manager=disabled)
fi
RUNC_BIN=$(command -v runc || echo /usr/sbin/runc)

# The capabilities Docker and containerd give a container by default.  Test
# bundles carry these (runc spec's three would make many restrictions
# invisible: a raw socket is already denied without CAP_NET_RAW).
DEFAULT_CAPS='["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_FSETID","CAP_FOWNER",
  "CAP_MKNOD","CAP_NET_RAW","CAP_SETGID","CAP_SETUID","CAP_SETFCAP",
  "CAP_SETPCAP","CAP_NET_BIND_SERVICE","CAP_SYS_CHROOT","CAP_KILL",
  "CAP_AUDIT_WRITE"]'

# Capability numbers used by the tests (linux/capability.h).
CAP_DAC_OVERRIDE=1
CAP_NET_BIND_SERVICE=10
CAP_NET_BROADCAST=11
CAP_NET_ADMIN=12
CAP_NET_RAW=13

setup() {
  common_setup
}

teardown() {
  common_teardown
}

common_setup() {
  require_root
  require_entitle
  export ENTITLE_CONFIG=
  ROOT="$BATS_TEST_TMPDIR/root"
  CRUN_ROOT="$BATS_TEST_TMPDIR/crun-root"
  BUNDLE="$BATS_TEST_TMPDIR/bundle"
  # Ids must not repeat across the test files that `make check -j` runs at
  # once: runc names the container's cgroup after its id.
  CTID="ent-$$-${BATS_TEST_NUMBER}"
  build_rootfs
}

common_teardown() {
  local id schema=0

  # Before the containers go: crun's --config files live as long as they.
  check_rewrites_schema || schema=$?

  if [ -d "$ROOT" ]; then
    for id in $("$RUNC_BIN" --root "$ROOT" list -q 2>/dev/null); do
      "$RUNC_BIN" --root "$ROOT" delete -f "$id" >/dev/null 2>&1 || true
    done
  fi
  if [ -d "$CRUN_ROOT" ]; then
    for id in $("$CRUN_BIN" --root "$CRUN_ROOT" list -q 2>/dev/null); do
      "$RUN_CRUN" "$CRUN_BIN" "${CRUN_MANAGER[@]}" --root "$CRUN_ROOT" \
        delete -f "$id" >/dev/null 2>&1 || true
    done
  fi
  return "$schema"
}

# The OCI runtime-spec JSON schema (Debian package
# golang-github-opencontainers-specs-dev) and its validator (node-ajv).
: "${OCI_SCHEMA_DIR:=/usr/share/gocode/src/github.com/opencontainers/runtime-spec/schema}"
VALIDATE_OCI="${BATS_TEST_DIRNAME}/helper/validate-oci.js"

oci_node() {
  NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH} node "$@"
}

# have_oci_validator: node, node-ajv and the schema files are installed.
have_oci_validator() {
  [ -f "$OCI_SCHEMA_DIR/config-schema.json" ] && command -v node >/dev/null &&
    oci_node -e 'require("ajv")' 2>/dev/null
}

require_oci_validator() {
  if ! have_oci_validator; then
    skip "needs node, node-ajv and golang-github-opencontainers-specs-dev (the OCI schema validator)"
  fi
}

# validate_oci_config FILE...: each FILE validates against the OCI
# runtime-spec config schema; the violations go to stderr.
validate_oci_config() {
  oci_node "$VALIDATE_OCI" "$OCI_SCHEMA_DIR" "$@" >&2
}

# check_rewrites_schema: every config.json the test left under its
# directory that entitle rewrote (it carries io.entitle.applied) validates
# against the OCI schema (test/README.md, "Schema").  Run by
# common_teardown; nothing to do without the validator.
check_rewrites_schema() {
  local files=()
  [ -n "${BATS_TEST_TMPDIR:-}" ] && [ -d "$BATS_TEST_TMPDIR" ] || return 0
  mapfile -t files < <(find "$BATS_TEST_TMPDIR" -name config.json -type f \
    -exec grep -l -F '"io.entitle.applied"' {} + 2>/dev/null)
  [ "${#files[@]}" -gt 0 ] || return 0
  if [ -n "${ENTITLE_TEST_SCHEMA:-}" ]; then
    defer_schema "${files[@]}"
    return 0
  fi
  have_oci_validator || return 0
  if ! validate_oci_config "${files[@]}"; then
    echo "a config.json that entitle wrote does not validate against the OCI runtime-spec schema (above)" >&2
    return 1
  fi
}

# defer_schema FILE...: copies of FILE... in ENTITLE_TEST_SCHEMA, named
# after the test, for whoever set it to validate (test/kernels/guest.sh).
defer_schema() {
  local f n=0 name
  name=$(basename "$BATS_TEST_FILENAME" .bats)-$BATS_TEST_NUMBER
  mkdir -p "$ENTITLE_TEST_SCHEMA"
  for f in "$@"; do
    cp "$f" "$ENTITLE_TEST_SCHEMA/$name-$((++n)).json"
  done
}

require_root() {
  if [ "$(id -u)" -ne 0 ]; then
    skip "needs root: it runs real containers"
  fi
}

require_entitle() {
  if [ ! -x "$ENTITLE" ]; then
    skip "entitle is not built ($ENTITLE): set ENTITLE or run make check"
  fi
  if [ ! -x "$ENTITLE_PROBE" ]; then
    skip "the probe is not built ($ENTITLE_PROBE): set ENTITLE_PROBE or run make check"
  fi
  if ! command -v jq >/dev/null; then
    skip "needs jq (Debian package jq)"
  fi
}

require_cc() {
  if ! command -v cc >/dev/null; then
    skip "needs a C compiler to list this architecture's syscalls"
  fi
}

require_crun() {
  if [ ! -x "$CRUN_BIN" ]; then
    skip "crun is not installed (Debian package crun)"
  fi
  if ! command -v unshare >/dev/null; then
    skip "needs unshare (util-linux) to give crun a cgroup2 mount"
  fi
}

# require_tools PACKAGES TOOL...: skip (in setup_file too) unless every
# TOOL is on PATH, or exists where it is a path, naming the Debian
# PACKAGES that provide them.
require_tools() {
  local pkgs=$1 tool missing=""
  shift
  for tool in "$@"; do
    case $tool in
    /*) [ -e "$tool" ] ;;
    *) command -v "$tool" >/dev/null ;;
    esac || missing+=" $tool"
  done
  if [ -n "$missing" ]; then
    skip "not installed:$missing (Debian packages $pkgs)"
  fi
}

# probe_image DIR CMD...: DIR/rootfs, busybox, its applets and the probe
# as /probe; DIR/image.tar, an OCI image layout of it (one layer, CMD...
# its command) that `ctr images import` takes; DIR/rootfs.tar, the same
# for `docker import` and `podman import`.  Nothing is pulled.
probe_image() {
  local d=$1
  shift
  "$BUSYBOX_ROOTFS" "$d/rootfs"
  cp "$ENTITLE_PROBE" "$d/rootfs/probe"
  "$OCI_IMAGE" "$d/rootfs" "$d/image.tar" "$@"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$d/rootfs" -cf "$d/rootfs.tar" .
}

# What the engine tests run in a container: the socket probes and the
# capability and NoNewPrivs lines.
ENGINE_SCRIPT='/probe socket inet; /probe socket unix; grep -E "^(CapEff|NoNewPrivs)" /proc/self/status'

# confined_output DENIAL: $output, what ENGINE_SCRIPT printed, shows the
# engine tests' profile (network.none, security.confined): an inet socket
# refused with DENIAL, a unix one allowed, NoNewPrivs set, no
# CAP_DAC_OVERRIDE.
confined_output() {
  [ "$(sed -n 1,2p <<<"$output")" = "$(printf '%s\nok' "$1")" ] &&
    [ "$(grep NoNewPrivs <<<"$output")" = "NoNewPrivs:	1" ] &&
    lacks_cap "$(cap_line "$output" CapEff)" $CAP_DAC_OVERRIDE
}

# containerd_config DIR [OPTION...]: DIR/config.toml, a private
# containerd's config from test/containerd-config.sh (the CRI plugin off
# unless OPTION... has --cri).
containerd_config() {
  "$CONTAINERD_CONFIG" "$@" >"$1/config.toml"
}

# containerd_start DIR: a private containerd with DIR/config.toml (the
# CRI plugin off when the caller wrote none): its root, state and socket
# (DIR/containerd.sock) in DIR, run with the caller's environment; its pid
# in DIR/containerd.pid.  Waits until it answers.  Not bats' fd 3: a shim
# that a failed test leaves would hang the run.
containerd_start() {
  local d=$1
  [ -f "$d/config.toml" ] || containerd_config "$d"
  containerd --config "$d/config.toml" >"$d/containerd.log" 2>&1 3>&- &
  echo $! >"$d/containerd.pid"
  for _ in $(seq 100); do
    ctr -a "$d/containerd.sock" version >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  cat "$d/containerd.log" >&2
  echo "containerd did not start" >&2
  return 1
}

# pid_stop PIDFILE: the process whose pid is in PIDFILE, if there is one,
# sent SIGTERM and waited for (15 s at most).
pid_stop() {
  local pid
  [ -f "$1" ] || return 0
  pid=$(cat "$1")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 150); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
}

# daemon_stop PIDFILE DIR CGROUP: stop the engine whose pid is in PIDFILE
# (and wait for it), unmount what it left under DIR (snapshots, rootfs of
# a failed test; innermost first), remove DIR, and the cgroup parents
# runc made under CGROUP, CGROUP included (runc removes a container's
# cgroups, not these).
daemon_stop() {
  local d=$2 cgroup=$3 m
  pid_stop "$1"
  findmnt -rn -o TARGET | grep "^$d/" | sort -r | while read -r m; do
    umount -l "$m" || true
  done
  rm -rf "$d"
  find /sys/fs/cgroup/*/"$cgroup" /sys/fs/cgroup/"$cgroup" -depth -type d -exec rmdir {} + 2>/dev/null || true
}

# containerd_stop DIR NS: daemon_stop of containerd_start's containerd;
# NS is the ctr namespace (or the CRI pods' cgroup parent).
containerd_stop() {
  daemon_stop "$1/containerd.pid" "$1" "$2"
}

# build_rootfs: the busybox rootfs, built once per bats run and shared by
# every container read-only.  /probe is rebuilt whenever it is older than
# $ENTITLE_PROBE.
build_rootfs() {
  ROOTFS="${ENTITLE_TEST_SHARED:-$BATS_RUN_TMPDIR}/rootfs"
  local busybox
  busybox=$(command -v busybox || true)
  if [ -z "$busybox" ] || ! file_is_static "$busybox"; then
    skip "needs a static busybox (Debian package busybox-static)"
  fi
  (
    flock 9
    if [ ! -x "$ROOTFS/bin/busybox" ]; then
      rm -rf "$ROOTFS.tmp"
      "$BUSYBOX_ROOTFS" "$ROOTFS.tmp" "$busybox"
      cp "$ENTITLE_PROBE" "$ROOTFS.tmp/probe"
      mv "$ROOTFS.tmp" "$ROOTFS"
    elif [ "$ENTITLE_PROBE" -nt "$ROOTFS/probe" ]; then
      cp "$ENTITLE_PROBE" "$ROOTFS/probe.tmp"
      mv "$ROOTFS/probe.tmp" "$ROOTFS/probe"
    fi
  ) 9>"$ROOTFS.lock"
}

file_is_static() {
  # A dynamic executable has a PT_INTERP program header.
  ! LC_ALL=C readelf -l "$1" 2>/dev/null | grep -q 'Requesting program interpreter'
}

# make_bundle DIR [ARG...]: a bundle whose config.json comes from
# `runc spec`, running ARG... (default: /probe sleep 600) without a
# terminal on the shared rootfs, with Docker's default capabilities and
# noNewPrivileges false, as engines give it.
make_bundle() {
  local dir=$1
  shift
  [ $# -gt 0 ] || set -- /probe sleep 600
  mkdir -p "$dir"
  rm -f "$dir/config.json"
  base_config
  jq --args '.process.args = $ARGS.positional' -- "$@" <"$BASE_CONFIG" >"$dir/config.json"
}

# base_config: BASE_CONFIG, `runc spec` made into the tests' base bundle
# config (no terminal, Docker's default capabilities, the read-only rootfs),
# once per run (or once for every run sharing ENTITLE_TEST_SHARED).
base_config() {
  BASE_CONFIG="${ENTITLE_TEST_SHARED:-$BATS_RUN_TMPDIR}/base-config.json"
  [ -f "$BASE_CONFIG" ] && return 0
  (
    flock 9
    [ ! -f "$BASE_CONFIG" ] || exit 0
    local tmp="$BASE_CONFIG.d"
    rm -rf "$tmp"
    mkdir "$tmp"
    (cd "$tmp" && "$RUNC_BIN" spec)
    edit_config "$tmp" '
      .process.terminal = false
      | .process.noNewPrivileges = false
      | .process.capabilities = {bounding: $caps, effective: $caps, permitted: $caps}
      | .root = {path: $rootfs, readonly: true}' \
      --argjson caps "$DEFAULT_CAPS" --arg rootfs "$ROOTFS"
    mv "$tmp/config.json" "$BASE_CONFIG"
    rm -rf "$tmp"
  ) 9>"$BASE_CONFIG.lock"
}

# probe_bundle DIR PROBE...: a bundle running each PROBE (the arguments of
# one /probe call, as one word) in turn; each prints "PROBE: RESULT" (the
# caps probe prints its other lines unprefixed).
probe_bundle() {
  local dir=$1 script="" p
  shift
  for p in "$@"; do
    script+="printf '%s: ' '$p'; /probe $p; "
  done
  make_bundle "$dir" /bin/sh -c "$script"
}

# run_bundle RUNNER [DIR [ID]]: run the container in the foreground through
# RUNNER (ent, rnc, ent_crun, crn) with bats' run: $output and $lines
# hold its stdout, $stderr its stderr.
run_bundle() {
  run --separate-stderr "$1" run -b "${2:-$BUNDLE}" "${3:-$CTID}" </dev/null
}

# run_detached COMMAND...: bats' `run --separate-stderr`, but through files:
# a container that `create` leaves behind would hold run's pipes open and
# hang the test.  Sets status, output, lines, stderr and stderr_lines.
run_detached() {
  local o="$BATS_TEST_TMPDIR/run-detached.out" e="$BATS_TEST_TMPDIR/run-detached.err"
  status=0
  "$@" </dev/null >"$o" 2>"$e" || status=$?
  output=$(<"$o")
  stderr=$(<"$e")
  mapfile -t lines <"$o"
  mapfile -t stderr_lines <"$e"
}

# expect_lines LINE...: $lines is exactly LINE...
expect_lines() {
  local want got
  want=$(printf '%s\n' "$@")
  got=$(printf '%s\n' "${lines[@]}")
  if [ "$want" != "$got" ]; then
    printf 'expected:\n%s\ngot (status %s):\n%s\nstderr:\n%s\n' \
      "$want" "$status" "$got" "$stderr" >&2
    return 1
  fi
}

# edit_config DIR JQ-FILTER [JQ-ARG...]: rewrite DIR/config.json with jq.
edit_config() {
  local dir=$1 filter=$2
  shift 2
  jq "$@" "$filter" "$dir/config.json" >"$dir/config.json.new"
  mv "$dir/config.json.new" "$dir/config.json"
}

# entitle_version: the version entitle states on its own line of
# `--version`, after the runtime's lines (and records in
# io.entitle.version).
entitle_version() {
  "$ENTITLE" --version | sed -n 's/^entitle version //p'
}

# set_entitlements DIR LIST: request LIST through the annotation; in a
# build configured --disable-bpf, skip when LIST needs a BPF program.
set_entitlements() {
  require_bpf_for "$2"
  request_entitlements "$1" "$2"
}

# request_entitlements DIR LIST: the annotation alone, whatever the build.
request_entitlements() {
  edit_config "$1" '.annotations["io.entitle.entitlements"] = $list' --arg list "$2"
}

# require_landlock: skip where the kernel has no Landlock (fs.* are refused
# there; test-landlock covers the refusal); else LANDLOCK_ABI is its ABI.
require_landlock() {
  LANDLOCK_ABI=$("$ENTITLE" probe --json | jq -r .landlock_abi)
  if [ "$LANDLOCK_ABI" -lt 1 ] 2>/dev/null; then
    skip "this kernel has no Landlock: fs.* are refused here (test-landlock covers the refusal)"
  fi
}

# bpf_build: whether entitle was built with its BPF programs (not
# configure --disable-bpf), as `entitle features` says (asked once a file).
bpf_build() {
  local f=$BATS_FILE_TMPDIR/io.entitle.bpf
  [ -s "$f" ] || "$ENTITLE" features | jq -r '.annotations["io.entitle.bpf"]' >"$f"
  [ "$(<"$f")" != false ]
}

# require_bpf_for LIST: in a build configured --disable-bpf, skip when an
# entitlement of LIST, or one it implies (a custom one), needs a cgroup
# program, which create refuses there (explain gives the reason create
# would; nobpf.bats tests the refusal).
require_bpf_for() {
  local e out implied
  bpf_build && return 0
  for e in ${1//,/ }; do
    out=$("$ENTITLE" explain "$e" 2>/dev/null) || true
    if grep -q "NOT enforceable here: this entitle was built without BPF" <<<"$out"; then
      skip "$e needs a BPF program: this entitle was built without BPF (configure --disable-bpf)"
    fi
    implied=$(sed -n 's/^  implies (as if asked for with it): //p' <<<"$out")
    [ -z "$implied" ] || require_bpf_for "$implied"
  done
}

# require_bpf_build: skip in a build configured --disable-bpf, which
# refuses every entitlement that needs a BPF program (nobpf.bats tests the
# refusal).
require_bpf_build() {
  bpf_build ||
    skip "this entitle was built without BPF (configure --disable-bpf): nobpf.bats tests the refusal"
}

# require_fs_write: skip where the kernel's Landlock cannot hold all of
# fs.write (ABI 3 made truncate(2) a right), which create refuses there
# (landlock.bats tests the refusal).
require_fs_write() {
  [ "$LANDLOCK_ABI" -ge 3 ] ||
    skip "this kernel's Landlock ABI $LANDLOCK_ABI has no truncate right: create refuses fs.write"
}

# writable_bundle ARG...: make_bundle running ARG... on a writable copy of
# the rootfs ($BATS_TEST_TMPDIR/rootfs), with /data/f (a file fs.read
# lists) in it.
writable_bundle() {
  local rootfs="$BATS_TEST_TMPDIR/rootfs"
  rm -rf "$rootfs"
  cp -a "$ROOTFS" "$rootfs"
  mkdir "$rootfs/data"
  echo data >"$rootfs/data/f"
  make_bundle "$BUNDLE" "$@"
  edit_config "$BUNDLE" '.root = {path: $r, readonly: false}' --arg r "$rootfs"
}

# example_objects DIR: the BPF objects of examples/ (custom entitlements,
# entitle.json(5)) that make built, copied into DIR, for admin configs
# written there that name them relative to themselves.
example_objects() {
  local src=${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..} build=${ENTITLE_BUILDDIR:-$BATS_TEST_DIRNAME/../..} o
  for o in seccomp1 seccomp2 checmate1 checmate1-connect4; do
    if [ -f "$src/examples/$o.bpf.o" ]; then
      cp "$src/examples/$o.bpf.o" "$1/"
    else
      cp "$build/examples/$o.bpf.o" "$1/"
    fi
  done
}

# write_entitle_config JSON: write the admin configuration, and point
# ENTITLE_CONFIG at it.
write_entitle_config() {
  export ENTITLE_CONFIG="$BATS_TEST_TMPDIR/entitle.json"
  printf '%s\n' "$1" >"$ENTITLE_CONFIG"
}

# use_crun: make entitle wrap crun instead of runc.
use_crun() {
  write_entitle_config "{\"runtime\": \"$CRUN_BIN\"}"
}

# ent ARG...: entitle in front of runc with the test's state dir.
ent() {
  "$ENTITLE" --root "$ROOT" "$@"
}

# rnc ARG...: bare runc with the same state dir.
rnc() {
  "$RUNC_BIN" --root "$ROOT" "$@"
}

# run_crun_ns COMMAND [ARG...]: COMMAND inside the namespace that crun
# needs on this host (see run-crun.sh).
run_crun_ns() {
  "$RUN_CRUN" "$@"
}

# ent_crun / crn ARG...: entitle in front of crun, and bare crun, both in
# the crun namespace, with --cgroup-manager=disabled where the host is
# hybrid (CRUN_MANAGER).
ent_crun() {
  "$RUN_CRUN" "$ENTITLE" "${CRUN_MANAGER[@]}" --root "$CRUN_ROOT" "$@"
}

crn() {
  "$RUN_CRUN" "$CRUN_BIN" "${CRUN_MANAGER[@]}" --root "$CRUN_ROOT" "$@"
}

# create_started RUNNER BUNDLE ID: create and start a container whose
# stdio goes to files in the test dir, so that it never holds bats' pipes.
create_started() {
  local runner=$1 bundle=$2 id=$3
  "$runner" create -b "$bundle" "$id" </dev/null \
    >"$BATS_TEST_TMPDIR/$id.out" 2>"$BATS_TEST_TMPDIR/$id.err" || {
    cat "$BATS_TEST_TMPDIR/$id.err" >&2
    return 1
  }
  "$runner" start "$id"
}

# wait_status RUNNER ID STATUS: poll the state until it reads STATUS.
wait_status() {
  local runner=$1 id=$2 want=$3 got=""
  for _ in $(seq 100); do
    got=$("$runner" state "$id" 2>/dev/null | jq -r .status) || true
    [ "$got" = "$want" ] && return 0
    sleep 0.1
  done
  echo "container $id is \"$got\", not \"$want\"" >&2
  return 1
}

# step LABEL NAME COMMAND...: run COMMAND and keep its stdout, stderr (less
# time stamps) and exit status as $BATS_TEST_TMPDIR/out/LABEL/NAME.{out,err,rc}, so that two
# runs (bare runtime and entitle) can be compared with compare_steps.
step() {
  local dir="$BATS_TEST_TMPDIR/out/$1" name=$2 rc=0
  shift 2
  mkdir -p "$dir"
  "$@" </dev/null >"$dir/$name.out" 2>"$dir/$name.err" || rc=$?
  echo "$rc" >"$dir/$name.rc"
  # runc stamps its messages (logrus text format): drop the time.
  sed -i 's/^time="[^"]*" /time="." /' "$dir/$name.err"
}

# step_json LABEL NAME JQ-FILTER COMMAND...: as step, with stdout
# normalised by JQ-FILTER (to drop pids and times).
step_json() {
  local label=$1 name=$2 filter=$3 out
  shift 3
  step "$label" "$name" "$@"
  out="$BATS_TEST_TMPDIR/out/$label/$name.out"
  if [ -s "$out" ]; then
    jq -S "$filter" "$out" >"$out.norm" || echo "NOT JSON: $(cat "$out")" >"$out.norm"
    mv "$out.norm" "$out"
  fi
}

# compare_steps A B: the recorded steps of A and B are identical.
compare_steps() {
  local a="$BATS_TEST_TMPDIR/out/$1" b="$BATS_TEST_TMPDIR/out/$2"
  [ -n "$(ls "$a")" ]
  if ! diff -ru "$a" "$b" >&2; then
    echo "outputs of $1 and $2 differ (see the diff above)" >&2
    return 1
  fi
}

# step_value LABEL NAME EXT: a recorded output.
step_value() {
  cat "$BATS_TEST_TMPDIR/out/$1/$2.$3"
}

# lifecycle RUNTIME LABEL RUNNER: the whole life of one container, step by
# step (numbered 1-create, 2-state-created, ...), as the bare RUNTIME (runc
# or crun) and entitle in front of it are compared.  With crun the ps step
# and the second delete are left out.
lifecycle() {
  local rt=$1 l=$2 r=$3 n=0
  local state='del(.pid, .created)' list='map(del(.pid, .created))'
  step "$l" $((++n))-create "$r" create -b "$BUNDLE" "$CTID"
  step_json "$l" $((++n))-state-created "$state" "$r" state "$CTID"
  step "$l" $((++n))-start "$r" start "$CTID"
  step_json "$l" $((++n))-state-running "$state" "$r" state "$CTID"
  step "$l" $((++n))-exec "$r" exec "$CTID" /bin/sh -c 'echo out; echo err >&2; exit 5'
  [ "$rt" = crun ] || step_json "$l" $((++n))-ps-json 'length' "$r" ps --format json "$CTID"
  step_json "$l" $((++n))-list-json "$list" "$r" list --format json
  step "$l" $((++n))-list-quiet "$r" list -q
  step "$l" $((++n))-kill "$r" kill "$CTID" KILL
  wait_status "$r" "$CTID" stopped
  step_json "$l" $((++n))-state-stopped "$state" "$r" state "$CTID"
  step "$l" $((++n))-delete "$r" delete "$CTID"
  step "$l" $((++n))-state-deleted "$r" state "$CTID"
  [ "$rt" = crun ] || step "$l" $((++n))-delete-again "$r" delete "$CTID"
}

# same_as_init WHAT: $output (from run) is the status lines of the process
# run by WHAT, a line `---`, then those of the container's init process;
# init is confined (NoNewPrivs, no CAP_DAC_OVERRIDE) and the process has
# exactly the same lines.
same_as_init() {
  local self init
  self=$(printf '%s\n' "$output" | sed '/^---$/,$d')
  init=$(printf '%s\n' "$output" | sed '1,/^---$/d')
  printf '%s\n' "$init" | grep -qx 'NoNewPrivs:[[:space:]]*1' || return 1
  lacks_cap "$(cap_line "$init" CapEff)" $CAP_DAC_OVERRIDE || return 1
  if [ "$self" != "$init" ]; then
    printf '%s:\n%s\ninit:\n%s\n' "$1" "$self" "$init" >&2
    return 1
  fi
}

# fingerprint DIR: names, types, modes, owners, sizes, link targets and
# contents of everything under DIR (not times), to prove nothing changed.
fingerprint() {
  (
    cd "$1"
    find . -printf '%p %y %m %u:%g %s %l\n' | LC_ALL=C sort
    find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum
  )
}

# syscall_names: this architecture's syscall names as a JSON array (from
# the C library's headers), to write allowlist profiles as engines do.
# Call require_cc first: a skip cannot leave a command substitution.
syscall_names() {
  printf '#include <sys/syscall.h>\n' | cc -E -dM - |
    sed -n 's/^#define __NR_\([a-z0-9_]*\) .*/\1/p' | jq -R . | jq -s -c .
}

# has_cap HEX BIT / lacks_cap HEX BIT: whether capability BIT is set in
# the mask HEX; both fail when HEX is not a mask.  (Use lacks_cap, never
# "! has_cap": bats does not fail a test on a negated command.)
has_cap() {
  is_cap_mask "$1" && (((0x$1 >> $2) & 1))
}

lacks_cap() {
  is_cap_mask "$1" && ! (((0x$1 >> $2) & 1))
}

is_cap_mask() {
  if [[ ! "$1" =~ ^[0-9a-f]{1,16}$ ]]; then
    echo "not a capability mask: \"$1\"" >&2
    return 2
  fi
}

# cap_line OUTPUT NAME: the hex mask of the NAME line (CapEff...) of the
# caps probe's output.
cap_line() {
  printf '%s\n' "$1" | sed -n "s/^\(.*: \)\{0,1\}$2:[[:space:]]*//p"
}

# one_error_line: $stderr (from run --separate-stderr) is a single line
# that starts with "entitle: ", and nothing was written to stdout.
one_error_line() {
  if [ "$status" -eq 0 ]; then
    echo "exit status 0, expected an error" >&2
    return 1
  fi
  if [ "${#stderr_lines[@]}" -ne 1 ] || [[ "${stderr_lines[0]}" != "entitle: "* ]]; then
    printf 'stderr is not one "entitle: " line:\n%s\n' "$stderr" >&2
    return 1
  fi
  if [ -n "$output" ]; then
    printf 'unexpected stdout:\n%s\n' "$output" >&2
    return 1
  fi
}

# snapshot: remember $BUNDLE's files, modes and owners for refused.
snapshot() {
  BEFORE=$(fingerprint "$BUNDLE")
}

# refused WORD...: the last command (run_detached) was refused as DESIGN §5
# says: one short "entitle: " line holding every WORD, nothing changed in
# $BUNDLE since snapshot, and no container.
refused() {
  local word
  one_error_line
  if [ "${#stderr}" -gt 512 ]; then
    echo "the message is ${#stderr} bytes long" >&2
    return 1
  fi
  for word in "$@"; do
    if [[ "$stderr" != *"$word"* ]]; then
      echo "the message does not name \"$word\": $stderr" >&2
      return 1
    fi
  done
  if [ "$(fingerprint "$BUNDLE")" != "$BEFORE" ]; then
    diff <(echo "$BEFORE") <(fingerprint "$BUNDLE") >&2
    echo "the bundle changed" >&2
    return 1
  fi
  if "$RUNC_BIN" --root "$ROOT" state "$CTID" >/dev/null 2>&1; then
    echo "a container was created" >&2
    return 1
  fi
}

# cgroup_dir PID: the cgroup v2 directory of PID.
cgroup_dir() {
  local mnt rel
  mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
  rel=$(sed -n 's/^0:://p' "/proc/$1/cgroup")
  echo "$mnt$rel"
}

# make_netns NAME ADDR...: a network namespace $NETNS (NAME) whose lo is
# up and holds each ADDR (IPv4 as /32, IPv6 as /128): addresses the test
# made itself, where "ECONNREFUSED" means the packet got there.  The
# teardown of the test removes it (drop_netns).
make_netns() {
  local a
  NETNS=$1
  shift
  ip netns add "$NETNS"
  ip -n "$NETNS" link set lo up
  for a in "$@"; do
    case $a in
    *:*) ip -n "$NETNS" addr add "$a/128" dev lo nodad ;;
    *) ip -n "$NETNS" addr add "$a/32" dev lo ;;
    esac
  done
}

drop_netns() {
  [ -z "${NETNS:-}" ] || ip netns delete "$NETNS" 2>/dev/null || true
}

# join_netns DIR: the bundle's container joins $NETNS (by path).
join_netns() {
  edit_config "$1" '.linux.namespaces = ([.linux.namespaces[] | select(.type != "network")]
      + [{type: "network", path: $p}])' --arg p "/var/run/netns/$NETNS"
}

# net_bundle DIR PROBE...: probe_bundle in $NETNS.
net_bundle() {
  local dir=$1
  shift
  probe_bundle "$dir" "$@"
  join_netns "$dir"
}

# run_flag_forms FLAG VALUE WANT: run the bundle ($BUNDLE, restored from
# $BATS_TEST_TMPDIR/config.orig each time) through entitle with the global
# FLAG=VALUE in each spelling runc's flags have; the container's output
# must be WANT each time (runc refuses a flag it does not know, so this
# also shows that entitle took its own flag out).
run_flag_forms() {
  local flag=$1 value=$2 want=$3 form n=0
  for form in "--$flag=$value" "--$flag $value" "-$flag=$value"; do
    n=$((n + 1))
    cp "$BATS_TEST_TMPDIR/config.orig" "$BUNDLE/config.json"
    # shellcheck disable=SC2086 # the form is one or two words
    run --separate-stderr "$ENTITLE" $form --root "$ROOT" run -b "$BUNDLE" "$CTID-$n" </dev/null
    if [ "$output" != "$want" ]; then
      printf 'with %s: status %s, output "%s", stderr:\n%s\n' "$form" "$status" "$output" "$stderr" >&2
      return 1
    fi
  done
}
