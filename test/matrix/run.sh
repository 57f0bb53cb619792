#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run.sh [OPTION...]: the engine-config matrix (issue 11).  Every config in
# the corpus (test/data/engines/*.json, recorded from real engines by
# record.sh) x every catalogue entitlement alone x the common sets, in
# each mode:
#
#   runc          runc on this host's cgroups
#   runc-cgroup2  runc in a mount namespace whose /sys/fs/cgroup is cgroup2
#                 only (test/integration/run-crun.sh), as most hosts now are
#   crun-cgroup2  crun there, --cgroup-manager=disabled
#
# A cell first runs the normalised config (below) under the plain runtime
# once per config and mode (the baseline: if it fails, every cell of it is
# "baseline cannot run here"); then through entitle, with the entitlements
# in io.entitle.entitlements, under an admin config that grants them all.
# Either the container runs and the probes inside observe every promise of
# the requested entitlements ("run"), or entitle refuses with exactly one
# "entitle: " line naming one of them ("refused").  Anything else is
# "failed": the runtime rejects what entitle wrote, a probe observes a
# promise broken, an error that is not one line, a cgroup of the container
# left behind after delete, a rewritten config that the OCI schema
# refuses (where the engine's passes).  The summary gives the
# counts, the refusals and the failures grouped by what happened; the exit
# status is 1 when a cell failed.
#
# Options:
#   --fast            the subset `make check` runs: every config x the
#                     common sets under runc, and x network.none,
#                     security.confined under crun-cgroup2
#   --config NAME     only this corpus config (repeatable)
#   --set LIST        only this entitlement list (repeatable; "alone" and
#                     "sets" stand for the two groups)
#   --mode MODE       only this mode (repeatable)
#   -j N              cells at once (default 2; this is a 2-core machine)
#   --keep DIR        work in DIR and keep it (default: a temporary
#                     directory, removed at the end but for failed cells)
#   --list            print the cells and exit
#
# Normalising a recorded config changes only what names the recording
# machine's transient state (test/data/engines/README.md):
#   root.path -> the shared busybox rootfs, read-only; process.args -> the
#   probe script; process.terminal false; hooks (the engine's, e.g.
#   libnetwork-setkey) removed; linux.cgroupsPath -> a unique plain path;
#   a bind mount whose source is gone -> an empty stand-in of the kind the
#   recording saw (file or directory), dropped when the kind is unknown;
#   a network namespace path -> a namespace this run made (lo up,
#   10.200.0.1 and 10.200.0.2 on it), or this process's own where the
#   engine named the host's (Docker's --network host); other namespace
#   paths (a pod sandbox's ipc/uts) -> a holder process's, or this
#   process's where they were the host's.
# and, on a host that lacks CAP_SYS_RESOURCE or capabilities in its
# bounding set (this CI host), what it cannot give at all: capabilities
# outside the bounding set are left out, rlimits above its hard limits and
# an oomScoreAdj below its own are clamped; in the cgroup2-only namespace,
# linux.resources of controllers its cgroup2 hierarchy lacks are left out.
# The summary lists them.
#
# Environment (as Makefile.am's AM_TESTS_ENVIRONMENT sets it): ENTITLE,
# ENTITLE_HOOK, ENTITLE_PROBE, ENTITLE_SRCDIR; MATRIX_CORPUS (default
# $ENTITLE_SRCDIR/test/data/engines).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${ENTITLE_SRCDIR:=$(cd "$HERE/../.." && pwd)}"
: "${ENTITLE_BUILDDIR:=$ENTITLE_SRCDIR}"
: "${ENTITLE:=$ENTITLE_BUILDDIR/shim/entitle}"
: "${ENTITLE_HOOK:=$ENTITLE_BUILDDIR/oci-hooks/entitle-hook}"
: "${ENTITLE_PROBE:=$ENTITLE_BUILDDIR/test/integration/helper/entitle-probe}"
: "${MATRIX_CORPUS:=$ENTITLE_SRCDIR/test/data/engines}"
export ENTITLE ENTITLE_HOOK ENTITLE_PROBE ENTITLE_SRCDIR MATRIX_CORPUS
RUN_CRUN=$ENTITLE_SRCDIR/test/integration/run-crun.sh
RUNC_BIN=$(command -v runc || echo /usr/sbin/runc)
CRUN_BIN=$(command -v crun || echo /usr/bin/crun)

MODES_ALL=(runc runc-cgroup2 crun-cgroup2)

# The values the modifiers are tried with, and the common sets.  fs.read
# lists /probe too: the probes are a program the shell runs, and fs.read
# leaves readable only the command's own file (entitle-init(8)).
declare -A VALUE=(
  [network.egress]=10.200.0.1/32:80
  [network.bind]=8080
  [network.bind-map]=80:8080
  [network.ingress]=10.200.0.1/32:8080
  [fs.read]=/etc,fs.read=/probe
  [fs.write]=/dev/shm
)
COMMON_SETS=(
  "network.none,security.confined"
  "network.user,security.confined,network.egress=10.200.0.1/32"
  "network.admin,security.admin,host.devices.admin"
  "host.processes.none,host.devices.none"
)

# Capability names by number (linux/capability.h).
CAPS=(CHOWN DAC_OVERRIDE DAC_READ_SEARCH FOWNER FSETID KILL SETGID SETUID SETPCAP
  LINUX_IMMUTABLE NET_BIND_SERVICE NET_BROADCAST NET_ADMIN NET_RAW IPC_LOCK IPC_OWNER
  SYS_MODULE SYS_RAWIO SYS_CHROOT SYS_PTRACE SYS_PACCT SYS_ADMIN SYS_BOOT SYS_NICE
  SYS_RESOURCE SYS_TIME SYS_TTY_CONFIG MKNOD LEASE AUDIT_WRITE AUDIT_CONTROL SETFCAP
  MAC_OVERRIDE MAC_ADMIN SYSLOG WAKE_ALARM BLOCK_SUSPEND AUDIT_READ PERFMON BPF
  CHECKPOINT_RESTORE)
declare -A CAPBIT=()
for i in "${!CAPS[@]}"; do
  CAPBIT[${CAPS[$i]}]=$i
done

# What a call an entitlement denies reads, whatever the engine's profile
# (entitlements(7)): EPERM under Podman's too, whose default errno is
# ENOSYS.  The errno the program sees, not only "denied".
DENIED=EPERM

# Errnos that mean a module call got past seccomp and the capability
# check into the kernel's argument checks (catalogue.bats).
MODULE_ALLOWED='EBADF|ENOEXEC|ENOENT|ENOSYS'

die() {
  echo "run.sh: $*" >&2
  exit 2
}

# ---------------------------------------------------------------------
# The promises.  promise_NAME (dots and dashes as underscores) declares,
# for the entitlement NAME with value $VAL, the probes a cell runs
# (probe) and what they must show (want, caps_*, netns_*, pidns_*).  The
# same function runs twice: with PHASE=probes only `probe` does anything,
# with PHASE=check only the checks do.  A probe is the arguments of one
# /probe call; "@net" in front runs it only outside the host's network
# namespace, "@uts" only outside the host's UTS namespace (they print
# "skip" there: nothing is sent from, or written to, the host's); "=NAME"
# is a shell snippet of probe_snippet.
# ---------------------------------------------------------------------

