/* SPDX-License-Identifier: GPL-2.0-or-later */
/* entitle's cgroup programs (DESIGN §4).  The hook attaches them to each
   container's cgroup; the policy is the cgroup's local storage
   (bpf/progs/policy.h says why).  Returning 0 makes the kernel refuse the call
   with EPERM (sock_addr, sock_create, sysctl) or drop the packet (skb;
   the sender then gets EPERM).  Each program decides first, then notes a
   denial (or, under entitle learn, a use) in the store, which never
   changes the verdict; an allowed call pays one test of the flags for it.
   GPL: the kernel gives cgroup programs some helpers only under a
   GPL-compatible licence.  */

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "policy.h"
#include "rules.h"
#include "storage.h"

#define SOCK_RAW 3

#define IPPROTO_HOPOPTS  0
#define IPPROTO_ICMP     1
#define IPPROTO_TCP      6
#define IPPROTO_UDP      17
#define IPPROTO_ROUTING  43
#define IPPROTO_FRAGMENT 44
#define IPPROTO_ESP      50
#define IPPROTO_AH       51
#define IPPROTO_ICMPV6   58
#define IPPROTO_DSTOPTS  60
#define IPPROTO_MH       135
#define IPPROTO_UDPLITE  136
#define IPPROTO_HIP      139
#define IPPROTO_SHIM6    140

#define TCP_SYN 0x02
#define TCP_ACK 0x10

#define TCP_CLOSE  7
#define TCP_LISTEN 10

/* The IPv6 extension headers the skb programs walk to the transport
   header (parse6); a longer chain is unreadable.  The kernel's own
   sockets write at most four (Hop-by-Hop, Destination Options, Routing,
   Destination Options), IPsec adds AH and the kernel's fragmentation a
   Fragment header (an atomic one, RFC 6946, reaches the socket): twice
   that is room enough.  */
#define MAX_EXTENSIONS 8

char LICENSE[] SEC ("license") = "GPL";

/* The store of records (bpf/progs/policy.h): shared by every container,
   pinned by name, read by `entitle why` and `entitle learn`.  */
struct
{
  __uint (type, BPF_MAP_TYPE_ARRAY);
  __type (key, __u32);
  __type (value, struct entitle_event);
  __uint (max_entries, ENTITLE_EVENTS);
  __uint (pinning, LIBBPF_PIN_BY_NAME);
} entitle_events SEC (".maps");

struct
{
  __uint (type, BPF_MAP_TYPE_ARRAY);
  __type (key, __u32);
  __type (value, struct entitle_store_head);
  __uint (max_entries, 1);
  __uint (pinning, LIBBPF_PIN_BY_NAME);
} entitle_events_head SEC (".maps");

#define MIX 0x9e3779b97f4a7c15ull

/* What a use is, as a number that is never 0 (an empty slot).  */
static __always_inline __u32
use_hash (const struct entitle_event *ev)
{
  const __u64 *name = (const __u64 *)ev->name;
  __u64 h = ((__u64)ev->hook << 48) ^ ((__u64)ev->family << 32) ^ ((__u64)ev->type << 16) ^ ev->port;

  h = h * MIX ^ (((__u64)ev->addr[0] << 32) | ev->addr[1]);
  h = h * MIX ^ (((__u64)ev->addr[2] << 32) | ev->addr[3]);
  for (int i = 0; i < ENTITLE_SYSCTL_NAME / 8; i++)
    h = h * MIX ^ name[i];
  return (__u32)(h >> 32) | 1;
}

/* May the cgroup write @ev now?  A use already recorded is not again; a
   record beyond the window's budget is only counted.  */
static __always_inline int
budget (struct entitle_budget *b, const struct entitle_event *ev, __u64 now)
{
  __u32 limit = ENTITLE_REPORT_BURST;

  if (ev->rule == 0)
    {
      __u32 h = use_hash (ev), *seen = &b->seen[h % ENTITLE_LEARN_SEEN];

      if (*seen == h)
        return 0;
      *seen = h;
      limit = ENTITLE_LEARN_BURST;
    }
  if (now - b->window > ENTITLE_REPORT_WINDOW_NS)
    {
      b->window = now;
      b->used = 0;
    }
  if (b->used >= limit)
    {
      __sync_fetch_and_add (&b->dropped, 1);
      return 0;
    }
  __sync_fetch_and_add (&b->used, 1);
  return 1;
}

/* Write @ev to the store when the policy asks for it (a denial under
   POL_REPORT, a use under POL_LEARN) and the budget allows.  The slot's
   sequence number is written last, so a reader never takes a half-written
   record for a whole one.  */
