# SPDX-License-Identifier: GPL-2.0-or-later
#
# Shared setup of the attack suite (attacks-*.bats, issue 10), on top of
# helpers.bash: a network namespace per test with addresses on its
# loopback, packet captures in it, capability masks, and the seccomp
# profile containerd writes.
#
# Every network attack sends only to addresses on the loopback of the
# test's own namespace ($NETNS), and every capture listens there.

load helpers

# The addresses on $NETNS's lo: A and A6 are the ones a test lists, B,
# B6, C and C6 the ones it does not.
ADDR_A=10.200.0.1
ADDR_B=10.200.0.2
ADDR_C=10.200.0.3
ADDR_A6=fd00:200::1
ADDR_B6=fd00:200::2
ADDR_C6=fd00:200::3

# Every capability the kernel names, in bit order (linux/capability.h).
CAP_NAMES=(CHOWN DAC_OVERRIDE DAC_READ_SEARCH FOWNER FSETID KILL SETGID SETUID
  SETPCAP LINUX_IMMUTABLE NET_BIND_SERVICE NET_BROADCAST NET_ADMIN NET_RAW
  IPC_LOCK IPC_OWNER SYS_MODULE SYS_RAWIO SYS_CHROOT SYS_PTRACE SYS_PACCT
  SYS_ADMIN SYS_BOOT SYS_NICE SYS_RESOURCE SYS_TIME SYS_TTY_CONFIG MKNOD LEASE
  AUDIT_WRITE AUDIT_CONTROL SETFCAP MAC_OVERRIDE MAC_ADMIN SYSLOG WAKE_ALARM
  BLOCK_SUSPEND AUDIT_READ PERFMON BPF CHECKPOINT_RESTORE)

# attack_setup [ADDR...]: common_setup and a network namespace $NETNS
# whose lo is up and holds the A, B, C addresses (v4 and v6) and ADDR....
attack_setup() {
  common_setup
  CAPTURES=()
  SERVERS=()
  BIND_N=0
  declare -gA CAPTURE_PID=()
  make_netns "entitle-atk-$$-$BATS_TEST_NUMBER" "$ADDR_A" "$ADDR_B" "$ADDR_C" "$@" \
    "$ADDR_A6" "$ADDR_B6" "$ADDR_C6"
}

# attack_teardown: stop the captures and servers this test started (by
# pid), common_teardown, and remove $NETNS.
attack_teardown() {
  local pid rc=0
  for pid in "${CAPTURES[@]}" "${SERVERS[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  common_teardown || rc=$?
  drop_netns
  return "$rc"
}

# in_netns COMMAND...: COMMAND, run on the host in $NETNS (outside any
# container: the test's own client or server).
in_netns() {
  ip netns exec "$NETNS" "$@"
}

# capture_start NAME FILTER...: tcpdump on $NETNS's lo, packets matching
# the pcap FILTER written one a line to $BATS_TEST_TMPDIR/NAME.pcap.txt;
# returns once tcpdump listens.
capture_start() {
  local name=$1 out="$BATS_TEST_TMPDIR/$1.pcap.txt" err="$BATS_TEST_TMPDIR/$1.pcap.err"
  shift
  if ! command -v tcpdump >/dev/null; then
    skip "needs tcpdump (Debian package tcpdump)"
  fi
  ip netns exec "$NETNS" tcpdump -i lo -n -l -Z root "$@" >"$out" 2>"$err" 3>&- &
  CAPTURES+=($!)
  CAPTURE_PID[$name]=$!
  for _ in $(seq 100); do
    grep -q '^listening on' "$err" && return 0
    sleep 0.05
  done
  cat "$err" >&2
  echo "tcpdump did not start" >&2
  return 1
}

# capture_stop NAME: stop capture NAME after what was sent reached it;
# captured NAME then prints its packets.
capture_stop() {
  # The packets of a send are on lo when sendto returns; give tcpdump the
  # time to read them from its ring.
  sleep 0.3
  kill -INT "${CAPTURE_PID[$1]}" 2>/dev/null || true
  wait "${CAPTURE_PID[$1]}" 2>/dev/null || true
}

# (tcpdump ends its output with an empty line when interrupted.)
captured() {
  grep . "$BATS_TEST_TMPDIR/$1.pcap.txt" || true
}

# captured_none NAME / captured_some NAME: capture NAME saw nothing / at
# least one packet (they say which, on failure).
captured_none() {
  if [ -n "$(captured "$1")" ]; then
    echo "capture $1 saw packets it should not have:" >&2
    captured "$1" >&2
    return 1
  fi
}

