/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_POLICY_H
#define ENTITLE_BPF_POLICY_H

/* The layout of entitle's policy maps, shared by bpf/entitle.bpf.c and the
   loader.  One set of programs serves every container: each looks the
   policy up by cgroup id (the container's cgroup or any of its ancestors,
   so that cgroups a container makes below its own stay bound).  */

#include <linux/types.h>

#define ENTITLE_MAX_RANGES   8  /* port ranges per policy or per CIDR */
#define ENTITLE_MAX_LEVELS   16 /* cgroup depth searched for a policy */
#define ENTITLE_SYSCTL_NAME  64 /* "net/ipv4/ip_forward", NUL padded */
#define ENTITLE_MAX_POLICIES 4096

/* policy.flags */
#define POL_SOCK_UNIX_ONLY (1u << 0) /* network.none: sockets of AF_UNIX only */
#define POL_SOCK_NO_RAW    (1u << 1) /* network.user: no packet or raw inet sockets */
#define POL_EGRESS         (1u << 2) /* network.egress: connect/sendmsg to listed CIDRs only */
#define POL_BIND           (1u << 3) /* network.bind: bind to listed ports only */
#define POL_BIND_MAP       (1u << 4) /* network.bind-map: rewrite bind ports */
#define POL_SYSCTL_RO      (1u << 5) /* security.confined: no sysctl writes but listed keys */

struct entitle_range
{
  __u16 lo, hi; /* host byte order, inclusive */
};

struct entitle_policy
{
  __u64 cgroup_id; /* the container's own cgroup, key of the egress tries */
  __u32 flags;
  __u16 n_bind, n_map;
  struct entitle_range bind[ENTITLE_MAX_RANGES];
  struct entitle_range map[ENTITLE_MAX_RANGES]; /* lo = FROM, hi = TO */
};

/* Egress tries: the cgroup id is part of the prefix, so one trie holds
   every container's rules; prefixlen = 64 + the CIDR's length.  */
struct entitle_egress4_key
{
  __u32 prefixlen;
  __u32 cgroup_lo, cgroup_hi;
  __u32 addr; /* network byte order */
};

struct entitle_egress6_key
{
  __u32 prefixlen;
  __u32 cgroup_lo, cgroup_hi;
  __u32 addr[4];
};

/* The ports allowed for one CIDR, covering rules' ports included (a
   longest-prefix match sees only the most specific entry).  */
struct entitle_ports
{
  __u32 n;
  struct entitle_range r[ENTITLE_MAX_RANGES];
};

struct entitle_sysctl_key
{
  __u64 cgroup_id;
  char name[ENTITLE_SYSCTL_NAME];
};

/* Which container a policy belongs to, for poststop and garbage
   collection: runtime root and id together (ids repeat across roots).  */
#define ENTITLE_OWNER_NAME 256

struct entitle_owner_key
{
  char name[ENTITLE_OWNER_NAME]; /* "ROOT\nID", NUL padded */
};

struct entitle_owner
{
  __u64 cgroup_id;
  char made[ENTITLE_OWNER_NAME]; /* a cgroup entitle made for the container, or "" */
};

#endif
