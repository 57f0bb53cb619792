/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_REWRITE_H
#define ENTITLE_REWRITE_H

#include "context.h"
#include "entitlements.h"
#include "json.h"

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

#endif
