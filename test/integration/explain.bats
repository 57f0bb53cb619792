#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `entitle explain` (entitle(8)): the catalogue for people, which mechanism
# enforces each part on this host, the same as JSON, and `explain --score`,
# the exposure of a bundle's config as it would run.  No container runs:
# these need neither root nor a runtime, only `runc spec` for a bundle.

load helpers

setup() {
  require_entitle
  export ENTITLE_CONFIG= # no admin config until write_entitle_config writes one
  BUNDLE="$BATS_TEST_TMPDIR/bundle"
  mkdir -p "$BUNDLE"
}

teardown() {
  :
}

# One mechanism part as the host states it: enforced, not enforceable, or
# not probed (until the host probe is there).
host_says='(enforced by|NOT enforceable here:|on this host: not probed \()'

@test "explain: names the mechanism of each part, and what this host makes of it" {
  run --separate-stderr env PATH=/nonexistent "$ENTITLE" explain network.none
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [[ "$output" == *"  enforcement:"* ]]
  [[ "$output" == *"    capabilities: enforced by capabilities"* ]]
  [[ "$output" == *"    namespaces: enforced by namespaces"* ]]
  [[ "$output" == *"    paths: enforced by paths"* ]]
  printf '%s\n' "$output" | grep -Eq "^    seccomp: $host_says"
  printf '%s\n' "$output" | grep -Eq "^    cgroup BPF \(sock_create\): $host_says"
  # The catalogue text is still there.
  [[ "$output" == *"AF_UNIX only"* ]]
  [[ "$output" == *"cgroup BPF: sock_create: inet and inet6 sockets denied"* ]]
}

@test "explain: what it says of cgroup BPF agrees with entitle probe" {
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  run --separate-stderr "$ENTITLE" probe --json
  [ "$status" -eq 0 ]
  has=$(jq -r '.cgroup_bpf | index("sock_create") != null' <<<"$output")
  run --separate-stderr "$ENTITLE" explain network.none
  [ "$status" -eq 0 ]
  if [ "$has" = true ]; then
    [[ "$output" == *"    cgroup BPF (sock_create): enforced by cgroup BPF (sock_create)"* ]]
  else
    [[ "$output" == *"    cgroup BPF (sock_create): NOT enforceable here"* ]]
  fi
  # The answer is kept for this boot in state_dir.
  [ "$(jq -r .boot_id "$BATS_TEST_TMPDIR/state/probe.json")" = "$(cat /proc/sys/kernel/random/boot_id)" ]
}

@test "explain: egress names its attach types; fs.* says Landlock (in-container helper) and the ABI entitle probe found" {
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  abi=$("$ENTITLE" probe --json | jq -r .landlock_abi)
  run --separate-stderr "$ENTITLE" explain network.egress=10.0.0.0/8:443 fs.write
  [ "$status" -eq 0 ]
  printf '%s\n' "$output" | grep -Eq "^    cgroup BPF \(sock_create, connect4, connect6, sendmsg4, sendmsg6, skb_egress\): $host_says"
  [[ "$output" == *"  Landlock: applied by entitle-init, the in-container helper"* ]]
  if [ "$abi" -ge 3 ]; then
    [[ "$output" == *"    Landlock: enforced by Landlock (in-container helper entitle-init; the kernel has Landlock ABI $abi)"* ]]
  elif [ "$abi" -gt 0 ]; then
    [[ "$output" == *"    Landlock: NOT enforceable here: Landlock (in-container helper entitle-init): it needs Landlock ABI 3, and this kernel has ABI $abi: truncate(2) of a file outside the listed paths would stay allowed; create refuses it unless on_unenforceable is \"warn\""* ]]
  else
    [[ "$output" == *'    Landlock: NOT enforceable here: Landlock (in-container helper entitle-init): it needs Landlock, which this kernel lacks; create refuses it unless on_unenforceable is "warn"'* ]]
  fi
}

@test "explain: the host probe needs no entitle-hook: with none at its configured path each host-dependent part says what this host does" {
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  want=$("$ENTITLE" explain security.admin)
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state2\", \"hook\": \"/nonexistent/entitle-hook\"}"
  run --separate-stderr env -u ENTITLE_HOOK "$ENTITLE" explain security.admin
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [[ "$output" == *"    seccomp: enforced by seccomp"* ]]
  [[ "$output" != *"not probed"* ]]
  [ "$output" = "$want" ]
}

