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
#include "runtime.h"
#include "utils.h"

/* The commands entitle acts on; every other one goes to the runtime as is.  */
static const struct command
{
  const char *name;
  int (*run) (struct shim_s *, entitle_error_t *);
  bool own;    /* entitle's debug commands: no runtime needed */
  bool policy; /* applies or computes policy: a bad admin config is an error */
} commands[] = {
  { "create", shim_create, false, true },
  { "run", shim_create, false, true },
  { "restore", shim_create, false, true },
  { "exec", shim_exec, false, true },
  { "features", shim_features, false, false },
  { "compile", shim_compile, true, true },
  { "explain", shim_explain, true, true },
  { "probe", shim_probe_command, true, true },
  { "checmate", shim_checmate, true, false },
  { "why", shim_why, true, true },
  { "inspect", shim_inspect, true, true },
  { "learn", shim_learn, true, true },
  { "version", shim_version, false, false },
  /* dispatch runs these two first: neither needs the admin config (help
     reads it only to find the runtime, after printing entitle's part).  */
  { "help", shim_help, true, false },
  { "__complete", shim_complete, true, false },
  { "configure", shim_configure, true, true },
  /* dispatch runs it first too: it checks the admin config, which it
     must not load (that would only warn).  */
  { "config", shim_config, true, false },
};

int
shim_exec_runtime (struct shim_s *s, entitle_error_t *err)
{
  char **argv = s->argv;

  argv[0] = (char *)s->runtime;
  fflush (stdout);
  execv (s->runtime, argv);
  return entitle_make_error (err, errno, "exec `%s`: %s", s->runtime, strerror (errno));
}

static const struct command *
find_command (const char *name)
{
  size_t i;
  for (i = 0; name && i < sizeof (commands) / sizeof (commands[0]); i++)
    if (strcmp (name, commands[i].name) == 0)
      return &commands[i];
  return NULL;
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

static int
dispatch (struct shim_s *s, entitle_error_t *err)
{
  cleanup_free char *runtime = NULL;
  const struct command *c;
  int ret;

  ret = entitle_runtime_check_loop (err);
  if (UNLIKELY (ret < 0))
    return ret;
  /* Help reads the admin config only if it shows the runtime's help;
     completion never does.  */
  if (shim_help_asked (s))
    return shim_help (s, err);
  c = find_command (s->args.command);
  if (c && (c->run == shim_complete || c->run == shim_config))
    return c->run (s, err);
  ret = shim_load_config (s, c && c->policy, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (c && c->own)
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
