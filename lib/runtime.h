/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_RUNTIME_H
#define ENTITLE_RUNTIME_H

#include "admin-config.h"
#include "error.h"

/**
 * Find the wrapped runtime (DESIGN §2): the config's `runtime` (a path, or
 * a name looked up on PATH), else the first `runc`, then `crun`, on PATH.
 * A candidate that is entitle itself (same file, e.g. entitle installed as
 * runc) is skipped, or refused when the config names it: no exec loops.
 */
int entitle_runtime_find (const struct entitle_config_s *cfg, char **path, entitle_error_t *err);

#endif
