/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "admin-config.h"
#include "file.h"
#include "hook.h"
#include "utils.h"

/* entitle-hook createRuntime|poststop [--root DIR] [--config FILE] [--profile NAME] [--sysctls KEYS] [--learn] < state
   entitle-hook [--root DIR] [--config FILE] < state   (stage from the state)
   entitle-hook probe [--json]
   The runtime passes the container's state on stdin (runtime-spec,
   "State"); a non-zero exit makes it abort create.  */

/* The state carries the annotations, as large as config.json may be.  */
#define STATE_MAX (ENTITLE_MAX_CONFIG_SIZE + (1 << 20))

static int
usage (void)
{
  fputs ("usage: entitle-hook [createRuntime|poststop] [--root DIR] [--config FILE] [--profile NAME] [--sysctls KEYS]\n"
         "                   [--learn]\n"
         "                   [--log FILE [--log-format text|json]] < STATE\n"
         "       entitle-hook probe [--json]\n",
         stderr);
  return 2;
}

static int
read_state (struct hook_state_s *st, entitle_error_t *err)
{
  cleanup_free char *buf = xmalloc (STATE_MAX);
  const json_t *v;
  size_t n = 0;
  ssize_t r;
  int ret;

  while (n < STATE_MAX && ((r = read (0, buf + n, STATE_MAX - n)) > 0 || (r < 0 && errno == EINTR)))
    n += r > 0 ? (size_t)r : 0;
  if (n == STATE_MAX)
    return entitle_make_error (err, EFBIG, "the state on stdin is larger than %d bytes", STATE_MAX);
  ret = json_parse (buf, n, &st->doc, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "read the container state on stdin");
  st->id = json_string (json_get (st->doc, "id"));
  st->bundle = json_string (json_get (st->doc, "bundle"));
  v = json_get (st->doc, "pid");
  st->pid = v && v->type == JSON_NUMBER ? (pid_t)atol (v->text) : 0;
  if (st->id == NULL || st->bundle == NULL)
    return entitle_make_error (err, EINVAL, "the state on stdin has no `id` or `bundle`");
  return 0;
}

/* hooks.d runs one command for every stage it lists: the state says
   which ("creating" at createRuntime, "stopped" at poststop).  */
static const char *
stage_of (const struct hook_state_s *st)
{
  const char *status = json_string (json_get (st->doc, "status"));
  if (status && strcmp (status, "creating") == 0)
    return "createRuntime";
  if (status && strcmp (status, "stopped") == 0)
    return "poststop";
  return NULL;
}

static int
run (const char *cmd, struct hook_state_s *st, entitle_error_t *err)
{
  struct entitle_config_s cfg = { 0 };
  struct entitle_ctx_s ctx;
  int ret;

  ret = read_state (st, err);
  if (UNLIKELY (ret < 0))
    return ret;
  st->from_hooksd = cmd == NULL;
  if (cmd == NULL && (cmd = stage_of (st)) == NULL)
    return entitle_make_error (err, EINVAL, "no stage given, and the state's status is neither creating nor stopped");
  ret = entitle_config_open (&cfg, NULL, st->profile, err);
  /* poststop applies no policy: a config that went bad (or away) since
     create must not keep the cleanup from running.  */
  if (ret < 0 && strcmp (cmd, "poststop") == 0)
    {
      entitle_log_warning (&st->log, "%s", (*err)->msg);
      entitle_error_release (err);
      ret = 0;
    }
  if (ret < 0)
    {
      entitle_config_free (&cfg);
      return ret;
    }
  entitle_ctx_init (&ctx, &st->log, &cfg);
  if (strcmp (cmd, "createRuntime") == 0)
    ret = hook_create_runtime (&ctx, st, err);
  else
    ret = hook_poststop (&ctx, st);
  entitle_ctx_release (&ctx);
  entitle_config_free (&cfg);
  return ret;
}

/* The command line but `probe`: the stage, if given, then flags.  */
static bool
parse_args (int argc, char **argv, struct hook_state_s *st, const char **cmd)
{
  int i = 1;

  if (argc > 1 && (strcmp (argv[1], "createRuntime") == 0 || strcmp (argv[1], "poststop") == 0))
    *cmd = argv[i++];
  else if (argc > 1 && strncmp (argv[1], "--", 2) != 0)
    return false;
  for (; i < argc; i += 2)
    if (strcmp (argv[i], "--learn") == 0)
      {
        st->learn = true; /* the one flag without a value */
        i--;
      }
    else if (i + 1 == argc)
      return false;
    else if (strcmp (argv[i], "--root") == 0)
      st->root = argv[i + 1];
    else if (strcmp (argv[i], "--config") == 0)
      setenv ("ENTITLE_CONFIG", argv[i + 1], 1);
    else if (strcmp (argv[i], "--profile") == 0)
      st->profile = argv[i + 1];
    else if (strcmp (argv[i], "--sysctls") == 0)
      st->sysctls = argv[i + 1];
    else if (strcmp (argv[i], "--log") == 0)
      st->log.path = argv[i + 1];
    else if (strcmp (argv[i], "--log-format") == 0)
      st->log.json = strcmp (argv[i + 1], "json") == 0;
    else
      return false;
  return i == argc;
}

/* The one place where an error becomes the exit status: the runtime
   aborts create on a hook's non-zero exit, and the engine reads the line
   in the runtime's log.  */
int
main (int argc, char **argv)
{
  struct hook_state_s st = { .root = "" };
  entitle_error_t err = NULL;
  const char *cmd = NULL;
  int ret;

  if (argc > 1 && strcmp (argv[1], "probe") == 0)
    ret = hook_probe (argc > 2 && strcmp (argv[2], "--json") == 0, &err);
  else if (parse_args (argc, argv, &st, &cmd))
    ret = run (cmd, &st, &err);
  else
    return usage ();
  json_free (st.doc);
  if (ret < 0)
    entitle_log_error (&st.log, "%s", err->msg);
  entitle_error_release (&err);
  return ret < 0 ? 1 : 0;
}
