/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_RUNTIME_H
#define ENTITLE_RUNTIME_H

#include "admin-config.h"
#include "error.h"

/* entitle is two programs (DESIGN §7): the front, which the engine runs
   and which may be installed as `runc`, and entitle-full.  The front tells
   entitle-full which file it is in this variable ("DEV:INO"), so that
   entitle-full never takes the front for the runtime; entitle-full removes
   it before it runs anything.  */
#define ENTITLE_FRONT_ENV "ENTITLE_FRONT"

/* Set to the runtime's path when entitle execs it: an entitle that finds
   it set was run by the runtime an entitle ran (a wrapper script named
   runc that runs entitle, say), an exec loop no file check can see.  */
#define ENTITLE_LOOP_ENV "ENTITLE_RAN_RUNTIME"

/** In the front, before exec'ing entitle-full: say which file it is.  */
void entitle_runtime_export_front (void);

/** In entitle-full, before anything else: take the front's identity
    from the environment, and remove the variable.  */
void entitle_runtime_import_front (void);

/** Refuse when entitle was run by the runtime an entitle ran.  */
int entitle_runtime_check_loop (entitle_error_t *err);

/** Just before exec'ing (or running) the runtime @path.  */
void entitle_runtime_mark (const char *path);

/**
 * Find the wrapped runtime (DESIGN §2): the config's `runtime` (a path, or
 * a name looked up on PATH), else the first `runc`, then `crun`, on PATH.
 * A candidate that is entitle itself (the running program, or the front
 * that ran entitle-full: same file, e.g. entitle installed as runc) is
 * skipped, or refused when the config names it: no exec loops.
 */
int entitle_runtime_find (const struct entitle_config_s *cfg, char **path, entitle_error_t *err);

#endif
