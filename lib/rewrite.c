/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "compile.h"
#include "resolve.h"
#include "trust.h"
#include "utils.h"

int
entitle_rewrite (struct entitle_ctx_s *ctx, json_t *spec, entitle_error_t *err)
{
  cleanup_entitle_set struct entitle_set_s requested = { 0 }, final = { 0 };
  const json_t *annotations, *list;
  int ret;

  ret = entitle_final_set (ctx, spec, &final, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (final.n == 0)
    return 0;
  annotations = json_get (spec, "annotations");
  list = json_get (annotations, ENTITLE_ANNOTATION);
  if (list)
    {
      ret = entitle_parse_list (list->text, "annotation `" ENTITLE_ANNOTATION "`", &requested, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  /* Rewritten already (create is idempotent)?  The annotation is written
     by whoever writes the others: trust it only if compiling again would
     take nothing away.  */
  if (json_get (annotations, ENTITLE_ANNOTATION_APPLIED))
    {
      cleanup_json json_t *copy = json_clone (spec);
      const struct entitle_log_s *log = ctx->log;

      ctx->log = NULL;
      ret = entitle_compile (ctx, copy, &final, err);
      ctx->log = log;
      if (UNLIKELY (ret < 0))
        return ret;
      if (!entitle_widens (copy, spec))
        return 0;
    }
  ret = entitle_check_grants (ctx, spec, &requested, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = entitle_compile (ctx, spec, &final, err);
  if (UNLIKELY (ret < 0))
    return ret;
  return 1;
}
