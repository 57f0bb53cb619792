/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_INSTALL_H
#define ENTITLE_BPF_INSTALL_H

#include <stdbool.h>
#include <stdint.h>
#include "loader.h"

/* What one container gets from the shared objects: its attachments and
   its cgroup's storage value.  */

/**
 * Attach the programs of the points in @attach (ATTACH_BIT mask) to the
 * cgroup @cgfd (BPF_F_ALLOW_MULTI: the kernel drops them with the
 * cgroup).  A program attached there already stays as it is.
 */
int entitle_bpf_attach (struct entitle_bpf_s *b, unsigned attach, int cgfd, entitle_error_t *err);

/**
 * Whether the program @fd is attached to the cgroup @cgfd at @type; with
 * @like, also whether one of its name and instructions (its tag) is, as
 * the same program of an admin's object loaded again for each container
 * would be.  Without @like only @fd itself counts: the pinned programs
 * read the pinned maps, an older build's copy of them other maps.
 */
bool entitle_bpf_attached (int fd, int cgfd, enum bpf_attach_type type, bool like);

/**
 * Write @policy into the storage of the cgroup @cgroup_id, which exists
 * once a program is attached there (entitle_bpf_attach first).
 */
int entitle_bpf_install (struct entitle_bpf_s *b, const struct entitle_policy *policy, uint64_t cgroup_id,
                         entitle_error_t *err);

#endif
