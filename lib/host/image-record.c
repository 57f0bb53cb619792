/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "file.h"
#include "image-engine.h"
#include "log.h"
#include "request.h"
#include "sha256.h"
#include "utils.h"

bool
entitle_image_plain_name (const char *s)
{
  return s && *s && strchr (s, '/') == NULL && strcmp (s, ".") != 0 && strcmp (s, "..") != 0;
}

bool
entitle_image_hex64 (const char *s)
{
  size_t i;

  for (i = 0; s && s[i]; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return s && i == ENTITLE_SHA256_HEX_LEN;
}

bool
entitle_image_rootfs_is (const json_t *spec, const char *layer)
{
  const char *path = json_string (json_get (json_get (spec, "root"), "path"));
  size_t n = path ? strlen (path) : 0, l = strlen (layer);

  while (n > 1 && path[n - 1] == '/')
    n--;
  if (n > 7 && memcmp (path + n - 7, "/merged", 7) == 0)
    n -= 7;
  return n > l && path[n - l - 1] == '/' && memcmp (path + n - l, layer, l) == 0;
}

/* config.Labels["io.entitle.entitlements"] of the image config @doc.  */
static int
label_of (const json_t *doc, const char *digest, struct entitle_image_request_s *out, entitle_error_t *err)
{
  const json_t *labels = json_get (json_get (doc, "config"), "Labels"), *v;

  if (doc->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "image %s: its config is not a JSON object", digest);
  v = labels && labels->type == JSON_OBJECT ? json_get (labels, ENTITLE_ANNOTATION) : NULL;
  if (v == NULL)
    return 0;
  if (v->type != JSON_STRING || strlen (v->text) != v->len)
    return entitle_make_error (err, EINVAL, "image %s: its label `%s` must be a string without NUL bytes", digest,
                               ENTITLE_ANNOTATION);
  out->entitlements = xstrdup (v->text);
  out->digest = xstrdup (digest);
  return 1;
}

int
entitle_image_config_label (const char *root, const char *rel, const char *hex,
                            struct entitle_image_request_s *out, entitle_error_t *err)
{
  cleanup_free char *raw = NULL;
  cleanup_json json_t *doc = NULL;
  char digest[ENTITLE_IMAGE_DIGEST_LEN + 1], sum[ENTITLE_SHA256_HEX_LEN + 1];
  size_t len;
  int ret;

  snprintf (digest, sizeof (digest), "sha256:%s", hex);
  ret = entitle_file_read_beneath (root, rel, ENTITLE_IMAGE_MAX_CONFIG, &raw, &len, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "image %s: its config", digest);
  entitle_sha256_hex (raw, len, sum);
  if (strcmp (sum, hex) != 0)
    return entitle_make_error (err, EINVAL, "image %s: its config `%s/%s` has the digest sha256:%s", digest, root,
                               rel, sum);
  ret = json_parse (raw, len, &doc, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "image %s: its config", digest);
  return label_of (doc, digest, out, err);
}

/* The end of a containers/storage bundle, after its container's id.  */
static const char storage_userdata[] = "/userdata";

/* @bundle is ROOT/DRIVER-containers/@id/userdata for a root of @roots:
   the root, with the driver's name into @driver (malloc'd).  */
static const char *
storage_root_of (char **roots, const char *bundle, const char *id, char **driver)
{
  static const char suffix[] = "-containers";
  char **r;

  for (r = roots; r && *r; r++)
    {
      size_t n = strlen (*r);
      const char *rest = bundle + n + 1, *slash;
      cleanup_free char *want = NULL;

      if (strncmp (bundle, *r, n) != 0 || bundle[n] != '/' || (slash = strchr (rest, '/')) == NULL)
        continue;
      if ((size_t)(slash - rest) <= strlen (suffix) || memcmp (slash - strlen (suffix), suffix, strlen (suffix)) != 0)
        continue;
      xasprintf (&want, "/%s%s", id, storage_userdata);
      if (strcmp (slash, want) != 0)
        continue;
      *driver = xstrndup (rest, (size_t)(slash - rest) - strlen (suffix));
      return *r;
    }
  return NULL;
}

/* The containerd namespace Docker runs its containers in: the bundle is
   .../moby/ID.  */
static bool
docker_bundle (const char *bundle, const char *id)
{
  size_t n = strlen (bundle), l = strlen (id);

  return n > l + 6 && strcmp (bundle + n - l, id) == 0 && memcmp (bundle + n - l - 6, "/moby/", 6) == 0;
}

/* The relative @bundle (NULL: the current directory) as an absolute
   path, symbolic links kept; NULL when the current directory has no
   path.  */
static char *
absolute (const char *bundle)
{
  char cwd[PATH_MAX], *p = NULL;

  if (getcwd (cwd, sizeof (cwd)) == NULL)
    return NULL;
  if (bundle == NULL || strcmp (bundle, ".") == 0)
    return xstrdup (cwd);
  xasprintf (&p, "%s/%s", cwd, bundle);
  return p;
}

/* A containerd task's bundle, STATE/io.containerd.runtime.v2.task/NS/ID,
   run by a shim of the containerd whose socket @sockets names (the shim
   gives the runtime TTRPC_ADDRESS, that socket's name and ".ttrpc"): the
   socket, with the namespace into @ns (malloc'd).  */
static const char *
containerd_of (char **sockets, const char *bundle, const char *id, char **ns)
{
  static const char task[] = "/io.containerd.runtime.v2.task/";
  const char *ttrpc, *t, *slash;
  char **s;

  /* The path first: the environment is the longer scan.  */
  if (sockets == NULL || *sockets == NULL || (t = strstr (bundle, task)) == NULL
      || (ttrpc = getenv ("TTRPC_ADDRESS")) == NULL)
    return NULL;
  t += strlen (task);
  slash = strchr (t, '/');
  if (slash == NULL || slash == t || strcmp (slash + 1, id) != 0)
    return NULL;
  for (s = sockets; s && *s; s++)
    if (strncmp (ttrpc, *s, strlen (*s)) == 0 && strcmp (ttrpc + strlen (*s), ".ttrpc") == 0)
      {
        *ns = xstrndup (t, (size_t)(slash - t));
        return *s;
      }
  return NULL;
}

/* Whether the first @n bytes of @bundle end with "/@id".  */
static bool
ends_with_id (const char *bundle, size_t n, const char *id)
{
  size_t l = strlen (id);

  return n > l && bundle[n - l - 1] == '/' && memcmp (bundle + n - l, id, l) == 0;
}

/* Every engine's bundle ends with the container's id (Docker's .../moby/ID,
   containerd's .../NS/ID) or with the id and /userdata (containers/storage):
   any other is none of theirs, told at once (the front asks on every
   create).  */
static bool
engine_shaped (const char *bundle, const char *id)
{
  size_t n = strlen (bundle), u = sizeof (storage_userdata) - 1;

  return ends_with_id (bundle, n, id)
         || (n > u && memcmp (bundle + n - u, storage_userdata, u) == 0 && ends_with_id (bundle, n - u, id));
}

/* The engine; for containers/storage the graph root and driver into
   @where and @name, for containerd its socket and the namespace.  */
static enum entitle_image_engine
engine_of (const struct entitle_config_s *cfg, const char *bundle, const char *id, const char **where, char **name)
{
  cleanup_free char *made = NULL;
  const char *abs = bundle;

  if (!entitle_config_image_labels (cfg) || !entitle_image_plain_name (id))
    return ENTITLE_IMAGE_NONE;
  /* Engines pass an absolute --bundle: no copy then.  */
  if ((bundle == NULL || *bundle != '/') && (abs = made = absolute (bundle)) == NULL)
    return ENTITLE_IMAGE_NONE;
  if (!engine_shaped (abs, id))
    return ENTITLE_IMAGE_NONE;
  if (cfg->image_docker && cfg->image_docker[0] && docker_bundle (abs, id))
    return ENTITLE_IMAGE_DOCKER;
  *where = storage_root_of (cfg->image_storage, abs, id, name);
  if (*where)
    return ENTITLE_IMAGE_STORAGE;
  *where = containerd_of (cfg->image_containerd, abs, id, name);
  return *where ? ENTITLE_IMAGE_CONTAINERD : ENTITLE_IMAGE_NONE;
}

enum entitle_image_engine
entitle_image_engine_of (const struct entitle_config_s *cfg, const char *bundle, const char *id)
{
  cleanup_free char *driver = NULL;
  const char *root;

  return engine_of (cfg, bundle, id, &root, &driver);
}

static int
lookup (const struct entitle_config_s *cfg, const char *bundle, const char *id, const json_t *spec,
        struct entitle_image_request_s *out, entitle_error_t *err)
{
  cleanup_free char *driver = NULL;
  const char *root = NULL;

  switch (engine_of (cfg, bundle, id, &root, &driver))
    {
    case ENTITLE_IMAGE_DOCKER:
      return entitle_image_docker (cfg, id, spec, out, err);
    case ENTITLE_IMAGE_STORAGE:
      if (!entitle_image_plain_name (driver))
        return entitle_make_error (err, EINVAL, "bundle `%s`: no storage driver in its path", bundle);
      return entitle_image_storage (root, driver, id, spec, out, err);
    case ENTITLE_IMAGE_CONTAINERD:
      return entitle_image_containerd (root, driver, id, out, err);
    case ENTITLE_IMAGE_NONE:
      break;
    }
  return 0;
}

/* A record not there, not ours to read, or a daemon that did not answer
   (containerd's).  */
static bool
unreadable (int status)
{
  return status == ENOENT || status == EACCES || status == ECONNREFUSED || status == ETIMEDOUT
         || status == ECONNRESET || status == EPIPE;
}

int
entitle_image_lookup (const struct entitle_config_s *cfg, const char *bundle, const char *id, const json_t *spec,
                      const struct entitle_log_s *log, struct entitle_image_request_s *out, entitle_error_t *err)
{
  int ret = lookup (cfg, bundle, id, spec, out, err);

  /* A record that is not there, or not ours to read, never fails a
     container: it may have asked nothing.  What is there and wrong does.  */
  if (ret < 0 && unreadable ((*err)->status))
    {
      entitle_log_warning (log, "%s: the image's label `%s` is not read", (*err)->msg, ENTITLE_ANNOTATION);
      entitle_error_release (err);
      return ENTITLE_IMAGE_NOT_READ;
    }
  return ret;
}
