/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The programs of the seed interfaces (DESIGN §4), which mainline never
   merged: Checmate's global LSM hooks (BPF_PROG_TYPE_CHECMATE, seeds
   002-006) and the eBPF seccomp filter (BPF_PROG_TYPE_SECCOMP, seed 001).
   libbpf knows neither program type, so entitle loads them itself, with a
   raw BPF_PROG_LOAD through its fake-able kernel table
   (lib/kernel/seed-load.c): bpf/gen-insns turns each section of this object
   into an instruction array at build time.  Hence the rules of this file:
   a map is an extern symbol that the loader resolves by name (no libbpf
   map definitions), no global data, and every function inline (no
   bpf-to-bpf calls).

   Checmate: a program returns 0 to let the call through, or a negative
   errno the caller gets.  It runs for every task of the host, and reads
   the task's cgroup out of the kernel's structures (policy.h says why);
   a task in no container with an entry is let through.

   eBPF seccomp: the decisions of one process's filter come from its own
   map (struct entitle_seccomp_policy); the return value is a seccomp
   action, as a classic filter's.  */

#include <linux/bpf.h>
#include <linux/seccomp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "policy.h"
#include "rules.h"

#define EPERM 1

#define CLONE_NEWTIME   0x00000080
#define CLONE_NEWNS     0x00020000
#define CLONE_NEWCGROUP 0x02000000
#define CLONE_NEWUTS    0x04000000
#define CLONE_NEWIPC    0x08000000
#define CLONE_NEWUSER   0x10000000
#define CLONE_NEWPID    0x20000000
#define CLONE_NEWNET    0x40000000
#define CLONE_NEW_ANY                                                                          \
  (CLONE_NEWTIME | CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER \
   | CLONE_NEWPID | CLONE_NEWNET)

#define AF_PACKET 17
#define SOCK_RAW  3
#define S_IFMT    0170000
#define S_IFCHR   0020000
#define S_IFBLK   0060000

char LICENSE[] SEC ("license") = "GPL";

/* The maps, made by the loader (lib/kernel/seed-load.c names them).  */
struct entitle_seed_map;
extern struct entitle_seed_map entitle_checmate_layout; /* array, one struct entitle_checmate_layout */
extern struct entitle_seed_map entitle_checmate_policy; /* hash: cgroup id -> struct entitle_policy */
extern struct entitle_seed_map entitle_seccomp_policy;  /* array, one struct entitle_seccomp_policy */

static __always_inline __u64
read_u64 (__u64 addr)
{
  __u64 v = 0;
  bpf_probe_read (&v, sizeof (v), (const void *)addr);
  return v;
}

/* The entry of the current task's cgroup or of its nearest ancestor that
   has one, or NULL.  */
static __always_inline const struct entitle_policy *
checmate_policy (void)
{
  __u32 zero = 0;
  const struct entitle_checmate_layout *l = bpf_map_lookup_elem (&entitle_checmate_layout, &zero);
  __u64 cgroup, id;
  int level = 0;

  if (l == NULL)
    return NULL;
  cgroup = read_u64 (read_u64 (bpf_get_current_task () + l->task_cgroups) + l->cset_dfl_cgrp);
  bpf_probe_read (&level, sizeof (level), (const void *)(cgroup + l->cgroup_level));
  /* Level 0 is the root cgroup: never a container's.  */
  for (int i = 0; i < ENTITLE_CGROUP_LEVELS; i++)
    {
      const struct entitle_policy *p;
      int at = level - i;

      if (at < 1)
        break;
      id = read_u64 (read_u64 (read_u64 (cgroup + l->cgroup_ancestors + (__u64)at * 8) + l->cgroup_kn) + l->kn_id);
      p = bpf_map_lookup_elem (&entitle_checmate_policy, &id);
      if (p)
        return p;
    }
  return NULL;
}

/* The destination as the kernel copied it from the caller (a
   sockaddr_storage): sockaddr_in and sockaddr_in6 share the first four
   bytes.  */
struct inet_addr
{
  __u16 family;
  __u16 port;
  __u32 a4_or_flow;
  __u32 a6[4];
};

/* network.egress and network.none, by the calling task's cgroup: unlike
   the cgroup programs, which key on the socket's, it also holds a socket
   made outside the container and passed in.  */
