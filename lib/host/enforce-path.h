/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_ENFORCE_PATH_H
#define ENTITLE_ENFORCE_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include "catalogue.h"
#include "probe.h"

/* Which path each part of an entitlement takes on a host (DESIGN §4),
   from its row and the probe, in the order entitle prefers them:
   Checmate, eBPF seccomp, BPF LSM, cgroup BPF, classic seccomp, Landlock.
   The first three are layers beside the others, taken where the kernel
   has them; `entitle probe` and `entitle explain` print them.  */

enum entitle_path_kind
{
  ENTITLE_PATH_CHECMATE,
  ENTITLE_PATH_SECCOMP_EBPF,
  ENTITLE_PATH_BPF_LSM,
  ENTITLE_PATH_CGROUP_BPF,
  ENTITLE_PATH_SECCOMP,
  ENTITLE_PATH_LANDLOCK,
  ENTITLE_PATH_KINDS,
};

struct entitle_path_s
{
  enum entitle_path_kind kind;
  const char *name; /**< "Checmate", "eBPF seccomp", ... */
  char detail[160]; /**< its hooks or attach points, or "" */
  bool layer;       /**< a layer beside the others: where absent, nothing is refused */
  bool taken;       /**< on this host */
  char reason[192]; /**< how, or why not */
};

/**
 * The paths @e's parts take on the host @p, into @out (room for
 * ENTITLE_PATH_KINDS); returns how many.  A row with no part that one of
 * them holds (capabilities only) has none.
 */
size_t entitle_paths (const struct entitle_entry_s *e, const struct entitle_probe_s *p, struct entitle_path_s *out);

/**
 * The paths of @e on @p for people, into @buf: those taken, then "; not
 * NAME (DETAIL): REASON" for each that is not.  "" where @e has none.
 */
void entitle_paths_format (const struct entitle_entry_s *e, const struct entitle_probe_s *p, char *buf, size_t len);

#endif
