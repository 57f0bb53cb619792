/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "resolve.h"
#include "utils.h"

static const enum entitle_domain ladders[] = { DOMAIN_NETWORK, DOMAIN_SECURITY, DOMAIN_DEVICES,
                                               DOMAIN_PROCESSES, DOMAIN_MODULES };

static int
resolve_ladder (const struct entitle_config_s *cfg, enum entitle_domain d,
                const struct entitle_set_s *req, const struct entitle_set_s *defs,
                const struct entitle_set_s *reqd, struct entitle_set_s *final, entitle_error_t *err)
{
  const struct entitle_request_s *r = entitle_set_rung (req, d);
  const struct entitle_request_s *floor = entitle_set_rung (reqd, d);
  const struct entitle_request_s *def = entitle_set_rung (defs, d);

  if (r && floor && r->entry->rung > floor->entry->rung)
    return entitle_make_error (err, EPERM,
                               "entitlement \"%s\" requested by the container is wider than \"%s\" required by %s",
                               r->entry->name, floor->entry->name, cfg->path);
  if (r == NULL)
    r = floor ? floor : def;
  if (r)
    entitle_set_add (final, r);
  return 0;
}

static void
add_modifiers (const struct entitle_set_s *src, struct entitle_set_s *final)
{
  size_t i;
  for (i = 0; i < src->n; i++)
    if (src->items[i].entry->rung == 0)
      entitle_set_add (final, &src->items[i]);
}

/* network.none forbids every destination and port: a modifier that opens
   some contradicts it.  */
static int
check_contradictions (const struct entitle_set_s *final, entitle_error_t *err)
{
  static const char *const net_modifiers[] = { "network.egress", "network.bind", "network.bind-map" };
  size_t i;

  if (!entitle_set_has (final, "network.none"))
    return 0;
  for (i = 0; i < sizeof (net_modifiers) / sizeof (net_modifiers[0]); i++)
    if (entitle_set_has (final, net_modifiers[i]))
      return entitle_make_error (err, EINVAL, "entitlement `%s` contradicts `network.none`",
                                 net_modifiers[i]);
  return 0;
}

int
entitle_resolve (const struct entitle_config_s *cfg, const struct entitle_set_s *requested,
                 struct entitle_set_s *final, entitle_error_t *err)
{
  cleanup_entitle_set struct entitle_set_s defs = { 0 }, reqd = { 0 };
  char source[4200];
  size_t i;
  int ret;

  snprintf (source, sizeof (source), "`defaults` of %s", cfg->path);
  ret = entitle_parse_strv (cfg->defaults, source, &defs, err);
  if (UNLIKELY (ret < 0))
    return ret;
  snprintf (source, sizeof (source), "`require` of %s", cfg->path);
  ret = entitle_parse_strv (cfg->require, source, &reqd, err);
  if (UNLIKELY (ret < 0))
    return ret;
  for (i = 0; i < sizeof (ladders) / sizeof (ladders[0]); i++)
    {
      ret = resolve_ladder (cfg, ladders[i], requested, &defs, &reqd, final, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  add_modifiers (&reqd, final);
  add_modifiers (&defs, final);
  add_modifiers (requested, final);
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

static bool
grant_matches (const char *grant, const struct entitle_request_s *req)
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
    if (grant_matches (*g, req))
      return true;
  return false;
}
