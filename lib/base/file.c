/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include "fault.h"
#include "file.h"
#include "utils.h"

/* The regular file open at @fd (named @path in messages), whole.  */
static int
read_fd (int fd, const char *path, size_t max, char **buf, size_t *len, entitle_error_t *err)
{
  cleanup_free char *data = NULL;
  struct stat st;
  size_t n = 0, cap;

  if (fstat (fd, &st) < 0)
    return entitle_make_sys_error (err, "stat `%s`", path);
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
        return entitle_make_sys_error (err, "read `%s`", path);
      if (r == 0)
        break;
      n += (size_t)r;
    }
  data[n] = '\0';
  *buf = get_and_reset (&data);
  *len = n;
  return 0;
}

/* O_NONBLOCK: a FIFO in place of the file must not hang us in open(2);
   fstat refuses it next.  */
#define READ_FLAGS (O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)

int
entitle_file_read (const char *path, size_t max, char **buf, size_t *len, entitle_error_t *err)
{
  cleanup_close int fd = open (path, READ_FLAGS);

  if (fd < 0)
    return entitle_make_sys_error (err, "open `%s`", path);
  return read_fd (fd, path, max, buf, len, err);
}

static bool
is_link (int dfd, const char *name)
{
  struct stat st;
  return fstatat (dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK (st.st_mode);
}

/* openat2's walk where the kernel (before 5.6) or a seccomp profile
   answers ENOSYS: one component at a time, none a symbolic link (O_NOFOLLOW
   fails on one with ELOOP) and none `..` or `.`.  */
static int
open_components (int dfd, const char *rel)
{
  cleanup_free char *copy = xstrdup (rel);
  char *save = NULL, *c, *next;
  int fd = -1, at = dfd;
  for (c = strtok_r (copy, "/", &save); c; c = next)
    {
      next = strtok_r (NULL, "/", &save);
      if (strcmp (c, "..") == 0 || strcmp (c, ".") == 0)
        errno = EXDEV, fd = -1;
      else
        fd = openat (at, c, next ? O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC : READ_FLAGS | O_NOFOLLOW);
      /* A link before the last component fails O_DIRECTORY, not
         O_NOFOLLOW: said as openat2 says it.  */
      if (fd < 0 && errno == ENOTDIR && is_link (at, c))
        errno = ELOOP;
      if (at != dfd)
        close (at);
      at = fd;
      if (fd < 0)
        break;
    }
  return fd;
}

int
entitle_file_read_beneath (const char *root, const char *rel, size_t max, char **buf, size_t *len,
                           entitle_error_t *err)
{
  struct open_how how = { .flags = READ_FLAGS, .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS };
  cleanup_close int dfd = open (root, O_PATH | O_DIRECTORY | O_CLOEXEC), fd = -1;
  cleanup_free char *path = NULL;

  xasprintf (&path, "%s/%s", root, rel);
  if (dfd < 0)
    return entitle_make_sys_error (err, "open `%s`", root);
  fd = (int)syscall (SYS_openat2, dfd, rel, &how, sizeof (how));
  if (fd < 0 && errno == ENOSYS)
    fd = open_components (dfd, rel);
  if (fd < 0 && errno == ELOOP)
    return entitle_make_error (err, ELOOP, "open `%s`: a symbolic link on the way", path);
  if (fd < 0)
    return entitle_make_sys_error (err, "open `%s`", path);
  return read_fd (fd, path, max, buf, len, err);
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

/* The temporaries entitle_file_write_atomic makes: TEMP_PREFIX and the
   six characters mkostemp(3) puts in place of XXXXXX.  */
#define TEMP_PREFIX ".entitle-config-"

static bool
is_our_temp (const char *name)
{
  size_t i, n = strlen (TEMP_PREFIX);

  if (strncmp (name, TEMP_PREFIX, n) != 0 || strlen (name) != n + 6)
    return false;
  for (i = n; name[i]; i++)
    if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z')
          || (name[i] >= '0' && name[i] <= '9')))
      return false;
  return true;
}

/* Remove the temporaries a killed entitle left in @dfd: regular files of
   our pattern only (never a symlink: O_NOFOLLOW), and only those no live
   writer holds (a writer keeps its temporary flock'ed until the rename;
   the kernel drops the lock of a killed one).  Best effort.  */
