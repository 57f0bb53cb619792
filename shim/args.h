/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_ARGS_H
#define ENTITLE_ARGS_H

#include <stdbool.h>

/* What entitle needs from a runc/crun command line, parsed as runc does:
   global flags before the command, `--flag=value` and `--flag value`, one
   or two dashes, `--` ends the flags, and exec and ps stop at their first
   positional argument.  argv itself is never changed.  */
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

  int command_index; /**< argv index of the command, or -1 */
  const char *command;

  /* The command's flags entitle acts on.  */
  const char *bundle;                      /**< --bundle/-b */
  const char *config;                      /**< crun's --config/-f on create and run */
  const char *process;                     /**< exec --process/-p */
  const char *id;                          /**< first positional argument */
  const char *caps[ENTITLE_ARGS_MAX_CAPS]; /**< exec --cap/-c values */
  int n_caps;                              /**< how many; more than the array holds is kept counting */
  bool missing_value;                      /**< a flag at the end without its value */
};

/**
 * The config the runtime will run: crun's --config FILE (relative to the
 * caller's directory), else config.json in the bundle, which is --bundle
 * or the current directory, as runc decides it.  Caller frees.
 */
char *entitle_args_config_path (const struct entitle_args_s *a);

/** Parse @argv (argc entries).  Never fails: what runc would reject, runc will. */
void entitle_args_parse (int argc, char *const *argv, struct entitle_args_s *a);

#endif
