/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef ENTITLE_HAVE_BPF
#include <bpf/bpf.h>
#endif
#include "admin-config.h"
#include "bpf-read.h"
#include "cgroup.h"
#include "file.h"
#include "hash.h"
#include "hook.h"
#include "utils.h"

/* The cgroups the hook made for containers that share their caller's
   (crun --cgroup-manager=disabled), so that poststop, or the next hook
   after a crash, can remove them.  One file per container under
   STATE_DIR/cgroups, named by a hash of runtime root and id and holding
   "ROOT\nID\nPATH\nCGROUP-ID\n", PATH relative to the cgroup2 root: the
   hook runs in mount namespaces that mount cgroup2 in different places
   (crun's test namespace, the host's), and the id says whether the cgroup
   is still there whatever the namespace.  Plain files outlive an upgrade
   of entitle, which replaces the pinned BPF objects.  Everything else a
   container has in the kernel goes with its cgroup.  */

static char *
record_path (const char *dir, const char *root, const char *id)
{
  uint64_t h = entitle_fnv_str (entitle_fnv_str (entitle_fnv_str (ENTITLE_FNV_OFFSET, root), "\n"), id);
  char *p;

  xasprintf (&p, "%s/%016llx", dir, (unsigned long long)h);
  return p;
}

int
hook_made_lock (const char *state_dir, entitle_error_t *err)
{
  cleanup_free char *dir = entitle_state_path (state_dir, "cgroups");
  int fd, ret;

  ret = entitle_mkdir_state (dir, 1, err);
  if (ret < 0)
    return ret;
  fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || flock (fd, LOCK_EX) < 0)
    {
      if (fd >= 0)
        close (fd);
      return entitle_make_sys_error (err, "lock `%s`", dir);
    }
  return fd;
}

int
hook_made_record (const char *state_dir, const char *root, const char *id, const char *rel, uint64_t cgroup_id,
                  entitle_error_t *err)
{
  cleanup_free char *dir = entitle_state_path (state_dir, "cgroups"), *path = record_path (dir, root, id), *text = NULL;
  cleanup_close int fd = -1;

  xasprintf (&text, "%s\n%s\n%s\n%llu\n", root, id, rel, (unsigned long long)cgroup_id);
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0 || entitle_write_all (fd, text, strlen (text)) < 0 || fsync (fd) < 0)
    return entitle_make_sys_error (err, "record the cgroup made for container `%s` in `%s`", id, path);
  return 0;
}

struct record
{
  char *raw;
  const char *root, *id, *rel;
  uint64_t cgroup_id;
};

static void
record_free (struct record *r)
{
  free (r->raw);
}
#define cleanup_record __attribute__ ((cleanup (record_free)))

/* The record @path, if it is one (of @root and @id, unless they are NULL).  */
static bool
read_record (const char *path, const char *root, const char *id, struct record *r)
{
  entitle_error_t err = NULL;
  char *line[4], *p;
  size_t len, i;

  if (entitle_file_read (path, 3 * 4096, &r->raw, &len, &err) < 0)
    {
      entitle_error_release (&err);
      return false;
    }
  for (i = 0, p = r->raw; i < 4; i++)
    {
      char *nl = strchr (p, '\n');
      if (nl == NULL)
        return false;
      *nl = '\0';
      line[i] = p;
      p = nl + 1;
    }
  r->root = line[0];
  r->id = line[1];
  r->rel = line[2];
  r->cgroup_id = strtoull (line[3], NULL, 10);
  return root == NULL || (strcmp (r->root, root) == 0 && strcmp (r->id, id) == 0);
}

/* Remove the recorded cgroup; true once it is gone.  rmdir fails with
   EBUSY while the cgroup holds a process: that is how a live container's
   record survives collection.  A cgroup this mount namespace cannot name
   stays recorded for a hook that can.  */
static bool
remove_made (const struct record *r, const char *mnt, int mntfd)
{
  cleanup_free char *dir = NULL;

  if (mntfd < 0 || !entitle_cgroup_alive (mntfd, r->cgroup_id))
    return mntfd >= 0;
  xasprintf (&dir, "%s%s", mnt, r->rel);
  return rmdir (dir) == 0;
}

