/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_LOADER_H
#define ENTITLE_BPF_LOADER_H

#include <stdbool.h>
#include <stdint.h>
#include "attach.h"
#include "cgroup.h"
#include "error.h"
#include "policy.h"

/* entitle's shared BPF objects: the programs and the policy storage map,
   loaded and pinned once under ENTITLE_BPF_DIR and reused by every
   container.  Per container there is only what the kernel keeps with the
   cgroup: the attachments and the storage value (bpf/progs/policy.h).  */

#define ENTITLE_BPF_FS  "/sys/fs/bpf"
#define ENTITLE_BPF_DIR ENTITLE_BPF_PINS

struct entitle_bpf_s
{
  int prog[ATTACH_COUNT]; /**< -1 for points without a program */
  int policy;             /**< the cgroup storage map */
};

/**
 * Open the pinned objects.  With @create, load and pin them first if they
 * are not there or another build pinned them (mounting bpffs if needed);
 * without, return 0 when they are not there.  Returns 1 when open.
 */
int entitle_bpf_open (struct entitle_bpf_s *b, bool create, entitle_error_t *err);

void entitle_bpf_close (struct entitle_bpf_s *b);

#endif
