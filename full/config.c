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

static int
check (struct shim_s *s, const char *arg, entitle_error_t *err)
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
      printf ("no admin config (ENTITLE_CONFIG is set and empty): entitle applies no policy\n");
      return 0;
    }
  ret = entitle_file_read (path, MAX_ADMIN_CONFIG_SIZE, &buf, &len, err);
  if (ret < 0 && (*err)->status == ENOENT && !named)
    {
      entitle_error_release (err);
      printf ("no admin config at `%s`: entitle applies no policy\n", path);
      return 0;
    }
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "config check");
  entitle_config_check (&cfg, path, buf, len, &issues);
  check_custom (&cfg, &issues);
  ret = issues.n ? report (s, &issues, err) : 0;
  if (ret == 0)
    printf ("`%s`: ok\n", path);
  entitle_config_issues_free (&issues);
  entitle_config_free (&cfg);
  return ret;
}

int
shim_config (struct shim_s *s, entitle_error_t *err)
{
  int i = s->args.command_index + 1;
  const char *sub = i < s->argc ? s->argv[i] : NULL;
  int ret;

  if (sub == NULL || strcmp (sub, "check") != 0)
    return entitle_make_error (err, EINVAL, "config: %s%s%s: the command is `entitle config check [FILE]`",
                               sub ? "unknown command `" : "a command is needed", sub ? sub : "", sub ? "`" : "");
  if (i + 2 < s->argc)
    return entitle_make_error (err, EINVAL, "config check: unexpected argument `%s`", s->argv[i + 2]);
  if (i + 1 < s->argc && s->argv[i + 1][0] == '-')
    return entitle_make_error (err, EINVAL, "config check: unknown option `%s`", s->argv[i + 1]);
  ret = check (s, i + 1 < s->argc ? s->argv[i + 1] : NULL, err);
  if (UNLIKELY (ret < 0))
    return ret;
  fflush (stdout);
  exit (EXIT_SUCCESS);
}
