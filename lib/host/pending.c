/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "admin-config.h"
#include "file.h"
#include "hash.h"
#include "pending.h"
#include "utils.h"

/* STATE_DIR/pending/ID.HASH, or NULL for an id that cannot name a file
   (the runtime refuses those ids itself).  */
static char *
mark_path (const char *state_dir, const char *root, const char *id)
{
  cleanup_free char *dir = entitle_state_path (state_dir, "pending");
  uint64_t h = entitle_fnv_str (ENTITLE_FNV_OFFSET, root ? root : "");
  char *path;

  if (id == NULL || *id == '\0' || strchr (id, '/') || strcmp (id, "..") == 0 || strcmp (id, ".") == 0)
    return NULL;
  xasprintf (&path, "%s/%s.%016llx", dir, id, (unsigned long long)h);
  return path;
}

int
entitle_pending_mark (const char *state_dir, const char *root, const char *id, entitle_error_t *err)
{
  cleanup_free char *path = mark_path (state_dir, root, id);
  cleanup_free char *dir = entitle_state_path (state_dir, "pending");
  cleanup_close int fd = -1;
  int ret;

  if (path == NULL)
    return 0;
  ret = entitle_mkdir_state (dir, 1, err);
  if (ret < 0)
    return ret;
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    return entitle_make_sys_error (err, "write `%s`", path);
  return 0;
}

void
entitle_pending_clear (const char *state_dir, const char *root, const char *id)
{
  cleanup_free char *path = mark_path (state_dir, root, id);

  if (path)
    unlink (path);
}

int
entitle_pending_is_marked (const char *state_dir, const char *root, const char *id)
{
  cleanup_free char *path = mark_path (state_dir, root, id);
  struct stat sb;

  return path && lstat (path, &sb) == 0;
}
