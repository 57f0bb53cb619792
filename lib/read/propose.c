/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <seccomp.h>
#include "catalogue.h"
#include "propose.h"
#include "utils.h"

#define MAX_CHOSEN 16

/* What a row is judged against: the run's uses, and the rows proposed so
   far (a capability one of them adds is not taken away by another's
   bound).  */
struct judge_s
{
  const struct entitle_observed_s *o;
  const struct entitle_entry_s *chosen[MAX_CHOSEN];
  size_t n_chosen;
};

static struct entitle_proposed_s *
add (struct entitle_proposal_s *p, const char *entitlement, const char *evidence, const char *narrower)
{
  struct entitle_proposed_s *it;

  p->items = xrealloc (p->items, (p->n + 1) * sizeof (*p->items));
  it = &p->items[p->n++];
  memset (it, 0, sizeof (*it));
  it->entitlement = xstrdup (entitlement);
  it->evidence = xstrdup (evidence);
  it->narrower = narrower ? xstrdup (narrower) : NULL;
  return it;
}

void
entitle_proposal_note (struct entitle_proposal_s *p, const char *sentence)
{
  size_t n = 0;
  while (p->not_observed && p->not_observed[n])
    n++;
  p->not_observed = xrealloc (p->not_observed, (n + 2) * sizeof (char *));
  p->not_observed[n] = xstrdup (sentence);
  p->not_observed[n + 1] = NULL;
}

static bool
runtime_sysctl (const struct entitle_observed_s *o, const struct entitle_event *ev)
{
  char name[ENTITLE_SYSCTL_NAME + 1] = { 0 };

  memcpy (name, ev->name, ENTITLE_SYSCTL_NAME);
  for (char *c = name; *c; c++)
    if (*c == '/')
      *c = '.';
  return entitle_strv_has (o->sysctl_keys, name);
}

/* Does the row @e deny use @u of @j's run (the syscalls first, which
   seccomp refuses before any program runs, then the programs' records,
   then the capability checks)?  How, for people, into @how.  */
static bool
denies_use (const struct entitle_entry_s *e, const struct judge_s *j, size_t u, char *how, size_t len)
{
  const struct entitle_observed_s *o = j->o;
  const struct entitle_event *ev;
  const char *cap;
  int point;

  if (u < o->n_syscalls)
    return entitle_entry_denies_syscall (e, &o->syscalls[u], how, len);
  if (u >= o->n_syscalls + o->n_events)
    return entitle_entry_denies_cap (e, &o->caps[u - o->n_syscalls - o->n_events], j->chosen, j->n_chosen, how,
                                     len);
  ev = &o->events[u - o->n_syscalls];
  if (ev->hook == BPF_CGROUP_SYSCTL && runtime_sysctl (o, ev))
    return false;
  point = entitle_event_point (ev);
  if (entitle_policy_denies (e->policy, ev))
    return snprintf (how, len, "cgroup BPF %s", point >= 0 ? entitle_attach_points[point].name : "?") > 0;
  if ((cap = entitle_event_needs_cap (ev, o->unprivileged_port)) && entitle_entry_removes_cap (e, cap))
    return snprintf (how, len, "it takes %s, which this needs", cap) > 0;
  return false;
}

static void
describe_use (const struct entitle_observed_s *o, size_t u, char *buf, size_t len)
{
  if (u < o->n_syscalls)
    entitle_syscall_describe (&o->syscalls[u], buf, len);
  else if (u < o->n_syscalls + o->n_events)
    entitle_event_describe (&o->events[u - o->n_syscalls], buf, len);
  else
    entitle_cap_use_describe (&o->caps[u - o->n_syscalls - o->n_events], buf, len);
}

/* The first use @e denies, or SIZE_MAX.  */
static size_t
first_denied (const struct entitle_entry_s *e, const struct judge_s *j)
{
  char how[200];
  size_t u;

  for (u = 0; u < j->o->n_syscalls + j->o->n_events + j->o->n_caps; u++)
    if (denies_use (e, j, u, how, sizeof (how)))
      return u;
  return SIZE_MAX;
}

/* Why use @u of the run may not have gone through under the engine's
   config, for people, into @buf; false when it went through.  The
   programs and the seccomp listener see a call before the kernel checks
   its capabilities: a call went through only where no capability it
   asked for was refused (any, when the check's call is not known), and
   that is known only where capability checks were watched.  */
