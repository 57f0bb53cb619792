/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_STORAGE_H
#define ENTITLE_BPF_STORAGE_H

/* The policy's storage (bpf/progs/policy.h), one map that the cgroup
   programs (entitle.bpf.c) and the BPF LSM programs (lsm.bpf.c) share:
   pinned by name, so the second object loaded reuses the first's.  */

struct
{
  __uint (type, BPF_MAP_TYPE_CGROUP_STORAGE);
  __type (key, __u64);
  __type (value, struct entitle_policy);
  __uint (pinning, LIBBPF_PIN_BY_NAME);
} entitle_policy SEC (".maps");

static __always_inline struct entitle_policy *
policy (void)
{
  return bpf_get_local_storage (&entitle_policy, 0);
}

#endif
