/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `entitle configure`'s plan (configure.h): read the files, print what
 * would change (--dry-run), or change it: each file replaced atomically
 * or deleted, the drop-in in place before the config that imports it.
 */
#include <config.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "configure.h"
#include "diff.h"
#include "file.h"
#include "utils.h"

int
configure_plan_read (struct configure_plan *plan, const char *path, struct configure_file **out,
                     entitle_error_t *err)
{
  struct configure_file *f = &plan->files[plan->n_files];
  struct stat st;
  int ret;

  if (plan->n_files == CONFIGURE_MAX_FILES)
    abort ();
  /* Refused before anything is written: the file is replaced by rename,
     never written through a link.  */
  if (lstat (path, &st) == 0 && S_ISLNK (st.st_mode))
    return entitle_make_error (err, ELOOP, "configure: `%s` is a symbolic link: entitle never writes through a link",
                               path);
  f->path = xstrdup (path);
  plan->n_files++;
  ret = entitle_file_read (path, MAX_ENGINE_CONFIG, &f->before, &f->blen, err);
  f->existed = ret == 0;
  if (ret < 0 && (*err)->status == ENOENT)
    {
      entitle_error_release (err);
      f->before = xstrdup ("");
      f->blen = 0;
      ret = 0;
    }
  *out = f;
  return ret < 0 ? entitle_error_wrap (err, "configure") : 0;
}

bool
configure_file_changed (const struct configure_file *f)
{
  if (f->after == NULL)
    return f->existed;
  return !f->existed || f->alen != f->blen || memcmp (f->after, f->before, f->alen) != 0;
}

static bool
points_at_entitle (const char *link)
{
  char target[16];
  ssize_t n = readlink (link, target, sizeof target);

  return n == 7 && memcmp (target, "entitle", 7) == 0;
}

void
configure_plan_links_named (struct configure_plan *plan, const char *binary, const struct configure_file *f)
{
  cleanup_free char *copy = xstrdup (binary);
  cleanup_dir DIR *d = NULL;
  const char *dir;
  struct dirent *e;
  dir = dirname (copy);
  d = opendir (dir);
  while (d && (e = readdir (d)) != NULL && plan->n_links < CONFIGURE_MAX_LINKS)
    {
      cleanup_free char *link = NULL, *quoted = NULL;
      if (strncmp (e->d_name, "entitle-", 8) != 0)
        continue;
      xasprintf (&link, "%s/%s", dir, e->d_name);
      xasprintf (&quoted, "\"%s\"", link);
      if (points_at_entitle (link) && strstr (f->before, quoted))
        plan->links[plan->n_links++] = get_and_reset (&link);
    }
}

void
configure_plan_print (const struct configure_plan *plan, const struct entitle_engine_s *engine)
{
  bool any = false;
  size_t i;

  for (i = 0; i < plan->n_files; i++)
    {
      const struct configure_file *f = &plan->files[i];
      cleanup_free char *diff = NULL;
      if (!configure_file_changed (f))
        continue;
      diff = entitle_unified_diff (f->path, f->before, f->blen, f->after ? f->after : "", f->after ? f->alen : 0);
      fputs (diff, stdout);
      if (f->after == NULL)
        printf ("delete %s\n", f->path);
      any = true;
    }
  for (i = 0; i < plan->n_links; i++)
    printf (plan->remove ? "remove symlink %s\n" : "symlink %s -> entitle\n", plan->links[i]);
  any |= plan->n_links > 0;
  if (!any)
    printf ("%s: nothing to change\n", engine->name);
  else if (strcmp (engine->then, "nothing") == 0)
    printf ("%s: nothing to do (%s)\n", engine->name, engine->restart);
  else
    printf ("%s: %s (%s)\n", engine->name, engine->then, engine->restart);
}

/* Keep FILE.entitle-backup, then replace FILE.  */
static int
write_backed_up (const struct configure_file *f, entitle_error_t *err)
{
  cleanup_free char *backup = NULL;
  struct stat st;
  int ret;

  xasprintf (&backup, "%s" CONFIGURE_BACKUP_SUFFIX, f->path);
  if (lstat (f->path, &st) < 0)
    return entitle_make_sys_error (err, "stat `%s`", f->path);
  ret = entitle_file_create_atomic (backup, f->before, f->blen, st.st_mode, err);
  if (ret == 0)
    ret = entitle_file_write_atomic (f->path, f->after, f->alen, err);
  return ret;
}

/* The directory of a new drop-in, as the engine's packages make it.  */
static int
make_parent (const char *path, entitle_error_t *err)
{
  cleanup_free char *copy = xstrdup (path);
  const char *dir;
  dir = dirname (copy);
  if (mkdir (dir, 0755) < 0 && errno != EEXIST)
    return entitle_make_sys_error (err, "mkdir `%s`", dir);
  return 0;
}

static int
apply_file (const struct configure_file *f, entitle_error_t *err)
{
  int ret;

  if (!configure_file_changed (f))
    return 0;
  if (f->after == NULL)
    {
      if (unlink (f->path) < 0 && errno != ENOENT)
        return entitle_make_sys_error (err, "configure: delete `%s`", f->path);
      return 0;
    }
  if (f->existed && f->backup)
    ret = write_backed_up (f, err);
  else if (f->existed)
    ret = entitle_file_write_atomic (f->path, f->after, f->alen, err);
  else
    {
      ret = make_parent (f->path, err);
      if (ret == 0)
        ret = entitle_file_create_atomic (f->path, f->after, f->alen, 0644, err);
    }
  return ret < 0 ? entitle_error_wrap (err, "configure") : 0;
}

/* Install: entitle-PROFILE beside entitle, relative, so that it follows
   entitle wherever the directory is mounted.  */
static int
apply_links (const struct configure_plan *plan, const char *binary, entitle_error_t *err)
{
  cleanup_free char *copy = xstrdup (binary);
  size_t i;
  for (i = 0; i < plan->n_links; i++)
    {
      const char *link = plan->links[i];
      if (plan->remove && unlink (link) < 0 && errno != ENOENT)
        return entitle_make_sys_error (err, "configure: remove `%s`", link);
      if (!plan->remove && symlink (basename (copy), link) < 0 && errno != EEXIST)
        return entitle_make_sys_error (err, "configure: symlink `%s`", link);
    }
  return 0;
}

int
configure_plan_apply (const struct configure_plan *plan, const char *binary, entitle_error_t *err)
{
  size_t i;
  int ret = 0;

  /* files[0] is the drop-in (or the one file); files[1] the config that
     imports it: listed only once it is there, deleted only once it is no
     longer listed.  The symlinks are there before a file names them.  */
  if (!plan->remove)
    {
      ret = apply_links (plan, binary, err);
      for (i = 0; i < plan->n_files && ret == 0; i++)
        ret = apply_file (&plan->files[i], err);
      return ret;
    }
  for (i = plan->n_files; i-- > 0 && ret == 0;)
    ret = apply_file (&plan->files[i], err);
  return ret == 0 ? apply_links (plan, binary, err) : ret;
}

void
configure_plan_release (struct configure_plan *plan)
{
  size_t i;

  for (i = 0; i < plan->n_files; i++)
    {
      free (plan->files[i].path);
      free (plan->files[i].before);
      free (plan->files[i].after);
    }
  for (i = 0; i < plan->n_links; i++)
    free (plan->links[i]);
}