static __always_inline void
note (struct entitle_policy *p, struct entitle_event *ev)
{
  __u64 now = bpf_ktime_get_boot_ns (), seq;
  struct entitle_store_head *head;
  struct entitle_event *slot;
  __u32 zero = 0, idx;

  if (!(p->flags & (ev->rule ? POL_REPORT : POL_LEARN)) || !budget (&p->budget, ev, now))
    return;
  head = bpf_map_lookup_elem (&entitle_events_head, &zero);
  if (head == NULL)
    return;
  bpf_spin_lock (&head->lock);
  seq = ++head->next;
  bpf_spin_unlock (&head->lock);
  idx = seq % ENTITLE_EVENTS;
  slot = bpf_map_lookup_elem (&entitle_events, &idx);
  if (slot == NULL)
    return;
  ev->seq = 0;
  ev->time = now;
  ev->cgroup = p->cgroup;
  ev->dropped = p->budget.dropped;
  p->budget.dropped = 0;
  slot->seq = 0;
  __builtin_memcpy (slot, ev, sizeof (*ev));
  asm volatile("" ::
                   : "memory");
  slot->seq = seq;
}

/* A denial or use of an address (connect, sendmsg, bind, packets).  */
static __always_inline void
note_addr (struct entitle_policy *p, __u32 rule, __u32 hook, __u16 family, __u16 type, const __u32 *a,
           __u16 port, __u32 info)
{
  struct entitle_event ev = { .rule = rule, .hook = hook, .family = family, .type = type, .port = port, .info = info };

  __builtin_memcpy (ev.addr, a, sizeof (ev.addr));
  note (p, &ev);
}

/* The rule that denies the socket @sk, or 0.  The kernel runs this hook
   for inet and inet6 sockets only; seccomp and the dropped capabilities
   stop the other families.  */
static __always_inline __u32
sock_denied (const struct entitle_policy *p, const struct bpf_sock *sk)
{
  if ((p->flags & POL_SOCK_UNIX_ONLY) && sk->family != AF_UNIX)
    return POL_SOCK_UNIX_ONLY;
  if ((p->flags & POL_SOCK_NO_RAW) && (sk->family == AF_INET || sk->family == AF_INET6) && sk->type == SOCK_RAW)
    return POL_SOCK_NO_RAW;
  return 0;
}

SEC ("cgroup/sock_create")
int
entitle_sock_create (struct bpf_sock *sk)
{
  struct entitle_policy *p = policy ();
  __u32 rule;

  if (!(p->flags & (POL_SOCK_UNIX_ONLY | POL_SOCK_NO_RAW | POL_LEARN)))
    return 1;
  rule = sock_denied (p, sk);
  if (rule || (p->flags & POL_LEARN))
    {
      struct entitle_event ev = { .rule = rule, .hook = BPF_CGROUP_INET_SOCK_CREATE, .family = sk->family, .type = sk->type, .protocol = sk->protocol };
      note (p, &ev);
    }
  return !rule;
}

/* The verdict on a destination (connect, sendmsg): a container without
   an egress list (nor learn's counting) leaves at the first test.  */
static __always_inline int
connect_verdict (struct entitle_policy *p, __u32 hook, __u16 family, __u16 type, const __u32 *a, __u16 port)
{
  __u32 rule = POL_EGRESS;

  if ((p->flags & POL_EGRESS) == 0
      || (family == AF_INET ? egress_allowed (p, AF_INET, a, port) : egress6_allowed (p, a, port)))
    rule = 0;
  if (rule || (p->flags & POL_LEARN))
    note_addr (p, rule, hook, family, type, a, port, 0);
  return !rule;
}

static __always_inline int
connect4 (struct bpf_sock_addr *ctx, __u32 hook)
{
  struct entitle_policy *p = policy ();
  __u32 a[4] = { ctx->user_ip4, 0, 0, 0 };

  if (!(p->flags & (POL_EGRESS | POL_LEARN)))
    return 1;
  return connect_verdict (p, hook, AF_INET, ctx->type, a, bpf_ntohs ((__u16)ctx->user_port));
}

static __always_inline int
connect6 (struct bpf_sock_addr *ctx, __u32 hook)
{
  struct entitle_policy *p = policy ();
  __u32 a[4] = { ctx->user_ip6[0], ctx->user_ip6[1], ctx->user_ip6[2], ctx->user_ip6[3] };

  if (!(p->flags & (POL_EGRESS | POL_LEARN)))
    return 1;
  return connect_verdict (p, hook, AF_INET6, ctx->type, a, bpf_ntohs ((__u16)ctx->user_port));
}

