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

#define RECORD_LINES 5
/* The lines a record has at least: records older than the sources line
   are read too (`why` answers for two hours after an upgrade).  */
#define RECORD_LINES_MIN 4
#define RECORD_SIZE      (128 * 1024) /* the entitlements list is at most 256 items, and their sources */

static char *
record_dir (const char *state_dir)
{
  return entitle_state_path (state_dir, "containers");
}

/* The records are spread over RECORD_SHARDS directories by a hash of the
   cgroup id, so that a create collects its own shard only: its cost stays
   about the same beside a thousand containers as beside none.  */
#define RECORD_SHARDS 256

static unsigned
shard_of (uint64_t cgroup_id)
{
  return (unsigned)((cgroup_id * 0x9e3779b97f4a7c15ull) >> 56);
}

static char *
shard_dir (const char *dir, unsigned shard)
{
  char *path;

  xasprintf (&path, "%s/%02x", dir, shard);
  return path;
}

static char *
record_path (const char *dir, uint64_t cgroup_id)
{
  char *path;

  xasprintf (&path, "%s/%02x/%" PRIu64, dir, shard_of (cgroup_id), cgroup_id);
  return path;
}

int
entitle_cgroup_record_write (const char *state_dir, const struct entitle_cgroup_record_s *r, entitle_error_t *err)
{
  cleanup_free char *dir = record_dir (state_dir), *path = record_path (dir, r->cgroup_id), *text = NULL;
  cleanup_free char *shard = shard_dir (dir, shard_of (r->cgroup_id));
  cleanup_close int fd = -1;
  int n, ret;

  /* state_dir itself may not exist yet: the record is the hook's first
     use of it where no cgroup is made.  */
  ret = entitle_mkdir_state (shard, 2, err);
  if (ret < 0)
    return ret;
  n = xasprintf (&text, "%s\n%s\n%s\n%s\n%s\n", r->root, r->id, r->bundle, r->entitlements,
                 r->sources ? r->sources : "");
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
  const char **field[RECORD_LINES] = { &r->root, &r->id, &r->bundle, &r->entitlements, &r->sources };
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
  r->sources = "";
  for (i = 0, p = r->raw; i < RECORD_LINES; i++)
    {
      char *nl = strchr (p, '\n');
      if (nl == NULL && i >= RECORD_LINES_MIN)
        break;
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
  cleanup_free char *dir = record_dir (state_dir), *path = record_path (dir, cgroup_id);

  memset (r, 0, sizeof (*r));
  r->cgroup_id = cgroup_id;
  return parse_record (path, r);
}

enum entitle_source
entitle_cgroup_record_source (const struct entitle_cgroup_record_s *r, const char *name)
{
  const char *p = r->sources;
  size_t len = strlen (name);

  while (p && *p)
    {
      const char *colon = strchr (p, ':'), *end = strchr (p, ',');
      if (end == NULL)
        end = p + strlen (p);
      if (colon && colon < end && (size_t)(end - colon - 1) == len && memcmp (colon + 1, name, len) == 0)
        return entitle_source_from_key (p, (size_t)(colon - p));
      p = *end ? end + 1 : end;
    }
  return ENTITLE_SOURCE_NONE;
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
      if (*n == cap)
        ids = xrealloc (ids, (cap = cap ? 2 * cap : 64) * sizeof (*ids));
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

/* Append to @out (of @n, room for @cap) the records of @shard that are
   container @id's.  */
static struct entitle_cgroup_record_s *
find_in_shard (const char *state_dir, const char *dir, unsigned shard, const char *root, const char *id,
               struct entitle_cgroup_record_s *out, size_t *n, size_t *cap)
{
  cleanup_free char *sdir = shard_dir (dir, shard);
  size_t count, i;
  cleanup_free uint64_t *ids = recorded_ids (sdir, &count);

  for (i = 0; i < count; i++)
    {
      struct entitle_cgroup_record_s r;

      if (!entitle_cgroup_record_read (state_dir, ids[i], &r))
        continue;
      if (strcmp (r.id, id) != 0 || (root != NULL && strcmp (r.root, root) != 0))
        {
          entitle_cgroup_record_free (&r);
          continue;
        }
      if (*n == *cap)
        out = xrealloc (out, (*cap = *cap ? 2 * *cap : 4) * sizeof (*out));
      out[(*n)++] = r;
    }
  return out;
}

struct entitle_cgroup_record_s *
entitle_cgroup_record_find (const char *state_dir, const char *root, const char *id, size_t *n)
{
  cleanup_free char *dir = record_dir (state_dir);
  struct entitle_cgroup_record_s *out = xcalloc (1, sizeof (*out));
  size_t cap = 1;
  unsigned shard;
  *n = 0;
  for (shard = 0; shard < RECORD_SHARDS; shard++)
    out = find_in_shard (state_dir, dir, shard, root, id, out, n, &cap);
  qsort (out, *n, sizeof (*out), newest_first);
  return out;
}

void
entitle_cgroup_record_forget (const char *state_dir, const char *root, const char *id, time_t since)
{
  cleanup_free char *dir = record_dir (state_dir);
  size_t n, i;
  struct entitle_cgroup_record_s *r = entitle_cgroup_record_find (state_dir, root, id, &n);

  for (i = 0; i < n; i++)
    {
      cleanup_free char *path = record_path (dir, r[i].cgroup_id);
      if (r[i].time >= since)
        unlink (path);
      entitle_cgroup_record_free (&r[i]);
    }
  free (r);
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

void
entitle_cgroup_record_collect (const char *state_dir, const char *cgroup2, uint64_t cgroup_id)
{
  cleanup_free char *top = record_dir (state_dir), *dir = shard_dir (top, shard_of (cgroup_id));
  cleanup_close int mntfd = open (cgroup2, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  size_t n, i, n_dead = 0, removed = 0, kept;
  cleanup_free uint64_t *ids = recorded_ids (dir, &n);
  cleanup_free struct dead_s *dead = xcalloc (n + 1, sizeof (*dead));
  time_t now = time (NULL);

  /* A cgroup this mount namespace cannot see is kept for one that can.  */
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
  for (i = 0, kept = n - removed; i < n_dead && kept > ENTITLE_RECORD_MAX / RECORD_SHARDS; i++, kept--)
    {
      char path[PATH_MAX];
      snprintf (path, sizeof (path), "%s/%" PRIu64, dir, dead[i].id);
      unlink (path);
    }
}
