/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "entitlements.h"
#include "explain-trust.h"
#include "resolve.h"
#include "trust.h"
#include "utils.h"
#include "full/docker-default.h"

/* The trust rule's own test (entitle_request_widens, lib/compile/trust.c)
   needs an engine's config: by default the one Docker 20.10 gives `docker
   run IMAGE` (the most common engine of the users who ask through
   process.env), with -b DIR or --config FILE the bundle's.  */

#define DOCKER_DEFAULT_NAME "Docker 20.10's default config (`docker run IMAGE`)"

int
explain_baseline (const char *bundle, const char *config, struct explain_baseline_s *b, entitle_error_t *err)
{
  cleanup_free char *path = NULL, *raw = NULL;
  size_t len;
  int ret;

  memset (b, 0, sizeof (*b));
  if (bundle == NULL && config == NULL)
    {
      b->name = xstrdup (DOCKER_DEFAULT_NAME);
      b->key = xstrdup ("docker-20.10-default");
      return json_parse (docker_default_json, strlen (docker_default_json), &b->spec, err);
    }
  if (config)
    path = xstrdup (config);
  else
    xasprintf (&path, "%s/config.json", bundle);
  ret = shim_load_json (path, &raw, &len, &b->spec, err);
  if (ret == 0 && b->spec->type != JSON_OBJECT)
    ret = entitle_make_error (err, EINVAL, "`%s`: config is not a JSON object", path);
  if (UNLIKELY (ret < 0))
    return ret;
  xasprintf (&b->name, "the config `%s`", path);
  b->key = get_and_reset (&path);
  return 0;
}

void
explain_baseline_free (struct explain_baseline_s *b)
{
  json_free (b->spec);
  free (b->name);
  free (b->key);
  memset (b, 0, sizeof (*b));
}

/* Where the admin config applies an entitlement itself.  */
struct trust_admin_s
{
  enum entitle_source source; /**< defaults, require or profile */
  const char *profile;        /**< the profile's name */
};

/* What the rule says of one entitlement.  */
struct trust_s
{
  char *asked;                 /**< NAME or NAME=VALUE, as judged */
  bool example;                /**< VALUE is the row's example */
  int widens;                  /**< 1, 0, or -1: not judged (why_not says why) */
  char *why_not;               /**< malloc'd */
  const char *granted_by;      /**< the entry of `grant` that covers it, or NULL */
  struct trust_admin_s *admin; /**< malloc'd */
  size_t n_admin;
};

static void
trust_free (struct trust_s *t)
{
  free (t->asked);
  free (t->why_not);
  free (t->admin);
}

/* Does the admin's list @list hold row @e (with any value)?  */
static bool
list_has (const struct entitle_catalogue_s *cat, char *const *list, const struct entitle_entry_s *e)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  entitle_error_t err = NULL;

  if (list == NULL || entitle_parse_strv (cat, list, "", &set, &err) < 0)
    {
      entitle_error_release (&err);
      return false;
    }
  return entitle_set_has (&set, e->name);
}

static void
add_admin (struct trust_s *t, enum entitle_source source, const char *profile)
{
  t->admin[t->n_admin].source = source;
  t->admin[t->n_admin++].profile = profile;
}

static void
admin_sources (const struct entitle_config_s *cfg, const struct entitle_entry_s *e, struct trust_s *t)
{
  size_t i;

  t->admin = xcalloc (cfg->n_profiles + 2, sizeof (*t->admin));
  if (list_has (&cfg->catalogue, cfg->defaults, e))
    add_admin (t, ENTITLE_SOURCE_DEFAULTS, NULL);
  if (list_has (&cfg->catalogue, cfg->require, e))
    add_admin (t, ENTITLE_SOURCE_REQUIRE, NULL);
  for (i = 0; i < cfg->n_profiles; i++)
    if (list_has (&cfg->catalogue, cfg->profiles[i].entitlements, e))
      add_admin (t, ENTITLE_SOURCE_PROFILE, cfg->profiles[i].name);
}

static void
judge (struct shim_s *s, const struct explain_baseline_s *b, const struct entitle_entry_s *e, const char *value,
       struct trust_s *t)
{
  const struct entitle_config_s *cfg = s->ctx->config;
  struct entitle_request_s req;
  entitle_error_t err = NULL;
  bool widens = false;

