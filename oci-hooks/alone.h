/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_HOOK_ALONE_H
#define ENTITLE_HOOK_ALONE_H

#include "context.h"
#include "entitlements.h"
#include "error.h"

/**
 * For entitle-hook run from hooks.d: refuse @set (EPERM, naming its
 * entitlements that are not cgroup BPF alone) unless the config in
 * @bundle already holds what entitle's create writes for it.
 */
int hook_check_applied (struct entitle_ctx_s *ctx, const char *bundle, const struct entitle_set_s *set,
                        entitle_error_t *err);

#endif
