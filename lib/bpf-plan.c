/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "bpf-plan.h"
#include "probe.h"
#include "utils.h"
#include "values.h"

/* From applied entitlements to the cgroup programs' policy (DESIGN §3, §4).  */

static const struct
{
  const char *name;
  unsigned flag;
  unsigned attach;
} rows[] = {
  { "network.none", POL_SOCK_UNIX_ONLY, PROBE_CG_SOCK_CREATE },
  { "network.user", POL_SOCK_NO_RAW, PROBE_CG_SOCK_CREATE },
  { "network.egress", POL_EGRESS, PROBE_CG_CONNECT4 | PROBE_CG_CONNECT6 | PROBE_CG_SENDMSG4 | PROBE_CG_SENDMSG6 },
  { "network.bind", POL_BIND, PROBE_CG_BIND4 | PROBE_CG_BIND6 },
  { "network.bind-map", POL_BIND_MAP, PROBE_CG_BIND4 | PROBE_CG_BIND6 },
  { "security.confined", POL_SYSCTL_RO, PROBE_CG_SYSCTL },
};

unsigned
entitle_probe_cg_needed (const char *const *applied)
{
  unsigned needed = 0;
  size_t i;

  for (; applied && *applied; applied++)
    {
      size_t len = strcspn (*applied, "=");
      for (i = 0; i < sizeof (rows) / sizeof (rows[0]); i++)
        if (strlen (rows[i].name) == len && strncmp (rows[i].name, *applied, len) == 0)
          needed |= rows[i].attach;
    }
  return needed;
}

char *
entitle_bpf_quote (char *const *applied, unsigned attach)
{
  size_t len = 1, i;
  char *out;

  for (i = 0; applied && applied[i]; i++)
    len += strlen (applied[i]) + 4;
  if ((out = calloc (1, len)) == NULL)
    abort ();
  for (i = 0; applied && applied[i]; i++)
    {
      const char *one[] = { applied[i], NULL };
      if ((entitle_probe_cg_needed (one) & attach) == 0)
        continue;
      strcat (out, *out ? ", `" : "`");
      strcat (out, applied[i]);
      strcat (out, "`");
    }
  return out;
}

static bool
strv_push (char ***v, size_t *n, const char *s)
{
  char **nv = realloc (*v, (*n + 2) * sizeof (char *));
  if (nv == NULL)
    return false;
  *v = nv;
  nv[*n] = strdup (s);
  if (nv[*n] == NULL)
    return false;
  nv[++*n] = NULL;
  return true;
}

static int
add_range (struct entitle_range *r, __u16 *n, unsigned short lo, unsigned short hi, const char *ent,
           entitle_error_t *err)
{
  if (*n >= ENTITLE_MAX_RANGES)
    return entitle_make_error (err, E2BIG, "entitlement `%s`: more than %d ports or port ranges", ent,
                               ENTITLE_MAX_RANGES);
  r[*n].lo = lo;
  r[*n].hi = hi;
  ++*n;
  return 0;
}

/* Zero the host bits, so that equal CIDRs compare equal.  */
static void
mask (struct entitle_egress_rule_s *r)
{
  unsigned bytes = r->family == AF_INET ? 4 : 16, i;
  for (i = 0; i < bytes; i++)
    {
      unsigned keep = r->len > i * 8 ? r->len - i * 8 : 0;
      if (keep < 8)
        r->addr[i] &= (unsigned char)(0xff00u >> keep);
    }
}

static bool
covers (const struct entitle_egress_rule_s *outer, const struct entitle_egress_rule_s *inner)
{
  struct entitle_egress_rule_s t = *inner;
  if (outer->family != inner->family || outer->len > inner->len)
    return false;
  t.len = outer->len;
  mask (&t);
  return memcmp (t.addr, outer->addr, sizeof (t.addr)) == 0;
}

/* Each CIDR once, with its own ports and those of every rule covering it:
   the trie's longest-prefix match sees only the most specific entry.  */
static int
add_egress (struct entitle_bpf_plan_s *plan, const char *ent, const char *value, entitle_error_t *err)
{
  struct entitle_cidr_s c;
  struct entitle_egress_rule_s r = { 0 }, *nv;

  if (!entitle_parse_egress (value, &c))
    return entitle_make_error (err, EINVAL, "entitlement `%s`: the value must be CIDR[:PORT[-PORT]]", ent);
  r.family = c.family;
  memcpy (r.addr, c.addr, sizeof (r.addr));
  r.len = c.len;
  mask (&r);
  nv = realloc (plan->egress, (plan->n_egress + 1) * sizeof (*nv));
  if (nv == NULL)
    return entitle_make_error (err, ENOMEM, "out of memory");
  plan->egress = nv;
  r.ports.r[0].lo = c.lo;
  r.ports.r[0].hi = c.hi;
  r.ports.n = 1;
  nv[plan->n_egress++] = r;
  return 0;
}

