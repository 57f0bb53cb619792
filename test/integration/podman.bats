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
LABELLED=localhost/entitle-labelled:latest
WIDENING=localhost/entitle-widening:latest

setup_file() {
  require_root
  require_entitle
  require_tools "podman conmon busybox-static" podman conmon busybox
  PM_DIR=$(mktemp -d /tmp/entitle-pm.XXXXXX)
  export PM_DIR PM_CGROUP="entitle-podman-${PM_DIR##*.}"
  probe_image "$PM_DIR" /bin/sh
  mkdir "$PM_DIR/bin" "$PM_DIR/hooks.d" "$PM_DIR/tmp"
  ln -s "$(realpath "$ENTITLE")" "$PM_DIR/bin/entitle"
  # image_labels: the label of the image a container runs, from this
  # store's records (docs/image-labels.md).
  echo '{"profiles": {"confined": ["network.none", "security.confined"]},
    "image_labels": {"containers-storage": ["'"$PM_DIR/root"'"]}}' >"$PM_DIR/entitle.json"
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
  # The same image with the label an image author writes, and one whose
  # label asks for what widens.
  pm import --change 'CMD ["/bin/sh"]' --change 'ENV PATH=/bin' --change 'LABEL io.entitle.entitlements=network.none' \
    "$PM_DIR/rootfs.tar" "$LABELLED" >/dev/null
  pm import --change 'CMD ["/bin/sh"]' --change 'ENV PATH=/bin' --change 'LABEL io.entitle.entitlements=security.admin' \
    "$PM_DIR/rootfs.tar" "$WIDENING" >/dev/null
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
    run --rm --network none --cgroup-parent "/$PM_CGROUP" "${opts[@]}" "${PM_IMAGE:-$IMAGE}" "$@"
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

# Image labels (issue 28, docs/image-labels.md): entitle reads the label
# of the image from containers/storage's record of the container, by the
# image's digest.

@test "Podman, image label: an image labelled network.none runs confined through entitle with no flag; under runc the label changes nothing" {
  PM_IMAGE=$LABELLED pm_run "$RUNC_BIN" -- /probe socket inet
  [ "$output" = ok ]
  PM_IMAGE=$LABELLED pm_run entitle -- /probe socket inet
  [ "$output" = EPERM ]
  # The image of the same bytes without the label: as runc.
  pm_run entitle -- /probe socket inet
  [ "$output" = ok ]
}

@test "Podman, image label: the annotation and ENTITLE_ENTITLEMENTS replace what the image asks, even emptied" {
  PM_IMAGE=$LABELLED pm_run entitle --annotation io.entitle.entitlements= -- /probe socket inet
  [ "$output" = ok ]
  PM_IMAGE=$LABELLED pm_run entitle -e ENTITLE_ENTITLEMENTS= -- /probe socket inet
  [ "$output" = ok ]
}

@test "Podman, image label: a label that widens is refused naming the image's digest, and runs when the admin grants it" {
  local id
  id=$(pm image inspect --format '{{.Id}}' "$WIDENING")
  PM_IMAGE=$WIDENING pm_run entitle -- /bin/true
  [ "$status" -ne 0 ]
  [ "$stderr" = "Error: OCI runtime error: entitle: image sha256:$id: entitlement \"security.admin\" requested by the container through the image's label \`io.entitle.entitlements\` is not granted by $PM_DIR/entitle.json" ]
  jq '.grant = ["security.admin"]' "$PM_DIR/entitle.json" >"$PM_DIR/granted.json"
  run --separate-stderr pm --runtime entitle --runtime-flag "entitle-config=$PM_DIR/granted.json" \
    run --rm --network none --cgroup-parent "/$PM_CGROUP" "$WIDENING" /bin/sh -c 'grep CapEff /proc/self/status'
  [ "$status" -eq 0 ]
  # CAP_SYS_ADMIN, which security.admin adds.
  has_cap "$(cap_line "$output" CapEff)" 21
}

@test "Podman, image label: the image a container was created from is the one read, after its name moved to another" {
  local ctr
  pm import --change 'CMD ["/bin/sh"]' --change 'ENV PATH=/bin' --change 'LABEL io.entitle.entitlements=network.none' \
    "$PM_DIR/rootfs.tar" localhost/entitle-moving:latest >/dev/null
  ctr=$(pm --runtime entitle --runtime-flag "entitle-config=$PM_DIR/entitle.json" create --network none \
    --cgroup-parent "/$PM_CGROUP" localhost/entitle-moving:latest /probe socket inet)
  # The name now names an image without the label.
  pm import --change 'CMD ["/bin/sh"]' --change 'ENV PATH=/bin' "$PM_DIR/rootfs.tar" localhost/entitle-moving:latest >/dev/null
  run pm --runtime-flag "entitle-config=$PM_DIR/entitle.json" start -a "$ctr"
  pm rm -f "$ctr" >/dev/null
  [ "$output" = EPERM ]
}

@test "Podman, image label: an image config that is not its digest fails the start with one line; an annotation of entitle's own is refused" {
  local id file ctr
  pm import --change 'LABEL io.entitle.entitlements=network.none' "$PM_DIR/rootfs.tar" localhost/entitle-broken:latest >/dev/null
  id=$(pm image inspect --format '{{.Id}}' localhost/entitle-broken:latest)
  # containers/storage names the image's config "=" and the base64 of
  # its digest.
  file="$PM_DIR/root/vfs-images/$id/=$(printf 'sha256:%s' "$id" | base64 -w0)"
  [ -f "$file" ]
  # Podman checks the digest itself when it creates a container: the file
  # changes after that, before the runtime's create.
  ctr=$(pm --runtime entitle create --network none --cgroup-parent "/$PM_CGROUP" localhost/entitle-broken:latest /bin/true)
  echo >>"$file"
  run --separate-stderr pm --runtime-flag "entitle-config=$PM_DIR/entitle.json" start -a "$ctr"
  pm rm -f "$ctr" >/dev/null
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"entitle: image sha256:$id: its config \`$file\` has the digest sha256:"* ]]
  [ "$(grep -c . <<<"$stderr")" -eq 1 ]

  # Only entitle writes io.entitle.image-label, from the record.
  pm_run entitle --annotation io.entitle.image-label=network.none -- /probe socket inet
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"entitle: annotation \`io.entitle.image-label\` is entitle's to write, and the engine's record of container "*" names no image label" ]]
}
