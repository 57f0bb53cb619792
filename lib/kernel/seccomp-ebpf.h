/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SECCOMP_EBPF_H
#define ENTITLE_SECCOMP_EBPF_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include "error.h"
#include "policy.h"
#include "seed-kernel.h"

/* The eBPF seccomp feature (DESIGN §4, seed 001), all of it: whether
   the kernel has it; the filter of one container process, its decisions
   in its own map (struct entitle_seccomp_policy), loaded by create or
   exec (through the raw loader, seed-load.h) and installed by the
   in-container helper; and reading a filter back from a running process
   (the seed's second sample), for `entitle inspect`.  Every call to the
   patch set goes through @k.  */

/* The feature's two one-prctl calls are inline: the in-container helper
   (static, libc only) and entitle-hook (no libseccomp) call them without
   linking the rest of the feature, whose loader carries the seed programs
   and whose text form names system calls with libseccomp.  */

/**
 * Does the kernel @k have eBPF seccomp?  One prctl, whose errno tells a
 * patched kernel from mainline (which rejects the mode: EINVAL); cheap
 * enough to ask at create.
 */
static inline bool
entitle_seed_seccomp_extended (const struct entitle_kernel_s *k)
{
  int fd = -1;
  /* Mainline rejects the mode with EINVAL; the patch set would look at
     the (bad) program fd.  */
  return k->prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER_EXTENDED, (unsigned long)&fd, 0, 0) < 0 && errno != EINVAL;
}

/**
 * Install the eBPF seccomp filter @fd (a BPF_PROG_TYPE_SECCOMP program)
 * on the calling task, and so on its children:
 * prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER_EXTENDED, &fd).  -1 with
 * errno on failure.
 */
static inline int
entitle_seed_seccomp_install (const struct entitle_kernel_s *k, int fd)
{
  return k->prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER_EXTENDED, (unsigned long)&fd, 0, 0) < 0 ? -1 : 0;
}

/**
 * Load the filter of @policy: its map, made and filled, and the program
 * (BPF_PROG_TYPE_SECCOMP), which holds the map.  Returns the program's
 * fd, close-on-exec.
 */
int entitle_seccomp_ebpf_load (const struct entitle_kernel_s *k, const struct entitle_seccomp_policy *policy,
                               entitle_error_t *err);

/**
 * Filter @index of @pid (0: the oldest, as PTRACE_SECCOMP_GET_FILTER
 * counts) as an eBPF program fd, by
 * PTRACE_SECCOMP_GET_FILTER_EXTENDED: @pid must be a tracee the caller
 * holds stopped, as for mainline's PTRACE_SECCOMP_GET_FILTER (lib/host/
 * seccomp-filter.c).  Returns the fd, 0 past the last filter (ENOENT), or
 * an error (a kernel without the patch set: EIO, asked nothing, since
 * mainline's PTRACE_GET_SYSCALL_INFO has the seed's number).
 */
int entitle_seccomp_get_extended (const struct entitle_kernel_s *k, pid_t pid, unsigned long index,
                                  entitle_error_t *err);

/* What an eBPF seccomp filter is.  */
struct entitle_seccomp_ext_s
{
  uint32_t id;   /**< the program's id */
  uint32_t type; /**< its program type */
  uint32_t n_insns;
  char tag[17];                         /**< its tag, hex */
  bool entitle;                         /**< entitle's filter: its map holds... */
  struct entitle_seccomp_policy policy; /**< ...these decisions */
};

/** Describe the filter @fd (from entitle_seccomp_get_extended).  */
int entitle_seccomp_ext_describe (const struct entitle_kernel_s *k, int fd, struct entitle_seccomp_ext_s *out,
                                  entitle_error_t *err);

/**
 * The decisions of @p for people, into @buf: "denied: mount, umount2;
 * by argument: socket and socketpair of AF_UNIX only".
 */
void entitle_seccomp_ext_format (const struct entitle_seccomp_policy *p, char *buf, size_t len);

#endif