promise_network_none() {
  probe "socket inet" "socket inet6" "socket inet dgram" "socket packet" "socket netlink" "socket unix"
  want "socket inet" "$DENIED"
  want "socket inet6" "$DENIED"
  want "socket inet dgram" "$DENIED"
  want "socket packet" "$DENIED"
  want "socket netlink" "$DENIED"
  want "socket unix" ok
  caps_lack_all NET_ADMIN NET_BIND_SERVICE NET_RAW NET_BROADCAST
  netns_not_host "network.none never leaves a container in the host's network namespace (DESIGN §7)"
}

promise_network_user() {
  probe "socket raw" "socket packet" "socket inet" "socket unix"
  want "socket raw" "$DENIED"
  want "socket packet" "$DENIED"
  want "socket inet" ok
  want "socket unix" ok
  caps_lack_all NET_ADMIN NET_BIND_SERVICE NET_RAW
  netns_kept "network.user keeps the network namespace the engine chose (DESIGN §7)"
}

promise_network_proxy() {
  probe "socket raw" "@net netadmin" "bind 80"
  want "socket raw" ok
  want "netadmin" EPERM
  want "bind 80" "ok|EADDRINUSE"
  caps_lack_all NET_ADMIN
  caps_have NET_BIND_SERVICE NET_RAW NET_BROADCAST
  netns_kept "network.proxy keeps the network namespace the engine chose (DESIGN §7)"
}

promise_network_admin() {
  probe "socket raw" "@net netadmin"
  want "socket raw" ok
  want "netadmin" ok
  caps_have NET_ADMIN NET_RAW NET_BIND_SERVICE NET_BROADCAST
  netns_kept "network.admin changes no namespace"
}

promise_network_host() {
  probe "socket raw"
  want "socket raw" ok
  caps_have NET_ADMIN NET_RAW NET_BIND_SERVICE NET_BROADCAST
  netns_host "network.host is the host's network namespace"
}

promise_network_egress() {
  local port=${VAL##*:}
  [ "$port" != "$VAL" ] || port=
  probe "connect 127.0.0.1 80" "sendto 127.0.0.1 80" "@net connect 10.200.0.2 80" \
    "@net sendto 10.200.0.2 80" "@net connect 10.200.0.1 80" "@net connect 10.200.0.1 81" \
    "socket raw" "socket packet"
  # loopback is not special
  want "connect 127.0.0.1 80" EPERM
  want "sendto 127.0.0.1 80" EPERM
  want "connect 10.200.0.2 80" EPERM
  want "sendto 10.200.0.2 80" EPERM
  want_not "connect 10.200.0.1 80" EPERM
  if [ -n "$port" ] && [ "$port" != 81 ]; then
    want "connect 10.200.0.1 81" EPERM
  else
    want_not "connect 10.200.0.1 81" EPERM
  fi
  section "DESIGN §7: network.egress implies no raw or packet sockets, no CAP_NET_RAW or CAP_NET_ADMIN"
  want "socket raw" "$DENIED"
  want "socket packet" "$DENIED"
  caps_lack_all NET_RAW NET_ADMIN
  section ""
}

promise_network_bind() {
  probe "bind $VAL" "bind $((VAL + 1))" "=bind-reach"
  want "bind $VAL" "ok|EADDRINUSE"
  want "bind $((VAL + 1))" EPERM
  # bind(0) is allowed, but what it gets is unreachable (skip where the
  # container's loopback is down); attacks-net.bats tries it from outside.
  section "DESIGN §7: network.bind covers kernel-chosen ports (bind(0))"
  want "bind-reach" "none|skip"
  section ""
}

# VALUE is 10.200.0.1/32:8080: a listener on 8080 is reached from that
# source and not from 10.200.0.2 (both addresses of the container's own
# namespace; skipped in the host's).
promise_network_ingress() {
  probe "=ingress-reach" "socket raw" "socket packet"
  want "ingress-reach 10.200.0.2" "none|skip"
  want "ingress-reach 10.200.0.1" "accepted|skip"
  section "DESIGN §7: network.ingress, as network.egress, implies no raw or packet sockets"
  want "socket raw" "$DENIED"
  want "socket packet" "$DENIED"
  caps_lack_all NET_RAW NET_ADMIN
  section ""
}

promise_network_bind_map() {
  probe "=bind-map"
  want "bind-map ${VAL%%:*}" "${VAL##*:}"
}

promise_fs_read() {
  probe "read /etc/passwd" "=fs-read"
  want "read /etc/passwd" ok
  want "read /dev/matrix-secret" "EACCES|EPERM"
}

# A pod sandbox's /dev/shm is read-only: the path fs.write leaves writable
# is checked where the plain runtime could write there.
promise_fs_write() {
  probe "=fs-write"
  if [ "$PHASE" = check ] && [ "$(base_got "write /dev/shm/matrix-file")" = ok ]; then
    want "write /dev/shm/matrix-file" ok
  fi
  want "write /dev/matrix-file" "EACCES|EPERM"
}

promise_host_devices_none() {
  probe "mknod-dev /dev/matrix-null" "mkfifo /dev/matrix-fifo" "write /sys/class/net/lo/mtu" \
    "read /proc/kcore"
  want "mknod-dev /dev/matrix-null" "$DENIED"
  want "mkfifo /dev/matrix-fifo" ok
  want "write /sys/class/net/lo/mtu" EROFS
  [ ! -e /proc/kcore ] || want "read /proc/kcore" empty
  caps_lack_all SYS_ADMIN MKNOD
}

promise_host_devices_admin() {
  probe "mknod-dev /dev/matrix-null" mount "read /proc/keys"
  want "mknod-dev /dev/matrix-null" ok
  want mount ok
  stays_hidden /proc/keys
  caps_have SYS_ADMIN MKNOD
}

promise_host_modules_admin() {
  probe module "module init" "module delete"
  want module "$MODULE_ALLOWED"
  want "module init" "$MODULE_ALLOWED"
  want "module delete" "$MODULE_ALLOWED"
  caps_have SYS_MODULE
}

promise_host_processes_none() {
  pidns_not_host
}

promise_host_processes_admin() {
  pidns_host
}

# What security.confined and security.view deny by seccomp (DESIGN §3);
# "clone none" (fork) and personality(PER_LINUX) stay allowed.
confined_probes() {
  probe mount "unshare user" "unshare mnt" "clone user" "clone none" "setns user" ptrace \
    "personality 0" "personality 6" bpf perf keyctl io_uring userfaultfd kexec module reboot
  want nnp 1
  for p in mount "unshare user" "unshare mnt" "clone user" "setns user" ptrace "personality 6" \
    bpf perf keyctl io_uring userfaultfd kexec module reboot; do
    want "$p" "$DENIED"
  done
  want "clone none" ok
  want "personality 0" ok
}

promise_security_confined() {
  confined_probes
  # /proc/sys read-only, and the sysctl program.
  probe "@uts =sysctl"
  want "sysctl kernel.domainname" "EROFS|EPERM"
  caps_lack_all MAC_ADMIN MAC_OVERRIDE DAC_OVERRIDE DAC_READ_SEARCH SETPCAP SETFCAP SETUID \
    SETGID SYS_PTRACE FSETID SYS_MODULE SYSLOG SYS_RAWIO SYS_ADMIN LINUX_IMMUTABLE SYS_RESOURCE
  section "DESIGN §7: security.confined keeps at most Docker's default set minus what it drops"
  caps_within CHOWN FOWNER MKNOD NET_RAW NET_BIND_SERVICE SYS_CHROOT KILL AUDIT_WRITE
  section ""
}

promise_security_view() {
  confined_probes
  caps_lack_all MAC_ADMIN MAC_OVERRIDE DAC_OVERRIDE SETPCAP SETFCAP SETUID SETGID SYS_PTRACE \
    FSETID SYS_MODULE SYSLOG SYS_RAWIO SYS_ADMIN LINUX_IMMUTABLE SYS_RESOURCE AUDIT_READ
  section "DESIGN §7: security.view keeps at most confined's set and CAP_DAC_READ_SEARCH"
  caps_within CHOWN FOWNER MKNOD NET_RAW NET_BIND_SERVICE SYS_CHROOT KILL AUDIT_WRITE DAC_READ_SEARCH
  section ""
}

promise_security_admin() {
  probe mount "unshare mnt" ptrace keyctl bpf "@uts =sysctl" kexec module "module init" "module delete"
  for p in mount "unshare mnt" ptrace keyctl "sysctl kernel.domainname"; do
    want "$p" ok
  done
  # bpf(2) reaches every container's enforcement (DESIGN §8).
  for p in bpf kexec module "module init" "module delete"; do
    want "$p" "$DENIED"
  done
  caps_have SYS_ADMIN SYS_PTRACE SYS_BOOT DAC_READ_SEARCH SETUID AUDIT_READ
}

promise_security_memory_lock() {
  probe mlock
  want mlock ok
  caps_have IPC_LOCK
}

promise_security_insecure() {
  probe mount "mknod-dev /dev/matrix-null" "@net netadmin" "socket raw" module "read /proc/keys"
  want mount ok
  want "mknod-dev /dev/matrix-null" ok
  want netadmin ok
  want "socket raw" ok
  want module "$MODULE_ALLOWED"
  stays_hidden /proc/keys
  caps_have SYS_ADMIN SYS_MODULE MKNOD NET_ADMIN NET_RAW SYS_PTRACE SYS_BOOT
}

# The capabilities an entitlement adds explicitly: a rung's upper bound
# (security.confined/view) does not take them away (DESIGN §7).
declare -A ADDS=(
  [network.proxy]="NET_BIND_SERVICE NET_RAW NET_BROADCAST"
  [network.admin]="NET_ADMIN NET_RAW NET_BIND_SERVICE NET_BROADCAST"
  [network.host]="NET_ADMIN NET_RAW NET_BIND_SERVICE NET_BROADCAST"
  [security.memory-lock]="IPC_LOCK"
  [host.devices.admin]="SYS_ADMIN MKNOD"
  [host.modules.admin]="SYS_MODULE"
)

# probe_snippet NAME: the shell lines of a "=NAME" probe.
probe_snippet() {
  case $1 in
  bind-reach)
    # A listener on the port bind(0) chose, and a connection to it over
    # the container's own loopback: "accepted" if it got there.  Through
    # a pipe: a pod sandbox's /dev/shm is read-only.
    cat <<'SH'
printf 'bind-reach: '
/probe listen0 2 2>/dev/null | {
  read -r port
  c=$(/probe connect 127.0.0.1 "${port:-1}" 1)
  read -r result
  case $c in
  ENETUNREACH | EADDRNOTAVAIL) echo skip ;;
  *) echo "${result:-none}" ;;
  esac
}
SH
    ;;
  ingress-reach)
    # A listener on 8080, and a connection to it from each source address
    # of the container's namespace: "accepted" if it got there.
    cat <<'SH'
