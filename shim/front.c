/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * entitle's front: the program containerd and the engines run.  It decides,
 * with libc and a JSON parser only, whether entitle has anything to do
 * with this call.  If not (every command but create/run/restore, exec and
 * features, and create/run/restore of a config nothing applies to) it
 * execs the runtime; otherwise it execs entitle-full, which links
 * libseccomp, libcap, libselinux and does the work.  So the pass-through
 * path pays for no library it does not use (issue 5: dynamic loading and
 * the constructors of libcap and libselinux cost more than the whole
 * decision).
 */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "admin-config.h"
#include "args.h"
#include "file.h"
#include "image-record.h"
#include "log.h"
#include "pending.h"
#include "request-mark.h"
#include "runtime.h"
#include "utils.h"
#include "verbs.h"

#define FULL_NAME "entitle-full"

static bool
is (const char *command, const char *name)
{
  return command && strcmp (command, name) == 0;
}

/* Only a config that could be rewritten, or whose image's label the
   engine's record may hold, needs the full program
   (entitle_create_may_apply: the rule entitle-full follows too).  */
static bool
create_needs_full (const struct entitle_args_s *a, const struct entitle_config_s *cfg)
{
  cleanup_free char *path = entitle_args_config_path (a), *raw = NULL;
  entitle_error_t err = NULL;
  /* The engine's record may hold the image's label: no file opened.  */
  bool image = entitle_image_engine_of (cfg, a->bundle, a->id) != ENTITLE_IMAGE_NONE;
  size_t len = 0;
  int status = 0;

  if (entitle_file_read (path, ENTITLE_MAX_CONFIG_SIZE, &raw, &len, &err) < 0)
    {
      status = err->status;
      entitle_error_release (&err);
    }
  return entitle_create_may_apply (cfg, image, path, raw, len, status);
}

/* entitle-full: next to this program (the build tree), else installed.
   It gets the command line as given (it takes entitle's own flags out
   itself) and the front's identity (lib/host/runtime.h).  */
static int
exec_full (char **argv, entitle_error_t *err)
{
  char self[PATH_MAX], *slash;
  cleanup_free char *sibling = NULL;
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);

  entitle_runtime_export_front ();
  if (n > 0)
    {
      self[n] = '\0';
      slash = strrchr (self, '/');
      if (slash)
        {
          *slash = '\0';
          xasprintf (&sibling, "%s/" FULL_NAME, self);
          if (access (sibling, X_OK) == 0)
            {
              execv (sibling, argv);
              return entitle_make_sys_error (err, "exec `%s`", sibling);
            }
        }
    }
  execv (PKGLIBEXECDIR "/" FULL_NAME, argv);
  return entitle_make_sys_error (err, "exec `%s`", PKGLIBEXECDIR "/" FULL_NAME);
}

/* entitle-full's to answer: entitle's own commands (shim/commands.def)
   but version, which needs the runtime first; help and completion; a bare
   `entitle` (entitle's help); a typo of one of entitle's commands or
   global options (an error there, exit status 2).  Every other command is
   the runtime's, and an unknown one too (shim/verbs.h says which are
   typos).  */
static bool
for_full (const struct entitle_args_s *a)
{
  const char *c = a->command, *closest;
  enum shim_help_kind kind;

  if (a->help || a->command_help || (c == NULL && !a->version))
    return true;
  if (a->unknown_global && entitle_global_typo (a->unknown_global, &closest))
    return true;
  if (entitle_verb_find (c, &kind))
    return (kind == HELP_OWN || kind == HELP_HIDDEN) && !is (c, "version");
  return entitle_verb_typo (c) != NULL;
}

/* The commands that apply policy fail on a bad admin config (entitle's
   own, which read it too, fail in entitle-full).  Every other command
   reaches the runtime regardless (DESIGN §7: containers are never
   stranded).  */
static bool
needs_config (const char *c)
{
  return is (c, "create") || is (c, "run") || is (c, "restore") || is (c, "exec");
}

/* @argv is the command line as given, for entitle-full; @rt_argv the same
   without entitle's own flags, for the runtime.  */
static int
front (char **argv, char **rt_argv, const struct entitle_args_s *a, struct entitle_config_s *cfg,
       const struct entitle_log_s *log, entitle_error_t *err)
{
  cleanup_free char *runtime = NULL;
  entitle_error_t cfg_err = NULL;
  const char *c = a->command;
  int ret;

  ret = entitle_runtime_check_loop (err);
  if (UNLIKELY (ret < 0))
    return ret;
  /* entitle-full reads the admin config itself, where it needs it.  */
  if (for_full (a))
    return exec_full (argv, err);
  ret = entitle_config_open (cfg, a->entitle_config, a->entitle_profile, &cfg_err);
  if (UNLIKELY (ret < 0) && needs_config (c))
    {
      *err = cfg_err;
      return ret;
    }
  ret = entitle_runtime_find (cfg, &runtime, err);
  if (UNLIKELY (ret < 0))
    goto out;
  /* entitle-full says the same about a bad admin config.  */
  if ((c == NULL && a->version) || is (c, "version") || is (c, "features"))
    {
      entitle_error_release (&cfg_err);
      return exec_full (argv, err);
    }
  /* exec into a container (full/exec.c): the process-level effects of
     --process and --cap, the cgroup entitle-hook made where no cgroup is
     managed, and the in-container helper in front of a plain exec's
     command.  Whether that applies is the container's own state to say
     (entitle-full asks the runtime), never something only entitle keeps,
     which can be gone or keyed by another spelling of --root (DESIGN §8).  */
  if (is (c, "exec") && a->id)
    return exec_full (argv, err);
  if ((is (c, "create") || is (c, "run") || is (c, "restore")) && create_needs_full (a, cfg))
    return exec_full (argv, err);
  if (cfg_err)
    entitle_log_warning (log, "%s; the runtime runs without it", cfg_err->msg);
  /* A create killed before its policy was attached (lib/host/pending.h).  */
  if (is (c, "start") && a->id && entitle_pending_is_marked (cfg->state_dir, a->root, a->id))
    {
      ret = entitle_make_error (err, EPERM,
                                "container `%s` was created without its policy (entitle stopped before attaching it): "
                                "delete it and create it again",
                                a->id);
      goto out;
    }
  if (is (c, "delete") && a->id)
    entitle_pending_clear (cfg->state_dir, a->root, a->id);
  rt_argv[0] = runtime;
  entitle_runtime_mark (runtime);
  fflush (stdout);
  execv (runtime, rt_argv);
  ret = entitle_make_sys_error (err, "exec `%s`", runtime);
out:
  entitle_error_release (&cfg_err);
  return ret;
}

int
main (int argc, char **argv)
{
  /* The front resolves no entitlement: the admin's custom rows are
     entitle-full's and the hook's to build (and check).  */
  struct entitle_config_s cfg = { .lean = true };
  struct entitle_log_s log = { 0 };
  struct entitle_args_s a;
  entitle_error_t err = NULL;
  /* The runtime's command line: entitle's own flags taken out.  */
  char **rt_argv = xcalloc (argc + 1, sizeof (char *));
  memcpy (rt_argv, argv, argc * sizeof (char *));
  entitle_args_take_own (argc, rt_argv, &a);
  log.path = a.log;
  log.json = a.log_format && strcmp (a.log_format, "json") == 0;
  log.debug = a.debug;
  if (front (argv, rt_argv, &a, &cfg, &log, &err) < 0)
    {
      entitle_log_error (&log, "%s", err->msg);
      entitle_error_release (&err);
    }
  entitle_config_free (&cfg);
  free (rt_argv);
  return EXIT_FAILURE;
}
