/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Docker 20.10's record of a container (docs/image-labels.md, "Docker"):
 * ROOT/containers/ID/config.v2.json names the image by the digest of its
 * config ("Image": "sha256:HEX") and the storage driver; the config is
 * ROOT/image/DRIVER/imagedb/content/sha256/HEX, and
 * ROOT/image/DRIVER/layerdb/mounts/ID/mount-id names the rootfs the
 * container runs, which must be config.json's.  `Config.Labels` of the
 * record is not read: `docker run --label` merges into it.
 */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "file.h"
#include "image-engine.h"
#include "utils.h"

static int
read_record (const char *root, const char *id, json_t **doc, entitle_error_t *err)
{
  cleanup_free char *rel = NULL, *raw = NULL;
  size_t len;
  int ret;

  xasprintf (&rel, "containers/%s/config.v2.json", id);
  ret = entitle_file_read_beneath (root, rel, ENTITLE_IMAGE_MAX_RECORD, &raw, &len, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "Docker's record of container %s", id);
  ret = json_parse (raw, len, doc, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "Docker's record of container %s (`%s/%s`)", id, root, rel);
  if ((*doc)->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "Docker's record of container %s (`%s/%s`) is not a JSON object", id,
                               root, rel);
  return 0;
}

/* The record's rootfs is config.json's: the record is this container's.  */
static int
check_mount (const char *root, const char *driver, const char *id, const json_t *spec, entitle_error_t *err)
{
  cleanup_free char *rel = NULL, *raw = NULL;
  size_t len;
  int ret;

  xasprintf (&rel, "image/%s/layerdb/mounts/%s/mount-id", driver, id);
  ret = entitle_file_read_beneath (root, rel, 256, &raw, &len, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "Docker's record of container %s", id);
  if (!entitle_image_plain_name (raw) || !entitle_image_rootfs_is (spec, raw))
    return entitle_make_error (err, EINVAL, "Docker's record of container %s: its rootfs `%s` is not config.json's",
                               id, raw);
  return 0;
}

int
entitle_image_docker (const struct entitle_config_s *cfg, const char *id, const json_t *spec,
                      struct entitle_image_request_s *out, entitle_error_t *err)
{
  cleanup_json json_t *doc = NULL;
  cleanup_free char *rel = NULL;
  const char *image, *driver, *root = cfg->image_docker[0];
  char **r;
  int ret = -1;

  /* The first root that holds the container: Docker's ids are random.  */
  for (r = cfg->image_docker; *r && ret < 0; r++)
    {
      if (r != cfg->image_docker)
        entitle_error_release (err);
      root = *r;
      ret = read_record (root, id, &doc, err);
      if (ret < 0 && (*err)->status != ENOENT)
        return ret;
    }
  if (UNLIKELY (ret < 0))
    return ret;
  image = json_string (json_get (doc, "Image"));
  driver = json_string (json_get (doc, "Driver"));
  if (image == NULL || strncmp (image, "sha256:", 7) != 0 || !entitle_image_hex64 (image + 7))
    return entitle_make_error (err, EINVAL, "Docker's record of container %s: `Image` is not `sha256:` and 64 hex digits",
                               id);
  if (!entitle_image_plain_name (driver))
    return entitle_make_error (err, EINVAL, "Docker's record of container %s: `Driver` is not a plain name", id);
  ret = check_mount (root, driver, id, spec, err);
  if (UNLIKELY (ret < 0))
    return ret;
  xasprintf (&rel, "image/%s/imagedb/content/sha256/%s", driver, image + 7);
  return entitle_image_config_label (root, rel, image + 7, out, err);
}