@test "explain --json: one object per entitlement, with every field" {
  run --separate-stderr "$ENTITLE" explain --json network.none network.egress=10.0.0.0/8 security.confined fs.read
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/explain.json"
  jq -e 'type == "array" and length == 4' "$BATS_TEST_TMPDIR/explain.json"
  jq -e 'all(.[]; (keys | sort) == (["capabilities", "contradicts", "domain", "effects", "exact_grant", "example",
      "form", "limits", "mechanisms", "modifier", "name", "note", "paths", "rung", "seccomp", "summary", "trust",
      "value"] | sort))' "$BATS_TEST_TMPDIR/explain.json"
  # Each limit that remains, in one sentence.
  jq -e '.[0].limits | length == 2 and (.[0] | test("SCM_RIGHTS")) and (.[1] | test("SIGSYS"))' "$BATS_TEST_TMPDIR/explain.json"
  jq -e '.[0] | .name == "network.none" and .domain == "network" and .rung == 1 and .modifier == false
      and (.capabilities.drop | index("CAP_NET_RAW")) and .capabilities.add == []
      and (.effects | index("seccomp: socket() and socketpair() for AF_UNIX only; the native ABI only (a 32-bit call is killed: socketcall hides socket()'"'"'s family)"))
      and ([.mechanisms[].mechanism] == ["capabilities", "seccomp", "namespaces", "paths", "cgroup BPF"])
      and (.mechanisms[-1].detail == "sock_create")' "$BATS_TEST_TMPDIR/explain.json"
  jq -e '.[1] | .name == "network.egress" and .value and .modifier and .domain == null and .rung == null
      and .form == "CIDR[:PORT[-PORT]]" and .example == "10.0.0.0/8:443"
      and ([.mechanisms[].mechanism] == ["capabilities", "cgroup BPF"])
      and (.capabilities.drop | index("CAP_NET_RAW")) and (.contradicts | index("network.proxy"))
      and .mechanisms[-1].detail == "sock_create, connect4, connect6, sendmsg4, sendmsg6, skb_egress"' \
    "$BATS_TEST_TMPDIR/explain.json"
  jq -e '.[2] | (.seccomp.deny | index("ptrace")) and .seccomp.allow == []' "$BATS_TEST_TMPDIR/explain.json"
  # enforceable is true, false or null (not probed), with a reason.
  jq -e 'all(.[].mechanisms[]; (.enforceable | type == "boolean" or type == "null")
      and (.reason | type == "string" and length > 0))' "$BATS_TEST_TMPDIR/explain.json"
  jq -e '.[3].mechanisms == [.[3].mechanisms[0]] and .[3].mechanisms[0].mechanism == "Landlock"
      and (.[3].mechanisms[0].enforceable | type == "boolean" or type == "null")' "$BATS_TEST_TMPDIR/explain.json"
  jq -e 'all(.[0].mechanisms[] | select(.mechanism == "capabilities" or .mechanism == "paths"); .enforceable == true)' \
    "$BATS_TEST_TMPDIR/explain.json"
}

@test "explain: bad arguments get one line and a non-zero exit" {
  run --separate-stderr "$ENTITLE" explain --frob network.none
  [ "$status" -ne 0 ]
  [ "$status" -eq 2 ]
  [ "$stderr" = 'entitle: explain: unknown option `--frob` (`entitle explain --help` lists them)' ]
  run --separate-stderr "$ENTITLE" explain --score network.none
  [ "$status" -ne 0 ]
  [ "$stderr" = 'entitle: explain --score: unexpected argument `network.none`' ]
  run --separate-stderr "$ENTITLE" explain --max 3 network.none
  [ "$status" -ne 0 ]
  [ "$stderr" = 'entitle: explain: --max goes with --score' ]
  run --separate-stderr "$ENTITLE" explain -b "$BUNDLE" --config "$BUNDLE/config.json" network.none
  [ "$status" -ne 0 ]
  [ "$stderr" = 'entitle: explain: --bundle or --config, not both' ]
  run --separate-stderr "$ENTITLE" explain -b "$BUNDLE/none" network.none
  [ "$status" -ne 0 ]
  [[ "$stderr" == "entitle: "*"$BUNDLE/none/config.json"* ]]
  run --separate-stderr "$ENTITLE" explain --json network.bogus
  [ "$status" -ne 0 ]
  [ "$stderr" = 'entitle: unknown entitlement `network.bogus`' ]
  [ -z "$output" ]
}

