/* SPDX-License-Identifier: GPL-2.0-or-later */
/* entitle's cgroup programs (DESIGN §4).  They are attached to each
   container's cgroup; the policy comes from maps keyed by cgroup id.  A
   task is bound by the policy of every ancestor cgroup that has one, so a
   cgroup made inside a container cannot shed its rules.  Returning 0
   makes the kernel fail the call with EPERM.  */

#include <linux/bpf.h>
#include <linux/in.h>
#include <linux/socket.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "policy.h"

#ifndef AF_UNIX
#define AF_UNIX 1
#endif
#ifndef AF_INET
#define AF_INET 2
#endif
#ifndef AF_INET6
#define AF_INET6 10
#endif
#ifndef AF_PACKET
#define AF_PACKET 17
#endif
#define SOCK_RAW 3

char LICENSE[] SEC ("license") = "GPL";

struct
{
  __uint (type, BPF_MAP_TYPE_HASH);
  __uint (max_entries, ENTITLE_MAX_POLICIES);
  __type (key, __u64);
  __type (value, struct entitle_policy);
  __uint (pinning, LIBBPF_PIN_BY_NAME);
} entitle_policy SEC (".maps");

struct
{
  __uint (type, BPF_MAP_TYPE_LPM_TRIE);
  __uint (max_entries, 16384);
  __uint (map_flags, BPF_F_NO_PREALLOC);
  __type (key, struct entitle_egress4_key);
  __type (value, struct entitle_ports);
  __uint (pinning, LIBBPF_PIN_BY_NAME);
} entitle_egress4 SEC (".maps");

struct
{
  __uint (type, BPF_MAP_TYPE_LPM_TRIE);
  __uint (max_entries, 16384);
  __uint (map_flags, BPF_F_NO_PREALLOC);
  __type (key, struct entitle_egress6_key);
  __type (value, struct entitle_ports);
  __uint (pinning, LIBBPF_PIN_BY_NAME);
} entitle_egress6 SEC (".maps");

struct
{
  __uint (type, BPF_MAP_TYPE_HASH);
  __uint (max_entries, 16384);
  __type (key, struct entitle_sysctl_key);
  __type (value, __u8);
  __uint (pinning, LIBBPF_PIN_BY_NAME);
} entitle_sysctls SEC (".maps");

/* Used by the hook only; pinned with the rest.  */
struct
{
  __uint (type, BPF_MAP_TYPE_HASH);
  __uint (max_entries, ENTITLE_MAX_POLICIES);
  __type (key, struct entitle_owner_key);
  __type (value, struct entitle_owner);
  __uint (pinning, LIBBPF_PIN_BY_NAME);
} entitle_owners SEC (".maps");

/* The policy of the ancestor at @level (1 = a child of the root), if any.  */
static __always_inline struct entitle_policy *
policy_at (int level)
{
  __u64 id = bpf_get_current_ancestor_cgroup_id (level);

  if (id == 0)
    return NULL;
  return bpf_map_lookup_elem (&entitle_policy, &id);
}

static __always_inline int
in_ranges (const struct entitle_range *r, __u32 n, __u16 port)
{
  for (__u32 i = 0; i < ENTITLE_MAX_RANGES; i++)
    if (i < n && port >= r[i].lo && port <= r[i].hi)
      return 1;
  return 0;
}

static __always_inline int
sock_allowed (const struct entitle_policy *p, const struct bpf_sock *sk)
{
  if ((p->flags & POL_SOCK_UNIX_ONLY) && sk->family != AF_UNIX)
    return 0;
  if ((p->flags & POL_SOCK_NO_RAW)
      && (sk->family == AF_PACKET
          || ((sk->family == AF_INET || sk->family == AF_INET6) && sk->type == SOCK_RAW)))
    return 0;
  return 1;
}

SEC ("cgroup/sock_create")
int
entitle_sock_create (struct bpf_sock *sk)
{
  for (int level = 1; level <= ENTITLE_MAX_LEVELS; level++)
    {
      struct entitle_policy *p = policy_at (level);
      if (p && !sock_allowed (p, sk))
        return 0;
    }
  return 1;
}

static __always_inline int
egress4_allowed (const struct entitle_policy *p, __u32 addr, __u16 port)
{
  struct entitle_egress4_key key = {
    .prefixlen = 64 + 32,
    .cgroup_lo = (__u32)p->cgroup_id,
    .cgroup_hi = (__u32)(p->cgroup_id >> 32),
    .addr = addr,
  };
  struct entitle_ports *v;

  if (!(p->flags & POL_EGRESS))
    return 1;
  v = bpf_map_lookup_elem (&entitle_egress4, &key);
  return v != NULL && in_ranges (v->r, v->n, port);
}

