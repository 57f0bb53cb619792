/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "utils.h"
#include "verbs.h"

/* The global options, entitle's and the runtimes' (shim/commands.def).  */
static const struct
{
  const char *name, *alias;
  bool value; /* takes one; every other flag is a boolean */
} globals[] = {
#define GLOBAL(name, alias, arg, meta, text) { name, alias, arg != ARG_NONE },
#include "commands.def"
};

static const char *const create_values[] = { "bundle", "b", "console-socket", "pidfd-socket",
                                             "pid-file", "preserve-fds", "config", "f", NULL };

static const char *const restore_values[] = {
  "bundle", "b", "console-socket", "pidfd-socket", "pid-file", "image-path", "work-path",
  "parent-path", "manage-cgroups-mode", "lsm-profile", "lsm-mount-context", "status-fd",
  "page-server", "empty-ns", NULL
};

static const char *const exec_values[] = { "console-socket", "pidfd-socket", "cwd", "env", "e",
                                           "user", "u", "additional-gids", "g", "process", "p",
                                           "pid-file", "process-label", "apparmor", "cap", "c",
                                           "preserve-fds", "cgroup", NULL };

static const char *const ps_values[] = { "format", "f", NULL };

static const char *const no_values[] = { NULL };

struct command_flags
{
  const char *name;
  const char *const *values;
  bool stop_at_positional;
};

static const struct command_flags commands[] = {
  { "create", create_values, false },
  { "run", create_values, false },
  { "restore", restore_values, false },
  { "exec", exec_values, true },
  { "ps", ps_values, true },
  { "features", no_values, false },
  /* Their id only: a create killed before its policy was attached
     (lib/host/pending.h).  */
  { "start", no_values, true },
  { "delete", no_values, true },
};

static bool
in_list (const char *const *list, const char *name, size_t len)
{
  for (; *list; list++)
    if (strlen (*list) == len && strncmp (*list, name, len) == 0)
      return true;
  return false;
}

static bool
is (const char *name, size_t len, const char *a, const char *b)
{
  return (strlen (a) == len && strncmp (name, a, len) == 0)
         || (b && strlen (b) == len && strncmp (name, b, len) == 0);
}

/* The global option @name (@len bytes, without its dashes), or -1.  */
static int
find_global (const char *name, size_t len)
{
  for (size_t i = 0; i < sizeof (globals) / sizeof (globals[0]); i++)
    if (is (name, len, globals[i].name + 2, globals[i].alias ? globals[i].alias + 1 : NULL))
      return (int)i;
  return -1;
}

/* Does the flag @name take a value: one of @values, or with @values NULL
   a global option that does?  */
static bool
takes_value (const char *const *values, const char *name, size_t len)
{
  int g;

  if (values)
    return in_list (values, name, len);
  g = find_global (name, len);
  return g >= 0 && globals[g].value;
}

/* One flag at argv[*i]: its name (without dashes) and value, if any.
   Returns false when argv[*i] is not a flag.  */
static bool
take_flag (int argc, char *const *argv, int *i, const char *const *values, const char **name,
           size_t *len, const char **value, bool *missing)
{
  const char *arg = argv[*i], *eq;

  if (arg[0] != '-' || arg[1] == '\0')
    return false;
  arg += arg[1] == '-' ? 2 : 1;
  eq = strchr (arg, '=');
  *name = arg;
  *len = eq ? (size_t)(eq - arg) : strlen (arg);
  *value = NULL;
  if (eq)
    *value = eq + 1;
  else if (takes_value (values, arg, *len))
    {
      if (*i + 1 < argc)
        *value = argv[++*i];
      else
        *missing = true;
    }
  else if (argv[*i][1] != '-' && *len > 1 && takes_value (values, arg, 1))
    {
      /* -bDIR, as getopt reads it for crun.  */
      *len = 1;
      *value = arg + 1;
    }
  return true;
}

/* A boolean flag's value, as Go's strconv.ParseBool reads it.  */
static bool
bool_value (const char *value)
{
  static const char *const no[] = { "0", "f", "F", "false", "FALSE", "False", NULL };
  return value == NULL || !in_list (no, value, strlen (value));
}

static void
parse_command (int argc, char *const *argv, int i, const struct command_flags *c,
               struct entitle_args_s *a)
{
  const char *name, *value;
  size_t len;

  for (; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        {
          if (a->id == NULL && i + 1 < argc)
            a->id = argv[i + 1];
          return;
        }
      if (!take_flag (argc, argv, &i, c->values, &name, &len, &value, &a->missing_value))
        {
          if (a->id == NULL)
            a->id = argv[i];
          if (c->stop_at_positional)
            return;
          continue;
        }
      if (is (name, len, "bundle", "b"))
        a->bundle = value;
      else if (is (name, len, "config", "f") && strcmp (c->name, "ps") != 0)
        a->config = value;
      else if (is (name, len, "process", "p"))
        a->process = value;
      else if (is (name, len, "pid-file", NULL))
        a->pid_file = value;
      else if (is (name, len, "preserve-fds", NULL))
        {
          a->preserve_fds = value;
          a->preserve_fds_at = i;
        }
      else if (is (name, len, "help", "h") && strcmp (c->name, "ps") != 0)
        a->command_help = true;
      else if (is (name, len, "cap", "c") && strcmp (c->name, "exec") == 0)
        {
          if (a->n_caps < ENTITLE_ARGS_MAX_CAPS)
            a->caps[a->n_caps] = value;
          a->n_caps++;
        }
    }
}

