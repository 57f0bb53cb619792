/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PENDING_H
#define ENTITLE_PENDING_H

#include "error.h"

/* A create whose policy entitle attaches after the runtime's create
   (full/attach-after.c) leaves a created container without its programs
   for a moment.  A mark, STATE_DIR/pending/ID.HASH (HASH: FNV-1a of the
   runtime's --root as given), is written before the runtime's create and
   removed once the policy is in place: if entitle is killed in between,
   the front refuses `start` of that container while the mark is there,
   and `delete` removes it.  One stat a start, one unlink a delete.  */

/** Write the mark of container @id of runtime root @root ("" default).  */
int entitle_pending_mark (const char *state_dir, const char *root, const char *id, entitle_error_t *err);

/** Remove it; nothing if there is none.  */
void entitle_pending_clear (const char *state_dir, const char *root, const char *id);

/** Is there one?  */
int entitle_pending_is_marked (const char *state_dir, const char *root, const char *id);

#endif
