/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_STORE_READ_H
#define ENTITLE_STORE_READ_H

#include <stddef.h>
#include <stdint.h>
#include "error.h"
#include "policy.h"

/* What entitle's programs keep in their pinned maps (bpf/progs/policy.h):
   the store of denials, and each cgroup's policy.  */

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
