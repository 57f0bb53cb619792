#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The network ladder, security.confined, the grant rule and what entitle
# records in a rewritten config.json (DESIGN §2, §3), against real runc.
# Each restriction is checked together with the same probe in an
# unrestricted container, so that a test fails if the restriction is not
# what denies.

load helpers

SOCKET_PROBES=("socket inet" "socket inet dgram" "socket inet6" "socket raw"
  "socket packet" "socket netlink" "socket unix" "socket unix dgram")

# seccomp_allowlist: a Docker-like "expanded" profile: everything this
# architecture has is allowed by name, socket() once more with an argument
# condition, and the default action is EPERM.
seccomp_allowlist() {
  local names
  require_cc
  names=$(syscall_names)
  edit_config "$BUNDLE" '.linux.seccomp = {
      defaultAction: "SCMP_ACT_ERRNO", defaultErrnoRet: 1,
      syscalls: [
        {names: $names, action: "SCMP_ACT_ALLOW"},
        {names: ["socket"], action: "SCMP_ACT_ALLOW",
         args: [{index: 0, value: 40, op: "SCMP_CMP_NE"}]}]}' \
    --argjson names "$names"
}

@test "network: without entitlements every socket family can be created" {
  probe_bundle "$BUNDLE" "${SOCKET_PROBES[@]}"
  run_bundle ent
  expect_lines "socket inet: ok" "socket inet dgram: ok" "socket inet6: ok" \
    "socket raw: ok" "socket packet: ok" "socket netlink: ok" \
    "socket unix: ok" "socket unix dgram: ok"
}

@test "network.none: denies AF_INET, AF_INET6, AF_PACKET and AF_NETLINK sockets, allows AF_UNIX" {
  probe_bundle "$BUNDLE" "${SOCKET_PROBES[@]}"
  set_entitlements "$BUNDLE" network.none
  run_bundle ent
  expect_lines "socket inet: EPERM" "socket inet dgram: EPERM" "socket inet6: EPERM" \
    "socket raw: EPERM" "socket packet: EPERM" "socket netlink: EPERM" \
    "socket unix: ok" "socket unix dgram: ok"
  [ "$status" -eq 0 ]
}

@test "network.none: drops the network capabilities from all five sets" {
  probe_bundle "$BUNDLE" caps
  edit_config "$BUNDLE" '.process.capabilities.inheritable = $c | .process.capabilities.ambient = $c' \
    --argjson c '["CAP_NET_BIND_SERVICE", "CAP_KILL"]'
  run_bundle ent
  [ "$status" -eq 0 ]
  has_cap "$(cap_line "$output" CapEff)" $CAP_NET_RAW
  has_cap "$(cap_line "$output" CapAmb)" $CAP_NET_BIND_SERVICE

  set_entitlements "$BUNDLE" network.none
  run_bundle ent
  [ "$status" -eq 0 ]
  for set in CapEff CapPrm CapBnd CapInh CapAmb; do
    mask=$(cap_line "$output" $set)
    for cap in $CAP_NET_BIND_SERVICE $CAP_NET_BROADCAST $CAP_NET_ADMIN $CAP_NET_RAW; do
      if ! lacks_cap "$mask" $cap; then
        echo "$set $mask still has capability $cap" >&2
        false
      fi
    done
  done
  # Only the network ones: CAP_KILL stays where it was.
  has_cap "$(cap_line "$output" CapAmb)" 5
  run jq -r '[.process.capabilities[][] | select(startswith("CAP_NET_"))] | length' "$BUNDLE/config.json"
  [ "$output" = 0 ]
}

@test "network.none: masks /proc/sys/net and /sys/class/net" {
  make_bundle "$BUNDLE" /bin/sh -c 'ls /sys/class/net; ls /proc/sys/net | wc -l'
  run_bundle ent
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = lo ]
  [ "${lines[1]}" -gt 0 ]

  set_entitlements "$BUNDLE" network.none
  run_bundle ent
  [ "$status" -eq 0 ]
  expect_lines 0
  jq -e '.linux.maskedPaths | index("/proc/sys/net") and index("/sys/class/net")' "$BUNDLE/config.json"
}

