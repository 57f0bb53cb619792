/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_SECCOMP_DENIALS_H
#define ENTITLE_BPF_SECCOMP_DENIALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "error.h"
#include "policy.h"

/* The syscalls seccomp refuses, as they happen (bpf/progs/seccomp-denials.bpf.c,
   `entitle why --follow`): an fexit program on __secure_computing, loaded
   and attached by the follower for as long as it runs, never pinned, so
   that the host pays for it only while someone watches (docs/denials.md
   has the cost).  Where the kernel refuses fexit programs (no BPF
   trampolines, lockdown) or the build left the program out, nothing can
   observe these denials, and the error says which.  */

/** What the follower does with each denial read.  */
typedef void (*entitle_seccomp_denial_fn) (const struct entitle_seccomp_denial *d, void *data);

struct entitle_seccomp_denials_s
{
  struct seccomp_denials_bpf *skel;
  struct ring_buffer *ring;
  entitle_seccomp_denial_fn fn;
  void *data;
};

/**
 * Load the program and attach it; entitle_seccomp_denials_read then calls
 * @fn with @data for each denial.  @s must stay where it is until
 * entitle_seccomp_denials_stop.
 */
int entitle_seccomp_denials_start (struct entitle_seccomp_denials_s *s, entitle_seccomp_denial_fn fn, void *data,
                                   entitle_error_t *err);

/** A descriptor that polls readable when denials wait to be read.  */
int entitle_seccomp_denials_fd (const struct entitle_seccomp_denials_s *s);

/** Hand each waiting denial to the handler: their number.  */
int entitle_seccomp_denials_read (struct entitle_seccomp_denials_s *s, entitle_error_t *err);

/** Denials the kernel dropped since the start: the ring was full.  */
uint64_t entitle_seccomp_denials_lost (const struct entitle_seccomp_denials_s *s);

/** Detach the program and free it all (a @s never started, or stopped, is fine).  */
void entitle_seccomp_denials_stop (struct entitle_seccomp_denials_s *s);

/**
 * Does this kernel run the program: load and attach it once, then take it
 * off.  false, and why in one line into @why ("the kernel refused ...").
 */
bool entitle_seccomp_denials_supported (char *why, size_t len);

#endif
