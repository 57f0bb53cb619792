/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "image-request.h"
#include "utils.h"

/* The container's name and whether it is a pod's sandbox, as containerd's
   CRI plugin and CRI-O annotate them.  */
static const char *const name_keys[] = { "io.kubernetes.cri.container-name", "io.kubernetes.container.name" };
static const char *const type_keys[] = { "io.kubernetes.cri.container-type", "io.kubernetes.cri-o.ContainerType" };

bool
entitle_image_digest_valid (const char *s)
{
  size_t i;

  if (s == NULL || strlen (s) != ENTITLE_IMAGE_DIGEST_LEN || strncmp (s, "sha256:", 7) != 0)
    return false;
  for (i = 7; s[i]; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return true;
}

static const char *
first_of (const json_t *annotations, const char *const keys[2])
{
  const char *v = json_string (json_get (annotations, keys[0]));
  return v ? v : json_string (json_get (annotations, keys[1]));
}

/* A string of @len bytes holding no NUL (JSON allows \u0000).  */
static bool
plain_string (const json_t *v)
{
  return v && v->type == JSON_STRING && strlen (v->text) == v->len;
}

/* What entitle wrote on `create` from the engine's record.  */
static int
from_record (const json_t *annotations, const json_t *label, struct entitle_image_request_s *out,
             entitle_error_t *err)
{
  const json_t *digest = json_get (annotations, ENTITLE_ANNOTATION_IMAGE_DIGEST);

  if (!plain_string (label))
    return entitle_make_error (err, EINVAL, "annotation `%s` must be a string without NUL bytes",
                               ENTITLE_ANNOTATION_IMAGE_LABEL);
  if (digest && !entitle_image_digest_valid (json_string (digest)))
    return entitle_make_error (err, EINVAL, "annotation `%s` must be `sha256:` and 64 lower-case hex digits",
                               ENTITLE_ANNOTATION_IMAGE_DIGEST);
  out->entitlements = xstrdup (label->text);
  out->digest = digest ? xstrdup (digest->text) : NULL;
  return 1;
}

/* The admission step's map, by the container's name.  */
static int
from_map (const json_t *annotations, const json_t *raw, struct entitle_image_request_s *out, entitle_error_t *err)
{
  cleanup_json json_t *map = NULL;
  const char *type = first_of (annotations, type_keys), *name = first_of (annotations, name_keys);
  const json_t *entry, *ents, *digest;
  int ret;

  if (type && strcmp (type, "sandbox") == 0)
    return 0;
  if (raw->type != JSON_STRING)
    return entitle_make_error (err, EINVAL, "annotation `%s` must be a string", ENTITLE_ANNOTATION_IMAGE);
  ret = json_parse (raw->text, raw->len, &map, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "annotation `%s`", ENTITLE_ANNOTATION_IMAGE);
  if (map->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "annotation `%s` must hold a JSON object of container names",
                               ENTITLE_ANNOTATION_IMAGE);
  if (name == NULL)
    return entitle_make_error (err, EINVAL,
                               "annotation `%s` is keyed by container name, and this config names none (`%s`)",
                               ENTITLE_ANNOTATION_IMAGE, name_keys[0]);
  entry = json_get (map, name);
  if (entry == NULL)
    return 0;
  ents = json_get (entry, "entitlements");
  digest = json_get (entry, "digest");
  if (entry->type != JSON_OBJECT || !entitle_image_digest_valid (json_string (digest))
      || (ents && !plain_string (ents)))
    return entitle_make_error (err, EINVAL,
                               "annotation `%s`: the entry of container `%s` must be {\"digest\": \"sha256:…\", "
                               "\"entitlements\": \"…\"}",
                               ENTITLE_ANNOTATION_IMAGE, name);
  if (ents == NULL)
    return 0;
  out->entitlements = xstrdup (ents->text);
  out->digest = xstrdup (digest->text);
  return 1;
}

void
entitle_image_request_free (struct entitle_image_request_s *r)
{
  free (r->entitlements);
  free (r->digest);
  r->entitlements = r->digest = NULL;
}

int
entitle_image_request (const json_t *spec, struct entitle_image_request_s *out, entitle_error_t *err)
{
  const json_t *annotations = json_get (spec, "annotations"), *v;

  v = json_get (annotations, ENTITLE_ANNOTATION_IMAGE_LABEL);
  if (v)
    return from_record (annotations, v, out, err);
  v = json_get (annotations, ENTITLE_ANNOTATION_IMAGE);
  return v ? from_map (annotations, v, out, err) : 0;
}
