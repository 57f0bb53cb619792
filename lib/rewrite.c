/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "compile.h"
#include "resolve.h"
#include "trust.h"
#include "utils.h"

/* A label the host cannot apply fails the container (runc: "apparmor failed
   to apply profile"; an SELinux label without SELinux is refused), and
   confines nothing: a rewritten config does not keep one.  */
static void
drop_unusable_labels (struct entitle_ctx_s *ctx, json_t *spec)
{
  json_t *process = json_get (spec, "process");

  if (json_get (process, "apparmorProfile") && !entitle_apparmor_enabled (ctx))
    {
      entitle_log_warning (ctx->log, "removed process.apparmorProfile `%s`: this host does not run AppArmor",
                           json_string (json_get (process, "apparmorProfile")));
      json_del (process, "apparmorProfile");
    }
  if (json_get (process, "selinuxLabel") && !entitle_selinux_enabled (ctx))
    {
      entitle_log_warning (ctx->log, "removed process.selinuxLabel `%s`: this host does not run SELinux",
                           json_string (json_get (process, "selinuxLabel")));
      json_del (process, "selinuxLabel");
    }
}

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
  drop_unusable_labels (ctx, spec);
  return 1;
}