static __always_inline int
egress6_allowed (const struct entitle_policy *p, const __u32 *addr, __u16 port)
{
  struct entitle_egress6_key key = {
    .prefixlen = 64 + 128,
    .cgroup_lo = (__u32)p->cgroup_id,
    .cgroup_hi = (__u32)(p->cgroup_id >> 32),
  };
  struct entitle_ports *v;

  if (!(p->flags & POL_EGRESS))
    return 1;
  /* An IPv4-mapped address (::ffff:a.b.c.d) goes out as IPv4.  */
  if (addr[0] == 0 && addr[1] == 0 && addr[2] == bpf_htonl (0xffff))
    return egress4_allowed (p, addr[3], port);
  key.addr[0] = addr[0];
  key.addr[1] = addr[1];
  key.addr[2] = addr[2];
  key.addr[3] = addr[3];
  v = bpf_map_lookup_elem (&entitle_egress6, &key);
  return v != NULL && in_ranges (v->r, v->n, port);
}

static __always_inline int
check4 (struct bpf_sock_addr *ctx)
{
  __u32 addr = ctx->user_ip4;
  __u16 port = bpf_ntohs ((__u16)ctx->user_port);

  for (int level = 1; level <= ENTITLE_MAX_LEVELS; level++)
    {
      struct entitle_policy *p = policy_at (level);
      if (p && !egress4_allowed (p, addr, port))
        return 0;
    }
  return 1;
}

static __always_inline int
check6 (struct bpf_sock_addr *ctx)
{
  __u32 addr[4] = { ctx->user_ip6[0], ctx->user_ip6[1], ctx->user_ip6[2], ctx->user_ip6[3] };
  __u16 port = bpf_ntohs ((__u16)ctx->user_port);

  for (int level = 1; level <= ENTITLE_MAX_LEVELS; level++)
    {
      struct entitle_policy *p = policy_at (level);
      if (p && !egress6_allowed (p, addr, port))
        return 0;
    }
  return 1;
}

SEC ("cgroup/connect4")
int
entitle_connect4 (struct bpf_sock_addr *ctx)
{
  return check4 (ctx);
}

SEC ("cgroup/sendmsg4")
int
entitle_sendmsg4 (struct bpf_sock_addr *ctx)
{
  return check4 (ctx);
}

SEC ("cgroup/connect6")
int
entitle_connect6 (struct bpf_sock_addr *ctx)
{
  return check6 (ctx);
}

SEC ("cgroup/sendmsg6")
int
entitle_sendmsg6 (struct bpf_sock_addr *ctx)
{
  return check6 (ctx);
}

/* Map the port first (bind-map=80:8080 lands on 8080), then check the
   result against network.bind.  Port 0 asks the kernel to choose one.  */
static __always_inline int
bind_check (struct bpf_sock_addr *ctx)
{
  for (int level = 1; level <= ENTITLE_MAX_LEVELS; level++)
    {
      struct entitle_policy *p = policy_at (level);
      __u16 port = bpf_ntohs ((__u16)ctx->user_port);

      if (p == NULL)
        continue;
      if (p->flags & POL_BIND_MAP)
        for (__u32 i = 0; i < ENTITLE_MAX_RANGES; i++)
          if (i < p->n_map && port == p->map[i].lo)
            {
              port = p->map[i].hi;
              ctx->user_port = bpf_htons (port);
              break;
            }
      if ((p->flags & POL_BIND) && port != 0 && !in_ranges (p->bind, p->n_bind, port))
        return 0;
    }
  return 1;
}

SEC ("cgroup/bind4")
int
entitle_bind4 (struct bpf_sock_addr *ctx)
{
  return bind_check (ctx);
}

SEC ("cgroup/bind6")
int
entitle_bind6 (struct bpf_sock_addr *ctx)
{
  return bind_check (ctx);
}

/* Writes are denied but to the keys the config's linux.sysctl sets:
   the runtime writes those after the createRuntime hook attached us.  */
SEC ("cgroup/sysctl")
int
entitle_sysctl (struct bpf_sysctl *ctx)
{
  if (!ctx->write)
    return 1;
  for (int level = 1; level <= ENTITLE_MAX_LEVELS; level++)
    {
      struct entitle_policy *p = policy_at (level);
      struct entitle_sysctl_key key = {};

      if (p == NULL || !(p->flags & POL_SYSCTL_RO))
        continue;
      key.cgroup_id = p->cgroup_id;
      if (bpf_sysctl_get_name (ctx, key.name, sizeof (key.name), 0) < 0)
        return 0;
      if (bpf_map_lookup_elem (&entitle_sysctls, &key) == NULL)
        return 0;
    }
  return 1;
}
