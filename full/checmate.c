/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checmate-prctl.h"
#include "commands.h"
#include "utils.h"

/* entitle checmate reset HOOK (entitle(8)): a debug command, which no
   engine runs, that takes every program off a Checmate hook, entitle's
   included; the next create whose container takes the layer installs
   entitle's again.  A hook locked with deny_reset refuses until a
   reboot.  */

int
shim_checmate (struct shim_s *s, entitle_error_t *err)
{
  int i = s->args.command_index + 1, ret;

  if (i + 2 != s->argc || strcmp (s->argv[i], "reset") != 0)
    return entitle_make_error (err, EINVAL, "checmate: usage: entitle checmate reset HOOK (a hook of the seed's, such as socket_connect)");
  ret = entitle_checmate_prctl (&entitle_kernel, CHECMATE_RESET, s->argv[i + 1], -1, err);
  if (UNLIKELY (ret < 0))
    return ret;
  printf ("checmate: every program taken off hook %s\n", s->argv[i + 1]);
  fflush (stdout);
  exit (EXIT_SUCCESS);
}
