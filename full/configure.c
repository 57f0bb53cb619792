/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "configure.h"
#include "engines.h"
#include "file.h"
#include "utils.h"

/* entitle configure ENGINE [--profile NAME]... [--drop-in FILE]
   [--config FILE] [--in-place] [--binary PATH] [--set-as-default]
   [--remove] [--dry-run]: register entitle, and one runtime per profile,
   with the engine (DESIGN §7), as nvidia-ctk runtime configure does: in a
   drop-in the engine reads (containerd's through one `imports` entry of
   its config), or in the config itself (Docker, --in-place), replaced
   atomically after a copy of it is kept as FILE.entitle-backup.  A second
   run changes nothing; --remove undoes it byte for byte; any error
   leaves every file as it was.  */

#define MAX_PROFILES (CONFIGURE_MAX_LINKS - 1)

struct configure_opts
{
  const struct entitle_engine_s *engine;
  const char *config, *binary, *drop_in;
  char drop_in_beside[PATH_MAX];
  char *profiles[MAX_PROFILES + 1];
  size_t n_profiles;
  bool dry_run, in_place, remove, set_default;
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

/* The options of configure's row (full/table.c).  */
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
    case KEY_DROP_IN:
      o->drop_in = value;
      return 0;
    case KEY_IN_PLACE:
      o->in_place = true;
      return 0;
    case KEY_REMOVE:
      o->remove = true;
      return 0;
    case KEY_SET_AS_DEFAULT:
      o->set_default = true;
      return 0;
    default:
      return entitle_make_error (err, ENOTSUP, "configure: an option of no use here");
    }
}

/* The options that cannot go together.  */
static int
check_modes (const struct configure_opts *o, entitle_error_t *err)
{
  const char *name = o->engine->name;

  if (o->drop_in && (o->in_place || o->engine->drop_in == NULL))
    return entitle_make_error (err, EINVAL, "configure: %s", o->in_place ? "`--drop-in` or `--in-place`, not both" : "Docker reads no drop-ins: no `--drop-in`");
  if (o->remove && (o->n_profiles || o->set_default))
    return entitle_make_error (err, EINVAL, "configure: `--remove` takes out every runtime of entitle: no `--%s`",
                               o->n_profiles ? "profile" : "set-as-default");
  if (o->remove && (o->in_place || (o->config && !o->engine->imports && o->engine->drop_in && !o->drop_in)))
    return entitle_make_error (err, EINVAL,
                               "configure: `--remove` undoes a drop-in (and Docker's daemon.json); "
                               "an edit in place of %s's config is undone with its " CONFIGURE_BACKUP_SUFFIX,
                               name);
  return 0;
}

/* --config alone for an engine whose config imports the drop-in: the
   drop-in where the default one is to the default config (containerd's
   conf.d/entitle.toml beside config.toml), so that a config elsewhere
   never imports, nor --remove deletes, the host's drop-in.  */