@test "network.none: adds a network namespace when the bundle has none" {
  make_bundle "$BUNDLE"
  edit_config "$BUNDLE" '.linux.namespaces |= map(select(.type != "network"))'
  set_entitlements "$BUNDLE" network.none
  ent create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1
  jq -e '[.linux.namespaces[] | select(.type == "network" and (.path // "") == "")] | length == 1' \
    "$BUNDLE/config.json"
  pid=$(rnc state "$CTID" | jq -r .pid)
  [ "$(readlink /proc/$pid/ns/net)" != "$(readlink /proc/self/ns/net)" ]
}

@test "network.none: denies AF_INET under an allow-by-default seccomp profile" {
  probe_bundle "$BUNDLE" "socket inet" "socket unix"
  edit_config "$BUNDLE" '.linux.seccomp = {defaultAction: "SCMP_ACT_ALLOW",
    syscalls: [{names: ["kexec_load"], action: "SCMP_ACT_ERRNO"}]}'
  set_entitlements "$BUNDLE" network.none
  run_bundle ent
  expect_lines "socket inet: EPERM" "socket unix: ok"
  # The profile's own rule is kept.
  jq -e '[.linux.seccomp.syscalls[] | select(.names | index("kexec_load"))] | length > 0' \
    "$BUNDLE/config.json"
}

@test "network.none: denies AF_INET under an allowlist profile that allows socket() twice" {
  probe_bundle "$BUNDLE" "socket inet" "socket inet6" "socket unix"
  seccomp_allowlist
  run_bundle ent
  expect_lines "socket inet: ok" "socket inet6: ok" "socket unix: ok"

  set_entitlements "$BUNDLE" network.none
  run_bundle ent
  expect_lines "socket inet: EPERM" "socket inet6: EPERM" "socket unix: ok"
}

@test "network.user: denies raw and packet sockets, allows inet, inet6 and unix" {
  probe_bundle "$BUNDLE" "${SOCKET_PROBES[@]}" "socket packet dgram" caps
  set_entitlements "$BUNDLE" network.user
  run_bundle ent
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "socket inet: ok" ]
  [ "${lines[1]}" = "socket inet dgram: ok" ]
  [ "${lines[2]}" = "socket inet6: ok" ]
  [ "${lines[3]}" = "socket raw: EPERM" ]
  [ "${lines[4]}" = "socket packet: EPERM" ]
  [ "${lines[6]}" = "socket unix: ok" ]
  [ "${lines[7]}" = "socket unix dgram: ok" ]
  [ "${lines[8]}" = "socket packet dgram: EPERM" ]
  lacks_cap "$(cap_line "$output" CapEff)" $CAP_NET_RAW
  lacks_cap "$(cap_line "$output" CapBnd)" $CAP_NET_ADMIN
}

@test "network.user: raw sockets stay denied when CAP_NET_RAW would allow them" {
  # Even with the capability back through exec --cap, seccomp denies.
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.user
  create_started ent "$BUNDLE" "$CTID"
  run --separate-stderr rnc exec --cap CAP_NET_RAW "$CTID" /probe socket packet
  [ "$output" = EPERM ]
  run --separate-stderr rnc exec --cap CAP_NET_RAW "$CTID" /probe socket raw
  [ "$output" = EPERM ]
  run --separate-stderr rnc exec --cap CAP_NET_RAW "$CTID" /probe socket inet
  [ "$output" = ok ]
}

@test "entitle: the rewrite records io.entitle.applied, sorted, and io.entitle.version" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" security.confined,network.user
  ent create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1
  run jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json"
  [ "$output" = network.user,security.confined ]
  version=$(jq -r '.annotations["io.entitle.version"] // ""' "$BUNDLE/config.json")
  [ -n "$version" ]
  [ "$(entitle_version)" = "$version" ]
  # The request itself is kept.
  [ "$(jq -r '.annotations["io.entitle.entitlements"]' "$BUNDLE/config.json")" = security.confined,network.user ]
}

