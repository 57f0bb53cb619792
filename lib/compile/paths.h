/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PATHS_H
#define ENTITLE_PATHS_H

#include "context.h"
#include "entitlements.h"
#include "json.h"

/**
 * Apply the masked and read-only path effects of @set to @linux_
 * (widening first, restrictions after: a restriction always wins).  The
 * runtimes apply paths only inside a private mount namespace and refuse a
 * config that has paths without one; there, /proc/sys read-only is left
 * to the sysctl program where it is in force, and any other path
 * restriction is refused naming the entitlement.
 */
int entitle_paths_apply (json_t *linux_, const struct entitle_set_s *set, entitle_error_t *err);

#endif
