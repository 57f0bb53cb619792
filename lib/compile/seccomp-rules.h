/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SECCOMP_RULES_H
#define ENTITLE_SECCOMP_RULES_H

#include <sched.h>
#include <stdbool.h>
#include "context.h"
#include "json.h"
#include "outcome.h"

/* The clone(2) flags that make namespaces: what clone may not pass
   without CAP_SYS_ADMIN (Docker's profile masks the same).  */
#define ENTITLE_CLONE_NS_FLAGS \
  (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)

/* What the compiler asks of linux.seccomp, computed from the final set of
   entitlements and capabilities (never replayed in request order).  */
struct entitle_seccomp_plan_s
{
  char **deny;                                   /**< blocked whatever the arguments (NULL-terminated) */
  char **allow;                                  /**< allowed; ignored for names in deny */
  unsigned fx;                                   /**< FX_SOCK_UNIX, FX_SOCK_USER, FX_NO_DEV_MKNOD, FX_PERSONALITY */
  bool clone_ns;                                 /**< CAP_SYS_ADMIN is held: clone may create namespaces */
  bool clone_no_ns;                              /**< CAP_SYS_ADMIN was dropped: clone may not */
  const struct entitle_sys_rule_s *const *rules; /**< custom rows' rules (NULL-terminated), or NULL */
};

/**
 * Apply @plan to spec.linux.seccomp of @spec.  To block a syscall it is
 * removed from every allowing rule whatever its arguments, and denied
 * explicitly, errno written out, wherever the default action would not
 * give the call entitle's errno (an allowing default, or Podman's
 * ERRNO/ENOSYS): a blocked call reads EPERM.  With no seccomp section, a
 * restriction generates a complete profile (default action ERRNO/EPERM)
 * for the host's architectures; allowances alone change nothing there.
 * Rules are written so that runc (which ORs conditions on a repeated
 * argument index) and crun (which ANDs them) read them alike.  A denial
 * libseccomp cannot express is noted in @out as unenforced.
 */
int entitle_seccomp_apply (struct entitle_ctx_s *ctx, json_t *spec, const struct entitle_seccomp_plan_s *plan,
                           struct entitle_outcome_s *out, entitle_error_t *err);

/** Does @seccomp (NULL: no profile) let @name through, with some
    arguments at least: an allowing rule lists it, or the default action
    allows and no other rule lists it?  */
bool entitle_seccomp_lets_through (const json_t *seccomp, const char *name);

/** The names that allowing rules of @seccomp list (sorted, unique, malloc'd). */
char **entitle_seccomp_allowed_names (const json_t *seccomp);

#endif
