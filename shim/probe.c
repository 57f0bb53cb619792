/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include "commands.h"

/* Placeholder until the host probe lands (`entitle-hook probe --json` or
   its cache in state_dir): explain then says "not probed".  */
int
shim_probe (struct entitle_ctx_s *ctx, struct entitle_probe_s *probe, entitle_error_t *err)
{
  (void)ctx;
  (void)probe;
  return entitle_make_error (err, 0, "host probe not available yet");
}
