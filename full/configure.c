/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "engines.h"
#include "file.h"
#include "utils.h"

/* entitle configure ENGINE [--profile NAME]... [--config FILE]
   [--binary PATH] [--dry-run]: register entitle, and one runtime per
   profile, in the engine's config (DESIGN §7), as nvidia-ctk runtime
   configure does.  A second run changes nothing; the file is replaced
   atomically after a copy of it is kept as FILE.entitle-backup; any error
   leaves it as it was.  */

#define BACKUP_SUFFIX ".entitle-backup"

/* An engine config is small: containerd's full default is 8 KiB.  */
#define MAX_ENGINE_CONFIG (1024 * 1024)

#define MAX_PROFILES 64

struct configure_opts
{
  const struct entitle_engine_s *engine;
  const char *config, *binary;
  char *profiles[MAX_PROFILES + 1];
  size_t n_profiles;
  bool dry_run;
};

static int
add_profile (struct configure_opts *o, const char *name, entitle_error_t *err)
{
  if (entitle_strv_has (o->profiles, name))
    return 0;
  if (o->n_profiles == MAX_PROFILES)
    return entitle_make_error (err, E2BIG, "configure: more than %d profiles", MAX_PROFILES);
  o->profiles[o->n_profiles++] = (char *)name;
  return 0;
}

/* The options of configure's row (full/table.c); --drop-in, --remove,
   --set-as-default and --in-place are declared there for the drop-in
   work, which sets them here.  */
static int
take_opt (struct shim_s *s, void *data, enum shim_key key, const char *value, entitle_error_t *err)
{
  struct configure_opts *o = data;
  char names[128];

  switch (key)
    {
    case KEY_DRY_RUN:
      o->dry_run = true;
      return 0;
    case KEY_PROFILE:
      return add_profile (o, value, err);
    case KEY_CONFIG:
      o->config = value;
      return 0;
    case KEY_BINARY:
      o->binary = value;
      return 0;
    case KEY_ARG:
      if (o->engine)
        shim_usage_error (s, "configure: unexpected argument `%s`", value);
      if ((o->engine = entitle_engine_find (value)) != NULL)
        return 0;
      entitle_engine_names (names, sizeof names);
      return entitle_make_error (err, EINVAL, "configure: unknown engine `%s` (entitle configures %s)", value, names);
    default:
      return entitle_make_error (err, ENOTSUP, "configure: this build does not take that option yet");
    }
}

static int
parse_opts (struct shim_s *s, struct configure_opts *o, entitle_error_t *err)
{
  char names[128];
  int ret = shim_parse (s, o, take_opt, err);

  if (UNLIKELY (ret < 0))
    return ret;
  if (o->engine == NULL)
    {
      entitle_engine_names (names, sizeof names);
      return entitle_make_error (err, EINVAL, "configure: name the engine: %s", names);
    }
  return 0;
}

/* Every profile named must be one the admin config defines: the engine
   would run entitle-NAME, and entitle would refuse every container.  */
static int
check_profiles (struct shim_s *s, const struct configure_opts *o, entitle_error_t *err)
{
  struct entitle_config_s *cfg = (struct entitle_config_s *)s->ctx->config;
  const struct entitle_profile_s *running = cfg->profile;
  size_t i;
  int ret = 0;

  for (i = 0; i < o->n_profiles && ret == 0; i++)
    ret = entitle_config_select_profile (cfg, o->profiles[i], err);
  cfg->profile = running;
  return ret < 0 ? entitle_error_wrap (err, "configure") : 0;
}

static int
check_binary (const char *binary, entitle_error_t *err)
{
  if (binary[0] != '/')
    return entitle_make_error (err, EINVAL, "configure: `--binary %s`: the engine needs an absolute path", binary);
  if (access (binary, X_OK) < 0)
    return entitle_make_error (err, errno, "configure: entitle is not at `%s`: %s (give it with --binary)", binary,
                               strerror (errno));
  return 0;
}

/* The symlink entitle-PROFILE beside entitle: there already, or @make it
   (relative, so that it follows entitle wherever the directory is
   mounted).  Anything else by that name is an error.  */
static int
profile_link (const char *link, const char *binary, bool make, entitle_error_t *err)
{
  cleanup_free char *copy = strdup (binary);
  struct stat want, got;

  if (copy == NULL || stat (binary, &want) < 0)
    return entitle_make_error (err, errno, "configure: stat `%s`: %s", binary, strerror (errno));
  if (stat (link, &got) == 0)
    {
      if (got.st_dev == want.st_dev && got.st_ino == want.st_ino)
        return 0;
      return entitle_make_error (err, EEXIST, "configure: `%s` exists and is not entitle", link);
    }
  if (errno != ENOENT)
    return entitle_make_error (err, errno, "configure: stat `%s`: %s", link, strerror (errno));
  if (make && symlink (basename (copy), link) < 0)
    return entitle_make_error (err, errno, "configure: symlink `%s`: %s", link, strerror (errno));
  return 0;
}

