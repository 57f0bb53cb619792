#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Docker 20.10 (Debian's docker.io), for real (issue 12): a private dockerd
# (its own data root, exec root, pidfile and socket; vfs storage, no
# iptables, no bridge; the containerd it starts itself under its exec
# root), whose daemon.json `entitle configure docker --profile confined`
# wrote: the runtime `entitle`, and `entitle-confined` with runtimeArgs
# --entitle-profile=confined.  Docker 20.10 passes no annotations
# (--annotation needs API 1.43): profiles select entitlements for a
# runtime, and ENTITLE_ENTITLEMENTS in the container's environment (`-e`,
# or the image's ENV) for one container (issue 24).  Containers run with
# --network none: nothing is sent (docker-helpers.bash).

load helpers
load docker-helpers

IMAGE=entitle-busybox:latest
# The same image, whose ENV asks for network.none.
ASKING=entitle-busybox:asks

setup_file() {
  dk_setup
  # A runtime whose profile the admin config lacks, for the error test.
  ln -s entitle "$DK_DIR/bin/entitle-nope"
  echo '{"profiles": {"confined": ["network.none", "security.confined"]}}' >"$DK_DIR/entitle.json"
  ENTITLE_CONFIG="$DK_DIR/entitle.json" "$ENTITLE" configure docker --config "$DK_DIR/daemon.json" \
    --binary "$DK_DIR/bin/entitle" --profile confined >"$DK_DIR/configure.out"
  dk_start --config-file "$DK_DIR/daemon.json" --add-runtime "entitle-nope=$DK_DIR/bin/entitle-nope"
  dk import --change 'CMD ["/bin/sh"]' --change 'ENV PATH=/bin' "$DK_DIR/rootfs.tar" "$IMAGE" >/dev/null
  dk import --change 'CMD ["/bin/sh"]' --change 'ENV PATH=/bin' --change 'ENV ENTITLE_ENTITLEMENTS=network.none' \
    "$DK_DIR/rootfs.tar" "$ASKING" >/dev/null
}

teardown_file() {
  dk_teardown
}

SCRIPT="$ENGINE_SCRIPT; exit 3"

@test "Docker: docker run --runtime entitle without entitlements answers as runc" {
  run dk info --format '{{range $name, $r := .Runtimes}}{{$name}} {{end}}'
  [[ "$output" == *"entitle entitle-confined"* ]]
  dk_runs_as_runc "$IMAGE"
}

@test "Docker: the runtimeArgs profile entitle-confined confines docker run" {
  run --separate-stderr dk run --rm --network none --runtime entitle-confined "$IMAGE" /bin/sh -c "$SCRIPT"
  [ "$status" -eq 3 ]
  confined_output EPERM
}

@test "Docker 20.10 passes runtimeArgs on every runtime call: docker exec runs under the profile too" {
  # Docker writes runtimeArgs into a wrapper script that containerd's runc
  # shim runs as the runtime for create, start, exec, kill and delete.
  [ "$(tail -n 1 "$DK_DIR/root/runtimes/entitle-confined")" = "$DK_DIR/bin/entitle --entitle-profile=confined \$@" ]
  dk run -d --name "c$BATS_TEST_NUMBER" --network none --runtime entitle-confined "$IMAGE" /probe sleep 600
  run --separate-stderr dk exec "c$BATS_TEST_NUMBER" /bin/sh -c \
    "/probe socket inet; grep -E '^(Cap|NoNewPrivs)' /proc/self/status; echo ---; grep -E '^(Cap|NoNewPrivs)' /proc/1/status"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = EPERM ]
  output=$(sed 1d <<<"$output")
  same_as_init "docker exec"
  # kill and delete reach runc through the same wrapper.
  run dk rm -f "c$BATS_TEST_NUMBER"
  [ "$status" -eq 0 ]
  [ -z "$(dk ps -aq)" ]
}

@test "Docker: an entitle error reaches docker run as its message" {
  run --separate-stderr dk run --rm --network none --runtime entitle-nope "$IMAGE" /bin/true
  [ "$status" -ne 0 ]
  # docker: Error response from daemon: failed to create shim task: OCI
  # runtime create failed: entitle: unknown profile `nope`: ... defines
  # `confined`: unknown.
  [[ "$stderr" == *"OCI runtime create failed: entitle: unknown profile \`nope\`: $DK_DIR/entitle.json defines \`confined\`"* ]]
  [ -z "$(dk ps -aq)" ]
}

