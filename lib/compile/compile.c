/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <selinux/selinux.h>
#include "caps.h"
#include "compile.h"
#include "hold.h"
#include "hooks.h"
#include "devices.h"
#include "landlock.h"
#include "namespaces.h"
#include "paths.h"
#include "probe.h"
#include "resolve.h"
#include "seccomp-rules.h"
#include "strset.h"
#include "utils.h"

/* The union of what the rows of a set do.  */
struct effects
{
  char **cap_add, **cap_drop, **sys_deny, **sys_allow;
  size_t n_add, n_drop, n_deny, n_allow;
  char **cap_keep; /**< the intersection of the rows' upper bounds, or NULL: none */
  size_t n_keep;
  unsigned fx;
  const struct entitle_sys_rule_s **rules; /**< custom rows' seccomp rules, NULL-terminated */
  size_t n_rules;
};

static void
strv_push (char ***v, size_t *n, const char *s)
{
  *v = xrealloc (*v, (*n + 2) * sizeof (char *));
  s = xstrdup (s);
  (*v)[(*n)++] = (char *)s;
  (*v)[*n] = NULL;
}

static void
strv_add (char ***v, size_t *n, const char *s)
{
  size_t i;
  for (i = 0; i < *n; i++)
    if (strcmp ((*v)[i], s) == 0)
      return;
  strv_push (v, n, s);
}

/* A list of syscall names kept unique through @seen: plan_seccomp builds
   lists of a hundred names, where strv_add's scan would cost more than
   the rest of the plan.  */
struct names_s
{
  char ***v;
  size_t *n;
  struct entitle_strset_s seen;
};

static void
names_add (struct names_s *l, const char *s)
{
  if (!entitle_strset_has (&l->seen, s, strlen (s)))
    {
      strv_push (l->v, l->n, s);
      entitle_strset_add (&l->seen, (*l->v)[*l->n - 1], strlen (s));
    }
}

static void
names_add_all (struct names_s *l, const char *const *list)
{
  for (; list && *list; list++)
    names_add (l, *list);
}

static void
strv_add_all (char ***v, size_t *n, const char *const *list)
{
  for (; list && *list; list++)
    strv_add (v, n, *list);
}

static void
effects_free (struct effects *e)
{
  cleanup_strvp (&e->cap_add);
  cleanup_strvp (&e->cap_drop);
  cleanup_strvp (&e->cap_keep);
  cleanup_strvp (&e->sys_deny);
  cleanup_strvp (&e->sys_allow);
  free (e->rules);
}
#define cleanup_effects __attribute__ ((cleanup (effects_free)))

/* Two upper bounds (confined and view never meet: one ladder) keep what
   both keep.  */
static void
keep_also (struct effects *e, const char *const *keep)
{
  size_t i = 0;

  if (e->cap_keep == NULL)
    {
      strv_add_all (&e->cap_keep, &e->n_keep, keep);
      return;
    }
  while (i < e->n_keep)
    {
      bool kept = false;
      for (const char *const *k = keep; *k; k++)
        kept |= strcmp (*k, e->cap_keep[i]) == 0;
      if (kept)
        i++;
      else
        {
          free (e->cap_keep[i]);
          memmove (&e->cap_keep[i], &e->cap_keep[i + 1], (e->n_keep - i) * sizeof (char *));
          e->n_keep--;
        }
    }
}

/* A row's own seccomp rules, once however many values it has.  */
static void
rules_add (struct effects *e, const struct entitle_entry_s *r)
{
  size_t i, k;

  for (i = 0; i < r->n_sys_rules; i++)
    {
      for (k = 0; k < e->n_rules && e->rules[k] != &r->sys_rules[i]; k++)
        ;
      if (k < e->n_rules)
        continue;
      e->rules = xrealloc (e->rules, (e->n_rules + 2) * sizeof (*e->rules));
      e->rules[e->n_rules++] = &r->sys_rules[i];
      e->rules[e->n_rules] = NULL;
    }
}

static void
effects_of (const struct entitle_set_s *set, struct effects *e)
{
  size_t i;
  for (i = 0; i < set->n; i++)
    {
      const struct entitle_entry_s *r = set->items[i].entry;
      strv_add_all (&e->cap_add, &e->n_add, r->cap_add);
      strv_add_all (&e->cap_drop, &e->n_drop, r->cap_drop);
      strv_add_all (&e->sys_deny, &e->n_deny, r->sys_deny);
      strv_add_all (&e->sys_allow, &e->n_allow, r->sys_allow);
      if (r->cap_keep)
        keep_also (e, r->cap_keep);
      e->fx |= r->fx;
      rules_add (e, r);
    }
}

/* Is @cap taken away: dropped, or outside the upper bound and not added
   by another row?  */
static bool
removes (const struct effects *e, const char *cap)
{
  if (entitle_strv_has (e->cap_drop, cap))
    return true;
  return e->cap_keep && !entitle_strv_has (e->cap_keep, cap) && !entitle_strv_has (e->cap_add, cap);
}

