/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `entitle configure` writes into each engine's config: one runtime
 * named entitle, and one per profile named entitle-PROFILE (the name a
 * Kubernetes RuntimeClass gives as its handler), as nvidia-ctk runtime
 * configure registers its runtime.  Each editor is given the text and
 * returns the text; full/configure.c reads, backs up and writes.
 */
#include <config.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engines.h"
#include "json.h"
#include "toml-edit.h"
#include "utils.h"

/* The runtime type of containerd's runc shim, which runs BinaryName with
   runc's command line.  */
#define RUNC_SHIM "io.containerd.runc.v2"

/* Kubernetes pod annotations containerd copies into config.json (glob).  */
#define POD_ANNOTATIONS "io.entitle.*"

/* Version 2 of the config: containerd 1.x (containerd 2.x migrates it).  */
const char *
entitle_engine_cri_plugin (const char *version)
{
  if (strcmp (version, "2") == 0)
    return "io.containerd.grpc.v1.cri";
  if (strcmp (version, "3") == 0)
    return "io.containerd.cri.v1.runtime";
  return NULL;
}

/* The config's version: a new file gets 2, which containerd 1.6 and 2.x
   both read; a file without one is version 1, which neither is edited
   in nor worth guessing at.  */
static int
containerd_version (entitle_toml_t *doc, const char *path, const char **plugin, entitle_error_t *err)
{
  static const char *const root[] = { NULL };
  cleanup_free char *version = NULL;
  int ret;

  ret = entitle_toml_get (doc, root, "version", &version, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (ret == 0 && !entitle_toml_is_empty (doc))
    return entitle_make_error (err, EINVAL,
                               "`%s` has no `version`: entitle configure edits containerd configs of version 2 "
                               "and 3 (add `version = 2` to a version 1 config, and check it)",
                               path);
  *plugin = entitle_engine_cri_plugin (ret == 0 ? "2" : version);
  if (ret == 0)
    return entitle_toml_set (doc, root, "version", "2", err);
  if (*plugin == NULL)
    return entitle_make_error (err, EINVAL, "`%s`: containerd config version %s, where entitle configure knows 2 and 3",
                               path, version);
  return 0;
}

/* A new handler gets the options of the default runtime (SystemdCgroup,
   Root, ...), as nvidia-ctk does: a handler that manages cgroups another
   way than the kubelet expects fails every pod.  */
static int
containerd_runtime (entitle_toml_t *doc, const char *plugin, const char *default_runtime,
                    const struct entitle_engine_runtime_s *r, entitle_error_t *err)
{
  const char *table[] = { "plugins", plugin, "containerd", "runtimes", r->name, NULL };
  const char *options[] = { "plugins", plugin, "containerd", "runtimes", r->name, "options", NULL };
  const char *from[] = { "plugins", plugin, "containerd", "runtimes", default_runtime, "options", NULL };
  static const char *const skip[] = { "BinaryName", NULL };
  cleanup_free char *binary = entitle_toml_string (r->binary);
  bool fresh = !entitle_toml_has_table (doc, options);
  int ret;

  ret = entitle_toml_set (doc, table, "runtime_type", "\"" RUNC_SHIM "\"", err);
  if (ret == 0)
    ret = entitle_toml_array_add (doc, table, "pod_annotations", POD_ANNOTATIONS, err);
  if (ret > 0)
    ret = 0;
  if (ret == 0 && fresh && strcmp (default_runtime, r->name) != 0)
    ret = entitle_toml_copy_keys (doc, from, options, skip, err);
  if (ret == 0)
    ret = entitle_toml_set (doc, options, "BinaryName", binary, err);
  return ret;
}

static int
edit_containerd (const char *path, const char *text, size_t len, const struct entitle_engine_runtime_s *runtimes,
                 size_t n, char **out, size_t *out_len, entitle_error_t *err)
{
  cleanup_toml entitle_toml_t *doc = NULL;
  cleanup_free char *default_runtime = NULL;
  const char *plugin = NULL;
  size_t i;
  int ret;

  ret = entitle_toml_parse (path, text, len, &doc, err);
  if (ret == 0)
    ret = containerd_version (doc, path, &plugin, err);
  if (ret == 0)
    {
      const char *cri[] = { "plugins", plugin, "containerd", NULL };
      ret = entitle_toml_get_string (doc, cri, "default_runtime_name", &default_runtime, err);
    }
  if (UNLIKELY (ret < 0))
    return ret;
  ret = 0;
  for (i = 0; i < n && ret == 0; i++)
    ret = containerd_runtime (doc, plugin, default_runtime ? default_runtime : "runc", &runtimes[i], err);
  for (i = 0; i < n && ret == 0; i++)
    if (runtimes[i].is_default)
      {
        const char *cri[] = { "plugins", plugin, "containerd", NULL };
        cleanup_free char *name = entitle_toml_string (runtimes[i].name);
        ret = entitle_toml_set (doc, cri, "default_runtime_name", name, err);
      }
  if (ret == 0)
    *out = entitle_toml_text (doc, out_len);
  return ret;
}

/* Podman passes --log-format=json --log FILE only to the runtimes named
   in [engine] runtime_supports_json; to another, runc logs its error as a
   logrus text line on stderr, which Podman shows as it is (`Error:
   entitle: time="..." level=error msg="runc create failed: ..."`).
   entitle writes runc's log formats: its runtimes are added, to Podman's
   own list when the file has none (an array set here replaces it).  */
static int
podman_supports_json (entitle_toml_t *doc, const struct entitle_engine_runtime_s *runtimes, size_t n,
                      entitle_error_t *err)
{
  static const char *const engine[] = { "engine", NULL };
  cleanup_free char *raw = NULL, *list = NULL;
  size_t i, len = 0;
  FILE *f;
  int ret = entitle_toml_get (doc, engine, "runtime_supports_json", &raw, err);

  if (ret < 0)
    return ret;
  if (ret > 0)
    {
      for (i = 0; i < n && ret >= 0; i++)
        ret = entitle_toml_array_add (doc, engine, "runtime_supports_json", runtimes[i].name, err);
      return ret < 0 ? ret : 0;
    }
  if ((f = open_memstream (&list, &len)) == NULL)
    abort ();
  fputs ("[\"crun\", \"runc\", \"kata\", \"runsc\", \"youki\", \"krun\"", f);
  for (i = 0; i < n; i++)
    {
      cleanup_free char *name = entitle_toml_string (runtimes[i].name);
      fprintf (f, ", %s", name);
    }
  fputs ("]", f);
  if (fclose (f) != 0)
    abort ();
  return entitle_toml_set (doc, engine, "runtime_supports_json", list, err);
}

/* Podman's containers.conf: [engine.runtimes] NAME = ["PATH", ...], the
   paths Podman tries in turn.  */
static int
edit_podman (const char *path, const char *text, size_t len, const struct entitle_engine_runtime_s *runtimes, size_t n,
             char **out, size_t *out_len, entitle_error_t *err)
{
  static const char *const table[] = { "engine", "runtimes", NULL };
  cleanup_toml entitle_toml_t *doc = NULL;
  size_t i;
  int ret;

  ret = entitle_toml_parse (path, text, len, &doc, err);
  for (i = 0; i < n && ret == 0; i++)
    {
      cleanup_free char *binary = entitle_toml_string (runtimes[i].binary), *value = NULL;
      xasprintf (&value, "[%s]", binary);
      ret = entitle_toml_set (doc, table, runtimes[i].name, value, err);
    }
  for (i = 0; i < n && ret == 0; i++)
    if (runtimes[i].is_default)
      {
        static const char *const engine[] = { "engine", NULL };
        cleanup_free char *name = entitle_toml_string (runtimes[i].name);
        ret = entitle_toml_set (doc, engine, "runtime", name, err);
      }
  if (ret == 0)
    ret = podman_supports_json (doc, runtimes, n, err);
  if (ret == 0)
    *out = entitle_toml_text (doc, out_len);
  return ret;
}

/* A CRI-O drop-in (crio.conf.d): one [crio.runtime.runtimes.NAME] handler
   each, which CRI-O runs through conmon with runc's command line.  */
static int
edit_crio (const char *path, const char *text, size_t len, const struct entitle_engine_runtime_s *runtimes, size_t n,
           char **out, size_t *out_len, entitle_error_t *err)
{
  cleanup_toml entitle_toml_t *doc = NULL;
  size_t i;
  int ret;

  ret = entitle_toml_parse (path, text, len, &doc, err);
  for (i = 0; i < n && ret == 0; i++)
    {
      const char *table[] = { "crio", "runtime", "runtimes", runtimes[i].name, NULL };
      cleanup_free char *binary = entitle_toml_string (runtimes[i].binary);
      ret = entitle_toml_set (doc, table, "runtime_path", binary, err);
      if (ret == 0)
        ret = entitle_toml_set (doc, table, "runtime_type", "\"oci\"", err);
    }
  for (i = 0; i < n && ret == 0; i++)
    if (runtimes[i].is_default)
      {
        static const char *const runtime[] = { "crio", "runtime", NULL };
        cleanup_free char *name = entitle_toml_string (runtimes[i].name);
        ret = entitle_toml_set (doc, runtime, "default_runtime", name, err);
      }
  if (ret == 0)
    *out = entitle_toml_text (doc, out_len);
  return ret;
}

/* A member of a daemon.json object that must be an object or absent.  */
static int
docker_object (json_t *obj, const char *key, const char *path, json_t **out, entitle_error_t *err)
{
  json_t *v = json_get (obj, key);

  if (v && v->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "`%s`: `%s` is not an object", path, key);
  *out = v ? v : json_get_or_add (obj, key, JSON_OBJECT);
  return 0;
}

static size_t
profile_args (const json_t *args)
{
  size_t i, n = 0;

  for (i = 0; i < args->n; i++)
    n += json_string (args->items[i]) && strncmp (json_string (args->items[i]), "--entitle-profile", 17) == 0;
  return n;
}

/* runtimeArgs hold --entitle-profile=PROFILE once, last: Docker 20.10
   writes them into a wrapper script that runs `PATH ARGS... $@`, so
   entitle gets them before the global flags of every call (create,
   exec, kill, delete alike).  */
static int
docker_profile_arg (json_t *entry, const char *profile, const char *path, entitle_error_t *err)
{
  cleanup_free char *arg = NULL;
  json_t *args = json_get (entry, "runtimeArgs");
  size_t i;

  if (args && args->type != JSON_ARRAY)
    return entitle_make_error (err, EINVAL, "`%s`: `runtimeArgs` is not an array", path);
  if (args == NULL)
    args = json_get_or_add (entry, "runtimeArgs", JSON_ARRAY);
  xasprintf (&arg, "--entitle-profile=%s", profile);
  if (args->n > 0 && json_string (args->items[args->n - 1]) && strcmp (json_string (args->items[args->n - 1]), arg) == 0
      && profile_args (args) == 1)
    return 0;
  for (i = args->n; i-- > 0;)
    {
      const char *a = json_string (args->items[i]);
      if (a && strncmp (a, "--entitle-profile", 17) == 0)
        json_remove_at (args, i);
    }
  json_push (args, json_new_string (arg));
  return 0;
}

static int
docker_runtime (json_t *runtimes, const struct entitle_engine_runtime_s *r, const char *path, entitle_error_t *err)
{
  json_t *entry;
  int ret = docker_object (runtimes, r->name, path, &entry, err);

  if (UNLIKELY (ret < 0))
    return ret;
  /* `path` excludes Docker 23's runtimeType and options.  */
  json_del (entry, "runtimeType");
  json_del (entry, "options");
  if (!json_string (json_get (entry, "path")) || strcmp (json_string (json_get (entry, "path")), r->binary) != 0)
    json_set (entry, "path", json_new_string (r->binary));
  return r->profile ? docker_profile_arg (entry, r->profile, path, err) : 0;
}

/* Set @key of @obj to @val (taken) where the key is, so that the file
   keeps its order; appended when it is not there.  */
static void
docker_set_in_place (json_t *obj, const char *key, json_t *val)
{
  size_t i, at_index = obj->n;
  char *k;
  json_t *v;

  for (i = obj->n; i-- > 0;)
    if (strcmp (obj->keys[i], key) == 0)
      at_index = i;
  json_set (obj, key, val);
  if (at_index >= obj->n - 1)
    return;
  /* json_set appended it: back where it was (a key may live in its
     value's allocation, so the pair moves together).  */
  k = obj->keys[obj->n - 1];
  v = obj->items[obj->n - 1];
  memmove (&obj->keys[at_index + 1], &obj->keys[at_index], (obj->n - 1 - at_index) * sizeof (*obj->keys));
  memmove (&obj->items[at_index + 1], &obj->items[at_index], (obj->n - 1 - at_index) * sizeof (*obj->items));
  obj->keys[at_index] = k;
  obj->items[at_index] = v;
}

/* Docker's daemon.json: JSON has no comments; the file is written back
   indented, with its keys in their order and its values as written, and
   only when something changed.  */
static int
edit_docker (const char *path, const char *text, size_t len, const struct entitle_engine_runtime_s *runtimes, size_t n,
             char **out, size_t *out_len, entitle_error_t *err)
{
  cleanup_json json_t *doc = NULL, *before = NULL;
  json_t *table;
  size_t i, blank = strspn (text, " \t\r\n");
  int ret;

  ret = json_parse (blank == len ? "{}" : text, blank == len ? 2 : len, &doc, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "`%s`", path);
  if (doc->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "`%s` is not a JSON object", path);
  before = json_clone (doc);
  ret = docker_object (doc, "runtimes", path, &table, err);
  for (i = 0; i < n && ret == 0; i++)
    ret = docker_runtime (table, &runtimes[i], path, err);
  if (UNLIKELY (ret < 0))
    return ret;
  for (i = 0; i < n; i++)
    if (runtimes[i].is_default
        && (!json_string (json_get (doc, "default-runtime"))
            || strcmp (json_string (json_get (doc, "default-runtime")), runtimes[i].name) != 0))
      docker_set_in_place (doc, "default-runtime", json_new_string (runtimes[i].name));
  if (blank != len && json_equal (doc, before))
    {
      *out = xstrndup (text, len);
      *out_len = len;
      return 0;
    }
  return json_generate (doc, out, out_len, err);
}

static int
copy_text (const char *text, size_t len, char **out, size_t *out_len)
{
  *out = xstrndup (text, len);
  *out_len = len;
  return 0;
}

static bool
is_entitle_name (const char *name)
{
  return strcmp (name, "entitle") == 0 || strncmp (name, "entitle-", 8) == 0;
}

/* The default runtime entitle set, as it was in @backup (or none).  */
static void
docker_restore_default (json_t *doc, const json_t *backup)
{
  const char *now = json_string (json_get (doc, "default-runtime"));
  const json_t *was = backup ? json_get (backup, "default-runtime") : NULL;

  if (now == NULL || !is_entitle_name (now))
    return;
  if (was && !(json_string (was) && is_entitle_name (json_string (was))))
    docker_set_in_place (doc, "default-runtime", json_clone (was));
  else
    json_del (doc, "default-runtime");
}

static int
docker_parse (const char *path, const char *text, size_t len, json_t **doc, entitle_error_t *err)
{
  size_t blank = strspn (text, " \t\r\n");
  int ret = json_parse (blank == len ? "{}" : text, blank == len ? 2 : len, doc, err);

  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "`%s`", path);
  if ((*doc)->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "`%s` is not a JSON object", path);
  return 0;
}