for from in 10.200.0.2 10.200.0.1; do
  printf 'ingress-reach %s: ' "$from"
  /probe accept-once 8080 2 2>/dev/null | {
    read -r port
    c=$(/probe from "$from" connect 10.200.0.1 8080 1)
    read -r result
    case $c in
    ENETUNREACH | EADDRNOTAVAIL) echo skip ;;
    *) echo "${result:-none}" ;;
    esac
  }
done
SH
    ;;
  bind-map)
    # Listen on 80 and find the port the kernel bound, by the socket's
    # inode (other listeners on the host's namespace do not matter); a
    # listener that could not bind (a cell beside it in the host's
    # namespace held the port for a moment) is tried again.
    cat <<'SH'
printf 'bind-map 80: '
port=
for try in 1 2 3; do
  nc -l -p 80 </dev/null >/dev/null 2>&1 &
  l=$!
  ino=
  for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    for fd in /proc/$l/fd/*; do
      case $(readlink $fd) in socket:*) ino=$(readlink $fd | tr -dc 0-9) ;; esac
    done
    [ -z "$ino" ] || port=$(awk -v ino=$ino '$10 == ino { split($2, a, ":"); print a[2] }' /proc/net/tcp /proc/net/tcp6)
    [ -z "$port" ] || break
    kill -0 $l 2>/dev/null || break
    sleep 0.05
  done
  kill $l 2>/dev/null
  wait $l 2>/dev/null
  [ -z "$port" ] || break
  sleep 0.2
done
case $port in 1F90) echo 8080 ;; 0050) echo 80 ;; '') echo none ;; *) echo "0x$port" ;; esac
SH
    ;;
  sysctl)
    # The current value back (the container's own UTS namespace).
    echo 'printf "sysctl kernel.domainname: "; /probe sysctl kernel.domainname "$(cat /proc/sys/kernel/domainname)"'
    ;;
  fs-read)
    # In /dev, the one tmpfs every engine's config makes writable.
    echo 'echo secret >/dev/matrix-secret; printf "read /dev/matrix-secret: "; /probe read /dev/matrix-secret'
    ;;
  fs-write)
    echo 'for f in /dev/shm/matrix-file /dev/matrix-file; do printf "write $f: "; if (: >$f) 2>/dev/null; then echo ok; else echo EACCES; fi; done'
    ;;
  *) die "no snippet $1" ;;
  esac
}

# ---------------------------------------------------------------------
# The promise DSL.
# ---------------------------------------------------------------------

PHASE=probes
PROBES=()
BROKEN=()
SECTION=""
declare -A R=()

probe() {
  [ "$PHASE" = probes ] || return 0
  PROBES+=("$@")
}

section() {
  SECTION=$1
}

broken() {
  if [ -n "$SECTION" ]; then
    BROKEN+=("$* [$SECTION]")
  else
    BROKEN+=("$*")
  fi
}

got() {
  if [ -n "${R[$1]+set}" ]; then
    printf '%s' "${R[$1]}"
  else
    printf '(nothing)'
  fi
}

# want PROBE REGEX: what PROBE printed matches REGEX ("skip" always does).
want() {
  [ "$PHASE" = check ] || return 0
  local v
  v=$(got "$1")
  [ "$v" = skip ] && return 0
  [[ "$v" =~ ^($2)$ ]] || broken "$1: $v, want $2"
}

want_not() {
  [ "$PHASE" = check ] || return 0
  local v
  v=$(got "$1")
  [ "$v" = skip ] && return 0
  if [[ "$v" =~ ^($2)$ ]] || [ "$v" = "(nothing)" ]; then
    broken "$1: $v, want anything but $2"
  fi
}

cap_set_has() {
  local mask=$1 bit=${CAPBIT[$2]}
  [[ "$mask" =~ ^[0-9a-f]{1,16}$ ]] && (((0x$mask >> bit) & 1))
}

# caps_lack_all CAP...: no set (CapInh CapPrm CapEff CapBnd CapAmb) holds CAP.
caps_lack_all() {
  [ "$PHASE" = check ] || return 0
  local set c bad=()
  for c in "$@"; do
    for set in CapInh CapPrm CapEff CapBnd CapAmb; do
      if [ -z "${R[$set]:-}" ]; then
        broken "$set: (nothing)"
        return
      fi
      if cap_set_has "${R[$set]}" "$c"; then
        bad+=("CAP_$c")
        break
      fi
    done
  done
  [ ${#bad[@]} -eq 0 ] || broken "holds ${bad[*]}, want it dropped from every set"
}

# caps_have CAP...: CapEff holds each CAP this host can give.
caps_have() {
  [ "$PHASE" = check ] || return 0
  local c bad=()
  for c in "$@"; do
    cap_set_has "$HOST_CAPBND" "$c" || continue
    cap_set_has "${R[CapEff]:-x}" "$c" || bad+=("CAP_$c")
  done
  [ ${#bad[@]} -eq 0 ] || broken "CapEff lacks ${bad[*]}"
}

# caps_within CAP...: CapEff and CapBnd hold nothing but CAP... and what
# the cell's other entitlements add explicitly.
caps_within() {
  [ "$PHASE" = check ] || return 0
  local allowed=" $* $CELL_ADDS " set i bad=()
  for set in CapEff CapBnd; do
    for i in "${!CAPS[@]}"; do
      [[ "$allowed" == *" ${CAPS[$i]} "* ]] && continue
      cap_set_has "${R[$set]:-0}" "${CAPS[$i]}" && bad+=("CAP_${CAPS[$i]}")
    done
  done
  [ ${#bad[@]} -eq 0 ] || broken "holds $(printf '%s\n' "${bad[@]}" | sort -u | tr '\n' ' ')beyond the bound"
}

netns_class() {
  case $1 in
  "$HOST_NETNS") echo "the host's" ;;
  "$CELL_NETNS") echo "the engine's (path)" ;;
  *) echo "a new one" ;;
  esac
}

netns_not_host() {
  [ "$PHASE" = check ] || return 0
  [ "$(got netns)" != "$HOST_NETNS" ] || broken "network namespace: the host's ($1)"
}

netns_host() {
  [ "$PHASE" = check ] || return 0
  [ "$(got netns)" = "$HOST_NETNS" ] || broken "network namespace: $(netns_class "$(got netns)"), want the host's ($1)"
}

# netns_kept WHY: the namespace is the one the normalised config names
# (the host's, the one made for the cell, or a new one where it names none).
netns_kept() {
  [ "$PHASE" = check ] || return 0
  local have want
  have=$(netns_class "$(got netns)")
  case $BASE_NETNS_CLASS in
  host) want="the host's" ;;
  path) want="the engine's (path)" ;;
  new) want="a new one" ;;
  esac
  [ "$have" = "$want" ] || broken "network namespace: $have, want $want ($1)"
}

# stays_hidden PATH: a path the engine masked (the baseline reads it empty)
# reads empty still.
stays_hidden() {
  [ "$PHASE" = check ] || return 0
  [ "$(base_got "read $1")" = empty ] || return 0
  want "read $1" empty
}

base_got() {
  sed -n "s|^$1: ||p" "$W/baselines/$MODE.$CONFIG.out" | head -n 1
}

pidns_not_host() {
  [ "$PHASE" = check ] || return 0
  [ "$(got pidns)" != "$HOST_PIDNS" ] || broken "pid namespace: the host's, want a new one"
}

pidns_host() {
  [ "$PHASE" = check ] || return 0
  [ "$(got pidns)" = "$HOST_PIDNS" ] || broken "pid namespace: not the host's"
}

# lookup_promise ITEM: FN, the promise function of one list item
# (NAME[=VALUE]), and VAL; fails for a name the table does not know.
lookup_promise() {
  local name=${1%%=*}
  VAL=${1#*=}
  [ "$VAL" != "$1" ] || VAL=
  FN=promise_${name//[.-]/_}
  declare -F "$FN" >/dev/null
}

# build_script: the cell's shell script from PROBES.
build_script() {
  local p seen=" " guard cmd
  printf 'H=%q U=%q M=%q\n' "$HOST_NETNS" "$HOST_UTSNS" "$HOST_MNTNS"
  cat <<'SH'
N=$(readlink /proc/self/ns/net)
T=$(readlink /proc/self/ns/uts)
# The probes write (mount, mknod, files in /dev): never in the host's.
if [ "$(readlink /proc/self/ns/mnt)" = "$M" ]; then
  echo "mntns: the host's"
  exit 3
fi
echo "netns: $N"
echo "pidns: $(readlink /proc/self/ns/pid)"
awk '/^(Cap|NoNewPrivs)/ { print $1, $2 }' /proc/self/status
( : ) && echo "fork: ok"
printf 'nnp: '; /probe nnp
SH
  for p in "${PROBES[@]}"; do
    [[ "$seen" == *" [$p] "* ]] && continue
    seen+="[$p] "
    guard=
    case $p in
    "@net "*) guard='[ "$N" = "$H" ]' p=${p#@net } ;;
    "@uts "*) guard='[ "$T" = "$U" ]' p=${p#@uts } ;;
    esac
    if [[ "$p" == =* ]]; then
      cmd=$(probe_snippet "${p#=}")
    else
      cmd="printf '%s: ' '$p'; /probe $p"
    fi
    if [ -n "$guard" ]; then
      local key=$p
      [[ "$p" == =* ]] && key=$(probe_key "${p#=}")
      printf 'if %s; then echo %q; else\n%s\nfi\n' "$guard" "$key: skip" "$cmd"
    else
      printf '%s\n' "$cmd"
    fi
  done
  echo 'echo matrix-done'
}

probe_key() {
  case $1 in
  sysctl) echo "sysctl kernel.domainname" ;;
  *) echo "$1" ;;
  esac
}

# parse_output FILE: R[KEY]=VALUE for every "KEY: VALUE" line.
parse_output() {
  local line
  R=()
  while IFS= read -r line; do
    [[ "$line" == *": "* ]] || continue
    R[${line%%: *}]=${line#*: }
  done <"$1"
}

# ---------------------------------------------------------------------
# Normalising a recorded config for a cell.
# ---------------------------------------------------------------------

# normalise NAME DIR SCRIPT CGPATH NETNS: DIR/config.json from corpus
# config NAME; prints the host adaptations made, one per line.
normalise() {
  local name=$1 dir=$2 script=$3 cgpath=$4 netns=$5 src kind n=0 binds='{}' meta
  meta=$(jq -c --arg n "$name" '.[$n] // {bind_sources: {}, host_namespaces: []}' "$MATRIX_CORPUS/index.json")
  mkdir -p "$dir/standin"
  # Bind sources that are gone: stand-ins of the kind the recording saw.
  while IFS= read -r src; do
    [ -e "$src" ] && continue
    n=$((n + 1))
    kind=$(jq -r --arg s "$src" '.bind_sources[$s] // "unknown"' <<<"$meta")
    case $kind in
    file) : >"$dir/standin/$n" ;;
    directory) mkdir -p "$dir/standin/$n" ;;
    *) binds=$(jq -c --arg s "$src" '.[$s] = null' <<<"$binds") && continue ;;
    esac
    binds=$(jq -c --arg s "$src" --arg r "$dir/standin/$n" '.[$s] = $r' <<<"$binds")
  done < <(jq -r '.mounts[]? | select(.type == "bind" or ((.options // []) | index("bind") or index("rbind"))) | .source' \
    "$MATRIX_CORPUS/$name.json")

  jq --arg rootfs "$ROOTFS" --arg script "$script" --arg cg "$cgpath" --arg netns "$netns" \
    --argjson binds "$binds" --argjson meta "$meta" --arg main "$MAIN_PID" --arg holder "$HOLDER_PID" \
    --argjson hostcaps "$HOST_CAPS_JSON" --argjson limits "$HOST_LIMITS_JSON" \
    --argjson adapt "$HOST_ADAPT" --argjson oom "$HOST_OOM" \
    --argjson v2 "$(if [ "$MODE" = runc-cgroup2 ]; then echo "$HOST_V2_CONTROLLERS"; else echo null; fi)" '
    def procname: {network: "net", mount: "mnt"}[.] // .;
    def has_ctl($c): $v2 | index($c);
    .root = {path: $rootfs, readonly: true}
    | .process.args = ["/bin/sh", "-c", $script]
    | .process.terminal = false
    | del(.process.consoleSize)
    | del(.hooks)
    | if .linux.cgroupsPath then .linux.cgroupsPath = $cg else . end
    | .mounts = [.mounts[]? | (.source // "") as $s | if ($binds | has($s)) then
        (if $binds[$s] == null then empty else .source = $binds[$s] end) else . end]
    | if .linux.namespaces then .linux.namespaces |= map(
        if (.path // "") == "" then .
        elif (.type as $t | $meta.host_namespaces | index($t)) then .path = "/proc/\($main)/ns/\(.type | procname)"
        elif .type == "network" then .path = $netns
        elif .type == "ipc" or .type == "uts" then .path = "/proc/\($holder)/ns/\(.type)"
        else del(.path) end) else . end
    | if $adapt and .process.capabilities then
        .process.capabilities |= map_values(map(select(. as $c | $hostcaps | index($c))))
      else . end
    | if $adapt and .process.rlimits then
        .process.rlimits |= map(if $limits[.type] then
          .hard = ([.hard, $limits[.type]] | min) | .soft = ([.soft, .hard] | min) else . end)
      else . end
    | if $adapt and (.process.oomScoreAdj // $oom) < $oom then .process.oomScoreAdj = $oom else . end
    | if $v2 != null and .linux.resources then .linux.resources |= (
        (if has_ctl("cpu") or .cpu == null then . else .cpu |= del(.shares, .quota, .period, .realtimeRuntime,
          .realtimePeriod, .burst, .idle) end)
        | (if has_ctl("cpuset") or .cpu == null then . else .cpu |= del(.cpus, .mems) end)
        | (if .cpu == {} then del(.cpu) else . end)
        | (if has_ctl("memory") then . else del(.memory) end)
        | (if has_ctl("pids") then . else del(.pids) end)
        | (if has_ctl("io") then . else del(.blockIO) end)
        | (if has_ctl("hugetlb") then . else del(.hugepageLimits) end)
        | (if has_ctl("rdma") then . else del(.rdma) end)
        | (if .unified then .unified |= with_entries(select(.key | split(".")[0] as $c | has_ctl($c))) else . end))
      else . end
    ' "$MATRIX_CORPUS/$name.json" >"$dir/config.json" || return 1

  # What the host adaptation changed, for the cell's detail.
  jq -r --slurpfile new "$dir/config.json" '
    ((.process.capabilities.bounding // []) - ($new[0].process.capabilities.bounding // [])
      | if length > 0 then "without \(join(" ")) (not in this host'"'"'s bounding set)" else empty end),
    ([.process.rlimits[]? | . as $r | ($new[0].process.rlimits[] | select(.type == $r.type and .hard != $r.hard))]
      | if length > 0 then "rlimits clamped: \(map("\(.type)=\(.hard)") | join(" "))" else empty end),
    (if (.process.oomScoreAdj // null) != ($new[0].process.oomScoreAdj // null) then
      "oomScoreAdj \(.process.oomScoreAdj) -> \($new[0].process.oomScoreAdj)" else empty end),
    ((.linux.resources // {}) as $r | ($new[0].linux.resources // {}) as $n
      | [($r | keys[]) as $k | select($r[$k] != $n[$k]) | $k]
      | if length > 0 then "linux.resources \(join(" ")): left out what this host'"'"'s cgroup2 hierarchy has no controller for" else empty end)
    ' "$MATRIX_CORPUS/$name.json"
}

# needs_netns NAME: the config names a network namespace by path that is
# not the host's: the cell makes one.
needs_netns() {
  jq -e --arg n "$1" --slurpfile idx "$MATRIX_CORPUS/index.json" '
    ($idx[0][$n].host_namespaces // []) as $h
    | [.linux.namespaces[]? | select(.type == "network" and (.path // "") != "")] | length > 0
      and ($h | index("network") | not)' "$MATRIX_CORPUS/$1.json" >/dev/null
}

make_netns() {
  ip netns add "$1" &&
    ip -n "$1" link set lo up &&
    ip -n "$1" addr add 10.200.0.1/32 dev lo &&
    ip -n "$1" addr add 10.200.0.2/32 dev lo
}

# ---------------------------------------------------------------------
# One job: the baseline of a config in a mode, or a cell.
# ---------------------------------------------------------------------

# runtime_cmd MODE ENTITLE|PLAIN ARG...: the command line of the runtime.
runtime_cmd() {
  local mode=$1 via=$2
  shift 2
  local root=$W/state/$mode
  case $mode in
  runc)
    if [ "$via" = entitle ]; then CMD=("$ENTITLE" --root "$root" "$@"); else CMD=("$RUNC_BIN" --root "$root" "$@"); fi
    ;;
  runc-cgroup2)
    if [ "$via" = entitle ]; then CMD=("$RUN_CRUN" "$ENTITLE" --root "$root" "$@"); else CMD=("$RUN_CRUN" "$RUNC_BIN" --root "$root" "$@"); fi
    ;;
  crun-cgroup2)
    if [ "$via" = entitle ]; then
      CMD=("$RUN_CRUN" "$ENTITLE" --cgroup-manager=disabled --root "$root" "$@")
    else
      CMD=("$RUN_CRUN" "$CRUN_BIN" --cgroup-manager=disabled --root "$root" "$@")
    fi
    ;;
  esac
}

# one_line FILE: the file's lines joined with " | ", without runc's
# warnings, time stamps, container ids and cell paths (so that causes
# group), at most 400 bytes.
one_line() {
  grep -v '^time="[^"]*" level=warning' "$1" |
    sed -e 's/^time="[^"]*" //' -e "s/em-$MAIN_PID-[0-9]*/ID/g" -e "s|$W|WORK|g" \
      -e "s|entitle-matrix-$MAIN_PID/[0-9]*|CGROUP|g" |
    tr '\n' '\f' | sed -e 's/\f$//' -e 's/\f/ | /g' | cut -c 1-400
}

