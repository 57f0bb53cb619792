/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include "caps.h"
#include "utils.h"

const char *const entitle_cap_sets[CAP_SET_COUNT] = { "bounding", "effective", "inheritable", "permitted",
                                                      "ambient" };

static int
cap_value (const char *name, cap_value_t *v)
{
  /* libcap knows the names; the running kernel bounds the values.  */
  if (cap_from_name (name, v) < 0 || *v < 0 || *v >= (cap_value_t)cap_max_bits ())
    return -1;
  return 0;
}

static bool
held_by_entitle (struct entitle_ctx_s *ctx, cap_value_t v)
{
  if (!ctx->bounding_read)
    {
      cap_value_t c;
      for (c = 0; c < (cap_value_t)cap_max_bits () && c < 64; c++)
        if (prctl (PR_CAPBSET_READ, c, 0, 0, 0) == 1)
          ctx->bounding |= 1ULL << c;
      ctx->bounding_read = 1;
    }
  return v < 64 && (ctx->bounding & (1ULL << v));
}

static void
drop_from (json_t *set, const char *name)
{
  long i;
  while ((i = json_array_find_string (set, name)) >= 0)
    json_remove_at (set, (size_t)i);
}

static void
add_to (json_t *set, const char *name)
{
  if (json_array_find_string (set, name) < 0)
    json_push (set, json_new_string (name));
}

/* Root keeps its capabilities across exec through the permitted set; any
   other user needs them inheritable and ambient.  */
bool
entitle_caps_runs_as_root (const json_t *process)
{
  const json_t *uid = json_get (json_get (process, "user"), "uid");
  return uid == NULL || (uid->type == JSON_NUMBER && strcmp (uid->text, "0") == 0);
}

json_t *
entitle_caps_names (struct entitle_ctx_s *ctx)
{
  json_t *a = json_new (JSON_ARRAY);
  cap_value_t c;

  for (c = 0; c < (cap_value_t)cap_max_bits (); c++)
    {
      /* libcap names them in lower case; OCI in upper case.  */
      char *n = ctx == NULL || held_by_entitle (ctx, c) ? cap_to_name (c) : NULL;
      if (n == NULL)
        continue;
      for (char *p = n; *p; p++)
        *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
      if (strncmp (n, "CAP_", 4) == 0)
        json_push (a, json_new_string (n));
      cap_free (n);
    }
  return a;
}

const json_t *
entitle_caps_object (const json_t *process)
{
  const json_t *caps = json_get (process, "capabilities");

  return caps && caps->type == JSON_OBJECT ? caps : NULL;
}

/* No capabilities object means the container gets none: runc 1.1 and
   crun 1.8 give a root container empty sets then (measured; a rootless
   runc would keep its own).  Written down as empty sets, so that what a
   row adds is all it gets.  */
static json_t *
materialize (json_t *process)
{
  json_t *caps;
  size_t i;

  if (entitle_caps_object (process))
    return json_get (process, "capabilities");
  caps = json_new (JSON_OBJECT);
  for (i = 0; i < CAP_SET_AMBIENT; i++)
    if (i != CAP_SET_INHERITABLE)
      json_set (caps, entitle_cap_sets[i], json_new (JSON_ARRAY));
  json_set (process, "capabilities", caps);
  return caps;
}

/* Remove from @set every capability that is not in @keep.  */
static void
bound (json_t *set, char *const *keep)
{
  size_t i;
  for (i = 0; set && set->type == JSON_ARRAY && i < set->n;)
    {
      const char *c = json_string (set->items[i]);
      if (c && !entitle_strv_has (keep, c))
        json_remove_at (set, i);
      else
        i++;
    }
}

int
entitle_caps_apply (struct entitle_ctx_s *ctx, json_t *process, char *const *add, char *const *drop,
                    char *const *keep, struct entitle_outcome_s *out, entitle_error_t *err)
{
  json_t *caps;
  cap_value_t v;
  size_t i;

  for (char *const *p = drop; p && *p; p++)
    if (cap_value (*p, &v) < 0)
      entitle_outcome_note (out, ENTITLE_LOG_DEBUG, "capability `%s` is unknown here: nothing to drop", *p);
  caps = materialize (process);
  for (i = 0; i < CAP_SET_COUNT; i++)
    {
      for (char *const *p = drop; p && *p; p++)
        drop_from (json_get (caps, entitle_cap_sets[i]), *p);
      if (keep)
        bound (json_get (caps, entitle_cap_sets[i]), keep);
    }
  for (char *const *p = add; p && *p; p++)
    {
      if (entitle_strv_has (drop, *p))
        continue;
      if (cap_value (*p, &v) < 0)
        return entitle_make_error (err, EINVAL, "capability `%s` is unknown to this kernel", *p);
      if (!held_by_entitle (ctx, v))
        {
          entitle_outcome_note (out, ENTITLE_LOG_WARNING, "capability `%s` is not in entitle's bounding set: left out", *p);
          continue;
        }
      for (i = 0; i < CAP_SET_COUNT; i++)
        {
          /* root gets its capabilities back from the bounding set at each
             execve; inheritable and ambient would only carry them on to
             programs run as another user, so they stay as given.  */
          if ((i == CAP_SET_INHERITABLE || i == CAP_SET_AMBIENT) && entitle_caps_runs_as_root (process))
            continue;
          add_to (json_get_or_add (caps, entitle_cap_sets[i], JSON_ARRAY), *p);
        }
    }
  return 0;
}

bool
entitle_caps_bounding_has (const json_t *process, const char *name)
{
  return json_array_find_string (json_get (entitle_caps_object (process), "bounding"), name) >= 0;
}

bool
entitle_caps_holds (const json_t *process, const char *name)
{
  const json_t *caps = entitle_caps_object (process);
  size_t i;

  for (i = 0; i < CAP_SET_COUNT; i++)
    if (json_array_find_string (json_get (caps, entitle_cap_sets[i]), name) >= 0)
      return true;
  return false;
}