@test "entitle: create on an already rewritten bundle leaves it byte-identical" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none,security.confined
  ent create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1
  ent delete -f "$CTID"
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = network.none,security.confined ]
  first=$(fingerprint "$BUNDLE")
  ent create -b "$BUNDLE" "$CTID-2" </dev/null >/dev/null 2>&1
  [ "$(rnc state "$CTID-2" | jq -r .status)" = created ]
  second=$(fingerprint "$BUNDLE")
  if [ "$first" != "$second" ]; then
    diff <(echo "$first") <(echo "$second") >&2
    false
  fi
}

@test "entitle: the rewrite keeps config.json's mode and owner and leaves no file behind" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  chmod 0600 "$BUNDLE/config.json"
  chown 1234:1234 "$BUNDLE/config.json"
  sum=$(sha256sum <"$BUNDLE/config.json")
  ent create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1
  [ "$(sha256sum <"$BUNDLE/config.json")" != "$sum" ]
  [ "$(stat -c '%F %a %u:%g' "$BUNDLE/config.json")" = "regular file 600 1234:1234" ]
  [ "$(ls -A "$BUNDLE")" = config.json ]
}

@test "compile: prints the config create would write and touches nothing" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none,security.confined
  before=$(fingerprint "$BUNDLE")
  # --root: the hooks entitle adds name the runtime root (DESIGN §4).
  run --separate-stderr "$ENTITLE" --root "$ROOT" compile -b "$BUNDLE"
  [ "$status" -eq 0 ]
  [ "$(fingerprint "$BUNDLE")" = "$before" ]
  printf '%s\n' "$output" | jq -S . >"$BATS_TEST_TMPDIR/compiled.json"
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BATS_TEST_TMPDIR/compiled.json")" = network.none,security.confined ]

  ent create -b "$BUNDLE" "$CTID" </dev/null >/dev/null 2>&1
  jq -S . "$BUNDLE/config.json" >"$BATS_TEST_TMPDIR/created.json"
  # But for the createRuntime hook: create attaches itself, after the
  # runtime's create (run, and a runtime given compile's output, use it).
  jq -S '.hooks.createRuntime |= map(select(.args[0] != "entitle-hook"))
    | if .hooks.createRuntime == [] then del(.hooks.createRuntime) else . end
    | if .hooks == {} then del(.hooks) else . end' "$BATS_TEST_TMPDIR/compiled.json" >"$BATS_TEST_TMPDIR/compiled-create.json"
  diff -u "$BATS_TEST_TMPDIR/compiled-create.json" "$BATS_TEST_TMPDIR/created.json" >&2
}

@test "compile: --diff prints the changes and touches nothing" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.none
  before=$(fingerprint "$BUNDLE")
  run --separate-stderr "$ENTITLE" compile -b "$BUNDLE" --diff
  # 0, or 1 as diff(1) says "differences found".
  [ "$status" -le 1 ]
  [ "$(fingerprint "$BUNDLE")" = "$before" ]
  printf '%s\n' "$output" | grep -E '^\+.*io\.entitle\.applied'
  if printf '%s\n' "$output" | jq -e . >/dev/null 2>&1; then
    echo "--diff printed JSON, not a diff" >&2
    false
  fi
}

