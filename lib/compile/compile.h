/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_COMPILE_H
#define ENTITLE_COMPILE_H

#include <stdbool.h>
#include "context.h"
#include "entitlements.h"
#include "json.h"
#include "outcome.h"
#include "request.h"

/**
 * Apply the final set @set to @spec: capabilities, noNewPrivileges, LSM
 * labels, namespaces, masked and read-only paths, seccomp, annotations.
 * What cannot be enforced here, and what to log, goes to @out (NULL:
 * dropped) for the caller to settle; an error is bad input only.
 */
int entitle_compile (struct entitle_ctx_s *ctx, json_t *spec, const struct entitle_set_s *set,
                     struct entitle_outcome_s *out, entitle_error_t *err);

/**
 * Apply the process-level part of @set (capabilities, noNewPrivileges, LSM
 * labels) to a process object: what `exec --process FILE` needs.  @out as
 * for entitle_compile.
 */
int entitle_compile_process (struct entitle_ctx_s *ctx, json_t *process, const struct entitle_set_s *set,
                             struct entitle_outcome_s *out, entitle_error_t *err);

/** Does the host run AppArmor, SELinux?  Memoized in @ctx.  */
bool entitle_apparmor_enabled (struct entitle_ctx_s *ctx);
bool entitle_selinux_enabled (struct entitle_ctx_s *ctx);

#endif