SEC ("checmate/socket_connect")
int
entitle_checmate_socket_connect (struct entitle_checmate_ctx *ctx)
{
  const struct entitle_policy *p = checmate_policy ();
  struct inet_addr sa = {};
  __u32 a[4] = {};

  if (p == NULL || !(p->flags & (POL_EGRESS | POL_SOCK_UNIX_ONLY)))
    return 0;
  bpf_probe_read (&sa, sizeof (sa), (const void *)ctx->socket_connect.address);
  if (sa.family != AF_INET && sa.family != AF_INET6)
    return 0;
  if (p->flags & POL_SOCK_UNIX_ONLY)
    return -EPERM;
  /* Too short an address: the kernel refuses the connect itself.  */
  if (ctx->socket_connect.addrlen < (sa.family == AF_INET ? 16 : 24))
    return 0;
  if (sa.family == AF_INET)
    {
      a[0] = sa.a4_or_flow;
      return egress_allowed (p, AF_INET, a, bpf_ntohs (sa.port)) ? 0 : -EPERM;
    }
  a[0] = sa.a6[0];
  a[1] = sa.a6[1];
  a[2] = sa.a6[2];
  a[3] = sa.a6[3];
  return egress6_allowed (p, a, bpf_ntohs (sa.port)) ? 0 : -EPERM;
}

/* security.confined: no namespace made by clone flags, clone3's too
   (seccomp cannot read clone3's flags, which are in memory).  */
SEC ("checmate/task_create")
int
entitle_checmate_task_create (struct entitle_checmate_ctx *ctx)
{
  const struct entitle_policy *p;

  if (!(ctx->task_create.clone_flags & CLONE_NEW_ANY))
    return 0;
  p = checmate_policy ();
  return p && (p->flags & POL_CONFINED) ? -EPERM : 0;
}

/* The call as the filter judges it: the context read once, at fixed
   offsets (the verifier refuses a context pointer moved by a variable).  */
struct call
{
  __u32 nr, a0, a1, a2;
};

static __always_inline int
denied_socket (const struct entitle_seccomp_policy *p, const struct call *c)
{
  __u32 family = c->a0, type = c->a1 & 0xf;

  if ((p->flags & SECCOMP_POL_UNIX_ONLY) && family != AF_UNIX)
    return 1;
  if ((p->flags & SECCOMP_POL_NO_PACKET) && c->nr == p->nr_socket
      && (family == AF_PACKET || ((family == AF_INET || family == AF_INET6) && type == SOCK_RAW)))
    return 1;
  return 0;
}

static __always_inline int
denied_by_argument (const struct entitle_seccomp_policy *p, const struct call *c)
{
  __u32 mode;

  if (c->nr == p->nr_socket || c->nr == p->nr_socketpair)
    return denied_socket (p, c);
  if ((p->flags & SECCOMP_POL_NO_DEV_NODE) && (c->nr == p->nr_mknod || c->nr == p->nr_mknodat))
    {
      mode = (c->nr == p->nr_mknod ? c->a1 : c->a2) & S_IFMT;
      return mode == S_IFCHR || mode == S_IFBLK;
    }
  /* The kernel reads the persona's low 32 bits; 0xffffffff asks.  */
  if ((p->flags & SECCOMP_POL_PERSONALITY) && c->nr == p->nr_personality)
    return c->a0 != 0 && c->a0 != 0xffffffff;
  return 0;
}

SEC ("seccomp")
int
entitle_seccomp (struct seccomp_data *ctx)
{
  __u32 zero = 0;
  struct call c = { (__u32)ctx->nr, (__u32)ctx->args[0], (__u32)ctx->args[1], (__u32)ctx->args[2] };
  const struct entitle_seccomp_policy *p = bpf_map_lookup_elem (&entitle_seccomp_policy, &zero);

  if (p == NULL || ctx->arch != p->arch)
    return SECCOMP_RET_ALLOW;
  if (c.nr < ENTITLE_SECCOMP_NR && (p->deny[c.nr / 8] & (1u << (c.nr % 8))))
    return p->errno_ret;
  return denied_by_argument (p, &c) ? p->errno_ret : SECCOMP_RET_ALLOW;
}