# job KIND ID MODE CONFIG [ENTS]: writes $W/results/ID: STATUS, TAB,
# MODE, TAB, CONFIG, TAB, ENTS, TAB, DETAIL.
job() {
  local kind=$1 id=$2 mode=$3 config=$4 ents=${5:--}
  local dir=$W/cells/$id cid=em-$MAIN_PID-$id netns="" status detail adapted item fn
  local base_status base_detail
  MODE=$mode CONFIG=$config
  mkdir -p "$dir"
  result() {
    printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$mode" "$config" "$ents" "$2" >"$W/results/$id"
    # For the schema check at the end: the config the runtime was given.
    if [ "$1" = run ] || [ "$1" = ok ]; then
      cp "$dir/config.json" "$W/rewrites/$id.json" 2>/dev/null
    fi
    if [ "$kind" = baseline ] && [ "$1" != ok ]; then
      # "error": the harness failed, not the runtime.
      printf '%s\t%s\t-\n' "$([ "$1" = failed ] && echo error || echo cannot)" "$2" >"$W/baselines/$mode.$config"
    fi
    [ "$1" = failed ] || [ "$kind" = baseline ] || rm -rf "$dir"
  }

  PROBES=()
  CELL_ADDS=""
  if [ "$kind" = baseline ]; then
    # Every probe any promise uses: the baseline shows what the engine's
    # config gives without entitle.
    for item in "${CATALOGUE_ITEMS[@]}"; do
      lookup_promise "$item" && PHASE=probes "$FN"
    done
  else
    if ! IFS=$'\t' read -r base_status base_detail BASE_NETNS_CLASS <"$W/baselines/$mode.$config"; then
      result failed "the baseline left no result"
      return
    fi
    if [ "$base_status" = error ]; then
      result failed "the baseline could not be prepared: $base_detail"
      return
    elif [ "$base_status" != ok ]; then
      result baseline "$base_detail"
      return
    fi
    IFS=, read -r -a items <<<"$ents"
    for item in "${items[@]}"; do
      lookup_promise "$item" || {
        result failed "no promise for ${item%%=*} in test/matrix/run.sh: the matrix cannot judge it"
        return
      }
      CELL_ADDS+=" ${ADDS[${item%%=*}]:-}"
      PHASE=probes "$FN"
    done
  fi

  if needs_netns "$config"; then
    netns=em-$MAIN_PID-$id
    make_netns "$netns" || {
      result failed "could not make the network namespace $netns"
      return
    }
  fi
  CELL_NETNS=""
  [ -z "$netns" ] || CELL_NETNS="net:[$(stat -L -c %i "/var/run/netns/$netns")]"
  adapted=$(normalise "$config" "$dir" "$(build_script)" "/entitle-matrix-$MAIN_PID/$id" \
    "${netns:+/var/run/netns/$netns}") || {
    result failed "could not normalise the config"
    return
  }
  if [ "$kind" = cell ]; then
    jq --arg e "$ents" '.annotations["io.entitle.entitlements"] = $e' "$dir/config.json" >"$dir/config.json.new" &&
      mv "$dir/config.json.new" "$dir/config.json"
    runtime_cmd "$mode" entitle run -b "$dir" "$cid"
  else
    runtime_cmd "$mode" plain run -b "$dir" "$cid"
  fi
  status=0
  ENTITLE_CONFIG=$W/admin-$mode.json timeout -k 5 60 "${CMD[@]}" </dev/null >"$dir/out" 2>"$dir/err" || status=$?
  runtime_cmd "$mode" plain delete -f "$cid"
  "${CMD[@]}" >/dev/null 2>&1 || true
  [ -z "$netns" ] || ip netns delete "$netns" 2>/dev/null
  # Nothing of the container may outlive delete (DESIGN §4): not its
  # cgroup, nor the one entitle-hook makes for crun without a cgroup
  # manager.  (Removed here, so that the next cells start clean.)
  local left="" d d2
  for d in $(find "$HOST_V2_ROOT" -maxdepth 4 -type d \( -name "entitle-$cid" -o -path "*/entitle-matrix-$MAIN_PID/$id" \) 2>/dev/null); do
    d2=${d#"$HOST_V2_ROOT"}
    d2=${d2//$cid/ID}
    left+=" ${d2//entitle-matrix-$MAIN_PID\/$id/CGROUP}"
    rmdir "$d" 2>/dev/null
  done
  [ -z "$left" ] || left="; left behind after delete -f: the cgroup$left"
  parse_output "$dir/out"
  adapted=${adapted//$'\n'/; }
  local note=${adapted:+ (host adaptation: $adapted)}

  if [ "$kind" = baseline ]; then
    if [ -n "$left" ]; then
      result failed "the plain runtime${left#;}"
      return
    fi
    if [ "$status" -eq 0 ] && grep -qx matrix-done "$dir/out"; then
      local class=new
      [ "$(got netns)" = "$HOST_NETNS" ] && class=host
      [ -n "$CELL_NETNS" ] && [ "$(got netns)" = "$CELL_NETNS" ] && class=path
      printf 'ok\t%s\t%s\n' "ran$note" "$class" >"$W/baselines/$mode.$config"
      cp "$dir/out" "$W/baselines/$mode.$config.out"
      result ok "baseline ran$note"
    else
      result baseline "plain ${mode%%-*} (exit $status): $(one_line "$dir/err")$note"
    fi
    return
  fi

  # A refusal: nothing ran, one "entitle: " line naming an entitlement.
  if [ "$status" -ne 0 ] && ! [ -s "$dir/out" ] && [ "$(wc -l <"$dir/err")" -eq 1 ] &&
    grep -q '^entitle: ' "$dir/err"; then
    for item in "${items[@]}"; do
      if grep -qF "${item%%=*}" "$dir/err" && [ -z "$left" ]; then
        result refused "$(one_line "$dir/err")"
        return
      fi
    done
    result failed "refused without naming the entitlement: $(one_line "$dir/err")$left"
    return
  fi
  if grep -qx "mntns: the host's" "$dir/out"; then
    result failed "the container shares the host's mount namespace: no probe was run$note"
    return
  fi
  if [ "$status" -ne 0 ] || ! grep -qx matrix-done "$dir/out"; then
    result failed "did not run (exit $status): $(one_line "$dir/err")$left$note"
    return
  fi
  BROKEN=()
  [ "$(got fork)" = ok ] || broken "fork: $(got fork), want ok (the shell must fork)"
  [ -z "$left" ] || broken "${left#; }"
  for item in "${items[@]}"; do
    lookup_promise "$item"
    PHASE=check SECTION="" "$FN"
  done
  if [ ${#BROKEN[@]} -gt 0 ]; then
    result failed "promise broken: $(printf '%s; ' "${BROKEN[@]}" | sed 's/; $//')$note"
  else
    result run "$note"
  fi
}

if [ "${1:-}" = --job ]; then
  shift
  # shellcheck disable=SC1091
  . "$MATRIX_WORK/facts"
  W=$MATRIX_WORK
  job "$@"
  exit 0
fi

# ---------------------------------------------------------------------
# The run.
# ---------------------------------------------------------------------

FAST=0 JOBS=2 KEEP="" LIST=0
CONFIGS=() SETS=() MODES=()
while [ $# -gt 0 ]; do
  case $1 in
  --fast) FAST=1 ;;
  --config) CONFIGS+=("$2") && shift ;;
  --set) SETS+=("$2") && shift ;;
  --mode) MODES+=("$2") && shift ;;
  -j) JOBS=$2 && shift ;;
  --keep) KEEP=$2 && shift ;;
  --list) LIST=1 ;;
  -h | --help) sed -n '3,/^set -uo/p' "$0" | sed '$d' && exit 0 ;;
  *) die "unknown option $1 (--help)" ;;
  esac
  shift
