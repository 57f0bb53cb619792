/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_CHECMATE_H
#define ENTITLE_BPF_CHECMATE_H

#include <stdbool.h>
#include <stdint.h>
#include "attach.h"
#include "error.h"
#include "log.h"
#include "policy.h"
#include "checmate-prctl.h"
#include "seed-kernel.h"

/* The Checmate layer (DESIGN §4), in entitle-hook: its programs loaded
   once per host and pinned with their two maps, installed at their hooks
   (once: the kernel tells a program installed already), and each
   container's policy written by its cgroup id (bpf/progs/policy.h).
   Every call to Checmate or its program type goes through @k.  */

struct entitle_checmate_s
{
  int layout; /**< array map: struct entitle_checmate_layout */
  int policy; /**< hash map: cgroup id -> struct entitle_policy */
  int prog[ENTITLE_CHECMATE_PROGS];
};

/** The pins' directory, below ENTITLE_BPF_PINS.  */
#define ENTITLE_CHECMATE_DIR ENTITLE_BPF_PINS "/checmate"

/**
 * The offsets the programs read the task's cgroup id at, from the running
 * kernel's BTF.
 */
int entitle_checmate_layout (struct entitle_checmate_layout *l, entitle_error_t *err);

/** Make the maps and load the programs (nothing pinned).  */
int entitle_checmate_load (const struct entitle_kernel_s *k, struct entitle_checmate_s *c, entitle_error_t *err);

/**
 * Open what is pinned in @dir, or, where nothing is or another build's
 * is, load and pin it (under the directory's lock, as the cgroup
 * programs').
 */
int entitle_checmate_open (const struct entitle_kernel_s *k, struct entitle_checmate_s *c, const char *dir,
                           entitle_error_t *err);

void entitle_checmate_close (struct entitle_checmate_s *c);

/**
 * Install the programs whose bits meet @policy at their hooks, in the
 * order of entitle_checmate_progs; a program installed there already is
 * left as it is.  With @lock (the admin config's "lock"), set each of
 * those hooks' deny_reset too.
 */
int entitle_checmate_install (const struct entitle_kernel_s *k, const struct entitle_checmate_s *c, unsigned policy,
                              bool lock, const struct entitle_log_s *log, entitle_error_t *err);

/**
 * Write @policy as the entry of the cgroup @id (entitle-hook sweeps the
 * map first: entitle_checmate_sweep).
 */
int entitle_checmate_write (const struct entitle_checmate_s *c, uint64_t id, const struct entitle_policy *policy,
                            entitle_error_t *err);

/** Drop the entries of the cgroups that are gone (@mountfd: a cgroup2 mount).  */
void entitle_checmate_sweep (int policy_map, int mountfd);

#endif
