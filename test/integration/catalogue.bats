#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The catalogue (DESIGN §3), seen from inside real busybox containers
# started by entitle in front of runc: each test asks /probe to try real
# things (sockets, mount, unshare, ptrace, setuid, mknod, sysctl writes,
# bpf, perf_event_open, io_uring, keyctl, kexec, modules, reboot, reads
# of masked paths) and compares the words it prints.  Every restriction
# is checked against a container where the same probe succeeds (the
# baseline test, or a first run in the same test), so that a test fails
# when the entitlement is not what denies.  network.bats has the socket
# families of network.none and network.user, the grant and require rules;
# this file does not repeat them.  fs.* and the BPF-enforced modifiers
# (network.egress, network.bind, network.bind-map) have their own files.
#
# What "allowed" looks like where success is itself an error (see
# helper/entitle-probe.c): kexec, module and reboot are built to fail in
# the kernel's argument checks, after the capability check, so EPERM
# means seccomp or a missing capability stopped them and EINVAL, EBADF,
# ENOEXEC, ENOENT or ENOSYS (a kernel built without kexec or modules, as
# this build host's) means the call got past both.

load helpers

# Capability numbers (linux/capability.h) beyond the ones helpers.bash names.
CAP_DAC_READ_SEARCH=2
CAP_SETUID=7
CAP_IPC_LOCK=14
CAP_SYS_MODULE=16
CAP_SYS_PTRACE=19
CAP_SYS_ADMIN=21
CAP_SYS_BOOT=22
CAP_SYS_RESOURCE=24
CAP_MKNOD=27
CAP_AUDIT_READ=37

# Errnos that mean "past seccomp and capabilities" (see above).
KEXEC_ALLOWED='^(EINVAL|ENOSYS)$'
MODULE_ALLOWED='^(EBADF|ENOEXEC|ENOENT|ENOSYS)$'

# The syscalls Docker's default seccomp profile (moby
# profiles/seccomp/default.json) denies to a container with Docker's
# default capabilities, as the probe can try them: mount, unshare and
# setns, clone with a namespace flag, bpf and perf_event_open (allowed
# only with CAP_SYS_ADMIN, CAP_BPF, CAP_PERFMON), keyctl (the keyring is
# not namespaced: never allowed), userfaultfd, personality other than
# Linux's, set_mempolicy (CAP_SYS_NICE), kcmp (CAP_SYS_PTRACE), kexec_load
# and reboot (CAP_SYS_BOOT), init_module, finit_module and delete_module
# (CAP_SYS_MODULE), and io_uring_setup (denied since Docker 25).
DOCKER_DENIED=("mount" "unshare user" "unshare mnt" "setns user" "clone user"
  "bpf" "perf" "keyctl" "userfaultfd" "personality 6" "mempolicy" "kcmp"
  "kexec" "module" "module init" "module delete" "reboot" "io_uring")

# What security.confined denies beyond Docker's profile: ptrace (Docker
# allows it on kernels >= 4.8), and all of the above whatever capabilities
# the process holds (Docker allows mount, unshare, setns, bpf and
# perf_event_open with CAP_SYS_ADMIN, kcmp with CAP_SYS_PTRACE, reboot and
# kexec with CAP_SYS_BOOT, modules with CAP_SYS_MODULE, set_mempolicy with
# CAP_SYS_NICE); the confined test hands the process those capabilities
# (runc exec --cap) to show that seccomp denies.
CONFINED_EXTRA=("ptrace")

# The capabilities that let the kernel allow every probe above, so that
# only seccomp can deny them.
EXEC_CAPS=(--cap CAP_SYS_ADMIN --cap CAP_SYS_PTRACE --cap CAP_SYS_BOOT
  --cap CAP_SYS_MODULE --cap CAP_SYS_NICE)

# probe_script PROBE...: a shell script that prints "PROBE: RESULT" for
# each PROBE (the arguments of one /probe call, as one word), after making
# /dev/shm/file (a file to chown and read) with mode 000.
probe_script() {
  local script="echo secret >/dev/shm/file; chmod 000 /dev/shm/file; " p
  for p in "$@"; do
    script+="printf '%s: ' '$p'; /probe $p; "
  done
  printf '%s\n' "$script"
}

# catalogue_bundle PROBE...: $BUNDLE running the probe script.
catalogue_bundle() {
  make_bundle "$BUNDLE" /bin/sh -c "$(probe_script "$@")"
}

