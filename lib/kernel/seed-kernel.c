/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
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
