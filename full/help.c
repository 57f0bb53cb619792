/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "help.h"
#include "runtime.h"
#include "utils.h"

/* `--help` and `help`: entitle's part from the table (full/table.c),
   then the runtime's own help.  */

void
shim_help_wrap (const char *text, int col, int indent)
{
  size_t gap = 0; /* the spaces before this word: 2 after a sentence */

  while (*text)
    {
      size_t word = strcspn (text, " ");
      if (gap && col + (int)gap + (int)word > 78)
        {
          putchar ('\n');
          col = printf ("%*s", indent, "");
          gap = 0;
        }
      col += printf ("%.*s%.*s", (int)gap, "  ", (int)word, text);
      text += word;
      gap = strspn (text, " ");
      text += gap;
      gap = gap > 1 ? 2 : gap;
    }
  putchar ('\n');
}

static void
print_options (const char *title, const struct shim_option_s *o)
{
  char names[64];

  printf ("%s\n", title);
  for (; o->name; o++)
    if (o->text)
      {
        snprintf (names, sizeof (names), "%s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
                  o->meta ? " " : "", o->meta ? o->meta : "");
        if (strlen (names) > 22)
          printf ("  %s\n%26s", names, "");
        else
          printf ("  %-24s", names);
        shim_help_wrap (o->text, 26, 26);
      }
}

static void
print_overview (bool bare)
{
  size_t i, n;
  const struct shim_help_s *c = shim_help_commands (&n);
  enum shim_help_kind last = HELP_OWN;

  printf ("Usage: entitle [global options] COMMAND [options] [arguments]\n\n"
          "An OCI runtime that applies the container's entitlements, then runs the\n"
          "wrapped runtime (runc or crun) with the same arguments.\n\n"
          "entitle's commands:\n");
  for (i = 0; i < n && c[i].kind != HELP_RUNTIME; i++)
    {
      if (c[i].kind == HELP_HIDDEN)
        continue;
      if (c[i].kind != last)
        printf ("Commands entitle acts on before the runtime runs them:\n");
      last = c[i].kind;
      shim_help_wrap (c[i].summary, printf ("  %-10s ", c[i].name), 13);
    }
  print_options ("Global options entitle reads (all but entitle's own go to the runtime too):", shim_help_globals ());
  printf ("\nEvery other command and option is the runtime's.  `entitle COMMAND --help`\n"
          "shows a command's options.  The entitlements: `entitle explain`,\n"
          "entitlements(7); the admin configuration: entitle.json(5); entitle(8).\n");
  if (bare)
    printf ("\nThe runtime's commands (start, kill, delete, ps, ...) pass through to it\n"
            "unchanged; `entitle --help` lists them too.\n");
}

static void
print_command (const struct shim_help_s *h)
{
  const char *form = h->usage;

  do
    {
      size_t len = strcspn (form, "\n");
      printf ("%s entitle [global options] %s%s%.*s\n", form == h->usage ? "Usage:" : "      ", h->name,
              len ? " " : "", (int)len, form);
      form += len + (form[len] == '\n');
    }
  while (*form);
  putchar ('\n');
  shim_help_wrap (h->text, 0, 0);
  putchar ('\n');
  print_options (h->kind == HELP_OWN ? "Options:" : "Options entitle reads:", h->options);
}

/* The command whose help is asked for (NULL: entitle's), or false when
   none is: a global `--help`, `help [COMMAND]`, and a command's `--help`
   (the runtime's commands parsed in shim/args.c, entitle's own here, up
   to a `--`).  */
static bool
help_topic (const struct shim_s *s, const char **topic)
{
  const struct shim_help_s *h = shim_help_find (s->args.command);
  int i;

  /* A global --help is runc's overview, whatever command follows.  */
  *topic = s->args.help ? NULL : s->args.command;
  if (s->args.help || s->args.command == NULL)
    return s->args.help;
  if (strcmp (s->args.command, "help") == 0)
    {
      /* help --help: help's own.  */
      i = s->args.command_index + 1;
      *topic = i >= s->argc ? NULL : s->argv[i][0] == '-' ? "help"
                                                          : s->argv[i];
      return true;
    }
  if (s->args.command_help)
    return true;
  for (i = s->args.command_index + 1; h && h->kind == HELP_OWN && i < s->argc && strcmp (s->argv[i], "--"); i++)
    if (strcmp (s->argv[i], "--help") == 0 || strcmp (s->argv[i], "-h") == 0)
      return true;
  return false;
}

bool
shim_help_asked (const struct shim_s *s)
{
  const char *topic;
  return help_topic (s, &topic);
}

/* entitle's help for the topic, then the runtime's (`runtime [TOPIC]
   --help`, exec'd: its output and exit status are its own), unless the
   topic is entitle's alone.  */
int
shim_help (struct shim_s *s, entitle_error_t *err)
{
  const struct shim_help_s *h;
  cleanup_free char *runtime = NULL;
  char *argv[4] = { NULL };
  const char *topic;
  int ret;

  /* A bare `entitle`: entitle's help alone.  */
  if (!help_topic (s, &topic))
    {
      print_overview (true);
      fflush (stdout);
      exit (EXIT_SUCCESS);
    }
  h = shim_help_find (topic);
  if (h == NULL && entitle_verb_typo (topic))
    shim_usage_error (s, "help: unknown command `%s`: did you mean `%s`?", topic, entitle_verb_typo (topic));
  if (topic == NULL)
    print_overview (false);
  else if (h && h->kind != HELP_RUNTIME && h->kind != HELP_HIDDEN)
    print_command (h);
  if (h && (h->kind == HELP_OWN || h->kind == HELP_HIDDEN))
    {
      fflush (stdout);
      exit (EXIT_SUCCESS);
    }
  ret = shim_load_config (s, false, err);
  if (ret == 0)
    ret = shim_find_runtime (s, &runtime, err);
  if (UNLIKELY (ret < 0))
    return ret;
  argv[1] = topic ? (char *)topic : (char *)"--help";
  argv[2] = topic ? (char *)"--help" : NULL;
  if (topic == NULL)
    printf ("\nThe runtime's commands and options (%s --help):\n", runtime);
  else if (h && h->kind == HELP_ACTS)
    printf ("\nThe rest is the runtime's (%s %s --help):\n", runtime, topic);
  s->argv = argv;
  return shim_exec_runtime (s, err);
}
