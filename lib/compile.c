/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <selinux/selinux.h>
#include "caps.h"
#include "compile.h"
#include "hooks.h"
#include "devices.h"
#include "resolve.h"
#include "seccomp-plan.h"
#include "utils.h"

/* The union of what the rows of a set do.  */
struct effects
{
  char **cap_add, **cap_drop, **sys_deny, **sys_allow;
  size_t n_add, n_drop, n_deny, n_allow;
  unsigned fx;
};

static void
strv_add (char ***v, size_t *n, const char *s)
{
  size_t i;
  for (i = 0; i < *n; i++)
    if (strcmp ((*v)[i], s) == 0)
      return;
  *v = realloc (*v, (*n + 2) * sizeof (char *));
  if (*v == NULL)
    abort ();
  (*v)[(*n)++] = strdup (s);
  (*v)[*n] = NULL;
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
  cleanup_strvp (&e->sys_deny);
  cleanup_strvp (&e->sys_allow);
}
#define cleanup_effects __attribute__ ((cleanup (effects_free)))

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
      e->fx |= r->fx;
    }
}

/* Restrictions that need mechanisms this tree does not have yet (cgroup
   BPF is checked where it is enforced: by entitle-hook at createRuntime).  */
static int
check_enforceable (struct entitle_ctx_s *ctx, const struct entitle_set_s *set, entitle_error_t *err)
{
  size_t i;
  for (i = 0; i < set->n; i++)
    {
      const struct entitle_entry_s *r = set->items[i].entry;
      const char *missing = (r->fx & FX_LANDLOCK) ? "the Landlock helper (not built in this version)" : NULL;
      if (missing == NULL)
        continue;
      if (!ctx->config->warn_unenforceable)
        return entitle_make_error (err, ENOSYS, "entitlement `%s` cannot be enforced here: it needs %s",
                                   r->name, missing);
      entitle_log_warning (ctx->log, "entitlement `%s` is not enforced: it needs %s", r->name, missing);
    }
  return 0;
}

static void
add_path (json_t *linux_, const char *key, const char *path)
{
  json_t *a = json_get_or_add (linux_, key, JSON_ARRAY);
  if (json_array_find_string (a, path) < 0)
    json_push (a, json_new_string (path));
}

/* Kernel memory and firmware stay hidden even from device admins.  */
static void
unmask (json_t *linux_)
{
  static const char *const keep[] = { "/proc/kcore", "/proc/keys", "/proc/sysrq-trigger",
                                      "/sys/firmware" };
  json_t *m = json_get (linux_, "maskedPaths");
  size_t i, k;

  for (i = 0; m && m->type == JSON_ARRAY && i < m->n;)
    {
      const char *p = json_string (m->items[i]);
      bool kept = false;
      for (k = 0; p && k < sizeof (keep) / sizeof (keep[0]); k++)
        kept |= strcmp (p, keep[k]) == 0;
      if (kept)
        i++;
      else
        json_remove_at (m, i);
    }
}

/* Widening first, restrictions after: a restriction always wins.  */
static void
apply_paths (json_t *linux_, unsigned fx)
{
  /* Emptied in place: json_set would move the key, and compiling twice
     must give the same bytes.  */
  if (fx & FX_CLEAR_RO)
    {
      json_t *ro = json_get_or_add (linux_, "readonlyPaths", JSON_ARRAY);
      while (ro->n > 0)
        json_remove_at (ro, ro->n - 1);
    }
  if (fx & FX_UNMASK)
    unmask (linux_);
  if (fx & FX_MASK_NET)
    {
      add_path (linux_, "maskedPaths", "/proc/sys/net");
      add_path (linux_, "maskedPaths", "/sys/class/net");
    }
  if (fx & FX_PROC_SYS_RO)
    add_path (linux_, "readonlyPaths", "/proc/sys");
  if (fx & FX_SYS_RO)
    {
      add_path (linux_, "readonlyPaths", "/sys");
      add_path (linux_, "maskedPaths", "/proc/kcore");
    }
}

static long
find_namespace (const json_t *ns, const char *type)
{
  size_t i;
  for (i = 0; ns && ns->type == JSON_ARRAY && i < ns->n; i++)
    {
      const char *t = json_string (json_get (ns->items[i], "type"));
      if (t && strcmp (t, type) == 0)
        return (long)i;
    }
  return -1;
}

