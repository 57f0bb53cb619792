/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SECCOMP_FILTER_H
#define ENTITLE_SECCOMP_FILTER_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include "error.h"
#include "seed-kernel.h"

/* The seccomp filters of a running process read back, for `entitle
   inspect PID` (entitle(8)): a classic filter with mainline's
   PTRACE_SECCOMP_GET_FILTER (CONFIG_CHECKPOINT_RESTORE; the reader needs
   CAP_SYS_ADMIN and must run under no filter itself), an eBPF one of the
   seed with PTRACE_SECCOMP_GET_FILTER_EXTENDED (lib/host/seccomp-ebpf.h).
   Both read a tracee held stopped.  Every ptrace call goes through the
   kernel table @k, so that the tests can put a kernel with eBPF seccomp
   in its place.  */

/* One filter of the chain, the oldest first.  */
struct entitle_seccomp_filter_s
{
  struct sock_filter *insns; /**< a classic filter's instructions, or NULL */
  size_t n;                  /**< how many */
  int ebpf_fd;               /**< an eBPF filter's program, or -1 */
};

/**
 * Read every filter of @pid, oldest first, into *@out (*@n of
 * them; none: a process under no filter): @pid is held stopped as a
 * tracee (PTRACE_SEIZE, PTRACE_INTERRUPT) while they are read, then let
 * go.  A filter that is not classic is read with the seed's request where
 * @extended says the kernel has it, and named unreadable otherwise.
 */
int entitle_seccomp_filters_read (const struct entitle_kernel_s *k, pid_t pid, bool extended,
                                  struct entitle_seccomp_filter_s **out, size_t *n, entitle_error_t *err);

/** Free what entitle_seccomp_filters_read gave (closing the eBPF fds).  */
void entitle_seccomp_filters_free (struct entitle_seccomp_filter_s *f, size_t n);

/**
 * Print the classic filter @insns (@n instructions) to @out, one
 * instruction a line: its index, the instruction with jump targets as
 * indexes, and what it means for seccomp (the field of struct
 * seccomp_data a load reads, the architecture or the syscall a comparison
 * names, the action a return takes).  Syscall numbers are named for the
 * architecture the filter compared last, as libseccomp's filters check
 * the architecture before the numbers of its syscalls.
 */
void entitle_seccomp_disassemble (FILE *out, const struct sock_filter *insns, size_t n);

#endif
