/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "resolve.h"
#include "utils.h"

static const enum entitle_domain ladders[] = { DOMAIN_NETWORK, DOMAIN_SECURITY, DOMAIN_DEVICES,
                                               DOMAIN_PROCESSES, DOMAIN_MODULES };

/* The floor of a ladder: the narrower of the admin's `require` and the
   profile's rung, with the words that name where it comes from.  */
struct floors_s
{
  const struct entitle_set_s *require, *profile;
  const char *require_source, *profile_source;
};

static const struct entitle_request_s *
floor_rung (const struct floors_s *f, enum entitle_domain d, const char **source)
{
  const struct entitle_request_s *r = entitle_set_rung (f->require, d), *p = entitle_set_rung (f->profile, d);

  *source = f->require_source;
  if (p && (r == NULL || p->entry->rung < r->entry->rung))
    {
      *source = f->profile_source;
      return p;
    }
  return r;
}

static int
resolve_ladder (enum entitle_domain d, const struct entitle_set_s *req, const struct entitle_set_s *defs,
                const struct floors_s *floors, struct entitle_set_s *final, entitle_error_t *err)
{
  const struct entitle_request_s *r = entitle_set_rung (req, d);
  const char *source;
  const struct entitle_request_s *floor = floor_rung (floors, d, &source);
  const struct entitle_request_s *def = entitle_set_rung (defs, d);

  if (r && floor && r->entry->rung > floor->entry->rung)
    return entitle_make_error (err, EPERM, "entitlement \"%s\" requested by the container%s is wider than \"%s\" required by %s",
                               r->entry->name, entitle_source_through (r->source), floor->entry->name, source);
  if (r == NULL)
    r = floor ? floor : def;
  if (r)
    entitle_set_add (final, r);
  return 0;
}

/* A modifier whose values are an allowlist (network.egress, network.bind)
   is held to a floor: the admin's required rules.  A rule the container
   asks for must lie within one of them; the container's rules then
   replace the required ones (they narrow them), and the admin's defaults
   of that modifier give way to the floor.  Other modifiers combine.  */
static bool
asks_for (const struct entitle_set_s *set, const struct entitle_entry_s *row)
{
  size_t i;
  for (i = 0; i < set->n; i++)
    if (set->items[i].entry == row)
      return true;
  return false;
}

static bool
floored (const struct entitle_set_s *reqd, const struct entitle_entry_s *row)
{
  return row->value && row->value->covers && asks_for (reqd, row);
}

static int
within_floor (const char *source, const struct entitle_set_s *reqd, const struct entitle_request_s *q,
              entitle_error_t *err)
{
  cleanup_free char *asked = entitle_request_format (q), *floor = NULL;
  size_t i, n = 0;

  for (i = 0; i < reqd->n; i++)
    if (reqd->items[i].entry == q->entry && q->entry->value->covers (&reqd->items[i].v, &q->v))
      return 0;
  for (i = 0; i < reqd->n; i++)
    if (reqd->items[i].entry == q->entry && n++ == 0)
      floor = entitle_request_format (&reqd->items[i]);
  return entitle_make_error (err, EPERM,
                             "entitlement \"%s\" requested by the container%s is not within \"%s\"%s required by %s",
                             asked, entitle_source_through (q->source), floor, n > 1 ? " nor the other rules" : "",
                             source);
}

static int
add_modifiers (const char *source, const struct entitle_set_s *req, const struct entitle_set_s *defs,
               const struct entitle_set_s *reqd, struct entitle_set_s *final, entitle_error_t *err)
{
  size_t i;
  int ret;

  for (i = 0; i < req->n; i++)
    if (req->items[i].entry->rung == 0 && floored (reqd, req->items[i].entry))
      {
        ret = within_floor (source, reqd, &req->items[i], err);
        if (UNLIKELY (ret < 0))
          return ret;
      }
  for (i = 0; i < reqd->n; i++)
    if (reqd->items[i].entry->rung == 0 && !(floored (reqd, reqd->items[i].entry) && asks_for (req, reqd->items[i].entry)))
      entitle_set_add (final, &reqd->items[i]);
  for (i = 0; i < defs->n; i++)
    if (defs->items[i].entry->rung == 0 && !floored (reqd, defs->items[i].entry))
      entitle_set_add (final, &defs->items[i]);
  for (i = 0; i < req->n; i++)
    if (req->items[i].entry->rung == 0)
      entitle_set_add (final, &req->items[i]);
  return 0;
}

