#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# IPv6 extension-header chains (issue 23, class 1; DESIGN §7
# "network.egress", "network.bind", "network.ingress").  The cgroup
# packet programs walk a packet's extension headers to its transport
# header; a chain they cannot read to its end (longer than they walk, a
# fragment after the first, a header they cannot read past) must not pass
# as a packet "without ports", nor hide a routing header.  Each attack
# runs first under plain runc, where it arrives (the container's listener
# answers the SYN, its socket gets the datagram, the test's capture sees
# the source-routed packet leave); then through entitle, where it must
# not.  entitle-probe's chain6 writes each packet whole on a raw socket,
# from and to addresses on the loopback of the test's own network
# namespace (attack-helpers.bash).

load attack-helpers

setup() {
  attack_setup
}

teardown() {
  attack_teardown
}

# Five Destination Options headers: more than the four the programs
# walked before issue 23.
FIVE=dst,dst,dst,dst,dst
# The longest chain the programs walk (MAX_EXTENSIONS in
# bpf/progs/entitle.bpf.c), and one header more.
LONGEST=dst,dst,dst,dst,dst,dst,dst,dst
TOO_LONG=$LONGEST,dst

@test "network.ingress: a datagram behind five Destination Options headers from an unlisted source does not reach an unconnected socket" {
  CLIENT_FROM=$ADDR_C6 bind_attack rnc "" "udp6-chain=$FIVE" udp-auto "$ADDR_B6" 9 3
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = got ]

  CLIENT_FROM=$ADDR_C6 bind_attack ent "network.ingress=$ADDR_A6/128" "udp6-chain=$FIVE" udp-auto "$ADDR_B6" 9 3
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = none ]
  # The programs read this chain to its end: the listed source's datagram
  # arrives.
  CLIENT_FROM=$ADDR_A6 bind_attack ent "network.ingress=$ADDR_A6/128" "udp6-chain=$FIVE" udp-auto "$ADDR_B6" 9 3
  [ "$SERVER_SAID" = got ]
}

@test "network.ingress: a TCP SYN behind five Destination Options headers from an unlisted source gets no answer" {
  CLIENT_FROM=$ADDR_C6 bind_attack rnc "" "syn6-chain=$FIVE" accept-once 8080 3 inet6
  [ "$CLIENT_SAID" = synack ]

  CLIENT_FROM=$ADDR_C6 bind_attack ent "network.ingress=$ADDR_A6/128:8080" "syn6-chain=$FIVE" accept-once 8080 3 inet6
  [ "$CLIENT_SAID" = none ]
  [ "$SERVER_SAID" = none ]
  # The listed source is answered behind a chain the programs read; behind
  # one they cannot, the port its rule names is unread.
  CLIENT_FROM=$ADDR_A6 bind_attack ent "network.ingress=$ADDR_A6/128:8080" "syn6-chain=$LONGEST" accept-once 8080 3 inet6
  [ "$CLIENT_SAID" = synack ]
  CLIENT_FROM=$ADDR_A6 bind_attack ent "network.ingress=$ADDR_A6/128:8080" "syn6-chain=$TOO_LONG" accept-once 8080 3 inet6
  [ "$CLIENT_SAID" = none ]
}

@test "network.ingress: a datagram in an atomic fragment behind four Destination Options headers from an unlisted source does not reach an unconnected socket" {
  # An atomic fragment (offset 0, no more fragments, RFC 6946) keeps its
  # Fragment header up to the socket: the fifth header of this chain.
  CLIENT_FROM=$ADDR_C6 bind_attack rnc "" udp6-chain=dst,dst,dst,dst,frag udp-auto "$ADDR_B6" 9 3
  [ "$SERVER_SAID" = got ]

  CLIENT_FROM=$ADDR_C6 bind_attack ent "network.ingress=$ADDR_A6/128" udp6-chain=dst,dst,dst,dst,frag udp-auto "$ADDR_B6" 9 3
  [ "$SERVER_SAID" = none ]
  # The first fragment holds the transport header: the programs read on.
  CLIENT_FROM=$ADDR_A6 bind_attack ent "network.ingress=$ADDR_A6/128" udp6-chain=dst,dst,dst,dst,frag udp-auto "$ADDR_B6" 9 3
  [ "$SERVER_SAID" = got ]
}