SEC ("cgroup/connect4")
int
entitle_connect4 (struct bpf_sock_addr *ctx)
{
  return connect4 (ctx, BPF_CGROUP_INET4_CONNECT);
}

SEC ("cgroup/sendmsg4")
int
entitle_sendmsg4 (struct bpf_sock_addr *ctx)
{
  return connect4 (ctx, BPF_CGROUP_UDP4_SENDMSG);
}

SEC ("cgroup/connect6")
int
entitle_connect6 (struct bpf_sock_addr *ctx)
{
  return connect6 (ctx, BPF_CGROUP_INET6_CONNECT);
}

SEC ("cgroup/sendmsg6")
int
entitle_sendmsg6 (struct bpf_sock_addr *ctx)
{
  return connect6 (ctx, BPF_CGROUP_UDP6_SENDMSG);
}

/* Map the port first (bind-map=80:8080 lands on 8080), then check the
   result against network.bind.  Port 0 asks the kernel to choose one:
   allowed here, and unreachable from outside (entitle_skb_ingress).  */
static __always_inline int
bind_check (struct bpf_sock_addr *ctx, __u32 hook, __u16 family)
{
  struct entitle_policy *p = policy ();
  __u16 port = bpf_ntohs ((__u16)ctx->user_port);
  __u32 rule, a[4] = {};

  if (p->flags & POL_BIND_MAP)
    for (__u32 i = 0; i < ENTITLE_MAX_RANGES; i++)
      if (i < p->n_map && port == p->map[i].lo)
        {
          port = p->map[i].hi;
          ctx->user_port = bpf_htons (port);
          break;
        }
  rule = (p->flags & POL_BIND) && port != 0 && !in_ranges (p->bind, p->n_bind, port) ? POL_BIND : 0;
  if (rule || (p->flags & POL_LEARN))
    note_addr (p, rule, hook, family, ctx->type, a, port, 0);
  return !rule;
}

SEC ("cgroup/bind4")
int
entitle_bind4 (struct bpf_sock_addr *ctx)
{
  return bind_check (ctx, BPF_CGROUP_INET4_BIND, AF_INET);
}

SEC ("cgroup/bind6")
int
entitle_bind6 (struct bpf_sock_addr *ctx)
{
  return bind_check (ctx, BPF_CGROUP_INET6_BIND, AF_INET6);
}

/* Writes are denied but to the keys the config's linux.sysctl sets: the
   runtime writes those after the createRuntime hook attached us.  */
static __always_inline int
sysctl_listed (const struct entitle_policy *p, const __u64 *name)
{
  for (__u32 i = 0; i < ENTITLE_MAX_SYSCTLS; i++)
    {
      const __u64 *key = (const __u64 *)p->sysctl[i];
      __u64 diff = 0;

      if (i >= p->n_sysctl)
        break;
      for (__u32 w = 0; w < ENTITLE_SYSCTL_NAME / 8; w++)
        diff |= key[w] ^ name[w];
      if (diff == 0)
        return 1;
    }
  return 0;
}

SEC ("cgroup/sysctl")
int
entitle_sysctl (struct bpf_sysctl *ctx)
{
  struct entitle_policy *p = policy ();
  struct entitle_event ev = { .hook = BPF_CGROUP_SYSCTL };
  int named;

  if (!ctx->write || !(p->flags & (POL_SYSCTL_RO | POL_LEARN)))
    return 1;
  /* A name longer than any key entitle stores is not one of them (and
     is recorded cut short).  */
  named = bpf_sysctl_get_name (ctx, ev.name, sizeof (ev.name), 0) >= 0;
  if ((p->flags & POL_SYSCTL_RO) && !(named && sysctl_listed (p, (const __u64 *)ev.name)))
    ev.rule = POL_SYSCTL_RO;
  note (p, &ev);
  return !ev.rule;
}

/* What the skb programs need of a packet: its destination address (the
   peer going out) and its source (the peer coming in), the transport
   protocol and its destination port, TCP's flags, and whether the IP
   layer routes it by the sender's choice (IPv4 options, an IPv6 routing
   header).  */
struct packet
{
  __u32 addr[4];
  __u32 src[4];
  __u16 family, port;
  __u8 proto, tcp_flags, source_routed;
};

