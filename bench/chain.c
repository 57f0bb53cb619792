/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chain: run commands one after the other, as one command for pairs.c.
 *
 *   chain A... ';;' B... [';;' C...]
 *
 * Each runs with chain's stdio and must exit 0; chain stops at the first
 * that does not, with its status.  It forks, execs and waits: nothing a
 * shell would add to the measured CPU time.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int
run (char **argv)
{
  int st;
  pid_t pid = fork ();

  if (pid < 0)
    return 127;
  if (pid == 0)
    {
      execv (argv[0], argv);
      _exit (127);
    }
  if (waitpid (pid, &st, 0) < 0)
    return 127;
  if (!WIFEXITED (st) || WEXITSTATUS (st))
    {
      fprintf (stderr, "chain: `%s %s` failed (status %d)\n", argv[0], argv[1] ? argv[1] : "", st);
      return WIFEXITED (st) ? WEXITSTATUS (st) : 128;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  int i, start = 1, ret;

  for (i = 1; i <= argc; i++)
    if (i == argc || strcmp (argv[i], ";;") == 0)
      {
        argv[i] = NULL;
        if (i > start && (ret = run (&argv[start])) != 0)
          return ret;
        start = i + 1;
      }
  return 0;
}
