/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PROBE_RUN_H
#define ENTITLE_PROBE_RUN_H

#include <stdbool.h>
#include "error.h"
#include "probe.h"

/* Probing this host: loads and attaches BPF programs, so it links libbpf
   and runs in entitle-hook only (`entitle-hook probe --json`).  */

/* The seed patch sets, which mainline lacks, are asked through the
   kernel table of lib/host/seed-kernel.h.  */

/** Probe this host (links libbpf).  */
int entitle_probe_run (struct entitle_probe_s *p, entitle_error_t *err);

#endif
