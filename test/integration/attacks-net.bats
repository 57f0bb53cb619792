#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Network attacks on network.egress, network.bind and network.none (issue
# 10, classes 6, 7, 8, 13 and 15; DESIGN §7 "network.egress",
# "network.bind", "Network namespace").  Each attack runs first under
# plain runc, where a packet capture (or a listener) in the test's own
# network namespace sees it work; then through entitle with the
# entitlement, where the capture must see nothing and the probe report
# the errno.  Every packet goes to an address on the loopback of that
# namespace (attack-helpers.bash: A, B, C and their v6 twins; only A is
# ever listed).

load attack-helpers

setup() {
  attack_setup
}

teardown() {
  attack_teardown
}

# Where an unlisted first hop or destination would be seen on lo.
UDP_TO_B="udp and dst host $ADDR_B and dst port 9"

# ping_sysctl DIR: ping sockets for every group, as Docker sets it.
ping_sysctl() {
  edit_config "$1" '.linux.sysctl["net.ipv4.ping_group_range"] = "0 2147483647"'
}

# attack RUNNER CAPTURE FILTER: run $BUNDLE through RUNNER in the
# foreground while capture CAPTURE records FILTER.
attack() {
  capture_start "$2" "$3"
  run_bundle "$1"
  capture_stop "$2"
}

@test "network.egress: a raw IP_HDRINCL socket sends nothing to an unlisted address (Docker's default caps)" {
  net_bundle "$BUNDLE" "rawsend $ADDR_B" caps
  # Docker's default set has CAP_NET_RAW.
  jq -e '.process.capabilities.effective | index("CAP_NET_RAW")' "$BUNDLE/config.json" >/dev/null
  attack rnc runc "$UDP_TO_B"
  line_is 0 "rawsend $ADDR_B: ok"
  captured_some runc

  set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32"
  attack ent entitle "$UDP_TO_B"
  line_is 0 "rawsend $ADDR_B: EPERM"
  captured_none entitle
  lacks_cap "$(cap_line "$output" CapEff)" $CAP_NET_RAW
  lacks_cap "$(cap_line "$output" CapBnd)" $CAP_NET_RAW
  lacks_cap "$(cap_line "$output" CapBnd)" $CAP_NET_ADMIN
}

@test "network.egress: an AF_PACKET socket sends no frame to an unlisted address (Docker's default caps)" {
  net_bundle "$BUNDLE" "packetsend lo 00:00:00:00:00:00 $ADDR_B"
  attack rnc runc "$UDP_TO_B"
  expect_lines "packetsend lo 00:00:00:00:00:00 $ADDR_B: ok"
  captured_some runc

  set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32"
  attack ent entitle "$UDP_TO_B"
  expect_lines "packetsend lo 00:00:00:00:00:00 $ADDR_B: EPERM"
  captured_none entitle
}

@test "network.egress: no ICMP echo request leaves for an unlisted address through a ping socket" {
  net_bundle "$BUNDLE" "ping $ADDR_B" "ping $ADDR_B6"
  ping_sysctl "$BUNDLE"
  filter="(icmp and icmp[icmptype] = icmp-echo and dst host $ADDR_B) or (icmp6 and ip6[40] = 128 and dst host $ADDR_B6)"
  attack rnc runc "$filter"
  expect_lines "ping $ADDR_B: ok" "ping $ADDR_B6: ok"
  captured_some runc
  [ "$(captured runc | grep -c 'echo request')" -eq 2 ]

  # Whatever the rung: network.user drops CAP_NET_RAW, not ping sockets.
  # The packet is dropped on its way out (skb_egress); IPv4's ping socket
  # reports that to the sender, IPv6's does not (icmpv6_push_pending_frames
  # drops the error): what the test holds to is that nothing leaves.
  for rung in "" network.user,; do
    set_entitlements "$BUNDLE" "${rung}network.egress=$ADDR_A/32,network.egress=$ADDR_A6/128"
    attack ent "entitle-$rung" "$filter"
    [ "${lines[0]}" = "ping $ADDR_B: EPERM" ]
    [[ "${lines[1]}" == "ping $ADDR_B6: "@(EPERM|ok) ]]
    captured_none "entitle-$rung"
  done
}

@test "network.egress: a ping to a listed address (a rule without ports) still leaves" {
  net_bundle "$BUNDLE" "ping $ADDR_A"
  ping_sysctl "$BUNDLE"
  filter="icmp and icmp[icmptype] = icmp-echo and dst host $ADDR_A"
  attack rnc runc "$filter"
  expect_lines "ping $ADDR_A: ok"
  captured_some runc

  set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32"
  attack ent entitle "$filter"
  expect_lines "ping $ADDR_A: ok"
  captured_some entitle
}