# run_granted ENTITLEMENTS: request ENTITLEMENTS, granted by the admin
# config by their exact names, and run $BUNDLE.
run_granted() {
  set_entitlements "$BUNDLE" "$1"
  write_entitle_config "$(jq -nc '{grant: ($e | split(","))}' --arg e "$1")"
  run_bundle ent
}

# result PROBE: what PROBE printed in $output.
result() {
  printf '%s\n' "$output" | sed -n "s|^$1: ||p" | head -n 1
}

# expect PROBE: WANT...: every line "PROBE: WANT" is in $output; all
# mismatches are reported before failing.
expect() {
  local want probe got bad=0
  for want in "$@"; do
    probe=${want%%: *}
    got=$(result "$probe")
    if [ "$probe: $got" != "$want" ]; then
      echo "expected \"$want\", got \"$probe: $got\"" >&2
      bad=1
    fi
  done
  if [ $bad -ne 0 ]; then
    printf 'output (status %s):\n%s\nstderr:\n%s\n' "$status" "$output" "$stderr" >&2
    return 1
  fi
}

# expect_match PROBE REGEX: what PROBE printed matches REGEX.
expect_match() {
  local got
  got=$(result "$1")
  if [[ ! "$got" =~ $2 ]]; then
    printf '%s: "%s" does not match %s\noutput:\n%s\n' "$1" "$got" "$2" "$output" >&2
    return 1
  fi
}

# all_denied PROBE...: each PROBE printed EPERM.
all_denied() {
  local p wants=()
  for p in "$@"; do
    wants+=("$p: EPERM")
  done
  expect "${wants[@]}"
}

# caps_lack SET BIT... / caps_have SET BIT...: the caps probe's SET line
# (CapEff...) in $output lacks / has every capability BIT.
caps_lack() {
  local mask bit
  mask=$(cap_line "$output" "$1")
  shift
  for bit in "$@"; do
    lacks_cap "$mask" "$bit" || {
      echo "capability $bit is in $mask" >&2
      return 1
    }
  done
}

caps_have() {
  local mask bit
  mask=$(cap_line "$output" "$1")
  shift
  for bit in "$@"; do
    has_cap "$mask" "$bit" || {
      echo "capability $bit is not in $mask" >&2
      return 1
    }
  done
}

# host_has_cap BIT: entitle's (this shell's) bounding set has BIT.
host_has_cap() {
  has_cap "$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)" "$1"
}

# started_probes ID ENTITLEMENTS: a running container ID of a fresh
# bundle under $BATS_TEST_TMPDIR/ID, requesting ENTITLEMENTS.
started_probes() {
  local bundle="$BATS_TEST_TMPDIR/$1"
  make_bundle "$bundle"
  [ -z "$2" ] || set_entitlements "$bundle" "$2"
  create_started ent "$bundle" "$1"
}

# exec_probes ID EXEC-FLAG... -- PROBE...: run the probe script in the
# running container ID through bare runc exec with EXEC-FLAGs.
exec_probes() {
  local id=$1 flags=()
  shift
  while [ "$1" != -- ]; do
    flags+=("$1")
    shift
  done
  shift
  run --separate-stderr rnc exec "${flags[@]}" "$id" /bin/sh -c "$(probe_script "$@")"
}

@test "catalogue: without entitlements the probes reach the kernel (the baseline)" {
  catalogue_bundle "unshare user" "clone user" "setns user" ptrace "setuid 1000" \
    "chown /dev/shm/file 1000" "mknod-dev /dev/shm/null" "mkfifo /dev/shm/fifo" perf io_uring \
    keyctl userfaultfd "personality 6" mempolicy kcmp mlock "bind 80" "socket raw" \
    mount bpf netadmin reboot kexec module "read /proc/timer_list" "read /proc/keys" \
    "read /dev/shm/file"
  run_bundle ent
  # Capability-free calls that the profiles below deny: no seccomp here.
  # Debian's kernels add perf_event_paranoid 3: no perf_event_open at all
  # without CAP_PERFMON, which no container here has.
  local perf=ok
  [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -lt 3 ] || perf=EACCES
  expect "unshare user: ok" "clone user: ok" "setns user: EINVAL" "ptrace: ok" \
    "perf: $perf" "io_uring: ok" "keyctl: ok" "userfaultfd: ok" "personality 6: ok" \
    "mempolicy: ok" "kcmp: ok" "mlock: ok"
  # Docker's default capabilities allow these.
  expect "setuid 1000: ok" "chown /dev/shm/file 1000: ok" "mknod-dev /dev/shm/null: ok" \
    "mkfifo /dev/shm/fifo: ok" "bind 80: ok" "socket raw: ok" "read /dev/shm/file: ok"
  # ...and not these: the admin rungs below must add them.
  expect "mount: EPERM" "bpf: EPERM" "netadmin: EPERM" "reboot: EPERM"
  # A kernel without kexec or modules (this build host) says ENOSYS to all.
  expect_match kexec "$KEXEC_ALLOWED|^EPERM$"
  expect_match module "$MODULE_ALLOWED|^EPERM$"
  # runc's default masked paths.
  expect "read /proc/timer_list: empty" "read /proc/keys: empty"
}

