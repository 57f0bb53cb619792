/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "admin-config.h"
#include "file.h"
#include "json.h"
#include "utils.h"

#define ENTITLE_MAX_ADMIN_CONFIG_SIZE (1024 * 1024)

const char *
entitle_config_path (void)
{
  const char *p = getenv ("ENTITLE_CONFIG");
  return p ? p : ENTITLE_CONFIG_FILE;
}

char *
entitle_build_tree_file (const char *rel)
{
  char self[PATH_MAX], *slash, *path;
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);

  if (n <= 0)
    return NULL;
  self[n] = '\0';
  slash = strrchr (self, '/');
  if (slash == NULL)
    return NULL;
  *slash = '\0';
  slash = strrchr (self, '/');
  if (slash == NULL || strcmp (slash + 1, "shim") != 0)
    return NULL;
  *slash = '\0';
  if (asprintf (&path, "%s/%s", self, rel) < 0)
    abort ();
  if (access (path, X_OK) == 0)
    return path;
  free (path);
  return NULL;
}

/* The build tree's hook, asked once.  */
static const char *
build_tree_hook (void)
{
  static char *path;
  static int done;

  if (!done)
    path = entitle_build_tree_file ("oci-hooks/entitle-hook");
  done = 1;
  return path;
}

#define DEFAULT_STATE_DIR "/run/entitle"

char *
entitle_state_path (const char *state_dir, const char *name)
{
  char *p;
  if (asprintf (&p, "%s/%s", state_dir ? state_dir : DEFAULT_STATE_DIR, name) < 0)
    abort ();
  return p;
}

const char *
entitle_config_hook (const struct entitle_config_s *cfg)
{
  const char *p = getenv ("ENTITLE_HOOK");
  if (p && *p)
    return p;
  if (cfg->hook)
    return cfg->hook;
  p = build_tree_hook ();
  return p ? p : PKGLIBEXECDIR "/entitle-hook";
}

const char *
entitle_config_arg (const struct entitle_config_s *cfg)
{
  return cfg->present && cfg->path ? cfg->path : "";
}

const char *
entitle_config_name (const struct entitle_config_s *cfg)
{
  return cfg->path && *cfg->path ? cfg->path : "an admin config";
}

char *
entitle_config_grant_hint (const struct entitle_config_s *cfg, const char *name)
{
  char *hint;
  int n;

  if (cfg->present)
    n = asprintf (&hint, "not granted by %s", cfg->path);
  else if (cfg->path && *cfg->path)
    n = asprintf (&hint,
                  "not granted by an admin config: there is none at %s (to grant it, an admin writes "
                  "{\"grant\": [\"%.1024s\"]} there; see entitle.json(5))",
                  cfg->path, name);
  else
    n = asprintf (&hint,
                  "not granted by an admin config: there is none (ENTITLE_CONFIG is set and empty; to "
                  "grant it, an admin names a file holding {\"grant\": [\"%.1024s\"]} in "
                  "ENTITLE_CONFIG or --entitle-config; see entitle.json(5))",
                  name);
  if (n < 0)
    abort ();
  return hint;
}

static char **
empty_list (void)
{
  char **l = calloc (1, sizeof (char *));
  if (l == NULL)
    abort ();
  return l;
}

static int
get_list (const json_t *v, const char *key, char ***out, const char *path, entitle_error_t *err)
{
  size_t i;
  char **l;

  if (v->type != JSON_ARRAY)
    return entitle_make_error (err, EINVAL, "`%s`: `%s` must be an array of strings", path, key);
  l = calloc (v->n + 1, sizeof (char *));
  if (l == NULL)
    abort ();
  for (i = 0; i < v->n; i++)
    {
      if (v->items[i]->type != JSON_STRING)
        {
          cleanup_strvp (&l);
          return entitle_make_error (err, EINVAL, "`%s`: `%s` must be an array of strings", path, key);
        }
      l[i] = strdup (v->items[i]->text);
    }
  cleanup_strvp (out);
  *out = l;
  return 0;
}

static int
get_string (const json_t *v, const char *key, char **out, const char *path, entitle_error_t *err)
{
  if (v->type != JSON_STRING || v->len == 0)
    return entitle_make_error (err, EINVAL, "`%s`: `%s` must be a non-empty string", path, key);
  free (*out);
  *out = strdup (v->text);
  return 0;
}

static int
get_bool (const json_t *v, const char *key, bool *out, const char *path, entitle_error_t *err)
{
  if (v->type != JSON_TRUE && v->type != JSON_FALSE)
    return entitle_make_error (err, EINVAL, "`%s`: `%s` must be true or false", path, key);
  *out = v->type == JSON_TRUE;
  return 0;
}

