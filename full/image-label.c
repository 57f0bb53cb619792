/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * create: the label of the image the container runs, where the admin
 * config's `image_labels` names the engine's root (docs/image-labels.md).
 * The engine's record is read here, once, on create; what it says goes
 * into config.json as two annotations (lib/model/image-request.h), which
 * everything after create reads (the rewrite, entitle-hook, exec,
 * inspect), so a re-tag or a removed image afterwards changes nothing.
 */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include "commands.h"
#include "image-record.h"
#include "image-request.h"
#include "request.h"
#include "utils.h"

bool
shim_image_applies (const struct entitle_config_s *cfg, const struct entitle_args_s *a)
{
  return entitle_image_engine_of (cfg, a->bundle, a->id) != ENTITLE_IMAGE_NONE;
}

int
shim_image_label (struct shim_s *s, json_t *spec, entitle_error_t *err)
{
  cleanup_image_request struct entitle_image_request_s image = { 0 };
  json_t *annotations;
  int ret;

  /* The operator's channels win, and then no record is opened.  */
  if (entitle_request_asked (spec))
    return 0;
  ret = entitle_image_lookup (s->ctx->config, s->args.bundle, s->args.id, spec, s->ctx->log, &image, err);
  /* Nothing read (warned): the config stays as it came (a second create
     of a bundle entitle rewrote, its image since removed, keeps what the
     first one found).  */
  if (ret < 0 || ret == ENTITLE_IMAGE_NOT_READ)
    return ret < 0 ? ret : 0;
  /* The record is the truth of this engine: an annotation of entitle's
     saying otherwise (`podman run --annotation`) is refused, since
     everything after create would read it.  */
  if (ret == 0 && json_get (json_get (spec, "annotations"), ENTITLE_ANNOTATION_IMAGE_LABEL))
    return entitle_make_error (err, EINVAL,
                               "annotation `%s` is entitle's to write, and the engine's record of container %s "
                               "names no image label",
                               ENTITLE_ANNOTATION_IMAGE_LABEL, s->args.id);
  if (ret == 0)
    return 0;
  annotations = json_get_or_add (spec, "annotations", JSON_OBJECT);
  json_set (annotations, ENTITLE_ANNOTATION_IMAGE_LABEL, json_new_string (image.entitlements));
  /* containerd's record of a container made by ctr names no digest.  */
  if (image.digest)
    json_set (annotations, ENTITLE_ANNOTATION_IMAGE_DIGEST, json_new_string (image.digest));
  else
    json_del (annotations, ENTITLE_ANNOTATION_IMAGE_DIGEST);
  return 1;
}
