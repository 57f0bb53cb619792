/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_CAP_WATCH_H
#define ENTITLE_BPF_CAP_WATCH_H

#include <stddef.h>
#include <stdint.h>
#include "cap-checks.h"
#include "cap-use.h"
#include "error.h"

/* entitle learn's capability programs (bpf/progs/cap-watch.bpf.c): loaded for
   one run and never pinned, by the first way in this kernel takes, each
   tried by loading and attaching it once: the cap_capable tracepoint
   (tp_btf, recent kernels), then fexit on cap_capable.  BPF LSM `capable`
   is not a third: it runs on the same trampolines as fexit (no kernel has
   one without the other), and never for a refused check (the capability
   LSM, first, ends the chain).  They watch nothing until told which
   cgroup to watch.  */

/* Each capability at most twice: granted, refused.  */
#define ENTITLE_CAP_WATCH_USES (2 * ENTITLE_CAP_SLOTS)

struct cap_watch_bpf;

struct entitle_cap_watch_s
{
  struct cap_watch_bpf *skel;
  const char *way; /**< "tp_btf/cap_capable", "fexit/cap_capable" */
};

/**
 * Load and attach the first way in that works.  Where none does, the
 * error says why for each ("tp_btf/cap_capable: ...; fexit/cap_capable:
 * ...").
 */
int entitle_cap_watch_open (struct entitle_cap_watch_s *c, entitle_error_t *err);

/** Watch the cgroup of id @cgroup, @level levels below the root, and the
    cgroups below it.  */
void entitle_cap_watch_arm (struct entitle_cap_watch_s *c, uint64_t cgroup, unsigned level);

/** The checks seen, each (capability, result) once, by capability and
    refused first, into @out (room for @room); returns the count.  */
size_t entitle_cap_watch_read (const struct entitle_cap_watch_s *c, struct entitle_cap_use_s *out, size_t room);

void entitle_cap_watch_close (struct entitle_cap_watch_s *c);

#endif