# score_of FILE: the exposure `explain --score` gives the config FILE ("3.5").
score_of() {
  "$ENTITLE" explain --score --config "$1" | sed -n 's|^exposure \([0-9.]*\)/10 .*|\1|p'
}

@test "explain --score: runc spec > with network.none,security.confined; SYS_ADMIN without seccomp is worst" {
  (cd "$BUNDLE" && "$RUNC_BIN" spec)
  jq '.annotations["io.entitle.entitlements"] = "network.none,security.confined"' "$BUNDLE/config.json" >"$BATS_TEST_TMPDIR/confined.json"
  jq '.process.capabilities.bounding += ["CAP_SYS_ADMIN"] | .process.capabilities.effective += ["CAP_SYS_ADMIN"]
      | del(.linux.seccomp)' "$BUNDLE/config.json" >"$BATS_TEST_TMPDIR/admin.json"
  plain=$(score_of "$BUNDLE/config.json")
  confined=$(score_of "$BATS_TEST_TMPDIR/confined.json")
  admin=$(score_of "$BATS_TEST_TMPDIR/admin.json")
  echo "plain=$plain confined=$confined admin=$admin"
  awk -v a="$confined" -v b="$plain" -v c="$admin" 'BEGIN { exit !(a < b && b < c) }'
  # The compiled config is scored, but nothing is written.
  [ "$(jq -r '.annotations["io.entitle.applied"] // "none"' "$BATS_TEST_TMPDIR/confined.json")" = none ]
  # -b DIR reads DIR/config.json; the text form ends with the total.
  run --separate-stderr "$ENTITLE" explain --score -b "$BUNDLE"
  [ "$status" -eq 0 ]
  [[ "${lines[-1]}" == "exposure $plain/10 "* ]]
}

@test "explain --score: exact for a fixed config, text and JSON" {
  cat >"$BATS_TEST_TMPDIR/fixed.json" <<'EOF'
{
  "ociVersion": "1.0.2",
  "process": {
    "user": {"uid": 0, "gid": 0},
    "args": ["sh"],
    "cwd": "/",
    "capabilities": {
      "bounding": ["CAP_SYS_ADMIN", "CAP_NET_ADMIN", "CAP_KILL"],
      "effective": ["CAP_SYS_ADMIN", "CAP_NET_ADMIN", "CAP_KILL"],
      "permitted": ["CAP_SYS_ADMIN", "CAP_NET_ADMIN", "CAP_KILL"]
    }
  },
  "root": {"path": "rootfs"},
  "linux": {
    "namespaces": [{"type": "pid"}, {"type": "mount"}],
    "maskedPaths": ["/proc/kcore"],
    "readonlyPaths": ["/proc/sys"]
  }
}
EOF
  run --separate-stderr "$ENTITLE" explain --score --config "$BATS_TEST_TMPDIR/fixed.json"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  # Each check that costs, and under it what would lower it.
  expected=$(cat <<'EOF'
CHECK                 COST  REASON
cap-sys-admin          3.0  holds CAP_SYS_ADMIN: mounts, namespaces, most of the kernel's admin interfaces
                            lower it: ask for `host.devices.none`, `security.confined` or `security.view`; or take it out of the engine's config (no --privileged, --cap-drop)
cap-net-admin          1.0  holds CAP_NET_ADMIN: may reconfigure the network it is in
                            lower it: ask for `network.egress=...`, `network.ingress=...`, `network.none`, `network.user`, `security.confined` or `security.view`; or take it out of the engine's config (no --privileged, --cap-drop)
seccomp                2.0  no seccomp profile: every system call is allowed
                            lower it: ask for `host.devices.none`, `network.none`, `network.user`, `security.confined` or `security.view`; or give the engine's default profile (no seccomp=unconfined)
no-new-privileges      1.0  noNewPrivileges is not set: setuid files and file capabilities raise privileges
                            lower it: ask for `security.confined` or `security.view`; or set process.noNewPrivileges (--security-opt no-new-privileges)
root-without-userns    1.5  runs as uid 0 without a user namespace: root inside is root outside
                            lower it: run as another user (process.user.uid) or in a user namespace (rootless, userns-remap)
host-network           1.5  no network namespace: the host's network, its interfaces and abstract sockets
                            lower it: ask for `network.none`; or give it the engine's network (no --network host)
host-ipc               0.5  no ipc namespace: the host's shared memory and semaphores
                            lower it: give it an ipc namespace (no --ipc host)

exposure 10.0/10 UNSAFE
EOF
)
  [ "$output" = "$expected" ]
  run --separate-stderr "$ENTITLE" explain --score --json --config "$BATS_TEST_TMPDIR/fixed.json"
  [ "$status" -eq 0 ]
  printf '%s\n' "$output" | jq -e '.exposure == 10 and .label == "UNSAFE"
    and ([.checks[] | select(.cost > 0) | .id] == ["cap-sys-admin", "cap-net-admin", "seccomp",
      "no-new-privileges", "root-without-userns", "host-network", "host-ipc"])
    and ([.checks[].cost] | add) == 10.5
    and all(.checks[]; .cost <= .weight and (.reason | length > 0) and ((.cost > 0) == (.fix | type == "string")))'
  # With a user namespace, noNewPrivileges and the network namespace, the same caps cost less.
  jq '.process.noNewPrivileges = true | .linux.namespaces += [{"type": "user"}, {"type": "network"}, {"type": "ipc"}]' \
    "$BATS_TEST_TMPDIR/fixed.json" >"$BATS_TEST_TMPDIR/fixed2.json"
  [ "$(score_of "$BATS_TEST_TMPDIR/fixed2.json")" = 6.0 ]
  run --separate-stderr "$ENTITLE" explain --score --config "$BATS_TEST_TMPDIR/fixed2.json"
  [ "${lines[-1]}" = "exposure 6.0/10 EXPOSED" ]
}