captured_some() {
  if [ -z "$(captured "$1")" ]; then
    echo "capture $1 saw nothing" >&2
    cat "$BATS_TEST_TMPDIR/$1.pcap.err" >&2
    return 1
  fi
}

# server_start NAME COMMAND...: COMMAND in the background, its stdout in
# $BATS_TEST_TMPDIR/NAME.srv; waits for its first line (a server prints
# its port, or "listening", when it listens).
server_start() {
  local name=$1 out="$BATS_TEST_TMPDIR/$1.srv"
  shift
  "$@" </dev/null >"$out" 2>&1 3>&- &
  SERVERS+=($!)
  wait_first_line "$out" >/dev/null
}

# bind_attack RUNNER ENTITLEMENTS CLIENT PROBE...: a container in $NETNS
# (asking ENTITLEMENTS, if any) runs the server /probe PROBE..., which
# prints its port; the test's own client, outside the container (a host
# process in $NETNS), tries it: CLIENT "tcp" connects to A:port (giving
# up after 2 s), "udp" sends one datagram there; "tcp6" and "udp6" do the
# same to A6; "udp6-chain=HEADERS" and "syn6-chain=HEADERS" send a
# datagram or a bare TCP SYN to A6 behind the IPv6 extension headers
# HEADERS (entitle-probe's chain6; from C6 unless CLIENT_FROM says);
# "udp6-reply=HEADERS" sends that datagram as the reply of the peer a
# server `udp-auto ADDR PORT SECS connect` is connected to (from ADDR:PORT,
# to ADDR, the address the server sends from on lo).  With CLIENT_FROM
# set, the client sends from that address of $NETNS (its source).  Sets
# PORT, CLIENT_SAID (the client's word) and SERVER_SAID (the server's
# verdict: accepted, got or none).  A server that could not listen (its
# bind, listen or sendto refused) prints the errno instead of a port:
# then PORT is empty, CLIENT_SAID "no port" and SERVER_SAID the errno.
bind_attack() {
  local runner=$1 ents=$2 client=$3 id="$CTID-$1-$((++BIND_N))" out first
  shift 3
  make_bundle "$BUNDLE" /probe "$@"
  join_netns "$BUNDLE"
  [ -z "$ents" ] || set_entitlements "$BUNDLE" "$ents"
  create_started "$runner" "$BUNDLE" "$id"
  out="$BATS_TEST_TMPDIR/$id.out"
  first=$(wait_first_line "$out")
  if [[ ! "$first" =~ ^[0-9]+$ ]]; then
    PORT="" CLIENT_SAID="no port" SERVER_SAID=$first
    return 0
  fi
  PORT=$first
  local from=()
  [ -z "${CLIENT_FROM:-}" ] || from=(from "$CLIENT_FROM")
  case "$client" in
    tcp) CLIENT_SAID=$(in_netns "$ENTITLE_PROBE" "${from[@]}" connect "$ADDR_A" "$PORT" 2) || true ;;
    udp) CLIENT_SAID=$(in_netns "$ENTITLE_PROBE" "${from[@]}" sendto "$ADDR_A" "$PORT") || true ;;
    tcp6) CLIENT_SAID=$(in_netns "$ENTITLE_PROBE" "${from[@]}" connect "$ADDR_A6" "$PORT" 2) || true ;;
    udp6) CLIENT_SAID=$(in_netns "$ENTITLE_PROBE" "${from[@]}" sendto "$ADDR_A6" "$PORT") || true ;;
    udp6-chain=* | syn6-chain=*)
      CLIENT_SAID=$(in_netns "$ENTITLE_PROBE" chain6 "${CLIENT_FROM:-$ADDR_C6}" "$ADDR_A6" "$PORT" \
        "${client#*=}" "$([[ $client == syn* ]] && echo syn || echo udp)") || true
      ;;
    udp6-reply=*)
      CLIENT_SAID=$(in_netns "$ENTITLE_PROBE" chain6 "$2" "$2" "$PORT" "${client#*=}" udp 2 "$3") || true
      ;;
  esac
  wait_lines "$out" 2
  SERVER_SAID=$(sed -n 2p "$out")
}

# unreached CLIENT: under entitle no client reached the server: it
# listened on a port other than the listed one and nothing connected (nor
# did a SYN get its SYN-ACK), or it could not listen at all (where the
# kernel runs BPF LSM, listen() on a port the kernel chose is refused).
unreached() {
  echo "port \"$PORT\", client: $CLIENT_SAID, server: $SERVER_SAID" >&2
  [ "$PORT" != 8080 ]
  [ "$CLIENT_SAID" != ok ] || [[ "$1" == udp* ]]
  [ "$CLIENT_SAID" != synack ]
  case "$SERVER_SAID" in
    none | E*) ;;
    *) return 1 ;;
  esac
}

