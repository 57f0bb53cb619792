/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_HOOK_H
#define ENTITLE_HOOK_H

#include <stdbool.h>
#include <sys/types.h>
#include "context.h"
#include "json.h"

/* entitle-hook: the OCI hook that gives each container its cgroup BPF
   policy (createRuntime) and takes it away again (poststop).  */

struct hook_state_s
{
  const char *id;
  pid_t pid;
  const char *bundle;
  const char *root;         /**< --root of the runtime, "" when not given */
  json_t *doc;              /**< the state on stdin */
  struct entitle_log_s log; /**< stderr, and the runtime's --log file if given */
};

int hook_create_runtime (struct entitle_ctx_s *ctx, const struct hook_state_s *st);
int hook_poststop (struct entitle_ctx_s *ctx, const struct hook_state_s *st);
int hook_probe (bool json);

#endif