@test "explain --score: a bundle entitle rewrote already is scored as it is" {
  (cd "$BUNDLE" && "$RUNC_BIN" spec)
  jq '.annotations["io.entitle.entitlements"] = "security.confined"' "$BUNDLE/config.json" >"$BATS_TEST_TMPDIR/req.json"
  "$ENTITLE" compile --config "$BATS_TEST_TMPDIR/req.json" >"$BATS_TEST_TMPDIR/applied.json"
  jq -e '.annotations["io.entitle.applied"] == "security.confined"' "$BATS_TEST_TMPDIR/applied.json"
  [ "$(score_of "$BATS_TEST_TMPDIR/applied.json")" = "$(score_of "$BATS_TEST_TMPDIR/req.json")" ]
}

@test "explain --score: a missing bundle or malformed JSON gets one line and a non-zero exit" {
  run --separate-stderr "$ENTITLE" explain --score -b "$BATS_TEST_TMPDIR/nonexistent"
  [ "$status" -ne 0 ]
  [ "$stderr" = "entitle: open \`$BATS_TEST_TMPDIR/nonexistent/config.json\`: No such file or directory" ]
  [ -z "$output" ]
  printf '{"process": ' >"$BUNDLE/config.json"
  run --separate-stderr "$ENTITLE" explain --score -b "$BUNDLE"
  [ "$status" -ne 0 ]
  [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
  [[ "$stderr" == "entitle: load \`$BUNDLE/config.json\`: invalid JSON"* ]]
  printf '[1, 2]' >"$BUNDLE/config.json"
  run --separate-stderr "$ENTITLE" explain --score -b "$BUNDLE"
  [ "$status" -ne 0 ]
  [ "$stderr" = "entitle: \`$BUNDLE/config.json\`: config is not a JSON object" ]
  # A request create would refuse is refused here too.
  printf '{"annotations": {"io.entitle.entitlements": "network.bogus"}}' >"$BUNDLE/config.json"
  run --separate-stderr "$ENTITLE" explain --score -b "$BUNDLE" --json
  [ "$status" -ne 0 ]
  [ "$stderr" = 'entitle: annotation `io.entitle.entitlements`: unknown entitlement `network.bogus`' ]
  [ -z "$output" ]
}

@test "explain --score: each entitlement a check names as a fix lowers that check" {
  (cd "$BUNDLE" && "$RUNC_BIN" spec)
  # Wide open: no seccomp, host network and pid, nothing masked, every
  # device, more capabilities, no noNewPrivileges.
  jq '.linux.namespaces |= map(select(.type != "pid" and .type != "network")) | del(.linux.maskedPaths, .linux.readonlyPaths, .linux.seccomp)
      | .linux.resources.devices = [{"allow": true, "access": "rwm"}] | .process.noNewPrivileges = false
      | .process.capabilities |= map_values(. + ["CAP_SYS_ADMIN", "CAP_NET_ADMIN", "CAP_SYS_PTRACE", "CAP_DAC_READ_SEARCH",
          "CAP_SYS_RAWIO", "CAP_SYS_MODULE", "CAP_PERFMON"])' "$BUNDLE/config.json" >"$BATS_TEST_TMPDIR/wide.json"
  "$ENTITLE" explain --score --json --config "$BATS_TEST_TMPDIR/wide.json" >"$BATS_TEST_TMPDIR/score.json"
  # "CHECK COST ENTITLEMENT", for every name after "ask for" but those
  # that take a value.
  jq -r '.checks[] | select(.cost > 0) | .id as $id | .cost as $cost
      | (.fix | capture("ask for (?<names>[^;]*)").names // "" | [scan("`([a-z0-9.-]+)`")[0]] | .[])
      | "\($id) \($cost) \(.)"' "$BATS_TEST_TMPDIR/score.json" >"$BATS_TEST_TMPDIR/fixes"
  # Every check that costs here but root-without-userns names some.
  [ "$(jq '[.checks[] | select(.cost > 0)] | length' "$BATS_TEST_TMPDIR/score.json")" -eq 15 ]
  [ "$(cut -d' ' -f1 "$BATS_TEST_TMPDIR/fixes" | sort -u | wc -l)" -eq 14 ]
  while read -r id cost ent; do
    jq --arg e "$ent" '.annotations["io.entitle.entitlements"] = $e' "$BATS_TEST_TMPDIR/wide.json" >"$BATS_TEST_TMPDIR/t.json"
    after=$("$ENTITLE" explain --score --json --config "$BATS_TEST_TMPDIR/t.json" | jq --arg id "$id" '.checks[] | select(.id == $id) | .cost')
    if ! awk -v a="$after" -v b="$cost" 'BEGIN { exit !(a < b) }'; then
      echo "$id costs $cost, and still $after with $ent" >&2
      false
    fi
  done <"$BATS_TEST_TMPDIR/fixes"
  # An applied entitlement that causes a cost is named to drop.
  jq '.annotations["io.entitle.entitlements"] = "host.processes.admin"' "$BUNDLE/config.json" >"$BATS_TEST_TMPDIR/pid.json"
  write_entitle_config '{"grant": ["host.processes.admin"]}'
  run --separate-stderr "$ENTITLE" explain --score --json --config "$BATS_TEST_TMPDIR/pid.json"
  [ "$status" -eq 0 ]
  jq -e '.checks[] | select(.id == "host-pid") | .cost == 1.5 and (.fix | startswith("drop `host.processes.admin`; ask for `host.processes.none`"))' <<<"$output"
}

@test "explain --score --max: after the report, exit 1 and one line above it, 0 at or below it" {
  (cd "$BUNDLE" && "$RUNC_BIN" spec)
  score=$(score_of "$BUNDLE/config.json")
  run --separate-stderr "$ENTITLE" explain --score -b "$BUNDLE" --max "$score"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [[ "${lines[-1]}" == "exposure $score/10 "* ]]
  below=$(awk -v s="$score" 'BEGIN { printf "%.1f", s - 0.1 }')
  run --separate-stderr "$ENTITLE" explain --score -b "$BUNDLE" --max "$below"
  [ "$status" -eq 1 ]
  [ "$stderr" = "entitle: exposure $score/10 is above --max $below" ]
  [[ "${lines[-1]}" == "exposure $score/10 "* ]]
  run --separate-stderr "$ENTITLE" explain --score --json -b "$BUNDLE" --max 0
  [ "$status" -eq 1 ]
  jq -e '.exposure > 0' <<<"$output"
  # What confines it passes a gate that the plain spec fails.
  jq '.annotations["io.entitle.entitlements"] = "network.none,security.confined"' "$BUNDLE/config.json" >"$BATS_TEST_TMPDIR/c.json"
  run --separate-stderr "$ENTITLE" explain --score --config "$BATS_TEST_TMPDIR/c.json" --max 2.4
  [ "$status" -eq 0 ]
  for bad in 11 10.1 -1 abc 2.55 '' 1e1; do
    run --separate-stderr "$ENTITLE" explain --score -b "$BUNDLE" --max "$bad"
    [ "$status" -eq 1 ]
    [ "$stderr" = "entitle: explain --score: --max \`$bad\`: expected a score from 0 to 10, such as 2.5" ]
    [ -z "$output" ]
  done
}

@test "explain: without a name, the catalogue: each ladder narrow to wide, then the modifiers" {
  run --separate-stderr "$ENTITLE" explain
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  # The headings, in order: the ladders, then the modifiers.
  [ "$(grep -E '^[a-z.]+:$|^modifiers' <<<"$output" | tr '\n' ' ')" = \
    "network: security: host.devices: host.processes: host.modules: modifiers, with any rung: " ]
  [[ "$output" == *"  network.none          no network: only AF_UNIX sockets"* ]]
  [[ "$output" == *"  network.egress=CIDR[:PORT[-PORT]]"* ]]
  [[ "$output" == *"  fs.write=PATH "* ]]
  # The same rows as JSON, in the same order: rungs ascend in each ladder,
  # modifiers last, every row once.
  run --separate-stderr "$ENTITLE" explain --json
  [ "$status" -eq 0 ]
  printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/all.json"
  text_names=$("$ENTITLE" explain | sed -n 's/^  \([a-z][a-z0-9.-]*\).*/\1/p' | tr '\n' ' ')
  [ "$(jq -r '[.[].name] | join(" ")' "$BATS_TEST_TMPDIR/all.json") " = "$text_names" ]
  jq -e '[.[] | select(.modifier | not) | [.domain, .rung]] as $l
      | ($l | length) > 10 and all(range(1; $l | length); $l[. - 1][0] != $l[.][0] or $l[. - 1][1] < $l[.][1])' "$BATS_TEST_TMPDIR/all.json"
  jq -e '(map(.modifier) | index(true)) as $m | all(.[$m:][]; .modifier) and ([.[].name] | length == (unique | length))' \
    "$BATS_TEST_TMPDIR/all.json"
  # Every name entitlements(7) lists (generated from the same rows).
  man7="${ENTITLE_BUILDDIR:-$BATS_TEST_DIRNAME/../..}/man/entitlements.7"
  [ -f "$man7" ] || skip "entitlements(7) is not built"
  [ "$(awk '/^\.SH CATALOGUE/ { c = 1; next } /^\.SH / { c = 0 } c && prev == ".TP" { print $2 } { prev = $0 }' "$man7" |
    sed 's/=$//; s/\\-/-/g' | sort | tr '\n' ' ')" = \
    "$(jq -r '.[].name' "$BATS_TEST_TMPDIR/all.json" | sort | tr '\n' ' ')" ]
}

@test "explain: an unknown name gets the closest known one, if one is close" {
  run --separate-stderr "$ENTITLE" explain network.nnoe
  [ "$status" -eq 1 ]
  [ "$stderr" = 'entitle: unknown entitlement `network.nnoe`: did you mean `network.none`?' ]
  [ -z "$output" ]
  run --separate-stderr "$ENTITLE" explain security.confinement
  [ "$stderr" = 'entitle: unknown entitlement `security.confinement`: did you mean `security.confined`?' ]
  run --separate-stderr "$ENTITLE" explain network.none network.egres=10.0.0.0/8
  [ "$status" -eq 1 ]
  [ "$stderr" = 'entitle: unknown entitlement `network.egres`: did you mean `network.egress`?' ]
  [ -z "$output" ]
  # Nothing close: no guess.
  run --separate-stderr "$ENTITLE" explain gpu.all
  [ "$stderr" = 'entitle: unknown entitlement `gpu.all`' ]
}

@test "explain: which path each part takes on this host, the seed layers included, as entitle probe says" {
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  "$ENTITLE" probe --json >"$BATS_TEST_TMPDIR/probe.json"
  run --separate-stderr "$ENTITLE" explain security.confined
  [ "$status" -eq 0 ]
  line=$(printf '%s\n' "$output" | sed -n 's/^  paths on this host: //p')
  [ "$line" = "$("$ENTITLE" probe | sed -n 's/^  security.confined: //p')" ]
  # What each layer would do, where the kernel has it.
  [[ "$output" == *"  Checmate, where the kernel has it: task_create: no namespace made by clone flags"* ]]
  [[ "$output" == *"  BPF LSM, where the kernel has it: sb_mount: no mount"* ]]
  [[ "$output" == *"  eBPF seccomp, where the kernel has it: the same syscall rules"* ]]
  # The same as JSON: each path with its layer flag, taken as the probe found.
  run --separate-stderr "$ENTITLE" explain --json security.confined network.egress=10.0.0.0/8 fs.write
  [ "$status" -eq 0 ]
  printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/explain.json"
  checmate=$(jq -r .checmate "$BATS_TEST_TMPDIR/probe.json")
  ext=$(jq -r .seccomp_filter_extended "$BATS_TEST_TMPDIR/probe.json")
  lsm=$(jq -r .lsm_cgroup "$BATS_TEST_TMPDIR/probe.json")
  jq -e --argjson c "$checmate" --argjson e "$ext" --argjson l "$lsm" '.[0].paths
      | ([.[].path] == ["Checmate", "eBPF seccomp", "BPF LSM", "cgroup BPF", "seccomp"])
      and (.[0] | .detail == "task_create" and .layer and .taken == $c)
      and (.[1] | .detail == null and .layer and .taken == $e)
      and (.[2] | .detail == "file_open, sb_mount, move_mount, task_kill" and .layer and .taken == $l)
      and (.[3] | .detail == "sysctl" and (.layer | not))' "$BATS_TEST_TMPDIR/explain.json"
  jq -e '.[1].paths | [.[].path] == ["Checmate", "cgroup BPF"] and .[0].detail == "socket_connect"' \
    "$BATS_TEST_TMPDIR/explain.json"
  jq -e '.[2].paths | [.[].path] == ["Landlock"]' "$BATS_TEST_TMPDIR/explain.json"
}

@test "explain: a custom entitlement of argument rules only takes the seccomp path, as its enforcement says" {
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\", \"entitlements\": {\"example.com.close999\": {
    \"summary\": \"close(999) fails with EPERM\",
    \"seccomp\": [{\"names\": [\"close\"], \"action\": \"errno\", \"errno\": \"EPERM\",
                   \"args\": [{\"index\": 0, \"op\": \"eq\", \"value\": 999}]}]}}}"
  seccomp=$("$ENTITLE" probe --json | jq -r .seccomp)
  run --separate-stderr "$ENTITLE" explain example.com.close999
  [ "$status" -eq 0 ]
  [[ "$output" == *"    seccomp: enforced by seccomp (linux.seccomp, loaded by the runtime)"* ]]
  if [ "$seccomp" = true ]; then
    [ "$(printf '%s\n' "$output" | sed -n 's/^  paths on this host: //p')" = seccomp ]
  fi
  # Only the classic filter: the eBPF seccomp layer judges no argument.
  run --separate-stderr "$ENTITLE" explain --json example.com.close999
  jq -e --argjson s "$seccomp" '.[0].paths == [{"path": "seccomp", "detail": null, "layer": false, "taken": $s,
      "reason": (if $s then "linux.seccomp, loaded by the runtime" else "this kernel has no seccomp filters" end)}]' \
    <<<"$output"
}

