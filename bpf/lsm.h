/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_LSM_H
#define ENTITLE_BPF_LSM_H

#include <sys/types.h>
#include "attach.h"
#include "error.h"

/* The BPF LSM layer (bpf/progs/lsm.bpf.c): lsm_cgroup programs on the
   cgroup programs' storage, loaded with them once per host where the
   kernel runs the bpf LSM, pinned beside them, and attached to each
   container's cgroup whose policy has bits they read.  A layer beside the
   cgroup programs and seccomp: where the kernel refuses it, nothing is
   refused.  */

struct entitle_lsm_s
{
  int prog[ENTITLE_LSM_PROGS]; /**< by entitle_lsm_progs' order */
  int setup;                   /**< the runtime's-setup marks (task storage) */
};

/**
 * Load the programs on the storage map @policy_fd.  Fails where the
 * kernel does not run the bpf LSM (EPERM or EINVAL at load, the message
 * says which) or the build left them out (no kernel BTF to build them
 * with: ENOSYS).
 */
int entitle_lsm_load (int policy_fd, struct entitle_lsm_s *l, entitle_error_t *err);

/** Pin what entitle_lsm_load loaded in @dir; on failure none is left.  */
int entitle_lsm_pin (const struct entitle_lsm_s *l, const char *dir, entitle_error_t *err);

/** Remove the pins of entitle_lsm_pin from @dir.  */
void entitle_lsm_unpin (const char *dir);

/** Open the programs pinned in @dir: 1, or 0 where none are.  */
int entitle_lsm_open (const char *dir, struct entitle_lsm_s *l);

void entitle_lsm_close (struct entitle_lsm_s *l);

/**
 * Mark @pid, the runtime's process that the hook's state names (the
 * container's init, waiting in the runtime's setup), as in that setup: the
 * mount programs let its mounts through until it execs the container's
 * process.  Before the programs are attached.
 */
int entitle_lsm_mark_setup (const struct entitle_lsm_s *l, pid_t pid, entitle_error_t *err);

/**
 * Attach the programs whose bits meet @policy to the cgroup @cgfd
 * (BPF_LSM_CGROUP, BPF_F_ALLOW_MULTI: they go with the cgroup).
 */
int entitle_lsm_attach (const struct entitle_lsm_s *l, unsigned policy, int cgfd, entitle_error_t *err);

#endif
