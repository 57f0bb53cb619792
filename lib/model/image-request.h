/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_IMAGE_REQUEST_H
#define ENTITLE_IMAGE_REQUEST_H

#include "error.h"
#include "json.h"

/* The request of the image a container runs (docs/image-labels.md): its
   label `io.entitle.entitlements`, as it reaches config.json.  Two ways:
   - entitle itself, on `create`, found it in the engine's record of the
     container (Docker, Podman: lib/host/image-record.h) and wrote the
     label's value and the image's digest as two annotations;
   - an admission step (deploy/kubernetes/image-labels) wrote the pod
     annotation `io.entitle.image`, {"CONTAINER": {"digest": "sha256:…",
     "entitlements": "…"}}, which the CRI passes to every container of the
     pod; the entry is picked by the container's name.
   Either is a request, no more trusted than the annotation: it only asks
   (lib/model/request.h says which request wins).  */

#define ENTITLE_ANNOTATION_IMAGE        "io.entitle.image"
#define ENTITLE_ANNOTATION_IMAGE_LABEL  "io.entitle.image-label"
#define ENTITLE_ANNOTATION_IMAGE_DIGEST "io.entitle.image-digest"

/* `sha256:` and 64 lower-case hex digits.  */
#define ENTITLE_IMAGE_DIGEST_LEN 71

struct entitle_image_request_s
{
  char *entitlements; /**< the label's value */
  char *digest;       /**< the image's (its config's) digest, or NULL where not known */
};

void entitle_image_request_free (struct entitle_image_request_s *r);
#define cleanup_image_request __attribute__ ((cleanup (entitle_image_request_free)))

/**
 * The image's request in @spec's annotations, into @out (malloc'd
 * strings): 1 when there is one, 0 when the image asks nothing (no
 * annotation, the sandbox of a pod, a container the map has no entry for
 * or an entry without `entitlements`), <0 with one line on malformed
 * input.
 */
int entitle_image_request (const json_t *spec, struct entitle_image_request_s *out, entitle_error_t *err);

/** Is @s `sha256:` and 64 lower-case hex digits?  */
bool entitle_image_digest_valid (const char *s);

#endif
