/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "admin-config.h"
#include "closest.h"
#include "custom.h"
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

/* In a build tree the programs are shim/entitle, shim/entitle-full and
   oci-hooks/entitle-hook: when the running program is in @here (a
   directory of the tree), the program @there (relative to the tree's top)
   into @buf, if it is there; else NULL.  */
static const char *
build_tree_program (const char *here, const char *there, char *buf, size_t len)
{
  char self[PATH_MAX], *slash;
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);

  if (n <= 0)
    return NULL;
  self[n] = '\0';
  slash = strrchr (self, '/');
  if (slash == NULL)
    return NULL;
  *slash = '\0';
  slash = strrchr (self, '/');
  if (slash == NULL || strcmp (slash + 1, here) != 0)
    return NULL;
  *slash = '\0';
  if ((size_t)snprintf (buf, len, "%s/%s", self, there) >= len || access (buf, X_OK) < 0)
    return NULL;
  return buf;
}

#define DEFAULT_STATE_DIR "/run/entitle"

char *
entitle_state_path (const char *state_dir, const char *name)
{
  char *p;
  xasprintf (&p, "%s/%s", state_dir ? state_dir : DEFAULT_STATE_DIR, name);
  return p;
}

const char *
entitle_config_hook (const struct entitle_config_s *cfg, char *buf, size_t len)
{
  const char *p = getenv ("ENTITLE_HOOK");
  if (p && *p)
    return p;
  if (cfg->hook)
    return cfg->hook;
  p = build_tree_program ("shim", "oci-hooks/entitle-hook", buf, len);
  return p ? p : PKGLIBEXECDIR "/entitle-hook";
}

const char *
entitle_config_init (char *buf, size_t len)
{
  const char *p = getenv ("ENTITLE_INIT");
  if (p && *p)
    return p;
  p = build_tree_program ("shim", "init/entitle-init", buf, len);
  return p ? p : PKGLIBEXECDIR "/entitle-init";
}

const char *
entitle_config_full (char *buf, size_t len)
{
  const char *p = build_tree_program ("oci-hooks", "shim/entitle-full", buf, len);
  return p ? p : PKGLIBEXECDIR "/entitle-full";
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

  if (cfg->present)
    xasprintf (&hint, "not granted by %s", cfg->path);
  else if (cfg->path && *cfg->path)
    xasprintf (&hint,
               "not granted by an admin config: there is none at %s (to grant it, an admin writes "
               "{\"grant\": [\"%.1024s\"]} there; see entitle.json(5))",
               cfg->path, name);
  else
    xasprintf (&hint,
               "not granted by an admin config: there is none (ENTITLE_CONFIG is set and empty; to "
               "grant it, an admin names a file holding {\"grant\": [\"%.1024s\"]} in "
               "ENTITLE_CONFIG or --entitle-config; see entitle.json(5))",
               name);
  return hint;
}

static char **
empty_list (void)
{
  char **l = xcalloc (1, sizeof (char *));
  return l;
}

static int
list_of (const json_t *v, const char *what, char ***out, const char *path, entitle_error_t *err)
{
  size_t i;
  char **l;

  if (v->type != JSON_ARRAY)
    return entitle_make_error (err, EINVAL, "`%s`: %s must be an array of strings", path, what);
  l = xcalloc (v->n + 1, sizeof (char *));
  for (i = 0; i < v->n; i++)
    {
      if (v->items[i]->type != JSON_STRING)
        {
          cleanup_strvp (&l);
          return entitle_make_error (err, EINVAL, "`%s`: %s must be an array of strings", path, what);
        }
      l[i] = xstrdup (v->items[i]->text);
    }
  cleanup_strvp (out);
  *out = l;
  return 0;
}

/* The keys of the file: each is one of these kinds, at an offset in the
   struct.  */
enum key_kind
{
  KEY_STRING,
  KEY_LIST,
  KEY_BOOL,
  KEY_BOOL_OFF, /* a bool stored negated: on when the key is absent */
  KEY_ACTION,   /* on_unenforceable: "refuse" or "warn" */
  KEY_PROFILES, /* {"NAME": [ENT...]} */
  KEY_CUSTOM,   /* {"NAME": {definition}}: lib/model/custom.c */
  KEY_IMAGES,   /* image_labels: true, false or {"docker": [DIR...], "containers-storage": [DIR...], "containerd": [SOCKET...]} */
};