int
entitle_engine_docker_remove (const char *path, const char *text, size_t len, const char *backup,
                              size_t backup_len, char **out, size_t *out_len, entitle_error_t *err)
{
  cleanup_json json_t *doc = NULL, *was = NULL, *before = NULL;
  entitle_error_t ignored = NULL;
  json_t *runtimes;
  size_t i;
  int ret;

  ret = docker_parse (path, text, len, &doc, err);
  if (UNLIKELY (ret < 0))
    return ret;
  before = json_clone (doc);
  /* A backup that does not parse restores nothing.  */
  if (backup && docker_parse (path, backup, backup_len, &was, &ignored) < 0)
    entitle_error_release (&ignored);
  runtimes = json_get (doc, "runtimes");
  for (i = runtimes && runtimes->type == JSON_OBJECT ? runtimes->n : 0; i-- > 0;)
    if (is_entitle_name (runtimes->keys[i]))
      json_remove_at (runtimes, i);
  if (runtimes && runtimes->type == JSON_OBJECT && runtimes->n == 0 && !(was && json_get (was, "runtimes")))
    json_del (doc, "runtimes");
  docker_restore_default (doc, was);
  *out = NULL;
  *out_len = 0;
  if (was && json_equal (doc, was))
    return copy_text (backup, backup_len, out, out_len);
  if (json_equal (doc, before))
    return copy_text (text, len, out, out_len);
  if (doc->n == 0 && was == NULL)
    return 0;
  return json_generate (doc, out, out_len, err);
}

