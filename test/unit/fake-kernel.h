/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_FAKE_KERNEL_H
#define ENTITLE_FAKE_KERNEL_H

#include <stdbool.h>
#include "checmate-prctl.h"
#include "seccomp-ebpf.h"
#include "seed-kernel.h"

/* A FAKE kernel interface for the seed patch sets mainline never merged
   (lib/kernel/seed-kernel.h): the running kernel, plus Checmate and eBPF
   seccomp as the seeds define them.  Tests that use it say `fake_kernel`
   in their names.

   What is fake is only what mainline lacks.  Maps are the kernel's own.
   A program of a seed type is checked as the seed's kernel would check
   it (Checmate's kern_version, seed 006), then loaded for real as the
   nearest mainline type, so the verifier of this kernel judges every
   instruction: a Checmate program as a kprobe program (the same helpers,
   a read-only context), the eBPF seccomp filter as a syscall program,
   which BPF_PROG_TEST_RUN runs on a struct seccomp_data of the test's.
   Checmate's prctl keeps the hooks as the seed's checmate_lsm.c does
   (one list a hook, EEXIST for a program installed twice, deny_reset,
   EALREADY, EPERM; only the four hooks the seed runs are enabled).  The
   filter installed last is the most recent of the chain that ptrace reads
   back, the oldest first: after the process's own classic filters, it is
   the one without a classic program (EMEDIUMTYPE), which
   PTRACE_SECCOMP_GET_FILTER_EXTENDED gives.  */

#define FAKE_CHECMATE         (1u << 0)
#define FAKE_SECCOMP_EXTENDED (1u << 1)
#define FAKE_HOOKS            51 /* __CHECMATE_HOOK_MAX of the seed */
#define FAKE_MAX_CALLS        64
#define FAKE_MAX_PROGS        8

struct fake_call_s
{
  int option; /**< PR_CHECMATE, PR_SET_SECCOMP */
  unsigned long op, hook;
  int fd;    /**< the program fd passed (the value under the pointer, for seccomp) */
  int error; /**< the errno answered, 0 on success */
};

struct fake_load_s
{
  int type; /**< the seed type asked for */
  unsigned kern_version;
  unsigned insn_cnt;
  int fd; /**< the real program this kernel loaded in its place */
};

struct fake_kernel_s
{
  unsigned patches; /**< FAKE_* the kernel carries */
  struct fake_call_s calls[FAKE_MAX_CALLS];
  size_t n_calls;
  struct fake_load_s loads[FAKE_MAX_PROGS];
  size_t n_loads;
  /* Checmate's hooks: the program ids installed, in order.  */
  unsigned installed[FAKE_HOOKS][FAKE_MAX_PROGS];
  size_t n_installed[FAKE_HOOKS];
  bool deny_reset[FAKE_HOOKS];
  int filter_fd; /**< the eBPF seccomp filter installed last, or -1 */
};

/** The fake's state (one per test program); fake_kernel_reset clears it.  */
extern struct fake_kernel_s fake;

/** The table to pass where entitle takes &entitle_kernel.  */
extern const struct entitle_kernel_s fake_kernel;

/** A fresh kernel carrying the patch sets @patches.  */
void fake_kernel_reset (unsigned patches);

/** Does the running kernel carry both patch sets?  Only in the seed
    kernel's row of make check-seed-kernel (ENTITLE_KERNEL_ROW seed-6.1,
    docs/seeds.md): the tests that expect mainline's answers from the
    running kernel expect the seeds' there.  */
bool fake_kernel_running_is_seed (void);

/** The id of the real program behind @fd, 0 if none.  */
unsigned fake_prog_id (int fd);

#endif