static int
beside_config (struct configure_opts *o, entitle_error_t *err)
{
  const char *slash = strrchr (o->engine->config, '/'), *own = strrchr (o->config, '/');
  size_t dir = slash - o->engine->config + 1;
  char cwd[PATH_MAX] = "";
  int n;

  if (strncmp (o->engine->drop_in, o->engine->config, dir) != 0)
    return 0;
  if (o->config[0] != '/' && getcwd (cwd, sizeof cwd - 1) != NULL)
    strcat (cwd, "/");
  n = snprintf (o->drop_in_beside, sizeof o->drop_in_beside, "%s%.*s%s", cwd, own ? (int)(own - o->config + 1) : 0,
                o->config, o->engine->drop_in + dir);
  if (n < 0 || (size_t)n >= sizeof o->drop_in_beside)
    return entitle_make_error (err, ENAMETOOLONG, "configure: `--config %s`: the path is too long", o->config);
  o->drop_in = o->drop_in_beside;
  return 0;
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
  if (o->engine->imports && o->config && o->drop_in == NULL && !o->in_place
      && beside_config (o, err) < 0)
    return -1;
  return check_modes (o, err);
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

/* The symlink entitle-PROFILE beside entitle: there already (false), to
   make (true).  Anything else by that name is an error.  */
static int
profile_link (const char *link, const char *binary, bool *make, entitle_error_t *err)
{
  struct stat want, got;

  *make = false;
  if (stat (binary, &want) < 0)
    return entitle_make_sys_error (err, "configure: stat `%s`", binary);
  if (stat (link, &got) == 0)
    {
      if (got.st_dev == want.st_dev && got.st_ino == want.st_ino)
        return 0;
      return entitle_make_error (err, EEXIST, "configure: `%s` exists and is not entitle", link);
    }
  if (errno != ENOENT)
    return entitle_make_sys_error (err, "configure: stat `%s`", link);
  *make = true;
  return 0;
}

static int
profile_links (struct configure_plan *plan, const struct configure_opts *o,
               const struct entitle_engine_runtime_s *r, size_t n, entitle_error_t *err)
{
  size_t i;
  bool make;
  int ret = 0;

  for (i = 0; i < n && ret == 0; i++)
    if (r[i].profile && o->engine->symlinks)
      {
        ret = profile_link (r[i].binary, o->binary, &make, err);
        if (ret == 0 && make)
          plan->links[plan->n_links++] = xstrdup (r[i].binary);
      }
  return ret;
}

/* The file entitle writes the runtimes into: the drop-in, or the config
   itself (Docker, --in-place, and --config alone for an engine that reads
   its drop-ins itself: the file named is the file written).  */
static const char *
target (const struct configure_opts *o)
{
  if (o->drop_in)
    return o->drop_in;
  if (o->in_place || o->engine->drop_in == NULL || (o->config && !o->engine->imports))
    return o->config ? o->config : o->engine->config;
  return o->engine->drop_in;
}

static bool
in_place (const struct configure_opts *o)
{
  return o->engine->drop_in == NULL || o->in_place || (!o->drop_in && o->config && !o->engine->imports);
}

static const char *
main_config (const struct configure_opts *o)
{
  return o->config ? o->config : o->engine->config;
}

/* What `configure` changes: the file (and containerd's config that
   imports it), and the symlinks.  */
static int
plan_install (struct configure_plan *plan, const struct configure_opts *o, struct entitle_engine_runtime_s *r,
              size_t n, entitle_error_t *err)
{
  struct configure_file *f, *main_file;
  int ret;

  r[0].is_default = o->set_default;
  ret = configure_plan_read (plan, target (o), &f, err);
  if (ret == 0 && o->engine->imports && !in_place (o))
    {
      ret = configure_plan_read (plan, main_config (o), &main_file, err);
      if (ret == 0)
        ret = configure_containerd_dropin (o->engine, main_file, f, r, n, err);
    }
  else if (ret == 0 && o->engine->edit (f->path, f->before, f->blen, r, n, &f->after, &f->alen, err) < 0)
    ret = entitle_error_wrap (err, "configure");
  f->backup = in_place (o);
  if (ret == 0)
    ret = profile_links (plan, o, r, n, err);
  return ret;
}

/* What `configure --remove` changes.  */
static int
plan_remove (struct configure_plan *plan, const struct configure_opts *o, entitle_error_t *err)
{
  cleanup_free char *backup_path = NULL, *backup = NULL;
  struct configure_file *f, *main_file;
  entitle_error_t ignored = NULL;
  size_t backup_len = 0;
  int ret;

  plan->remove = true;
  ret = configure_plan_read (plan, target (o), &f, err);
  if (ret == 0 && o->engine->imports)
    {
      ret = configure_plan_read (plan, main_config (o), &main_file, err);
      if (ret == 0)
        ret = configure_containerd_undo (main_file, f, err);
    }
  else if (ret == 0 && in_place (o) && f->existed)
    {
      xasprintf (&backup_path, "%s" CONFIGURE_BACKUP_SUFFIX, f->path);
      if (entitle_file_read (backup_path, MAX_ENGINE_CONFIG, &backup, &backup_len, &ignored) < 0)
        entitle_error_release (&ignored);
      ret = entitle_engine_docker_remove (f->path, f->before, f->blen, backup, backup_len, &f->after, &f->alen, err);
      if (ret < 0)
        ret = entitle_error_wrap (err, "configure");
    }
  if (ret == 0)
    configure_plan_links_named (plan, o->binary, f);
  return ret;
}

static void
report_runtimes (const struct entitle_engine_runtime_s *r, size_t n)
{
  size_t i;

  printf ("; runtimes");
  for (i = 0; i < n; i++)
    printf ("%s %s%s", i ? "," : "", r[i].name, r[i].is_default ? " (the default)" : "");
}

static void
report_file (const struct configure_file *f, bool first)
{
  if (f->after == NULL)
    printf ("configure: removed `%s`", f->path);
  else if (!f->existed)
    printf ("configure: wrote `%s` (new)", f->path);
  else if (f->backup && first)
    printf ("configure: wrote `%s` (the previous one is `%s" CONFIGURE_BACKUP_SUFFIX "`)", f->path, f->path);
  else
    printf ("configure: wrote `%s`", f->path);
}

static void
report (const struct configure_opts *o, const struct configure_plan *plan, const struct entitle_engine_runtime_s *r,
        size_t n)
{
  bool changed = false;
  size_t i;

  for (i = 0; i < plan->n_files; i++)
    {
      const struct configure_file *f = &plan->files[i];
      if (!configure_file_changed (f))
        continue;
      report_file (f, i == 0);
      if (i == 0 && !plan->remove)
        report_runtimes (r, n);
      if (i == 0 || !changed)
        printf ("; for %s to %s them: %s\n", o->engine->name, plan->remove ? "forget" : "use", o->engine->restart);
      else
        printf ("\n");
      changed = true;
    }
  for (i = 0; plan->remove && i < plan->n_links; i++)
    printf ("configure: removed the symlink `%s`\n", plan->links[i]);
  if (changed || (plan->remove && plan->n_links))
    return;
  if (plan->remove)
    printf ("configure: `%s` registers nothing of entitle: nothing to remove\n", plan->files[0].path);
  else
    {
      printf ("configure: `%s` already registers", plan->files[0].path);
      for (i = 0; i < n; i++)
        printf ("%s %s", i ? "," : "", r[i].name);
      printf (": nothing to write\n");
    }
}

int
shim_configure (struct shim_s *s, entitle_error_t *err)
{
  struct configure_opts o = { .binary = BINDIR "/entitle" };
  struct configure_plan plan = { 0 };
  struct entitle_engine_runtime_s *runtimes = NULL;
  size_t n = 0;
  int ret;

  ret = parse_opts (s, &o, err);
  if (ret == 0)
    ret = check_profiles (s, &o, err);
  if (ret == 0)
    ret = o.remove ? (o.binary[0] == '/' ? 0 : check_binary (o.binary, err)) : check_binary (o.binary, err);
  if (UNLIKELY (ret < 0))
    return ret;
  runtimes = entitle_engine_runtimes (o.engine, o.binary, o.profiles, &n);
  ret = o.remove ? plan_remove (&plan, &o, err) : plan_install (&plan, &o, runtimes, n, err);
  if (ret == 0 && o.dry_run)
    configure_plan_print (&plan, o.engine);
  else if (ret == 0)
    ret = configure_plan_apply (&plan, o.binary, err);
  if (ret == 0 && !o.dry_run)
    report (&o, &plan, runtimes, n);
  entitle_engine_runtimes_free (runtimes, n);
  configure_plan_release (&plan);
  if (UNLIKELY (ret < 0))
    return ret;
  exit (EXIT_SUCCESS);
}
