/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config-check.h"
#include "resolve.h"
#include "utils.h"

/* entitle config check (issue 24): the parser's strict mode
   (entitle_config_parse_all), then every name the lists hold, which the
   parser keeps as strings: those of `defaults`, `require` and the
   profiles are parsed at each create (a typo fails every container then),
   and those of `grant` are only ever compared (a typo grants nothing,
   silently).  Then the lists resolved as create resolves them.  */

/* The error *@err, said of @where (NULL: of the file) in @path.  */
static void
issue (struct entitle_config_issues_s *issues, const char *path, const char *where, entitle_error_t *err)
{
  if (where)
    entitle_error_wrap (err, "`%s`: %s", path, where);
  else
    entitle_error_wrap (err, "`%s`", path);
  entitle_config_issue (issues, err);
}

static bool
is_separator (char c)
{
  return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Each entitlement of the list entry @s (split as the annotation is): an
   issue for each that does not parse.  */
static size_t
check_names (const struct entitle_catalogue_s *cat, const char *s, const char *path, const char *where,
             struct entitle_config_issues_s *issues)
{
  size_t bad = 0;

  while (*s)
    {
      size_t len = 0;
      struct entitle_request_s req;
      entitle_error_t err = NULL;

      while (is_separator (*s))
        s++;
      while (s[len] && !is_separator (s[len]))
        len++;
      if (len == 0)
        break;
      if (entitle_parse_one (cat, s, len, &req, &err) < 0)
        {
          issue (issues, path, where, &err);
          bad++;
        }
      else
        free (req.value);
      s += len;
    }
  return bad;
}

/* The names of @list, then (when they all parse) the list as create
   reads it: empty entries, two rungs of a ladder, too many.  */
static size_t
check_list (const struct entitle_catalogue_s *cat, char *const *list, const char *path, const char *where,
            struct entitle_config_issues_s *issues)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  entitle_error_t err = NULL;
  size_t bad = 0;

  for (char *const *l = list; l && *l; l++)
    bad += check_names (cat, *l, path, where, issues);
  /* Its messages name @where.  */
  if (bad == 0 && list && entitle_parse_strv (cat, list, where, &set, &err) < 0)
    {
      issue (issues, path, NULL, &err);
      bad++;
    }
  return bad;
}

/* How many rows the glob @grant covers (globs never cover the rows
   granted by exact name only).  */
static size_t
glob_rows (const struct entitle_catalogue_s *cat, const char *grant)
{
  const struct entitle_entry_s *rows;
  size_t i, n, found = 0;

  rows = entitle_catalogue_rows (cat, &n);
  for (i = 0; i < n; i++)
    {
      struct entitle_request_s req = { .entry = &rows[i] };
      found += entitle_grant_matches (grant, &req);
    }
  return found;
}

/* A grant is a name, NAME=VALUE (that value only) or a glob on whole
   components, which must cover a row.  */
static size_t
check_grant (const struct entitle_catalogue_s *cat, const char *g, const char *path,
             struct entitle_config_issues_s *issues)
{
  const char *eq = strchr (g, '=');
  struct entitle_request_s req;
  entitle_error_t err = NULL;

  if (strchr (g, '*') && (eq == NULL || strchr (g, '*') < eq))
    {
      if (eq == NULL && glob_rows (cat, g) > 0)
        return 0;
      if (eq)
        entitle_make_error (&err, EINVAL, "`%s`: a grant with a value names one entitlement, not a glob", g);
      else
        entitle_make_error (&err, EINVAL, "`%s` matches no entitlement (a `*` stands for whole components)", g);
    }
  else if (eq == NULL && entitle_catalogue_find (cat, g, strlen (g)))
    return 0;
  else if (entitle_parse_one (cat, g, strlen (g), &req, &err) == 0)
    {
      free (req.value);
      return 0;
    }
  issue (issues, path, "`grant`", &err);
  return 1;
}

/* The lists resolved as create resolves them for a container that asks
   for nothing (a modifier that contradicts a rung in force): under no
   profile, then under each (a profile's rung wider than a required one).  */
static void
check_resolve (struct entitle_config_s *cfg, struct entitle_config_issues_s *issues)
{
  const struct entitle_profile_s *was = cfg->profile;
  struct entitle_set_s none = { 0 };
  size_t i;

  for (i = 0; i <= cfg->n_profiles; i++)
    {
      cleanup_entitle_set struct entitle_set_s final = { 0 };
      entitle_error_t err = NULL;
      char where[300];

      cfg->profile = i == 0 ? NULL : &cfg->profiles[i - 1];
      if (entitle_resolve (cfg, &none, &final, &err) == 0)
        continue;
      snprintf (where, sizeof (where), "%s%.256s%s`defaults` and `require`", i ? "profile `" : "",
                i ? cfg->profile->name : "", i ? "` with " : "");
      issue (issues, cfg->path, where, &err);
      /* Every profile would fail the same way.  */
      if (i == 0)
        break;
    }
  cfg->profile = was;
}

void
entitle_config_check (struct entitle_config_s *cfg, const char *path, const char *buf, size_t len,
                      struct entitle_config_issues_s *issues)
{
  const struct entitle_catalogue_s *cat = &cfg->catalogue;
  size_t bad, i;

  entitle_config_parse_all (cfg, path, buf, len, issues);
  /* Nothing parsed: the JSON itself is wrong.  */
  if (!cfg->present)
    return;
  bad = issues->n;
  for (char *const *g = cfg->grant; g && *g; g++)
    bad += check_grant (cat, *g, path, issues);
  bad += check_list (cat, cfg->defaults, path, "`defaults`", issues);
  bad += check_list (cat, cfg->require, path, "`require`", issues);
  for (i = 0; i < cfg->n_profiles; i++)
    {
      char where[300];
      snprintf (where, sizeof (where), "profile `%.256s`", cfg->profiles[i].name);
      bad += check_list (cat, cfg->profiles[i].entitlements, path, where, issues);
    }
  if (bad == 0)
    check_resolve (cfg, issues);
}
