/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include "bpf-plan.h"
#include "utils.h"
#include "values.h"

/* From a final set of entitlements to the cgroup programs' policy
   (DESIGN §3, §4): each row says which POL_* bits and programs it needs;
   the values of the modifiers fill the tables.  */

unsigned
entitle_bpf_needed (const struct entitle_set_s *set)
{
  unsigned attach = 0;
  size_t i;
  for (i = 0; i < set->n; i++)
    attach |= set->items[i].entry->attach;
  return attach;
}

char *
entitle_bpf_quote (const struct entitle_set_s *set, unsigned attach)
{
  size_t len = 1, i;
  char *out;

  for (i = 0; i < set->n; i++)
    len += strlen (set->items[i].entry->name) + (set->items[i].value ? strlen (set->items[i].value) + 1 : 0) + 4;
  if ((out = calloc (1, len)) == NULL)
    abort ();
  for (i = 0; i < set->n; i++)
    {
      const struct entitle_request_s *r = &set->items[i];
      if ((r->entry->attach & attach) == 0)
        continue;
      strcat (out, *out ? ", `" : "`");
      strcat (out, r->entry->name);
      if (r->value)
        {
          strcat (out, "=");
          strcat (out, r->value);
        }
      strcat (out, "`");
    }
  return out;
}

static int
add_range (struct entitle_range *r, __u16 *n, unsigned short lo, unsigned short hi, const char *name,
           entitle_error_t *err)
{
  __u16 i;

  for (i = 0; i < *n; i++)
    if (r[i].lo == lo && r[i].hi == hi)
      return 0;
  if (*n >= ENTITLE_MAX_RANGES)
    return entitle_make_error (err, E2BIG, "entitlement `%s`: more than %d values", name, ENTITLE_MAX_RANGES);
  r[*n].lo = lo;
  r[*n].hi = hi;
  ++*n;
  return 0;
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
add_egress (struct entitle_policy *p, const char *value, entitle_error_t *err)
{
  struct entitle_cidr_s c;
  struct entitle_cidr r;
  __u16 i;

  if (!entitle_parse_egress (value, &c))
    return entitle_make_error (err, EINVAL, "entitlement `network.egress=%s`: the value must be CIDR[:PORT[-PORT]]", value);
  cidr_of (&c, &r);
  for (i = 0; i < p->n_egress; i++)
    if (memcmp (&p->egress[i], &r, sizeof (r)) == 0)
      return 0;
  if (p->n_egress >= ENTITLE_MAX_EGRESS)
    return entitle_make_error (err, E2BIG, "entitlement `network.egress`: more than %d rules", ENTITLE_MAX_EGRESS);
  p->egress[p->n_egress++] = r;
  return 0;
}

static int
add_value (struct entitle_policy *p, const struct entitle_request_s *req, entitle_error_t *err)
{
  const char *name = req->entry->name;
  unsigned short a, b;

  if (req->value == NULL)
    return 0;
  if (req->entry->policy & POL_EGRESS)
    return add_egress (p, req->value, err);
  if ((req->entry->policy & POL_BIND) && entitle_parse_ports (req->value, &a, &b))
    return add_range (p->bind, &p->n_bind, a, b, name, err);
  if ((req->entry->policy & POL_BIND_MAP) && entitle_parse_port_map (req->value, &a, &b))
    return add_range (p->map, &p->n_map, a, b, name, err);
  return entitle_make_error (err, EINVAL, "entitlement `%s=%s`: no value the cgroup programs know", name, req->value);
}

/* linux.sysctl keys as the kernel names them to the sysctl program.  */
static int
add_sysctls (struct entitle_policy *p, const json_t *spec, entitle_error_t *err)
{
  const json_t *s = json_get (json_get (spec, "linux"), "sysctl");
  size_t i;

  for (i = 0; s && s->type == JSON_OBJECT && i < s->n; i++)
    {
      char *name = p->sysctl[p->n_sysctl];
      if (strlen (s->keys[i]) >= ENTITLE_SYSCTL_NAME)
        return entitle_make_error (err, ENAMETOOLONG, "sysctl `%s`: longer than %d bytes, the most the sysctl program compares",
                                   s->keys[i], ENTITLE_SYSCTL_NAME - 1);
      if (p->n_sysctl >= ENTITLE_MAX_SYSCTLS)
        return entitle_make_error (err, E2BIG, "linux.sysctl sets more than %d keys, the most the sysctl program holds",
                                   ENTITLE_MAX_SYSCTLS);
      strcpy (name, s->keys[i]);
      for (char *c = name; *c; c++)
        if (*c == '.')
          *c = '/';
      p->n_sysctl++;
    }
  return 0;
}

int
entitle_bpf_plan (struct entitle_bpf_plan_s *plan, const struct entitle_set_s *set, const json_t *spec,
                  entitle_error_t *err)
{
  size_t i;
  int ret;

  memset (plan, 0, sizeof (*plan));
  for (i = 0; i < set->n; i++)
    {
      const struct entitle_request_s *r = &set->items[i];
      plan->policy.flags |= r->entry->policy;
      plan->attach |= r->entry->attach;
      ret = r->entry->policy ? add_value (&plan->policy, r, err) : 0;
      if (UNLIKELY (ret < 0))
        return ret;
    }
  if (plan->policy.flags & POL_SYSCTL_RO)
    {
      ret = add_sysctls (&plan->policy, spec, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  return plan->attach != 0;
}
