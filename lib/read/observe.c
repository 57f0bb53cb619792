/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "denial.h"
#include "observe.h"
#include "scmp.h"
#include "seccomp-profile.h"
#include "seccomp-rules.h"
#include "utils.h"

/* @path, relative to @bundle (as the runtime resolves it), made absolute.  */
static void
absolute (json_t *obj, const char *key, const char *bundle)
{
  const char *p = json_string (json_get (obj, key));
  cleanup_free char *abs = NULL;

  if (p == NULL || p[0] == '/')
    return;
  xasprintf (&abs, "%s/%s", bundle, p);
  json_set (obj, key, json_new_string (abs));
}

/* The root, and the sources of bind mounts (other mounts name a
   filesystem there, not a path).  */
static void
absolute_paths (json_t *spec, const char *bundle)
{
  const json_t *mounts = json_get (spec, "mounts");
  size_t i;

  absolute (json_get (spec, "root"), "path", bundle);
  for (i = 0; mounts && mounts->type == JSON_ARRAY && i < mounts->n; i++)
    {
      json_t *m = mounts->items[i];
      const json_t *opts = json_get (m, "options");
      const char *type = json_string (json_get (m, "type"));

      if ((type && strcmp (type, "bind") == 0) || json_array_find_string (opts, "bind") >= 0
          || json_array_find_string (opts, "rbind") >= 0)
        absolute (m, "source", bundle);
    }
}

/* Does @obj's action @key let the call run as is (NOTIFY and TRACE would
   hand it to someone else)?  */
static bool
allows (const json_t *obj, const char *key)
{
  enum entitle_scmp_act a = entitle_scmp_act_of (obj, key);
  return a == ENTITLE_ACT_ALLOW || a == ENTITLE_ACT_LOG;
}

/* @rule (a new one when NULL) for @name alone, notified.  */
static json_t *
notify_rule (json_t *rule, const char *name)
{
  json_t *names = json_new (JSON_ARRAY);

  if (rule == NULL)
    rule = json_new (JSON_OBJECT);
  json_push (names, json_new_string (name));
  json_set (rule, "names", names);
  json_set (rule, "action", json_new_string (entitle_scmp_act_name (ENTITLE_ACT_NOTIFY)));
  return rule;
}

/* Notify each call of @name that the profile allows: every allowing rule
   that lists it gives it up to a notifying rule of the same arguments;
   under an allowing default, an unlisted @name is notified whatever its
   arguments.  A denying rule stays as it is.  */
static void
notify (json_t *seccomp, json_t *rules, const char *name)
{
  size_t i, n = rules->n;
  bool listed = false;

  for (i = 0; i < n; i++)
    {
      json_t *names = json_get (rules->items[i], "names");
      long at = json_array_find_string (names, name);

      if (at < 0)
        continue;
      listed = true;
      if (!allows (rules->items[i], "action"))
        continue;
      json_remove_at (names, (size_t)at);
      json_push (rules, notify_rule (json_clone (rules->items[i]), name));
    }
  if (!listed && allows (seccomp, "defaultAction"))
    json_push (rules, notify_rule (NULL, name));
}

static bool
no_names (const json_t *rule, void *data)
{
  const json_t *names = json_get (rule, "names");
  (void)data;
  return names && names->type == JSON_ARRAY && names->n == 0;
}

/* The engine's profile, or one that allows every call (for the host's
   architectures, as the profiles entitle writes).  */
static json_t *
profile (json_t *spec)
{
  json_t *lnx = json_get_or_add (spec, "linux", JSON_OBJECT), *seccomp = json_get (lnx, "seccomp"), *archs;
  const char *const *a = entitle_seccomp_host_archs ();

  if (seccomp && seccomp->type == JSON_OBJECT)
    return seccomp;
  seccomp = json_get_or_add (lnx, "seccomp", JSON_OBJECT);
  json_set (seccomp, "defaultAction", json_new_string (entitle_scmp_act_name (ENTITLE_ACT_ALLOW)));
  archs = json_get_or_add (seccomp, "architectures", JSON_ARRAY);
  for (; a && *a; a++)
    json_push (archs, json_new_string (*a));
  return seccomp;
}

void
entitle_observe_config (json_t *spec, const char *bundle, const char *listener, json_t *hook)
{
  json_t *seccomp = profile (spec), *rules = json_get_or_add (seccomp, "syscalls", JSON_ARRAY);
  size_t n, i;
  cleanup_free const char **watched = entitle_syscalls_watched (&n);

  absolute_paths (spec, bundle);
  for (i = 0; i < n; i++)
    notify (seccomp, rules, watched[i]);
  json_array_drop (rules, no_names, NULL);
  json_set (seccomp, "listenerPath", json_new_string (listener));
  /* The engine's hooks act on the host for its own container (its
     network, its devices), and its cgroupsPath is that container's place:
     neither is this run's, and neither restricts what the run may do.  */
  json_del (json_get (spec, "linux"), "cgroupsPath");
  json_set (spec, "hooks", json_new (JSON_OBJECT));
  json_push (json_get_or_add (json_get (spec, "hooks"), "createRuntime", JSON_ARRAY), hook);
}
