/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_IMAGE_ENGINE_H
#define ENTITLE_IMAGE_ENGINE_H

#include <stdbool.h>
#include "image-record.h"

/* The parts of lib/host/image-record.c each engine's reader shares, and
   the readers (image-docker.c, image-storage.c).  Only image-record.c and
   the readers include this.  */

/* The largest record and image config entitle reads.  */
#define ENTITLE_IMAGE_MAX_RECORD (16 * 1024 * 1024)
#define ENTITLE_IMAGE_MAX_CONFIG (1024 * 1024)

/** Is @s a name a path may hold as one component: not empty, not `.` or
    `..`, no `/`?  */
bool entitle_image_plain_name (const char *s);

/** Is @s 64 lower-case hex digits?  */
bool entitle_image_hex64 (const char *s);

/** Is @layer the rootfs @spec runs: the last component of its root.path,
    or the one before a last `merged` (overlay drivers)?  */
bool entitle_image_rootfs_is (const json_t *spec, const char *layer);

/**
 * The label of the image config @rel under @root, whose sha256 must be
 * the 64 hex digits @hex: 1 with @out filled, 0 when it has none.
 */
int entitle_image_config_label (const char *root, const char *rel, const char *hex,
                                struct entitle_image_request_s *out, entitle_error_t *err);

int entitle_image_docker (const struct entitle_config_s *cfg, const char *id, const json_t *spec,
                          struct entitle_image_request_s *out, entitle_error_t *err);

/** @root is the graph root the bundle is in, @driver the store's driver
    (its `DRIVER-containers` directory).  */
int entitle_image_storage (const char *root, const char *driver, const char *id, const json_t *spec,
                           struct entitle_image_request_s *out, entitle_error_t *err);

#endif