static int
set_key (struct entitle_config_s *cfg, const char *key, const json_t *v, entitle_error_t *err)
{
  const char *path = cfg->path;

  if (strcmp (key, "runtime") == 0)
    return get_string (v, key, &cfg->runtime, path, err);
  if (strcmp (key, "defaults") == 0)
    return get_list (v, key, &cfg->defaults, path, err);
  if (strcmp (key, "grant") == 0)
    return get_list (v, key, &cfg->grant, path, err);
  if (strcmp (key, "require") == 0)
    return get_list (v, key, &cfg->require, path, err);
  if (strcmp (key, "lock") == 0)
    return get_bool (v, key, &cfg->lock, path, err);
  if (strcmp (key, "state_dir") == 0)
    return get_string (v, key, &cfg->state_dir, path, err);
  if (strcmp (key, "hook") == 0)
    return get_string (v, key, &cfg->hook, path, err);
  if (strcmp (key, "on_unenforceable") == 0)
    {
      const char *s = json_string (v);
      if (s == NULL || (strcmp (s, "refuse") != 0 && strcmp (s, "warn") != 0))
        return entitle_make_error (err, EINVAL, "`%s`: `on_unenforceable` must be \"refuse\" or \"warn\"", path);
      cfg->warn_unenforceable = strcmp (s, "warn") == 0;
      return 0;
    }
  /* Fail closed: a misspelt "requrie" must not silently drop a floor.  */
  return entitle_make_error (err, EINVAL, "`%s`: unknown key `%s`", path, key);
}

int
entitle_config_parse (struct entitle_config_s *cfg, const char *path, const char *buf, size_t len,
                      entitle_error_t *err)
{
  cleanup_json json_t *root = NULL;
  size_t i;
  int ret;

  free (cfg->path);
  cfg->path = strdup (path);
  if (cfg->defaults == NULL)
    cfg->defaults = empty_list ();
  if (cfg->grant == NULL)
    cfg->grant = empty_list ();
  if (cfg->require == NULL)
    cfg->require = empty_list ();
  ret = json_parse (buf, len, &root, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "load `%s`", path);
  if (root->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "`%s`: the top level must be an object", path);
  for (i = 0; i < root->n; i++)
    {
      ret = set_key (cfg, root->keys[i], root->items[i], err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  cfg->present = true;
  return 0;
}

void
entitle_config_reset (struct entitle_config_s *cfg)
{
  char *path = cfg->path;

  cfg->path = NULL;
  entitle_config_free (cfg);
  cfg->path = path ? path : strdup ("");
  cfg->defaults = empty_list ();
  cfg->grant = empty_list ();
  cfg->require = empty_list ();
}

int
entitle_config_load_file (struct entitle_config_s *cfg, const char *file, entitle_error_t *err)
{
  cleanup_free char *buf = NULL;
  const char *env = getenv ("ENTITLE_CONFIG"), *path, *by;
  size_t len;
  int ret;

  memset (cfg, 0, sizeof (*cfg));
  if (file)
    path = file, by = "--entitle-config";
  else if (env)
    path = env, by = "ENTITLE_CONFIG";
  else
    path = ENTITLE_CONFIG_FILE, by = NULL;
  cfg->path = strdup (path);
  entitle_config_reset (cfg);
  if (file && *file == '\0')
    return entitle_make_error (err, EINVAL, "`--entitle-config` needs a file name");
  /* ENTITLE_CONFIG= : no admin config.  */
  if (*path == '\0')
    return 0;
  ret = entitle_file_read (path, ENTITLE_MAX_ADMIN_CONFIG_SIZE, &buf, &len, err);
  if (ret < 0 && (*err)->status == ENOENT)
    {
      /* The default path may be absent, however it is named (entitle-hook
         gets it as --config from configs written by older builds).  */
      if (by && strcmp (path, ENTITLE_CONFIG_FILE) != 0)
        {
          entitle_error_release (err);
          return entitle_make_error (err, ENOENT,
                                     "admin config `%s` (named by %s) does not exist; ENTITLE_CONFIG= (set "
                                     "and empty) means no admin config",
                                     path, by);
        }
      entitle_error_release (err);
      return 0;
    }
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "admin config");
  ret = entitle_config_parse (cfg, path, buf, len, err);
  if (UNLIKELY (ret < 0))
    entitle_config_reset (cfg);
  return ret;
}

int
entitle_config_load (struct entitle_config_s *cfg, entitle_error_t *err)
{
  return entitle_config_load_file (cfg, NULL, err);
}

void
entitle_config_free (struct entitle_config_s *cfg)
{
  free (cfg->path);
  free (cfg->runtime);
  free (cfg->state_dir);
  free (cfg->hook);
  cleanup_strvp (&cfg->defaults);
  cleanup_strvp (&cfg->grant);
  cleanup_strvp (&cfg->require);
  memset (cfg, 0, sizeof (*cfg));
}
