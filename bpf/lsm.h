/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_LSM_H
#define ENTITLE_BPF_LSM_H

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
};

/**
 * Load the programs on the storage map @policy_fd.  Fails where the
 * kernel does not run the bpf LSM (EPERM or EINVAL at load, the message
 * says which) or the build left them out (no kernel BTF to build them
 * with: ENOSYS).
 */
int entitle_lsm_load (int policy_fd, struct entitle_lsm_s *l, entitle_error_t *err);

/** Pin what entitle_lsm_load loaded in @dir.  */
int entitle_lsm_pin (const struct entitle_lsm_s *l, const char *dir, entitle_error_t *err);

/** Open the programs pinned in @dir: 1, or 0 where none are.  */
int entitle_lsm_open (const char *dir, struct entitle_lsm_s *l);

void entitle_lsm_close (struct entitle_lsm_s *l);

/**
 * Attach the programs whose bits meet @policy to the cgroup @cgfd
 * (BPF_LSM_CGROUP, BPF_F_ALLOW_MULTI: they go with the cgroup).
 */
int entitle_lsm_attach (const struct entitle_lsm_s *l, unsigned policy, int cgfd, entitle_error_t *err);

#endif
