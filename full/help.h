/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_HELP_H
#define ENTITLE_HELP_H

#include <stdbool.h>
#include <stddef.h>
#include "error.h"
#include "verbs.h"

/* entitle's commands and options, for the parser (full/parse.c), for
   people (`--help`, `help`: full/help.c) and for the shell (`__complete`:
   full/complete.c): one table, shim/commands.def, made full/table.c.  */

/* The key a command's parser is told an option by (full/parse.c): one a
   meaning, shared by every command that takes it.  */
enum shim_key
{
  KEY_ARG = 0, /* a positional argument */
  KEY_HELP,    /* --help, which dispatch answers first */
  KEY_JSON,
  KEY_BUNDLE,
  KEY_CONFIG,
  KEY_SCORE,
  KEY_MAX,
  KEY_ENTITLEMENTS,
  KEY_DIFF,
  KEY_CHECK,
  KEY_SINCE,
  KEY_FOLLOW,
  KEY_DURATION,
  KEY_WRITE,
  KEY_PROCESS,
  KEY_CAP,
  KEY_PROFILE,
  KEY_BINARY,
  KEY_DROP_IN,
  KEY_REMOVE,
  KEY_SET_AS_DEFAULT,
  KEY_IN_PLACE,
  KEY_DRY_RUN,
  KEY_FULL,
};

struct shim_option_s
{
  const char *name;  /**< "--bundle"; NULL ends a list */
  const char *alias; /**< "-b", or NULL */
  enum shim_arg arg;
  const char *meta; /**< the value as help shows it: "DIR", "text|json" */
  const char *text; /**< what it does; NULL: the runtime's, named for completion only */
  enum shim_key key;
};

struct shim_s;

/* One row of shim/commands.def.  */
struct shim_help_s
{
  const char *name;
  enum shim_help_kind kind;
  /** what entitle-full runs; NULL: the runtime's alone */
  int (*run) (struct shim_s *, entitle_error_t *);
  unsigned flags; /**< VERB_* */
  const struct shim_option_s *options;
  const char *usage;   /**< what follows the command; forms separated by newlines */
  const char *summary; /**< one line, for `entitle --help` */
  const char *text;    /**< what entitle does, a paragraph */
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
 * What a command is told of its command line by shim_parse: each option
 * (@key, its value or NULL for a flag) and each positional argument
 * (KEY_ARG), in order.  @data is the command's own.
 */
typedef int (*shim_parse_fn) (struct shim_s *s, void *data, enum shim_key key, const char *value,
                              entitle_error_t *err);

/**
 * Parse the arguments after the command by its row's options: `--name
 * VALUE`, `--name=VALUE`, `-b VALUE`, anywhere before a `--`, after which
 * everything is positional.  An unknown option, a missing value, or a
 * value given to a flag is a usage error (shim_usage_error).  Returns
 * what @fn returns, when negative.
 */
int shim_parse (struct shim_s *s, void *data, shim_parse_fn fn, entitle_error_t *err);

/** A shim_parse_fn for a command that takes no argument but its options.  */
int shim_parse_no_args (struct shim_s *s, void *data, enum shim_key key, const char *value, entitle_error_t *err);

/**
 * Say on stderr (and in the log), in one line prefixed `entitle: `, what
 * is wrong with the command line, and exit with status 2.
 */
_Noreturn void shim_usage_error (struct shim_s *s, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

/**
 * Print @text, the cursor at column @col, wrapped at 78 columns; each line
 * it starts is indented by @indent.  Two spaces after a sentence are kept.
 */
void shim_help_wrap (const char *text, int col, int indent);

#endif
