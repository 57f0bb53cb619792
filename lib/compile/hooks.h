/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_HOOKS_H
#define ENTITLE_HOOKS_H

#include "context.h"
#include "entitlements.h"
#include "json.h"

/** Does @set need the cgroup BPF programs (a row with attach points)?  */
bool entitle_needs_bpf (const struct entitle_set_s *set);

/** The first row of @set that needs them, or NULL.  */
const struct entitle_entry_s *entitle_bpf_row (const struct entitle_set_s *set);

/**
 * Add entitle-hook to @spec's createRuntime hooks (and poststop where the
 * runtime manages no cgroup: ctx->cgroup_unmanaged) when @set
 * needs cgroup BPF (once: an entry already there is kept).
 */
int entitle_add_hooks (struct entitle_ctx_s *ctx, json_t *spec, const struct entitle_set_s *set,
                       entitle_error_t *err);

#endif