void
entitle_args_parse (int argc, char *const *argv, struct entitle_args_s *a)
{
  const char *name, *value;
  size_t len, k;
  int i;

  memset (a, 0, sizeof (*a));
  a->command_index = -1;
  for (i = 1; i < argc; i++)
    {
      const char *flag = argv[i];

      if (strcmp (argv[i], "--") == 0)
        i++;
      else if (take_flag (argc, argv, &i, NULL, &name, &len, &value, &a->missing_value))
        {
          if (a->unknown_global == NULL && find_global (name, len) < 0 && !is (name, len, "V", NULL))
            a->unknown_global = flag;
          if (is (name, len, "root", NULL))
            a->root = value;
          else if (is (name, len, "log", NULL))
            a->log = value;
          else if (is (name, len, "log-format", NULL))
            a->log_format = value;
          else if (is (name, len, "cgroup-manager", NULL))
            a->no_cgroup_manager = value && strcmp (value, "disabled") == 0;
          else if (is (name, len, "debug", NULL))
            a->debug = bool_value (value);
          else if (is (name, len, "help", "h"))
            a->help = true;
          else if (is (name, len, "version", "v") || is (name, len, "V", NULL))
            a->version = true;
          /* Missing at the end: "" (the NUL of the flag), an error later.  */
          else if (is (name, len, "entitle-config", NULL))
            a->entitle_config = value ? value : name + len;
          else if (is (name, len, "entitle-profile", NULL))
            a->entitle_profile = value ? value : name + len;
          continue;
        }
      if (i >= argc)
        return;
      a->command_index = i;
      a->command = argv[i];
      break;
    }
  if (a->command == NULL)
    return;
  for (k = 0; k < sizeof (commands) / sizeof (commands[0]); k++)
    if (strcmp (a->command, commands[k].name) == 0)
      parse_command (argc, argv, a->command_index + 1, &commands[k], a);
}

/* Is the global flag that starts at argv[i] (and ends at argv[*end - 1])
   one of entitle's own?  */
static bool
own_flag (int argc, char *const *argv, int i, int *end)
{
  const char *name, *value;
  size_t len;
  bool missing = false;
  int j = i;

  if (!take_flag (argc, argv, &j, NULL, &name, &len, &value, &missing))
    return false;
  *end = j + 1;
  return is (name, len, "entitle-config", NULL) || is (name, len, "entitle-profile", NULL);
}

/* entitle-NAME selects profile NAME (DESIGN §7: a symlink given to
   containerd as a handler's BinaryName, which passes no arguments); the
   names of entitle's own programs select none.  */
static const char *
profile_of_argv0 (const char *argv0)
{
  static const char *const reserved[] = { "full", "hook", "init", NULL };
  const char *base = argv0 ? strrchr (argv0, '/') : NULL;

  base = base ? base + 1 : argv0;
  if (base == NULL || strncmp (base, "entitle-", 8) != 0 || base[8] == '\0'
      || in_list (reserved, base + 8, strlen (base + 8)))
    return NULL;
  return base + 8;
}

int
entitle_args_take_own (int argc, char **argv, struct entitle_args_s *a)
{
  const char *config, *flag, *profile;
  int i, end, out;

  entitle_args_parse (argc, argv, a);
  config = a->entitle_config;
  flag = a->entitle_profile;
  /* The flag wins over the name.  */
  profile = flag ? flag : profile_of_argv0 (argv[0]);
  a->entitle_profile = profile;
  if (config == NULL && flag == NULL)
    return argc;
  /* The global flags are those before the command (all of argv without
     one); `--` ends them.  */
  end = a->command_index < 0 ? argc : a->command_index;
  for (i = 1, out = 1; i < end;)
    {
      int next = i + 1;
      if (strcmp (argv[i], "--") == 0)
        break;
      if (own_flag (argc, argv, i, &next))
        {
          i = next;
          continue;
        }
      while (i < next)
        argv[out++] = argv[i++];
    }
  while (i < argc)
    argv[out++] = argv[i++];
  argv[out] = NULL;
  entitle_args_parse (out, argv, a);
  a->entitle_config = config;
  a->entitle_profile = profile;
  return out;
}

char *
entitle_args_config_path (const struct entitle_args_s *a)
{
  char *p;
  if (a->config)
    return xstrdup (a->config);
  xasprintf (&p, "%s/config.json", a->bundle ? a->bundle : ".");
  return p;
}

char **
entitle_args_set_preserve_fds (int argc, char *const *argv, const struct entitle_args_s *a, char *flag)
{
  char **out = xcalloc ((size_t)argc + 2, sizeof (char *));
  int k = 0, at = a->preserve_fds_at;
  /* --preserve-fds N: the flag replaces both the flag and its value.  */
  bool separate = at > 0 && argv[at] == a->preserve_fds;
  if (separate)
    at--;
  for (int i = 0; i < argc; i++)
    {
      if (at > 0 && i == at)
        {
          out[k++] = flag;
          i += separate;
          continue;
        }
      out[k++] = argv[i];
      if (at <= 0 && i == a->command_index)
        out[k++] = flag;
    }
  return out;
}

/* Where the value @value starts in the argument @arg: 0 when it is the
   whole argument, past the `=` of `--flag=value`, -1 when it is not in
   @arg.  */
static int
value_offset (const char *arg, const char *value)
{
  const char *eq = strchr (arg, '=');

  if (arg == value)
    return 0;
  return eq && eq + 1 == value ? (int)(eq + 1 - arg) : -1;
}

void
entitle_args_set_process (int argc, char **argv, struct entitle_args_s *a, const char *path)
{
  for (int i = 0; a->process && i < argc; i++)
    {
      int at = value_offset (argv[i], a->process);

      if (at < 0)
        continue;
      xasprintf (&argv[i], "%.*s%s", at, argv[i], path);
      a->process = argv[i] + at;
      return;
    }
}
