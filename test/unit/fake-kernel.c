/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <unistd.h>
#include "fake-kernel.h"
#include "seed-load.h"

struct fake_kernel_s fake;

void
fake_kernel_reset (unsigned patches)
{
  static bool used;

  for (size_t i = 0; i < fake.n_loads; i++)
    close (fake.loads[i].fd);
  if (used && fake.filter_fd >= 0)
    close (fake.filter_fd);
  used = true;
  memset (&fake, 0, sizeof (fake));
  fake.patches = patches;
  fake.filter_fd = -1;
}

bool
fake_kernel_running_is_seed (void)
{
  const char *row = getenv ("ENTITLE_KERNEL_ROW");
  return row && strncmp (row, "seed", 4) == 0;
}

unsigned
fake_prog_id (int fd)
{
  struct bpf_prog_info info = { 0 };
  union bpf_attr attr;

  memset (&attr, 0, sizeof (attr));
  attr.info.bpf_fd = (__u32)fd;
  attr.info.info_len = sizeof (info);
  attr.info.info = (__u64)(unsigned long)&info;
  return entitle_kernel.bpf (BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof (attr)) == 0 ? info.id : 0;
}

/* The load fake.loads recorded for the program behind @fd, or NULL.  */
static const struct fake_load_s *
load_of (int fd)
{
  unsigned id = fake_prog_id (fd);
  for (size_t i = 0; id && i < fake.n_loads; i++)
    if (fake_prog_id (fake.loads[i].fd) == id)
      return &fake.loads[i];
  return NULL;
}

static long
answer (struct fake_call_s *c, int error)
{
  c->error = error;
  errno = error;
  return error ? -1 : 0;
}

/* security/checmate/checmate_lsm.c of seed 004.  */
static bool
enabled (unsigned long hook)
{
  return hook == 6 /* socket_connect */ || hook == 48 /* file_open */ || hook == 49 /* task_create */
         || hook == 50 /* task_free */;
}

static long
checmate (struct fake_call_s *c)
{
  const struct fake_load_s *l;
  unsigned id;

  if (!(c->hook > 0 && c->hook < FAKE_HOOKS))
    return answer (c, EINVAL);
  if (!enabled (c->hook))
    return answer (c, ENOENT);
  if (c->op == CHECMATE_INSTALL_HOOK)
    {
      /* bpf_prog_get_type (fd, BPF_PROG_TYPE_CHECMATE) */
      if ((l = load_of (c->fd)) == NULL || l->type != ENTITLE_BPF_PROG_TYPE_CHECMATE)
        return answer (c, c->fd < 0 ? EBADF : EINVAL);
      id = fake_prog_id (c->fd);
      for (size_t i = 0; i < fake.n_installed[c->hook]; i++)
        if (fake.installed[c->hook][i] == id)
          return answer (c, EEXIST);
      fake.installed[c->hook][fake.n_installed[c->hook]++] = id;
      return answer (c, 0);
    }
  if (c->op == CHECMATE_DENY_RESET)
    {
      if (fake.deny_reset[c->hook])
        return answer (c, EALREADY);
      fake.deny_reset[c->hook] = true;
      return answer (c, 0);
    }
  if (c->op == CHECMATE_RESET)
    {
      if (fake.deny_reset[c->hook])
        return answer (c, EPERM);
      fake.n_installed[c->hook] = 0;
      return answer (c, 0);
    }
  return answer (c, EINVAL);
}

static long
seccomp_extended (struct fake_call_s *c)
{
  const struct fake_load_s *l = load_of (c->fd);

  if (l == NULL || l->type != ENTITLE_BPF_PROG_TYPE_SECCOMP)
    return answer (c, c->fd < 0 ? EBADF : EINVAL);
  if (fake.filter_fd >= 0)
    close (fake.filter_fd);
  fake.filter_fd = dup (c->fd);
  return answer (c, 0);
}

