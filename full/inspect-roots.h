/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_INSPECT_ROOTS_H
#define ENTITLE_INSPECT_ROOTS_H

#include <sys/types.h>
#include "commands.h"

/** The pid of container @id's init in the runtime's @root (NULL: its
    default root), from `runtime [--root ROOT] state ID`; 0 when it has no
    such container.  */
pid_t shim_container_pid (struct shim_s *s, const char *root, const char *id);

/**
 * Container @id in one of the roots the known engines give the runtime
 * (lib/host/runtime-roots.h), for a command given no --root whose runtime
 * has no such container in its default root: its init's pid in *@pid and
 * its root in *@root (malloc'd).  Returns 0 when no root holds @id, with
 * the roots searched in *@searched ("A, B and C", malloc'd); an error
 * when two do (both named), or when the one that does is not the
 * runtime's to read.
 */
int shim_engine_container (struct shim_s *s, const char *id, pid_t *pid, char **root, char **searched,
                           entitle_error_t *err);

#endif