static const struct entitle_engine_s engines[] = {
  { "containerd", "/etc/containerd/config.toml", "/etc/containerd/conf.d/entitle.toml", true, "restart",
    "systemctl restart containerd", true, edit_containerd },
  { "docker", "/etc/docker/daemon.json", NULL, false, "reload",
    "systemctl reload docker (dockerd rereads `runtimes` on SIGHUP)", false, edit_docker },
  { "podman", "/etc/containers/containers.conf", "/etc/containers/containers.conf.d/entitle.conf", false, "nothing",
    "nothing: podman reads it at each command", true, edit_podman },
  { "crio", "/etc/crio/crio.conf", "/etc/crio/crio.conf.d/90-entitle.conf", false, "restart", "systemctl restart crio",
    true, edit_crio },
};

#define N_ENGINES (sizeof (engines) / sizeof (engines[0]))

const struct entitle_engine_s *
entitle_engine_find (const char *name)
{
  size_t i;

  for (i = 0; name && i < N_ENGINES; i++)
    if (strcmp (engines[i].name, name) == 0)
      return &engines[i];
  return NULL;
}

void
entitle_engine_names (char *buf, size_t size)
{
  size_t i, at = 0;

  buf[0] = '\0';
  for (i = 0; i < N_ENGINES && at < size; i++)
    at += (size_t)snprintf (buf + at, size - at, "%s%s", i ? ", " : "", engines[i].name);
}

static char *
xasprintf_name (const char *dir, const char *profile)
{
  char *s;

  xasprintf (&s, "%s%sentitle%s%s", dir ? dir : "", dir ? "/" : "", profile ? "-" : "", profile ? profile : "");
  return s;
}

struct entitle_engine_runtime_s *
entitle_engine_runtimes (const struct entitle_engine_s *engine, const char *binary, char *const *profiles, size_t *n)
{
  struct entitle_engine_runtime_s *r;
  cleanup_free char *copy = xstrdup (binary);
  const char *dir;
  size_t i, count = 1;

  while (profiles && profiles[count - 1])
    count++;
  r = xcalloc (count, sizeof (*r));
  dir = dirname (copy);
  for (i = 0; i < count; i++)
    {
      r[i].profile = i ? profiles[i - 1] : NULL;
      r[i].name = xasprintf_name (NULL, r[i].profile);
      r[i].binary = r[i].profile && engine->symlinks ? xasprintf_name (dir, r[i].profile) : xstrdup (binary);
    }
  *n = count;
  return r;
}

void
entitle_engine_runtimes_free (struct entitle_engine_runtime_s *runtimes, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    {
      free (runtimes[i].name);
      free (runtimes[i].binary);
    }
  free (runtimes);
}