static void
remove_stale_temps (int dfd)
{
  cleanup_dir DIR *d = NULL;
  struct dirent *de;
  int fd2 = dup (dfd);

  if (fd2 < 0)
    return;
  if ((d = fdopendir (fd2)) == NULL)
    {
      close (fd2);
      return;
    }
  while ((de = readdir (d)) != NULL)
    {
      cleanup_close int fd = -1;
      struct stat st, again;

      if (!is_our_temp (de->d_name))
        continue;
      fd = openat (dfd, de->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
      if (fd < 0 || fstat (fd, &st) < 0 || !S_ISREG (st.st_mode) || flock (fd, LOCK_EX | LOCK_NB) < 0)
        continue;
      /* Still the file we locked under that name?  */
      if (fstatat (dfd, de->d_name, &again, AT_SYMLINK_NOFOLLOW) < 0 || again.st_dev != st.st_dev
          || again.st_ino != st.st_ino)
        continue;
      unlinkat (dfd, de->d_name, 0);
    }
}

/* Check @path, which lstat(2) gave @st, before it is replaced.  */
static int
check_replaceable (const char *path, const struct stat *st, entitle_error_t *err)
{
  if (S_ISLNK (st->st_mode))
    return entitle_make_error (err, ELOOP, "`%s` is a symbolic link: entitle never writes through a link", path);
  if (!S_ISREG (st->st_mode))
    return entitle_make_error (err, EINVAL, "`%s` is not a regular file", path);
  return 0;
}

/* Write @buf to a temporary in @path's directory with the mode and owner
   of @st, then rename it over @path.  */
static int
write_atomic (const char *path, const struct stat *st, const char *buf, size_t len, entitle_error_t *err)
{
  cleanup_free char *tmp = NULL, *dircopy = strdup (path);
  cleanup_close int fd = -1, dfd = -1;
  const char *dir;
  int tries;

  if (dircopy == NULL)
    return entitle_make_error (err, ENOMEM, "write `%s`", path);
  dir = dirname (dircopy);
  dfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0)
    remove_stale_temps (dfd);
  if (asprintf (&tmp, "%s/" TEMP_PREFIX "XXXXXX", dir) < 0)
    return entitle_make_error (err, ENOMEM, "write `%s`", path);
  for (tries = 0;; tries++)
    {
      struct stat mine, named;

      fd = mkostemp (tmp, O_CLOEXEC);
      if (fd < 0)
        return entitle_make_sys_error (err, "create temporary file in `%s`", dir);
      /* Locked, it is ours until the rename: another entitle's
         remove_stale_temps leaves it alone.  One that got to it between
         mkostemp and flock may have removed it: make another.  */
      if (flock (fd, LOCK_EX | LOCK_NB) == 0 && fstat (fd, &mine) == 0 && lstat (tmp, &named) == 0
          && mine.st_dev == named.st_dev && mine.st_ino == named.st_ino)
        break;
      close (get_and_reset_fd (&fd));
      if (tries == 3)
        return entitle_make_error (err, EBUSY, "create temporary file in `%s`: removed under us", dir);
      strcpy (tmp + strlen (tmp) - 6, "XXXXXX");
    }
  if (fill_temp (fd, st, buf, len) < 0)
    {
      int saved = errno;
      unlink (tmp);
      errno = saved;
      return entitle_make_sys_error (err, "write `%s`", path);
    }
  ENTITLE_FAULT_POINT ("before-rename");
  if (rename (tmp, path) < 0)
    {
      int saved = errno;
      unlink (tmp);
      errno = saved;
      return entitle_make_sys_error (err, "write `%s`", path);
    }
  ENTITLE_FAULT_POINT ("after-rename");
  /* The rename is durable once the directory is.  */
  if (dfd >= 0)
    fsync (dfd);
  return 0;
}

int
entitle_file_write_atomic (const char *path, const char *buf, size_t len, entitle_error_t *err)
{
  struct stat st;
  int ret;

  if (lstat (path, &st) < 0)
    return entitle_make_sys_error (err, "stat `%s`", path);
  ret = check_replaceable (path, &st, err);
  if (UNLIKELY (ret < 0))
    return ret;
  return write_atomic (path, &st, buf, len, err);
}

int
entitle_file_create_atomic (const char *path, const char *buf, size_t len, mode_t mode, entitle_error_t *err)
{
  struct stat st, fresh = { .st_mode = S_IFREG | (mode & 07777), .st_uid = geteuid (), .st_gid = getegid () };
  int ret;

  if (lstat (path, &st) < 0)
    {
      if (errno != ENOENT)
        return entitle_make_sys_error (err, "stat `%s`", path);
      st = fresh;
    }
  ret = check_replaceable (path, &st, err);
  if (UNLIKELY (ret < 0))
    return ret;
  return write_atomic (path, &st, buf, len, err);
}

int
entitle_file_contains (const char *path, const char *needle)
{
  cleanup_close int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
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

int
entitle_file_equal (const char *path, const char *buf, size_t len)
{
  cleanup_close int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  char chunk[65536];
  size_t at = 0;
  ssize_t n;

  if (fd < 0)
    return -1;
  while ((n = read (fd, chunk, sizeof (chunk))) != 0)
    {
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if ((size_t)n > len - at || memcmp (chunk, buf + at, (size_t)n) != 0)
        return 0;
      at += (size_t)n;
    }
  return at == len;
}

/* mkdir @path, and its @parents nearest ancestors first where missing;
   -1 with errno set.  @path is restored before returning.  */
static int
mkdir_up (char *path, int parents)
{
  char *slash;
  int ret;

  if (mkdir (path, 0700) == 0 || errno == EEXIST)
    return 0;
  slash = strrchr (path, '/');
  if (errno != ENOENT || parents == 0 || slash == NULL || slash == path)
    return -1;
  *slash = '\0';
  ret = mkdir_up (path, parents - 1);
  *slash = '/';
  if (ret < 0)
    return -1;
  return mkdir (path, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

int
entitle_mkdir_state (const char *path, int parents, entitle_error_t *err)
{
  cleanup_free char *copy = xstrdup (path);
  if (mkdir_up (copy, parents) < 0)
    return entitle_make_sys_error (err, "mkdir `%s`", path);
  return 0;
}
