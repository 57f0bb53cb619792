/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "catalogue.h"
#include "commands.h"

extern char **environ;

/* The wrapped runtime's --version in its own words first, since tools
   read its line 0 (runc's integration suite does; engines report it),
   then entitle's lines.  The runtime's exit status is entitle's (128 +
   the signal that killed it), as if entitle were the runtime.  */
int
shim_version (struct shim_s *s, entitle_error_t *err)
{
  char *argv[] = { (char *)s->runtime, (char *)"--version", NULL };
  int status, ret;
  pid_t pid;

  /* `version`, and a global --version (no command).  */
  if (s->args.command && (ret = shim_parse (s, NULL, shim_parse_no_args, err)) < 0)
    return ret;
  fflush (stdout);
  ret = posix_spawn (&pid, s->runtime, NULL, NULL, argv, environ);
  if (UNLIKELY (ret != 0))
    return entitle_make_error (err, ret, "exec `%s`: %s", s->runtime, strerror (ret));
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      return entitle_make_sys_error (err, "waitpid");
  printf ("entitle version %s\ncatalogue: %d\nruntime: %s\n", PACKAGE_VERSION, ENTITLE_CATALOGUE_VERSION,
          s->runtime);
  fflush (stdout);
  exit (WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status));
}
