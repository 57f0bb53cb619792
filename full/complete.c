/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "catalogue.h"
#include "commands.h"
#include "help.h"

/* entitle __complete WORD...: the candidates for the last WORD (the one
   being typed, maybe empty) of `entitle WORD...`, for the bash completion
   (completion/entitle).  The first line says what they are: `words` (the
   candidates follow, one a line, whole words), `files` or `dirs` (the
   shell completes a path).  Hidden: neither help nor the man page names
   it.  */

struct cursor_s
{
  const struct shim_help_s *command; /**< NULL until a command is typed */
  const struct shim_option_s *value; /**< the option whose value is being typed */
  bool positional;                   /**< past `--`, exec's container id, or a command it does not know */
};

/* The names of the catalogue, `NAME=` for a modifier that takes a value,
   after @lead (`--entitlements=`, or nothing) and, in a @list, the items
   before the last comma of @cur.  */
static void
entitlements (const struct entitle_catalogue_s *cat, const char *lead, const char *cur, bool list)
{
  const char *comma = list ? strrchr (cur, ',') : NULL;
  const char *item = comma ? comma + 1 : cur;
  const struct entitle_entry_s *rows;
  size_t i, n;

  if (strchr (item, '='))
    return;
  rows = entitle_catalogue_rows (cat, &n);
  for (i = 0; i < n; i++)
    if (strncmp (rows[i].name, item, strlen (item)) == 0)
      printf ("%s%.*s%s%s\n", lead, (int)(item - cur), cur, rows[i].name, rows[i].value ? "=" : "");
}

static void
options (const struct shim_option_s *o, const char *cur)
{
  for (; o && o->name; o++)
    {
      if (strncmp (o->name, cur, strlen (cur)) == 0)
        printf ("%s\n", o->name);
      /* -b only once a single dash is typed: the long names read better.  */
      if (o->alias && cur[0] == '-' && cur[1] != '-' && strncmp (o->alias, cur, strlen (cur)) == 0)
        printf ("%s\n", o->alias);
    }
}

/* The commands, the runtime's alone too with @all.  */
static void
commands (const char *cur, bool all)
{
  size_t i, n;
  const struct shim_help_s *cmds = shim_help_commands (&n);

  for (i = 0; i < n && (all || cmds[i].kind != HELP_RUNTIME); i++)
    if (cmds[i].kind != HELP_HIDDEN && strncmp (cmds[i].name, cur, strlen (cur)) == 0)
      printf ("%s\n", cmds[i].name);
}

/* The value of @o: @lead is what precedes it in the word (`--log-format=`
   or nothing).  */
static void
value (const struct entitle_catalogue_s *cat, const struct shim_option_s *o, const char *lead, const char *cur)
{
  const char *w = o->meta;

  switch (o->arg)
    {
    case ARG_FILE:
      printf ("files\n");
      return;
    case ARG_DIR:
      printf ("dirs\n");
      return;
    case ARG_LIST:
      printf ("words\n");
      entitlements (cat, lead, cur, true);
      return;
    case ARG_WORDS:
      printf ("words\n");
      while (*w)
        {
          size_t len = strcspn (w, "|");
          if (strlen (cur) <= len && strncmp (w, cur, strlen (cur)) == 0)
            printf ("%s%.*s\n", lead, (int)len, w);
          w += len + (w[len] == '|');
        }
      return;
    default:
      printf ("words\n");
    }
}

static const struct shim_option_s *
options_of (const struct cursor_s *c)
{
  return c->command ? c->command->options : shim_help_globals ();
}

/* Walk the words before the last: the command, and whether the last is an
   option's value.  */
static void
walk (char **words, int n, struct cursor_s *c)
{
  int i;

  memset (c, 0, sizeof (*c));
  for (i = 0; i < n; i++)
    {
      const char *w = words[i];
      const struct shim_option_s *o;
      bool is_value = c->value != NULL;

      c->value = NULL;
      if (c->positional || is_value)
        continue;
      if (strcmp (w, "--") == 0 && c->command)
        c->positional = true;
      else if (w[0] == '-' && w[1] != '\0')
        {
          o = shim_help_option (options_of (c), w);
          if (o && o->arg != ARG_NONE && strchr (w, '=') == NULL)
            c->value = o;
        }
      else if (c->command == NULL)
        c->positional = (c->command = shim_help_find (w)) == NULL;
      else if (strcmp (c->command->name, "exec") == 0)
        c->positional = true;
    }
}

int
shim_complete (struct shim_s *s, entitle_error_t *err)
{
  int first = s->args.command_index + 1, n = s->argc - first;
  char **words = s->argv + first;
  const char *cur = n > 0 ? words[n - 1] : "";
  const char *eq = strchr (cur, '=');
  const struct shim_option_s *o;
  const struct entitle_catalogue_s *cat = &s->ctx->config->catalogue;
  entitle_error_t cfg_err = NULL;
  struct cursor_s c;

  (void)err;
  /* The custom rows are the admin config's: a config that does not load
     completes the built-in names, quietly.  */
  if (entitle_config_open ((struct entitle_config_s *)s->ctx->config, s->args.entitle_config, NULL, &cfg_err) < 0)
    entitle_error_release (&cfg_err);
  walk (words, n - 1, &c);
  if (c.value)
    value (cat, c.value, "", cur);
  else if (cur[0] == '-' && eq && (o = shim_help_option (options_of (&c), cur)))
    {
      char lead[64];
      snprintf (lead, sizeof (lead), "%.*s", (int)(eq + 1 - cur), cur);
      value (cat, o, lead, eq + 1);
    }
  else if (cur[0] == '-' && !c.positional)
    {
      printf ("words\n");
      options (options_of (&c), cur);
    }
  else
    {
      printf ("words\n");
      if (c.positional)
        ;
      else if (c.command == NULL)
        commands (cur, true);
      else if (c.command->flags & VERB_ENTITLEMENTS)
        entitlements (cat, "", cur, false);
      else if (strcmp (c.command->name, "help") == 0)
        commands (cur, false);
    }
  fflush (stdout);
  exit (EXIT_SUCCESS);
}
