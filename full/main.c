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
  { "version", shim_version, false, false },
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
          "Entitlements: annotation io.entitle.entitlements; admin config\n"
          "--entitle-config=FILE, else $ENTITLE_CONFIG (set and empty: none), else\n"
          "%s.  See entitle(8), entitlements(7), entitle.json(5).\n",
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

  ret = entitle_runtime_check_loop (err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (s->args.command == NULL && s->args.help)
    {
      usage ();
      exit (EXIT_SUCCESS);
    }
  c = find_command (s->args.command);
  ret = entitle_config_open (cfg, s->args.entitle_config, s->args.entitle_profile, err);
  if (UNLIKELY (ret < 0))
    {
      /* Commands that apply no policy reach the runtime regardless, found
         as with no admin config (DESIGN §7: containers are never
         stranded).  */
      if (c && c->policy)
        return ret;
      entitle_log_warning (s->ctx->log, "%s; the runtime runs without it", (*err)->msg);
      entitle_error_release (err);
    }
  if (c && c->own)
    return c->run (s, err);
  ret = entitle_runtime_find (cfg, &runtime, err);
  if (UNLIKELY (ret < 0))
    return ret;
  s->runtime = runtime;
  /* Everything entitle-full runs from here on runs under the runtime's
     mark, captures included.  */
  entitle_runtime_mark (runtime);
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
