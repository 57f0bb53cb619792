/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_HELP_H
#define ENTITLE_HELP_H

#include <stdbool.h>
#include <stddef.h>

/* entitle's commands and options, for people (`--help`, `help`) and for
   the shell (`__complete`): one table, full/help.c.  */

/* What an option's value is, for completion.  */
enum shim_arg
{
  ARG_NONE,  /* a flag */
  ARG_FILE,  /* a file name */
  ARG_DIR,   /* a directory name */
  ARG_LIST,  /* entitlement names, separated by commas */
  ARG_WORDS, /* one of the words of meta, separated by `|` */
  ARG_TEXT,  /* anything: nothing to complete */
};

struct shim_option_s
{
  const char *name;  /**< "--bundle"; NULL ends a list */
  const char *alias; /**< "-b", or NULL */
  enum shim_arg arg;
  const char *meta; /**< the value as help shows it: "DIR", "text|json" */
  const char *text; /**< what it does; NULL: the runtime's, named for completion only */
};

enum shim_help_kind
{
  HELP_OWN,     /* entitle's own command: no runtime involved */
  HELP_ACTS,    /* the runtime's command, which entitle acts on first */
  HELP_RUNTIME, /* the runtime's alone, named for completion only */
};

struct shim_help_s
{
  const char *name;
  enum shim_help_kind kind;
  const char *usage;   /**< what follows the command; forms separated by newlines */
  const char *summary; /**< one line, for `entitle --help` */
  const char *text;    /**< what entitle does, a paragraph */
  const struct shim_option_s *options;
  bool entitlements; /**< its arguments are entitlement names */
};

/** Every command, entitle's first; @n receives the count.  */
const struct shim_help_s *shim_help_commands (size_t *n);

/** The command @name, or NULL.  */
const struct shim_help_s *shim_help_find (const char *name);

/** The global options, entitle's and the runtimes' (name NULL ends it).  */
const struct shim_option_s *shim_help_globals (void);

/** The option @arg (`--name`, `--name=VALUE`, `-b`) of @opts, or NULL.  */
const struct shim_option_s *shim_help_option (const struct shim_option_s *opts, const char *arg);

/**
 * Print @text, the cursor at column @col, wrapped at 78 columns; each line
 * it starts is indented by @indent.  Two spaces after a sentence are kept.
 */
void shim_help_wrap (const char *text, int col, int indent);

#endif