static __always_inline int
parse4 (struct __sk_buff *skb, struct packet *pk, __u32 *off)
{
  __u8 h[20];

  if (bpf_skb_load_bytes (skb, 0, h, sizeof (h)) < 0)
    return -1;
  pk->family = AF_INET;
  pk->proto = h[9];
  /* Any option: loose and strict source routes hide the real first hop,
     and no other option is something a container needs to send.  */
  pk->source_routed = (h[0] & 0xf) != 5;
  __builtin_memcpy (&pk->src[0], &h[12], 4);
  __builtin_memcpy (&pk->addr[0], &h[16], 4);
  *off = (h[0] & 0xf) * 4;
  return 0;
}

/* Is @nh an IPv6 extension header (IANA's registry of them, RFC 7045),
   so that something the kernel may read follows it?  */
static __always_inline int
ipv6_extension (__u8 nh)
{
  switch (nh)
    {
    case IPPROTO_HOPOPTS:
    case IPPROTO_ROUTING:
    case IPPROTO_FRAGMENT:
    case IPPROTO_ESP:
    case IPPROTO_AH:
    case IPPROTO_DSTOPTS:
    case IPPROTO_MH:
    case IPPROTO_HIP:
    case IPPROTO_SHIM6:
    case 253: /* experiments (RFC 3692) */
    case 254:
      return 1;
    default:
      return 0;
    }
}

/* The length of the extension header @nh, the @i-th of the chain, whose
   first bytes are @e; -1 where the programs cannot read past it: a
   Hop-by-Hop header that is not first (the kernel reads it only there), a
   fragment after the first (its transport header is in another one), and
   what they cannot parse (ESP's payload is encrypted; the others the
   kernel does not read past either, and a kernel that did would hide the
   transport from the programs).  */
static __always_inline int
ipv6_extension_len (__u8 nh, const __u8 *e, int i)
{
  switch (nh)
    {
    case IPPROTO_HOPOPTS:
      return i == 0 ? (e[1] + 1) * 8 : -1;
    case IPPROTO_ROUTING:
    case IPPROTO_DSTOPTS:
      return (e[1] + 1) * 8;
    case IPPROTO_FRAGMENT: /* the offset: the high 13 bits of bytes 2-3 */
      return (e[2] | (e[3] & 0xf8)) == 0 ? 8 : -1;
    case IPPROTO_AH: /* in 4-byte words, less 2 (RFC 4302) */
      return (e[1] + 2) * 4;
    default:
      return -1;
    }
}

/* The fixed header, then the chain of extension headers to the transport
   header, which sets pk->proto (a protocol without ports, or No Next
   Header, ends it too).  A chain the programs cannot read to its end is
   -1, as a packet cut short is: longer than MAX_EXTENSIONS, or a header
   they cannot read past (ipv6_extension_len).  What they could not read
   decides nothing: a verdict that would depend on the ports, the
   transport or the route denies the packet (entitle_skb_egress,
   entitle_skb_ingress).  */
static __always_inline int
parse6 (struct __sk_buff *skb, struct packet *pk, __u32 *off)
{
  __u8 h[40];
  __u8 nh;

  if (bpf_skb_load_bytes (skb, 0, h, sizeof (h)) < 0)
    return -1;
  pk->family = AF_INET6;
  __builtin_memcpy (pk->src, &h[8], 16);
  __builtin_memcpy (pk->addr, &h[24], 16);
  nh = h[6];
  *off = 40;
  /* Unrolled: 6.1's verifier takes a loop only where the back edge is a
     jump, and clang may close this one by falling through into its head
     ("back-edge from insn"; later kernels take both).  */
#pragma unroll
  for (int i = 0; i <= MAX_EXTENSIONS; i++)
    {
      __u8 e[4];
      int len;

      if (!ipv6_extension (nh))
        {
          pk->proto = nh;
          return 0;
        }
      if (i == MAX_EXTENSIONS || bpf_skb_load_bytes (skb, *off, e, sizeof (e)) < 0)
        return -1;
      len = ipv6_extension_len (nh, e, i);
      if (len < 0)
        return -1;
      pk->source_routed |= nh == IPPROTO_ROUTING;
      *off += len;
      nh = e[0];
    }
  return -1;
}

static __always_inline int
parse (struct __sk_buff *skb, struct packet *pk)
{
  __u8 ver, l4[14];
  __u32 off = 0;
  int ret;

  if (bpf_skb_load_bytes (skb, 0, &ver, 1) < 0)
    return -1;
  if (ver >> 4 == 4)
    ret = parse4 (skb, pk, &off);
  else if (ver >> 4 == 6)
    ret = parse6 (skb, pk, &off);
  else
    return -1;
  if (ret < 0)
    return ret;
  if (pk->proto == IPPROTO_TCP)
    {
      if (bpf_skb_load_bytes (skb, off, l4, 14) < 0)
        return -1;
      pk->tcp_flags = l4[13];
    }
  else if (pk->proto == IPPROTO_UDP || pk->proto == IPPROTO_UDPLITE)
    {
      if (bpf_skb_load_bytes (skb, off, l4, 4) < 0)
        return -1;
    }
  else
    return 0; /* no ports */
  pk->port = ((__u16)l4[2] << 8) | l4[3];
  return 0;
}

