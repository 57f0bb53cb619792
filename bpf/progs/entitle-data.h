/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_DATA_H
#define ENTITLE_DATA_H

/* The per-container data entitle gives an admin's BPF program (a custom
   entitlement's `bpf`, entitle.json(5)): installed as <entitle/entitle-data.h>,
   included by the program and by entitle's loader (bpf/custom-progs.c).

   A program that wants it declares a map named `entitle_data`:

   - at a cgroup attach point (connect4, sock_create, ...): the cgroup's
     local storage, as entitle's own policy (bpf/progs/policy.h),

         ENTITLE_DATA_MAP;
         ...
         struct entitle_data *d = bpf_get_local_storage (&entitle_data, 0);

     entitle-hook loads the program for each container, attaches it to
     the container's cgroup (BPF_F_ALLOW_MULTI, beside entitle's own) and
     writes the value keyed by the cgroup's id; the kernel frees the
     program, its map and the value with the cgroup.  The value is zero
     (flags 0) between the attach and the write: a program must let a call
     through then, or deny it, as its author chooses (the container's init
     waits for the hook meanwhile, and runs nothing).

   - at `seccomp` and `checmate/HOOK` (the seed interfaces, where a kernel
     has them): a BPF_MAP_TYPE_HASH of the same key and value, looked up
     with bpf_get_current_cgroup_id (ENTITLE_DATA_HASH_MAP).

   The words are the entitlement's `data`, in order; n says how many.  */

#include <linux/types.h>

#define ENTITLE_DATA_WORDS 16
#define ENTITLE_DATA_SET   1u /* flags: entitle wrote the value */

struct entitle_data
{
  __u64 cgroup_id; /* the cgroup the program was attached to */
  __u32 flags;     /* ENTITLE_DATA_SET */
  __u32 n;         /* words given */
  __u64 words[ENTITLE_DATA_WORDS];
};

#ifdef __bpf__
#define ENTITLE_DATA_MAP                        \
  struct                                        \
  {                                             \
    __uint (type, BPF_MAP_TYPE_CGROUP_STORAGE); \
    __type (key, __u64);                        \
    __type (value, struct entitle_data);        \
  } entitle_data SEC (".maps")
#define ENTITLE_DATA_HASH_MAP            \
  struct                                 \
  {                                      \
    __uint (type, BPF_MAP_TYPE_HASH);    \
    __uint (max_entries, 1024);          \
    __type (key, __u64);                 \
    __type (value, struct entitle_data); \
  } entitle_data SEC (".maps")
#endif

#endif
