/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_LAYERS_H
#define ENTITLE_LAYERS_H

#include <stdbool.h>
#include "context.h"
#include "entitlements.h"
#include "error.h"
#include "policy.h"

/* The seed layer a compile decides on (DESIGN §4): eBPF seccomp, a layer
   beside what enforces the promise everywhere (seccomp), so a host
   without it refuses nothing: the set simply does not take it.  The
   kernel is asked once per call (ctx), one prctl, and only for a set with
   a part the layer would hold.  Checmate is entitle-hook's alone
   (oci-hooks/checmate.c): nothing of it is written into the config.  */

/**
 * Does a container with @set take the eBPF seccomp layer here: it has
 * syscall rules, and the kernel has eBPF seccomp filters?  (create loads
 * the filter, the in-container helper installs it.)
 */
bool entitle_layers_seccomp (struct entitle_ctx_s *ctx, const struct entitle_set_s *set);

/** One of the admin's programs at `seccomp` (entitle.json(5)).  */
struct entitle_seccomp_custom_s
{
  const struct entitle_entry_s *entry;
  const struct entitle_prog_s *prog;
};

/**
 * The admin's programs at the attach point `seccomp` of the custom rows of
 * @set, each once, in @out (at most @max; @out may be NULL to count).
 * Returns how many there are.
 */
size_t entitle_layers_seccomp_custom (const struct entitle_set_s *set, struct entitle_seccomp_custom_s *out,
                                      size_t max);

/**
 * How many eBPF seccomp filters a container with @set takes here: none
 * where the kernel has no eBPF seccomp, else entitle's own (where
 * entitle_layers_seccomp) and then each admin program at `seccomp`.  The
 * runtime passes them at consecutive fds from entitle_helper_seccomp_fd,
 * and the helper installs them in that order.
 */
size_t entitle_layers_seccomp_filters (struct entitle_ctx_s *ctx, const struct entitle_set_s *set);

/**
 * The eBPF seccomp filter's decisions for @set on the native ABI: the
 * syscalls its rows deny (but those another row allows), and the rules by
 * argument of its seccomp effects.  A name this ABI lacks is left out, as
 * libseccomp leaves it out of the classic profile.
 */
void entitle_layers_seccomp_policy (const struct entitle_set_s *set, struct entitle_seccomp_policy *p);

#endif
