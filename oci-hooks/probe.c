/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include "hook.h"
#include "probe-print.h"
#include "probe-run.h"
#include "utils.h"

/* entitle-hook probe [--json], and entitle probe [--json], which calls
   it in entitle-full: what this kernel offers, probed afresh (the cache
   is left as it is).  */

int
hook_probe (bool json, entitle_error_t *err)
{
  struct entitle_probe_s p;
  int ret = entitle_probe_run (&p, err);

  if (UNLIKELY (ret < 0))
    return ret;
  return entitle_probe_print (&p, json, err);
}
