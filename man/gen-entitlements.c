/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "catalogue.h"

/* gen-entitlements: the CATALOGUE section of entitlements(7), one entry
   per catalogue row, from the table the compiler uses (lib/catalogue/catalogue.c).
   The prose around it is man/entitlements.7.in; the Makefile puts them
   together.  Each entry starts with .TP and then .B NAME or
   .BI NAME= VALUE.  */

/* How a value is written, and notes the table has no column for: keyed
   by name, and every key must name a row (checked below), so this cannot
   drift from the catalogue unnoticed.  */
static const struct
{
  const char *name;
  const char *value; /* roff, after `.BI NAME= ` */
  const char *note;  /* roff lines, or NULL */
} extra[] = {
  { "fs.read", "PATH", "Only absolute paths." },
  { "fs.write", "PATH", "Only absolute paths." },
  { "network.bind", "PORT\\fR[\\fB\\-\\fIPORT\\fR]", NULL },
  { "network.bind-map", "FROM\\fB:\\fITO", "A bind to port\n.I FROM\nbinds port\n.I TO\ninstead: port mapping without DNAT." },
  { "network.egress", "CIDR\\fR[\\fB:\\fIPORT\\fR[\\fB\\-\\fIPORT\\fR]]", "IPv4 or IPv6 prefixes, with an optional port or port range.\nLoopback is not special: list\n.B 127.0.0.0/8\nto allow it." },
  { "network.host", NULL, "The top rung of the network ladder." },
  { "security.insecure", NULL, "The top rung of the security ladder: every admin rung at once, as\n.BR \"docker run \\-\\-privileged\" ." },
};

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

static int
find_extra (const char *name)
{
  size_t i;
  for (i = 0; i < sizeof (extra) / sizeof (extra[0]); i++)
    if (strcmp (extra[i].name, name) == 0)
      return (int)i;
  return -1;
}

static void
entry_head (const struct entitle_entry_s *e, int x)
{
  puts (".TP");
  fputs (e->value ? ".BI " : ".B ", stdout);
  roff (e->name);
  if (e->value)
    printf ("= %s", extra[x].value);
  putchar ('\n');
  putchar (e->summary[0] >= 'a' && e->summary[0] <= 'z' ? e->summary[0] - 'a' + 'A' : e->summary[0]);
  roff (e->summary + 1);
  puts (".");
  if (e->rung)
    printf (".br\nLadder\n.BR %s ,\nrung %d.\n", entitle_domain_name (e->domain), e->rung);
  else
    printf (".br\nModifier%s.\n", e->value ? ", repeatable" : "");
  if (x >= 0 && extra[x].note)
    puts (extra[x].note);
}

static void
entry_body (const struct entitle_entry_s *e)
{
  const struct entitle_fx_text_s *fx = NULL;
  const char *cg = e->bpf_text;
  size_t i, n;

  bold_list ("Capabilities kept at most (every other one is dropped, but those another entitlement adds)", e->cap_keep, true);
  bold_list ("Capabilities dropped", e->cap_drop, true);
  bold_list ("Capabilities added", e->cap_add, true);
  bold_list ("System calls denied whatever their arguments", e->sys_deny, false);
  bold_list ("System calls allowed", e->sys_allow, false);
  fx = entitle_fx_texts (&n);
  for (i = 0; i < n; i++)
    if (e->fx & fx[i].fx)
      {
        printf (".br\n%c%s: ", fx[i].mechanism[0] >= 'a' ? fx[i].mechanism[0] - 'a' + 'A' : fx[i].mechanism[0],
                fx[i].mechanism + 1);
        roff (fx[i].text);
        puts (".");
      }
  if (cg)
    {
      fputs (".br\nCgroup BPF: ", stdout);
      roff (cg);
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

int
main (void)
{
  size_t i, n;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (&n);

  for (i = 0; i < sizeof (extra) / sizeof (extra[0]); i++)
    if (entitle_catalogue_find (extra[i].name, strlen (extra[i].name)) == NULL)
      {
        fprintf (stderr, "gen-entitlements: `%s` is not in the catalogue\n", extra[i].name);
        return EXIT_FAILURE;
      }
  for (i = 0; i < n; i++)
    if (rows[i].value && (find_extra (rows[i].name) < 0 || extra[find_extra (rows[i].name)].value == NULL))
      {
        fprintf (stderr, "gen-entitlements: `%s` takes a value: say how it is written\n", rows[i].name);
        return EXIT_FAILURE;
      }
  puts (".\\\" The entries below are generated from lib/catalogue/catalogue.c by man/gen-entitlements.");
  puts (".SH CATALOGUE");
  puts ("Capability names are written without their\n.B CAP_\nprefix.");
  for (i = 0; i < n; i++)
    {
      entry_head (&rows[i], find_extra (rows[i].name));
      entry_body (&rows[i]);
    }
  return ferror (stdout) ? EXIT_FAILURE : EXIT_SUCCESS;
}
