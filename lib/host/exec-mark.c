/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "admin-config.h"
#include "exec-mark.h"
#include "utils.h"

/* state_dir/exec/ and the mark of (@root, @id) in it: FNV-1a of both.  */
static char *
mark_path (const char *state_dir, const char *root, const char *id, char **dir)
{
  uint64_t h = 0xcbf29ce484222325ULL;
  const char *parts[] = { root ? root : "", id };
  char *path;

  for (size_t k = 0; k < 2; k++)
    for (const unsigned char *c = (const unsigned char *)parts[k];; c++)
      {
        h = (h ^ *c) * 0x100000001b3ULL;
        if (*c == '\0')
          break;
      }
  *dir = entitle_state_path (state_dir, "exec");
  if (asprintf (&path, "%s/%016" PRIx64, *dir, h) < 0)
    abort ();
  return path;
}

bool
entitle_exec_marked (const char *state_dir, const char *root, const char *id)
{
  cleanup_free char *dir = NULL, *path = NULL;

  if (id == NULL)
    return false;
  path = mark_path (state_dir, root, id, &dir);
  return access (path, F_OK) == 0;
}

int
entitle_exec_mark (const char *state_dir, const char *root, const char *id, entitle_error_t *err)
{
  cleanup_free char *dir = NULL, *path = NULL, *parent = NULL;
  cleanup_close int fd = -1;

  if (id == NULL)
    return 0;
  path = mark_path (state_dir, root, id, &dir);
  parent = entitle_state_path (state_dir, "");
  mkdir (parent, 0700);
  if (mkdir (dir, 0700) < 0 && errno != EEXIST)
    return entitle_make_sys_error (err, "mark container `%s` for exec: mkdir `%s`", id, dir);
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  /* What the mark stands for, for people: the hash says nothing.  */
  if (fd < 0 || dprintf (fd, "%s\t%s\n", root ? root : "", id) < 0)
    return entitle_make_sys_error (err, "mark container `%s` for exec: `%s`", id, path);
  return 0;
}

void
entitle_exec_unmark (const char *state_dir, const char *root, const char *id)
{
  cleanup_free char *dir = NULL, *path = NULL;

  if (id == NULL)
    return;
  path = mark_path (state_dir, root, id, &dir);
  unlink (path);
}
