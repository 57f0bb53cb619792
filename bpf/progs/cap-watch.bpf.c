/* SPDX-License-Identifier: GPL-2.0-or-later */
/* entitle learn's capability programs: each capability check of a task in
   the watched cgroup (or one below it), granted or refused, noted once per
   capability and result with the syscall it came from.  Two ways in, the
   loader (bpf/cap-watch.c) loads the first the kernel takes:

   - tp_btf/cap_capable, the tracepoint of recent kernels (6.18 has it,
     6.12 not), which does not say whether the check only asked
     (CAP_OPT_NOAUDIT, as every accounted mmap asks for CAP_SYS_ADMIN):
     such a check is told by its caller, one of the kernel functions the
     loader lists by address;
   - fexit/cap_capable, which reads the options.

   Nothing is watched (watch_cgroup 0) until learn arms it, after the
   runtime has set the container up and before its command runs: the
   runtime's own setup is not the container's use.  Kernel types are
   declared here by name (CO-RE), so no vmlinux.h is needed.  */

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "cap-checks.h"

#define CAP_OPT_NOAUDIT (1u << 1) /* include/linux/security.h */

char LICENSE[] SEC ("license") = "GPL";

/* [start, end) of each function that checks without auditing.  */
const volatile __u64 noaudit[ENTITLE_CAP_NOAUDIT][2] = {};

__u64 watch_cgroup = 0;
__u32 watch_level = 0;
struct entitle_cap_seen seen[2][ENTITLE_CAP_SLOTS] = {}; /* [granted][cap] */

struct pt_regs___entitle
{
  unsigned long orig_ax;
} __attribute__ ((preserve_access_index));

static __always_inline int
watched (void)
{
  return watch_cgroup != 0 && bpf_get_current_ancestor_cgroup_id ((int)watch_level) == watch_cgroup;
}

static __always_inline int
current_syscall (void)
{
#if defined(__TARGET_ARCH_x86)
  struct pt_regs___entitle *regs = (void *)bpf_task_pt_regs (bpf_get_current_task_btf ());
  long nr = (long)BPF_CORE_READ (regs, orig_ax);
  return nr >= 0 && nr < 4096 ? (int)nr : -1;
#else
  return -1;
#endif
}

static __always_inline void
note (__u64 cap, __u64 ret)
{
  struct entitle_cap_seen *s;

  if (cap >= ENTITLE_CAP_SLOTS)
    return;
  /* Masked as well: the verifier bounds the index by the mask.  Two first
     checks at once on two CPUs both write: either is right.  */
  s = &seen[(int)ret == 0][cap & (ENTITLE_CAP_SLOTS - 1)];
  if (s->seen)
    return;
  s->syscall = current_syscall ();
  s->seen = 1;
}

/* Does a frame of the kernel stack lie in one of the listed functions?  */
static __always_inline int
only_asks (void *ctx)
{
  __u64 frames[ENTITLE_CAP_FRAMES] = {};
  long got = bpf_get_stack (ctx, frames, sizeof (frames), 0);
  __u64 n = got > 0 ? (__u64)got / sizeof (__u64) : 0;

  for (__u64 i = 0; i < ENTITLE_CAP_FRAMES && i < n; i++)
    for (int k = 0; k < ENTITLE_CAP_NOAUDIT; k++)
      if (frames[i] >= noaudit[k][0] && frames[i] < noaudit[k][1])
        return 1;
  return 0;
}

/* cap_capable (cred, target_ns, capable_ns, cap, ret) */
SEC ("tp_btf/cap_capable")
int
entitle_cap_tp (unsigned long long *ctx)
{
  if (watched () && !only_asks (ctx))
    note ((__u32)ctx[3], ctx[4]);
  return 0;
}

/* int cap_capable (cred, target_ns, cap, opts), then its return value */
SEC ("fexit/cap_capable")
int
entitle_cap_fexit (unsigned long long *ctx)
{
  if (watched () && !((unsigned)ctx[3] & CAP_OPT_NOAUDIT))
    note ((__u32)ctx[2], ctx[4]);
  return 0;
}