static const struct
{
  const char *name;
  enum key_kind kind;
  size_t offset;
} keys[] = {
  { "defaults", KEY_LIST, offsetof (struct entitle_config_s, defaults) },
  { "denials", KEY_BOOL_OFF, offsetof (struct entitle_config_s, denials_off) },
  { "entitlements", KEY_CUSTOM, offsetof (struct entitle_config_s, catalogue) },
  { "grant", KEY_LIST, offsetof (struct entitle_config_s, grant) },
  { "hook", KEY_STRING, offsetof (struct entitle_config_s, hook) },
  { "image_labels", KEY_IMAGES, 0 },
  { "lock", KEY_BOOL, offsetof (struct entitle_config_s, lock) },
  { "on_unenforceable", KEY_ACTION, offsetof (struct entitle_config_s, warn_unenforceable) },
  { "profiles", KEY_PROFILES, 0 },
  { "require", KEY_LIST, offsetof (struct entitle_config_s, require) },
  { "runtime", KEY_STRING, offsetof (struct entitle_config_s, runtime) },
  { "state_dir", KEY_STRING, offsetof (struct entitle_config_s, state_dir) },
};

/* A profile is named as entitle-NAME is, and never as entitle's own
   programs are (entitle-full, entitle-hook, entitle-init).  */
static bool
valid_profile_name (const char *s)
{
  static const char *const reserved[] = { "full", "hook", "init" };
  char prev = '-';
  size_t i;

  for (i = 0; i < sizeof (reserved) / sizeof (reserved[0]); i++)
    if (strcmp (s, reserved[i]) == 0)
      return false;
  for (; *s; prev = *s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || (*s == '-' && prev != '-')))
      return false;
  return prev != '-';
}

static int
get_profiles (struct entitle_config_s *cfg, const json_t *v, entitle_error_t *err)
{
  size_t i;

  if (v->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "`%s`: `profiles` must be an object of lists", cfg->path);
  entitle_config_free_profiles (cfg);
  cfg->profiles = xcalloc (v->n + 1, sizeof (*cfg->profiles));
  for (i = 0; i < v->n; i++)
    {
      struct entitle_profile_s *p = &cfg->profiles[i];
      char what[300];
      int ret;

      if (!valid_profile_name (v->keys[i]))
        return entitle_make_error (err, EINVAL,
                                   "`%s`: profile name `%s` must be lowercase letters, digits and single "
                                   "dashes, and not `full`, `hook` or `init`",
                                   cfg->path, v->keys[i]);
      snprintf (what, sizeof (what), "profile `%.256s`", v->keys[i]);
      ret = list_of (v->items[i], what, &p->entitlements, cfg->path, err);
      if (UNLIKELY (ret < 0))
        return ret;
      p->name = xstrdup (v->keys[i]);
      cfg->n_profiles++;
    }
  return 0;
}

/* The engines' default roots, where `"image_labels": true` looks.  */
#define DEFAULT_DOCKER_ROOT  "/var/lib/docker"
#define DEFAULT_STORAGE_ROOT "/var/lib/containers/storage"
#define DEFAULT_CONTAINERD   "/run/containerd/containerd.sock"

/* `"image_labels": true`'s lists, the defaults: shared, never freed
   (image_defaults), so that turning the key on costs a create of another
   engine no allocation.  */
static char *docker_default[] = { (char *)DEFAULT_DOCKER_ROOT, NULL };
static char *storage_default[] = { (char *)DEFAULT_STORAGE_ROOT, NULL };
static char *containerd_default[] = { (char *)DEFAULT_CONTAINERD, NULL };

/* Forget the lists of `image_labels`.  */
static void
free_images (struct entitle_config_s *cfg)
{
  if (cfg->image_defaults)
    cfg->image_docker = cfg->image_storage = cfg->image_containerd = NULL;
  cleanup_strvp (&cfg->image_docker);
  cleanup_strvp (&cfg->image_storage);
  cleanup_strvp (&cfg->image_containerd);
  cfg->image_defaults = false;
}

/* Each root an absolute path: the lookup matches bundles by prefix.  */
static int
absolute_roots (char **l, const char *path, entitle_error_t *err)
{
  for (; l && *l; l++)
    if (**l != '/' || strstr (*l, "/../") || strstr (*l, "/./"))
      return entitle_make_error (err, EINVAL, "`%s`: `image_labels`: `%s` is not an absolute path", path, *l);
  return 0;
}

