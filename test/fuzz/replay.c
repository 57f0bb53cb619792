/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz.h"

/* Replays a fuzz target over files, without libFuzzer: under make check,
   over the target's seed corpus and its regressions,
   $ENTITLE_SRCDIR/test/fuzz/{corpus,regressions}/FUZZ_TARGET/, one TAP
   line a file; or over the files and directories given as arguments.
   A crash or a broken property aborts, and the test fails.  */

#ifndef FUZZ_TARGET
#error "FUZZ_TARGET must name the target"
#endif

static int n_tests;

static int
replay_file (const char *path)
{
  FILE *f = fopen (path, "rb");
  unsigned char *buf = NULL;
  size_t len = 0, cap = 0, n;

  if (f == NULL)
    {
      printf ("not ok %d - %s: %s\n", ++n_tests, path, strerror (errno));
      return 1;
    }
  do
    {
      if (len == cap)
        {
          cap = cap ? cap * 2 : 4096;
          buf = realloc (buf, cap);
          if (buf == NULL)
            abort ();
        }
      n = fread (buf + len, 1, cap - len, f);
      len += n;
    }
  while (n > 0);
  fclose (f);
  fprintf (stderr, "# %s (%zu bytes)\n", path, len);
  fflush (stdout);
  /* An exact-size copy, so that ASan sees reads past the end.  */
  {
    unsigned char *exact = malloc (len ? len : 1);
    if (exact == NULL)
      abort ();
    memcpy (exact, buf, len);
    LLVMFuzzerTestOneInput (exact, len);
    free (exact);
  }
  free (buf);
  printf ("ok %d - %s %s\n", ++n_tests, FUZZ_TARGET, path);
  return 0;
}

static int
compare (const void *a, const void *b)
{
  return strcmp (*(char *const *)a, *(char *const *)b);
}

static int
replay (const char *path)
{
  struct dirent *de;
  struct stat st;
  char **names = NULL;
  size_t n = 0, i;
  int failed = 0;
  DIR *d;

  if (stat (path, &st) == 0 && !S_ISDIR (st.st_mode))
    return replay_file (path);
  d = opendir (path);
  if (d == NULL)
    return errno == ENOENT ? 0 : replay_file (path);
  while ((de = readdir (d)))
    {
      if (de->d_name[0] == '.')
        continue;
      names = realloc (names, (n + 1) * sizeof (char *));
      if (names == NULL || asprintf (&names[n], "%s/%s", path, de->d_name) < 0)
        abort ();
      n++;
    }
  closedir (d);
  qsort (names, n, sizeof (char *), compare);
  for (i = 0; i < n; i++)
    {
      failed |= replay (names[i]);
      free (names[i]);
    }
  free (names);
  return failed;
}

int
main (int argc, char **argv)
{
  int failed = 0, i;

  if (argc > 1)
    for (i = 1; i < argc; i++)
      failed |= replay (argv[i]);
  else
    {
      const char *src = getenv ("ENTITLE_SRCDIR");
      const char *const kinds[] = { "corpus", "regressions" };
      char path[PATH_MAX];

      for (i = 0; i < 2; i++)
        {
          snprintf (path, sizeof (path), "%s/test/fuzz/%s/%s", src ? src : ".", kinds[i], FUZZ_TARGET);
          failed |= replay (path);
        }
    }
  printf ("1..%d\n", n_tests);
  return failed;
}
