/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <seccomp.h>
#include <sys/capability.h>
#include "cap-use.h"
#include "denial.h"
#include "utils.h"

void
entitle_cap_name (int cap, char *buf, size_t len)
{
  char *name = cap >= 0 ? cap_to_name ((cap_value_t)cap) : NULL;
  size_t i;

  if (name == NULL || strncmp (name, "cap_", 4) != 0)
    snprintf (buf, len, "capability %d", cap);
  else
    {
      for (i = 0; name[i] && i + 1 < len; i++)
        buf[i] = (char)toupper ((unsigned char)name[i]);
      buf[i] = '\0';
    }
  cap_free (name);
}

void
entitle_cap_use_describe (const struct entitle_cap_use_s *c, char *buf, size_t len)
{
  cleanup_free char *sys = c->syscall >= 0 ? seccomp_syscall_resolve_num_arch (SCMP_ARCH_NATIVE, c->syscall) : NULL;
  char name[64], by[80] = "";

  entitle_cap_name (c->cap, name, sizeof (name));
  if (sys)
    snprintf (by, sizeof (by), " by %s()", sys);
  if (c->granted)
    snprintf (buf, len, "%s used%s", name, by);
  else
    snprintf (buf, len, "%s asked for%s, refused in the run", name, by);
}

bool
entitle_ladder_proposed (enum entitle_domain domain)
{
  size_t n, i;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (NULL, &n);

  for (i = 0; i < n; i++)
    if (rows[i].domain == domain && rows[i].rung == 1)
      return rows[i].policy != 0;
  return false;
}

static size_t
count (const char *const *v)
{
  size_t n = 0;
  while (v && v[n])
    n++;
  return n;
}

const struct entitle_entry_s *
entitle_cap_giver (const char *cap)
{
  const struct entitle_entry_s *rows = NULL, *best = NULL;
  size_t n, i, best_n = 0;
  bool best_proposed = false;

  rows = entitle_catalogue_rows (NULL, &n);
  for (i = 0; i < n; i++)
    {
      const struct entitle_entry_s *r = &rows[i];
      bool proposed = r->rung > 0 && entitle_ladder_proposed (r->domain);

      if (r->exact_grant || (r->rung == 0 && r->value) || !entitle_strv_has ((char *const *)r->cap_add, cap))
        continue;
      if (best == NULL || (proposed && !best_proposed)
          || (proposed == best_proposed && count (r->cap_add) < best_n))
        {
          best = r;
          best_n = count (r->cap_add);
          best_proposed = proposed;
        }
    }
  return best;
}

/* Is @g proposed for a capability on its own, not as a ladder's rung?  */
static bool
alone (const struct entitle_entry_s *g)
{
  return g->rung == 0 || !entitle_ladder_proposed (g->domain);
}

bool
entitle_cap_given (const char *cap, enum entitle_domain domain, const struct entitle_entry_s *const *chosen,
                   size_t n_chosen)
{
  const struct entitle_entry_s *g = entitle_cap_giver (cap);
  size_t i;

  if (g && alone (g))
    return true;
  for (i = 0; i < n_chosen; i++)
    if (chosen[i]->domain != domain && entitle_strv_has ((char *const *)chosen[i]->cap_add, cap))
      return true;
  return false;
}

bool
entitle_entry_denies_cap (const struct entitle_entry_s *e, const struct entitle_cap_use_s *c,
                          const struct entitle_entry_s *const *chosen, size_t n_chosen, char *how, size_t len)
{
  const struct entitle_entry_s *g;
  char name[64];

  entitle_cap_name (c->cap, name, sizeof (name));
  if (c->granted)
    return entitle_entry_removes_cap (e, name) && !entitle_cap_given (name, e->domain, chosen, n_chosen)
           && snprintf (how, len, "it takes %s away", name) > 0;
  g = entitle_cap_giver (name);
  return g && !alone (g) && e->domain == g->domain && !entitle_strv_has ((char *const *)e->cap_add, name)
         && snprintf (how, len, "it does not give %s", name) > 0;
}

/* The first of @chosen that takes @cap away, or NULL.  */
static const struct entitle_entry_s *
taker (const char *cap, const struct entitle_entry_s *const *chosen, size_t n_chosen)
{
  for (size_t i = 0; i < n_chosen; i++)
    if (entitle_entry_removes_cap (chosen[i], cap))
      return chosen[i];
  return NULL;
}

bool
entitle_cap_needs_giver (const struct entitle_cap_use_s *c, const struct entitle_entry_s *r,
                         const struct entitle_entry_s *const *chosen, size_t n_chosen, char *why, size_t len)
{
  const struct entitle_entry_s *t = NULL;
  char name[64], use[160];

  entitle_cap_name (c->cap, name, sizeof (name));
  if (entitle_cap_giver (name) != r || !alone (r) || (c->granted && (t = taker (name, chosen, n_chosen)) == NULL))
    return false;
  entitle_cap_use_describe (c, use, sizeof (use));
  if (t)
    snprintf (why, len, "%s: %s takes it away, %s gives it", use, t->name, r->name);
  else
    snprintf (why, len, "%s: %s gives it", use, r->name);
  return true;
}
