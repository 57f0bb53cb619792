/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_RULES_H
#define ENTITLE_BPF_RULES_H

/* The tests of the policy's tables (bpf/progs/policy.h), shared by every
   program that reads them: the cgroup programs (entitle.bpf.c), the
   Checmate programs (seeds.bpf.c) and the BPF LSM programs (lsm.bpf.c).
   Include after policy.h and bpf_endian.h.  */

#ifndef AF_UNIX
#define AF_UNIX  1
#define AF_INET  2
#define AF_INET6 10
#endif

static __always_inline int
in_ranges (const struct entitle_range *r, __u32 n, __u16 port)
{
  for (__u32 i = 0; i < ENTITLE_MAX_RANGES; i++)
    if (i < n && port >= r[i].lo && port <= r[i].hi)
      return 1;
  return 0;
}

/* Is (@family, @a, @port) listed in the @n rules at @rules (egress or
   ingress: both hold ENTITLE_MAX_EGRESS)?  A rule without ports lists
   0-65535, so port 0 (a protocol without ports, ICMP) matches only such
   rules.  */
static __always_inline int
listed (const struct entitle_cidr *rules, __u32 n, __u16 family, const __u32 *a, __u16 port)
{
  for (__u32 i = 0; i < ENTITLE_MAX_EGRESS; i++)
    {
      const struct entitle_cidr *c = &rules[i];

      if (i >= n)
        break;
      if (c->family != family || port < c->lo || port > c->hi || (a[0] & c->mask[0]) != c->net[0])
        continue;
      if (family == AF_INET
          || ((a[1] & c->mask[1]) == c->net[1] && (a[2] & c->mask[2]) == c->net[2]
              && (a[3] & c->mask[3]) == c->net[3]))
        return 1;
    }
  return 0;
}

_Static_assert(ENTITLE_MAX_INGRESS == ENTITLE_MAX_EGRESS, "listed () bounds both tables");

static __always_inline int
egress_allowed (const struct entitle_policy *p, __u16 family, const __u32 *a, __u16 port)
{
  return listed (p->egress, p->n_egress, family, a, port);
}

/* An IPv4-mapped address (::ffff:a.b.c.d) goes out as IPv4.  */
static __always_inline int
egress6_allowed (const struct entitle_policy *p, const __u32 *a, __u16 port)
{
  if (a[0] == 0 && a[1] == 0 && a[2] == bpf_htonl (0xffff))
    {
      __u32 v4[4] = { a[3], 0, 0, 0 };
      return egress_allowed (p, AF_INET, v4, port);
    }
  return egress_allowed (p, AF_INET6, a, port);
}

#endif
