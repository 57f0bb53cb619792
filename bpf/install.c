/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <bpf/bpf.h>
#include "install.h"

int
entitle_bpf_attach (struct entitle_bpf_s *b, unsigned attach, int cgfd, entitle_error_t *err)
{
  int i;

  /* Attached this way (BPF_F_ALLOW_MULTI, no link), the kernel drops the
     attachment with the cgroup.  A program attached already (the hook ran
     twice: from the shim and from hooks.d) stays: the kernel refuses it a
     second time with EEXIST, which asking first would cost two calls a
     program.  */
  for (i = 0; i < ATTACH_COUNT; i++)
    {
      if (!(attach & ATTACH_BIT (i)) || b->prog[i] < 0)
        continue;
      if (bpf_prog_attach (b->prog[i], cgfd, entitle_attach_points[i].type, BPF_F_ALLOW_MULTI) < 0 && errno != EEXIST)
        return entitle_make_sys_error (err, "attach cgroup BPF %s", entitle_attach_points[i].name);
    }
  return 0;
}

int
entitle_bpf_install (struct entitle_bpf_s *b, const struct entitle_policy *policy, uint64_t cgroup_id,
                     entitle_error_t *err)
{
  __u64 key = cgroup_id;

  if (bpf_map_update_elem (b->policy, &key, policy, BPF_ANY) < 0)
    return entitle_make_sys_error (err, "write the policy of cgroup %llu", (unsigned long long)cgroup_id);
  return 0;
}
