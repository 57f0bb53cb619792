/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "config-check.h"
#include "custom-check.h"
#include "custom-progs.h"
#include "file.h"
#include "utils.h"

/* entitle config check [FILE]: every error of an admin config, one line
   each, and a non-zero exit if there is one (the installer runs it before
   it puts a config in place).  FILE defaults to the config entitle would
   load (--entitle-config, $ENTITLE_CONFIG, the built-in path); the check
   is the parser's own, in its strict mode, plus the names
   (lib/model/config-check.c).  It runs before the admin config is loaded,
   which would only warn about it.  */

#define MAX_ADMIN_CONFIG_SIZE (1024 * 1024)

/* The file to check, or NULL where ENTITLE_CONFIG= says there is none;
   @named: chosen by the caller, so that it must exist (the built-in path
   may be absent: entitle then applies no policy).  */
static const char *
config_to_check (struct shim_s *s, const char *arg, bool *named)
{
  const char *env = getenv ("ENTITLE_CONFIG");

  *named = true;
  if (arg)
    return arg;
  if (s->args.entitle_config)
    return s->args.entitle_config;
  if (env)
    return *env ? env : NULL;
  *named = false;
  return ENTITLE_CONFIG_FILE;
}

/* What only entitle-full can check of the admin's custom rows: their
   syscalls and capabilities, and their BPF objects.  */
static void
check_custom (struct entitle_config_s *cfg, struct entitle_config_issues_s *issues)
{
  entitle_error_t err = NULL;

  if (cfg->catalogue.n_custom == 0)
    return;
  if (entitle_custom_check (&cfg->catalogue, &err) < 0 || entitle_bpf_custom_check (&cfg->catalogue, &err) < 0)
    entitle_config_issue (issues, &err);
}

/* Every issue but the last to the log (stderr), the last as the error.  */
static int
report (struct shim_s *s, struct entitle_config_issues_s *issues, entitle_error_t *err)
{
  size_t i;

  for (i = 0; i + 1 < issues->n; i++)
    entitle_log_error (s->ctx->log, "%s", issues->lines[i]);
  return entitle_make_error (err, EINVAL, "%s", issues->lines[issues->n - 1]);
}

/* --json: the file, whether it is good, and every error, on stdout; the
   exit status is 1 when there is one, and stderr says nothing.  */
static void
report_json (const char *path, const struct entitle_config_issues_s *issues)
{
  cleanup_json json_t *doc = json_new (JSON_OBJECT);
  json_t *errors = json_new (JSON_ARRAY);
  entitle_error_t err = NULL;

  for (size_t i = 0; i < issues->n; i++)
    json_push (errors, json_new_string (issues->lines[i]));
  json_set (doc, "file", path ? json_new_string (path) : json_new (JSON_NULL));
  json_set (doc, "ok", json_new_bool (issues->n == 0));
  json_set (doc, "errors", errors);
  if (shim_print_json (doc, &err) < 0)
    entitle_error_release (&err);
  fflush (stdout);
  if (issues->n)
    exit (EXIT_FAILURE);
}

static int
check (struct shim_s *s, const char *arg, bool json, entitle_error_t *err)
{
  struct entitle_config_s cfg = { 0 };
  struct entitle_config_issues_s issues = { 0 };
  cleanup_free char *buf = NULL;
  bool named;
  const char *path = config_to_check (s, arg, &named);
  size_t len;
  int ret;

  if (path == NULL)
    {
      if (json)
        report_json (NULL, &issues);
      else
        printf ("no admin config (ENTITLE_CONFIG is set and empty): entitle applies no policy\n");
      return 0;
    }
  ret = entitle_file_read (path, MAX_ADMIN_CONFIG_SIZE, &buf, &len, err);
  if (ret < 0 && (*err)->status == ENOENT && !named)
    {
      entitle_error_release (err);
      if (json)
        report_json (NULL, &issues);
      else
        printf ("no admin config at `%s`: entitle applies no policy\n", path);
      return 0;
    }
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "config check");
  entitle_config_check (&cfg, path, buf, len, &issues);
  check_custom (&cfg, &issues);
  if (json)
    report_json (path, &issues);
  ret = issues.n && !json ? report (s, &issues, err) : 0;
  if (ret == 0 && !json)
    printf ("`%s`: ok\n", path);
  entitle_config_issues_free (&issues);
  entitle_config_free (&cfg);
  return ret;
}

struct config_opts
{
  const char *sub, *file;
  bool json;
};

static int
take_opt (struct shim_s *s, void *data, enum shim_key key, const char *value, entitle_error_t *err)
{
  struct config_opts *o = data;

  (void)err;
  if (key == KEY_JSON)
    o->json = true;
  else if (o->sub == NULL)
    o->sub = value;
  else if (o->file == NULL)
    o->file = value;
  else
    shim_usage_error (s, "config check: unexpected argument `%s`", value);
  return 0;
}

int
shim_config (struct shim_s *s, entitle_error_t *err)
{
  struct config_opts o = { NULL, NULL, false };
  int ret = shim_parse (s, &o, take_opt, err);

  if (UNLIKELY (ret < 0))
    return ret;
  if (o.sub == NULL)
    shim_usage_error (s, "config: a command is needed: the command is `entitle config check [FILE]`");
  if (strcmp (o.sub, "check") != 0)
    shim_usage_error (s, "config: unknown command `%s`: the command is `entitle config check [FILE]`", o.sub);
  ret = check (s, o.file, o.json, err);
  if (UNLIKELY (ret < 0))
    return ret;
  fflush (stdout);
  exit (EXIT_SUCCESS);
}
