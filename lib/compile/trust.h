/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_TRUST_H
#define ENTITLE_TRUST_H

#include <stdbool.h>
#include "context.h"
#include "entitlements.h"
#include "json.h"

/* The trust rule (DESIGN §2): an image can always ask for less, never for
   more, unless the admin grants it.  */

/**
 * Would @after give more than @before: a capability added, a syscall
 * allowed, a namespace removed, a masked or read-only path removed, a
 * device allowed, noNewPrivileges cleared, an LSM label changed?
 */
bool entitle_widens (const json_t *before, const json_t *after);

/**
 * Would @req alone, compiled onto a copy of @spec, widen it (into
 * @widens)?  What the trust rule asks of each entitlement an image asks
 * for; entitle learn says it of what it proposes.
 */
int entitle_request_widens (struct entitle_ctx_s *ctx, const json_t *spec, const struct entitle_request_s *req,
                            bool *widens, entitle_error_t *err);

/**
 * Check each entitlement of @requested on its own: compiled alone onto a
 * copy of @spec, if it widens anything it needs the admin's grant.  The
 * refusal names it.
 */
int entitle_check_grants (struct entitle_ctx_s *ctx, const json_t *spec,
                          const struct entitle_set_s *requested, entitle_error_t *err);

/**
 * The same for the process of `exec --process`: each entitlement of
 * @requested that would widen what @process gives needs a grant.
 */
int entitle_check_process_grants (struct entitle_ctx_s *ctx, const json_t *process,
                                  const struct entitle_set_s *requested, entitle_error_t *err);

#endif