@test "network.bind: a datagram behind five Destination Options headers does not reach the port an unbound sendto autobound" {
  bind_attack rnc "" "udp6-chain=$FIVE" udp-auto "$ADDR_B6" 9 3
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = got ]

  bind_attack ent network.bind=8080 "udp6-chain=$FIVE" udp-auto "$ADDR_B6" 9 3
  unreached udp6
}

@test "network.bind: a TCP SYN behind five Destination Options headers gets no answer on a port bind(0) chose" {
  bind_attack rnc "" "syn6-chain=$FIVE" listen0 3 inet6
  [ "$CLIENT_SAID" = synack ]

  bind_attack ent network.bind=8080 "syn6-chain=$FIVE" listen0 3 inet6
  unreached syn6
  # On the listed port: answered behind the longest chain the programs
  # read, not behind a longer one.
  bind_attack ent network.bind=8080 "syn6-chain=$LONGEST" accept-once 8080 3 inet6
  [ "$CLIENT_SAID" = synack ]
  bind_attack ent network.bind=8080 "syn6-chain=$TOO_LONG" accept-once 8080 3 inet6
  [ "$CLIENT_SAID" = none ]
}

# What the programs cannot read decides nothing where the socket does: a
# connected socket opens no contact, whatever reaches it.
@test "network.ingress, network.bind: a reply behind more headers than the programs read reaches the container's connected socket" {
  bind_attack rnc "" "udp6-reply=$TOO_LONG" udp-auto "$ADDR_B6" 9 3 connect
  [ "$SERVER_SAID" = got ]

  bind_attack ent "network.ingress=$ADDR_A6/128,network.bind=8080" "udp6-reply=$TOO_LONG" udp-auto "$ADDR_B6" 9 3 connect
  [ "$CLIENT_SAID" = ok ]
  [ "$SERVER_SAID" = got ]
}

# The egress attacks: a datagram whose routing header comes after
# HEADERS, to A6 (listed, the first hop) and on to B6 (unlisted; the
# checksum names it).  What they break is the promise that no
# source-routed packet leaves: the capture EGRESS6 on lo sees each packet
# to A6 that starts with a Destination Options header.  (Where the first
# hop forwards it on is the kernel's: 6.18 delivers it to B6 on the same
# lo, 6.1 does not when other headers come before the routing header.)
EGRESS6="ip6 and dst host $ADDR_A6 and ip6[6] = 60"

# late_route HEADERS: the probe's words for that datagram.
late_route() {
  echo "chain6 $ADDR_C6 $ADDR_A6 9 $1,rt=$ADDR_B6 udp"
}

@test "network.egress: a routing header behind four Destination Options headers does not leave" {
  route=$(late_route dst,dst,dst,dst)
  net_bundle "$BUNDLE" "$route"
  capture_start runc "$EGRESS6"
  run_bundle rnc
  capture_stop runc
  expect_lines "$route: ok"
  captured runc | grep -q 'RT6.*type=4'

  # What a container under network.egress can do: no raw socket.
  set_entitlements "$BUNDLE" "network.egress=$ADDR_A6/128"
  capture_start entitle "$EGRESS6"
  run_bundle ent
  capture_stop entitle
  expect_lines "$route: EPERM"
  captured_none entitle
}

# policy_clear ID BIT: clear BIT in the flags of container ID's policy
# (the first byte of its value in the pinned storage map, keyed by the
# id of its cgroup, both little-endian: bpf/progs/policy.h), as root on
# the host.
policy_clear() {
  local pid id key value
  pid=$(rnc state "$1" | jq .pid)
  id=$(stat -c %i "$(cgroup_dir "$pid")")
  read -ra key <<<"$(printf '%016x' "$id" | sed 's/../& /g' | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')"
  read -ra value <<<"$(bpftool -j map lookup pinned "$ENTITLE_BPF_PINS/entitle_policy" key hex "${key[@]}" |
    jq -r '.value | map(ltrimstr("0x")) | join(" ")')"
  value[0]=$(printf '%02x' $((0x${value[0]} & ~$2)))
  bpftool map update pinned "$ENTITLE_BPF_PINS/entitle_policy" key hex "${key[@]}" value hex "${value[@]}"
}