static int
profile_links (const struct configure_opts *o, const struct entitle_engine_runtime_s *r, size_t n, bool make,
               entitle_error_t *err)
{
  size_t i;
  int ret = 0;

  for (i = 0; i < n && ret == 0; i++)
    if (r[i].profile && o->engine->symlinks)
      ret = profile_link (r[i].binary, o->binary, make, err);
  return ret;
}

/* The engine's config as it is: "" (and @exists false) when there is
   none yet.  */
static int
read_config (const char *path, char **text, size_t *len, bool *exists, entitle_error_t *err)
{
  struct stat st;
  int ret;

  /* Refused before anything is written: the file is replaced by rename,
     never written through a link.  */
  if (lstat (path, &st) == 0 && S_ISLNK (st.st_mode))
    return entitle_make_error (err, ELOOP, "configure: `%s` is a symbolic link: entitle never writes through a link",
                               path);
  ret = entitle_file_read (path, MAX_ENGINE_CONFIG, text, len, err);
  *exists = ret == 0;
  if (ret < 0 && (*err)->status == ENOENT)
    {
      entitle_error_release (err);
      *text = strdup ("");
      *len = 0;
      return *text ? 0 : entitle_make_error (err, ENOMEM, "configure");
    }
  return ret < 0 ? entitle_error_wrap (err, "configure") : 0;
}

/* Keep FILE.entitle-backup, then replace FILE.  */
static int
write_config (const char *path, bool exists, const char *before, size_t blen, const char *after, size_t alen,
              entitle_error_t *err)
{
  cleanup_free char *backup = NULL;
  struct stat st;
  int ret;

  if (!exists)
    return entitle_file_create_atomic (path, after, alen, 0644, err);
  if (asprintf (&backup, "%s" BACKUP_SUFFIX, path) < 0)
    abort ();
  if (lstat (path, &st) < 0)
    return entitle_make_error (err, errno, "stat `%s`: %s", path, strerror (errno));
  ret = entitle_file_create_atomic (backup, before, blen, st.st_mode, err);
  if (ret == 0)
    ret = entitle_file_write_atomic (path, after, alen, err);
  return ret;
}

static void
report (const struct configure_opts *o, const char *path, bool exists, bool changed,
        const struct entitle_engine_runtime_s *r, size_t n)
{
  size_t i;

  if (!changed)
    printf ("configure: `%s` already registers", path);
  else
    printf ("configure: wrote `%s`%s%s%s; runtimes", path, exists ? " (the previous one is `" : " (new)",
            exists ? path : "", exists ? BACKUP_SUFFIX "`)" : "");
  for (i = 0; i < n; i++)
    printf ("%s %s", i ? "," : "", r[i].name);
  if (changed)
    printf ("; for %s to use them: %s\n", o->engine->name, o->engine->restart);
  else
    printf (": nothing to write\n");
}

int
shim_configure (struct shim_s *s, entitle_error_t *err)
{
  struct configure_opts o = { .binary = BINDIR "/entitle" };
  cleanup_free char *before = NULL, *after = NULL;
  struct entitle_engine_runtime_s *runtimes = NULL;
  size_t blen, alen, n = 0;
  const char *path;
  bool exists, changed;
  int ret;

  ret = parse_opts (s, &o, err);
  if (ret == 0)
    ret = check_profiles (s, &o, err);
  if (ret == 0)
    ret = check_binary (o.binary, err);
  if (UNLIKELY (ret < 0))
    return ret;
  path = o.config ? o.config : o.engine->config;
  runtimes = entitle_engine_runtimes (o.engine, o.binary, o.profiles, &n);
  ret = read_config (path, &before, &blen, &exists, err);
  if (ret == 0 && o.engine->edit (path, before, blen, runtimes, n, &after, &alen, err) < 0)
    ret = entitle_error_wrap (err, "configure");
  if (ret == 0)
    ret = profile_links (&o, runtimes, n, !o.dry_run, err);
  changed = ret == 0 && (!exists || alen != blen || memcmp (after, before, alen) != 0);
  if (ret == 0 && changed && !o.dry_run && write_config (path, exists, before, blen, after, alen, err) < 0)
    ret = entitle_error_wrap (err, "configure");
  if (ret == 0 && o.dry_run)
    fwrite (after, 1, alen, stdout);
  else if (ret == 0)
    report (&o, path, exists, changed, runtimes, n);
  entitle_engine_runtimes_free (runtimes, n);
  if (UNLIKELY (ret < 0))
    return ret;
  exit (EXIT_SUCCESS);
}
