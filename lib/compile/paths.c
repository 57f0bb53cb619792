/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <string.h>
#include "catalogue.h"
#include "namespaces.h"
#include "paths.h"
#include "policy.h"

#define RESTRICTING (FX_PROC_SYS_RO | FX_MASK_NET | FX_SYS_RO)

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

/* Without a mount namespace: which entitlement's paths cannot be had?
   The sysctl program refuses every write below /proc/sys, so /proc/sys
   read-only is not lost where it is attached.  */
static int
check_no_mount_ns (const struct entitle_set_s *set, entitle_error_t *err)
{
  size_t i;

  for (i = 0; i < set->n; i++)
    {
      const struct entitle_entry_s *r = set->items[i].entry;
      unsigned need = r->fx & RESTRICTING;

      if (r->policy & POL_SYSCTL_RO)
        need &= ~FX_PROC_SYS_RO;
      if (need || r->masked || r->readonly)
        return entitle_make_error (err, EINVAL,
                                   "entitlement `%s` cannot be enforced on this config: it masks or makes read-only paths, which needs a mount namespace, and the config has none",
                                   r->name);
    }
  return 0;
}

int
entitle_paths_apply (json_t *linux_, const struct entitle_set_s *set, entitle_error_t *err)
{
  unsigned fx = 0;
  size_t i;

  for (i = 0; i < set->n; i++)
    fx |= set->items[i].entry->fx;
  if (!entitle_namespaces_has (linux_, "mount"))
    return check_no_mount_ns (set, err);
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
  /* A custom row's own paths (after the clearing above: they are
     restrictions the admin chose).  */
  for (i = 0; i < set->n; i++)
    {
      for (const char *const *p = set->items[i].entry->masked; p && *p; p++)
        add_path (linux_, "maskedPaths", *p);
      for (const char *const *p = set->items[i].entry->readonly; p && *p; p++)
        add_path (linux_, "readonlyPaths", *p);
    }
  return 0;
}