static bool
not_let_through (const struct judge_s *j, size_t u, char *buf, size_t len)
{
  const struct entitle_observed_s *o = j->o;
  char use[160];
  int nr = u < o->n_syscalls ? seccomp_syscall_resolve_name (o->syscalls[u].name) : -1;
  size_t i;

  if (u >= o->n_syscalls + o->n_events)
    {
      const struct entitle_cap_use_s *c = &o->caps[u - o->n_syscalls - o->n_events];
      entitle_cap_name (c->cap, use, sizeof (use));
      return !c->granted && snprintf (buf, len, "the engine's config refused %s in the run", use) > 0;
    }
  describe_use (o, u, use, sizeof (use));
  if (!o->caps_seen)
    return snprintf (buf, len, "capability checks were not watched, so whether %s went through is not known", use)
           > 0;
  for (i = 0; i < o->n_caps; i++)
    if (!o->caps[i].granted && (o->caps[i].syscall < 0 || nr < 0 || o->caps[i].syscall == nr))
      return snprintf (buf, len, "the engine's config refused %s a capability", use) > 0;
  return false;
}

/* The syscalls among the uses the rung @below denies (malloc'd,
   NULL-terminated; the names are the run's).  */
static char **
denied_syscalls (const struct entitle_entry_s *below, const struct judge_s *j)
{
  char **names = xcalloc (j->o->n_syscalls + 1, sizeof (char *)), how[200];
  size_t u, n = 0;

  for (u = 0; u < j->o->n_syscalls; u++)
    if (denies_use (below, j, u, how, sizeof (how)))
      names[n++] = xstrdup (j->o->syscalls[u].name);
  return names;
}

/* The narrower choice than rung @i of @rungs, into @it: no rung of the
   ladder at all (the engine's config, which needs no grant) covers the
   evidence when each use the rung below denies went through in the run
   (the syscalls among them, which the rest of the proposal must let
   through too, into @it's narrower_syscalls); else why nothing narrower
   does.  */
static void
narrower_rung (const struct entitle_entry_s *const *rungs, size_t i, const struct judge_s *j,
               struct entitle_proposed_s *it)
{
  const char *domain = entitle_domain_name (rungs[i]->domain);
  char how[200], why[256], line[512];
  size_t u, n = j->o->n_syscalls + j->o->n_events + j->o->n_caps;

  if (i == 0)
    {
      snprintf (line, sizeof (line), "no %s.* rung: nothing the run used needs it", domain);
      it->narrower = xstrdup (line);
      return;
    }
  for (u = 0; u < n; u++)
    if (denies_use (rungs[i - 1], j, u, how, sizeof (how)) && not_let_through (j, u, why, sizeof (why)))
      {
        snprintf (line, sizeof (line), "none: %s, and no narrower %s.* rung allows it", why, domain);
        it->narrower = xstrdup (line);
        return;
      }
  describe_use (j->o, first_denied (rungs[i - 1], j), how, sizeof (how));
  snprintf (line, sizeof (line), "no %s.* rung: the engine's config let %s through in the run", domain, how);
  it->narrower = xstrdup (line);
  it->narrower_syscalls = denied_syscalls (rungs[i - 1], j);
}

/* The narrower choice than @r, the giver of capability use @c's
   capability, into @buf.  */
static void
narrower_giver (const struct entitle_entry_s *r, const struct entitle_cap_use_s *c, const struct judge_s *j,
                char *buf, size_t len)
{
  char name[64];
  size_t k;

  entitle_cap_name (c->cap, name, sizeof (name));
  for (k = 0; c->granted && k < j->n_chosen; k++)
    if (entitle_entry_removes_cap (j->chosen[k], name))
      {
        snprintf (buf, len, "without %s, which takes %s away, the engine's config gives it", j->chosen[k]->name,
                  name);
        return;
      }
  snprintf (buf, len, "none: the engine's config refused %s, and %s gives it with the fewest other capabilities",
            name, r->name);
}

/* "USE: denied by A and B (HOW)": the use that rules out the rungs below
   @chosen, and each of them that denies it.  */
static void
evidence (const struct entitle_entry_s *const *rungs, size_t chosen, const struct judge_s *j, size_t u, char *buf,
          size_t len)
{
  char how[200] = "", use[160];
  size_t i, k = 0, at;

  describe_use (j->o, u, use, sizeof (use));
  at = (size_t)snprintf (buf, len, "%s: denied by ", use);
  for (i = 0; i < chosen && at < len; i++)
    if (denies_use (rungs[i], j, u, how, sizeof (how)))
      at += (size_t)snprintf (buf + at, len - at, "%s%s", k++ ? " and " : "", rungs[i]->name);
  if (at < len)
    snprintf (buf + at, len - at, " (%s)", how);
}