static long
fake_prctl (int option, unsigned long a, unsigned long b, unsigned long c, unsigned long d)
{
  struct fake_call_s *call = &fake.calls[fake.n_calls < FAKE_MAX_CALLS ? fake.n_calls++ : FAKE_MAX_CALLS - 1];

  memset (call, 0, sizeof (*call));
  call->option = option;
  call->op = a;
  call->hook = b;
  if (option == PR_CHECMATE)
    {
      call->fd = (int)c;
      return fake.patches & FAKE_CHECMATE ? checmate (call) : answer (call, EINVAL);
    }
  if (option == PR_SET_SECCOMP && a == SECCOMP_MODE_FILTER_EXTENDED)
    {
      call->fd = *(const int *)b;
      call->hook = 0;
      return fake.patches & FAKE_SECCOMP_EXTENDED ? seccomp_extended (call) : answer (call, EINVAL);
    }
  fake.n_calls--;
  return entitle_kernel.prctl (option, a, b, c, d);
}

/* A program of a seed type: judged as the patched kernel would, then
   loaded for real as the nearest mainline type.  */
static long
load_seed (union bpf_attr *attr, unsigned size)
{
  int type = (int)attr->prog_type;
  bool checmate = type == ENTITLE_BPF_PROG_TYPE_CHECMATE;
  struct fake_load_s *l = &fake.loads[fake.n_loads];
  union bpf_attr real = *attr;
  long fd;

  if (!(fake.patches & (checmate ? FAKE_CHECMATE : FAKE_SECCOMP_EXTENDED)) || fake.n_loads == FAKE_MAX_PROGS)
    {
      errno = EINVAL;
      return -1;
    }
  if (checmate && attr->kern_version != entitle_seed_kernel_version ())
    {
      errno = EINVAL;
      return -1;
    }
  real.prog_type = checmate ? BPF_PROG_TYPE_KPROBE : BPF_PROG_TYPE_SYSCALL;
  real.prog_flags |= checmate ? 0 : BPF_F_SLEEPABLE;
  fd = entitle_kernel.bpf (BPF_PROG_LOAD, &real, size);
  if (fd < 0)
    return fd;
  l->type = type;
  l->kern_version = attr->kern_version;
  l->insn_cnt = attr->insn_cnt;
  l->fd = dup ((int)fd);
  fake.n_loads++;
  return fd;
}

static long
fake_bpf (int cmd, void *attr, unsigned int size)
{
  union bpf_attr *a = attr;

  if (cmd == BPF_PROG_LOAD
      && (a->prog_type == ENTITLE_BPF_PROG_TYPE_CHECMATE || a->prog_type == ENTITLE_BPF_PROG_TYPE_SECCOMP))
    return load_seed (a, size);
  return entitle_kernel.bpf (cmd, attr, size);
}

/* How many classic filters the real kernel reads back for @pid.  */
static unsigned long
classic_count (pid_t pid)
{
  unsigned long n = 0;
  while (entitle_kernel.ptrace (PTRACE_SECCOMP_GET_FILTER, pid, n, 0) >= 0)
    n++;
  return n;
}

/* The chain as ptrace reads it, the oldest first: the process's own
   classic filters, then the eBPF filter installed (on the process the
   test stands for), which has no classic program (EMEDIUMTYPE).  */
static long
classic (pid_t pid, unsigned long addr, unsigned long data)
{
  long r = entitle_kernel.ptrace (PTRACE_SECCOMP_GET_FILTER, pid, addr, data);

  if (r >= 0 || !(fake.patches & FAKE_SECCOMP_EXTENDED) || fake.filter_fd < 0 || (errno != ENOENT && errno != EINVAL))
    return r;
  errno = addr == classic_count (pid) ? EMEDIUMTYPE : ENOENT;
  return -1;
}

static long
fake_ptrace (long request, pid_t pid, unsigned long addr, unsigned long data)
{
  if (request == PTRACE_SECCOMP_GET_FILTER)
    return classic (pid, addr, data);
  if (request != PTRACE_SECCOMP_GET_FILTER_EXTENDED)
    return entitle_kernel.ptrace (request, pid, addr, data);
  if (!(fake.patches & FAKE_SECCOMP_EXTENDED))
    {
      errno = EIO;
      return -1;
    }
  /* The filters of the process the test stands for: the one installed,
     after its classic ones.  */
  if (fake.filter_fd < 0 || addr != classic_count (pid))
    {
      errno = ENOENT;
      return -1;
    }
  return dup (fake.filter_fd);
}

const struct entitle_kernel_s fake_kernel = {
  .prctl = fake_prctl,
  .bpf = fake_bpf,
  .ptrace = fake_ptrace,
};
