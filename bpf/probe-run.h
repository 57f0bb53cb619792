/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PROBE_RUN_H
#define ENTITLE_PROBE_RUN_H

#include <stdarg.h>
#include <stdbool.h>
#include <bpf/libbpf.h>
#include "error.h"
#include "probe.h"

/* Probing this host: loads and attaches BPF programs, so it links libbpf
   and runs in entitle-hook only (`entitle-hook probe --json`).  */

/* The seed patch sets, which mainline lacks, are asked through the
   kernel table of lib/host/seed-kernel.h.  */

/** A libbpf print callback that prints nothing: a refusal the probe
    expects is no warning.  */
int entitle_libbpf_silent (enum libbpf_print_level level, const char *fmt, va_list ap);

/** Probe this host (links libbpf).  */
int entitle_probe_run (struct entitle_probe_s *p, entitle_error_t *err);

#endif