static int
by_rung (const void *a, const void *b)
{
  const struct entitle_entry_s *x = *(const struct entitle_entry_s *const *)a;
  const struct entitle_entry_s *y = *(const struct entitle_entry_s *const *)b;
  return x->rung - y->rung;
}

/* The rungs of @domain, narrow to wide, into @out; returns the count.  */
static size_t
ladder (enum entitle_domain domain, const struct entitle_entry_s **out, size_t room)
{
  size_t n, i, k = 0;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (NULL, &n);

  for (i = 0; i < n && k < room; i++)
    if (rows[i].domain == domain && rows[i].rung > 0)
      out[k++] = &rows[i];
  qsort (out, k, sizeof (*out), by_rung);
  return k;
}

/* @r, the giver of a capability the run used (lib/read/cap-use.h),
   where learn proposes it on its own: proposed with that evidence.  */
static bool
propose_given (const struct entitle_entry_s *r, const struct judge_s *j, struct entitle_proposal_s *p)
{
  char line[256], narrower[256];
  size_t i;

  for (i = 0; i < j->o->n_caps; i++)
    if (entitle_cap_needs_giver (&j->o->caps[i], r, j->chosen, j->n_chosen, line, sizeof (line)))
      {
        narrower_giver (r, &j->o->caps[i], j, narrower, sizeof (narrower));
        add (p, r->name, line, narrower);
        return true;
      }
  return false;
}

/* A ladder learn does not propose: its widest rung that a capability of
   the run needs, else a note that says why not.  */
static const struct entitle_entry_s *
unproposed (enum entitle_domain domain, const struct entitle_entry_s *const *rungs, size_t n, const struct judge_s *j,
            struct entitle_proposal_s *p)
{
  char line[256];

  while (n-- > 0)
    if (propose_given (rungs[n], j, p))
      return rungs[n];
  snprintf (line, sizeof (line), "%s.*: not proposed: what its rungs restrict is not seen by a run",
            entitle_domain_name (domain));
  entitle_proposal_note (p, line);
  return NULL;
}

/* The narrowest rung of @domain that denies nothing the run used.  Only a
   ladder whose narrowest rung the counting programs watch (it carries
   POL_* bits) is proposed: the others restrict what a run does not show
   (devices, /sys, namespaces), and proposing their narrowest rung would
   be a guess.  */
static const struct entitle_entry_s *
propose_rung (enum entitle_domain domain, const struct judge_s *j, struct entitle_proposal_s *p)
{
  const struct entitle_entry_s *rungs[16];
  size_t n = ladder (domain, rungs, 16), i, u = SIZE_MAX, last = SIZE_MAX;
  char line[512];

  if (n == 0)
    return NULL;
  if (!entitle_ladder_proposed (domain))
    return unproposed (domain, rungs, n, j, p);
  for (i = 0; i < n; i++)
    {
      last = u;
      if ((u = first_denied (rungs[i], j)) == SIZE_MAX)
        break;
    }
  if (i == n)
    return NULL;
  if (i == 0)
    snprintf (line, sizeof (line), "nothing the run used is denied by it");
  else
    evidence (rungs, i, j, last, line, sizeof (line));
  narrower_rung (rungs, i, j, add (p, rungs[i]->name, line, NULL));
  return rungs[i];
}

/* A value of an allowlist and the first use it lists.  */
struct value_s
{
  char text[96];
  const struct entitle_event *use;
};

static int
by_text (const void *a, const void *b)
{
  return strcmp (((const struct value_s *)a)->text, ((const struct value_s *)b)->text);
}

static bool
contradicted (const struct entitle_entry_s *m, const struct entitle_entry_s *const *chosen, size_t n_chosen,
              struct entitle_proposal_s *p)
{
  size_t i;
  char line[256];

  for (i = 0; i < n_chosen; i++)
    if (entitle_strv_has ((char *const *)m->contradicts, chosen[i]->name))
      {
        snprintf (line, sizeof (line), "%s: not proposed: it contradicts %s, which the run needs", m->name,
                  chosen[i]->name);
        entitle_proposal_note (p, line);
        return true;
      }
  return false;
}

/* An allowlist modifier whose programs entitle learn attaches: the
   values that list each use its programs saw, once each.  */
