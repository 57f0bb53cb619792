/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <string.h>
#include "commands.h"
#include "help.h"

/* shim/commands.def made a table, with each command's options: what
   entitle-full parses (full/parse.c), prints (full/help.c) and completes
   (full/complete.c), from the one row.  */

#define HELP_OPTION                                       \
  {                                                       \
    "--help", "-h", ARG_NONE, NULL, "this help", KEY_HELP \
  }
#define JSON_OPTION                                        \
  {                                                        \
    "--json", NULL, ARG_NONE, NULL, "print JSON", KEY_JSON \
  }
#define END_OPTIONS                           \
  {                                           \
    NULL, NULL, ARG_NONE, NULL, NULL, KEY_ARG \
  }

#define BUNDLE_OPTION(what)                                                                \
  {                                                                                        \
    "--bundle", "-b", ARG_DIR, "DIR", what " (default: the current directory)", KEY_BUNDLE \
  }
#define CONFIG_OPTION(what)                              \
  {                                                      \
    "--config", "-f", ARG_FILE, "FILE", what, KEY_CONFIG \
  }

static const struct shim_option_s explain_options[] = {
  JSON_OPTION,
  { "--score", NULL, ARG_NONE, NULL, "rate the bundle's exposure instead", KEY_SCORE },
  BUNDLE_OPTION ("with --score: the bundle; with names: the bundle whose config they may widen, in place of "
                 "Docker 20.10's default"),
  CONFIG_OPTION ("this config instead of DIR/config.json"),
  { "--max", NULL, ARG_TEXT, "SCORE",
    "with --score: fail (one line, exit status 1) when the exposure is above SCORE, 0 to 10 (2.5): for CI",
    KEY_MAX },
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s compile_options[] = {
  BUNDLE_OPTION ("the bundle"),
  CONFIG_OPTION ("this config instead of DIR/config.json, as crun's --config"),
  { "--entitlements", "-e", ARG_LIST, "LIST",
    "these entitlements (separated by commas or spaces) in place of the bundle's request (io.entitle.entitlements, "
    "or ENTITLE_ENTITLEMENTS in process.env)",
    KEY_ENTITLEMENTS },
  { "--diff", NULL, ARG_NONE, NULL, "print a unified diff against the config as it is (needs diff)", KEY_DIFF },
  { "--full", NULL, ARG_NONE, NULL, "with --diff: every line, long lists (the seccomp names) included", KEY_FULL },
  { "--check", NULL, ARG_NONE, NULL,
    "print nothing; fail, naming the first section that differs, unless the config is already as create "
    "writes it",
    KEY_CHECK },
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s json_options[] = { JSON_OPTION, HELP_OPTION, END_OPTIONS };

static const struct shim_option_s help_only[] = { HELP_OPTION, END_OPTIONS };

static const struct shim_option_s why_options[] = {
  JSON_OPTION,
  { "--since", NULL, ARG_TEXT, "DURATION", "only denials this recent: 90s, 10m, 1h, 2d", KEY_SINCE },
  { "--follow", NULL, ARG_NONE, NULL, "print the denials as they happen, seccomp's too, until interrupted",
    KEY_FOLLOW },
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s learn_options[] = {
  BUNDLE_OPTION ("the bundle to run"),
  { "--duration", NULL, ARG_TEXT, "SECONDS", "stop the container this long after it starts (default 10)",
    KEY_DURATION },
  JSON_OPTION,
  { "--write", NULL, ARG_NONE, NULL,
    "put the proposal in the bundle's io.entitle.entitlements (atomically, as create writes config.json)",
    KEY_WRITE },
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s configure_options[] = {
  { "--profile", NULL, ARG_TEXT, "NAME", "a runtime entitle-NAME too, for the admin's profile NAME (repeatable)",
    KEY_PROFILE },
  { "--config", NULL, ARG_FILE, "FILE", "the engine's configuration, in place of its default file", KEY_CONFIG },
  { "--binary", NULL, ARG_FILE, "PATH", "where entitle is, as the engine runs it (default: " BINDIR "/entitle)",
    KEY_BINARY },
  { "--drop-in", NULL, ARG_FILE, "FILE", "write the runtimes into this drop-in file of the engine's",
    KEY_DROP_IN },
  { "--remove", NULL, ARG_NONE, NULL, "take out what configure added", KEY_REMOVE },
  { "--set-as-default", NULL, ARG_NONE, NULL, "make entitle the engine's default runtime", KEY_SET_AS_DEFAULT },
  { "--in-place", NULL, ARG_NONE, NULL, "edit the engine's main configuration, not a drop-in", KEY_IN_PLACE },
  { "--dry-run", NULL, ARG_NONE, NULL, "print a diff of what would change, and the symlinks; change nothing", KEY_DRY_RUN },
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s create_options[] = {
  BUNDLE_OPTION ("the bundle, as the runtime reads it"),
  CONFIG_OPTION ("crun's: the config that is rewritten and run, instead of DIR/config.json"),
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s restore_options[] = {
  BUNDLE_OPTION ("the bundle, as the runtime reads it"),
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s exec_options[] = {
  { "--process", "-p", ARG_FILE, "FILE",
    "the process to run (a file or a pipe): entitle narrows it for the container's entitlements", KEY_PROCESS },
  { "--cap", "-c", ARG_TEXT, "CAP", "refused when the container's entitlements take CAP away", KEY_CAP },
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_help_s commands[] = {
#define VERB(name, kind, run, flags, options, usage, summary, text) \
  { name, kind, run, flags, options, usage, summary, text },
#include "commands.def"
};

static const struct shim_option_s globals[] = {
#define GLOBAL(name, alias, arg, meta, text) { name, alias, arg, meta, text, KEY_ARG },
#include "commands.def"
  END_OPTIONS,
};

const struct shim_help_s *
shim_help_commands (size_t *n)
{
  *n = sizeof (commands) / sizeof (commands[0]);
  return commands;
}

const struct shim_help_s *
shim_help_find (const char *name)
{
  size_t i;
  for (i = 0; name && i < sizeof (commands) / sizeof (commands[0]); i++)
    if (strcmp (commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

const struct shim_option_s *
shim_help_globals (void)
{
  return globals;
}

const struct shim_option_s *
shim_help_option (const struct shim_option_s *opts, const char *arg)
{
  size_t len = strcspn (arg, "=");

  for (; opts && opts->name; opts++)
    if ((strlen (opts->name) == len && strncmp (opts->name, arg, len) == 0)
        || (opts->alias && strlen (opts->alias) == len && strncmp (opts->alias, arg, len) == 0))
      return opts;
  return NULL;
}