/* Every packet the container's sockets send, whatever made it (a raw or
   ping socket, io_uring, the 32-bit ABI, a kernel thread on the
   container's socket): no source-routed packet, and only listed
   destinations for everything but TCP after its handshake (the peer of a
   TCP connection is fixed by connect(), checked there, or by an accept()
   of someone who reached us: replies pass).  A packet it cannot read to
   its transport header (parse) does not leave: a routing header, the
   ports or the TCP flags may be in what it could not read.  */
SEC ("cgroup_skb/egress")
int
entitle_skb_egress (struct __sk_buff *skb)
{
  struct entitle_policy *p = policy ();
  struct packet pk = {};
  __u32 info = 0;

  if (!(p->flags & POL_EGRESS))
    return 1;
  if (parse (skb, &pk) < 0)
    info = ENTITLE_EV_UNREADABLE;
  else if (pk.source_routed)
    info = ENTITLE_EV_SOURCE_ROUTED;
  else if (pk.proto == IPPROTO_TCP && (pk.tcp_flags & (TCP_SYN | TCP_ACK)) != TCP_SYN)
    return 1;
  else if (egress_allowed (p, pk.family, pk.addr, pk.port))
    return 1;
  note_addr (p, POL_EGRESS, BPF_CGROUP_INET_EGRESS, pk.family, pk.proto, pk.addr, pk.port, info);
  return 0;
}

/* Is the socket @skb reaches connected to one peer, so that nothing it
   receives opens a contact: a TCP connection past its listener, a
   connected datagram socket?  */
static __always_inline int
sk_connected (struct __sk_buff *skb)
{
  struct bpf_sock *sk = skb->sk;

  if (sk)
    sk = bpf_sk_fullsock (sk);
  return sk != NULL && sk->state != TCP_LISTEN && sk->state != TCP_CLOSE;
}

/* Does @pk open a contact with the container: a TCP segment that is a
   bare SYN, or a datagram to a socket that is not connected?  Replies on
   the container's own connections (every other TCP segment, datagrams to
   a connected socket) do not.  Protocols without ports (ICMP) are no
   contact either: echo replies and errors for the container's own traffic
   must pass.  */
static __always_inline int
new_contact (struct __sk_buff *skb, const struct packet *pk)
{
  if (pk->proto == IPPROTO_TCP)
    return (pk->tcp_flags & (TCP_SYN | TCP_ACK)) == TCP_SYN;
  if (pk->proto != IPPROTO_UDP && pk->proto != IPPROTO_UDPLITE)
    return 0;
  return !sk_connected (skb);
}

/* Every packet the container's sockets receive.  Under network.bind no
   peer opens a contact on a port the list does not name (a port the
   kernel chose for bind(0), listen() or sendto() without bind included);
   under network.ingress only a listed source does (on the port its rule
   names).  */
SEC ("cgroup_skb/ingress")
int
entitle_skb_ingress (struct __sk_buff *skb)
{
  struct entitle_policy *p = policy ();
  struct packet pk = {};
  __u32 rule = 0, info = 0;

  if (!(p->flags & (POL_BIND | POL_INGRESS)))
    return 1;
  /* A packet it cannot read to its transport header (parse) is no
     contact only where the socket says so; elsewhere it is denied,
     whatever its source and whatever port it may be for.  */
  if (parse (skb, &pk) < 0)
    {
      if (sk_connected (skb))
        return 1;
      rule = p->flags & POL_BIND ? POL_BIND : POL_INGRESS;
      info = ENTITLE_EV_UNREADABLE;
    }
  else if (!new_contact (skb, &pk))
    return 1;
  else if ((p->flags & POL_BIND) && !in_ranges (p->bind, p->n_bind, pk.port))
    rule = POL_BIND;
  else if ((p->flags & POL_INGRESS) && !listed (p->ingress, p->n_ingress, pk.family, pk.src, pk.port))
    rule = POL_INGRESS;
  else
    return 1;
  note_addr (p, rule, BPF_CGROUP_INET_INGRESS, pk.family, pk.proto, pk.src, pk.port, info);
  return 0;
}
