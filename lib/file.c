/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "file.h"
#include "utils.h"

int
entitle_file_read (const char *path, size_t max, char **buf, size_t *len, entitle_error_t *err)
{
  cleanup_close int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  cleanup_free char *data = NULL;
  struct stat st;
  size_t n = 0, cap;

  if (fd < 0)
    return entitle_make_error (err, errno, "open `%s`: %s", path, strerror (errno));
  if (fstat (fd, &st) < 0)
    return entitle_make_error (err, errno, "stat `%s`: %s", path, strerror (errno));
  if (!S_ISREG (st.st_mode))
    return entitle_make_error (err, EINVAL, "`%s` is not a regular file", path);
  if ((size_t)st.st_size > max)
    return entitle_make_error (err, EFBIG, "`%s` is larger than %zu MiB", path, max >> 20);
  /* One byte more than expected tells a file that grew under us.  */
  cap = (size_t)st.st_size + 1;
  data = malloc (cap + 1);
  if (data == NULL)
    return entitle_make_error (err, ENOMEM, "read `%s`", path);
  for (;;)
    {
      ssize_t r;
      if (n == cap)
        {
          char *p;
          if (n > max)
            return entitle_make_error (err, EFBIG, "`%s` is larger than %zu MiB", path, max >> 20);
          cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
          p = realloc (data, cap + 1);
          if (p == NULL)
            return entitle_make_error (err, ENOMEM, "read `%s`", path);
          data = p;
        }
      r = read (fd, data + n, cap - n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        return entitle_make_error (err, errno, "read `%s`: %s", path, strerror (errno));
      if (r == 0)
        break;
      n += (size_t)r;
    }
  data[n] = '\0';
  *buf = get_and_reset (&data);
  *len = n;
  return 0;
}

static int
fill_temp (int fd, const struct stat *st, const char *buf, size_t len)
{
  if (entitle_write_all (fd, buf, len) < 0)
    return -1;
  if (fchmod (fd, st->st_mode & 07777) < 0)
    return -1;
  if ((geteuid () == 0 || st->st_uid != geteuid ()) && fchown (fd, st->st_uid, st->st_gid) < 0)
    return -1;
  return fsync (fd);
}

int
entitle_write_all (int fd, const char *buf, size_t len)
{
  while (len > 0)
    {
      ssize_t r = write (fd, buf, len);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return -1;
      buf += r;
      len -= (size_t)r;
    }
  return 0;
}

int
entitle_file_write_atomic (const char *path, const char *buf, size_t len, entitle_error_t *err)
{
  cleanup_free char *tmp = NULL, *dircopy = strdup (path);
  cleanup_close int fd = -1, dfd = -1;
  struct stat st;
  const char *dir;

  if (dircopy == NULL)
    return entitle_make_error (err, ENOMEM, "write `%s`", path);
  if (lstat (path, &st) < 0)
    return entitle_make_error (err, errno, "stat `%s`: %s", path, strerror (errno));
  if (S_ISLNK (st.st_mode))
    return entitle_make_error (err, ELOOP, "`%s` is a symbolic link: entitle never writes through a link", path);
  if (!S_ISREG (st.st_mode))
    return entitle_make_error (err, EINVAL, "`%s` is not a regular file", path);
  dir = dirname (dircopy);
  if (asprintf (&tmp, "%s/.entitle-config-XXXXXX", dir) < 0)
    return entitle_make_error (err, ENOMEM, "write `%s`", path);
  fd = mkostemp (tmp, O_CLOEXEC);
  if (fd < 0)
    return entitle_make_error (err, errno, "create temporary file in `%s`: %s", dir, strerror (errno));
  if (fill_temp (fd, &st, buf, len) < 0 || rename (tmp, path) < 0)
    {
      int saved = errno;
      unlink (tmp);
      return entitle_make_error (err, saved, "write `%s`: %s", path, strerror (saved));
    }
  /* The rename is durable once the directory is.  */
  dfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0)
    fsync (dfd);
  return 0;
}

int
entitle_file_contains (const char *path, const char *needle)
{
  cleanup_close int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  struct stat st;
  void *map;
  int found;

  if (fd < 0 || fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    return -1;
  if (st.st_size == 0)
    return 0;
  map = mmap (NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED)
    return -1;
  found = memmem (map, (size_t)st.st_size, needle, strlen (needle)) != NULL;
  munmap (map, (size_t)st.st_size);
  return found;
}
