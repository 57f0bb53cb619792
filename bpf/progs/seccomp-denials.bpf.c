/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The syscalls seccomp refuses, as they happen (`entitle why --follow`,
   docs/denials.md): an fexit program on __secure_computing, which returns
   -1 when the filter's verdict skips the syscall (ERRNO, TRAP, TRACE
   without a tracer, a notification answered with an error) and 0 when the
   syscall runs; a KILL never returns, so it is not seen.  Its caller
   passes no seccomp_data (NULL; 6.14 dropped the argument), so the call
   is read off the task's registers: the number, the arguments and, in ax,
   what the task gets.  While it is attached every syscall of every task
   under a seccomp filter passes through the trampoline, so only the
   follower attaches it, for as long as it runs, and nothing is pinned.
   It writes every denial of the host; the follower keeps those of the
   cgroups entitle-hook recorded.  The registers are x86's (the build
   leaves the program out elsewhere); the kernel's types come from
   vmlinux.h, as for the BPF LSM programs.  */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "policy.h"

#define TS_COMPAT 0x0002 /* thread_info.status: a 32-bit syscall is running */

char LICENSE[] SEC ("license") = "GPL";

struct
{
  __uint (type, BPF_MAP_TYPE_RINGBUF);
  __uint (max_entries, 256 * 1024);
} entitle_seccomp_denials SEC (".maps");

/* Denials the ring had no room for (the follower reads too slowly).  */
__u64 entitle_seccomp_lost = 0;

static __always_inline void
read_args (struct entitle_seccomp_denial *d, struct pt_regs *regs, int compat)
{
  if (compat)
    {
      d->args[0] = BPF_CORE_READ (regs, bx);
      d->args[1] = BPF_CORE_READ (regs, cx);
      d->args[2] = BPF_CORE_READ (regs, dx);
      d->args[3] = BPF_CORE_READ (regs, si);
      d->args[4] = BPF_CORE_READ (regs, di);
      d->args[5] = BPF_CORE_READ (regs, bp);
      return;
    }
  d->args[0] = BPF_CORE_READ (regs, di);
  d->args[1] = BPF_CORE_READ (regs, si);
  d->args[2] = BPF_CORE_READ (regs, dx);
  d->args[3] = BPF_CORE_READ (regs, r10);
  d->args[4] = BPF_CORE_READ (regs, r8);
  d->args[5] = BPF_CORE_READ (regs, r9);
}

SEC ("fexit/__secure_computing")
int
entitle_seccomp_denial (__u64 *ctx)
{
  struct entitle_seccomp_denial *d;
  struct task_struct *task;
  struct pt_regs *regs;
  __u64 pid_tgid, ret = 0;
  int compat;

  /* The return value wherever the kernel puts it: after the one
     argument of 6.1, or first where there is none.  */
  if (bpf_get_func_ret (ctx, &ret) < 0 || (int)ret != -1)
    return 0;
  d = bpf_ringbuf_reserve (&entitle_seccomp_denials, sizeof (*d), 0);
  if (d == NULL)
    {
      __sync_fetch_and_add (&entitle_seccomp_lost, 1);
      return 0;
    }
  task = bpf_get_current_task_btf ();
  regs = (struct pt_regs *)bpf_task_pt_regs (task);
  compat = BPF_CORE_READ (task, thread_info.status) & TS_COMPAT;
  pid_tgid = bpf_get_current_pid_tgid ();
  d->time = bpf_ktime_get_boot_ns ();
  d->cgroup = bpf_get_current_cgroup_id ();
  for (int i = 0; i < ENTITLE_CGROUP_LEVELS; i++)
    d->ancestors[i] = bpf_get_current_ancestor_cgroup_id (i + 1);
  read_args (d, regs, compat);
  d->ret = (__s64)BPF_CORE_READ (regs, ax);
  d->nr = (__u32)BPF_CORE_READ (regs, orig_ax);
  d->flags = compat ? ENTITLE_SECCOMP_COMPAT : 0;
  d->pid = pid_tgid >> 32;
  d->tid = (__u32)pid_tgid;
  bpf_get_current_comm (d->comm, sizeof (d->comm));
  bpf_ringbuf_submit (d, 0);
  return 0;
}
