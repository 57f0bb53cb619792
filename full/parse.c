/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "closest.h"
#include "commands.h"
#include "help.h"
#include "log.h"

/* Every command of entitle's parses its command line here, by the
   options of its row (shim/commands.def, full/table.c): the same rows
   its --help lists and the shell completes, so that none of them can
   take an option another does not know of.  */

void
shim_usage_error (struct shim_s *s, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (msg, sizeof (msg), fmt, ap);
  va_end (ap);
  entitle_log_error (s->ctx->log, "%s", msg);
  exit (2);
}

static _Noreturn void
unknown_option (struct shim_s *s, const struct shim_help_s *c, const char *arg)
{
  const struct shim_option_s *o;
  struct entitle_closest_s near;

  entitle_closest_init (&near, arg, strcspn (arg, "="));
  for (o = c->options; o && o->name; o++)
    {
      entitle_closest_consider (&near, o->name);
      if (o->alias)
        entitle_closest_consider (&near, o->alias);
    }
  if (near.best)
    shim_usage_error (s, "%s: unknown option `%s`: did you mean `%s`?", c->name, arg, near.best);
  shim_usage_error (s, "%s: unknown option `%s` (`entitle %s --help` lists them)", c->name, arg, c->name);
}

/* The value of option @o, given as argv[*i]: after its `=`, else the next
   argument.  */
static const char *
option_value (struct shim_s *s, const struct shim_help_s *c, const struct shim_option_s *o, int *i)
{
  const char *arg = s->argv[*i], *eq = strchr (arg, '=');

  if (o->arg == ARG_NONE && eq)
    shim_usage_error (s, "%s: `%.*s` takes no value", c->name, (int)(eq - arg), arg);
  if (o->arg == ARG_NONE)
    return NULL;
  if (eq)
    return eq + 1;
  if (*i + 1 >= s->argc)
    shim_usage_error (s, "%s: `%s` needs a value (%s)", c->name, arg, o->meta);
  return s->argv[++*i];
}

int
shim_parse_no_args (struct shim_s *s, void *data, enum shim_key key, const char *value, entitle_error_t *err)
{
  (void)data;
  (void)key;
  (void)err;
  shim_usage_error (s, "%s: unexpected argument `%s`", s->args.command, value);
}

int
shim_parse (struct shim_s *s, void *data, shim_parse_fn fn, entitle_error_t *err)
{
  const struct shim_help_s *c = shim_help_find (s->args.command);
  bool options = true;
  int i, ret;

  for (i = s->args.command_index + 1; i < s->argc; i++)
    {
      const char *arg = s->argv[i], *value;
      const struct shim_option_s *o;

      if (options && strcmp (arg, "--") == 0)
        {
          options = false;
          continue;
        }
      if (!options || arg[0] != '-' || arg[1] == '\0')
        {
          ret = fn (s, data, KEY_ARG, arg, err);
          if (UNLIKELY (ret < 0))
            return ret;
          continue;
        }
      o = shim_help_option (c->options, arg);
      if (o == NULL)
        unknown_option (s, c, arg);
      value = option_value (s, c, o, &i);
      /* dispatch answered --help before the command ran.  */
      if (o->key == KEY_HELP)
        continue;
      ret = fn (s, data, o->key, value, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  return 0;
}