# wait_first_line FILE: wait until FILE holds a whole line; print it.
wait_first_line() {
  for _ in $(seq 100); do
    if [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -ge 1 ]; then
      head -n 1 "$1"
      return 0
    fi
    sleep 0.05
  done
  echo "no line in $1 after 5 s:" >&2
  cat "$1" >&2
  return 1
}

# wait_lines FILE N: wait (at most 10 s) until FILE holds N lines.
wait_lines() {
  for _ in $(seq 200); do
    [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -ge "$2" ] && return 0
    sleep 0.05
  done
  echo "fewer than $2 lines in $1:" >&2
  cat "$1" >&2
  return 1
}

# line_is INDEX WANT: line INDEX of $output (from run) is WANT; on a
# mismatch the whole output is shown.
line_is() {
  if [ "${lines[$1]-}" != "$2" ]; then
    printf 'line %s is "%s", expected "%s"; output (status %s):\n%s\nstderr:\n%s\n' \
      "$1" "${lines[$1]-}" "$2" "$status" "$output" "${stderr-}" >&2
    return 1
  fi
}

# cap_mask NAME...: the mask of capabilities NAME... (with or without
# CAP_), as /proc/PID/status prints it.
cap_mask() {
  local name i mask=0
  for name in "$@"; do
    name=${name#CAP_}
    for i in "${!CAP_NAMES[@]}"; do
      [ "${CAP_NAMES[$i]}" = "$name" ] && mask=$((mask | (1 << i)))
    done
  done
  printf '%016x\n' "$mask"
}

# cap_names HEX: the names in mask HEX, space-separated (for messages).
cap_names() {
  local i names=()
  for i in "${!CAP_NAMES[@]}"; do
    (((0x$1 >> i) & 1)) && names+=("CAP_${CAP_NAMES[$i]}")
  done
  echo "${names[*]}"
}

# caps_within HEX ALLOWED-HEX WHAT: mask HEX has no capability outside
# ALLOWED-HEX (the extra ones are named on failure).
caps_within() {
  is_cap_mask "$1" || return 1
  local extra=$(((0x$1 & ~0x$2)))
  if [ "$extra" -ne 0 ]; then
    echo "$3 $1 has capabilities beyond the bound: $(cap_names "$(printf '%x' "$extra")")" >&2
    return 1
  fi
}

# same_mask HEX WANT-HEX WHAT: exactly the same capabilities.
same_mask() {
  is_cap_mask "$1" || return 1
  if [ "$((0x$1))" -ne "$((0x$2))" ]; then
    echo "$3 is $1 ($(cap_names "$1")), expected $2 ($(cap_names "$2"))" >&2
    return 1
  fi
}

# host_cap_names: the capabilities of this shell's bounding set as a JSON
# array of CAP_ names: what `ctr run --privileged` gives a container
# (containerd's WithAllCurrentCapabilities).
host_cap_names() {
  local bnd i
  bnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)
  for i in "${!CAP_NAMES[@]}"; do
    (((0x$bnd >> i) & 1)) && echo "CAP_${CAP_NAMES[$i]}"
  done | jq -R . | jq -s -c .
}

# require_int80: this host runs 32-bit system calls from a 64-bit process.
require_int80() {
  if [ "$(uname -m)" != x86_64 ]; then
    skip "int \$0x80 exists on x86-64 only"
  fi
  if [ "$("$ENTITLE_PROBE" int80 socket unix 2>&1)" != ok ]; then
    skip "this kernel does not run 32-bit system calls (IA32 emulation off)"
  fi
}

# require_io_uring_socket: io_uring with IORING_OP_SOCKET (Linux >= 5.19)
# works on the host.
require_io_uring_socket() {
  local out
  out=$("$ENTITLE_PROBE" uring-socket unix 2>&1) || true
  if [ "$out" != ok ]; then
    skip "io_uring's IORING_OP_SOCKET does not work on this host: $out"
  fi
}

# require_family FAMILY: the host can create a FAMILY socket at all.
require_family() {
  local out
  out=$("$ENTITLE_PROBE" socket "$1" 2>&1) || true
  if [ "$out" != ok ]; then
    skip "this host cannot create $1 sockets: $out"
  fi
}