# The packet program behind the raw-socket rule: two containers in
# $NETNS, "$CTID-runc" under plain runc and "$CTID" through entitle asking
# ENTITLEMENTS, whose policy has no rule against raw sockets (the host's
# root cleared it), so that only the egress program stands between what a
# process given CAP_NET_RAW (an exec through runc directly) sends and the
# wire.
raw_containers() {
  command -v bpftool >/dev/null || skip "needs bpftool (Debian package bpftool)"
  make_bundle "$BUNDLE" /probe sleep 60
  join_netns "$BUNDLE"
  create_started rnc "$BUNDLE" "$CTID-runc"
  set_entitlements "$BUNDLE" "$1"
  create_started ent "$BUNDLE" "$CTID"
  policy_clear "$CTID" 2 # POL_SOCK_NO_RAW
}

# raw_probe ID ARG...: /probe ARG... in container ID, with CAP_NET_RAW.
raw_probe() {
  local id=$1
  shift
  run rnc exec --cap CAP_NET_RAW "$id" /probe "$@"
}

@test "network.egress: the packet program alone drops a routing header behind four Destination Options headers, or behind more than it reads" {
  raw_containers "network.egress=$ADDR_A6/128"
  local n=0 chain
  for chain in dst,dst,dst,dst "$LONGEST"; do
    n=$((n + 1))
    capture_start "runc-$n" "$EGRESS6"
    # shellcheck disable=SC2046 # the probe's words
    raw_probe "$CTID-runc" $(late_route "$chain")
    capture_stop "runc-$n"
    expect_lines ok
    captured "runc-$n" | grep -q 'RT6.*type=4'

    capture_start "entitle-$n" "$EGRESS6"
    # shellcheck disable=SC2046
    raw_probe "$CTID" $(late_route "$chain")
    capture_stop "entitle-$n"
    expect_lines EPERM
    captured_none "entitle-$n"
  done
  # The datagram without the routing header is the program's to let
  # through: the listed destination takes it (and the raw socket the test
  # relies on was there).
  raw_probe "$CTID" chain6 "$ADDR_C6" "$ADDR_A6" 9 dst,dst,dst,dst udp
  expect_lines ok
}

# AH counts its length in 4-byte words, the other headers in 8-byte units.
# A6 is listed for every port, B6 for port 9 only.
@test "network.egress: the packet program alone reads past an Authentication Header: no routing header behind it leaves, a listed port does" {
  raw_containers "network.egress=$ADDR_A6/128,network.egress=$ADDR_B6/128:9"
  # No receiver holds the header's key: the first hop drops the packet,
  # so what is seen is the source-routed packet leaving.
  filter="ip6 and dst host $ADDR_A6 and ip6[6] = 51"
  capture_start runc "$filter"
  raw_probe "$CTID-runc" chain6 "$ADDR_C6" "$ADDR_A6" 9 "ah,rt=$ADDR_B6" udp
  capture_stop runc
  expect_lines ok
  captured_some runc

  capture_start entitle "$filter"
  raw_probe "$CTID" chain6 "$ADDR_C6" "$ADDR_A6" 9 "ah,rt=$ADDR_B6" udp
  capture_stop entitle
  expect_lines EPERM
  captured_none entitle

  # The port behind AH is read: the listed one leaves, another does not.
  raw_probe "$CTID-runc" chain6 "$ADDR_C6" "$ADDR_B6" 10 ah udp
  expect_lines ok
  raw_probe "$CTID" chain6 "$ADDR_C6" "$ADDR_B6" 9 ah udp
  expect_lines ok
  raw_probe "$CTID" chain6 "$ADDR_C6" "$ADDR_B6" 10 ah udp
  expect_lines EPERM
}
