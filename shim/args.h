/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_ARGS_H
#define ENTITLE_ARGS_H

#include <stdbool.h>

/* What entitle needs from a runc/crun command line, parsed as runc does:
   global flags before the command, `--flag=value` and `--flag value`, one
   or two dashes, `--` ends the flags, and exec and ps stop at their first
   positional argument.  entitle_args_parse never changes argv;
   entitle_args_take_own removes entitle's own global flags from it.  */
#define ENTITLE_ARGS_MAX_CAPS 64

struct entitle_args_s
{
  /* Global flags.  */
  const char *root;
  const char *log;
  const char *log_format;
  bool no_cgroup_manager; /**< crun's --cgroup-manager=disabled */
  bool debug;
  bool help;
  bool version;
  /** --entitle-config FILE: entitle's own flag, never the runtime's ("" when
      its value is missing or empty), or NULL */
  const char *entitle_config;
  /** --entitle-profile NAME (entitle's own, as above), else NAME when
      entitle runs as entitle-NAME (but entitle-full, -hook, -init), or NULL */
  const char *entitle_profile;
  /** the first global flag that no row of shim/commands.def names, as
      given (a runtime's entitle does not know, or a typo), or NULL */
  const char *unknown_global;

  int command_index; /**< argv index of the command, or -1 */
  const char *command;

  /* The command's flags entitle acts on.  */
  const char *bundle;                      /**< --bundle/-b */
  const char *config;                      /**< crun's --config/-f on create and run */
  const char *process;                     /**< exec --process/-p */
  const char *id;                          /**< first positional argument */
  const char *caps[ENTITLE_ARGS_MAX_CAPS]; /**< exec --cap/-c values */
  int n_caps;                              /**< how many; more than the array holds is kept counting */
  const char *pid_file;                    /**< --pid-file of create, run, restore, exec */
  const char *preserve_fds;                /**< --preserve-fds of create, run, exec */
  int preserve_fds_at;                     /**< its argv index: the flag's, or its value's */
  bool missing_value;                      /**< a flag at the end without its value */
  bool command_help;                       /**< --help/-h of create, run, restore, exec or features */
};

/**
 * The config the runtime will run: crun's --config FILE (relative to the
 * caller's directory), else config.json in the bundle, which is --bundle
 * or the current directory, as runc decides it.  Caller frees.
 */
char *entitle_args_config_path (const struct entitle_args_s *a);

/** Parse @argv (argc entries).  Never fails: what runc would reject, runc will. */
void entitle_args_parse (int argc, char *const *argv, struct entitle_args_s *a);

/**
 * Parse @argv, then remove entitle's own global flags (--entitle-config,
 * --entitle-profile, DESIGN §7) from it in place, so that the runtime never sees them, and
 * parse what is left into @a; the values of the removed flags are kept
 * (they point into the strings, which do not move), and the profile that
 * argv[0] selects is set.  argv[new argc] is set to NULL.  Returns the new
 * argc.
 */
int entitle_args_take_own (int argc, char **argv, struct entitle_args_s *a);

/**
 * @argv (argc entries, parsed into @a) with the command's --preserve-fds
 * replaced by @flag ("--preserve-fds=N"), or @flag put right after the
 * command where none is given.  NULL-terminated; the caller frees the
 * array (its strings are @argv's and @flag).
 */
char **entitle_args_set_preserve_fds (int argc, char *const *argv, const struct entitle_args_s *a, char *flag);

/**
 * Point the command's --process (parsed into @a) at @path: the argument
 * of @argv (argc entries) that holds its value is replaced by @path, or,
 * where the value was given after `=`, by the flag as given, `=`, and
 * @path.  @a->process becomes the new value.
 */
void entitle_args_set_process (int argc, char **argv, struct entitle_args_s *a, const char *path);

#endif
