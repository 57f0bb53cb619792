/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "request.h"
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

int
entitle_requested (const struct entitle_catalogue_s *cat, const json_t *spec, struct entitle_set_s *requested,
                   entitle_error_t *err)
{
  const json_t *annotations, *list;
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
  if (list == NULL)
    return 0;
  return entitle_parse_list (cat, list->text, "annotation `" ENTITLE_ANNOTATION "`", requested, err);
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
