/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach.h"
#include "catalogue.h"

/* gen-entitlements: the CATALOGUE section of entitlements(7), one entry
   per catalogue row, from the table the compiler uses
   (lib/catalogue/catalogue.c): every word of it comes from the row and
   the kind of its value.  The prose around it is man/entitlements.7.in,
   whose list of modifiers and of contradictions come from the rows too.  Each entry starts with .TP and then
   the name (and NAME=FORM) in bold.  */

/* @s for roff: - as \-, \ as \e, and a line never starts with . or '.  */
static void
roff (const char *s)
{
  if (*s == '.' || *s == '\'')
    fputs ("\\&", stdout);
  for (; *s; s++)
    {
      if (*s == '-')
        fputs ("\\-", stdout);
      else if (*s == '\\')
        fputs ("\\e", stdout);
      else
        putchar (*s);
    }
}

/* "Label:" and @list in bold, comma-separated: `.BR A ,` lines and a
   last `.B Z`.  */
static void
bold_list (const char *label, const char *const *list, bool strip_cap)
{
  if (list == NULL)
    return;
  printf (".br\n%s:\n", label);
  for (; *list; list++)
    {
      const char *w = strip_cap && strncmp (*list, "CAP_", 4) == 0 ? *list + 4 : *list;
      fputs (list[1] ? ".BR " : ".B ", stdout);
      roff (w);
      puts (list[1] ? " ," : "");
    }
}

/* A value kind's form in roff, as the italic argument of `.BI NAME= `:
   the words to fill in (upper case) in italics, brackets in roman, the
   rest in bold.  */
static void
roff_form (const char *form)
{
  char font = 'I';

  for (; *form; form++)
    {
      char want = (*form >= 'A' && *form <= 'Z') ? 'I' : (*form == '[' || *form == ']') ? 'R'
                                                                                        : 'B';
      if (want != font)
        printf ("\\f%c", want);
      font = want;
      if (*form == '-')
        fputs ("\\-", stdout);
      else
        putchar (*form);
    }
}

/* Is @e the widest rung of its ladder?  */
static bool
top_rung (const struct entitle_entry_s *e, const struct entitle_entry_s *rows, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    if (rows[i].domain == e->domain && rows[i].rung > e->rung)
      return false;
  return e->rung > 0;
}

static void
sentence (const char *s)
{
  roff (s);
  puts (s[strlen (s) - 1] == '.' ? "" : ".");
}

static void
entry_head (const struct entitle_entry_s *e, const struct entitle_entry_s *rows, size_t n)
{
  puts (".TP");
  fputs (e->value ? ".BI " : ".B ", stdout);
  roff (e->name);
  if (e->value)
    {
      fputs ("= ", stdout);
      roff_form (e->value->form);
    }
  putchar ('\n');
  putchar (e->summary[0] >= 'a' && e->summary[0] <= 'z' ? e->summary[0] - 'a' + 'A' : e->summary[0]);
  sentence (e->summary + 1);
  if (e->rung)
    printf (".br\nLadder\n.BR %s ,\nrung %d%s.\n", entitle_domain_name (e->domain), e->rung,
            top_rung (e, rows, n) ? ", the top" : "");
  else
    printf (".br\nModifier%s.\n", e->value ? ", repeatable" : "");
  if (e->value && e->value->hint)
    {
      fputs (".br\nThe value: ", stdout);
      sentence (e->value->hint);
    }
  if (e->note)
    {
      fputs (".br\n", stdout);
      sentence (e->note);
    }
}