@test "security.confined: denies what Docker's default profile denies, and more, even with the capabilities" {
  started_probes base ""
  started_probes confined security.confined
  exec_probes base "${EXEC_CAPS[@]}" -- "${DOCKER_DENIED[@]}" "${CONFINED_EXTRA[@]}"
  # Without a seccomp profile the capabilities let every call through.
  expect "mount: ok" "unshare user: ok" "unshare mnt: ok" "setns user: EINVAL" \
    "clone user: ok" "bpf: ok" "perf: ok" "keyctl: ok" "userfaultfd: ok" \
    "personality 6: ok" "mempolicy: ok" "kcmp: ok" "reboot: EINVAL" "io_uring: ok" "ptrace: ok"
  expect_match kexec "$KEXEC_ALLOWED"
  for p in module "module init" "module delete"; do
    expect_match "$p" "$MODULE_ALLOWED"
  done

  exec_probes confined "${EXEC_CAPS[@]}" -- "${DOCKER_DENIED[@]}" "${CONFINED_EXTRA[@]}"
  all_denied "${DOCKER_DENIED[@]}" "${CONFINED_EXTRA[@]}"
}

@test "security.confined: the init process has none of the dropped capabilities and cannot use them" {
  catalogue_bundle caps nnp "setuid 1000" "chown /dev/shm/file 1000" "read /dev/shm/file" \
    "mknod-dev /dev/shm/null" mlock
  # Every capability confined drops is in the base bundle (that this host has).
  dropped=(CAP_MAC_ADMIN CAP_MAC_OVERRIDE CAP_DAC_OVERRIDE CAP_DAC_READ_SEARCH CAP_SETPCAP
    CAP_SETFCAP CAP_SETUID CAP_SETGID CAP_SYS_PTRACE CAP_FSETID CAP_SYS_MODULE CAP_SYSLOG
    CAP_SYS_RAWIO CAP_SYS_ADMIN CAP_LINUX_IMMUTABLE)
  bits=(33 32 1 2 8 31 7 6 19 4 16 34 17 21 9)
  edit_config "$BUNDLE" '.process.capabilities[] += $d' \
    --argjson d "$(printf '%s\n' "${dropped[@]}" | jq -R . | jq -s .)"
  run_bundle ent
  caps_have CapEff "${bits[@]}"

  set_entitlements "$BUNDLE" security.confined
  run_bundle ent
  for set in CapEff CapPrm CapBnd CapInh CapAmb; do
    caps_lack "$set" "${bits[@]}"
  done
  # "Drop" never over-narrows: CAP_CHOWN, CAP_MKNOD and CAP_KILL stay.
  caps_have CapEff 0 5 $CAP_MKNOD
  expect "nnp: 1" "setuid 1000: EPERM" "read /dev/shm/file: EACCES" \
    "chown /dev/shm/file 1000: ok" "mknod-dev /dev/shm/null: ok" "mlock: ok"
}

