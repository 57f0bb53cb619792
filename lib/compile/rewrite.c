/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "compile.h"
#include "hold.h"
#include "oci-fields.h"
#include "request.h"
#include "rewrite.h"
#include "resolve.h"
#include "trust.h"
#include "utils.h"

/* A label the host cannot apply fails the container (runc: "apparmor failed
   to apply profile"; an SELinux label without SELinux is refused), and
   confines nothing: a rewritten config does not keep one.  */
static void
drop_unusable_labels (struct entitle_ctx_s *ctx, json_t *spec, struct entitle_outcome_s *out)
{
  json_t *process = json_get (spec, "process");

  if (json_get (process, "apparmorProfile") && !entitle_apparmor_enabled (ctx))
    {
      entitle_outcome_note (out, ENTITLE_LOG_WARNING, "removed process.apparmorProfile `%s`: this host does not run AppArmor",
                            json_string (json_get (process, "apparmorProfile")));
      json_del (process, "apparmorProfile");
    }
  if (json_get (process, "selinuxLabel") && !entitle_selinux_enabled (ctx))
    {
      entitle_outcome_note (out, ENTITLE_LOG_WARNING, "removed process.selinuxLabel `%s`: this host does not run SELinux",
                            json_string (json_get (process, "selinuxLabel")));
      json_del (process, "selinuxLabel");
    }
}

/* The request of @spec, resolved into @final and judged by the trust
   rule (an empty @final needs no grant).  */
static int
judge_request (struct entitle_ctx_s *ctx, const json_t *spec, struct entitle_set_s *requested,
               struct entitle_set_s *final, entitle_error_t *err)
{
  int ret = entitle_requested (&ctx->config->catalogue, spec, requested, err);

  if (ret == 0)
    ret = entitle_resolve (ctx->config, requested, final, err);
  if (ret == 0 && final->n > 0)
    ret = entitle_check_grants (ctx, spec, requested, err);
  return ret;
}

int
entitle_rewrite (struct entitle_ctx_s *ctx, json_t *spec, struct entitle_set_s *final, entitle_error_t *err)
{
  cleanup_entitle_set struct entitle_set_s requested = { 0 };
  cleanup_outcome struct entitle_outcome_s out = { 0 };
  int ret;

  /* Before anything is read of it: a key runc reads as a field under
     another spelling would be judged missing here and applied there.  */
  ret = entitle_oci_fields_check (spec, ENTITLE_OCI_CONFIG, err);
  if (UNLIKELY (ret < 0))
    return ret;
  /* What was recorded in io.entitle.applied is never read: a bundle
     rewritten before is compiled again (the compiler is idempotent), and
     its record written anew.  */
  ret = judge_request (ctx, spec, &requested, final, err);
  if (UNLIKELY (ret < 0))
    return entitle_request_blame_image (spec, err);
  if (final->n == 0)
    return 0;
  ret = entitle_compile (ctx, spec, final, &out, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = entitle_hold_check (ctx, spec, final, err);
  if (UNLIKELY (ret < 0))
    return ret;
  drop_unusable_labels (ctx, spec, &out);
  ret = entitle_outcome_settle (ctx->config, ctx->log, &out, err);
  if (UNLIKELY (ret < 0))
    return ret;
  return 1;
}