done

[ "$(id -u)" -eq 0 ] || die "needs root: it runs real containers"
for tool in jq ip unshare timeout busybox awk prlimit; do
  command -v "$tool" >/dev/null || die "needs $tool"
done
for f in "$ENTITLE" "$ENTITLE_HOOK" "$ENTITLE_PROBE" "$RUNC_BIN"; do
  [ -x "$f" ] || die "not built or not installed: $f (set ENTITLE, ENTITLE_HOOK, ENTITLE_PROBE)"
done
[ -f "$MATRIX_CORPUS/index.json" ] || die "no corpus in $MATRIX_CORPUS"

# The catalogue, from entitle itself.
mapfile -t CATALOGUE < <("$ENTITLE" features | jq -r '.annotations["io.entitle.entitlements"] | split(",")[]')
[ ${#CATALOGUE[@]} -gt 0 ] || die "entitle features lists no entitlements"
# A modifier that takes a value needs one here (chosen for this test's
# network and rootfs): never run it without, which would only be refused.
for e in $("$ENTITLE" explain --json "${CATALOGUE[@]}" | jq -r '.[] | select(.value) | .name'); do
  [ -n "${VALUE[$e]:-}" ] || die "no value to try \`$e\` with: add it to VALUE in $0"
done
ALONE=()
for e in "${CATALOGUE[@]}"; do
  ALONE+=("$e${VALUE[$e]:+=${VALUE[$e]}}")
done

if [ ${#CONFIGS[@]} -eq 0 ]; then
  mapfile -t CONFIGS < <(jq -r 'keys[]' "$MATRIX_CORPUS/index.json")
fi
for c in "${CONFIGS[@]}"; do
  [ -f "$MATRIX_CORPUS/$c.json" ] || die "no config $c in $MATRIX_CORPUS"
done

# cells MODE SET...: the jobs of MODE, every config x SET.
JOBLIST=()
add_cells() {
  local mode=$1 c s
  shift
  for c in "${CONFIGS[@]}"; do
    for s in "$@"; do
      JOBLIST+=("$mode $c $s")
    done
  done
}
expand_sets() {
  local s
  for s in "$@"; do
    case $s in
    alone) printf '%s\n' "${ALONE[@]}" ;;
    sets) printf '%s\n' "${COMMON_SETS[@]}" ;;
    *) printf '%s\n' "$s" ;;
    esac
  done
}
if [ $FAST -eq 1 ]; then
  [ ${#MODES[@]} -gt 0 ] || MODES=(runc crun-cgroup2)
  for m in "${MODES[@]}"; do
    if [ "$m" = runc ]; then
      mapfile -t S < <(expand_sets "${SETS[@]:-sets}")
    else
      mapfile -t S < <(expand_sets "${SETS[@]:-network.none,security.confined}")
    fi
    add_cells "$m" "${S[@]}"
  done
else
  [ ${#MODES[@]} -gt 0 ] || MODES=("${MODES_ALL[@]}")
  if [ ${#SETS[@]} -gt 0 ]; then
    mapfile -t S < <(expand_sets "${SETS[@]}")
  else
    mapfile -t S < <(expand_sets alone sets)
  fi
  for m in "${MODES[@]}"; do
    add_cells "$m" "${S[@]}"
  done
fi
for m in "${MODES[@]}"; do
  case " ${MODES_ALL[*]} " in *" $m "*) ;; *) die "unknown mode $m" ;; esac
  if [[ "$m" == crun-* ]] && ! [ -x "$CRUN_BIN" ]; then
    die "mode $m needs crun (Debian package crun)"
  fi
done

if [ $LIST -eq 1 ]; then
  printf '%s\n' "${JOBLIST[@]}"
  exit 0
fi

MAIN_PID=$$
if [ -n "$KEEP" ]; then
  W=$(realpath -m "$KEEP")
  rm -rf "$W"
  mkdir -p "$W"
else
  W=$(mktemp -d /tmp/entitle-matrix.XXXXXX)
fi
mkdir -p "$W"/{results,baselines,cells,state,rewrites}
HOLDER_PID=""

cleanup() {
  local d
  [ -z "$HOLDER_PID" ] || kill "$HOLDER_PID" 2>/dev/null
  for d in /sys/fs/cgroup/*/entitle-matrix-"$MAIN_PID" /sys/fs/cgroup/entitle-matrix-"$MAIN_PID"; do
    [ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
  done
  if [ -z "$KEEP" ]; then
    if [ -n "$(ls "$W/cells" 2>/dev/null)" ] && [ "${FAILED:-0}" -gt 0 ]; then
      rm -rf "$W/rootfs" "$W/state"
      echo "run.sh: the failed cells' bundles are in $W/cells" >&2
    else
      rm -rf "$W"
    fi
  fi
}
trap cleanup EXIT

# The shared rootfs: busybox-static, its applets and the probe.
busybox=$(command -v busybox)
if LC_ALL=C readelf -l "$busybox" 2>/dev/null | grep -q 'Requesting program interpreter'; then
  die "needs a static busybox (Debian package busybox-static)"
fi
ROOTFS=$W/rootfs
"$HERE/../busybox-rootfs.sh" "$ROOTFS" "$busybox"
cp "$ENTITLE_PROBE" "$ROOTFS/probe"
# Mount points the configs name, made now (the rootfs is shared, and
# read-only in the containers): a file where a bind mount's source is one.
for c in "${CONFIGS[@]}"; do
  jq -r --arg n "$c" --slurpfile idx "$MATRIX_CORPUS/index.json" '.mounts[]?
    | [.destination, (if .type == "bind" or ((.options // []) | index("bind") or index("rbind"))
        then ($idx[0][$n].bind_sources[.source] // "?" + .source) else "directory" end)] | @tsv' \
    "$MATRIX_CORPUS/$c.json"
done | sort -u | while IFS=$'\t' read -r dest kind; do
  case $dest in /proc/* | /sys/* | /dev/*) continue ;; esac
  [ -e "$ROOTFS$dest" ] && continue
  case $kind in
  "?"*) [ -d "${kind#?}" ] && kind=directory || kind=file ;;
  esac
  if [ "$kind" = file ]; then
    mkdir -p "$(dirname "$ROOTFS$dest")" && : >"$ROOTFS$dest"
  else
    mkdir -p "$ROOTFS$dest"
  fi
done

# A holder of ipc and uts namespaces for configs that join a pod's.
unshare --ipc --uts sleep 100000 &
HOLDER_PID=$!

# What this host is.
HOST_NETNS=$(readlink /proc/self/ns/net)
HOST_PIDNS=$(readlink /proc/self/ns/pid)
HOST_UTSNS=$(readlink /proc/self/ns/uts)
HOST_MNTNS=$(readlink /proc/self/ns/mnt)
HOST_CAPBND=$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)
HOST_CAPS_JSON=$(for i in "${!CAPS[@]}"; do
  (((0x$HOST_CAPBND >> i) & 1)) && echo "CAP_${CAPS[$i]}"
done | jq -R . | jq -s -c .)
HOST_ADAPT=false
[ "$(jq length <<<"$HOST_CAPS_JSON")" -lt ${#CAPS[@]} ] && HOST_ADAPT=true
HOST_LIMITS_JSON='{}'
if ! (((0x$HOST_CAPBND >> 24) & 1)); then
  HOST_ADAPT=true
  HOST_LIMITS_JSON=$(prlimit --pid $$ --raw --noheadings --output RESOURCE,HARD |
    awk '$2 != "unlimited" { print "RLIMIT_" $1, $2 }' |
    jq -R -s -c 'split("\n") | map(select(. != "") | split(" ") | {(.[0]): (.[1] | tonumber)}) | add // {}')
fi
HOST_OOM=$(cat /proc/self/oom_score_adj)
# The cgroup2 hierarchy (the unified one of a hybrid host) and its
# controllers, which runc in the cgroup2-only namespace has.
HOST_V2_ROOT=/nonexistent
for f in /sys/fs/cgroup/cgroup.controllers /sys/fs/cgroup/unified/cgroup.controllers; do
  if [ -f "$f" ]; then
    HOST_V2_ROOT=$(dirname "$f")
    HOST_V2_CONTROLLERS=$(tr ' ' '\n' <"$f" | jq -R . | jq -s -c 'map(select(. != ""))')
    break
  fi
done
: "${HOST_V2_CONTROLLERS:=[]}"

for m in "${MODES[@]}"; do
  case $m in
  crun-*) rt=$CRUN_BIN ;;
  *) rt=$RUNC_BIN ;;
  esac
  jq -n --arg rt "$rt" --arg hook "$ENTITLE_HOOK" --arg state "$W/entitle-state" \
    '{runtime: $rt, hook: $hook, state_dir: $state, grant: ["*", "security.insecure", "network.host"]}' \
    >"$W/admin-$m.json"
done

{
  CATALOGUE_ITEMS=("${ALONE[@]}")
  declare -p CATALOGUE_ITEMS MAIN_PID HOLDER_PID ROOTFS HOST_NETNS HOST_PIDNS HOST_UTSNS HOST_MNTNS HOST_CAPBND \
    HOST_CAPS_JSON HOST_ADAPT HOST_LIMITS_JSON HOST_OOM HOST_V2_CONTROLLERS HOST_V2_ROOT
} >"$W/facts"
export MATRIX_WORK=$W

# The jobs: baselines first (each cell needs its config's), then cells.
n=0
: >"$W/jobs.baseline"
: >"$W/jobs.cells"
declare -A BASE_SEEN=()
for j in "${JOBLIST[@]}"; do
  read -r m c s <<<"$j"
  if [ -z "${BASE_SEEN[$m.$c]:-}" ]; then
    BASE_SEEN[$m.$c]=1
    n=$((n + 1))
    printf 'baseline %05d %s %s\n' "$n" "$m" "$c" >>"$W/jobs.baseline"
  fi
done
for j in "${JOBLIST[@]}"; do
  read -r m c s <<<"$j"
  n=$((n + 1))
  printf 'cell %05d %s %s %s\n' "$n" "$m" "$c" "$s" >>"$W/jobs.cells"
done
CELLS=$(wc -l <"$W/jobs.cells")
echo "matrix: ${#CONFIGS[@]} configs, modes ${MODES[*]}: $CELLS cells ($(wc -l <"$W/jobs.baseline") baselines), $JOBS at once" >&2
START=$(date +%s)
xargs -P "$JOBS" -L 1 "$0" --job <"$W/jobs.baseline"
xargs -P "$JOBS" -L 1 "$0" --job <"$W/jobs.cells"
# Every config entitle wrote for a cell that ran must validate against the
# OCI runtime-spec schema (test/README.md, "Schema"), where the engine's
# config (the normalised baseline) does.
SCHEMA=/usr/share/gocode/src/github.com/opencontainers/runtime-spec/schema
SCHEMA_NOTE="the OCI schema check was not run (needs node, node-ajv, golang-github-opencontainers-specs-dev)"
if [ -f "$SCHEMA/config-schema.json" ] && command -v node >/dev/null &&
  NODE_PATH=/usr/share/nodejs node -e 'require("ajv")' 2>/dev/null; then
  SCHEMA_NOTE="every config entitle wrote for a cell that ran was checked against the OCI schema"
  declare -A INVALID=()
  while IFS= read -r line; do
    INVALID[$(basename "${line%%: *}" .json)]=${line#*: }
  done < <(find "$W/rewrites" -name '*.json' -print0 | sort -z |
    NODE_PATH=/usr/share/nodejs xargs -0 -r node "$ENTITLE_SRCDIR/test/integration/helper/validate-oci.js" "$SCHEMA" || true)
  for id in "${!INVALID[@]}"; do
    IFS=$'\t' read -r st m c e d <"$W/results/$id"
    [ "$st" = run ] || continue
    base=$(grep -l -P "^ok\t$m\t$c\t-\t" "$W"/results/* | head -n 1)
    if [ -n "$base" ] && [ -n "${INVALID[$(basename "$base")]:-}" ]; then
      continue # the engine's config does not validate either
    fi
    printf 'failed\t%s\t%s\t%s\t%s\n' "$m" "$c" "$e" \
      "the config entitle wrote does not validate against the OCI runtime-spec schema: $(cut -c 1-300 <<<"${INVALID[$id]}")" \
      >"$W/results/$id"
  done
fi
ELAPSED=$(($(date +%s) - START))

# The summary.
cat "$W"/results/* >"$W/results.tsv"
cells=$(awk -F'\t' '$4 != "-"' "$W/results.tsv")
count() {
  [ -n "$cells" ] || {
    echo 0
    return
  }
  awk -F'\t' -v s="$1" '$1 == s' <<<"$cells" | wc -l
}
RUN=$(count run) REFUSED=$(count refused) BASELINE=$(count baseline) FAILED=$(count failed)
DONE=$((RUN + REFUSED + BASELINE + FAILED))
[ "$DONE" -eq "$CELLS" ] || FAILED=$((FAILED + CELLS - DONE))

echo
echo "matrix: ${#CONFIGS[@]} configs x $(printf '%s\n' "${JOBLIST[@]}" | awk '{print $3}' | sort -u | wc -l) entitlement lists x modes ${MODES[*]}: $CELLS cells in ${ELAPSED}s"
echo "matrix: run $RUN, refused $REFUSED, baseline-cannot-run $BASELINE, failed $FAILED"
[ "$DONE" -eq "$CELLS" ] || echo "matrix: $((CELLS - DONE)) cells left no result (counted as failed)"
echo "matrix: $SCHEMA_NOTE"
if [ "$BASELINE" -gt 0 ]; then
  echo
  echo "baselines that cannot run here (config, mode: why):"
  awk -F'\t' '$1 == "baseline" && $4 == "-" { print "  " $3 ", " $2 ": " $5 }' "$W/results.tsv" | sort
fi
adapted=$(awk -F'\t' '$4 == "-" && $5 ~ /host adaptation/ { sub(/.*host adaptation: /, "", $5); sub(/\)$/, "", $5); print "  " $3 ", " $2 ": " $5 }' "$W/results.tsv" | sort)
if [ -n "$adapted" ]; then
  echo
  echo "host adaptations (what this host cannot give):"
  echo "$adapted"
fi
if [ "$REFUSED" -gt 0 ]; then
  echo
  echo "refused (count: message):"
  awk -F'\t' '$1 == "refused" { print $5 }' <<<"$cells" | sort | uniq -c | sort -rn | sed 's/^ *\([0-9]*\) /  \1x /'
fi
if [ "$FAILED" -gt 0 ]; then
  echo
  echo "failed, by what happened (count: detail; then the cells):"
  awk -F'\t' '$1 == "failed" { print $5 }' <<<"$cells" | sed 's/ (host adaptation: .*)$//' | sort | uniq -c | sort -rn |
    while read -r k what; do
      echo "  ${k}x $what"
      W_WHAT=$what awk -F'\t' '$1 == "failed" { d = $5; sub(/ \(host adaptation: .*\)$/, "", d); if (d == ENVIRON["W_WHAT"]) print "      " $3 " x " $4 " [" $2 "]" }' <<<"$cells"
    done
  exit 1
fi
exit 0
