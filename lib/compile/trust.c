/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "caps.h"
#include "compile.h"
#include "devices.h"
#include "hash.h"
#include "resolve.h"
#include "scmp.h"
#include "seccomp-rules.h"
#include "trust.h"
#include "utils.h"

/* Is every string of array @b also in array @a?  */
static bool
subset (const json_t *b, const json_t *a)
{
  size_t i;
  for (i = 0; b && b->type == JSON_ARRAY && i < b->n; i++)
    {
      const char *s = json_string (b->items[i]);
      if (s && json_array_find_string (a, s) < 0)
        return false;
    }
  return true;
}

static bool
nonempty (const json_t *set)
{
  return set && set->type == JSON_ARRAY && set->n > 0;
}

static bool
caps_widen (const json_t *before, const json_t *after)
{
  const json_t *cb = entitle_caps_object (before), *ca = entitle_caps_object (after);
  size_t i;

  /* No capabilities object (or a null one): runc and crun give the container none
     (caps.c), so any capability after widens, and none after is none.  */
  for (i = 0; cb == NULL && ca && i < CAP_SET_COUNT; i++)
    if (nonempty (json_get (ca, entitle_cap_sets[i])))
      return true;
  if (cb == NULL || ca == NULL)
    return false;
  for (i = 0; i < CAP_SET_COUNT; i++)
    if (!subset (json_get (ca, entitle_cap_sets[i]), json_get (cb, entitle_cap_sets[i])))
      return true;
  return false;
}

/* Every namespace of @before is in @after, the same, or fresh: a new
   namespace of a type is never wider than joining an existing one
   (network.none puts a container the engine gave the host's network
   namespace by path into an empty one).  */
static bool
namespaces_widen (const json_t *before, const json_t *after)
{
  size_t i;
  for (i = 0; before && before->type == JSON_ARRAY && i < before->n; i++)
    {
      const char *t = json_string (json_get (before->items[i], "type"));
      bool found = false;
      for (size_t k = 0; t && after && after->type == JSON_ARRAY && k < after->n; k++)
        {
          const json_t *a = after->items[k];
          const char *at = json_string (json_get (a, "type"));
          found |= json_equal (before->items[i], a)
                   || (at && strcmp (at, t) == 0 && json_get (a, "path") == NULL);
        }
      if (!found)
        return true;
    }
  return false;
}

/* The names the allowing rules of a profile list, as a hash set of
   pointers into the JSON: the trust rule asks "does @after allow a name
   @before does not" once per requested entitlement, over ~400 names.  */
struct names_s
{
  const json_t **slot;
  size_t mask;
};

static size_t
hash_name (const json_t *s)
{
  return entitle_fnv_bytes (ENTITLE_FNV_OFFSET, s->text, s->len);
}

static bool
names_has (const struct names_s *set, const json_t *s)
{
  size_t i;
  for (i = hash_name (s) & set->mask; set->slot[i]; i = (i + 1) & set->mask)
    if (set->slot[i]->len == s->len && memcmp (set->slot[i]->text, s->text, s->len) == 0)
      return true;
  return false;
}

static void
names_of (const json_t *seccomp, struct names_s *set)
{
  const json_t *syscalls = json_get (seccomp, "syscalls");
  size_t i, j, n = 0, size = 64;

  for (i = 0; syscalls && syscalls->type == JSON_ARRAY && i < syscalls->n; i++)
    n += json_get (syscalls->items[i], "names") ? json_get (syscalls->items[i], "names")->n : 0;
  while (size < 2 * n)
    size *= 2;
  set->mask = size - 1;
  set->slot = xcalloc (size, sizeof (*set->slot));
  for (i = 0; syscalls && syscalls->type == JSON_ARRAY && i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i], *names = json_get (r, "names");
      if (names == NULL || names->type != JSON_ARRAY
          || !entitle_scmp_act_allows (entitle_scmp_act_of (r, "action")))
        continue;
      for (j = 0; j < names->n; j++)
        if (names->items[j]->type == JSON_STRING && !names_has (set, names->items[j]))
          {
            size_t k = hash_name (names->items[j]) & set->mask;
            while (set->slot[k])
              k = (k + 1) & set->mask;
            set->slot[k] = names->items[j];
          }
    }
}

/* Is @name denied by a rule of @seccomp without argument conditions?  */
static bool
denied_by_name (const json_t *seccomp, const json_t *name)
{
  const json_t *syscalls = json_get (seccomp, "syscalls");
  size_t i;

  for (i = 0; syscalls && syscalls->type == JSON_ARRAY && i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i], *args = json_get (r, "args");
      if (!entitle_scmp_act_allows (entitle_scmp_act_of (r, "action"))
          && (args == NULL || args->type != JSON_ARRAY || args->n == 0)
          && json_array_find_string (json_get (r, "names"), name->text) >= 0)
        return true;
    }
  return false;
}