static void
propose_values (const struct entitle_entry_s *m, const struct entitle_observed_s *o,
                const struct entitle_entry_s *const *chosen, size_t n_chosen, struct entitle_proposal_s *p)
{
  cleanup_free struct value_s *v = xcalloc (o->n_events + 1, sizeof (*v));
  size_t n = 0, i;
  for (i = 0; i < o->n_events; i++)
    {
      const struct entitle_event *ev = &o->events[i];
      int point = entitle_event_point (ev);

      if (point < 0 || !(m->attach & ATTACH_BIT (point)) || ev->family == 0
          || !entitle_event_value (m, ev, v[n].text, sizeof (v[n].text)))
        continue;
      v[n++].use = ev;
    }
  if (n == 0 || contradicted (m, chosen, n_chosen, p))
    return;
  qsort (v, n, sizeof (*v), by_text);
  for (i = 0; i < n; i++)
    if (i == 0 || strcmp (v[i].text, v[i - 1].text) != 0)
      {
        char name[160], use[160];
        snprintf (name, sizeof (name), "%s=%s", m->name, v[i].text);
        entitle_event_describe (v[i].use, use, sizeof (use));
        add (p, name, use, NULL);
      }
}

/* A capability the run asked for and was refused that no row gives.  */
static void
note_giverless (const struct entitle_observed_s *o, struct entitle_proposal_s *p)
{
  char name[64], use[160], line[256];
  size_t i;

  for (i = 0; i < o->n_caps; i++)
    {
      entitle_cap_name (o->caps[i].cap, name, sizeof (name));
      if (o->caps[i].granted || entitle_cap_giver (name) != NULL)
        continue;
      entitle_cap_use_describe (&o->caps[i], use, sizeof (use));
      snprintf (line, sizeof (line), "%s: not proposed: no entitlement gives it", use);
      entitle_proposal_note (p, line);
    }
}

/* The ladders, narrow to wide, each in the catalogue's order: a rung
   chosen is judged beside the ones chosen before it.  */
static void
propose_rungs (struct judge_s *j, struct entitle_proposal_s *p)
{
  for (int d = DOMAIN_NETWORK; d <= DOMAIN_MODULES; d++)
    {
      const struct entitle_entry_s *r = propose_rung ((enum entitle_domain)d, j, p);
      if (r && j->n_chosen < MAX_CHOSEN)
        j->chosen[j->n_chosen++] = r;
    }
}

void
entitle_propose (const struct entitle_observed_s *o, struct entitle_proposal_s *p)
{
  struct judge_s j = { .o = o };
  const struct entitle_entry_s *rows;
  size_t n, i;
  char line[256];

  memset (p, 0, sizeof (*p));
  propose_rungs (&j, p);
  rows = entitle_catalogue_rows (NULL, &n);
  for (i = 0; i < n; i++)
    {
      const struct entitle_entry_s *m = &rows[i];
      if (m->rung == 0 && m->value == NULL && propose_given (m, &j, p) && j.n_chosen < MAX_CHOSEN)
        j.chosen[j.n_chosen++] = m;
      if (m->rung != 0 || m->value == NULL || m->value->covers == NULL || m->attach == 0)
        continue;
      if (m->attach & ENTITLE_LEARN_ATTACH & ~ATTACH_BIT (ATTACH_SOCK_CREATE))
        propose_values (m, o, j.chosen, j.n_chosen, p);
      else
        {
          snprintf (line, sizeof (line), "%s: not proposed: what it allows (%s) is not seen by a run", m->name,
                    m->summary);
          entitle_proposal_note (p, line);
        }
    }
  if (!o->syscalls_seen)
    entitle_proposal_note (p, "syscalls: not observed (the seccomp listener did not run): rungs proposed from the cgroup programs alone");
  note_giverless (o, p);
}

char *
entitle_proposal_list (const struct entitle_proposal_s *p)
{
  size_t len = 1, i;
  char *out;

  for (i = 0; i < p->n; i++)
    len += strlen (p->items[i].entitlement) + 1;
  out = xcalloc (1, len);
  for (i = 0; i < p->n; i++)
    {
      if (i)
        strcat (out, ",");
      strcat (out, p->items[i].entitlement);
    }
  return out;
}

void
entitle_proposal_free (struct entitle_proposal_s *p)
{
  size_t i;
  for (i = 0; i < p->n; i++)
    {
      free (p->items[i].entitlement);
      free (p->items[i].evidence);
      free (p->items[i].narrower);
      cleanup_strvp (&p->items[i].narrower_syscalls);
    }
  free (p->items);
  cleanup_strvp (&p->not_observed);
  memset (p, 0, sizeof (*p));
}