# diff_counts SIDE BEFORE AFTER: of the seccomp rules only in AFTER
# (jq's `$after - $before`), "RULES NAMES FIRST-SIX-NAMES".
diff_counts() {
  jq -rn --slurpfile a "$1" --slurpfile b "$2" '
    ($b[0].linux.seccomp.syscalls // []) - ($a[0].linux.seccomp.syscalls // [])
    | "\(length) \([.[].names | length] | add // 0) \([.[].names[]][:6] | join(", "))"'
}

@test "compile: --diff of a real engine's config tells the seccomp rules in one line, exactly counted; --full prints them" {
  cfg="${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}/test/data/engines/podman-default.json"
  run --separate-stderr "$ENTITLE" compile --config "$cfg" --entitlements security.confined
  [ "$status" -eq 0 ]
  printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/after.json"
  read -r rm nm first_m < <(diff_counts "$BATS_TEST_TMPDIR/after.json" "$cfg")
  read -r rp np first_p < <(diff_counts "$cfg" "$BATS_TEST_TMPDIR/after.json")
  [ "$rm" -gt 0 ] && [ "$rp" -gt 0 ] && [ "$nm" -gt 6 ] && [ "$np" -gt 6 ]

  run --separate-stderr "$ENTITLE" compile --config "$cfg" --entitlements security.confined --diff
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -lt 120 ]
  [ "${lines[-1]}" = "linux.seccomp.syscalls: -$rm rules ($nm names: $first_m, … and $((nm - 6)) more), +$rp rules ($np names: $first_p, … and $((np - 6)) more); --diff --full for all" ]
  # The rest is diff -u's, as before.
  [ "${lines[0]}" = "--- config.json" ]
  printf '%s\n' "$output" | grep -q '^-.*"CAP_SETUID",$'

  # --full: every name, no summary.
  run --separate-stderr "$ENTITLE" compile --config "$cfg" --entitlements security.confined --diff --full
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -gt 500 ]
  [[ "$output" != *"--diff --full for all"* ]]
}

@test "compile: a short --diff is diff -u's whole, as with --full" {
  cfg="${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}/test/data/engines/docker-default.json"
  run --separate-stderr "$ENTITLE" compile --config "$cfg" --entitlements network.egress=10.0.0.0/8 --diff --full
  full=$output
  run --separate-stderr "$ENTITLE" compile --config "$cfg" --entitlements network.egress=10.0.0.0/8 --diff
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "--- config.json" ]
  [ "$output" = "$full" ]
}

@test "compile: --entitlements LIST stands in for the annotation" {
  make_bundle "$BUNDLE"
  before=$(fingerprint "$BUNDLE")
  run --separate-stderr "$ENTITLE" compile -b "$BUNDLE" --entitlements network.none
  [ "$status" -eq 0 ]
  [ "$(fingerprint "$BUNDLE")" = "$before" ]
  [ "$(printf '%s\n' "$output" | jq -r '.annotations["io.entitle.applied"]')" = network.none ]
}

@test "network.admin: refused without an admin grant, and nothing changes" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.admin
  before=$(fingerprint "$BUNDLE")
  run_detached ent create -b "$BUNDLE" "$CTID"
  one_error_line
  [[ "$stderr" == *'entitlement "network.admin" requested by the container is not granted by'* ]]
  [ "$(fingerprint "$BUNDLE")" = "$before" ]
  run rnc state "$CTID"
  [ "$status" -ne 0 ]
}

@test "network.admin: a request the admin config does not grant is refused, naming the config" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.admin
  write_entitle_config '{"grant": ["security.confined"]}'
  before=$(fingerprint "$BUNDLE")
  run_detached ent create -b "$BUNDLE" "$CTID"
  one_error_line
  [[ "$stderr" == *"entitlement \"network.admin\" requested by the container is not granted by $ENTITLE_CONFIG"* ]]
  [ "$(fingerprint "$BUNDLE")" = "$before" ]
}

@test "network.admin: accepted when the admin config grants network.*" {
  probe_bundle "$BUNDLE" caps "socket raw"
  set_entitlements "$BUNDLE" network.admin
  write_entitle_config '{"grant": ["network.*"]}'
  run_bundle ent
  [ "$status" -eq 0 ]
  eff=$(cap_line "$output" CapEff)
  has_cap "$eff" $CAP_NET_ADMIN
  has_cap "$eff" $CAP_NET_BROADCAST
  [ "${lines[-1]}" = "socket raw: ok" ]
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = network.admin ]
}