static int
get_images (struct entitle_config_s *cfg, const json_t *v, entitle_error_t *err)
{
  static const char *const names[] = { "docker", "containers-storage", "containerd" };
  char **const defaults[] = { docker_default, storage_default, containerd_default };
  char ***lists[] = { &cfg->image_docker, &cfg->image_storage, &cfg->image_containerd };
  size_t i, found = 0;
  int ret = 0;

  free_images (cfg);
  cfg->image_defaults = v->type == JSON_TRUE;
  for (i = 0; i < 3; i++)
    {
      const json_t *l = json_get (v, names[i]);
      char what[64];

      if (v->type == JSON_TRUE)
        *lists[i] = defaults[i];
      if (v->type != JSON_OBJECT)
        continue;
      *lists[i] = empty_list ();
      found += l != NULL;
      snprintf (what, sizeof (what), "`image_labels.%s`", names[i]);
      if (ret == 0 && l)
        ret = list_of (l, what, lists[i], cfg->path, err);
      if (ret == 0)
        ret = absolute_roots (*lists[i], cfg->path, err);
    }
  if (ret == 0 && (v->type == JSON_OBJECT ? found != v->n : v->type != JSON_TRUE && v->type != JSON_FALSE))
    return entitle_make_error (err, EINVAL,
                               "`%s`: `image_labels` must be true, false or {\"docker\": [DIR...], "
                               "\"containers-storage\": [DIR...], \"containerd\": [SOCKET...]}",
                               cfg->path);
  return ret;
}

static int
unknown_key (const char *path, const char *key, entitle_error_t *err)
{
  struct entitle_closest_s c;
  size_t i;

  entitle_closest_init (&c, key, strlen (key));
  for (i = 0; i < sizeof (keys) / sizeof (keys[0]); i++)
    entitle_closest_consider (&c, keys[i].name);
  return entitle_make_error (err, EINVAL, "`%s`: unknown key `%s`%s%s%s", path, key, c.best ? ": did you mean `" : "",
                             c.best ? c.best : "", c.best ? "`?" : "");
}

static int
set_key (struct entitle_config_s *cfg, const char *key, const json_t *v, entitle_error_t *err)
{
  const char *path = cfg->path;
  size_t i;

  for (i = 0; i < sizeof (keys) / sizeof (keys[0]) && strcmp (keys[i].name, key) != 0; i++)
    ;
  /* Fail closed: a misspelt "requrie" must not silently drop a floor.  */
  if (i == sizeof (keys) / sizeof (keys[0]))
    return unknown_key (path, key, err);
  void *field = (char *)cfg + keys[i].offset;
  switch (keys[i].kind)
    {
    case KEY_STRING:
      if (v->type != JSON_STRING || v->len == 0)
        return entitle_make_error (err, EINVAL, "`%s`: `%s` must be a non-empty string", path, key);
      free (*(char **)field);
      *(char **)field = xstrdup (v->text);
      return 0;
    case KEY_LIST:
      {
        char what[64];
        snprintf (what, sizeof (what), "`%s`", key);
        return list_of (v, what, (char ***)field, path, err);
      }
    case KEY_BOOL:
    case KEY_BOOL_OFF:
    case KEY_ACTION:
      {
        const char *s = json_string (v);
        bool action = keys[i].kind == KEY_ACTION;
        if (action ? s == NULL || (strcmp (s, "refuse") != 0 && strcmp (s, "warn") != 0)
                   : v->type != JSON_TRUE && v->type != JSON_FALSE)
          return entitle_make_error (err, EINVAL, "`%s`: `%s` must be %s", path, key,
                                     action ? "\"refuse\" or \"warn\"" : "true or false");
        *(bool *)field = action ? strcmp (s, "warn") == 0 : (v->type == JSON_TRUE) != (keys[i].kind == KEY_BOOL_OFF);
        return 0;
      }
    case KEY_PROFILES:
      return get_profiles (cfg, v, err);
    case KEY_IMAGES:
      return get_images (cfg, v, err);
    case KEY_CUSTOM:
      if (cfg->lean && v->type == JSON_OBJECT)
        return 0;
      return entitle_custom_parse ((struct entitle_catalogue_s *)field, path, v, err);
    }
  abort ();
}

void
entitle_config_issue (struct entitle_config_issues_s *issues, entitle_error_t *err)
{
  char **lines = xrealloc (issues->lines, (issues->n + 1) * sizeof (*lines));
  issues->lines = lines;
  issues->lines[issues->n++] = get_and_reset (&(*err)->msg);
  entitle_error_release (err);
}

void
entitle_config_issues_free (struct entitle_config_issues_s *issues)
{
  size_t i;
  for (i = 0; i < issues->n; i++)
    free (issues->lines[i]);
  free (issues->lines);
  issues->lines = NULL;
  issues->n = 0;
}