  memset (t, 0, sizeof (*t));
  t->example = e->value && value == NULL;
  if (t->example)
    value = e->value->example;
  xasprintf (&t->asked, "%s%s%s", e->name, value ? "=" : "", value ? value : "");
  t->widens = -1;
  if (entitle_parse_one (&cfg->catalogue, t->asked, strlen (t->asked), &req, &err) == 0)
    {
      if (entitle_request_widens (s->ctx, b->spec, &req, &widens, &err) == 0)
        t->widens = widens;
      for (char *const *g = cfg->grant; g && *g && t->granted_by == NULL; g++)
        if (entitle_grant_matches (*g, &req))
          t->granted_by = *g;
      free (req.value);
    }
  if (err)
    {
      t->why_not = get_and_reset (&err->msg);
      entitle_error_release (&err);
    }
  admin_sources (cfg, e, t);
}

/* "granted by ...", or why not, for people (malloc'd).  */
static char *
grant_text (const struct entitle_config_s *cfg, const struct entitle_entry_s *e, const struct trust_s *t)
{
  char *out;

  if (t->granted_by)
    xasprintf (&out, "granted by `%s` in `grant` of %s", t->granted_by, cfg->path);
  else if (!cfg->present && cfg->path && *cfg->path)
    xasprintf (&out, "not granted: there is no admin config at %s", cfg->path);
  else if (!cfg->present)
    xasprintf (&out, "not granted: there is no admin config (ENTITLE_CONFIG is set and empty)");
  else
    xasprintf (&out, "not granted: no entry of `grant` of %s covers it%s", cfg->path,
               e->exact_grant ? " (a glob never does: only its exact name)" : "");
  return out;
}

void
explain_trust_text (struct shim_s *s, const struct explain_baseline_s *b, const struct entitle_entry_s *e,
                    const char *value)
{
  const struct entitle_config_s *cfg = s->ctx->config;
  struct trust_s t;
  size_t i;

  judge (s, b, e, value, &t);
  printf ("  trust of %s%s, against %s:\n", t.asked, t.example ? " (its example value)" : "", b->name);
  if (t.widens < 0)
    printf ("    not judged: %s\n", t.why_not ? t.why_not : "?");
  else if (t.widens)
    {
      cleanup_free char *grant = grant_text (cfg, e, &t);
      printf ("    widens it: a container that asks for it (annotation or ENTITLE_ENTITLEMENTS) needs the "
              "admin's grant\n    %s\n",
              grant);
    }
  else
    printf ("    does not widen it: any container may ask for it, without a grant\n");
  for (i = 0; i < t.n_admin; i++)
    printf ("%s%s`%s`", i ? "; " : "    also applied by the admin config itself, without a request or a grant: ",
            t.admin[i].profile ? "profile " : "",
            t.admin[i].profile ? t.admin[i].profile : entitle_source_key (t.admin[i].source));
  if (t.n_admin)
    putchar ('\n');
  trust_free (&t);
}

json_t *
explain_trust_json (struct shim_s *s, const struct explain_baseline_s *b, const struct entitle_entry_s *e,
                    const char *value)
{
  json_t *o = json_new (JSON_OBJECT), *admin = json_new (JSON_ARRAY);
  struct trust_s t;
  size_t i;

  judge (s, b, e, value, &t);
  json_set (o, "against", json_new_string (b->key));
  json_set (o, "entitlement", json_new_string (t.asked));
  json_set (o, "widens", t.widens < 0 ? json_new (JSON_NULL) : json_new_bool (t.widens));
  json_set (o, "reason", t.why_not ? json_new_string (t.why_not) : json_new (JSON_NULL));
  json_set (o, "granted", json_new_bool (t.granted_by != NULL));
  json_set (o, "granted_by", t.granted_by ? json_new_string (t.granted_by) : json_new (JSON_NULL));
  for (i = 0; i < t.n_admin; i++)
    {
      json_t *a = json_new (JSON_OBJECT);
      json_set (a, "source", json_new_string (entitle_source_key (t.admin[i].source)));
      json_set (a, "profile", t.admin[i].profile ? json_new_string (t.admin[i].profile) : json_new (JSON_NULL));
      json_push (admin, a);
    }
  json_set (o, "admin", admin);
  trust_free (&t);
  return o;
}
