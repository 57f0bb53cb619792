/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_IMAGE_RECORD_H
#define ENTITLE_IMAGE_RECORD_H

#include <stdbool.h>
#include "admin-config.h"
#include "image-request.h"
#include "json.h"
#include "log.h"

/* The label of the image a container runs, from the engine's own record
   of the container on this host (docs/image-labels.md): Docker's
   config.v2.json and image store, containers/storage's containers.json
   and image store (Podman; CRI-O has the same store), containerd's
   record (asked over its socket: it holds the record locked), which
   copied the image's labels when the container was made.  Only where the
   admin config's `image_labels` names the engine's root; Docker's and
   the store's image is found by the digest the record holds, and its
   config is hashed against that digest before it is read.  */

enum entitle_image_engine
{
  ENTITLE_IMAGE_NONE = 0,
  ENTITLE_IMAGE_DOCKER,
  ENTITLE_IMAGE_STORAGE,
  ENTITLE_IMAGE_CONTAINERD,
};

/**
 * Whose record would describe the container of the bundle @bundle (NULL:
 * the current directory; a relative path is made absolute, symbolic links
 * kept) with id @id, by the paths alone (no file is opened: the
 * front asks this of every create): Docker's (containerd namespace
 * `moby`) where the admin config names a Docker root, containers/storage's
 * where the bundle is in one of the graph roots it names, containerd's
 * where the bundle is a containerd task's and the shim's TTRPC_ADDRESS is
 * that of a socket it names; NONE otherwise.
 */
enum entitle_image_engine entitle_image_engine_of (const struct entitle_config_s *cfg, const char *bundle,
                                                   const char *id);

/* What entitle_image_lookup returns when no record could be read.  */
#define ENTITLE_IMAGE_NOT_READ 2

/**
 * The image's request from the record: 1 with @out filled (the label's
 * value and the image's digest), 0 when the image has no label,
 * ENTITLE_IMAGE_NOT_READ when the record or the image's config is missing
 * or not readable (a warning on @log: a container that asked nothing must
 * not fail for it), <0 with
 * one line when the record is not this container's or malformed, or the
 * image's config is too large, not JSON or not the digest the record
 * names, or the label is not a string.  @spec is the container's config
 * (its root.path binds the record to the rootfs that runs).
 */
int entitle_image_lookup (const struct entitle_config_s *cfg, const char *bundle, const char *id, const json_t *spec,
                          const struct entitle_log_s *log, struct entitle_image_request_s *out,
                          entitle_error_t *err);

#endif
