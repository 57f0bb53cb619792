/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "admin-config.h"
#include "cgroup.h"
#include "cgroup-record.h"
#include "file.h"
#include "utils.h"

#define RECORD_LINES 4
#define RECORD_SIZE  (64 * 1024) /* the entitlements list is at most 256 items */

static char *
record_dir (const char *state_dir)
{
  return entitle_state_path (state_dir, "containers");
}

int
entitle_cgroup_record_write (const char *state_dir, const struct entitle_cgroup_record_s *r, entitle_error_t *err)
{
  cleanup_free char *dir = record_dir (state_dir), *path = NULL, *text = NULL;
  cleanup_close int fd = -1;
  int n;

  /* state_dir itself may not exist yet: the record is the hook's first
     use of it where no cgroup is made.  */
  mkdir (state_dir ? state_dir : "/run/entitle", 0700);
  if (mkdir (dir, 0700) < 0 && errno != EEXIST)
    return entitle_make_sys_error (err, "mkdir `%s`", dir);
  n = asprintf (&text, "%s\n%s\n%s\n%s\n", r->root, r->id, r->bundle, r->entitlements);
  if (n < 0 || asprintf (&path, "%s/%" PRIu64, dir, r->cgroup_id) < 0)
    abort ();
  if (n > RECORD_SIZE)
    return entitle_make_error (err, EFBIG, "the record of container `%s` is larger than %d bytes", r->id, RECORD_SIZE);
  /* No fsync: a record lost to a crash costs `why` a name, not a denial.  */
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0 || entitle_write_all (fd, text, (size_t)n) < 0)
    return entitle_make_sys_error (err, "record container `%s` in `%s`", r->id, path);
  return 0;
}

static bool
parse_record (const char *path, struct entitle_cgroup_record_s *r)
{
  const char **field[RECORD_LINES] = { &r->root, &r->id, &r->bundle, &r->entitlements };
  entitle_error_t err = NULL;
  struct stat st;
  size_t len, i;
  char *p;

  if (entitle_file_read (path, RECORD_SIZE, &r->raw, &len, &err) < 0)
    {
      entitle_error_release (&err);
      return false;
    }
  r->time = stat (path, &st) == 0 ? st.st_mtime : 0;
  for (i = 0, p = r->raw; i < RECORD_LINES; i++)
    {
      char *nl = strchr (p, '\n');
      if (nl == NULL)
        {
          entitle_cgroup_record_free (r);
          return false;
        }
      *nl = '\0';
      *field[i] = p;
      p = nl + 1;
    }
  return true;
}

bool
entitle_cgroup_record_read (const char *state_dir, uint64_t cgroup_id, struct entitle_cgroup_record_s *r)
{
  cleanup_free char *dir = record_dir (state_dir), *path = NULL;

  memset (r, 0, sizeof (*r));
  if (asprintf (&path, "%s/%" PRIu64, dir, cgroup_id) < 0)
    abort ();
  r->cgroup_id = cgroup_id;
  return parse_record (path, r);
}

void
entitle_cgroup_record_free (struct entitle_cgroup_record_s *r)
{
  free (r->raw);
  r->raw = NULL;
}

/* The cgroup ids recorded, from the file names.  */
static uint64_t *
recorded_ids (const char *dir, size_t *n)
{
  cleanup_dir DIR *d = opendir (dir);
  uint64_t *ids = NULL;
  size_t cap = 0;
  struct dirent *e;

  *n = 0;
  while (d && (e = readdir (d)) != NULL)
    {
      char *end;
      uint64_t id = strtoull (e->d_name, &end, 10);

      if (e->d_name[0] < '0' || e->d_name[0] > '9' || *end != '\0')
        continue;
      if (*n == cap && (ids = realloc (ids, (cap = cap ? 2 * cap : 64) * sizeof (*ids))) == NULL)
        abort ();
      ids[(*n)++] = id;
    }
  return ids;
}

static int
newest_first (const void *a, const void *b)
{
  const struct entitle_cgroup_record_s *x = a, *y = b;
  return (y->time > x->time) - (y->time < x->time);
}

struct entitle_cgroup_record_s *
entitle_cgroup_record_find (const char *state_dir, const char *root, const char *id, size_t *n)
{
  cleanup_free char *dir = record_dir (state_dir);
  size_t count, i;
  cleanup_free uint64_t *ids = recorded_ids (dir, &count);
  struct entitle_cgroup_record_s *out = calloc (count + 1, sizeof (*out));

  if (out == NULL)
    abort ();
  *n = 0;
  for (i = 0; i < count; i++)
    {
      struct entitle_cgroup_record_s *r = &out[*n];
      if (!entitle_cgroup_record_read (state_dir, ids[i], r))
        continue;
      if (strcmp (r->id, id) == 0 && (root == NULL || strcmp (r->root, root) == 0))
        (*n)++;
      else
        entitle_cgroup_record_free (r);
    }
  qsort (out, *n, sizeof (*out), newest_first);
  return out;
}

struct dead_s
{
  uint64_t id;
  time_t time;
};

static int
oldest_first (const void *a, const void *b)
{
  const struct dead_s *x = a, *y = b;
  return (x->time > y->time) - (x->time < y->time);
}

static int
open_cgroup2 (void)
{
  entitle_error_t err = NULL;
  char mnt[256];

  if (entitle_cgroup2_mount (mnt, sizeof (mnt), &err) < 0)
    {
      entitle_error_release (&err);
      return -1;
    }
  return open (mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

void
entitle_cgroup_record_collect (const char *state_dir)
{
  cleanup_free char *dir = record_dir (state_dir);
  cleanup_close int mntfd = open_cgroup2 ();
  size_t n, i, n_dead = 0, removed = 0, kept;
  cleanup_free uint64_t *ids = recorded_ids (dir, &n);
  cleanup_free struct dead_s *dead = calloc (n + 1, sizeof (*dead));
  time_t now = time (NULL);

  /* A cgroup this mount namespace cannot see is kept for one that can.  */
  if (dead == NULL)
    abort ();
  if (mntfd < 0)
    return;
  for (i = 0; i < n; i++)
    {
      char path[PATH_MAX];
      struct stat st;

      snprintf (path, sizeof (path), "%s/%" PRIu64, dir, ids[i]);
      if (stat (path, &st) < 0 || entitle_cgroup_alive (mntfd, ids[i]))
        continue;
      if (now - st.st_mtime > ENTITLE_RECORD_KEEP && unlink (path) == 0)
        removed++;
      else
        dead[n_dead++] = (struct dead_s){ ids[i], st.st_mtime };
    }
  /* Past the bound, the oldest records of gone cgroups go first.  */
  qsort (dead, n_dead, sizeof (*dead), oldest_first);
  for (i = 0, kept = n - removed; i < n_dead && kept > ENTITLE_RECORD_MAX; i++, kept--)
    {
      char path[PATH_MAX];
      snprintf (path, sizeof (path), "%s/%" PRIu64, dir, dead[i].id);
      unlink (path);
    }
}
