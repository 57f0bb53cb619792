/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PROBE_RUN_H
#define ENTITLE_PROBE_RUN_H

#include <stdbool.h>
#include "error.h"
#include "probe.h"

/* Probing this host: loads and attaches BPF programs, so it links libbpf
   and runs in entitle-hook only (`entitle-hook probe --json`).  */

/** prctl(2), or a fake kernel interface in tests.  */
typedef long (*entitle_prctl_fn) (int op, unsigned long a, unsigned long b, unsigned long c,
                                  unsigned long d);

/** The seed patch sets, which mainline lacks: asked through @fn.  */
bool entitle_probe_checmate (entitle_prctl_fn fn);
bool entitle_probe_seccomp_extended (entitle_prctl_fn fn);

/** Probe this host (links libbpf).  */
int entitle_probe_run (struct entitle_probe_s *p, entitle_error_t *err);

#endif
