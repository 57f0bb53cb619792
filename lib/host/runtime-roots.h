/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_RUNTIME_ROOTS_H
#define ENTITLE_RUNTIME_ROOTS_H

/* Where the known engines have runc and crun keep the state of their
   containers (the runtime's --root), for the commands that find a
   container by its id without being told --root (entitle inspect).  */

/** The directory the roots are under: $ENTITLE_RUN_DIR, or /run.  */
const char *entitle_runtime_roots_base (void);

/**
 * The roots under @base, NULL-terminated and malloc'd (cleanup_strv):
 * containerd's runc shim's BASE/containerd/runc/NAMESPACE for every
 * namespace there (k8s.io: the CRI plugin; moby: Docker 23 and later),
 * Docker's BASE/docker/runtime-runc/moby, then BASE/runc and BASE/crun
 * (Podman's and CRI-O's, and runc's and crun's own defaults as root).
 */
char **entitle_runtime_roots (const char *base);

/**
 * The roots of @roots with a container @id (a directory ROOT/ID),
 * NULL-terminated and malloc'd (cleanup_strv); @id must be a plain name.
 */
char **entitle_runtime_roots_holding (char *const *roots, const char *id);

/** @roots as "A, B and C", malloc'd.  */
char *entitle_runtime_roots_join (char *const *roots);

#endif