@test "security.view: as confined, but reads any file: keeps CAP_DAC_READ_SEARCH, drops CAP_AUDIT_READ" {
  catalogue_bundle caps nnp "read /dev/shm/file" ptrace mount "unshare user" bpf keyctl
  edit_config "$BUNDLE" '.process.capabilities[] += ["CAP_DAC_READ_SEARCH", "CAP_AUDIT_READ"]
    | .process.capabilities[] -= ["CAP_DAC_OVERRIDE"]'
  run_bundle ent
  caps_have CapEff $CAP_DAC_READ_SEARCH $CAP_AUDIT_READ
  expect "ptrace: ok" "unshare user: ok" "keyctl: ok"

  set_entitlements "$BUNDLE" security.view
  run_bundle ent
  caps_have CapEff $CAP_DAC_READ_SEARCH
  caps_lack CapEff $CAP_AUDIT_READ $CAP_DAC_OVERRIDE $CAP_SETUID $CAP_SYS_ADMIN
  caps_lack CapBnd $CAP_AUDIT_READ
  expect "nnp: 1" "read /dev/shm/file: ok"
  all_denied ptrace mount "unshare user" bpf keyctl

  # Confined, with the same bundle, cannot read the mode-000 file.
  set_entitlements "$BUNDLE" security.confined
  run_bundle ent
  expect "read /dev/shm/file: EACCES"
}

@test "security.admin: mount, unshare, ptrace, setuid, /proc/sys writable; kexec, modules and bpf still denied" {
  catalogue_bundle caps mount "unshare mnt" "setns user" ptrace "setuid 1000" bpf perf \
    "sysctl kernel.hostname admin" reboot kexec module "module init" "module delete"
  run_granted security.admin
  caps_have CapEff $CAP_SYS_ADMIN $CAP_SYS_PTRACE $CAP_SYS_BOOT $CAP_DAC_READ_SEARCH $CAP_SETUID $CAP_AUDIT_READ
  caps_lack CapEff $CAP_SYS_MODULE
  expect "mount: ok" "unshare mnt: ok" "setns user: EINVAL" "ptrace: ok" "setuid 1000: ok" \
    "perf: ok" "reboot: EINVAL"
  # bpf(2) reaches every container's enforcement (DESIGN §8,
  # attacks-admin.bats): denied by seccomp, whatever the capabilities.
  all_denied bpf
  # readonlyPaths cleared: /proc/sys is writable (kernel.hostname is the
  # container's own UTS namespace's).
  expect "sysctl kernel.hostname admin: ok"
  all_denied kexec module "module init" "module delete"
  # A capability this host cannot give is left out with a warning.
  if host_has_cap $CAP_SYS_RESOURCE; then
    caps_have CapEff $CAP_SYS_RESOURCE
  else
    caps_lack CapEff $CAP_SYS_RESOURCE
    [[ "$stderr" == *CAP_SYS_RESOURCE* ]]
  fi
}

@test "security.admin: keyctl is allowed (DESIGN: allow what those caps need: mount, unshare, setns, ptrace, keyctl)" {
  catalogue_bundle keyctl
  run_bundle ent
  expect "keyctl: ok"
  run_granted security.admin
  expect "keyctl: ok"
}

@test "security.admin: refused without a grant, naming it and the config file; accepted with one" {
  make_bundle "$BUNDLE"
  set_entitlements "$BUNDLE" security.admin
  write_entitle_config '{"grant": ["network.*", "security.view"]}'
  before=$(fingerprint "$BUNDLE")
  run_detached ent create -b "$BUNDLE" "$CTID"
  one_error_line
  [[ "$stderr" == *"entitlement \"security.admin\" requested by the container is not granted by $ENTITLE_CONFIG"* ]]
  [ "$(fingerprint "$BUNDLE")" = "$before" ]
  run rnc state "$CTID"
  [ "$status" -ne 0 ]

  write_entitle_config '{"grant": ["security.admin"]}'
  run_detached ent create -b "$BUNDLE" "$CTID"
  [ "$status" -eq 0 ]
  [ "$(rnc state "$CTID" | jq -r .status)" = created ]
  [ "$(jq -r '.annotations["io.entitle.applied"]' "$BUNDLE/config.json")" = security.admin ]
}

@test "security.memory-lock: CAP_IPC_LOCK lets mlock pass RLIMIT_MEMLOCK 0, under confined too" {
  catalogue_bundle caps mlock
  edit_config "$BUNDLE" '.process.rlimits = [{type: "RLIMIT_MEMLOCK", hard: 0, soft: 0}]'
  run_bundle ent
  expect "mlock: EPERM"
  caps_lack CapEff $CAP_IPC_LOCK

  run_granted security.memory-lock
  expect "mlock: ok"
  caps_have CapEff $CAP_IPC_LOCK

  # Confined narrows, memory-lock widens: only memory-lock needs the grant.
  set_entitlements "$BUNDLE" security.confined,security.memory-lock
  write_entitle_config '{"grant": ["security.memory-lock"]}'
  run_bundle ent
  expect "mlock: ok"
  jq -e '.linux.seccomp.defaultAction == "SCMP_ACT_ERRNO"' "$BUNDLE/config.json"
}