/* Restrictions that need a mechanism this host lacks (cgroup BPF is
   checked where it is enforced: by entitle-hook at createRuntime).  */
static void
note_unenforceable (struct entitle_ctx_s *ctx, const struct entitle_set_s *set, struct entitle_outcome_s *out)
{
  size_t i;
  for (i = 0; i < set->n; i++)
    {
      const struct entitle_entry_s *r = set->items[i].entry;
      char what[128], why[256];
      if ((r->fx & FX_LANDLOCK) == 0 || !entitle_landlock_lacks (r, entitle_landlock_abi (ctx), why, sizeof (why)))
        continue;
      snprintf (what, sizeof (what), "entitlement `%s`", r->name);
      entitle_outcome_lack (out, what, "%s", why);
    }
}

bool
entitle_apparmor_enabled (struct entitle_ctx_s *ctx)
{
  if (ctx->apparmor_enabled < 0)
    {
      cleanup_file FILE *f = fopen ("/sys/module/apparmor/parameters/enabled", "re");
      ctx->apparmor_enabled = f && fgetc (f) == 'Y';
    }
  return ctx->apparmor_enabled;
}

bool
entitle_selinux_enabled (struct entitle_ctx_s *ctx)
{
  if (ctx->selinux_enabled < 0)
    ctx->selinux_enabled = is_selinux_enabled () == 1;
  return ctx->selinux_enabled;
}