# containerd_profile FILE: FILE is the linux.seccomp that containerd 1.6
# writes for `ctr run --seccomp` with its default capabilities (Docker's
# default profile, expanded for them).  A private containerd runs one
# container of a one-layer busybox image through a "capture runtime"
# that copies config.json and execs runc.  Captured once per bats run.
containerd_profile() {
  local cache="$BATS_RUN_TMPDIR/containerd-seccomp.json"
  (
    flock 9
    [ -s "$cache" ] || capture_containerd_profile "$cache"
  ) 9>"$BATS_RUN_TMPDIR/containerd-seccomp.lock" || return 1
  cp "$cache" "$1"
}

capture_containerd_profile() {
  local out=$1 dir rc=0 tool
  for tool in containerd ctr containerd-shim-runc-v2; do
    command -v "$tool" >/dev/null || {
      echo "not installed: $tool (Debian package containerd)" >&2
      return 1
    }
  done
  # A short path: the socket's name must fit in sun_path.
  dir=$(mktemp -d /tmp/entitle-atk.XXXXXX)
  capture_containerd_profile_in "$dir" "$out" || rc=$?
  containerd_stop "$dir" "entitle-atk-${dir##*.}"
  return "$rc"
}

capture_containerd_profile_in() {
  local d=$1 out=$2 ns="entitle-atk-${1##*.}"
  # The image: busybox and /bin/true, one layer.
  mkdir -p "$d/rootfs/bin"
  cp "$(command -v busybox)" "$d/rootfs/bin/busybox"
  ln -s busybox "$d/rootfs/bin/true"
  "$OCI_IMAGE" "$d/rootfs" "$d/image.tar" /bin/true

  # The capture runtime: the config.json containerd wrote, then runc.
  cat >"$d/capture-runtime" <<SH
#!/bin/sh
prev=
for a; do
  case "\$prev" in --bundle|-b) cp "\$a/config.json" "$d/captured.json" ;; esac
  case "\$a" in --bundle=*) cp "\${a#--bundle=}/config.json" "$d/captured.json" ;; esac
  prev=\$a
done
exec "$RUNC_BIN" "\$@"
SH
  chmod +x "$d/capture-runtime"

  containerd_start "$d" || return 1
  ctr -a "$d/containerd.sock" -n "$ns" images import --base-name docker.io/library/entitle-atk \
    "$d/image.tar" >/dev/null || {
    cat "$d/containerd.log" >&2
    return 1
  }
  ctr -a "$d/containerd.sock" -n "$ns" run --rm --seccomp --runc-binary "$d/capture-runtime" \
    --runc-root "$d/runc" docker.io/library/entitle-atk:latest "atk-${d##*.}" /bin/true >&2 || return 1
  jq -e '.linux.seccomp | select(.defaultAction != null)' "$d/captured.json" >"$out"
}

# use_profile DIR FILE: the bundle's linux.seccomp is FILE.
use_profile() {
  edit_config "$1" '.linux.seccomp = $p[0]' --slurpfile p "$2"
}

# podman_profile FILE: FILE is the linux.seccomp Podman 4.3 makes of
# Debian's /usr/share/containers/seccomp.json for this architecture and
# the capabilities of the bundle DIR ($BUNDLE): the rules whose
# includes/excludes (capabilities, architectures) match, as
# containers/common's seccomp.LoadProfile expands them.  Docker's default
# profile is its origin (both allow process_vm_readv and ptrace from
# kernel 4.8; containerd's allows only ptrace).
podman_profile() {
  local src=/usr/share/containers/seccomp.json arch
  if [ ! -f "$src" ]; then
    skip "needs Podman's default profile $src (Debian package golang-github-containers-common)"
  fi
  case "$(uname -m)" in
    x86_64) arch=amd64 ;;
    aarch64) arch=arm64 ;;
    *) skip "podman_profile knows x86-64 and arm64 only" ;;
  esac
  jq --arg arch "$arch" --arg scmp "SCMP_ARCH_$(uname -m | tr a-z A-Z)" \
    --argjson caps "$(jq -c '.process.capabilities.bounding // []' "$BUNDLE/config.json")" '
    def has_all($want): ($want // []) - $caps | length == 0;
    def has_none($bad): ($bad // []) - (($bad // []) - $caps) | length == 0;
    def arch_ok($a): ($a // []) | (length == 0 or index($arch) != null);
    {defaultAction, defaultErrnoRet,
     architectures: [.archMap[] | select(.architecture == $scmp) | .architecture, .subArchitectures[]],
     syscalls: [.syscalls[]
       | select(has_all(.includes.caps) and arch_ok(.includes.arches)
                and has_none(.excludes.caps)
                and ((.excludes.arches // []) | index($arch) | not))
       | del(.includes, .excludes, .comment)
       | with_entries(select(.value != null and .value != []))]}' "$src" >"$1"
}
