/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "cgroup.h"
#include "utils.h"

/* Where runc and crun look for cgroup2: on /sys/fs/cgroup (unified
   mode), else on /sys/fs/cgroup/unified (hybrid mode).  statfs reads the
   mount on top, so a hidden one never answers.  This spares the reading
   of /proc/self/mountinfo on the attach of every container (issue 25).  */
static bool
cgroup2_where_runtimes_look (char *buf, size_t len)
{
  static const char *const where[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
  struct statfs fs;

  for (size_t i = 0; i < sizeof (where) / sizeof (where[0]); i++)
    if (statfs (where[i], &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC && strlen (where[i]) < len)
      {
        strcpy (buf, where[i]);
        return true;
      }
  return false;
}

/* A cgroup2 mount that is not hidden under a later mount: the path must
   lead to the mounted device (in a namespace that mounted cgroup2 over
   /sys/fs/cgroup, the host's /sys/fs/cgroup/unified is still listed).  */
int
entitle_cgroup2_mount (char *buf, size_t len, entitle_error_t *err)
{
  cleanup_file FILE *f = NULL;
  cleanup_free char *line = NULL;
  size_t cap = 0;

  if (cgroup2_where_runtimes_look (buf, len))
    return 0;
  f = fopen ("/proc/self/mountinfo", "re");
  if (f == NULL)
    return entitle_make_sys_error (err, "open `/proc/self/mountinfo`");
  while (getline (&line, &cap, f) > 0)
    {
      /* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - FSTYPE SOURCE SUPER */
      char mnt[4096];
      unsigned maj, min;
      struct stat st;

      if (strstr (line, " - cgroup2 ") == NULL
          || sscanf (line, "%*s %*s %u:%u %*s %4095s", &maj, &min, mnt) != 3 || strlen (mnt) >= len)
        continue;
      if (stat (mnt, &st) < 0 || major (st.st_dev) != maj || minor (st.st_dev) != min)
        continue;
      strcpy (buf, mnt);
      return 0;
    }
  return entitle_make_error (err, ENOENT, "no cgroup v2 hierarchy is mounted");
}

int
entitle_cgroup_of_pid (pid_t pid, char *buf, size_t len, entitle_error_t *err)
{
  char path[64];
  cleanup_file FILE *f = NULL;
  cleanup_free char *line = NULL;
  size_t cap = 0;
  ssize_t n;

  snprintf (path, sizeof (path), "/proc/%d/cgroup", (int)pid);
  if ((f = fopen (path, "re")) == NULL)
    return entitle_make_sys_error (err, "open `%s`", path);
  while ((n = getline (&line, &cap, f)) > 0)
    {
      if (strncmp (line, "0::", 3) != 0)
        continue;
      if (line[n - 1] == '\n')
        line[--n] = '\0';
      if ((size_t)n - 3 >= len)
        return entitle_make_error (err, ENAMETOOLONG, "cgroup path of pid %d too long", (int)pid);
      strcpy (buf, line + 3);
      return 0;
    }
  return entitle_make_error (err, ENOENT, "pid %d is in no cgroup v2 cgroup", (int)pid);
}

int
entitle_cgroup_shared (const char *dir, pid_t pid, entitle_error_t *err)
{
  cleanup_free char *path = NULL;
  cleanup_file FILE *f = NULL;
  long p;

  if (asprintf (&path, "%s/cgroup.procs", dir) < 0)
    return entitle_make_error (err, ENOMEM, "out of memory");
  if ((f = fopen (path, "re")) == NULL)
    return entitle_make_sys_error (err, "open `%s`", path);
  while (fscanf (f, "%ld", &p) == 1)
    if (p != (long)pid)
      return 1;
  return 0;
}

int
entitle_cgroup_move (const char *dir, pid_t pid, entitle_error_t *err)
{
  cleanup_free char *path = NULL;
  cleanup_close int fd = -1;
  char buf[32];
  int n = snprintf (buf, sizeof (buf), "%d", (int)pid);

  if (asprintf (&path, "%s/cgroup.procs", dir) < 0)
    return entitle_make_error (err, ENOMEM, "out of memory");
  fd = open (path, O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write (fd, buf, (size_t)n) != n)
    return entitle_make_sys_error (err, "move pid %d into `%s`", (int)pid, dir);
  return 0;
}

uint64_t
entitle_cgroup_id (int dirfd)
{
  struct stat st;
  return fstat (dirfd, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/* The cgroup of id @id, opened under the mount @mountfd: cgroupfs file
   handles are the 64-bit kernfs id (what systemd uses).  */
static int
open_id (int mountfd, uint64_t id)
{
  _Alignas(struct file_handle) unsigned char buf[sizeof (struct file_handle) + sizeof (id)];
  struct file_handle *fh = (struct file_handle *)buf;

  fh->handle_bytes = sizeof (id);
  fh->handle_type = 0xfe; /* FILEID_KERNFS */
  memcpy (fh->f_handle, &id, sizeof (id));
  return open_by_handle_at (mountfd, fh, O_RDONLY | O_CLOEXEC);
}

bool
entitle_cgroup_alive (int mountfd, uint64_t id)
{
  int fd = open_id (mountfd, id);

  if (fd >= 0)
    {
      close (fd);
      return true;
    }
  return errno != ESTALE && errno != ENOENT;
}

int
entitle_cgroup_path_of_id (int mountfd, uint64_t id, char *buf, size_t len)
{
  cleanup_close int fd = open_id (mountfd, id);
  char link[64];
  ssize_t n;

  if (fd < 0)
    return -1;
  snprintf (link, sizeof (link), "/proc/self/fd/%d", fd);
  n = readlink (link, buf, len - 1);
  if (n < 0)
    return -1;
  buf[n] = '\0';
  return 0;
}
