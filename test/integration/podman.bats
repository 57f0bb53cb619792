#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Podman 4.3 (Debian's), for real (issue 12), with its own root, run root
# and temporary directory, vfs storage, cgroupfs, a file event log, a
# hooks directory of this file, and CONTAINERS_CONF: the containers.conf
# that `entitle configure podman --profile confined` wrote (Podman reads
# only that file then).  Two ways in: entitle-hook alone from hooks.d,
# the way Podman and CRI-O run it without the shim (the hooks.d file
# `make install` ships), and entitle as Podman's runtime.  Containers run
# with --network none: nothing is sent.

load helpers

IMAGE=localhost/entitle-busybox:latest

setup_file() {
  require_root
  require_entitle
  require_tools "podman conmon busybox-static" podman conmon busybox
  PM_DIR=$(mktemp -d /tmp/entitle-pm.XXXXXX)
  export PM_DIR PM_CGROUP="entitle-podman-${PM_DIR##*.}"
  probe_image "$PM_DIR" /bin/sh
  mkdir "$PM_DIR/bin" "$PM_DIR/hooks.d" "$PM_DIR/tmp"
  ln -s "$(realpath "$ENTITLE")" "$PM_DIR/bin/entitle"
  echo '{"profiles": {"confined": ["network.none", "security.confined"]}}' >"$PM_DIR/entitle.json"
  # The hooks.d file make install puts in --with-hooksdir, naming the
  # hook of this build.
  jq --arg hook "$(realpath "$ENTITLE_HOOK")" '.hook.path = $hook' "$ENTITLE_BUILDDIR/oci-hooks/entitle.json" \
    >"$PM_DIR/hooks.d/entitle.json"
  # Podman raises RLIMIT_NOFILE and RLIMIT_NPROC to their maximum, which a
  # host without CAP_SYS_RESOURCE (this one) refuses: limits below any
  # hard limit here.
  echo '[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]' >"$PM_DIR/containers.conf"
  ENTITLE_CONFIG="$PM_DIR/entitle.json" "$ENTITLE" configure podman --config "$PM_DIR/containers.conf" \
    --binary "$PM_DIR/bin/entitle" --profile confined >"$PM_DIR/configure.out"
  pm import --change 'CMD ["/bin/sh"]' --change 'ENV PATH=/bin' "$PM_DIR/rootfs.tar" "$IMAGE" >/dev/null
}

teardown_file() {
  [ -n "${PM_DIR:-}" ] || return 0
  pm rm -af >/dev/null 2>&1 || true
  # Podman has no daemon: no pid to stop.
  daemon_stop "" "$PM_DIR" "$PM_CGROUP"
}

pm() {
  CONTAINERS_CONF="$PM_DIR/containers.conf" podman --root "$PM_DIR/root" --runroot "$PM_DIR/run" \
    --tmpdir "$PM_DIR/tmp" --storage-driver vfs --cgroup-manager cgroupfs --events-backend file \
    --hooks-dir "$PM_DIR/hooks.d" "$@"
}

# pm_run RUNTIME [OPTION...] -- COMMAND...: podman run --rm with RUNTIME,
# to completion.  entitle (a RUNTIME named entitle*) gets the admin config
# of this file through --runtime-flag: conmon runs the runtime without
# Podman's environment (ENTITLE_CONFIG never arrives).
pm_run() {
  local runtime=$1 opts=() flags=()
  shift
  while [ "$1" != -- ]; do
    opts+=("$1")
    shift
  done
  shift
  [[ "$runtime" != entitle* ]] || flags=(--runtime-flag "entitle-config=$PM_DIR/entitle.json")
  run --separate-stderr pm --runtime "$runtime" "${flags[@]}" \
    run --rm --network none --cgroup-parent "/$PM_CGROUP" "${opts[@]}" "$IMAGE" "$@"
}

SCRIPT="$ENGINE_SCRIPT; exit 3"

@test "Podman, hooks.d alone: entitle-hook enforces network.bind for a container under runc that asks for it" {
  pm_run "$RUNC_BIN" -- /bin/sh -c '/probe bind 8080; /probe bind 9090'
  [ "$output" = "$(printf 'ok\nok')" ]
  pm_run "$RUNC_BIN" --annotation io.entitle.entitlements=network.bind=8080 -- /bin/sh -c '/probe bind 8080; /probe bind 9090'
  [ "$output" = "$(printf 'ok\nEPERM')" ]
}

@test "Podman: --runtime entitle, registered by entitle configure, answers as runc without an annotation and honours one" {
  pm_run "$RUNC_BIN" -- /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = ok ]
  runc_output=$output
  pm_run entitle -- /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  [ "$output" = "$runc_output" ]
  # The space-separated form: Podman splits --annotation on commas.
  pm_run entitle --annotation 'io.entitle.entitlements=network.user security.confined' -- /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  [ "$(grep NoNewPrivs <<<"$output")" = "NoNewPrivs:	1" ]
}

@test "Podman: --runtime entitle-confined confines a container that asks for nothing" {
  pm_run entitle-confined -- /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  # Podman's seccomp profile answers the calls it does not list with
  # ENOSYS; entitle's denials read EPERM all the same (entitlements(7)).
  confined_output EPERM
}

@test "Podman: an entitle error reaches podman run as its message, with one entitle: prefix" {
  pm_run entitle --annotation io.entitle.entitlements=network.bogus -- /bin/true
  [ "$status" -ne 0 ]
  # Podman names the runtime itself: "OCI runtime error: entitle: ...".
  [ "$stderr" = "Error: OCI runtime error: entitle: annotation \`io.entitle.entitlements\`: unknown entitlement \`network.bogus\`" ]
  [ -z "$(pm ps -aq)" ]
}

@test "Podman: runc's error through entitle reads as through runc, not as runc's log line" {
  # entitle configure named entitle among the runtimes that write runc's
  # JSON log: Podman gives it --log, and runc's stderr is its message.
  grep -q '^runtime_supports_json = \[.*"entitle", "entitle-confined"\]$' "$PM_DIR/containers.conf"
  pm_run "$RUNC_BIN" -- /nonexistent
  [ "$status" -ne 0 ]
  runc_stderr=${stderr#"Error: $RUNC_BIN: "}
  pm_run entitle -- /nonexistent
  [ "$status" -ne 0 ]
  [ "$stderr" = "Error: entitle: $runc_stderr" ]
  [[ "$stderr" != *level=error* ]]
}
