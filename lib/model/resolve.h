/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_RESOLVE_H
#define ENTITLE_RESOLVE_H

#include <stdbool.h>
#include "admin-config.h"
#include "entitlements.h"

/* Sources and ladders (DESIGN §2): the admin's `require` is a floor, the
   container's request replaces `defaults` in its ladder.  */

/**
 * Combine the admin config and the container's @requested set into @final.
 * A request wider than a required rung is an error naming both; so is a
 * modifier that contradicts the rung in force.
 */
int entitle_resolve (const struct entitle_config_s *cfg, const struct entitle_set_s *requested,
                     struct entitle_set_s *final, entitle_error_t *err);

/**
 * Does the admin's grant list cover @req?  Globs match whole components
 * (`network.*`, `*` alone matches everything); rows marked exact_grant
 * (security.insecure, network.host) match only by exact name.
 */
bool entitle_granted (const struct entitle_config_s *cfg, const struct entitle_request_s *req);

/** Does the one grant @grant (an entry of `grant`) cover @req?  */
bool entitle_grant_matches (const char *grant, const struct entitle_request_s *req);

#endif