@test "network.egress: an IPv6 segment routing header sends nothing to an unlisted first hop" {
  # The sockaddr (A6, listed) is allowed: a plain datagram to it leaves.
  net_bundle "$BUNDLE" "srcroute6 $ADDR_B6 $ADDR_A6 5000" "sendto $ADDR_A6 5000"
  filter="ip6 and dst host $ADDR_B6"
  attack rnc runc "$filter"
  expect_lines "srcroute6 $ADDR_B6 $ADDR_A6 5000: ok" "sendto $ADDR_A6 5000: ok"
  captured_some runc
  captured runc | grep -q 'RT6.*type=4'

  set_entitlements "$BUNDLE" "network.egress=$ADDR_A6/128"
  attack ent entitle "$filter"
  expect_lines "srcroute6 $ADDR_B6 $ADDR_A6 5000: EPERM" "sendto $ADDR_A6 5000: ok"
  captured_none entitle
}

@test "network.egress: an IPv4 loose source route sends nothing to an unlisted first hop" {
  net_bundle "$BUNDLE" "lsrr $ADDR_B $ADDR_A 5000" "sendto $ADDR_A 5000"
  filter="ip and dst host $ADDR_B"
  attack rnc runc "$filter"
  expect_lines "lsrr $ADDR_B $ADDR_A 5000: ok" "sendto $ADDR_A 5000: ok"
  captured_some runc

  set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32"
  attack ent entitle "$filter"
  expect_lines "lsrr $ADDR_B $ADDR_A 5000: EPERM" "sendto $ADDR_A 5000: ok"
  captured_none entitle
}

# The kernel runs no cgroup setsockopt program for the 32-bit setsockopt
# (issue 10, class 8): the route must be stopped on the way out, or the
# 32-bit path closed.  With containerd's profile, which allows the x86
# ABI.
@test "network.egress: source routes set through int 0x80 send nothing to an unlisted first hop (containerd's profile)" {
  require_int80
  containerd_profile "$BATS_TEST_TMPDIR/containerd.json"
  net_bundle "$BUNDLE" "int80 srcroute6 $ADDR_B6 $ADDR_A6 5000" "int80 lsrr $ADDR_B $ADDR_A 5000"
  use_profile "$BUNDLE" "$BATS_TEST_TMPDIR/containerd.json"
  filter="dst host $ADDR_B or dst host $ADDR_B6"
  attack rnc runc "$filter"
  expect_lines "int80 srcroute6 $ADDR_B6 $ADDR_A6 5000: ok" "int80 lsrr $ADDR_B $ADDR_A 5000: ok"
  [ "$(captured runc | grep -c .)" -ge 2 ]

  set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32,network.egress=$ADDR_A6/128"
  attack ent entitle "$filter"
  [ "${#lines[@]}" -eq 2 ]
  stopped=0
  for line in "${lines[@]}"; do
    case "$line" in
      *": EPERM" | *": SIGSYS") stopped=$((stopped + 1)) ;;
      *) echo "not stopped: $line" >&2 ;;
    esac
  done
  captured_none entitle
  [ "$stopped" -eq 2 ]
}

# io_uring's connect and sendmsg run the same cgroup programs as the
# syscalls (the hooks are in the protocol code); containerd's profile
# allows io_uring.
@test "network.egress: io_uring connect and sendmsg reach no unlisted address (containerd's profile)" {
  require_io_uring_socket
  containerd_profile "$BATS_TEST_TMPDIR/containerd.json"
  net_bundle "$BUNDLE" "uring-connect $ADDR_B 80" "uring-sendto $ADDR_B 9" "uring-connect $ADDR_B6 80"
  use_profile "$BUNDLE" "$BATS_TEST_TMPDIR/containerd.json"
  filter="dst host $ADDR_B or dst host $ADDR_B6"
  attack rnc runc "$filter"
  expect_lines "uring-connect $ADDR_B 80: ECONNREFUSED" "uring-sendto $ADDR_B 9: ok" \
    "uring-connect $ADDR_B6 80: ECONNREFUSED"
  [ "$(captured runc | grep -c .)" -ge 3 ]

  set_entitlements "$BUNDLE" "network.egress=$ADDR_A/32,network.egress=$ADDR_A6/128"
  attack ent entitle "$filter"
  # EPERM from the cgroup program, or from io_uring_setup if entitle
  # closes io_uring altogether.
  expect_lines "uring-connect $ADDR_B 80: EPERM" "uring-sendto $ADDR_B 9: EPERM" \
    "uring-connect $ADDR_B6 80: EPERM"
  captured_none entitle
}

