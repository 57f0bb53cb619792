/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CAPS_H
#define ENTITLE_CAPS_H

#include <stdbool.h>
#include "context.h"
#include "json.h"
#include "outcome.h"

/* The capability sets of an OCI process: bounding, effective,
   inheritable, permitted, ambient (entitle_cap_sets).  */
enum entitle_cap_set
{
  CAP_SET_BOUNDING,
  CAP_SET_EFFECTIVE,
  CAP_SET_INHERITABLE,
  CAP_SET_PERMITTED,
  CAP_SET_AMBIENT,
  CAP_SET_COUNT,
};

/**
 * Edit process.capabilities of @process: remove every name in @drop from
 * all five sets (ambient too), and with @keep every name not in @keep
 * (an upper bound), then add each name in @add that is not dropped.  An
 * added capability that entitle's own bounding set lacks is left out
 * with a warning noted in @out: runc would fail the container for it.
 * Names are checked with libcap.
 */
int entitle_caps_apply (struct entitle_ctx_s *ctx, json_t *process, char *const *add, char *const *drop,
                        char *const *keep, struct entitle_outcome_s *out, entitle_error_t *err);

/**
 * The capabilities object of @process, or NULL where it has none: a
 * member that is missing, null (Go, which runc is written in, reads a
 * null as a missing member) or not an object.  The runtime then gives an
 * exec'd process the container's capabilities, and a container's process
 * none (runc 1.1 and crun 1.8 as root, measured).
 */
const json_t *entitle_caps_object (const json_t *process);

/** Is @name held in the bounding set of @process?  Without a
    capabilities object the runtimes give none (materialize, caps.c).  */
bool entitle_caps_bounding_has (const json_t *process, const char *name);

/** Is @name held in any of the five sets of @process (none without a
    capabilities object)?  */
bool entitle_caps_holds (const json_t *process, const char *name);

/** Does @process run as root (no user, or uid 0)? */
bool entitle_caps_runs_as_root (const json_t *process);

/** The names of the capability sets, indexed by enum entitle_cap_set. */
extern const char *const entitle_cap_sets[CAP_SET_COUNT];

/**
 * The OCI names (CAP_*) of the capabilities this kernel knows; with @ctx,
 * only those in entitle's own bounding set.
 */
json_t *entitle_caps_names (struct entitle_ctx_s *ctx);

#endif
