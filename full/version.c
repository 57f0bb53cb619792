/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdio.h>
#include "catalogue.h"
#include "commands.h"

/* entitle's version, then the wrapped runtime's in its own words.  */
int
shim_version (struct shim_s *s, entitle_error_t *err)
{
  char *argv[] = { (char *)s->runtime, (char *)"--version", NULL };

  printf ("entitle version %s\ncatalogue: %d\nruntime: %s\n", PACKAGE_VERSION,
          ENTITLE_CATALOGUE_VERSION, s->runtime);
  s->argv = argv;
  return shim_exec_runtime (s, err);
}
