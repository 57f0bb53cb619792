/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CAPS_H
#define ENTITLE_CAPS_H

#include <stdbool.h>
#include "context.h"
#include "json.h"

/**
 * Edit process.capabilities of @process: remove every name in @drop from
 * all five sets (ambient too), and with @keep every name not in @keep
 * (an upper bound), then add each name in @add that is not dropped.  An
 * added capability that entitle's own bounding set lacks is left out
 * with a warning: runc would fail the container for it.  Names are
 * checked with libcap.
 */
int entitle_caps_apply (struct entitle_ctx_s *ctx, json_t *process, char *const *add,
                        char *const *drop, char *const *keep, entitle_error_t *err);

/** Is @name held in the bounding set of @process? */
bool entitle_caps_bounding_has (const json_t *process, const char *name);

/** Does @process run as root (no user, or uid 0)? */
bool entitle_caps_runs_as_root (const json_t *process);

/** The five capability sets of an OCI process, in spec order. */
extern const char *const entitle_cap_sets[5];

/**
 * The OCI names (CAP_*) of the capabilities this kernel knows; with @ctx,
 * only those in entitle's own bounding set.
 */
json_t *entitle_caps_names (struct entitle_ctx_s *ctx);

#endif
