/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime.h"
#include "utils.h"

#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/* 1: usable, 0: not there, -1: it is entitle itself.  */
static int
usable (const char *path, const struct stat *self)
{
  struct stat st;

  if (stat (path, &st) < 0 || !S_ISREG (st.st_mode) || access (path, X_OK) < 0)
    return 0;
  if (self && st.st_dev == self->st_dev && st.st_ino == self->st_ino)
    return -1;
  return 1;
}

static char *
search_path (const char *name, const struct stat *self)
{
  const char *env = getenv ("PATH");
  cleanup_free char *dirs = strdup (env && *env ? env : DEFAULT_PATH);
  char *save = NULL, *dir;

  for (dir = strtok_r (dirs, ":", &save); dir; dir = strtok_r (NULL, ":", &save))
    {
      char *candidate;
      if (asprintf (&candidate, "%s/%s", *dir ? dir : ".", name) < 0)
        abort ();
      if (usable (candidate, self) > 0)
        return candidate;
      free (candidate);
    }
  return NULL;
}

int
entitle_runtime_find (const struct entitle_config_s *cfg, char **path, entitle_error_t *err)
{
  static const char *const defaults[] = { "runc", "crun" };
  struct stat self_st, *self = stat ("/proc/self/exe", &self_st) == 0 ? &self_st : NULL;
  size_t i;

  if (cfg->runtime && strchr (cfg->runtime, '/'))
    {
      int u = usable (cfg->runtime, self);
      if (u < 0)
        return entitle_make_error (err, ELOOP, "runtime `%s` (from %s) is entitle itself", cfg->runtime, cfg->path);
      if (u == 0)
        return entitle_make_error (err, ENOENT, "runtime `%s` (from %s) is not an executable file",
                                   cfg->runtime, cfg->path);
      *path = strdup (cfg->runtime);
      return 0;
    }
  if (cfg->runtime)
    {
      *path = search_path (cfg->runtime, self);
      if (*path == NULL)
        return entitle_make_error (err, ENOENT, "runtime `%s` (from %s) is not on PATH", cfg->runtime, cfg->path);
      return 0;
    }
  for (i = 0; i < sizeof (defaults) / sizeof (defaults[0]); i++)
    if ((*path = search_path (defaults[i], self)))
      return 0;
  return entitle_make_error (err, ENOENT,
                             "no runtime found: neither runc nor crun is on PATH (or set \"runtime\" in %s)",
                             entitle_config_name (cfg));
}
