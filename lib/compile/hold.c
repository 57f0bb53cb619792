/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "caps.h"
#include "catalogue.h"
#include "hold.h"
#include "hooks.h"
#include "seccomp-rules.h"
#include "utils.h"

/* What a container holds, beside the reach table, that takes it out of
   its namespaces where it shares one with another container or the host:
   CAP_SYS_ADMIN joins a cgroup namespace it has a handle of (setns) and
   mounts; CAP_SYS_PTRACE takes over a process it sees, whatever that
   process can do.  */
static const char *const escape_caps[] = { "CAP_SYS_ADMIN", "CAP_SYS_PTRACE", NULL };

/* Where the host keeps its cgroup tree: a bind of it (or below) is rooted
   above every container's cgroup, whatever the cgroup namespace.  */
#define HOST_CGROUPS "/sys/fs/cgroup"

unsigned
entitle_hold_fx (const json_t *process, unsigned fx)
{
  const struct entitle_reach_s *r;
  size_t i, n;

  if (fx & FX_PRIVILEGED)
    return fx;
  r = entitle_reach (&n);
  for (i = 0; i < n; i++)
    if (entitle_caps_holds (process, r[i].cap))
      return fx | FX_HOLD;
  return fx;
}

/* Who gives @cap, for a message: "entitlement `security.admin`
   (CAP_SYS_ADMIN)", or "CAP_SYS_ADMIN of the engine's config".  */
static void
holder (const struct entitle_set_s *set, const char *cap, char *buf, size_t size)
{
  size_t i;

  for (i = 0; i < set->n; i++)
    if (entitle_strv_has ((char *const *)set->items[i].entry->cap_add, cap))
      {
        snprintf (buf, size, "entitlement `%s` (%s)", set->items[i].entry->name, cap);
        return;
      }
  snprintf (buf, size, "%s of the engine's config", cap);
}

/* The first capability of @caps (NULL-terminated) that @process holds.  */
static const char *
held (const json_t *process, const char *const *caps)
{
  for (; *caps; caps++)
    if (entitle_caps_holds (process, *caps))
      return *caps;
  return NULL;
}

static int
refuse (const struct entitle_set_s *set, const char *cap, const char *with, const char *why, entitle_error_t *err)
{
  char who[128];

  holder (set, cap, who, sizeof (who));
  return entitle_make_error (err, EPERM, "%s cannot be kept from entitle's enforcement %s: %s", who, with, why);
}

/* Does row @e allow @name, by name or by a rule that lets it run?  */
static bool
row_allows (const struct entitle_entry_s *e, const char *name)
{
  size_t i;

  if (entitle_strv_has ((char *const *)e->sys_allow, name))
    return true;
  for (i = 0; i < e->n_sys_rules; i++)
    if (entitle_scmp_act_allows (e->sys_rules[i].action)
        && entitle_strv_has ((char *const *)e->sys_rules[i].names, name))
      return true;
  return false;
}

/* A row of @set that allows what the hold denies it (a custom row's
   bpf(2)): the container would need the syscall the hold takes away.  */
static int
check_allowed (const json_t *process, const struct entitle_set_s *set, entitle_error_t *err)
{
  const struct entitle_reach_s *r;
  size_t i, k, n;
  char with[256];

  r = entitle_reach (&n);
  for (i = 0; i < n; i++)
    for (const char *const *s = r[i].syscalls; entitle_caps_holds (process, r[i].cap) && *s; s++)
      for (k = 0; k < set->n; k++)
        if (row_allows (set->items[k].entry, *s))
          {
            snprintf (with, sizeof (with), "with `%s`, which allows %s", set->items[k].entry->name, *s);
            return refuse (set, r[i].cap, with, r[i].how, err);
          }
  return 0;
}

/* The namespace of @type in @linux_: NULL if none, else the entry.  */
static const json_t *
namespace_of (const json_t *linux_, const char *type)
{
  const json_t *ns = json_get (linux_, "namespaces");
  size_t i;

  for (i = 0; ns && ns->type == JSON_ARRAY && i < ns->n; i++)
    {
      const char *t = json_string (json_get (ns->items[i], "type"));
      if (t && strcmp (t, type) == 0)
        return ns->items[i];
    }
  return NULL;
}

