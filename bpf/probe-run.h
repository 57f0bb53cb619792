/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PROBE_RUN_H
#define ENTITLE_PROBE_RUN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include "error.h"
#include "probe.h"

/* Probing this host: loads and attaches BPF programs, so it links libbpf,
   and runs in the process that asks (entitle-full and entitle-hook both
   link it): bpf/probe-cache.c keeps the answer for the boot.  A build
   without BPF tries no program (the stubs below the #ifdef).  */

/* The seed patch sets, which mainline lacks, are asked through the
   kernel table of lib/kernel/seed-kernel.h, each by its feature's probe
   (lib/kernel/checmate-prctl.h, lib/kernel/seccomp-ebpf.h).  */

#ifdef ENTITLE_HAVE_BPF
#include <bpf/libbpf.h>
/** A libbpf print callback that prints nothing: a refusal the probe
    expects is no warning.  */
int entitle_libbpf_silent (enum libbpf_print_level level, const char *fmt, va_list ap);
#endif

/**
 * Whether a BPF_LSM_CGROUP program runs on this host: loaded, attached to
 * a cgroup made below @cgroup2 (a cgroup v2 mount) and seen to run for a
 * child that binds a socket there; the reason into @why where it did not.
 * Every path that relies on lsm_cgroup programs asks this (the probe's
 * `lsm_cgroup`, the loader before it pins them): a kernel that builds the
 * bpf LSM but does not list it loads and attaches them, and never runs
 * them.
 */
bool entitle_probe_lsm_cgroup (const char *cgroup2, char *why, size_t len);

/** Probe this host (links libbpf).  */
int entitle_probe_run (struct entitle_probe_s *p, entitle_error_t *err);

#endif
