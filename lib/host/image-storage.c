/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * containers/storage's record of a container (docs/image-labels.md,
 * "Podman"): ROOT/DRIVER-containers/containers.json, one array of every
 * container of the store, names the container's image by the digest of
 * its config ("image": HEX) and its rootfs layer, which must be
 * config.json's.  The config is ROOT/DRIVER-images/HEX/=BASE64, the name
 * containers/storage gives the big-data item "sha256:HEX"
 * (makeBigDataBaseName).  The files are replaced by rename, so a reader
 * without the store's lock sees a whole one; entitle takes no lock.
 */
#include <config.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "file.h"
#include "image-engine.h"
#include "utils.h"

/* "=" and the standard base64 of @s, into @out (4/3 of @s and 2 more).  */
static void
big_data_name (const char *s, char *out)
{
  static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const unsigned char *p = (const unsigned char *)s;
  size_t n = strlen (s), i;

  *out++ = '=';
  for (i = 0; i < n; i += 3)
    {
      unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
      *out++ = b64[v >> 18 & 63];
      *out++ = b64[v >> 12 & 63];
      *out++ = i + 1 < n ? b64[v >> 6 & 63] : '=';
      *out++ = i + 2 < n ? b64[v & 63] : '=';
    }
  *out = '\0';
}

/* The one entry of @list whose id is @id.  */
static int
find_entry (const json_t *list, const char *id, const char *file, const json_t **entry, entitle_error_t *err)
{
  size_t i;

  if (list->type != JSON_ARRAY)
    return entitle_make_error (err, EINVAL, "`%s` is not a JSON array", file);
  *entry = NULL;
  for (i = 0; i < list->n; i++)
    {
      const char *v = json_string (json_get (list->items[i], "id"));
      if (v == NULL || strcmp (v, id) != 0)
        continue;
      if (*entry)
        return entitle_make_error (err, EINVAL, "`%s` holds container %s twice", file, id);
      *entry = list->items[i];
    }
  if (*entry == NULL)
    return entitle_make_error (err, ENOENT, "`%s` holds no container %s", file, id);
  return 0;
}

/* The end of the JSON object that starts at @p (its closing brace), or
   NULL: braces counted outside strings.  */
static const char *
object_end (const char *p, const char *end)
{
  size_t depth = 0;
  bool in_string = false;

  for (; p < end; p++)
    {
      if (in_string && *p == '\\')
        p++;
      else if (*p == '"')
        in_string = !in_string;
      else if (!in_string && *p == '{')
        depth++;
      else if (!in_string && *p == '}' && --depth == 0)
        return p;
    }
  return NULL;
}

/* The record of container @id without parsing the whole file, which holds
   every container of the store (26 M instructions at 1000 containers):
   containers/storage writes each entry with its id first and no spaces
   (Go's encoding/json), and `{"id":"ID"` cannot occur inside a string,
   whose quotes are escaped.  Only where it occurs exactly once: anything
   else is left to the whole parse, which finds an id twice.  */
static json_t *
one_entry (const char *raw, size_t len, const char *id)
{
  cleanup_free char *needle = NULL;
  const char *p, *e;
  json_t *entry = NULL;
  entitle_error_t err = NULL;

  xasprintf (&needle, "{\"id\":\"%s\"", id);
  p = memmem (raw, len, needle, strlen (needle));
  if (p == NULL || memmem (p + 1, len - (size_t)(p + 1 - raw), needle, strlen (needle)))
    return NULL;
  e = object_end (p, raw + len);
  if (e == NULL || json_parse (p, (size_t)(e - p) + 1, &entry, &err) < 0)
    {
      entitle_error_release (&err);
      return NULL;
    }
  return entry;
}

int
entitle_image_storage (const char *root, const char *driver, const char *id, const json_t *spec,
                       struct entitle_image_request_s *out, entitle_error_t *err)
{
  cleanup_free char *rel = NULL, *raw = NULL, *file = NULL;
  cleanup_json json_t *list = NULL;
  const json_t *entry = NULL;
  const char *image, *layer;
  char digest[ENTITLE_IMAGE_DIGEST_LEN + 1], name[2 + 4 * (ENTITLE_IMAGE_DIGEST_LEN + 2) / 3 + 1];
  size_t len;
  int ret;

  xasprintf (&rel, "%s-containers/containers.json", driver);
  xasprintf (&file, "%s/%s", root, rel);
  ret = entitle_file_read_beneath (root, rel, ENTITLE_IMAGE_MAX_RECORD, &raw, &len, err);
  if (ret == 0 && (list = one_entry (raw, len, id)) != NULL)
    entry = list;
  else if (ret == 0)
    {
      ret = json_parse (raw, len, &list, err);
      if (ret == 0)
        ret = find_entry (list, id, file, &entry, err);
    }
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "containers/storage's record of container %s", id);
  image = json_string (json_get (entry, "image"));
  layer = json_string (json_get (entry, "layer"));
  /* A container made from no image (podman run --rootfs) asks nothing.  */
  if (image == NULL || *image == '\0')
    return 0;
  if (!entitle_image_hex64 (image))
    return entitle_make_error (err, EINVAL, "`%s`: the image of container %s is not 64 hex digits", file, id);
  if (!entitle_image_plain_name (layer) || !entitle_image_rootfs_is (spec, layer))
    return entitle_make_error (err, EINVAL, "`%s`: the layer of container %s is not config.json's rootfs", file, id);
  snprintf (digest, sizeof (digest), "sha256:%s", image);
  big_data_name (digest, name);
  free (rel);
  xasprintf (&rel, "%s-images/%s/%s", driver, image, name);
  return entitle_image_config_label (root, rel, image, out, err);
}
