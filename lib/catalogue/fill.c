/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include "fill.h"
#include "values.h"

/* How the values of the catalogue's modifiers fill the policy the cgroup
   programs read (bpf/progs/policy.h): one function per table, named by
   the rows (their `fill`).  */

static int
add_range (struct entitle_range *r, __u16 *n, const struct entitle_entry_s *e, const union entitle_value_u *v, entitle_error_t *err)
{
  const struct entitle_ports_s *p = &v->ports;
  __u16 i;

  for (i = 0; i < *n; i++)
    if (r[i].lo == p->lo && r[i].hi == p->hi)
      return 0;
  if (*n >= ENTITLE_MAX_RANGES)
    return entitle_make_error (err, E2BIG, "entitlement `%s`: more than %d values", e->name, ENTITLE_MAX_RANGES);
  r[*n].lo = p->lo;
  r[*n].hi = p->hi;
  ++*n;
  return 0;
}

int
entitle_bpf_fill_bind (struct entitle_policy *policy, const struct entitle_entry_s *e, const union entitle_value_u *v, entitle_error_t *err)
{
  return add_range (policy->bind, &policy->n_bind, e, v, err);
}

int
entitle_bpf_fill_bind_map (struct entitle_policy *policy, const struct entitle_entry_s *e, const union entitle_value_u *v, entitle_error_t *err)
{
  return add_range (policy->map, &policy->n_map, e, v, err);
}

/* The rule as the programs match it: net = addr & mask, per 32-bit word.  */
static void
cidr_of (const struct entitle_cidr_s *c, struct entitle_cidr *out)
{
  unsigned words = c->family == AF_INET ? 1 : 4, w;

  memset (out, 0, sizeof (*out));
  out->family = (__u16)c->family;
  out->lo = c->lo;
  out->hi = c->hi;
  for (w = 0; w < words; w++)
    {
      unsigned bits = c->len > w * 32 ? c->len - w * 32 : 0;
      uint32_t addr, mask = bits >= 32 ? 0xffffffffu : bits ? ~(0xffffffffu >> bits)
                                                            : 0;
      memcpy (&addr, c->addr + w * 4, 4);
      out->mask[w] = htonl (mask);
      out->net[w] = addr & out->mask[w];
    }
}

static int
add_cidr (struct entitle_cidr *rules, __u16 *n, unsigned max, const struct entitle_entry_s *e, const union entitle_value_u *v,
          entitle_error_t *err)
{
  struct entitle_cidr r;
  __u16 i;

  cidr_of (&v->cidr, &r);
  for (i = 0; i < *n; i++)
    if (memcmp (&rules[i], &r, sizeof (r)) == 0)
      return 0;
  if (*n >= max)
    return entitle_make_error (err, E2BIG, "entitlement `%s`: more than %u rules", e->name, max);
  rules[(*n)++] = r;
  return 0;
}

int
entitle_bpf_fill_egress (struct entitle_policy *policy, const struct entitle_entry_s *e, const union entitle_value_u *v, entitle_error_t *err)
{
  return add_cidr (policy->egress, &policy->n_egress, ENTITLE_MAX_EGRESS, e, v, err);
}

int
entitle_bpf_fill_ingress (struct entitle_policy *policy, const struct entitle_entry_s *e, const union entitle_value_u *v, entitle_error_t *err)
{
  return add_cidr (policy->ingress, &policy->n_ingress, ENTITLE_MAX_INGRESS, e, v, err);
}
