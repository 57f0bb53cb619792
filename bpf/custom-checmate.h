/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_CUSTOM_CHECMATE_H
#define ENTITLE_BPF_CUSTOM_CHECMATE_H

#include <stdbool.h>
#include <stdint.h>
#include "catalogue.h"
#include "error.h"
#include "seed-kernel.h"

/* An admin's program at `checmate/HOOK` (entitle.json(5)), in
   entitle-hook where the kernel has Checmate: loaded and pinned once per
   host under @dir, installed at its hook (once: the kernel tells one
   installed already), and the container's entitle_data written by its
   cgroup id.  Every call to Checmate or its program type goes through
   @k.  */

struct entitle_custom_checmate_s
{
  int prog; /**< the loaded program */
  int data; /**< its entitle_data map (hash by cgroup id), or -1 when it has none */
};

/**
 * Open the program @p (at `checmate/HOOK`) of the custom row @e as pinned
 * in @dir, or load it from its object (its instructions and references to
 * entitle_data, its only map, read from the ELF) and pin it with its map.
 * An error names @e.
 */
int entitle_custom_checmate_open (const struct entitle_kernel_s *k, const struct entitle_entry_s *e,
                                  const struct entitle_prog_s *p, const char *dir, struct entitle_custom_checmate_s *c,
                                  entitle_error_t *err);

/**
 * Install @c at @p's hook (with @lock, its deny_reset too), drop the
 * entitle_data of cgroups that are gone (@mountfd: the cgroup2 root), and
 * write the row @e's data for the cgroup @cgroup_id.  An error names @e.
 */
int entitle_custom_checmate_enforce (const struct entitle_kernel_s *k, const struct entitle_entry_s *e,
                                     const struct entitle_prog_s *p, const struct entitle_custom_checmate_s *c,
                                     uint64_t cgroup_id, bool lock, int mountfd, entitle_error_t *err);

void entitle_custom_checmate_close (struct entitle_custom_checmate_s *c);

/**
 * Drop the entries of the cgroups that are gone (@mountfd: the cgroup2
 * root) from the entitle_data of every program pinned in @dir
 * (entitle-hook's poststop, as the Checmate layer's policy).
 */
void entitle_custom_checmate_sweep (const char *dir, int mountfd);

#endif
