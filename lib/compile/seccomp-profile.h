/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SECCOMP_PROFILE_H
#define ENTITLE_SECCOMP_PROFILE_H

#include "context.h"
#include "json.h"

/* The profile entitle writes where a config has none, and the
   architectures its rules cover.  */

/**
 * A complete profile for this host: default ERRNO/EPERM, the native
 * architecture and its sub-architectures, every syscall libseccomp knows
 * except the privileged ones, which @process's bounding set gates.
 */
json_t *entitle_seccomp_generate (struct entitle_ctx_s *ctx, const json_t *process);

/**
 * The seccomp architectures of this host as the profile names them, the
 * native one first, then those whose binaries it also runs (x86 and x32
 * on x86_64); NULL on an architecture entitle's rules were not written
 * for (entitlements(7) lists the supported ones).
 */
const char *const *entitle_seccomp_host_archs (void);

#endif