@test "explain: the paths need no entitle-hook: with none at its configured path they are this host's" {
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state\"}"
  want=$("$ENTITLE" explain --json network.none | jq -c '.[0].paths')
  write_entitle_config "{\"state_dir\": \"$BATS_TEST_TMPDIR/state2\", \"hook\": \"/nonexistent/entitle-hook\"}"
  run --separate-stderr env -u ENTITLE_HOOK "$ENTITLE" explain network.none
  [ "$status" -eq 0 ]
  [[ "$output" == *"  paths on this host: "* ]]
  [[ "$output" != *"not probed"* ]]
  run --separate-stderr env -u ENTITLE_HOOK "$ENTITLE" explain --json network.none
  [ "$(jq -c '.[0].paths' <<<"$output")" != null ]
  [ "$(jq -c '.[0].paths' <<<"$output")" = "$want" ]
}

# trust_of NAME [ARG...]: the trust block `explain` prints for NAME (its
# lines after "  trust of", that line included).
trust_of() {
  local name=$1
  shift
  "$ENTITLE" explain "$@" "$name" | sed -n '/^  trust of /,/^  [a-z]/p' | sed '$d'
}

DOCKER="Docker 20.10's default config (\`docker run IMAGE\`)"

@test "explain: whether an entitlement widens Docker 20.10's default config and so needs a grant; without an admin config none is granted" {
  [ "$(trust_of network.proxy)" = "  trust of network.proxy, against $DOCKER:
    widens it: a container that asks for it (annotation or ENTITLE_ENTITLEMENTS) needs the admin's grant
    not granted: there is no admin config (ENTITLE_CONFIG is set and empty)" ]
  [ "$(trust_of network.user)" = "  trust of network.user, against $DOCKER:
    does not widen it: any container may ask for it, without a grant" ]
  # A modifier by its name alone is judged with its example value.
  [ "$(trust_of network.egress)" = "  trust of network.egress=10.0.0.0/8:443 (its example value), against $DOCKER:
    does not widen it: any container may ask for it, without a grant" ]
  # No file at the built-in path (configure's sysconfdir), where this host has none.
  default=$(sed -n 's/^#define ENTITLE_CONFIG_FILE "\(.*\)"$/\1/p' "${ENTITLE_BUILDDIR:-$BATS_TEST_DIRNAME/../..}/config.h")
  if [ -n "$default" ] && [ ! -e "$default" ]; then
    [ "$(env -u ENTITLE_CONFIG "$ENTITLE" explain security.admin | grep '^    not granted')" = \
      "    not granted: there is no admin config at $default" ]
  fi
}

@test "explain: the entry of grant that grants it, where the admin config applies it itself, a glob that never covers security.insecure" {
  write_entitle_config '{"grant": ["network.*", "security.admin"], "defaults": ["network.proxy"],
    "profiles": {"web": ["network.proxy security.confined"]}}'
  [ "$(trust_of network.proxy)" = "  trust of network.proxy, against $DOCKER:
    widens it: a container that asks for it (annotation or ENTITLE_ENTITLEMENTS) needs the admin's grant
    granted by \`network.*\` in \`grant\` of $ENTITLE_CONFIG
    also applied by the admin config itself, without a request or a grant: \`defaults\`; profile \`web\`" ]
  [ "$(trust_of security.admin | sed -n 3p)" = "    granted by \`security.admin\` in \`grant\` of $ENTITLE_CONFIG" ]
  [ "$(trust_of network.host | sed -n 3p)" = "    not granted: no entry of \`grant\` of $ENTITLE_CONFIG covers it (a glob never does: only its exact name)" ]
  [ "$(trust_of security.confined | sed -n 2,3p)" = "    does not widen it: any container may ask for it, without a grant
    also applied by the admin config itself, without a request or a grant: profile \`web\`" ]
  run "$ENTITLE" explain --json network.proxy
  [ "$(jq -c '.[0].trust' <<<"$output")" = \
    '{"against":"docker-20.10-default","entitlement":"network.proxy","widens":true,"reason":null,"granted":true,"granted_by":"network.*","admin":[{"source":"defaults","profile":null},{"source":"profile","profile":"web"}]}' ]
}

@test "explain -b DIR or --config FILE: judged against that config: Docker's privileged config gives network.proxy's capabilities already" {
  src=${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}
  priv="$src/test/data/engines/docker-privileged.json"
  [ "$(trust_of network.proxy --config "$priv")" = "  trust of network.proxy, against the config \`$priv\`:
    does not widen it: any container may ask for it, without a grant" ]
  (cd "$BUNDLE" && "$RUNC_BIN" spec)
  [ "$(trust_of security.memory-lock -b "$BUNDLE" | sed -n 1,2p)" = "  trust of security.memory-lock, against the config \`$BUNDLE/config.json\`:
    widens it: a container that asks for it (annotation or ENTITLE_ENTITLEMENTS) needs the admin's grant" ]
  run "$ENTITLE" explain --json -b "$BUNDLE" network.user
  [ "$(jq -r '.[0].trust | [.against, .widens] | join(" ")' <<<"$output")" = "$BUNDLE/config.json false" ]
}

@test "explain: what it says widens is exactly what create refuses without a grant, for every row against Docker's default config" {
  src=${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}
  cp "$src/test/data/engines/docker-default.json" "$BUNDLE/config.json"
  "$ENTITLE" explain --json | jq -r '.[].trust | "\(.entitlement) \(.widens)"' >"$BATS_TEST_TMPDIR/verdicts"
  [ "$(wc -l <"$BATS_TEST_TMPDIR/verdicts")" -gt 15 ]
  while read -r ent widens; do
    run --separate-stderr "$ENTITLE" compile -b "$BUNDLE" --entitlements "$ent"
    if [[ "$stderr" == *"not granted"* ]]; then refused=true; else refused=false; fi
    if [ "$refused" != "$widens" ]; then
      echo "$ent: explain says widens=$widens, compile: $stderr" >&2
      false
    fi
  done <"$BATS_TEST_TMPDIR/verdicts"
}
