/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include "bpf-plan.h"
#include "utils.h"

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

unsigned
entitle_bpf_custom_points (const struct entitle_entry_s *e)
{
  unsigned points = 0;
  size_t i;
  for (i = 0; i < e->n_progs; i++)
    if (e->progs[i].point < ATTACH_COUNT)
      points |= ATTACH_BIT (e->progs[i].point);
  return points;
}

bool
entitle_bpf_beyond_seed (const struct entitle_entry_s *e)
{
  return !entitle_entry_bpf_only (e) || e->attach || e->n_implies || entitle_bpf_custom_points (e);
}

bool
entitle_bpf_reads_sysctls (const struct entitle_set_s *set)
{
  size_t i;
  for (i = 0; i < set->n; i++)
    if (set->items[i].entry->policy & POL_SYSCTL_RO)
      return true;
  return false;
}

char *
entitle_bpf_quote (const struct entitle_set_s *set, unsigned attach)
{
  size_t len = 1, i;
  char *out;

  for (i = 0; i < set->n; i++)
    len += strlen (set->items[i].entry->name) + (set->items[i].value ? strlen (set->items[i].value) + 1 : 0) + 4;
  out = xcalloc (1, len);
  for (i = 0; i < set->n; i++)
    {
      const struct entitle_request_s *r = &set->items[i];
      if (((r->entry->attach | entitle_bpf_custom_points (r->entry)) & attach) == 0)
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

char **
entitle_sysctl_keys (const json_t *spec)
{
  const json_t *s = json_get (json_get (spec, "linux"), "sysctl");
  size_t i, n = s && s->type == JSON_OBJECT ? s->n : 0;
  char **keys = xcalloc (n + 1, sizeof (char *));

  for (i = 0; i < n; i++)
    keys[i] = xstrdup (s->keys[i]);
  return keys;
}

/* linux.sysctl keys as the kernel names them to the sysctl program.  */
static int
add_sysctls (struct entitle_policy *p, char *const *keys, entitle_error_t *err)
{
  for (; keys && *keys; keys++)
    {
      char *name = p->sysctl[p->n_sysctl];
      if (strlen (*keys) >= ENTITLE_SYSCTL_NAME)
        return entitle_make_error (err, ENAMETOOLONG, "sysctl `%s`: longer than %d bytes, the most the sysctl program compares",
                                   *keys, ENTITLE_SYSCTL_NAME - 1);
      if (p->n_sysctl >= ENTITLE_MAX_SYSCTLS)
        return entitle_make_error (err, E2BIG, "linux.sysctl sets more than %d keys, the most the sysctl program holds",
                                   ENTITLE_MAX_SYSCTLS);
      strcpy (name, *keys);
      for (char *c = name; *c; c++)
        if (*c == '.')
          *c = '/';
      p->n_sysctl++;
    }
  return 0;
}

int
entitle_bpf_plan (struct entitle_bpf_plan_s *plan, const struct entitle_set_s *set, char *const *sysctls,
                  entitle_error_t *err)
{
  size_t i;
  int ret;

  memset (plan, 0, sizeof (*plan));
  plan->set = set;
  for (i = 0; i < set->n; i++)
    {
      const struct entitle_request_s *r = &set->items[i];
      plan->policy.flags |= r->entry->policy;
      plan->attach |= r->entry->attach;
      plan->custom |= entitle_bpf_custom_points (r->entry);
      for (size_t k = 0; k < r->entry->n_progs; k++)
        plan->checmate |= r->entry->progs[k].point == ENTITLE_POINT_CHECMATE;
      ret = r->entry->fill && r->value ? r->entry->fill (&plan->policy, r->entry, &r->v, err) : 0;
      if (UNLIKELY (ret < 0))
        return ret;
    }
  if (plan->policy.flags & POL_SYSCTL_RO)
    {
      ret = add_sysctls (&plan->policy, sysctls, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  return plan->attach != 0 || plan->custom != 0 || plan->checmate;
}
