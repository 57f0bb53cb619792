/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SEED_KERNEL_H
#define ENTITLE_SEED_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The seed interfaces (DESIGN §4, ../shared/seeds): Checmate and eBPF
   seccomp, two patch sets mainline never merged.  Every call entitle makes
   to them goes through one table, so that the tests can put a fake kernel
   in its place (their names say `fake_kernel`): mainline answers each of
   these calls with EINVAL, so no code path behind them could run here
   otherwise.  Libc only: entitle-full, entitle-hook and the in-container
   helper all call through it.  Each feature's calls are its own file's:
   Checmate's probe and prctl in checmate-prctl.h, eBPF seccomp's probe,
   install, load and read-back in seccomp-ebpf.h; the raw loader both
   features' programs go through is seed-load.h.

   Functions take the table as an argument rather than reading a global:
   production passes &entitle_kernel, a test its own.  */

struct entitle_kernel_s
{
  /** prctl(2): PR_CHECMATE, and PR_SET_SECCOMP with the extended mode.  */
  long (*prctl) (int option, unsigned long a, unsigned long b, unsigned long c, unsigned long d);
  /** bpf(2): the program loads of the seed types, and their maps.  */
  long (*bpf) (int cmd, void *attr, unsigned int size);
  /** ptrace(2): PTRACE_SECCOMP_GET_FILTER_EXTENDED.  */
  long (*ptrace) (long request, pid_t pid, unsigned long addr, unsigned long data);
};

/** The running kernel.  */
extern const struct entitle_kernel_s entitle_kernel;

/* Checmate (seeds 002-006): include/uapi/linux/prctl.h and
   include/uapi/linux/checmate.h of the patch set.  */
#define PR_CHECMATE           0x43484543
#define CHECMATE_INSTALL_HOOK 1
#define CHECMATE_DENY_RESET   2
#define CHECMATE_RESET        3

/* eBPF seccomp (seed 001 and its series).  The seed's request was
   0x420e, which mainline gave PTRACE_GET_SYSCALL_INFO (5.3): the port to
   6.1 (test/kernels/seeds/, docs/seeds.md) takes 0x42e0, high in the
   range mainline fills from the bottom.  */
#define SECCOMP_MODE_FILTER_EXTENDED       3
#define PTRACE_SECCOMP_GET_FILTER_EXTENDED 0x42e0

/* The two program types.  The seeds number them after the last type of
   their day (BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_CGROUP_DEVICE), numbers
   mainline has since given to PERF_EVENT and SK_MSG: a kernel carrying
   either patch set today appends them after mainline's last type, and
   configure takes them as --with-seed-prog-types=CHECMATE,SECCOMP.  */
#define ENTITLE_BPF_PROG_TYPE_CHECMATE ENTITLE_SEED_PROG_TYPE_CHECMATE
#define ENTITLE_BPF_PROG_TYPE_SECCOMP  ENTITLE_SEED_PROG_TYPE_SECCOMP

#endif