@test "security.insecure: granted by name, every admin rung: mount, mknod, network admin, modules; kernel memory stays masked" {
  catalogue_bundle caps mount "mknod-dev /dev/shm/null" netadmin "socket raw" \
    "sysctl kernel.hostname insecure" module "read /proc/timer_list" "read /proc/keys"
  run_granted security.insecure
  caps_have CapEff $CAP_SYS_ADMIN $CAP_SYS_MODULE $CAP_MKNOD $CAP_NET_ADMIN $CAP_NET_RAW \
    $CAP_SYS_PTRACE $CAP_SYS_BOOT
  expect "mount: ok" "mknod-dev /dev/shm/null: ok" "netadmin: ok" "socket raw: ok" \
    "sysctl kernel.hostname insecure: ok" "read /proc/timer_list: ok" "read /proc/keys: empty"
  expect_match module "$MODULE_ALLOWED"
}

@test "host.devices.none: no device nodes (even with CAP_MKNOD back), FIFOs still; /sys read-only" {
  catalogue_bundle caps "mknod-dev /dev/shm/null" "mkfifo /dev/shm/fifo" "write /sys/class/net/lo/mtu"
  # A writable /sys in the base bundle, so that the entitlement is what
  # makes it read-only; CAP_SYS_ADMIN to see it dropped.
  edit_config "$BUNDLE" '.mounts |= map(if .destination == "/sys" then .options -= ["ro"] else . end)
    | .process.capabilities[] += ["CAP_SYS_ADMIN"]'
  run_bundle ent
  expect "mknod-dev /dev/shm/null: ok" "mkfifo /dev/shm/fifo: ok" "write /sys/class/net/lo/mtu: ok"
  caps_have CapEff $CAP_SYS_ADMIN $CAP_MKNOD

  set_entitlements "$BUNDLE" host.devices.none
  run_bundle ent
  caps_lack CapEff $CAP_SYS_ADMIN $CAP_MKNOD
  caps_lack CapBnd $CAP_SYS_ADMIN $CAP_MKNOD
  expect "mknod-dev /dev/shm/null: EPERM" "mkfifo /dev/shm/fifo: ok" "write /sys/class/net/lo/mtu: EROFS"

  # seccomp, not only the capability: CAP_MKNOD given back by runc exec.
  started_probes devnone host.devices.none
  exec_probes devnone --cap CAP_MKNOD -- caps "mknod-dev /dev/shm/null" "mkfifo /dev/shm/fifo"
  caps_have CapEff $CAP_MKNOD
  expect "mknod-dev /dev/shm/null: EPERM" "mkfifo /dev/shm/fifo: ok"
}

@test "host.devices.none: /proc/kcore is masked" {
  if [ ! -e /proc/kcore ]; then
    skip "this kernel has no /proc/kcore (CONFIG_PROC_KCORE is off)"
  fi
  catalogue_bundle "read /proc/kcore"
  edit_config "$BUNDLE" '.linux.maskedPaths -= ["/proc/kcore"] | .process.capabilities[] += ["CAP_SYS_RAWIO"]'
  run_bundle ent
  expect "read /proc/kcore: ok"
  set_entitlements "$BUNDLE" host.devices.none
  run_bundle ent
  expect "read /proc/kcore: empty"
}

@test "host.devices.none: the device cgroup holds only the default devices" {
  catalogue_bundle "read /dev/loopctl"
  edit_config "$BUNDLE" '.linux.resources.devices = [{allow: true, access: "rwm"}]
    | .mounts += [{destination: "/dev/loopctl", type: "bind", source: "/dev/loop-control", options: ["bind"]}]'
  run_bundle ent
  expect "read /dev/loopctl: EINVAL"
  set_entitlements "$BUNDLE" host.devices.none
  run_bundle ent
  expect "read /dev/loopctl: EPERM"
}

