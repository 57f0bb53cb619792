/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_READ_H
#define ENTITLE_BPF_READ_H

#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>
#include "error.h"
#include "policy.h"

/* Reading what entitle-hook pinned (ENTITLE_BPF_PINS) and what the kernel
   attached, with bare bpf(2): lib/ links no libbpf (bpf/, above it, does),
   and reading needs four commands.  entitle-full links libbpf since its
   create attaches itself (issue 25), so these could be libbpf's calls.
   Each call passes a whole union bpf_attr, zeroed, so a kernel that
   writes fields a shorter one would not hold overruns nothing.  */

/** The object pinned as @name in entitle's pin directory; -1 and errno. */
int entitle_bpf_pin_get (const char *name);

/** Look @key up in the map @fd into @value; -1 and errno. */
int entitle_bpf_lookup (int fd, const void *key, void *value);

/**
 * The ids of the programs attached to the cgroup @cgfd for @type (with
 * BPF_F_QUERY_EFFECTIVE in @flags: those that run there, inherited
 * included) into @ids, @n in: its room, out: the count; -1 and errno.
 */
int entitle_bpf_cgroup_progs (int cgfd, enum bpf_attach_type type, uint32_t flags, uint32_t *ids, uint32_t *n);

/** The kernel's facts on the program of id @id; -1 and errno. */
int entitle_bpf_prog_info_by_id (uint32_t id, struct bpf_prog_info *info);

/** The kernel's facts on the object @fd (a struct bpf_prog_info or bpf_map_info of @len bytes). */
int entitle_bpf_info (int fd, void *info, uint32_t len);

/**
 * The records of the store (bpf/progs/policy.h), oldest first, into a
 * malloc'd array.  ENOENT when there is no store: no program of this
 * build was ever loaded on this boot.
 */
int entitle_store_read (struct entitle_event **events, size_t *n, entitle_error_t *err);

/**
 * The sequence number of the store's newest record (0: none yet) into
 * @seq.  ENOENT when there is no store.
 */
int entitle_store_last (uint64_t *seq, entitle_error_t *err);

/**
 * The record of sequence number @seq into @ev: 1; 0 when its slot holds
 * another (being written, or already replaced by a newer one).
 */
int entitle_store_get (uint64_t seq, struct entitle_event *ev, entitle_error_t *err);

/** The policy entitle's programs keep for the cgroup @cgroup_id: 1 read, 0 none. */
int entitle_policy_read (uint64_t cgroup_id, struct entitle_policy *policy, entitle_error_t *err);

#endif