@test "network.bind: a port bind(0) chose is unreachable from outside" {
  bind_attack rnc "" tcp listen0 3
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = accepted ]

  bind_attack ent network.bind=8080 tcp listen0 3
  unreached tcp
}

@test "network.bind: a port listen() autobound is unreachable from outside" {
  bind_attack rnc "" tcp listen-auto 3
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = accepted ]

  bind_attack ent network.bind=8080 tcp listen-auto 3
  unreached tcp
}

@test "network.bind: where the kernel runs BPF LSM, listen() itself is refused on a port the kernel would choose" {
  lsm=$("$ENTITLE" probe --json)
  [ "$(jq -r .lsm_cgroup <<<"$lsm")" = true ] || skip "this kernel does not run lsm_cgroup programs: $(jq -r .lsm_cgroup_error <<<"$lsm")"
  # Under plain runc the autobound listener is reached.
  bind_attack rnc "" tcp listen-auto 3
  [ "$SERVER_SAID" = accepted ]
  bind_attack ent network.bind=8080 tcp listen-auto 3
  [ "$SERVER_SAID" = EPERM ]
}

@test "network.bind: a datagram from outside does not reach the port an unbound sendto autobound" {
  # The container sends to B:9; the test's datagram comes from elsewhere
  # to A:port, so it is no reply.
  bind_attack rnc "" udp udp-auto "$ADDR_B" 9 3
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = got ]

  bind_attack ent network.bind=8080 udp udp-auto "$ADDR_B" 9 3
  unreached udp
}

@test "network.bind: IPv6 ports the kernel chose are unreachable from outside too" {
  bind_attack rnc "" tcp6 listen0 3 inet6
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = accepted ]
  bind_attack rnc "" udp6 udp-auto "$ADDR_B6" 9 3
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = got ]

  bind_attack ent network.bind=8080 tcp6 listen0 3 inet6
  unreached tcp6
  bind_attack ent network.bind=8080 udp6 udp-auto "$ADDR_B6" 9 3
  unreached udp6
}

@test "network.bind: a listener on the listed port is reachable, with and without entitle" {
  bind_attack rnc "" tcp accept-once 8080 3
  [ "$PORT" = 8080 ]
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = accepted ]

  bind_attack ent network.bind=8080 tcp accept-once 8080 3
  [ "$PORT" = 8080 ]
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = accepted ]
}

@test "network.bind: the replies on the container's own outbound connection pass" {
  net_bundle "$BUNDLE" "fetch $ADDR_A 7000 2"
  server_start srv-runc in_netns "$ENTITLE_PROBE" accept-once 7000 5
  run_bundle rnc
  expect_lines "fetch $ADDR_A 7000 2: got"

  server_start srv-entitle in_netns "$ENTITLE_PROBE" accept-once 7000 5
  set_entitlements "$BUNDLE" network.bind=8080
  run_bundle ent
  expect_lines "fetch $ADDR_A 7000 2: got"
  wait_lines "$BATS_TEST_TMPDIR/srv-entitle.srv" 2
  [ "$(sed -n 2p "$BATS_TEST_TMPDIR/srv-entitle.srv")" = accepted ]
}

@test "network.none: a config naming the host's network namespace by path does not keep it" {
  # Docker's --network host names the namespace by path, /proc/1/ns/net.
  # Where PID 1 is out of this test's reach (a sandbox's init), the test
  # names its own, which is the same namespace.
  host=$(readlink /proc/self/ns/net)
  path=/proc/1/ns/net
  [ "$(readlink $path 2>/dev/null)" = "$host" ] || path=/proc/$$/ns/net
  name="entitle-atk-$$-$BATS_TEST_NUMBER"
  make_bundle "$BUNDLE" /bin/sh -c "readlink /proc/self/ns/net; /probe abstract-connect $name"
  edit_config "$BUNDLE" '.linux.namespaces = ([.linux.namespaces[] | select(.type != "network")]
      + [{type: "network", path: $p}])' --arg p "$path"
  server_start abstract "$ENTITLE_PROBE" abstract-listen "$name" 5
  run_bundle rnc
  expect_lines "$host" ok
  wait_lines "$BATS_TEST_TMPDIR/abstract.srv" 2
  [ "$(sed -n 2p "$BATS_TEST_TMPDIR/abstract.srv")" = accepted ]

  server_start abstract2 "$ENTITLE_PROBE" abstract-listen "$name" 5
  set_entitlements "$BUNDLE" network.none
  snapshot
  run_bundle ent
  if [ "$status" -ne 0 ] && [[ "$stderr" == "entitle: "* ]]; then
    # DESIGN §7 allows a refusal ...
    refused network.none
  else
    # ... or an empty namespace in place of the host's.
    [ "$status" -eq 0 ] || [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 2 ]
    [ "${lines[0]}" != "$host" ]
    [ "${lines[1]}" = ECONNREFUSED ]
  fi
  # Nothing reached the host's listener.
  [ "$(cat "$BATS_TEST_TMPDIR/abstract2.srv")" = listening ]
}

