/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_POLICY_H
#define ENTITLE_BPF_POLICY_H

/* The policy of one container, shared by bpf/progs/entitle.bpf.c and the loader.

   Where it lives: in cgroup local storage (BPF_MAP_TYPE_CGROUP_STORAGE
   with a __u64 key, so one value is shared by every program attached to
   the same cgroup, Linux 5.9+).  The kernel makes the value when the hook
   attaches the first program to the container's cgroup and frees it with
   the cgroup: nothing per container outlives it, there is nothing to
   delete at poststop and no shared map a tenant could fill.  A program
   always sees the value of the cgroup it was attached to, also when it
   runs for a cgroup made below it (the effective programs of a child
   carry their ancestor's storage), so a container cannot shed its policy
   by making a cgroup.

   Each program keys on the socket's cgroup (the kernel runs cgroup
   programs for the cgroup the socket was created in), so a socket the
   container made stays bound when a kernel thread uses it; a socket made
   outside and passed in is bound by its creator's cgroup instead.  */

#include <linux/types.h>

#define ENTITLE_MAX_RANGES  8  /* network.bind and network.bind-map values */
#define ENTITLE_MAX_EGRESS  64 /* network.egress rules */
#define ENTITLE_MAX_INGRESS 64 /* network.ingress rules */
#define ENTITLE_MAX_SYSCTLS 32 /* linux.sysctl keys a confined container may write */
#define ENTITLE_SYSCTL_NAME 64 /* "net/ipv4/ip_forward", NUL padded */

/* policy.flags; 0 (what the kernel zeroes the value to) enforces nothing.  */
#define POL_SOCK_UNIX_ONLY (1u << 0) /* network.none: sockets of AF_UNIX only */
#define POL_SOCK_NO_RAW    (1u << 1) /* network.user, network.egress: no raw inet sockets */
#define POL_EGRESS         (1u << 2) /* network.egress: listed destinations only */
#define POL_BIND           (1u << 3) /* network.bind: listed local ports only */
#define POL_BIND_MAP       (1u << 4) /* network.bind-map: rewrite bind ports */
#define POL_SYSCTL_RO      (1u << 5) /* security.confined: no sysctl writes but listed keys */
#define POL_INGRESS        (1u << 6) /* network.ingress: new contacts from listed sources only */

struct entitle_range
{
  __u16 lo, hi; /* host byte order, inclusive */
};

/* One network.egress rule: (addr & mask) == net, port in [lo, hi] (the
   destination's); one network.ingress rule the same for the source's
   address and the container's port it reaches.  IPv4 uses word 0 only;
   addresses and masks are in network byte order, the host bits of net
   are zero.  */
struct entitle_cidr
{
  __u32 net[4];
  __u32 mask[4];
  __u16 lo, hi;
  __u16 family; /* AF_INET or AF_INET6 */
  __u16 pad;
};

struct entitle_policy
{
  __u32 flags;
  __u16 n_bind, n_map, n_egress, n_sysctl, n_ingress, pad[3];
  struct entitle_range bind[ENTITLE_MAX_RANGES];
  struct entitle_range map[ENTITLE_MAX_RANGES]; /* lo = FROM, hi = TO */
  struct entitle_cidr egress[ENTITLE_MAX_EGRESS];
  struct entitle_cidr ingress[ENTITLE_MAX_INGRESS];
  char sysctl[ENTITLE_MAX_SYSCTLS][ENTITLE_SYSCTL_NAME];
};

#endif