@test "security.confined: sets NoNewPrivs, drops CAP_DAC_OVERRIDE, makes /proc/sys read-only" {
  probe_bundle "$BUNDLE" nnp caps "write /proc/sys/kernel/hostname"
  # The base bundle allows all three, so that the entitlement is what denies.
  edit_config "$BUNDLE" '.linux.readonlyPaths -= ["/proc/sys"]'
  run_bundle ent
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "nnp: 0" ]
  has_cap "$(cap_line "$output" CapEff)" $CAP_DAC_OVERRIDE
  [ "${lines[-1]}" = "write /proc/sys/kernel/hostname: ok" ]

  set_entitlements "$BUNDLE" security.confined
  run_bundle ent
  # (The status is the failed write's.)
  [ "${lines[0]}" = "nnp: 1" ]
  eff=$(cap_line "$output" CapEff)
  for cap in 1 2 4 6 7 8 31; do # DAC_OVERRIDE DAC_READ_SEARCH FSETID SETGID SETUID SETPCAP SETFCAP
    if ! lacks_cap "$eff" $cap; then
      echo "CapEff $eff still has capability $cap" >&2
      false
    fi
  done
  lacks_cap "$(cap_line "$output" CapBnd)" $CAP_DAC_OVERRIDE
  # "Drop" never widens nor over-narrows: CAP_CHOWN and CAP_KILL stay.
  has_cap "$eff" 0
  has_cap "$eff" 5
  [[ "${lines[-1]}" == "write /proc/sys/kernel/hostname: "* ]]
  [ "${lines[-1]}" != "write /proc/sys/kernel/hostname: ok" ]
}

@test "defaults: the admin's default applies when the container requests nothing" {
  require_bpf_for network.none
  probe_bundle "$BUNDLE" "socket inet" "socket unix"
  write_entitle_config '{"defaults": ["network.none"]}'
  run_bundle ent
  expect_lines "socket inet: EPERM" "socket unix: ok"
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = network.none ]
}

@test "defaults: a request in the same domain replaces the default" {
  probe_bundle "$BUNDLE" "socket inet" "socket raw"
  write_entitle_config '{"defaults": ["network.none"]}'
  set_entitlements "$BUNDLE" network.user
  run_bundle ent
  expect_lines "socket inet: ok" "socket raw: EPERM"
}

@test "require: a wider rung than the admin's floor is refused, naming both" {
  make_bundle "$BUNDLE"
  write_entitle_config '{"require": ["network.none"]}'
  set_entitlements "$BUNDLE" network.user
  before=$(fingerprint "$BUNDLE")
  run_detached ent create -b "$BUNDLE" "$CTID"
  one_error_line
  [[ "$stderr" == *network.none* ]]
  [[ "$stderr" == *network.user* ]]
  [ "$(fingerprint "$BUNDLE")" = "$before" ]
}

@test "entitle: an io.entitle.applied already in config.json does not stand for the rewrite" {
  # Annotations come from whoever starts the container (ctr --annotation,
  # pod annotations): saying "applied" must not make entitle skip its work.
  probe_bundle "$BUNDLE" "socket inet" "socket unix"
  set_entitlements "$BUNDLE" network.none
  edit_config "$BUNDLE" '.annotations["io.entitle.applied"] = "network.none"
    | .annotations["io.entitle.version"] = $v' \
    --arg v "$(entitle_version)"
  run_bundle ent
  expect_lines "socket inet: EPERM" "socket unix: ok"
}

@test "require: a forged io.entitle.applied does not lift the admin's floor" {
  require_bpf_for network.none
  probe_bundle "$BUNDLE" "socket inet" "socket unix"
  write_entitle_config '{"require": ["network.none"]}'
  edit_config "$BUNDLE" '.annotations["io.entitle.applied"] = ""'
  run_bundle ent
  expect_lines "socket inet: EPERM" "socket unix: ok"
}

