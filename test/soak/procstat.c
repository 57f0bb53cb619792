/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The soak test's probe (test/soak/soak.sh), preloaded into entitle and
   entitle-hook: when the process exits, or execs the runtime, it appends
   one line "TAG PEAK_RSS_KB OPEN_FDS" to $SOAK_STATS.  Not part of
   entitle: built by soak.sh with cc -shared.  */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
report (void)
{
  const char *path = getenv ("SOAK_STATS"), *tag = getenv ("SOAK_TAG");
  char line[256], buf[4096];
  long hwm = -1;
  int fds = 0, fd;
  ssize_t n;
  DIR *d;
  struct dirent *de;

  if (path == NULL || tag == NULL)
    return;
  fd = open ("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd >= 0)
    {
      n = read (fd, buf, sizeof (buf) - 1);
      close (fd);
      if (n > 0)
        {
          char *p;
          buf[n] = '\0';
          if ((p = strstr (buf, "VmHWM:")) != NULL)
            hwm = strtol (p + 6, NULL, 10);
        }
    }
  /* Open descriptors, less the one opendir holds.  */
  if ((d = opendir ("/proc/self/fd")) != NULL)
    {
      while ((de = readdir (d)) != NULL)
        fds += de->d_name[0] != '.';
      closedir (d);
      fds--;
    }
  n = snprintf (line, sizeof (line), "%s %ld %d\n", tag, hwm, fds);
  fd = open (path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0)
    {
      ssize_t w = write (fd, line, (size_t)n);
      (void)w;
      close (fd);
    }
}

__attribute__ ((destructor)) static void
at_exit (void)
{
  report ();
}

/* The shim ends in execv(runtime): report then, and keep the runtime
   (and everything it starts) free of this library.  */
int
execv (const char *path, char *const argv[])
{
  static int (*real) (const char *, char *const[]);

  report ();
  unsetenv ("LD_PRELOAD");
  unsetenv ("SOAK_STATS");
  if (real == NULL)
    real = (int (*) (const char *, char *const[]))dlsym (RTLD_NEXT, "execv");
  return real (path, argv);
}
