/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_REQUEST_H
#define ENTITLE_REQUEST_H

#include <stdbool.h>
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
 * What @spec asks for (the catalogue version checked), into @requested,
 * each item stamped with its source; empty when it asks nothing.  The
 * annotation `io.entitle.entitlements`, where the config has one (empty
 * or not), is the whole request; else the last ENTITLE_ENTITLEMENTS=...
 * of process.env; else the image's label (lib/model/image-request.h).
 * The first present is the whole request (DESIGN §8,
 * docs/image-labels.md): the operator's channels replace or cancel what
 * an image asks.  All ask; only the admin grants.
 */
int entitle_requested (const struct entitle_catalogue_s *cat, const json_t *spec, struct entitle_set_s *requested,
                       entitle_error_t *err);

/**
 * Does @doc (a config, or the runtime's state, which carries the config's
 * annotations but not its process) hold the annotation, so that it says
 * the whole request without process.env?  A caller holding the state
 * reads the config where it does not.
 */
bool entitle_request_in_annotations (const json_t *doc);

/** Does @spec ask through the annotation or process.env, the operator's
    channels, so that the image's label is not read?  */
bool entitle_request_asked (const json_t *spec);

/**
 * A refusal of @spec's request (*@err), named after the image whose label
 * asked, where the image's label is the request and its digest known:
 * "image sha256:…: ...".  Returns the error's negative status.
 */
int entitle_request_blame_image (const json_t *spec, entitle_error_t *err);

/**
 * The final set for @spec: its request (entitle_requested) resolved
 * against the admin config of @ctx (defaults, require, ladders), without
 * the grant check.  What the hook enforces, whoever rewrote the config.
 */
int entitle_final_set (struct entitle_ctx_s *ctx, const json_t *spec, struct entitle_set_s *final,
                       entitle_error_t *err);

#endif