# network.ingress (DESIGN §7): only the listed sources open a contact with
# the container; each attack first reaches it under plain runc.

@test "network.ingress: a TCP client from an unlisted source does not reach the listener; a listed one does" {
  CLIENT_FROM=$ADDR_B bind_attack rnc "" tcp accept-once 8080 3
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = accepted ]

  CLIENT_FROM=$ADDR_B bind_attack ent "network.ingress=$ADDR_C/32,network.ingress=$ADDR_A/32:8080" tcp accept-once 8080 3
  [ "$CLIENT_SAID" = ETIMEDOUT ]
  [ "$SERVER_SAID" = none ]
  CLIENT_FROM=$ADDR_A bind_attack ent "network.ingress=$ADDR_C/32,network.ingress=$ADDR_A/32:8080" tcp accept-once 8080 3
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = accepted ]
}

@test "network.ingress: a listed source reaches only the ports its rule names" {
  CLIENT_FROM=$ADDR_A bind_attack ent "network.ingress=$ADDR_A/32:9090" tcp accept-once 8080 3
  [ "$CLIENT_SAID" = ETIMEDOUT ]
  [ "$SERVER_SAID" = none ]
}

@test "network.ingress: a datagram from an unlisted source does not reach an unconnected socket (a port the kernel chose too)" {
  CLIENT_FROM=$ADDR_C bind_attack rnc "" udp udp-auto "$ADDR_B" 9 3
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = got ]

  CLIENT_FROM=$ADDR_C bind_attack ent "network.ingress=$ADDR_A/32" udp udp-auto "$ADDR_B" 9 3
  [ "$SERVER_SAID" = none ]
  CLIENT_FROM=$ADDR_A bind_attack ent "network.ingress=$ADDR_A/32" udp udp-auto "$ADDR_B" 9 3
  [ "$SERVER_SAID" = got ]
}

@test "network.ingress: IPv6 sources are held to the list too" {
  CLIENT_FROM=$ADDR_B6 bind_attack rnc "" tcp6 accept-once 8080 3 inet6
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = accepted ]

  CLIENT_FROM=$ADDR_B6 bind_attack ent "network.ingress=$ADDR_A6/128" tcp6 accept-once 8080 3 inet6
  [ "$CLIENT_SAID" = ETIMEDOUT ]
  [ "$SERVER_SAID" = none ]
  CLIENT_FROM=$ADDR_A6 bind_attack ent "network.ingress=$ADDR_A6/128" tcp6 accept-once 8080 3 inet6
  [ "$SERVER_SAID" = accepted ]
}

@test "network.ingress: the replies on the container's own outbound connection pass, from an unlisted peer" {
  net_bundle "$BUNDLE" "fetch $ADDR_B 7000 2"
  server_start srv-entitle in_netns "$ENTITLE_PROBE" accept-once 7000 5
  set_entitlements "$BUNDLE" "network.ingress=$ADDR_A/32"
  run_bundle ent
  expect_lines "fetch $ADDR_B 7000 2: got"
}

@test "network.ingress: no raw or packet sockets, which would read past the programs; refused beside network.none or a rung that gives them" {
  net_bundle "$BUNDLE" "socket raw" "socket packet"
  run_bundle rnc
  expect_lines "socket raw: ok" "socket packet: ok"
  set_entitlements "$BUNDLE" "network.ingress=$ADDR_A/32"
  run_bundle ent
  expect_lines "socket raw: EPERM" "socket packet: EPERM"
  for rung in network.none network.proxy network.admin; do
    set_entitlements "$BUNDLE" "network.ingress=$ADDR_A/32,$rung"
    run_bundle ent
    [ "$status" -ne 0 ]
    [ "$stderr" = "entitle: entitlement \`network.ingress\` contradicts \`$rung\`" ]
  done
}