@test "host.devices.admin: CAP_SYS_ADMIN and CAP_MKNOD, /proc unmasked but kernel memory and keys, /sys/firmware hidden" {
  catalogue_bundle caps mount "mknod-dev /dev/shm/null" "read /proc/timer_list" "read /proc/keys"
  edit_config "$BUNDLE" '.process.args[2] += "echo firmware: $(ls /sys/firmware | wc -l)"'
  edit_config "$BUNDLE" '.process.capabilities[] -= ["CAP_MKNOD"]'
  run_bundle ent
  expect "mount: EPERM" "mknod-dev /dev/shm/null: EPERM" "read /proc/timer_list: empty"

  run_granted host.devices.admin
  caps_have CapEff $CAP_SYS_ADMIN $CAP_MKNOD
  expect "mount: ok" "mknod-dev /dev/shm/null: ok" "read /proc/timer_list: ok" \
    "read /proc/keys: empty" "firmware: 0"
  # /sys/firmware has entries here, so "0" is the mask's doing.
  [ -n "$(ls /sys/firmware)" ]
}

@test "host.devices.admin: the device cgroup allows every device" {
  catalogue_bundle "mknod-dev /dev/loopctl 10 237" "read /dev/loopctl"
  run_bundle ent
  expect "read /dev/loopctl: EPERM"
  run_granted host.devices.admin
  expect "mknod-dev /dev/loopctl 10 237: ok" "read /dev/loopctl: EINVAL"
}

@test "host.modules.admin: module syscalls get past a profile that denies them, with CAP_SYS_MODULE" {
  catalogue_bundle caps module "module init" "module delete"
  # An engine's expanded profile without CAP_SYS_MODULE: everything but
  # the module calls, default EPERM.
  require_cc
  names=$(syscall_names)
  edit_config "$BUNDLE" '.linux.seccomp = {defaultAction: "SCMP_ACT_ERRNO", defaultErrnoRet: 1,
    syscalls: [{names: ($names - ["init_module", "finit_module", "delete_module"]),
                action: "SCMP_ACT_ALLOW"}]}' --argjson names "$names"
  run_bundle ent
  all_denied module "module init" "module delete"

  run_granted host.modules.admin
  caps_have CapEff $CAP_SYS_MODULE
  for p in module "module init" "module delete"; do
    expect_match "$p" "$MODULE_ALLOWED"
  done
}

@test "host.processes.none: a pid namespace of its own when the bundle has none" {
  make_bundle "$BUNDLE" /bin/sh -c 'readlink /proc/self/ns/pid; echo $$'
  edit_config "$BUNDLE" '.linux.namespaces |= map(select(.type != "pid"))'
  host_pidns=$(readlink /proc/self/ns/pid)
  run_bundle ent
  [ "${lines[0]}" = "$host_pidns" ]
  [ "${lines[1]}" != 1 ]

  set_entitlements "$BUNDLE" host.processes.none
  run_bundle ent
  [ "$status" -eq 0 ]
  [ "${lines[0]}" != "$host_pidns" ]
  [ "${lines[1]}" = 1 ]
}

@test "host.processes.admin: granted, the container shares the host's pid namespace" {
  make_bundle "$BUNDLE" /bin/sh -c 'readlink /proc/self/ns/pid; echo $$'
  run_bundle ent
  [ "${lines[1]}" = 1 ]
  run_granted host.processes.admin
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "$(readlink /proc/self/ns/pid)" ]
  [ "${lines[1]}" != 1 ]
  jq -e '[.linux.namespaces[] | select(.type == "pid")] | length == 0' "$BUNDLE/config.json"
}

@test "network.none: no low ports, no network configuration, only loopback" {
  catalogue_bundle caps "bind 80" "bind 8080" netadmin "socket unix"
  edit_config "$BUNDLE" '.process.args[2] += "echo links: $(ls /sys/class/net | wc -l)"'
  edit_config "$BUNDLE" '.process.capabilities[] += ["CAP_NET_ADMIN"]'
  run_bundle ent
  expect "bind 80: ok" "netadmin: ok" "links: 1"
  set_entitlements "$BUNDLE" network.none
  run_bundle ent
  expect "bind 80: EPERM" "bind 8080: EPERM" "netadmin: EPERM" "socket unix: ok" "links: 0"
  caps_lack CapEff $CAP_NET_ADMIN $CAP_NET_BIND_SERVICE $CAP_NET_RAW $CAP_NET_BROADCAST
}

