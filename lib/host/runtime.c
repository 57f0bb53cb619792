/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime.h"
#include "utils.h"

#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/* The files that are entitle: the running program and, in entitle-full,
   the front that ran it.  */
struct selves
{
  struct stat st[2];
  size_t n;
};

static struct
{
  bool set;
  dev_t dev;
  ino_t ino;
} front;

void
entitle_runtime_export_front (void)
{
  struct stat st;
  char v[64];

  if (stat ("/proc/self/exe", &st) < 0)
    return;
  snprintf (v, sizeof v, "%ju:%ju", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
  setenv (ENTITLE_FRONT_ENV, v, 1);
}

void
entitle_runtime_import_front (void)
{
  const char *v = getenv (ENTITLE_FRONT_ENV);
  uintmax_t dev, ino;

  if (v && sscanf (v, "%ju:%ju", &dev, &ino) == 2)
    {
      front.set = true;
      front.dev = (dev_t)dev;
      front.ino = (ino_t)ino;
    }
  unsetenv (ENTITLE_FRONT_ENV);
}

int
entitle_runtime_check_loop (entitle_error_t *err)
{
  const char *ran = getenv (ENTITLE_LOOP_ENV);

  if (ran == NULL)
    return 0;
  return entitle_make_error (err, ELOOP,
                             "the runtime `%s` that entitle ran runs entitle again (an exec loop): name the real "
                             "runtime in \"runtime\" of the admin config",
                             ran);
}

void
entitle_runtime_mark (const char *path)
{
  setenv (ENTITLE_LOOP_ENV, path, 1);
}

static void
find_selves (struct selves *s)
{
  s->n = 0;
  if (stat ("/proc/self/exe", &s->st[s->n]) == 0)
    s->n++;
  if (front.set)
    {
      s->st[s->n].st_dev = front.dev;
      s->st[s->n].st_ino = front.ino;
      s->n++;
    }
}

/* 1: usable, 0: not there, -1: it is entitle itself.  */
static int
usable (const char *path, const struct selves *self)
{
  struct stat st;
  size_t i;

  if (stat (path, &st) < 0 || !S_ISREG (st.st_mode) || access (path, X_OK) < 0)
    return 0;
  for (i = 0; i < self->n; i++)
    if (st.st_dev == self->st[i].st_dev && st.st_ino == self->st[i].st_ino)
      return -1;
  return 1;
}

static char *
search_path (const char *name, const struct selves *self)
{
  const char *env = getenv ("PATH");
  cleanup_free char *dirs = strdup (env && *env ? env : DEFAULT_PATH);
  char *save = NULL, *dir;

  for (dir = strtok_r (dirs, ":", &save); dir; dir = strtok_r (NULL, ":", &save))
    {
      char *candidate;
      xasprintf (&candidate, "%s/%s", *dir ? dir : ".", name);
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
  struct selves self;
  size_t i;

  find_selves (&self);
  if (cfg->runtime && strchr (cfg->runtime, '/'))
    {
      int u = usable (cfg->runtime, &self);
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
      *path = search_path (cfg->runtime, &self);
      if (*path == NULL)
        return entitle_make_error (err, ENOENT, "runtime `%s` (from %s) is not on PATH", cfg->runtime, cfg->path);
      return 0;
    }
  for (i = 0; i < sizeof (defaults) / sizeof (defaults[0]); i++)
    if ((*path = search_path (defaults[i], &self)))
      return 0;
  return entitle_make_error (err, ENOENT,
                             "no runtime found: neither runc nor crun is on PATH (or set \"runtime\" in %s)",
                             entitle_config_name (cfg));
}