/* Parse @len bytes at @buf into @cfg: the first error is returned, or,
   with @issues (the strict mode), each key's error goes there and the
   other keys are parsed all the same.  */
static int
parse (struct entitle_config_s *cfg, const char *path, const char *buf, size_t len,
       struct entitle_config_issues_s *issues, entitle_error_t *err)
{
  cleanup_json json_t *root = NULL;
  size_t i;
  int ret;

  free (cfg->path);
  cfg->path = xstrdup (path);
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
      if (UNLIKELY (ret < 0) && issues == NULL)
        return ret;
      if (UNLIKELY (ret < 0))
        entitle_config_issue (issues, err);
    }
  cfg->present = true;
  return 0;
}

int
entitle_config_parse (struct entitle_config_s *cfg, const char *path, const char *buf, size_t len,
                      entitle_error_t *err)
{
  return parse (cfg, path, buf, len, NULL, err);
}

void
entitle_config_parse_all (struct entitle_config_s *cfg, const char *path, const char *buf, size_t len,
                          struct entitle_config_issues_s *issues)
{
  entitle_error_t err = NULL;

  if (parse (cfg, path, buf, len, issues, &err) < 0)
    entitle_config_issue (issues, &err);
}

void
entitle_config_reset (struct entitle_config_s *cfg)
{
  char *path = cfg->path;

  cfg->path = NULL;
  entitle_config_free (cfg);
  cfg->path = path ? path : xstrdup ("");
  cfg->defaults = empty_list ();
  cfg->grant = empty_list ();
  cfg->require = empty_list ();
}

static int
load (struct entitle_config_s *cfg, const char *file, bool lean, entitle_error_t *err)
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
  cfg->path = xstrdup (path);
  entitle_config_reset (cfg);
  cfg->lean = lean;
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
entitle_config_load_file (struct entitle_config_s *cfg, const char *file, entitle_error_t *err)
{
  return load (cfg, file, false, err);
}

int
entitle_config_load (struct entitle_config_s *cfg, entitle_error_t *err)
{
  return load (cfg, NULL, false, err);
}

/* The only reader of @cfg's previous contents: its callers initialize it
   (the front with lean set); the loaders above take any memory.  */
int
entitle_config_open (struct entitle_config_s *cfg, const char *file, const char *profile, entitle_error_t *err)
{
  int ret = load (cfg, file, cfg->lean, err);
  if (UNLIKELY (ret < 0))
    return ret;
  return entitle_config_select_profile (cfg, profile, err);
}

void
entitle_config_free_profiles (struct entitle_config_s *cfg)
{
  size_t i;
  for (i = 0; i < cfg->n_profiles; i++)
    {
      free (cfg->profiles[i].name);
      cleanup_strvp (&cfg->profiles[i].entitlements);
    }
  free (cfg->profiles);
  cfg->profiles = NULL;
  cfg->n_profiles = 0;
  cfg->profile = NULL;
}

int
entitle_config_select_profile (struct entitle_config_s *cfg, const char *name, entitle_error_t *err)
{
  cleanup_free char *names = NULL;
  size_t i, len = 1;

  cfg->profile = NULL;
  if (name == NULL)
    return 0;
  for (i = 0; i < cfg->n_profiles; i++)
    if (strcmp (cfg->profiles[i].name, name) == 0)
      {
        cfg->profile = &cfg->profiles[i];
        return 0;
      }
  for (i = 0; i < cfg->n_profiles; i++)
    len += strlen (cfg->profiles[i].name) + 4;
  names = xcalloc (1, len);
  for (i = 0; i < cfg->n_profiles; i++)
    {
      strcat (names, i ? ", `" : "`");
      strcat (names, cfg->profiles[i].name);
      strcat (names, "`");
    }
  return entitle_make_error (err, EINVAL, "unknown profile `%.256s`: %s defines %s", name,
                             cfg->present ? cfg->path : "no admin config, which", cfg->n_profiles ? names : "none");
}

void
entitle_config_free (struct entitle_config_s *cfg)
{
  entitle_config_free_profiles (cfg);
  entitle_catalogue_free (&cfg->catalogue);
  free (cfg->path);
  free (cfg->runtime);
  free (cfg->state_dir);
  free (cfg->hook);
  free_images (cfg);
  cleanup_strvp (&cfg->defaults);
  cleanup_strvp (&cfg->grant);
  cleanup_strvp (&cfg->require);
  memset (cfg, 0, sizeof (*cfg));
}
