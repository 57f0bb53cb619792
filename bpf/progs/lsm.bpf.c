/* SPDX-License-Identifier: GPL-2.0-or-later */
/* entitle's BPF LSM programs (DESIGN §4): what the cgroup programs cannot
   express, as lsm_cgroup programs the hook attaches to the container's
   cgroup beside them, reading the same storage (bpf/progs/policy.h).  An
   lsm_cgroup program returns 1 to let the call through, 0 to refuse it
   with EPERM; it runs for the socket's cgroup at a socket hook, else for
   the current task's.  They need the kernel's types: vmlinux.h, which the
   build writes from the build host's BTF (left out of the build where
   there is none); the kernel must run the bpf LSM to load them.  */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "policy.h"
#include "rules.h"
#include "storage.h"

#define FMODE_WRITE 0x2
#define PROC_SYS    "/proc/sys/"

char LICENSE[] SEC ("license") = "GPL";

/* network.bind: listen() on a port the list names.  A socket listening
   unbound gets a port the kernel chooses (autobind), which the bind
   programs never see: refused here, where the cgroup programs can only
   drop what reaches it.  */
SEC ("lsm_cgroup/socket_listen")
int
BPF_PROG (entitle_lsm_socket_listen, struct socket *sock, int backlog)
{
  struct entitle_policy *p = policy ();
  __u16 family = BPF_CORE_READ (sock, sk, __sk_common.skc_family);
  __u16 port = BPF_CORE_READ (sock, sk, __sk_common.skc_num);

  if (!(p->flags & POL_BIND) || (family != AF_INET && family != AF_INET6))
    return 1;
  return port != 0 && in_ranges (p->bind, p->n_bind, port);
}

/* Is @key (after "/proc/sys/") one of the policy's sysctl keys?  */
static __always_inline int
listed_key (const struct entitle_policy *p, const char *key)
{
  for (__u32 i = 0; i < ENTITLE_MAX_SYSCTLS; i++)
    {
      int same = 1;

      if (i >= p->n_sysctl)
        break;
      for (__u32 k = 0; k < ENTITLE_SYSCTL_NAME && same; k++)
        {
          same = key[k] == p->sysctl[i][k];
          if (same && key[k] == '\0')
            return 1;
        }
    }
  return 0;
}

/* security.confined's /proc/sys read-only, by the file opened: no file of
   /proc/sys opened for writing but the keys of linux.sysctl.  */
SEC ("lsm_cgroup/file_open")
int
BPF_PROG (entitle_lsm_file_open, struct file *file)
{
  struct entitle_policy *p = policy ();
  char path[sizeof (PROC_SYS) + ENTITLE_SYSCTL_NAME] = {};

  if (!(p->flags & POL_SYSCTL_RO) || !(BPF_CORE_READ (file, f_mode) & FMODE_WRITE))
    return 1;
  if (bpf_d_path ((struct path *)&file->f_path, path, sizeof (path)) < 0)
    return 1;
  for (__u32 i = 0; i < sizeof (PROC_SYS) - 1; i++)
    if (path[i] != PROC_SYS[i])
      return 1;
  return listed_key (p, path + sizeof (PROC_SYS) - 1);
}

/* The runtime's own setup.  The hook attaches these programs at
   createRuntime, while the runtime's init already sits in the container's
   cgroup and still has to mount the container's root, pivot into it, mask
   paths and remount them read-only.  entitle-hook marks that init (by
   pidfd, so the mark is on the very task the runtime named in its state)
   before it attaches anything, and the init's exec of the container's
   process drops the mark (entitle_lsm_exec): the container's process is
   held from its first instruction, and so is every process that enters
   the cgroup later (a mark is not inherited: a task made by fork has
   none).  Kept per task, it goes with the task.  */
struct
{
  __uint (type, BPF_MAP_TYPE_TASK_STORAGE);
  __uint (map_flags, BPF_F_NO_PREALLOC);
  __type (key, int);
  __type (value, __u32);
} entitle_setup SEC (".maps");

/* The mark is looked up on the thread group's leader, which is the task
   the pidfd names: a runtime may mount from another of its threads.  */
static __always_inline int
in_runtime_setup (void)
{
  struct task_struct *task = bpf_get_current_task_btf ();
  __u32 *mark = bpf_task_storage_get (&entitle_setup, task->group_leader, 0, 0);

  return mark != NULL && *mark != 0;
}

/* security.confined: no mount, beside seccomp's denial and the
   capabilities it drops; a remount and a bind mount go through here
   too.  */
SEC ("lsm_cgroup/sb_mount")
int
BPF_PROG (entitle_lsm_sb_mount, const char *dev_name, const struct path *path, const char *type, unsigned long flags,
          void *data)
{
  return !(policy ()->flags & POL_CONFINED) || in_runtime_setup ();
}

/* The new mount API's last step (open_tree, fsmount, then move_mount),
   which never reaches sb_mount.  */
SEC ("lsm_cgroup/move_mount")
int
BPF_PROG (entitle_lsm_move_mount, const struct path *from_path, const struct path *to_path)
{
  return !(policy ()->flags & POL_CONFINED) || in_runtime_setup ();
}

/* An exec ends the runtime's setup for the task that makes it: past the
   point of no return, before the new program's first instruction.  A
   void hook: its program returns 1.  */
SEC ("lsm_cgroup/bprm_committed_creds")
int
BPF_PROG (entitle_lsm_exec, struct linux_binprm *bprm)
{
  struct task_struct *task = bpf_get_current_task_btf ();

  bpf_task_storage_delete (&entitle_setup, task->group_leader);
  return 1;
}

/* security.confined: no signal to a task outside the container's cgroup
   (a pid namespace an engine shares between containers shows them).
   Signal 0 only asks whether the task exists.  */
SEC ("lsm_cgroup/task_kill")
int
BPF_PROG (entitle_lsm_task_kill, struct task_struct *target, struct kernel_siginfo *info, int sig,
          const struct cred *cred)
{
  __u64 mine = bpf_get_current_cgroup_id ();
  struct cgroup *cgrp;
  int level;

  if (!(policy ()->flags & POL_CONFINED) || sig == 0)
    return 1;
  cgrp = BPF_CORE_READ (target, cgroups, dfl_cgrp);
  level = BPF_CORE_READ (cgrp, level);
  /* The target's cgroup or one of its ancestors must be ours.  */
  for (int i = 0; i < ENTITLE_CGROUP_LEVELS; i++)
    {
      struct cgroup *a;
      if (level - i < 0)
        break;
      a = BPF_CORE_READ (cgrp, ancestors[level - i]);
      if (BPF_CORE_READ (a, kn, id) == mine)
        return 1;
    }
  return 0;
}