# What the environment tests run: ENGINE_SCRIPT, then the variable as the
# workload sees it.
ENV_SCRIPT="$ENGINE_SCRIPT; echo \"env: \${ENTITLE_ENTITLEMENTS-unset}\"; exit 3"

@test "Docker 20.10: docker run -e ENTITLE_ENTITLEMENTS=network.none,security.confined confines that container; the variable stays in its environment" {
  run --separate-stderr dk run --rm --network none --runtime runc -e ENTITLE_ENTITLEMENTS=network.none,security.confined \
    "$IMAGE" /bin/sh -c "$ENV_SCRIPT"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = ok ]
  run --separate-stderr dk run --rm --network none --runtime entitle -e ENTITLE_ENTITLEMENTS=network.none,security.confined \
    "$IMAGE" /bin/sh -c "$ENV_SCRIPT"
  [ "$status" -eq 3 ]
  confined_output EPERM
  [ "${lines[-1]}" = "env: network.none,security.confined" ]
}

@test "Docker 20.10: docker exec -e ENTITLE_ENTITLEMENTS=security.insecure into a container that asked for network.none widens nothing" {
  dk run -d --name "c$BATS_TEST_NUMBER" --network none --runtime entitle \
    -e ENTITLE_ENTITLEMENTS=network.none,security.confined "$IMAGE" /probe sleep 600
  for asked in security.insecure ""; do
    run --separate-stderr dk exec -e "ENTITLE_ENTITLEMENTS=$asked" "c$BATS_TEST_NUMBER" /bin/sh -c \
      "/probe socket inet; grep -E '^(Cap|NoNewPrivs)' /proc/self/status; echo ---; grep -E '^(Cap|NoNewPrivs)' /proc/1/status"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = EPERM ]
    output=$(sed 1d <<<"$output")
    same_as_init "docker exec -e ENTITLE_ENTITLEMENTS=$asked"
  done
  dk rm -f "c$BATS_TEST_NUMBER" >/dev/null
}

@test "Docker 20.10: docker run -e ENTITLE_ENTITLEMENTS=security.admin is refused without the admin's grant, the message in docker run's" {
  run --separate-stderr dk run --rm --network none --runtime entitle -e ENTITLE_ENTITLEMENTS=security.admin "$IMAGE" /bin/true
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"OCI runtime create failed: entitle: entitlement \"security.admin\" requested by the container through process.env \`ENTITLE_ENTITLEMENTS\` is not granted by $DK_DIR/entitle.json"* ]]
  [ -z "$(dk ps -aq)" ]
}

@test "Docker 20.10: an image's ENV ENTITLE_ENTITLEMENTS asks as -e does, and docker run -e replaces it" {
  run --separate-stderr dk run --rm --network none --runtime entitle "$ASKING" /bin/sh -c "$ENV_SCRIPT"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = EPERM ]
  [ "${lines[-1]}" = "env: network.none" ]
  # The user's -e is the container's environment: an empty value asks
  # for nothing (what the image asked for narrowed only the image).
  run --separate-stderr dk run --rm --network none --runtime entitle -e ENTITLE_ENTITLEMENTS= "$ASKING" /bin/sh -c "$ENV_SCRIPT"
  [ "$status" -eq 3 ]
  [ "${lines[0]}" = ok ]
  [ "${lines[-1]}" = "env: " ]
}

@test "Docker: entitle inspect ID finds a container of Docker's runc root (its exec root's runtime-runc/moby) without --root" {
  # The roots are looked for under ENTITLE_RUN_DIR (/run by default): this
  # dockerd's exec root is that base's docker, as /run/docker is an
  # installed Docker's.
  base="$DK_DIR/run-$BATS_TEST_NUMBER"
  mkdir "$base"
  ln -s "$DK_DIR/exec" "$base/docker"
  id=$(dk run -d --network none --runtime entitle-confined "$IMAGE" /probe sleep 600)
  pid=$(dk inspect -f '{{.State.Pid}}' "$id")
  [ "$pid" -gt 0 ]
  run --separate-stderr env ENTITLE_RUN_DIR="$base" "$ENTITLE" inspect --json "$id"
  [ "$status" -eq 0 ]
  [ "$(jq -r .pid <<<"$output")" = "$pid" ]
  [ "$(jq -r .root <<<"$output")" = "$base/docker/runtime-runc/moby" ]
  [ "$(jq -r .status.NoNewPrivs <<<"$output")" = 1 ]
  dk rm -f "$id" >/dev/null
}