/* A name denied by name before and not after: allowed now under an
   allowing default, and under a denying one where a rule also allowed it
   (libseccomp gives the deny precedence).  */
static bool
denial_lifted (const json_t *before, const json_t *after)
{
  const json_t *syscalls = json_get (before, "syscalls");
  size_t i, j;

  for (i = 0; syscalls && syscalls->type == JSON_ARRAY && i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i], *names = json_get (r, "names"), *args = json_get (r, "args");
      if (names == NULL || names->type != JSON_ARRAY || entitle_scmp_act_allows (entitle_scmp_act_of (r, "action"))
          || (args && args->type == JSON_ARRAY && args->n > 0))
        continue;
      for (j = 0; j < names->n; j++)
        if (names->items[j]->type == JSON_STRING && !denied_by_name (after, names->items[j]))
          return true;
    }
  return false;
}

static bool
seccomp_widens (const json_t *before, const json_t *after)
{
  const json_t *syscalls = json_get (after, "syscalls");
  struct names_s nb;
  bool widens = false;
  size_t i, j;

  if (before == NULL)
    return false;
  if (after == NULL)
    return true;
  if (entitle_scmp_act_allows (entitle_scmp_act_of (after, "defaultAction"))
      && !entitle_scmp_act_allows (entitle_scmp_act_of (before, "defaultAction")))
    return true;
  if (denial_lifted (before, after))
    return true;
  names_of (before, &nb);
  for (i = 0; !widens && syscalls && syscalls->type == JSON_ARRAY && i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i], *names = json_get (r, "names");
      if (names == NULL || names->type != JSON_ARRAY
          || !entitle_scmp_act_allows (entitle_scmp_act_of (r, "action")))
        continue;
      for (j = 0; !widens && j < names->n; j++)
        widens = names->items[j]->type == JSON_STRING && !names_has (&nb, names->items[j]);
    }
  free (nb.slot);
  return widens;
}

/* A device cgroup rule that allows what no rule of @before allowed (the
   default devices aside: runc and crun allow them whatever the rules).  */
static bool
devices_widen (const json_t *before, const json_t *after)
{
  size_t i, k;
  for (i = 0; after && after->type == JSON_ARRAY && i < after->n; i++)
    {
      const json_t *r = after->items[i], *allow = json_get (r, "allow");
      bool found = false;
      if (allow == NULL || allow->type != JSON_TRUE || entitle_devices_is_default (r))
        continue;
      for (k = 0; before && before->type == JSON_ARRAY && k < before->n && !found; k++)
        found = json_equal (r, before->items[k]);
      if (!found)
        return true;
    }
  return false;
}

static bool
label_changed (const json_t *before, const json_t *after, const char *key)
{
  return !json_equal (json_get (before, key), json_get (after, key));
}

/* All of entitle_widens but the seccomp profiles.  */
static bool
widens_but_seccomp (const json_t *before, const json_t *after)
{
  const json_t *pb = json_get (before, "process"), *pa = json_get (after, "process");
  const json_t *lb = json_get (before, "linux"), *la = json_get (after, "linux");

  if (caps_widen (pb, pa))
    return true;
  if (json_get (pb, "noNewPrivileges") && json_get (pb, "noNewPrivileges")->type == JSON_TRUE
      && (json_get (pa, "noNewPrivileges") == NULL || json_get (pa, "noNewPrivileges")->type != JSON_TRUE))
    return true;
  if (label_changed (pb, pa, "apparmorProfile") || label_changed (pb, pa, "selinuxLabel"))
    return true;
  if (namespaces_widen (json_get (lb, "namespaces"), json_get (la, "namespaces")))
    return true;
  if (!subset (json_get (lb, "maskedPaths"), json_get (la, "maskedPaths"))
      || !subset (json_get (lb, "readonlyPaths"), json_get (la, "readonlyPaths")))
    return true;
  return devices_widen (json_get (json_get (lb, "resources"), "devices"),
                        json_get (json_get (la, "resources"), "devices"));
}

static bool
profiles_widen (const json_t *before, const json_t *after)
{
  return seccomp_widens (json_get (json_get (before, "linux"), "seccomp"),
                         json_get (json_get (after, "linux"), "seccomp"));
}

bool
entitle_widens (const json_t *before, const json_t *after)
{
  return widens_but_seccomp (before, after) || profiles_widen (before, after);
}

