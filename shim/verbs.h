/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_VERBS_H
#define ENTITLE_VERBS_H

#include <stdbool.h>

/* The command line's vocabulary, shared by the front and entitle-full:
   every command and global option is one row of shim/commands.def.  The
   front reads the names and kinds (here); entitle-full the whole rows
   (full/table.c): what runs a command, its options, its help.  */

/* What a command is.  */
enum shim_help_kind
{
  HELP_OWN,     /* entitle's own command: the runtime never sees it */
  HELP_ACTS,    /* the runtime's command, which entitle acts on first */
  HELP_RUNTIME, /* the runtime's alone, named for help and completion */
  HELP_HIDDEN,  /* entitle's, for the shell only (__complete) */
};

/* What entitle-full needs before it runs a command.  */
enum
{
  VERB_POLICY = 1,       /* applies or computes policy: a bad admin config is an error */
  VERB_RUNTIME = 2,      /* runs the runtime: found first */
  VERB_NO_CONFIG = 4,    /* reads no admin config, or reads it itself */
  VERB_ENTITLEMENTS = 8, /* its arguments are entitlement names (completion) */
};

/* What an option's value is, for parsing and completion.  */
enum shim_arg
{
  ARG_NONE,  /* a flag */
  ARG_FILE,  /* a file name */
  ARG_DIR,   /* a directory name */
  ARG_LIST,  /* entitlement names, separated by commas */
  ARG_WORDS, /* one of the words of meta, separated by `|` */
  ARG_TEXT,  /* anything: nothing to complete */
};

/** Is @name one of the commands of the table (entitle's or a runtime's)?
    Its kind in @kind.  */
bool entitle_verb_find (const char *name, enum shim_help_kind *kind);

/**
 * The rule that tells a typo from a runtime's command (entitle(8),
 * "Commands"): @command, which no row names, is a typo of the entitle
 * command returned when it is at most one edit from it (two for a name of
 * five letters or more) and it is none of the runtime's commands.  NULL:
 * the command goes to the runtime.
 */
const char *entitle_verb_typo (const char *command);

/**
 * The same for a global option @flag (as given, dashes and any `=VALUE`
 * included) that no row names: one that starts with `--entitle-`, or is
 * a typo of entitle's own (by the rule above), is a mistake, and the
 * closest of entitle's is returned through @closest (NULL when none is
 * close).  Returns false for anything else (a runtime's option).
 */
bool entitle_global_typo (const char *flag, const char **closest);

#endif