static int
apply_process (struct entitle_ctx_s *ctx, json_t *process, const struct effects *e, struct entitle_outcome_s *out,
               entitle_error_t *err)
{
  int ret;

  ret = entitle_caps_apply (ctx, process, e->cap_add, e->cap_drop, e->cap_keep, out, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (e->fx & FX_NNP)
    json_set (process, "noNewPrivileges", json_new_bool (true));
  /* Relax only the LSMs the host runs: a label it cannot apply would fail
     the container.  */
  if ((e->fx & FX_LSM_UNCONFINED) && entitle_apparmor_enabled (ctx))
    json_set (process, "apparmorProfile", json_new_string ("unconfined"));
  if ((e->fx & FX_LSM_UNCONFINED) && entitle_selinux_enabled (ctx))
    json_set (process, "selinuxLabel", json_new_string ("system_u:system_r:spc_t:s0"));
  return 0;
}

int
entitle_compile_process (struct entitle_ctx_s *ctx, json_t *process, const struct entitle_set_s *set,
                         struct entitle_outcome_s *out, entitle_error_t *err)
{
  cleanup_effects struct effects e = { 0 };

  effects_of (set, &e);
  return apply_process (ctx, process, &e, out, err);
}

/* A syscall gated on a capability taken away stays allowed only if another
   capability still held gates it too, or the kernel no longer gates it
   (ptrace from Linux 4.8 on, as Docker's profile).  */
/* Is @s gated by a capability of the table other than @g[@i] that
   @process holds (@held, per row)?  */
static bool
gated_by_other (const struct entitle_cap_syscalls_s *g, size_t n, size_t i, const bool *held, const char *s)
{
  size_t k;
  for (k = 0; k < n; k++)
    if (k != i && held[k])
      for (const char *const *t = g[k].syscalls; *t; t++)
        if (strcmp (*t, s) == 0)
          return true;
  return false;
}

/* What the hold denies: the syscalls of each capability of the reach
   table that @process holds, whatever another row allows (a row that
   allows one is refused beside it: entitle_hold_check).  */
static void
hold_deny (const json_t *process, struct names_s *d)
{
  const struct entitle_reach_s *r;
  size_t i, n;

  r = entitle_reach (&n);
  for (i = 0; i < n; i++)
    if (entitle_caps_holds (process, r[i].cap))
      names_add_all (d, r[i].syscalls);
}

static void
plan_seccomp (const json_t *process, const struct effects *e, struct entitle_seccomp_plan_s *plan,
              char ***deny, size_t *n_deny, char ***allow, size_t *n_allow)
{
  struct names_s d = { deny, n_deny, { 0 } }, a = { allow, n_allow, { 0 } };
  const struct entitle_cap_syscalls_s *g;
  bool held[64];
  size_t n, i;

  g = entitle_cap_gated (&n);
  if (n > sizeof (held) / sizeof (held[0]))
    abort ();
  entitle_strset_init (&d.seen, 128);
  entitle_strset_init (&a.seen, 32);
  /* A rung's "still deny" yields to another ladder's explicit allowance
     (security.admin and host.modules.admin load modules); a capability
     taken away still takes its syscalls away below.  */
  for (char **p = e->sys_deny; p && *p; p++)
    if (!entitle_strv_has (e->sys_allow, *p))
      names_add (&d, *p);
  if (e->fx & FX_HOLD)
    hold_deny (process, &d);
  names_add_all (&a, (const char *const *)e->sys_allow);
  for (i = 0; i < n; i++)
    {
      held[i] = entitle_caps_bounding_has (process, g[i].cap);
      if (held[i] && entitle_strv_has (e->cap_add, g[i].cap))
        names_add_all (&a, g[i].syscalls);
    }
  for (i = 0; i < n; i++)
    if (removes (e, g[i].cap))
      for (const char *const *s = g[i].syscalls; *s; s++)
        if (!entitle_cap_ungated (*s) && !gated_by_other (g, n, i, held, *s))
          names_add (&d, *s);
  entitle_strset_free (&d.seen);
  entitle_strset_free (&a.seen);
  plan->deny = *deny;
  plan->allow = *allow;
  plan->rules = e->rules;
  plan->fx = e->fx & FX_SECCOMP;
  plan->clone_no_ns = removes (e, "CAP_SYS_ADMIN");
  plan->clone_ns = !plan->clone_no_ns && entitle_strv_has (e->cap_add, "CAP_SYS_ADMIN")
                   && entitle_caps_bounding_has (process, "CAP_SYS_ADMIN");
}

static int
apply_seccomp (struct entitle_ctx_s *ctx, json_t *spec, const struct effects *e, struct entitle_outcome_s *out,
               entitle_error_t *err)
{
  struct entitle_seccomp_plan_s plan = { 0 };
  cleanup_strv char **deny = NULL, **allow = NULL;
  size_t n_deny = 0, n_allow = 0;
  int ret;

  plan_seccomp (json_get (spec, "process"), e, &plan, &deny, &n_deny, &allow, &n_allow);
  ret = entitle_seccomp_apply (ctx, spec, &plan, out, err);
  if (UNLIKELY (ret < 0))
    return ret;
  /* crun loads run.oci.seccomp_bpf_data instead of linux.seccomp: where
     the set has a seccomp part the profile entitle wrote must not be
     shadowed by it, also when this compile found the profile as it writes
     it (a config compiled before, the annotation added since).  */
  if (((deny && deny[0]) || (allow && allow[0]) || plan.fx || plan.clone_ns || plan.clone_no_ns)
      && json_del (json_get (spec, "annotations"), "run.oci.seccomp_bpf_data"))
    entitle_outcome_note (out, ENTITLE_LOG_WARNING,
                          "removed annotation `run.oci.seccomp_bpf_data`: it would replace the seccomp profile entitle wrote");
  return 0;
}

/* "NAME@DIGEST,..." of the custom rows of @set, or NULL without one.  */
static char *
custom_record (const struct entitle_set_s *set)
{
  char *out = NULL;
  size_t i, len = 0;

  for (i = 0; i < set->n; i++)
    {
      const struct entitle_entry_s *r = set->items[i].entry;
      char *more;

      if (r->custom == NULL || (i > 0 && set->items[i - 1].entry == r))
        continue;
      more = xrealloc (out, len + strlen (r->name) + strlen (r->digest) + 3);
      out = more;
      len += (size_t)sprintf (out + len, "%s%s@%s", len ? "," : "", r->name, r->digest);
    }
  return out;
}

int
entitle_compile (struct entitle_ctx_s *ctx, json_t *spec, const struct entitle_set_s *set,
                 struct entitle_outcome_s *out, entitle_error_t *err)
{
  cleanup_effects struct effects e = { 0 };
  cleanup_free char *applied = NULL, *custom = NULL;
  json_t *linux_, *annotations;
  int ret;

  if (spec->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "config is not a JSON object");
  note_unenforceable (ctx, set, out);
  effects_of (set, &e);
  ret = apply_process (ctx, json_get_or_add (spec, "process", JSON_OBJECT), &e, out, err);
  if (UNLIKELY (ret < 0))
    return ret;
  /* Held or not by the capabilities it ends with, whoever gave them.  */
  e.fx = entitle_hold_fx (json_get (spec, "process"), e.fx);
  linux_ = json_get_or_add (spec, "linux", JSON_OBJECT);
  entitle_namespaces_apply (linux_, e.fx);
  ret = entitle_paths_apply (linux_, set, err);
  if (UNLIKELY (ret < 0))
    return ret;
  entitle_devices_apply (linux_, e.fx);
  ret = apply_seccomp (ctx, spec, &e, out, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = entitle_add_hooks (ctx, spec, set, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = entitle_landlock_apply (ctx, spec, set, err);
  if (UNLIKELY (ret < 0))
    return ret;
  annotations = json_get_or_add (spec, "annotations", JSON_OBJECT);
  applied = entitle_set_format (set);
  json_set (annotations, ENTITLE_ANNOTATION_APPLIED, json_new_string (applied));
  json_set (annotations, ENTITLE_ANNOTATION_VERSION, json_new_string (PACKAGE_VERSION));
  if ((custom = custom_record (set)) != NULL)
    json_set (annotations, ENTITLE_ANNOTATION_CUSTOM, json_new_string (custom));
  else
    json_del (annotations, ENTITLE_ANNOTATION_CUSTOM);
  return 0;
}