static void
copy_members (json_t *to, const json_t *from, const char *const *keys)
{
  for (; *keys; keys++)
    {
      const json_t *v = json_get (from, *keys);
      if (v)
        json_set (to, *keys, json_clone (v));
    }
}

/* What of @spec the compiler reads and entitle_widens compares: the rest
   (env, args, rlimits, mounts, annotations) can be nearly all of a
   config's 16 MiB and never widens anything, so it is not copied for
   each entitlement judged.  */
static json_t *
trust_view (const json_t *spec)
{
  static const char *const top[] = { "hooks", NULL };
  static const char *const process[] = { "capabilities", "noNewPrivileges", "apparmorProfile", "selinuxLabel",
                                         "user", NULL };
  static const char *const linux_[] = { "namespaces", "maskedPaths", "readonlyPaths", "seccomp", "sysctl", NULL };
  static const char *const resources[] = { "devices", NULL };
  json_t *v = json_new (JSON_OBJECT), *l;
  const json_t *sl = json_get (spec, "linux");

  copy_members (v, spec, top);
  if (json_get (spec, "process"))
    copy_members (json_get_or_add (v, "process", JSON_OBJECT), json_get (spec, "process"), process);
  if (sl == NULL)
    return v;
  l = json_get_or_add (v, "linux", JSON_OBJECT);
  copy_members (l, sl, linux_);
  if (json_get (sl, "resources"))
    copy_members (json_get_or_add (l, "resources", JSON_OBJECT), json_get (sl, "resources"), resources);
  return v;
}

/* Would @req alone widen @spec (a config, or with @process_only a
   process)?  Judged on what the entitlement would do, not on whether this
   host can do it: the compile notes what it lacks, and that is dropped
   here.  It compiles a copy of what it compares (trust_view) and compares
   that with @spec itself.  */
static int
widens_alone (struct entitle_ctx_s *ctx, const json_t *spec, bool process_only, const struct entitle_request_s *req,
              bool *widens, entitle_error_t *err)
{
  cleanup_json json_t *copy = trust_view (spec);
  cleanup_outcome struct entitle_outcome_s out = { 0 };
  struct entitle_set_s one = { (struct entitle_request_s *)req, 1 };
  int ret;

  if (process_only)
    ret = entitle_compile_process (ctx, json_get_or_add (copy, "process", JSON_OBJECT), &one, &out, err);
  else
    ret = entitle_compile (ctx, copy, &one, &out, err);
  if (UNLIKELY (ret < 0))
    return ret;
  /* A compile that allowed no syscall only took allowances away or added
     denials (an AND of arguments at most): its profile cannot allow a
     name the engine's did not, and comparing them name by name is most
     of the rule's cost.  */
  *widens = widens_but_seccomp (spec, copy) || (out.syscalls_allowed && profiles_widen (spec, copy));
  return 0;
}

int
entitle_request_widens (struct entitle_ctx_s *ctx, const json_t *spec, const struct entitle_request_s *req,
                        bool *widens, entitle_error_t *err)
{
  return widens_alone (ctx, spec, false, req, widens, err);
}

static int
check_grants (struct entitle_ctx_s *ctx, const json_t *spec, bool process_only,
              const struct entitle_set_s *requested, entitle_error_t *err)
{
  size_t i;

  for (i = 0; i < requested->n; i++)
    {
      const struct entitle_request_s *req = &requested->items[i];
      bool widens = false;
      int ret;

      if (entitle_granted (ctx->config, req))
        continue;
      ret = widens_alone (ctx, spec, process_only, req, &widens, err);
      if (UNLIKELY (ret < 0))
        return ret;
      if (widens)
        {
          cleanup_free char *name = entitle_request_format (req);
          cleanup_free char *hint = entitle_config_grant_hint (ctx->config, name);
          return entitle_make_error (err, EPERM, "entitlement \"%s\" requested by the container%s is %s", name,
                                     entitle_source_through (req->source), hint);
        }
    }
  return 0;
}

int
entitle_check_grants (struct entitle_ctx_s *ctx, const json_t *spec,
                      const struct entitle_set_s *requested, entitle_error_t *err)
{
  return check_grants (ctx, spec, false, requested, err);
}

int
entitle_check_process_grants (struct entitle_ctx_s *ctx, const json_t *process,
                              const struct entitle_set_s *requested, entitle_error_t *err)
{
  cleanup_json json_t *spec = json_new (JSON_OBJECT);

  json_set (spec, "process", json_clone (process));
  return check_grants (ctx, spec, true, requested, err);
}
