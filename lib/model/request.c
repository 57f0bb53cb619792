/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "image-request.h"
#include "request.h"
#include "source.h"
#include "resolve.h"
#include "utils.h"

/* The catalogue version a bundle asks for: newer than ours is refused
   (fail closed), older ones keep their documented meaning.  */
static int
check_catalogue (const json_t *annotations, entitle_error_t *err)
{
  const char *v = json_string (json_get (annotations, ENTITLE_ANNOTATION_CATALOGUE));
  char *end;
  unsigned long n;

  if (v == NULL)
    return 0;
  errno = 0;
  n = strtoul (v, &end, 10);
  if (errno || *end || end == v || n == 0)
    return entitle_make_error (err, EINVAL, "annotation `%s`: `%s` is not a catalogue version",
                               ENTITLE_ANNOTATION_CATALOGUE, v);
  if (n > ENTITLE_CATALOGUE_VERSION)
    return entitle_make_error (err, ENOTSUP, "catalogue version %lu requested, this entitle knows up to %d",
                               n, ENTITLE_CATALOGUE_VERSION);
  return 0;
}

bool
entitle_request_in_annotations (const json_t *doc)
{
  return json_get (json_get (doc, "annotations"), ENTITLE_ANNOTATION) != NULL;
}

/* The value of the last ENTITLE_ENTITLEMENTS=... of @spec's process.env,
   or NULL: runc gives the workload the last of duplicate entries (Go's
   os/exec dedupEnv), and the request is what the workload is told.  An
   entry that is not a string, or has no `=`, is the runtime's to refuse.  */
static const json_t *
env_entry (const json_t *spec)
{
  const json_t *env = json_get (json_get (spec, "process"), "env");
  size_t i, plen = strlen (ENTITLE_ENV_REQUEST "=");

  for (i = env && env->type == JSON_ARRAY ? env->n : 0; i > 0; i--)
    {
      const json_t *e = env->items[i - 1];
      if (e->type == JSON_STRING && e->len >= plen && memcmp (e->text, ENTITLE_ENV_REQUEST "=", plen) == 0)
        return e;
    }
  return NULL;
}

static int
parse_source (const struct entitle_catalogue_s *cat, const char *list, enum entitle_source source,
              struct entitle_set_s *requested, entitle_error_t *err)
{
  int ret = entitle_parse_list (cat, list, entitle_source_name (source), requested, err);

  if (ret == 0)
    entitle_set_stamp (requested, source);
  return ret;
}

/* The image's label, the last of the three (DESIGN §8).  */
static int
image_requested (const struct entitle_catalogue_s *cat, const json_t *spec, struct entitle_set_s *requested,
                 entitle_error_t *err)
{
  cleanup_image_request struct entitle_image_request_s image = { 0 };
  int ret = entitle_image_request (spec, &image, err);

  if (ret <= 0)
    return ret;
  return parse_source (cat, image.entitlements, ENTITLE_SOURCE_IMAGE, requested, err);
}

int
entitle_request_blame_image (const json_t *spec, entitle_error_t *err)
{
  cleanup_image_request struct entitle_image_request_s image = { 0 };
  entitle_error_t ignored = NULL;
  int ret = -(*err)->status;

  if (entitle_request_asked (spec) || entitle_image_request (spec, &image, &ignored) != 1 || image.digest == NULL)
    {
      entitle_error_release (&ignored);
      return ret < 0 ? ret : -EINVAL;
    }
  return entitle_error_wrap (err, "image %s", image.digest);
}

bool
entitle_request_asked (const json_t *spec)
{
  return entitle_request_in_annotations (spec) || env_entry (spec) != NULL;
}

int
entitle_requested (const struct entitle_catalogue_s *cat, const json_t *spec, struct entitle_set_s *requested,
                   entitle_error_t *err)
{
  const json_t *annotations, *list, *env;
  int ret;

  if (spec->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "config is not a JSON object");
  annotations = json_get (spec, "annotations");
  ret = check_catalogue (annotations, err);
  if (UNLIKELY (ret < 0))
    return ret;
  list = json_get (annotations, ENTITLE_ANNOTATION);
  if (list && list->type != JSON_STRING)
    return entitle_make_error (err, EINVAL, "annotation `%s` must be a string", ENTITLE_ANNOTATION);
  /* The annotation, where there is one, is the whole request (DESIGN §8).  */
  if (list)
    return parse_source (cat, list->text, ENTITLE_SOURCE_ANNOTATION, requested, err);
  env = env_entry (spec);
  if (env == NULL)
    return image_requested (cat, spec, requested, err);
  if (strlen (env->text) != env->len)
    return entitle_make_error (err, EINVAL, "%s holds a NUL byte", entitle_source_name (ENTITLE_SOURCE_ENV));
  return parse_source (cat, env->text + strlen (ENTITLE_ENV_REQUEST "="), ENTITLE_SOURCE_ENV, requested, err);
}

int
entitle_final_set (struct entitle_ctx_s *ctx, const json_t *spec, struct entitle_set_s *final,
                   entitle_error_t *err)
{
  cleanup_entitle_set struct entitle_set_s requested = { 0 };
  int ret = entitle_requested (&ctx->config->catalogue, spec, &requested, err);

  if (UNLIKELY (ret < 0))
    return ret;
  return entitle_resolve (ctx->config, &requested, final, err);
}
