/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "seed-kernel.h"

static long
real_prctl (int option, unsigned long a, unsigned long b, unsigned long c, unsigned long d)
{
  return prctl (option, a, b, c, d);
}

static long
real_bpf (int cmd, void *attr, unsigned int size)
{
  return syscall (SYS_bpf, cmd, attr, size);
}

static long
real_ptrace (long request, pid_t pid, unsigned long addr, unsigned long data)
{
  return syscall (SYS_ptrace, request, pid, addr, data);
}

const struct entitle_kernel_s entitle_kernel = {
  .prctl = real_prctl,
  .bpf = real_bpf,
  .ptrace = real_ptrace,
};

bool
entitle_seed_seccomp_extended (const struct entitle_kernel_s *k)
{
  int fd = -1;
  /* Mainline rejects the mode with EINVAL; the patch set would look at
     the (bad) program fd.  */
  return k->prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER_EXTENDED, (unsigned long)&fd, 0, 0) < 0 && errno != EINVAL;
}

int
entitle_seed_seccomp_install (const struct entitle_kernel_s *k, int fd)
{
  return k->prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER_EXTENDED, (unsigned long)&fd, 0, 0) < 0 ? -1 : 0;
}

bool
entitle_seed_checmate (const struct entitle_kernel_s *k)
{
  /* Checmate answers EBADF for a bad program fd (EPERM without
     CAP_SYS_ADMIN); mainline knows no PR_CHECMATE and answers EINVAL.
     Hook 6 is socket_connect, one the seed runs.  */
  return k->prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 6, (unsigned long)-1, 0) < 0 && errno != EINVAL;
}