/* A namespace given by path (a Kubernetes pod's) is never replaced.  */
static void namespace(json_t *linux_, const char *type, bool add, bool remove)
{
  json_t *ns = json_get_or_add (linux_, "namespaces", JSON_ARRAY);
  long at = find_namespace (ns, type);

  if (remove && at >= 0)
    json_remove_at (ns, (size_t)at);
  else if (add && at < 0)
    {
      json_t *n = json_new (JSON_OBJECT);
      json_set (n, "type", json_new_string (type));
      json_push (ns, n);
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

int
entitle_compile_process (struct entitle_ctx_s *ctx, json_t *process, const struct entitle_set_s *set,
                         entitle_error_t *err)
{
  cleanup_effects struct effects e = { 0 };
  int ret;

  effects_of (set, &e);
  ret = entitle_caps_apply (ctx, process, e.cap_add, e.cap_drop, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (e.fx & FX_NNP)
    json_set (process, "noNewPrivileges", json_new_bool (true));
  /* Relax only the LSMs the host runs: a label it cannot apply would fail
     the container.  */
  if ((e.fx & FX_LSM_UNCONFINED) && entitle_apparmor_enabled (ctx))
    json_set (process, "apparmorProfile", json_new_string ("unconfined"));
  if ((e.fx & FX_LSM_UNCONFINED) && entitle_selinux_enabled (ctx))
    json_set (process, "selinuxLabel", json_new_string ("system_u:system_r:spc_t:s0"));
  return 0;
}

/* A syscall gated on a dropped capability stays allowed only if another
   capability still held gates it too, or the kernel no longer gates it
   (ptrace from Linux 4.8 on, as Docker's profile).  */
static void
plan_seccomp (const json_t *process, const struct effects *e, struct entitle_seccomp_plan_s *plan,
              char ***deny, size_t *n_deny, char ***allow, size_t *n_allow)
{
  const struct entitle_cap_syscalls_s *g;
  size_t n, i;

  /* A rung's "still deny" yields to another ladder's explicit allowance
     (security.admin and host.modules.admin load modules); a dropped
     capability still takes its syscalls away below.  */
  for (char **p = e->sys_deny; p && *p; p++)
    if (!entitle_strv_has (e->sys_allow, *p))
      strv_add (deny, n_deny, *p);
  strv_add_all (allow, n_allow, (const char *const *)e->sys_allow);
  g = entitle_cap_gated (&n);
  for (i = 0; i < n; i++)
    {
      bool held = entitle_caps_bounding_has (process, g[i].cap);
      if (held && entitle_strv_has (e->cap_add, g[i].cap))
        strv_add_all (allow, n_allow, g[i].syscalls);
    }
  for (i = 0; i < n; i++)
    if (entitle_strv_has (e->cap_drop, g[i].cap))
      for (const char *const *s = g[i].syscalls; *s; s++)
        {
          bool other = entitle_cap_ungated (*s);
          for (size_t k = 0; k < n; k++)
            for (const char *const *t = g[k].syscalls; *t && k != i; t++)
              other |= strcmp (*t, *s) == 0 && entitle_caps_bounding_has (process, g[k].cap);
          if (!other)
            strv_add (deny, n_deny, *s);
        }
  plan->deny = *deny;
  plan->allow = *allow;
  plan->fx = e->fx & (FX_SOCK_UNIX | FX_SOCK_USER | FX_NO_DEV_MKNOD | FX_PERSONALITY);
  plan->clone_no_ns = entitle_strv_has (e->cap_drop, "CAP_SYS_ADMIN");
  plan->clone_ns = !plan->clone_no_ns && entitle_strv_has (e->cap_add, "CAP_SYS_ADMIN")
                   && entitle_caps_bounding_has (process, "CAP_SYS_ADMIN");
}

static int
apply_seccomp (struct entitle_ctx_s *ctx, json_t *spec, const struct effects *e, entitle_error_t *err)
{
  struct entitle_seccomp_plan_s plan = { 0 };
  cleanup_strv char **deny = NULL, **allow = NULL;
  size_t n_deny = 0, n_allow = 0;
  json_t *linux_ = json_get (spec, "linux");
  json_t *old = json_get (linux_, "seccomp");
  cleanup_json json_t *before = old ? json_clone (old) : NULL;
  json_t *annotations;
  int ret;

  plan_seccomp (json_get (spec, "process"), e, &plan, &deny, &n_deny, &allow, &n_allow);
  ret = entitle_seccomp_apply (ctx, spec, &plan, err);
  if (UNLIKELY (ret < 0))
    return ret;
  /* crun loads run.oci.seccomp_bpf_data instead of linux.seccomp.  */
  annotations = json_get (spec, "annotations");
  if (!json_equal (before, json_get (linux_, "seccomp")) && json_del (annotations, "run.oci.seccomp_bpf_data"))
    entitle_log_warning (ctx->log, "removed annotation `run.oci.seccomp_bpf_data`: it would replace the seccomp profile entitle wrote");
  return 0;
}

int
entitle_compile (struct entitle_ctx_s *ctx, json_t *spec, const struct entitle_set_s *set,
                 entitle_error_t *err)
{
  cleanup_effects struct effects e = { 0 };
  cleanup_free char *applied = NULL;
  json_t *linux_, *annotations;
  int ret;

  if (spec->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "config is not a JSON object");
  ret = check_enforceable (ctx, set, err);
  if (UNLIKELY (ret < 0))
    return ret;
  effects_of (set, &e);
  ret = entitle_compile_process (ctx, json_get_or_add (spec, "process", JSON_OBJECT), set, err);
  if (UNLIKELY (ret < 0))
    return ret;
  linux_ = json_get_or_add (spec, "linux", JSON_OBJECT);
  namespace(linux_, "network", e.fx & FX_NEW_NETNS, e.fx & FX_HOST_NETNS);
  namespace(linux_, "pid", e.fx & FX_NEW_PIDNS, e.fx & FX_HOST_PIDNS);
  apply_paths (linux_, e.fx);
  entitle_devices_apply (linux_, e.fx);
  ret = apply_seccomp (ctx, spec, &e, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = entitle_add_hooks (ctx, spec, set, err);
  if (UNLIKELY (ret < 0))
    return ret;
  annotations = json_get_or_add (spec, "annotations", JSON_OBJECT);
  applied = entitle_set_format (set);
  json_set (annotations, ENTITLE_ANNOTATION_APPLIED, json_new_string (applied));
  json_set (annotations, ENTITLE_ANNOTATION_VERSION, json_new_string (PACKAGE_VERSION));
  return 0;
}
