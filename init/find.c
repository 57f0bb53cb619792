/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "init.h"

/* A path found for a rule without following a symbolic link
   (entitle-init(8)): Landlock's rule holds what the descriptor it is
   given names, and open(2) would have followed a link the image or the
   container put on the way (/data -> /, /usr/local/lib -> /, /dev/null
   -> /).  One component at a time, each opened O_PATH | O_NOFOLLOW
   beneath the last: a link is then opened as itself, and seen.  No
   openat2(2): it is Linux 5.6, and an engine's seccomp profile may
   deny it.  */

/* The component at @p (up to the next slash) into @name.  */
static bool
component (const char *p, size_t n, char *name)
{
  if (n >= NAME_MAX + 1)
    return false;
  memcpy (name, p, n);
  name[n] = '\0';
  return true;
}

/* @fd, a link opened as itself: its prefix of @path into @link.  */
static int
at_link (int fd, const char *path, size_t n, char *link, size_t len)
{
  close (fd);
  if (link && len)
    {
      size_t k = n < len ? n : len - 1;
      memcpy (link, path, k);
      link[k] = '\0';
    }
  errno = ELOOP;
  return -1;
}

int
init_open_nofollow (const char *path, char *link, size_t len)
{
  char name[NAME_MAX + 1];
  const char *p = path;
  int fd = open (*path == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);

  while (fd >= 0)
    {
      struct stat st;
      size_t n;
      int next;

      p += strspn (p, "/");
      if (*p == '\0')
        return fd;
      n = strcspn (p, "/");
      if (!component (p, n, name))
        {
          close (fd);
          errno = ENAMETOOLONG;
          return -1;
        }
      next = openat (fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
      close (fd);
      if (next < 0 || fstat (next, &st) < 0)
        {
          int saved = errno;
          if (next >= 0)
            close (next);
          errno = saved;
          return -1;
        }
      p += n;
      if (S_ISLNK (st.st_mode))
        return at_link (next, path, (size_t)(p - path), link, len);
      fd = next;
    }
  return -1;
}
