/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The floor of any wrapper: execv the runtime (-DRUNTIME) with our argv.  */
#include <unistd.h>

int
main (int argc, char **argv)
{
  (void)argc;
  argv[0] = (char *)RUNTIME;
  execv (RUNTIME, argv);
  return 127;
}