@test "entitle: a config.json of 15 MiB with an entitlement is rewritten" {
  probe_bundle "$BUNDLE" "socket inet"
  set_entitlements "$BUNDLE" network.none
  head -c $((15 * 1024 * 1024)) /dev/zero | tr '\0' a >"$BATS_TEST_TMPDIR/pad"
  edit_config "$BUNDLE" '.annotations["org.example.padding"] = $pad' --rawfile pad "$BATS_TEST_TMPDIR/pad"
  run_bundle ent
  expect_lines "socket inet: EPERM"
  [ "$(jq -r '.annotations["org.example.padding"] | length' "$BUNDLE/config.json")" -eq $((15 * 1024 * 1024)) ]
}

@test "grant: globs never grant network.host or security.insecure" {
  make_bundle "$BUNDLE"
  write_entitle_config '{"grant": ["network.*", "security.*"]}'
  for e in network.host security.insecure; do
    set_entitlements "$BUNDLE" "$e"
    snapshot=$(fingerprint "$BUNDLE")
    run_detached ent create -b "$BUNDLE" "$CTID"
    one_error_line
    [[ "$stderr" == *"entitlement \"$e\" requested by the container is not granted by $ENTITLE_CONFIG"* ]]
    [ "$(fingerprint "$BUNDLE")" = "$snapshot" ]
  done
}

@test "network.host: granted by name, the container shares the host's network namespace" {
  make_bundle "$BUNDLE" /bin/sh -c 'readlink /proc/self/ns/net'
  write_entitle_config '{"grant": ["network.host"]}'
  set_entitlements "$BUNDLE" network.host
  run_bundle ent
  [ "$status" -eq 0 ]
  [ "$output" = "$(readlink /proc/self/ns/net)" ]
  jq -e '[.linux.namespaces[] | select(.type == "network")] | length == 0' "$BUNDLE/config.json"
}

@test "network.proxy: needs a grant only where it widens the engine's config" {
  # Docker's default set lacks CAP_NET_BROADCAST: proxy would add it.
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" network.proxy
  run_detached ent create -b "$BUNDLE" "$CTID"
  one_error_line
  [[ "$stderr" == *'entitlement "network.proxy" requested by the container is not granted by'* ]]

  # With every capability proxy keeps already there, it only narrows.
  make_bundle "$BUNDLE"
  edit_config "$BUNDLE" '.process.capabilities[] += ["CAP_NET_BROADCAST", "CAP_NET_ADMIN"]'
  set_entitlements "$BUNDLE" network.proxy
  run_detached ent create -b "$BUNDLE" "$CTID"
  [ "$status" -eq 0 ]
  jq -e '.process.capabilities.effective | (index("CAP_NET_ADMIN") | not) and index("CAP_NET_BROADCAST")' \
    "$BUNDLE/config.json"
}

@test "a rewritten config keeps no AppArmor profile or SELinux label the host cannot apply" {
  if [ "$(cat /sys/module/apparmor/parameters/enabled 2>/dev/null)" = Y ] || [ -e /sys/fs/selinux/enforce ]; then
    skip "this host runs AppArmor or SELinux"
  fi
  probe_bundle "$BUNDLE" "socket unix"
  edit_config "$BUNDLE" '.process.apparmorProfile = "docker-default"'
  # runc cannot apply it here ...
  run_bundle rnc
  [ "$status" -ne 0 ]
  [[ "$stderr" == *apparmor* ]]
  # ... and entitle, rewriting the config, leaves it out with a warning.
  set_entitlements "$BUNDLE" network.none
  run_bundle ent
  [ "$status" -eq 0 ]
  expect_lines "socket unix: ok"
  [[ "$stderr" == *'warning: removed process.apparmorProfile `docker-default`: this host does not run AppArmor'* ]]
  [ "$(jq -r '.process.apparmorProfile // "none"' "$BUNDLE/config.json")" = none ]
}
