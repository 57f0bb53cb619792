/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_EXEC_MARK_H
#define ENTITLE_EXEC_MARK_H

#include <stdbool.h>
#include "error.h"

/* The containers whose processes start through the in-container helper
   (lib/compile/landlock.h), marked by create in state_dir/exec/: a plain
   `exec ID COMMAND` into one of them must go through entitle-full, which
   puts the helper in front of COMMAND.  The front (shim/front.c) asks
   with one access(2), so every other plain exec still goes straight to
   the runtime without a JSON parse or a `runtime state`.  A container is
   keyed by runtime root and id (ids repeat across roots), hashed (64
   bits) into the file name.  A mark left by a deleted container only
   sends an exec through entitle-full, which decides from the container's
   own state and drops a mark that is not needed.  A mark outlives its
   container (delete goes straight to the runtime) until a create of the
   same root and id, or the next boot (state_dir is on /run).  */

/** Is the container @id of runtime root @root (NULL: the default) marked?  */
bool entitle_exec_marked (const char *state_dir, const char *root, const char *id);

/** Mark the container, before it is created.  */
int entitle_exec_mark (const char *state_dir, const char *root, const char *id, entitle_error_t *err);

/** Remove the container's mark, if it has one.  */
void entitle_exec_unmark (const char *state_dir, const char *root, const char *id);

#endif
