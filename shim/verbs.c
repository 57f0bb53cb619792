/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stddef.h>
#include <string.h>
#include "closest.h"
#include "verbs.h"

/* The names and kinds of shim/commands.def's rows: all the front knows of
   them.  */
static const struct
{
  const char *name;
  enum shim_help_kind kind;
} verbs[] = {
#define VERB(name, kind, run, flags, options, usage, summary, text) { name, kind },
#include "commands.def"
};

static const char *const own_globals[] = { "--entitle-config", "--entitle-profile", NULL };

bool
entitle_verb_find (const char *name, enum shim_help_kind *kind)
{
  for (size_t i = 0; name && i < sizeof (verbs) / sizeof (verbs[0]); i++)
    if (strcmp (verbs[i].name, name) == 0)
      {
        *kind = verbs[i].kind;
        return true;
      }
  return false;
}

/* One edit for a short name (`wyh`), two from five letters on (`explian`,
   `--entitle-confg`): closer than entitle_closest's own rule, so that
   runc's `h` (help) is never taken for `why` (entitle(8), COMMAND LINE).  */
static void
closest_init (struct entitle_closest_s *c, const char *name, size_t len)
{
  entitle_closest_init (c, name, len);
  c->best_d = len < 5 ? 1 : 2;
}

const char *
entitle_verb_typo (const char *command)
{
  struct entitle_closest_s c;
  enum shim_help_kind kind;

  if (command == NULL || command[0] == '\0' || entitle_verb_find (command, &kind))
    return NULL;
  closest_init (&c, command, strlen (command));
  for (size_t i = 0; i < sizeof (verbs) / sizeof (verbs[0]); i++)
    if (verbs[i].kind == HELP_OWN)
      entitle_closest_consider (&c, verbs[i].name);
  return c.best;
}

bool
entitle_global_typo (const char *flag, const char **best)
{
  /* One dash or two, as runc reads them.  */
  const char *name = flag + (flag[1] == '-' ? 2 : 1);
  size_t len = strcspn (name, "=");
  struct entitle_closest_s c;

  closest_init (&c, name, len);
  *best = NULL;
  for (size_t i = 0; own_globals[i]; i++)
    if (entitle_closest_consider (&c, own_globals[i] + 2))
      *best = own_globals[i];
  return *best != NULL || strncmp (name, "entitle-", 8) == 0;
}
