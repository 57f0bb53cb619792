/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_REQUEST_H
#define ENTITLE_REQUEST_H

#include "context.h"
#include "entitlements.h"
#include "json.h"

/* What a config asks for, and the final set it resolves to: shared by the
   rewrite, exec and entitle-hook, which needs no compiler (so it links no
   libseccomp).  */

#define ENTITLE_ANNOTATION           "io.entitle.entitlements"
#define ENTITLE_ANNOTATION_APPLIED   "io.entitle.applied"
#define ENTITLE_ANNOTATION_VERSION   "io.entitle.version"
#define ENTITLE_ANNOTATION_CATALOGUE "io.entitle.catalogue"
/* Output only, as applied: the custom rows applied, NAME@DIGEST of their
   definitions (the admin config versions them, not the catalogue).  */
#define ENTITLE_ANNOTATION_CUSTOM "io.entitle.custom"

/**
 * What @spec's `io.entitle.entitlements` asks for (the catalogue version
 * checked), into @requested; empty when it asks nothing.
 */
int entitle_requested (const struct entitle_catalogue_s *cat, const json_t *spec, struct entitle_set_s *requested,
                       entitle_error_t *err);

/**
 * The final set for @spec: its `io.entitle.entitlements` request resolved
 * against the admin config of @ctx (defaults, require, ladders), without
 * the grant check.  What the hook enforces, whoever rewrote the config.
 */
int entitle_final_set (struct entitle_ctx_s *ctx, const json_t *spec, struct entitle_set_s *final,
                       entitle_error_t *err);

#endif
