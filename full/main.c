/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "custom-check.h"
#include "custom-progs.h"
#include "help.h"
#include "runtime.h"
#include "utils.h"

int
shim_exec_runtime (struct shim_s *s, entitle_error_t *err)
{
  char **argv = s->argv;

  argv[0] = (char *)s->runtime;
  fflush (stdout);
  execv (s->runtime, argv);
  return entitle_make_sys_error (err, "exec `%s`", s->runtime);
}

/* The wrapped runtime, which runs under its mark from here on (captures
   included).  */
int
shim_find_runtime (struct shim_s *s, char **runtime, entitle_error_t *err)
{
  int ret = entitle_runtime_find (s->ctx->config, runtime, err);
  if (UNLIKELY (ret < 0))
    return ret;
  s->runtime = *runtime;
  entitle_runtime_mark (*runtime);
  return 0;
}

int
shim_load_config (struct shim_s *s, bool policy, entitle_error_t *err)
{
  struct entitle_config_s *cfg = (struct entitle_config_s *)s->ctx->config;
  int ret = entitle_config_open (cfg, s->args.entitle_config, s->args.entitle_profile, err);

  /* Custom rows name syscalls, capabilities and BPF objects that only
     the libraries entitle-full links can check (the front cannot).  */
  if (ret == 0 && cfg->catalogue.n_custom)
    {
      ret = entitle_custom_check (&cfg->catalogue, err);
      if (ret == 0)
        ret = entitle_bpf_custom_check (&cfg->catalogue, err);
      if (UNLIKELY (ret < 0) && !policy)
        entitle_config_reset (cfg);
    }
  /* Commands that apply no policy reach the runtime regardless, found as
     with no admin config (DESIGN §7: containers are never stranded).  */
  if (UNLIKELY (ret < 0) && !policy)
    {
      entitle_log_warning (s->ctx->log, "%s; the runtime runs without it", (*err)->msg);
      entitle_error_release (err);
      return 0;
    }
  return ret;
}

/* A typo of one of entitle's global options or commands (shim/verbs.h
   has the rule) is an error; anything else unknown is the runtime's.  */
static void
check_typos (struct shim_s *s)
{
  const char *closest, *c = s->args.command;

  if (s->args.unknown_global && entitle_global_typo (s->args.unknown_global, &closest))
    {
      if (closest)
        shim_usage_error (s, "unknown option `%s`: did you mean `%s`?", s->args.unknown_global, closest);
      shim_usage_error (s, "unknown option `%s`: entitle's own are --entitle-config and --entitle-profile",
                        s->args.unknown_global);
    }
  /* A global --help is the overview, whatever follows.  */
  if (!s->args.help && (closest = entitle_verb_typo (c)) != NULL)
    shim_usage_error (s, "unknown command `%s`: did you mean `%s`?", c, closest);
}

static int
dispatch (struct shim_s *s, entitle_error_t *err)
{
  cleanup_free char *runtime = NULL;
  const struct shim_help_s *c;
  int ret;

  ret = entitle_runtime_check_loop (err);
  if (UNLIKELY (ret < 0))
    return ret;
  check_typos (s);
  /* Help reads the admin config only if it shows the runtime's help;
     completion never does.  A bare `entitle` is entitle's help.  */
  if (shim_help_asked (s) || (s->args.command == NULL && !s->args.version))
    return shim_help (s, err);
  c = shim_help_find (s->args.command);
  if (c && c->run == NULL)
    c = NULL;
  if (c && (c->flags & VERB_NO_CONFIG))
    return c->run (s, err);
  ret = shim_load_config (s, c && (c->flags & VERB_POLICY), err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (c && !(c->flags & VERB_RUNTIME))
    return c->run (s, err);
  ret = shim_find_runtime (s, &runtime, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (s->args.command == NULL && s->args.version)
    return shim_version (s, err);
  if (c)
    return c->run (s, err);
  return shim_exec_runtime (s, err);
}

int
main (int argc, char **argv)
{
  struct entitle_config_s cfg = { 0 };
  struct entitle_log_s log = { 0 };
  struct entitle_ctx_s ctx;
  struct shim_s s = { .argc = argc, .argv = argv };
  entitle_error_t err = NULL;
  int ret;

  entitle_runtime_import_front ();
  /* The runtime never sees entitle's own flags.  */
  s.argc = entitle_args_take_own (argc, argv, &s.args);
  log.path = s.args.log;
  log.json = s.args.log_format && strcmp (s.args.log_format, "json") == 0;
  log.debug = s.args.debug;
  entitle_ctx_init (&ctx, &log, &cfg);
  ctx.root = s.args.root;
  ctx.cgroup_unmanaged = s.args.no_cgroup_manager;
  ctx.preserve_fds = shim_preserved_fds (&s.args);
  /* create, the verb engines use, attaches after the runtime's create
     (full/attach-after.c).  run keeps the hook (the runtime owns the
     container from its start to its exit), and so does compile, whose
     output may be given to a runtime alone.  */
  ctx.attach_after = s.args.command && strcmp (s.args.command, "create") == 0;
  s.ctx = &ctx;
  ret = dispatch (&s, &err);
  if (ret < 0)
    {
      entitle_log_error (&log, "%s", err->msg);
      entitle_error_release (&err);
    }
  entitle_ctx_release (&ctx);
  entitle_config_free (&cfg);
  return ret < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