@test "network.user: high ports only, no network configuration" {
  catalogue_bundle caps "bind 80" "bind 8080" netadmin "socket inet" "socket raw"
  edit_config "$BUNDLE" '.process.capabilities[] += ["CAP_NET_ADMIN"]'
  run_bundle ent
  expect "bind 80: ok" "netadmin: ok" "socket raw: ok"
  set_entitlements "$BUNDLE" network.user
  run_bundle ent
  expect "bind 80: EACCES" "bind 8080: ok" "netadmin: EPERM" "socket inet: ok" "socket raw: EPERM"

  # The namespace the engine chose, the host's too (DESIGN §7: a
  # host-network pod keeps its network): no new one.
  make_bundle "$BUNDLE" /bin/sh -c 'readlink /proc/self/ns/net'
  edit_config "$BUNDLE" '.linux.namespaces |= map(select(.type != "network"))'
  run_bundle ent
  [ "$output" = "$(readlink /proc/self/ns/net)" ]
  set_entitlements "$BUNDLE" network.user
  run_bundle ent
  [ "$status" -eq 0 ]
  [ "$output" = "$(readlink /proc/self/ns/net)" ]
}

@test "network.proxy: low ports and raw sockets, but no network configuration" {
  catalogue_bundle caps "bind 80" "socket raw" "socket packet" netadmin
  edit_config "$BUNDLE" '.process.capabilities[] += ["CAP_NET_ADMIN"] | .process.capabilities[] -= ["CAP_NET_RAW", "CAP_NET_BIND_SERVICE"]'
  run_bundle ent
  expect "bind 80: EACCES" "socket raw: EPERM" "netadmin: ok"
  run_granted network.proxy
  expect "bind 80: ok" "socket raw: ok" "socket packet: ok" "netadmin: EPERM"
  caps_have CapEff $CAP_NET_BIND_SERVICE $CAP_NET_RAW $CAP_NET_BROADCAST
  caps_lack CapBnd $CAP_NET_ADMIN
}

@test "network.admin: configures its own network namespace" {
  catalogue_bundle netadmin "socket packet" "bind 80"
  run_bundle ent
  expect "netadmin: EPERM"
  run_granted network.admin
  expect "netadmin: ok" "socket packet: ok" "bind 80: ok"
  [ "$(jq -r '.linux.namespaces[] | select(.type == "network") | .type' "$BUNDLE/config.json")" = network ]
}

@test "network.host: the host's network namespace, with network.admin's capabilities" {
  # No probe that changes anything here: this is the host's network.
  catalogue_bundle caps "socket raw"
  edit_config "$BUNDLE" '.process.args[2] += "echo netns: $(readlink /proc/self/ns/net)"'
  run_granted network.host
  expect "socket raw: ok" "netns: $(readlink /proc/self/ns/net)"
  caps_have CapEff $CAP_NET_ADMIN $CAP_NET_RAW $CAP_NET_BIND_SERVICE $CAP_NET_BROADCAST
}

@test "Docker-in-Docker without --privileged: network.admin,security.admin,host.devices.admin" {
  granted=(mount "unshare mnt" "unshare net" "socket raw" netadmin "mknod-dev /dev/shm/null")
  denied=(kexec module "module init" "module delete")
  catalogue_bundle "${granted[@]}" "${denied[@]}" "read /proc/kcore" "read /proc/keys"
  edit_config "$BUNDLE" '.process.capabilities[] -= ["CAP_MKNOD", "CAP_NET_RAW"]'
  run_bundle ent
  all_denied "${granted[@]}"

  # What DinD needs: mounts, namespaces, raw sockets, device nodes...
  run_granted network.admin,security.admin,host.devices.admin
  expect "mount: ok" "unshare mnt: ok" "unshare net: ok" "socket raw: ok" "netadmin: ok" \
    "mknod-dev /dev/shm/null: ok"
  # ...while the kernel itself stays out of reach: no kexec, no modules,
  # no kernel memory, no keys.
  all_denied "${denied[@]}"
  expect "read /proc/keys: empty"
  if [ -e /proc/kcore ]; then
    expect "read /proc/kcore: empty"
  else
    # (this kernel has no /proc/kcore: runc skips masking it)
    expect "read /proc/kcore: ENOENT"
  fi

  # seccomp denies them, not a missing capability: given back, still EPERM.
  started_probes dind network.admin,security.admin,host.devices.admin
  exec_probes dind --cap CAP_SYS_MODULE --cap CAP_SYS_BOOT -- caps "${denied[@]}"
  caps_have CapEff $CAP_SYS_MODULE $CAP_SYS_BOOT
  all_denied "${denied[@]}"
}
