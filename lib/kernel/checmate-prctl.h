/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CHECMATE_PRCTL_H
#define ENTITLE_CHECMATE_PRCTL_H

#include <stdbool.h>
#include "error.h"
#include "seed-kernel.h"

/* The Checmate feature's calls to the kernel (DESIGN §4, seeds 002-006):
   whether the kernel has it, and its three operations (seed 004),
   prctl(PR_CHECMATE, OP, HOOK, FD), through the kernel table @k, with the
   seed's answers in words.  The Checmate layer's loader, which loads and
   pins entitle's programs and installs them through these, is
   bpf/checmate.c; an admin's program at a hook is bpf/custom-checmate.c.  */

/**
 * Does the kernel @k have Checmate?  One prctl, whose errno tells a
 * patched kernel from mainline (which knows no PR_CHECMATE: EINVAL);
 * cheap enough to ask at create, where a set has a part the layer would
 * hold.
 */
bool entitle_seed_checmate (const struct entitle_kernel_s *k);

/**
 * Run @op (CHECMATE_INSTALL_HOOK with the program @fd, CHECMATE_DENY_RESET
 * or CHECMATE_RESET) at the hook named @hook ("socket_connect").  Returns
 * 0 when done, 1 when it was done already (the program is installed there
 * already: EEXIST; the hook is locked already: EALREADY), or an error: a
 * locked hook refuses reset (EPERM), a hook the kernel's Checmate runs
 * nothing at refuses everything (ENOENT), a kernel without Checmate knows
 * no PR_CHECMATE (EINVAL).
 */
int entitle_checmate_prctl (const struct entitle_kernel_s *k, int op, const char *hook, int fd, entitle_error_t *err);

/**
 * Install the program @fd (BPF_PROG_TYPE_CHECMATE) at @hook, and with
 * @lock set the hook's deny_reset right after (the admin config's
 * "lock").  Returns 0 when installed, 1 when it was there already, or an
 * error as entitle_checmate_prctl's.
 */
int entitle_checmate_attach (const struct entitle_kernel_s *k, const char *hook, int fd, bool lock,
                             entitle_error_t *err);

#endif