/* The row of @set with effect @fx, or NULL.  */
static const char *
row_with (const struct entitle_set_s *set, unsigned fx)
{
  size_t i;

  for (i = 0; i < set->n; i++)
    if (set->items[i].entry->fx & fx)
      return set->items[i].entry->name;
  return NULL;
}

static int
check_pid (const json_t *linux_, const struct entitle_set_s *set, const char *cap, entitle_error_t *err)
{
  const json_t *pid = namespace_of (linux_, "pid");
  const char *path = json_string (json_get (pid, "path")), *row = row_with (set, FX_HOST_PIDNS);
  char with[256];

  if (pid && path == NULL)
    return 0;
  if (pid)
    snprintf (with, sizeof (with), "in the pid namespace given by path `%s`", path);
  else if (row)
    snprintf (with, sizeof (with), "with `%s`", row);
  else
    snprintf (with, sizeof (with), "in the host's pid namespace (the engine's config has no pid namespace)");
  return refuse (set, cap, with,
                 "there it joins the cgroup namespace of any process it sees (setns), and takes over the processes "
                 "of other containers and of the host (ptrace)",
                 err);
}

/* A mount of the host's cgroup tree, or NULL.  */
static const char *
host_cgroup_mount (const json_t *spec)
{
  const json_t *mounts = json_get (spec, "mounts");
  size_t i;

  for (i = 0; mounts && mounts->type == JSON_ARRAY && i < mounts->n; i++)
    {
      const char *src = json_string (json_get (mounts->items[i], "source"));
      size_t len = strlen (HOST_CGROUPS);
      if (src && strncmp (src, HOST_CGROUPS, len) == 0 && (src[len] == '\0' || src[len] == '/'))
        return src;
    }
  return NULL;
}

/* What the cgroup namespace needs to keep the container in its cgroup.  */
static int
check_cgroups (const struct entitle_ctx_s *ctx, const json_t *spec, const struct entitle_set_s *set,
               const char *cap, entitle_error_t *err)
{
  const json_t *linux_ = json_get (spec, "linux");
  const char *path = json_string (json_get (namespace_of (linux_, "cgroup"), "path")), *src;
  char with[4200];

  if (namespace_of (linux_, "mount") == NULL)
    return refuse (set, cap, "without a mount namespace of its own", "it writes the host's cgroup tree", err);
  if (path)
    {
      snprintf (with, sizeof (with), "in the cgroup namespace given by path `%s`", path);
      return refuse (set, cap, with, "a cgroup namespace not made for it is not rooted at its own cgroup", err);
    }
  if ((src = host_cgroup_mount (spec)) != NULL)
    {
      snprintf (with, sizeof (with), "with a mount of `%s`", src);
      return refuse (set, cap, with, "the host's cgroup tree, which it can remount writable and leave its cgroup through",
                     err);
    }
  if (ctx->cgroup_unmanaged && entitle_needs_bpf (set))
    {
      snprintf (with, sizeof (with), "with `%s` where the runtime manages no cgroup (crun --cgroup-manager=disabled)",
                entitle_bpf_row (set)->name);
      return refuse (set, cap, with,
                     "its cgroup namespace would be rooted above the cgroup entitle-hook makes for the policy", err);
    }
  return 0;
}

int
entitle_hold_check (const struct entitle_ctx_s *ctx, const json_t *spec, const struct entitle_set_s *set,
                    entitle_error_t *err)
{
  const json_t *process = json_get (spec, "process");
  unsigned fx = 0;
  const char *cap;
  size_t i;
  int ret = 0;

  for (i = 0; i < set->n; i++)
    fx |= set->items[i].entry->fx;
  if (fx & FX_PRIVILEGED)
    return 0;
  if (entitle_hold_fx (process, fx) & FX_HOLD)
    ret = check_allowed (process, set, err);
  if (ret < 0 || (cap = held (process, escape_caps)) == NULL)
    return ret;
  ret = check_pid (json_get (spec, "linux"), set, cap, err);
  if (ret == 0 && entitle_caps_holds (process, "CAP_SYS_ADMIN"))
    ret = check_cgroups (ctx, spec, set, "CAP_SYS_ADMIN", err);
  return ret;
}
