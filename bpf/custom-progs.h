/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_CUSTOM_PROGS_H
#define ENTITLE_BPF_CUSTOM_PROGS_H

#include <stdint.h>
#include "catalogue.h"
#include "error.h"
#include "seed-kernel.h"

/* The admin's own BPF programs (a custom entitlement's `bpf`,
   entitle.json(5)): checked when the admin config is loaded, and loaded
   and attached by entitle-hook for each container that has the
   entitlement, with the per-container data of bpf/progs/entitle-data.h.  */

/**
 * Check every program of the custom rows of @cat: its object opens (an
 * ELF BPF object), it holds the program, whose type (from its ELF
 * section) is what the attach point takes, and a map `entitle_data` it
 * has is of the layout entitle-data.h says.  One line naming the admin
 * config, the entitlement and the problem.
 */
int entitle_bpf_custom_check (const struct entitle_catalogue_s *cat, entitle_error_t *err);

/**
 * Load the program @p of the custom row @e and attach it to the cgroup
 * @cgfd (id @cgroup_id) at its cgroup point (BPF_F_ALLOW_MULTI: the kernel
 * drops it with the cgroup), then write its entitle_data.  A program of
 * the same instructions and name attached there already (the hook ran
 * twice) is left as it is.
 */
int entitle_bpf_custom_attach (const struct entitle_entry_s *e, const struct entitle_prog_s *p, int cgfd,
                               uint64_t cgroup_id, entitle_error_t *err);

/**
 * Load the program @p of the custom row @e, whose attach point is
 * `seccomp`, as an eBPF seccomp filter through the kernel @k (the seed
 * interface: create does this where the kernel has it, and the helper
 * installs the fd on the container's process).  Returns its fd; an error
 * names @e.
 */
int entitle_bpf_custom_seccomp_load (const struct entitle_kernel_s *k, const struct entitle_entry_s *e,
                                     const struct entitle_prog_s *p, entitle_error_t *err);

#endif
