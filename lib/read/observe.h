/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_OBSERVE_H
#define ENTITLE_OBSERVE_H

#include "json.h"

/* What entitle learn adds to the engine's config for its run: logging
   only, never a widening.  The config stays as the engine gave it; its
   seccomp profile notifies (SCMP_ACT_NOTIFY, to entitle learn's listener)
   the calls it allows of the syscalls a row may refuse, so each is seen
   and then runs as the profile allowed it (where the profile denies one,
   it stays denied, unseen); entitle-hook attaches the cgroup programs in
   counting mode at createRuntime.  */

/**
 * Edit @spec (a copy of the engine's config for a bundle in another
 * directory) for entitle learn: paths relative to the bundle @bundle made
 * absolute, the profile's allowed calls of the watched syscalls notified
 * to the unix socket @listener (a profile that allows every call by
 * default where there was none), and @hook (an OCI hook object) the one
 * hook, at createRuntime: the engine's hooks and cgroupsPath are its own
 * container's, not the run's.
 */
void entitle_observe_config (json_t *spec, const char *bundle, const char *listener, json_t *hook);

#endif
