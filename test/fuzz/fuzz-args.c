/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include "args.h"
#include "fuzz.h"

/* runc-style argv parsing (shim/args.c): the input split on NUL bytes is
   argv (argv[0] is "entitle", as the engine runs it).

   Properties: every string the parser returns points into one of the
   arguments; command is argv[command_index]; argv is left unchanged.  */

#define MAX_ARGS 4096

static char *const *g_argv;
static int g_argc;

static bool
points_into_argv (const char *p)
{
  int i;

  if (p == NULL)
    return true;
  for (i = 0; i < g_argc; i++)
    if (p >= g_argv[i] && p <= g_argv[i] + strlen (g_argv[i]))
      return true;
  return false;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  struct entitle_args_s a;
  char *buf, *copy, **argv;
  int argc = 1, i;
  size_t off;

  /* One extra NUL ends the last argument.  */
  buf = fuzz_strndup (data, size);
  copy = fuzz_strndup (data, size);
  argv = calloc (MAX_ARGS + 2, sizeof (char *));
  if (argv == NULL)
    abort ();
  argv[0] = (char *)"entitle";
  for (off = 0; size > 0 && off <= size && argc < MAX_ARGS; off += strlen (buf + off) + 1)
    argv[argc++] = buf + off;
  argv[argc] = NULL;
  g_argv = argv;
  g_argc = argc;

  entitle_args_parse (argc, argv, &a);

  FUZZ_ASSERT (a.command_index >= -1 && a.command_index < argc);
  if (a.command_index >= 0)
    FUZZ_ASSERT (a.command == argv[a.command_index]);
  else
    FUZZ_ASSERT (a.command == NULL);
  FUZZ_ASSERT (points_into_argv (a.root) && points_into_argv (a.log) && points_into_argv (a.log_format));
  FUZZ_ASSERT (points_into_argv (a.bundle) && points_into_argv (a.config) && points_into_argv (a.process));
  FUZZ_ASSERT (points_into_argv (a.id));
  FUZZ_ASSERT (a.n_caps >= 0);
  for (i = 0; i < a.n_caps && i < ENTITLE_ARGS_MAX_CAPS; i++)
    FUZZ_ASSERT (points_into_argv (a.caps[i]));
  FUZZ_ASSERT (memcmp (buf, copy, size) == 0);

  free (argv);
  free (copy);
  free (buf);
  return 0;
}