/* A modifier that opens what the rung in force closes (network.none with
   network.egress), or an egress allowlist beside a rung that gives raw
   sockets: the rows say which.  */
static int
check_contradictions (const struct entitle_set_s *final, entitle_error_t *err)
{
  size_t i;

  for (i = 0; i < final->n; i++)
    for (const char *const *c = final->items[i].entry->contradicts; c && *c; c++)
      if (entitle_set_has (final, *c))
        return entitle_make_error (err, EINVAL, "entitlement `%s` contradicts `%s`",
                                   final->items[i].entry->name, *c);
  return 0;
}

int
entitle_resolve (const struct entitle_config_s *cfg, const struct entitle_set_s *requested,
                 struct entitle_set_s *final, entitle_error_t *err)
{
  cleanup_entitle_set struct entitle_set_s defs = { 0 }, reqd = { 0 }, prof = { 0 }, floors = { 0 };
  char defaults_source[4200], require_list[4200], require_source[4200], profile_source[4400];
  struct floors_s f = { &reqd, &prof, require_source, profile_source };
  size_t i;
  int ret;

  snprintf (defaults_source, sizeof (defaults_source), "`defaults` of %s", cfg->path);
  snprintf (require_list, sizeof (require_list), "`require` of %s", cfg->path);
  snprintf (require_source, sizeof (require_source), "%s", cfg->path);
  snprintf (profile_source, sizeof (profile_source), "profile `%s` of %s", cfg->profile ? cfg->profile->name : "",
            cfg->path);
  ret = entitle_parse_strv (&cfg->catalogue, cfg->defaults, defaults_source, &defs, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = entitle_parse_strv (&cfg->catalogue, cfg->require, require_list, &reqd, err);
  if (ret == 0 && cfg->profile)
    ret = entitle_parse_strv (&cfg->catalogue, cfg->profile->entitlements, profile_source, &prof, err);
  if (UNLIKELY (ret < 0))
    return ret;
  entitle_set_stamp (&defs, ENTITLE_SOURCE_DEFAULTS);
  entitle_set_stamp (&reqd, ENTITLE_SOURCE_REQUIRE);
  entitle_set_stamp (&prof, ENTITLE_SOURCE_PROFILE);
  for (i = 0; i < sizeof (ladders) / sizeof (ladders[0]); i++)
    {
      ret = resolve_ladder (ladders[i], requested, &defs, &f, final, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  /* A profile's modifiers are floors as the admin's `require` are
     (DESIGN §7): the two lists together.  */
  for (i = 0; i < reqd.n; i++)
    entitle_set_add (&floors, &reqd.items[i]);
  for (i = 0; i < prof.n; i++)
    entitle_set_add (&floors, &prof.items[i]);
  ret = add_modifiers (cfg->profile ? profile_source : require_source, requested, &defs, &floors, final, err);
  if (UNLIKELY (ret < 0))
    return ret;
  return check_contradictions (final, err);
}

/* Match @pat against @name component by component; a trailing `*` takes
   one or more components, any other `*` exactly one.  */
static bool
glob_components (const char *pat, const char *name)
{
  for (;;)
    {
      const char *pe = strchr (pat, '.'), *ne = strchr (name, '.');
      size_t pl = pe ? (size_t)(pe - pat) : strlen (pat);
      size_t nl = ne ? (size_t)(ne - name) : strlen (name);

      if (pl == 1 && pat[0] == '*')
        {
          if (pe == NULL)
            return true;
        }
      else if (pl != nl || strncmp (pat, name, pl) != 0)
        return false;
      if (pe == NULL || ne == NULL)
        return pe == NULL && ne == NULL;
      pat = pe + 1;
      name = ne + 1;
    }
}

bool
entitle_grant_matches (const char *grant, const struct entitle_request_s *req)
{
  const char *eq = strchr (grant, '=');

  /* "network.egress=10.0.0.0/8" grants that value only.  */
  if (eq)
    return strncmp (grant, req->entry->name, (size_t)(eq - grant)) == 0
           && req->entry->name[eq - grant] == '\0' && req->value
           && strcmp (eq + 1, req->value) == 0;
  if (strcmp (grant, req->entry->name) == 0)
    return true;
  return !req->entry->exact_grant && strchr (grant, '*') && glob_components (grant, req->entry->name);
}

bool
entitle_granted (const struct entitle_config_s *cfg, const struct entitle_request_s *req)
{
  char *const *g;
  for (g = cfg->grant; g && *g; g++)
    if (entitle_grant_matches (*g, req))
      return true;
  return false;
}