static int
open_mount (char *mnt, size_t len)
{
  entitle_error_t err = NULL;
  if (entitle_cgroup2_mount (mnt, len, &err) < 0)
    {
      entitle_error_release (&err);
      return -1;
    }
  return open (mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

void
hook_made_remove (const char *state_dir, const char *root, const char *id, const struct entitle_log_s *log)
{
  cleanup_free char *dir = entitle_state_path (state_dir, "cgroups"), *path = record_path (dir, root, id);
  cleanup_record struct record r = { 0 };
  cleanup_close int mntfd = -1;
  char mnt[256];

  if (!read_record (path, root, id, &r))
    return;
  mntfd = open_mount (mnt, sizeof (mnt));
  if (remove_made (&r, mnt, mntfd))
    unlink (path);
  else if (errno != EBUSY)
    entitle_log_warning (log, "remove the cgroup `%s` made for container `%s`: %s", r.rel, id, strerror (errno));
}

void
hook_made_collect (const char *state_dir)
{
  cleanup_free char *dir = entitle_state_path (state_dir, "cgroups");
  cleanup_dir DIR *d = opendir (dir);
  cleanup_close int mntfd = -1;
  struct dirent *e;
  char mnt[256];

  mntfd = open_mount (mnt, sizeof (mnt));
  while (d && (e = readdir (d)) != NULL)
    {
      cleanup_free char *path = NULL;
      cleanup_record struct record r = { 0 };

      if (e->d_name[0] == '.' || asprintf (&path, "%s/%s", dir, e->d_name) < 0)
        continue;
      if (!read_record (path, NULL, NULL, &r) || remove_made (&r, mnt, mntfd))
        unlink (path);
    }
}

/* entitle 0.1.0 kept these records in a pinned BPF map, which an upgrade
   unpins with the rest of the old build: carry them over first, so that
   the new build still removes the cgroups the old one made.  The layout
   is that build's (bpf/progs/policy.h of 0.1.0): key "ROOT\nID", NUL padded to
   256 bytes; value the cgroup id and the made cgroup's absolute path.  */
#define OLD_OWNERS ENTITLE_BPF_PINS "/entitle_owners"
#define OLD_NAME   256

struct old_owner
{
  uint64_t cgroup_id;
  char made[OLD_NAME];
};

void
hook_made_migrate (const char *state_dir)
{
#ifdef ENTITLE_HAVE_BPF
  char key[OLD_NAME], next[OLD_NAME], mnt[256], path[4096];
  struct old_owner o;
  cleanup_close int map = bpf_obj_get (OLD_OWNERS), mntfd = -1;
  void *cur = NULL;

  /* The path it recorded is the one of the namespace that made it: the
     id names the cgroup here.  */
  if (map < 0 || (mntfd = open_mount (mnt, sizeof (mnt))) < 0)
    return;
  while (bpf_map_get_next_key (map, cur, next) == 0)
    {
      char *nl = memchr (next, '\n', sizeof (next));
      entitle_error_t err = NULL;

      memcpy (key, next, sizeof (key));
      cur = key;
      if (bpf_map_lookup_elem (map, key, &o) < 0 || o.made[0] == '\0' || nl == NULL
          || entitle_cgroup_path_of_id (mntfd, o.cgroup_id, path, sizeof (path)) < 0
          || strncmp (path, mnt, strlen (mnt)) != 0)
        continue;
      *nl = '\0';
      next[sizeof (next) - 1] = '\0';
      hook_made_record (state_dir, next, nl + 1, path + strlen (mnt), o.cgroup_id, &err);
      entitle_error_release (&err);
    }
#else
  (void)state_dir;
#endif
}

/* Before the programs are loaded: the loader replaces an old build's
   pins, its map of made cgroups with them, also at the create of a
   container that makes none (runc's).  One failed lookup when there is
   no such map, the case once the first hook of the new build ran.  */
void
hook_made_carry_over (const char *state_dir)
{
  entitle_error_t err = NULL;
  cleanup_close int map = entitle_bpf_pin_get ("entitle_owners"), lock = -1;

  if (map < 0)
    return;
  lock = hook_made_lock (state_dir, &err);
  if (lock >= 0)
    hook_made_migrate (state_dir);
  entitle_error_release (&err);
}
