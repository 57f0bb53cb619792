/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_HOLD_H
#define ENTITLE_HOLD_H

#include "context.h"
#include "entitlements.h"
#include "json.h"

/* What keeps a container from entitle's enforcement of every container,
   its own included (DESIGN §8): a container that holds a capability of
   the reach table (lib/catalogue/catalogue.c: CAP_SYS_ADMIN, CAP_BPF,
   CAP_DAC_READ_SEARCH), whichever entitlement or engine gave it, is held
   (FX_HOLD): seccomp denies the syscalls of that table and it gets a
   cgroup namespace of its own, so that a cgroup2 mount shows its own
   subtree only.  security.insecure (FX_PRIVILEGED) is not held.  */

/**
 * @fx with FX_HOLD added when @process (its final capabilities) holds a
 * capability of the reach table, in any of its sets, and @fx has no
 * FX_PRIVILEGED.
 */
unsigned entitle_hold_fx (const json_t *process, unsigned fx);

/**
 * Refuse the compiled @spec of @set where the hold cannot keep the
 * container in: with CAP_SYS_ADMIN or CAP_SYS_PTRACE, in the host's pid
 * namespace or one given by path (setns into another cgroup namespace,
 * ptrace of another container), without a mount namespace of its own, with
 * a cgroup namespace given by path, with a bind of the host's cgroup tree,
 * or beside cgroup BPF where the runtime manages no cgroup (the cgroup
 * namespace would be rooted above the cgroup the hook makes); with a row
 * that allows a syscall the hold denies.  One line naming what holds the
 * capability and what it is combined with (EPERM).  Called on the final
 * set only: one entitlement alone (the trust rule) may lack what another
 * adds.
 */
int entitle_hold_check (const struct entitle_ctx_s *ctx, const json_t *spec, const struct entitle_set_s *set,
                        entitle_error_t *err);

#endif