static int
merge_egress (struct entitle_bpf_plan_s *plan, entitle_error_t *err)
{
  size_t n = plan->n_egress, i, j;
  struct entitle_egress_rule_s *out = calloc (n ? n : 1, sizeof (*out));
  size_t k = 0;

  if (out == NULL)
    return entitle_make_error (err, ENOMEM, "out of memory");
  for (i = 0; i < n; i++)
    {
      struct entitle_egress_rule_s *r = &plan->egress[i];
      bool seen = false;
      for (j = 0; j < k; j++)
        seen |= out[j].family == r->family && out[j].len == r->len
                && memcmp (out[j].addr, r->addr, sizeof (r->addr)) == 0;
      if (seen)
        continue;
      out[k] = *r;
      out[k].ports.n = 0;
      for (j = 0; j < n; j++)
        if (covers (&plan->egress[j], r))
          {
            __u16 cnt = (__u16)out[k].ports.n;
            int ret = add_range (out[k].ports.r, &cnt, plan->egress[j].ports.r[0].lo,
                                 plan->egress[j].ports.r[0].hi, "network.egress", err);
            if (ret < 0)
              {
                free (out);
                return ret;
              }
            out[k].ports.n = cnt;
          }
      k++;
    }
  free (plan->egress);
  plan->egress = out;
  plan->n_egress = k;
  return 0;
}

static int
add_value (struct entitle_bpf_plan_s *plan, const char *name, const char *ent, const char *value,
           entitle_error_t *err)
{
  struct entitle_policy *p = &plan->policy;
  unsigned short a, b;

  if (strcmp (name, "network.egress") == 0)
    return add_egress (plan, ent, value, err);
  if (strcmp (name, "network.bind") == 0)
    {
      if (!entitle_parse_ports (value, &a, &b))
        return entitle_make_error (err, EINVAL, "entitlement `%s`: the value must be PORT[-PORT]", ent);
      return add_range (p->bind, &p->n_bind, a, b, ent, err);
    }
  if (strcmp (name, "network.bind-map") == 0)
    {
      if (!entitle_parse_port_map (value, &a, &b))
        return entitle_make_error (err, EINVAL, "entitlement `%s`: the value must be FROM:TO", ent);
      return add_range (p->map, &p->n_map, a, b, ent, err);
    }
  return 0;
}

static int
add_entitlement (struct entitle_bpf_plan_s *plan, const char *ent, entitle_error_t *err)
{
  const char *eq = strchr (ent, '=');
  size_t len = eq ? (size_t)(eq - ent) : strlen (ent), i;

  for (i = 0; i < sizeof (rows) / sizeof (rows[0]); i++)
    {
      if (strlen (rows[i].name) != len || strncmp (rows[i].name, ent, len) != 0)
        continue;
      plan->policy.flags |= rows[i].flag;
      plan->attach |= rows[i].attach;
      if (eq != NULL && add_value (plan, rows[i].name, ent, eq + 1, err) < 0)
        return -1;
      return 1;
    }
  return 0;
}

/* linux.sysctl keys as the kernel names them to the sysctl program.  */
static int
add_sysctls (struct entitle_bpf_plan_s *plan, const json_t *spec, entitle_error_t *err)
{
  const json_t *linux_ = json_get (spec, "linux");
  const json_t *s = linux_ ? json_get (linux_, "sysctl") : NULL;
  size_t i, n = 0;

  for (i = 0; s && s->type == JSON_OBJECT && i < s->n; i++)
    {
      char name[ENTITLE_SYSCTL_NAME], *c;
      if (strlen (s->keys[i]) >= sizeof (name))
        return entitle_make_error (err, ENAMETOOLONG, "sysctl `%s`: name too long for the sysctl policy",
                                   s->keys[i]);
      strcpy (name, s->keys[i]);
      for (c = name; *c; c++)
        if (*c == '.')
          *c = '/';
      if (!strv_push (&plan->sysctls, &n, name))
        return entitle_make_error (err, ENOMEM, "out of memory");
    }
  return 0;
}

int
entitle_bpf_plan (struct entitle_bpf_plan_s *plan, char *const *applied, const json_t *spec,
                  entitle_error_t *err)
{
  size_t i, n_needs = 0;

  memset (plan, 0, sizeof (*plan));
  for (i = 0; applied && applied[i]; i++)
    {
      int ret = add_entitlement (plan, applied[i], err);
      if (ret < 0)
        return -1;
      if (ret > 0 && !strv_push (&plan->needs, &n_needs, applied[i]))
        return entitle_make_error (err, ENOMEM, "out of memory");
    }
  if (plan->attach == 0)
    return 0;
  if (merge_egress (plan, err) < 0)
    return -1;
  if ((plan->policy.flags & POL_SYSCTL_RO) && add_sysctls (plan, spec, err) < 0)
    return -1;
  return 1;
}

void
entitle_bpf_plan_free (struct entitle_bpf_plan_s *plan)
{
  size_t i;
  free (plan->egress);
  for (i = 0; plan->sysctls && plan->sysctls[i]; i++)
    free (plan->sysctls[i]);
  free (plan->sysctls);
  for (i = 0; plan->needs && plan->needs[i]; i++)
    free (plan->needs[i]);
  free (plan->needs);
  memset (plan, 0, sizeof (*plan));
}
