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

struct checmate_args
{
  const char *words[3];
  int n;
};

static int
take_opt (struct shim_s *s, void *data, enum shim_key key, const char *value, entitle_error_t *err)
{
  struct checmate_args *a = data;

  (void)s;
  (void)key;
  (void)err;
  if (a->n < 3)
    a->words[a->n] = value;
  a->n++;
  return 0;
}

int
shim_checmate (struct shim_s *s, entitle_error_t *err)
{
  struct checmate_args a = { { NULL }, 0 };
  int ret = shim_parse (s, &a, take_opt, err);

  if (UNLIKELY (ret < 0))
    return ret;
  if (a.n != 2 || strcmp (a.words[0], "reset") != 0)
    shim_usage_error (s, "checmate: usage: entitle checmate reset HOOK (a hook of the seed's, such as socket_connect)");
  ret = entitle_checmate_prctl (&entitle_kernel, CHECMATE_RESET, a.words[1], -1, err);
  if (UNLIKELY (ret < 0))
    return ret;
  printf ("checmate: every program taken off hook %s\n", a.words[1]);
  fflush (stdout);
  exit (EXIT_SUCCESS);
}
