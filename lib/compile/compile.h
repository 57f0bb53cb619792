/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_COMPILE_H
#define ENTITLE_COMPILE_H

#include <stdbool.h>
#include "context.h"
#include "entitlements.h"
#include "json.h"
#include "outcome.h"

#define ENTITLE_ANNOTATION           "io.entitle.entitlements"
#define ENTITLE_ANNOTATION_APPLIED   "io.entitle.applied"
#define ENTITLE_ANNOTATION_VERSION   "io.entitle.version"
#define ENTITLE_ANNOTATION_CATALOGUE "io.entitle.catalogue"

/**
 * Rewrite @spec (a parsed config.json) for the entitlements it requests
 * and the admin config of @ctx; @final receives the set applied.  Returns
 * 1 when @spec was changed, 0 when nothing applies (no entitlement from
 * any source), or a negative error: an unknown or conflicting
 * entitlement, a refused grant, an unenforceable restriction (judged by
 * entitle_outcome_settle after the compile: on an error @spec may be
 * half rewritten, and the caller writes nothing).
 * `io.entitle.applied` is output only: never read.
 */
int entitle_rewrite (struct entitle_ctx_s *ctx, json_t *spec, struct entitle_set_s *final,
                     entitle_error_t *err);

/**
 * What @spec's `io.entitle.entitlements` asks for (the catalogue version
 * checked), into @requested; empty when it asks nothing.
 */
int entitle_requested (const json_t *spec, struct entitle_set_s *requested, entitle_error_t *err);

/**
 * The final set for @spec: its `io.entitle.entitlements` request resolved
 * against the admin config of @ctx (defaults, require, ladders), without
 * the grant check.  What the hook enforces, whoever rewrote the config.
 */
int entitle_final_set (struct entitle_ctx_s *ctx, const json_t *spec, struct entitle_set_s *final,
                       entitle_error_t *err);

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
