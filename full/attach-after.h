/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_ATTACH_AFTER_H
#define ENTITLE_ATTACH_AFTER_H

#include "commands.h"
#include "json.h"
#include "entitlements.h"

/**
 * create whose config @spec (written) has a cgroup BPF part: run the
 * runtime's create as a child (signals passed on), then attach and record
 * the policy of @final, the set create decided, in the container's cgroup
 * as entitle-hook's createRuntime does.  Exits with the runtime's status, or 1 after deleting the
 * container when the attach fails; returns only an error of its own.
 */
int shim_create_attach_after (struct shim_s *s, const json_t *spec, const struct entitle_set_s *final,
                              entitle_error_t *err);

#endif