static void
entry_body (const struct entitle_entry_s *e)
{
  const struct entitle_fx_text_s *fx = NULL;
  const char *cg = e->bpf_text, *layer, *text;
  size_t i, n;
  char mech[64];

  bold_list ("Capabilities kept at most (every other one is dropped, but those another entitlement adds)", e->cap_keep, true);
  bold_list ("Capabilities dropped", e->cap_drop, true);
  bold_list ("Capabilities added", e->cap_add, true);
  bold_list ("System calls denied whatever their arguments", e->sys_deny, false);
  bold_list ("System calls allowed", e->sys_allow, false);
  fx = entitle_fx_texts (&n);
  for (i = 0; i < n; i++)
    if (entitle_entry_fx (e) & fx[i].fx)
      {
        const char *mechanism = entitle_mech_names (fx[i].mechs, mech, sizeof (mech));
        printf (".br\n%c%s: ", mechanism[0] >= 'a' ? mechanism[0] - 'a' + 'A' : mechanism[0], mechanism + 1);
        roff (fx[i].text);
        puts (".");
      }
  if (cg)
    {
      fputs (".br\nCgroup BPF: ", stdout);
      roff (cg);
      puts (".");
    }
  for (i = 0; entitle_layer_text (e, &i, &layer, &text);)
    {
      printf (".br\n%s, where the kernel has it: ", layer);
      roff (text);
      puts (".");
    }
  bold_list ("Contradicts", e->contradicts, false);
  for (const char *const *l = e->limits; l && *l; l++)
    {
      fputs (".br\nLimit: ", stdout);
      roff (*l);
      puts (".");
    }
  if (e->exact_grant)
    puts (".br\nGranted by exact name only.");
}

/* @MODIFIERS@: every modifier, bold, comma-separated, ending the
   sentence.  */
static void
modifiers (const struct entitle_entry_s *rows, size_t n)
{
  size_t i, last = n;

  for (i = 0; i < n; i++)
    if (rows[i].rung == 0)
      last = i;
  for (i = 0; i < n; i++)
    if (rows[i].rung == 0)
      {
        fputs (".BR ", stdout);
        roff (rows[i].name);
        puts (i == last ? " ." : " ,");
      }
}

/* @CONTRADICTIONS@: one line per row that contradicts others.  */
static void
contradictions (const struct entitle_entry_s *rows, size_t n)
{
  size_t i;

  puts (".RS");
  for (i = 0; i < n; i++)
    if (rows[i].contradicts)
      {
        puts (".br");
        fputs (".B ", stdout);
        roff (rows[i].name);
        putchar ('\n');
        fputs ("contradicts ", stdout);
        for (const char *const *c = rows[i].contradicts; *c; c++)
          {
            fputs (c == rows[i].contradicts ? "" : (c[1] ? ", " : " and "), stdout);
            fputs ("\\fB", stdout);
            roff (*c);
            fputs ("\\fR", stdout);
          }
        puts (".");
      }
  puts (".RE");
}

static void
catalogue (const struct entitle_entry_s *rows, size_t n)
{
  size_t i;

  puts (".\\\" The entries below are generated from lib/catalogue/catalogue.c by man/gen-entitlements.");
  puts (".SH CATALOGUE");
  puts ("Capability names are written without their\n.B CAP_\nprefix.");
  for (i = 0; i < n; i++)
    {
      entry_head (&rows[i], rows, n);
      entry_body (&rows[i]);
    }
}

/* gen-entitlements TEMPLATE: TEMPLATE with its @MODIFIERS@,
   @CONTRADICTIONS@ and @CATALOGUE@ lines replaced.  */
int
main (int argc, char **argv)
{
  size_t n;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (NULL, &n);
  char line[4096];
  FILE *in;

  if (argc != 2 || (in = fopen (argv[1], "re")) == NULL)
    {
      fprintf (stderr, "usage: gen-entitlements entitlements.7.in (%s)\n", argc == 2 ? strerror (errno) : "no template");
      return EXIT_FAILURE;
    }
  while (fgets (line, sizeof (line), in))
    if (strcmp (line, "@MODIFIERS@\n") == 0)
      modifiers (rows, n);
    else if (strcmp (line, "@CONTRADICTIONS@\n") == 0)
      contradictions (rows, n);
    else if (strcmp (line, "@CATALOGUE@\n") == 0)
      catalogue (rows, n);
    else
      fputs (line, stdout);
  fclose (in);
  return ferror (stdout) ? EXIT_FAILURE : EXIT_SUCCESS;
}
