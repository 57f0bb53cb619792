/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "runtime.h"
#include "utils.h"

/* The commands entitle acts on; every other one goes to the runtime as is.  */
static const struct command
{
  const char *name;
  int (*run) (struct shim_s *, entitle_error_t *);
  bool own; /* entitle's debug commands: no runtime needed */
} commands[] = {
  { "create", shim_create, false },
  { "run", shim_create, false },
  { "restore", shim_create, false },
  { "exec", shim_exec, false },
  { "features", shim_features, false },
  { "compile", shim_compile, true },
  { "explain", shim_explain, true },
  { "probe", shim_probe_command, true },
  { "version", shim_version, false },
};

static void
usage (void)
{
  printf ("Usage: entitle [global options] COMMAND [options] [arguments]\n"
          "\n"
          "An OCI runtime that applies the container's entitlements, then runs\n"
          "the wrapped runtime (runc or crun) with the same arguments.\n"
          "\n"
          "Commands entitle acts on:\n"
          "  create, run, restore   rewrite config.json for the entitlements\n"
          "  exec --process FILE    give FILE the container's process-level effects\n"
          "  features               the runtime's features, with entitle's\n"
          "Debug commands:\n"
          "  compile [-b DIR] [--config FILE] [--entitlements LIST] [--diff]\n"
          "  explain [--json] ENTITLEMENT...\n"
          "                         what each entitlement changes, and how this host enforces it\n"
          "  explain --score [--json] [-b DIR] [--config FILE]\n"
          "                         how exposed the bundle's container would be (0-10)\n"
          "  probe [--json]         what this kernel offers entitle (BPF, seccomp, Landlock, LSMs)\n"
          "  version                entitle's version and the runtime's\n"
          "Every other command and flag is the wrapped runtime's.\n"
          "\n"
          "Entitlements: annotation io.entitle.entitlements; admin config %s\n"
          "(or $ENTITLE_CONFIG).  See entitle(8), entitlements(7), entitle.json(5).\n",
          ENTITLE_CONFIG_FILE);
}

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

static int
dispatch (struct shim_s *s, entitle_error_t *err)
{
  struct entitle_config_s *cfg = (struct entitle_config_s *)s->ctx->config;
  cleanup_free char *runtime = NULL;
  const struct command *c;
  int ret;

  if (s->args.command == NULL && s->args.help)
    {
      usage ();
      exit (EXIT_SUCCESS);
    }
  ret = entitle_config_load (cfg, err);
  if (UNLIKELY (ret < 0))
    return ret;
  c = find_command (s->args.command);
  if (c && c->own)
    return c->run (s, err);
  ret = entitle_runtime_find (cfg, &runtime, err);
  if (UNLIKELY (ret < 0))
    return ret;
  s->runtime = runtime;
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

  entitle_args_parse (argc, argv, &s.args);
  log.path = s.args.log;
  log.json = s.args.log_format && strcmp (s.args.log_format, "json") == 0;
  log.debug = s.args.debug;
  entitle_ctx_init (&ctx, &log, &cfg);
  ctx.root = s.args.root;
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
