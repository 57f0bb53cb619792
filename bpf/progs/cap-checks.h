/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_CAP_CHECKS_H
#define ENTITLE_BPF_CAP_CHECKS_H

/* What bpf/progs/cap-watch.bpf.c (entitle learn's capability programs) and its
   loader, bpf/cap-watch.c, share.  */

#include <linux/types.h>

#define ENTITLE_CAP_SLOTS   64 /* capability numbers 0..63 (CAP_LAST_CAP is 40 in 6.18) */
#define ENTITLE_CAP_NOAUDIT 8  /* kernel functions whose checks only ask (tp_btf) */
#define ENTITLE_CAP_FRAMES  8  /* kernel stack frames looked at for them */

/* One (capability, granted or refused) of the watched cgroup: the first
   check of it only.  */
struct entitle_cap_seen
{
  __u32 seen;    /* set once, by the first check */
  __s32 syscall; /* the syscall the first check came from, -1 outside one */
};

#endif
