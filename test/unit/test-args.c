/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "args.h"

/* runc/crun command lines as engines write them, parsed as runc parses
   them (shim/args.c).  */

#define ARGC(v) ((int)(sizeof (v) / sizeof ((v)[0])))

static void
parse (int argc, char *const *argv, struct entitle_args_s *a)
{
  /* Garbage first: the parser must set every field.  */
  memset (a, 0x5a, sizeof (*a));
  entitle_args_parse (argc, argv, a);
}

static void
assert_str (const char *got, const char *expected)
{
  if (expected == NULL)
    assert_null (got);
  else
    {
      assert_non_null (got);
      assert_string_equal (got, expected);
    }
}

/* A string field of struct entitle_args_s and what it must be (NULL: must
   be NULL).  */
struct want
{
  const char *field;
  size_t offset;
  const char *value;
};

/* clang-format off */
#define WANT(f, v) { #f, offsetof (struct entitle_args_s, f), v }
/* clang-format on */

/* A command line and the fields it must parse to, checked in order.  */
struct parse_case
{
  char *argv[16];
  struct want want[5];
};

/* Tests that only check string fields: the state is an array of cases
   ending with one whose argv is empty.  */
static void
test_parse_cases (void **state)
{
  const struct parse_case *c;

  for (c = *state; c->argv[0] != NULL; c++)
    {
      struct entitle_args_s a;
      const struct want *w;
      int argc = 0;

      while (c->argv[argc] != NULL)
        argc++;
      parse (argc, c->argv, &a);
      for (w = c->want; w->field != NULL; w++)
        assert_str (*(const char *const *)((const char *)&a + w->offset), w->value);
    }
}

/* clang-format off */
#define NO_MORE_CASES { { NULL }, { { NULL, 0, NULL } } }
/* clang-format on */

#define PARSE_CASES(test, cases)                                           \
  {                                                                        \
    .name = #test, .test_func = test_parse_cases, .initial_state = (cases) \
  }

static void
test_entitle_args_parse_globals_and_create (void **state)
{
  char *argv[] = { "runc", "--root", "/r", "--log=/l", "--log-format", "json", "create", "--bundle", "/b", "id" };
  struct entitle_args_s a;

  (void)state;
  parse (ARGC (argv), argv, &a);
  assert_str (a.root, "/r");
  assert_str (a.log, "/l");
  assert_str (a.log_format, "json");
  assert_str (a.command, "create");
  assert_int_equal (a.command_index, 6);
  assert_str (a.bundle, "/b");
  assert_str (a.id, "id");
  assert_str (a.config, NULL);
  assert_str (a.process, NULL);
  assert_false (a.debug);
  assert_false (a.help);
  assert_false (a.version);
  assert_false (a.missing_value);
}

static void
test_entitle_args_parse_bundle_spellings (void **state)
{
  char *one_dash[] = { "runc", "create", "-bundle", "/b", "id" };
  char *equals[] = { "runc", "create", "--bundle=/b", "id" };
  char *short_flag[] = { "runc", "create", "-b", "/b", "id" };
  char *attached[] = { "crun", "create", "-b/b", "id" };
  char *short_equals[] = { "runc", "create", "--b", "/b", "id" };
  char *run[] = { "runc", "run", "-d", "--bundle", "/b", "id" };
  char *restore[] = { "runc", "restore", "--image-path", "/img", "-b", "/b", "id" };
  struct
  {
    int argc;
    char **argv;
  } cases[] = {
    { ARGC (one_dash), one_dash },
    { ARGC (equals), equals },
    { ARGC (short_flag), short_flag },
    { ARGC (attached), attached },
    { ARGC (short_equals), short_equals },
    { ARGC (run), run },
    { ARGC (restore), restore },
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    {
      struct entitle_args_s a;
      parse (cases[i].argc, cases[i].argv, &a);
      assert_str (a.command, cases[i].argv[1]);
      assert_int_equal (a.command_index, 1);
      if (a.bundle == NULL || strcmp (a.bundle, "/b") != 0)
        fail_msg ("case %zu (%s): bundle `%s`", i, cases[i].argv[2], a.bundle ? a.bundle : "(null)");
      assert_str (a.id, "id");
      assert_false (a.missing_value);
    }
}

/* runc reorders flags after the positional argument of create.  */
static struct parse_case bundle_after_id[] = {
  { { "runc", "create", "id", "--bundle", "/b" }, { WANT (id, "id"), WANT (bundle, "/b") } },
  NO_MORE_CASES,
};

/* As Go's flag package and argp: the last occurrence counts.  */
static struct parse_case last_bundle_wins[] = {
  { { "runc", "create", "-b", "/a", "id", "--bundle=/b" }, { WANT (bundle, "/b"), WANT (id, "id") } },
  NO_MORE_CASES,
};

/* Split on the first `=` only.  */
static struct parse_case equals_in_value[] = {
  { { "runc", "create", "-b=/foo/=bar", "id" }, { WANT (bundle, "/foo/=bar"), WANT (id, "id") } },
  NO_MORE_CASES,
};

static struct parse_case crun_config[] = {
  { { "crun", "create", "-f", "cfg.json", "id" }, { WANT (config, "cfg.json"), WANT (id, "id"), WANT (bundle, NULL) } },
  { { "crun", "run", "--config=cfg.json", "--bundle", "/b", "id" },
    { WANT (config, "cfg.json"), WANT (bundle, "/b"), WANT (id, "id") } },
  NO_MORE_CASES,
};

/* A flag's value is never the id.  */
static struct parse_case value_flags_skip_values[] = {
  { { "runc", "create", "--console-socket", "/s", "--pid-file", "/p", "--preserve-fds", "3", "--no-pivot", "-b", "/b",
      "id" },
    { WANT (id, "id"), WANT (bundle, "/b") } },
  NO_MORE_CASES,
};

static struct parse_case exec_process[] = {
  { { "runc", "exec", "--process", "/p.json", "ctr" },
    { WANT (command, "exec"), WANT (process, "/p.json"), WANT (id, "ctr"), WANT (bundle, NULL) } },
  { { "runc", "exec", "-d", "--pid-file", "/pid", "-p", "/p.json", "ctr" }, { WANT (process, "/p.json"), WANT (id, "ctr") } },
  NO_MORE_CASES,
};

static void
test_entitle_args_parse_exec_stops_at_positional (void **state)
{
  char *argv[] = { "runc", "exec", "ctr", "sh", "-c", "x -b y" };
  char *flags[] = { "runc", "exec", "-t", "ctr", "tool", "--bundle", "/b", "-p", "/p.json" };
  struct entitle_args_s a;

  (void)state;
  /* What follows the id is the command run in the container.  */
  parse (ARGC (argv), argv, &a);
  assert_str (a.id, "ctr");
  assert_str (a.bundle, NULL);
  assert_str (a.process, NULL);
  parse (ARGC (flags), flags, &a);
  assert_str (a.id, "ctr");
  assert_str (a.bundle, NULL);
  assert_str (a.process, NULL);
  assert_false (a.missing_value);
}

static struct parse_case exec_double_dash[] = {
  { { "runc", "exec", "-p", "/p.json", "--", "ctr" }, { WANT (process, "/p.json"), WANT (id, "ctr") } },
  { { "runc", "exec", "ctr", "--", "-p", "/x" }, { WANT (id, "ctr"), WANT (process, NULL) } },
  NO_MORE_CASES,
};

static struct parse_case ps[] = {
  { { "runc", "ps", "ctr", "-ef" }, { WANT (command, "ps"), WANT (id, "ctr"), WANT (config, NULL) } },
  /* ps's -f is --format, not crun's --config.  */
  { { "runc", "ps", "-f", "json", "ctr" }, { WANT (id, "ctr"), WANT (config, NULL) } },
  NO_MORE_CASES,
};

static void
test_entitle_args_parse_debug_state (void **state)
{
  char *argv[] = { "runc", "--debug", "state", "id" };
  struct entitle_args_s a;

  (void)state;
  parse (ARGC (argv), argv, &a);
  assert_true (a.debug);
  assert_str (a.command, "state");
  assert_int_equal (a.command_index, 2);
  assert_str (a.bundle, NULL);
  assert_false (a.missing_value);
}

static void
test_entitle_args_parse_pass_through_globals (void **state)
{
  char *argv[] = { "crun", "--systemd-cgroup", "--cgroup-manager", "systemd", "--rootless", "auto",
                   "--criu", "/usr/sbin/criu", "--log-level", "debug", "kill", "id", "KILL" };
  struct entitle_args_s a;

  (void)state;
  /* Value flags take their value: "systemd" is not the command.  */
  parse (ARGC (argv), argv, &a);
  assert_str (a.command, "kill");
  assert_int_equal (a.command_index, 10);
  assert_false (a.debug);
}

static void
test_entitle_args_parse_help_version (void **state)
{
  char *help[] = { "runc", "--help" };
  char *help_short[] = { "runc", "-h" };
  char *version[] = { "runc", "--version" };
  char *v[] = { "runc", "-v" };
  char *create_help[] = { "runc", "create", "--help" };
  struct entitle_args_s a;

  (void)state;
  parse (ARGC (help), help, &a);
  assert_true (a.help);
  assert_false (a.version);
  assert_str (a.command, NULL);
  assert_int_equal (a.command_index, -1);
  parse (ARGC (help_short), help_short, &a);
  assert_true (a.help);
  parse (ARGC (version), version, &a);
  assert_true (a.version);
  assert_false (a.help);
  assert_str (a.command, NULL);
  parse (ARGC (v), v, &a);
  assert_true (a.version);
  /* A command's own --help is the command's business: entitle-full
     prints its part for the commands entitle acts on.  */
  parse (ARGC (create_help), create_help, &a);
  assert_false (a.help);
  assert_true (a.command_help);
  assert_str (a.command, "create");
  assert_str (a.id, NULL);
  {
    char *exec_args[] = { "runc", "exec", "-t", "id", "sh", "--help" };
    char *exec_help[] = { "runc", "exec", "-h" };
    char *features_help[] = { "runc", "features", "--help" };
    char *ps_help[] = { "runc", "ps", "--help" };

    /* The process's --help is the process's.  */
    parse (ARGC (exec_args), exec_args, &a);
    assert_false (a.command_help);
    parse (ARGC (exec_help), exec_help, &a);
    assert_true (a.command_help);
    parse (ARGC (features_help), features_help, &a);
    assert_true (a.command_help);
    parse (ARGC (ps_help), ps_help, &a);
    assert_false (a.command_help);
  }
}

/* A global flag no row of shim/commands.def names is kept, as given, for
   the typo rule (shim/verbs.h); the runtimes' known ones are not.  */
static void
test_entitle_args_parse_unknown_global (void **state)
{
  char *known[] = { "runc", "--root", "/r", "-V", "--log-format=json", "--systemd-cgroup", "-h", "list" };
  char *typo[] = { "runc", "--root=/r", "--entitle-confg", "/e.json", "--frob", "create", "id" };
  struct entitle_args_s a;

  (void)state;
  parse (ARGC (known), known, &a);
  assert_str (a.unknown_global, NULL);
  assert_str (a.command, "list");
  parse (ARGC (typo), typo, &a);
  /* The first only; a boolean to the parser, so its value is the command.  */
  assert_str (a.unknown_global, "--entitle-confg");
  assert_str (a.command, "/e.json");
}

static void
test_entitle_args_parse_no_command (void **state)
{
  char *bare[] = { "runc" };
  char *flags[] = { "runc", "--root", "/r", "--debug" };
  struct entitle_args_s a;

  (void)state;
  parse (ARGC (bare), bare, &a);
  assert_str (a.command, NULL);
  assert_int_equal (a.command_index, -1);
  assert_str (a.id, NULL);
  assert_false (a.missing_value);
  parse (ARGC (flags), flags, &a);
  assert_str (a.command, NULL);
  assert_int_equal (a.command_index, -1);
  assert_str (a.root, "/r");
  assert_true (a.debug);
}

static void
test_entitle_args_parse_missing_value (void **state)
{
  char *global[] = { "runc", "--root" };
  char *bundle[] = { "runc", "create", "id", "--bundle" };
  char *short_flag[] = { "runc", "create", "-b" };
  char *process[] = { "runc", "exec", "-p" };
  struct entitle_args_s a;

  (void)state;
  parse (ARGC (global), global, &a);
  assert_true (a.missing_value);
  assert_str (a.root, NULL);
  assert_str (a.command, NULL);
  parse (ARGC (bundle), bundle, &a);
  assert_true (a.missing_value);
  assert_str (a.bundle, NULL);
  assert_str (a.id, "id");
  parse (ARGC (short_flag), short_flag, &a);
  assert_true (a.missing_value);
  assert_str (a.bundle, NULL);
  parse (ARGC (process), process, &a);
  assert_true (a.missing_value);
  assert_str (a.process, NULL);
}

static void
test_entitle_args_parse_double_dash_before_command (void **state)
{
  char *argv[] = { "runc", "--", "create", "--bundle", "/b", "id" };
  char *alone[] = { "runc", "--" };
  char *in_create[] = { "runc", "create", "-b", "/b", "--", "--bundle" };
  struct entitle_args_s a;

  (void)state;
  /* `--` ends the global flags: the next word is the command.  */
  parse (ARGC (argv), argv, &a);
  assert_str (a.command, "create");
  assert_int_equal (a.command_index, 2);
  assert_str (a.bundle, "/b");
  assert_str (a.id, "id");
  parse (ARGC (alone), alone, &a);
  assert_str (a.command, NULL);
  assert_int_equal (a.command_index, -1);
  /* After `--`, even a flag-like word is the id.  */
  parse (ARGC (in_create), in_create, &a);
  assert_str (a.bundle, "/b");
  assert_str (a.id, "--bundle");
}

static void
test_entitle_args_parse_argv_unchanged (void **state)
{
  char b0[] = "runc", b1[] = "create", b2[] = "-b=/x", b3[] = "id";
  char *argv[] = { b0, b1, b2, b3 };
  struct entitle_args_s a;

  (void)state;
  parse (ARGC (argv), argv, &a);
  assert_string_equal (argv[2], "-b=/x");
  assert_ptr_equal (argv[2], b2);
  assert_str (a.bundle, "/x");
  /* The value points into argv.  */
  assert_ptr_equal (a.bundle, b2 + 3);
}

/* Go's flag package, which runc's CLI uses, reads `--debug=false` as
   false.  */
static void
test_entitle_args_parse_bool_false (void **state)
{
  char *argv[] = { "runc", "--debug=false", "state", "id" };
  struct entitle_args_s a;

  (void)state;
  parse (ARGC (argv), argv, &a);
  assert_str (a.command, "state");
  assert_false (a.debug);
}

static void
test_entitle_args_parse_exec_caps (void **state)
{
  char *argv[] = { "runc", "exec", "--cap", "CAP_NET_RAW", "-c=CAP_KILL", "ctr", "sh", "--cap", "X", NULL };
  struct entitle_args_s a;

  (void)state;
  entitle_args_parse (9, argv, &a);
  assert_int_equal (a.n_caps, 2);
  assert_string_equal (a.caps[0], "CAP_NET_RAW");
  assert_string_equal (a.caps[1], "CAP_KILL");
  assert_string_equal (a.id, "ctr");
}

/* --entitle-config (DESIGN §7) is entitle's own global flag, in every
   spelling runc's flags have.  */
static void
test_entitle_args_parse_entitle_config (void **state)
{
  char *eq[] = { "runc", "--entitle-config=/e.json", "state", "id" };
  char *sep[] = { "runc", "--root", "/r", "-entitle-config", "/e.json", "create", "-b", "/b", "id" };
  char *missing[] = { "runc", "--entitle-config" };
  char *after[] = { "runc", "exec", "id", "sh", "--entitle-config=/e.json" };
  struct entitle_args_s a;

  (void)state;
  parse (ARGC (eq), eq, &a);
  assert_str (a.entitle_config, "/e.json");
  assert_str (a.command, "state");
  parse (ARGC (sep), sep, &a);
  assert_str (a.entitle_config, "/e.json");
  assert_str (a.root, "/r");
  assert_str (a.command, "create");
  assert_str (a.bundle, "/b");
  parse (ARGC (missing), missing, &a);
  assert_str (a.entitle_config, "");
  assert_true (a.missing_value);
  /* After the command it is the command's (here the process's).  */
  parse (ARGC (after), after, &a);
  assert_str (a.entitle_config, NULL);
}

static void
assert_argv (char **argv, int argc, char *const *want)
{
  int i;

  for (i = 0; want[i]; i++)
    {
      assert_true (i < argc);
      assert_string_equal (argv[i], want[i]);
    }
  assert_int_equal (argc, i);
  assert_null (argv[argc]);
}

/* The runtime never sees entitle's own flags: take_own removes every
   occurrence before the command, and nothing else.  */
static void
test_entitle_args_take_own (void **state)
{
  char *eq[] = { "runc", "--entitle-config=/e.json", "--root", "/r", "state", "id", NULL };
  char *const eq_want[] = { "runc", "--root", "/r", "state", "id", NULL };
  char *sep[] = { "runc", "--log", "/l", "--entitle-config", "/a.json", "--debug", "--entitle-config=/e.json",
                  "create", "--bundle", "/b", "id", NULL };
  char *const sep_want[] = { "runc", "--log", "/l", "--debug", "create", "--bundle", "/b", "id", NULL };
  char *none[] = { "runc", "exec", "id", "sh", "--entitle-config=/e.json", NULL };
  char *const none_want[] = { "runc", "exec", "id", "sh", "--entitle-config=/e.json", NULL };
  char *last[] = { "runc", "--entitle-config", NULL };
  char *const last_want[] = { "runc", NULL };
  struct entitle_args_s a;
  int argc;

  (void)state;
  argc = entitle_args_take_own (ARGC (eq) - 1, eq, &a);
  assert_argv (eq, argc, eq_want);
  assert_str (a.entitle_config, "/e.json");
  assert_str (a.root, "/r");
  assert_str (a.command, "state");
  assert_int_equal (a.command_index, 3);

  /* The last one wins, as with runc's flags.  */
  argc = entitle_args_take_own (ARGC (sep) - 1, sep, &a);
  assert_argv (sep, argc, sep_want);
  assert_str (a.entitle_config, "/e.json");
  assert_str (a.log, "/l");
  assert_true (a.debug);
  assert_str (a.command, "create");
  assert_int_equal (a.command_index, 4);
  assert_str (a.bundle, "/b");

  argc = entitle_args_take_own (ARGC (none) - 1, none, &a);
  assert_argv (none, argc, none_want);
  assert_str (a.entitle_config, NULL);

  argc = entitle_args_take_own (ARGC (last) - 1, last, &a);
  assert_argv (last, argc, last_want);
  assert_str (a.entitle_config, "");
  assert_str (a.command, NULL);
}

/* --entitle-profile and entitle-NAME (DESIGN §7): the flag wins, the
   programs of entitle itself select no profile, and the flag never
   reaches the runtime.  */
static void
test_entitle_args_profile (void **state)
{
  char *flag[] = { "entitle", "--entitle-profile=confined", "--root", "/r", "create", "id", NULL };
  char *sep[] = { "/usr/bin/entitle-dind", "--entitle-profile", "confined", "state", "id", NULL };
  char *name[] = { "/usr/local/bin/entitle-confined", "delete", "id", NULL };
  char *full[] = { "/usr/libexec/entitle/entitle-full", "delete", "id", NULL };
  char *hook[] = { "entitle-hook", "delete", "id", NULL };
  char *bare[] = { "entitle-", "delete", "id", NULL };
  char *runc[] = { "runc", "delete", "id", NULL };
  char *const want_flag[] = { "entitle", "--root", "/r", "create", "id", NULL };
  char *const want_sep[] = { "/usr/bin/entitle-dind", "state", "id", NULL };
  struct entitle_args_s a;
  int n;

  (void)state;
  n = entitle_args_take_own (6, flag, &a);
  assert_int_equal (n, 5);
  assert_argv (flag, n, want_flag);
  assert_str (a.entitle_profile, "confined");
  assert_str (a.command, "create");
  n = entitle_args_take_own (5, sep, &a);
  assert_argv (sep, n, want_sep);
  assert_str (a.entitle_profile, "confined");
  entitle_args_take_own (3, name, &a);
  assert_str (a.entitle_profile, "confined");
  entitle_args_take_own (3, full, &a);
  assert_str (a.entitle_profile, NULL);
  entitle_args_take_own (3, hook, &a);
  assert_str (a.entitle_profile, NULL);
  entitle_args_take_own (3, bare, &a);
  assert_str (a.entitle_profile, NULL);
  entitle_args_take_own (3, runc, &a);
  assert_str (a.entitle_profile, NULL);
}

/* The eBPF seccomp layer's fd (full/seccomp.c): the runtime's
   --preserve-fds becomes one more, in whichever spelling it was given, or
   is put right after the command; the rest of argv is as it was.  */
static char *
preserved (int argc, char **argv)
{
  static char out[512];
  struct entitle_args_s a;
  char flag[] = "--preserve-fds=N", **v;

  entitle_args_parse (argc, argv, &a);
  v = entitle_args_set_preserve_fds (argc, argv, &a, flag);
  out[0] = '\0';
  for (char **p = v; *p; p++)
    {
      strcat (out, p == v ? "" : " ");
      strcat (out, *p);
    }
  free (v);
  return out;
}

static void
test_entitle_args_set_preserve_fds (void **state)
{
  char *none[] = { "runc", "--root", "/r", "create", "-b", "/b", "id" };
  char *separate[] = { "runc", "create", "--preserve-fds", "2", "-b", "/b", "id" };
  char *joined[] = { "runc", "exec", "--preserve-fds=2", "id", "sh" };
  char *exec_none[] = { "runc", "exec", "id", "sh", "--preserve-fds", "9" };

  (void)state;
  assert_string_equal (preserved (ARGC (none), none), "runc --root /r create --preserve-fds=N -b /b id");
  assert_string_equal (preserved (ARGC (separate), separate), "runc create --preserve-fds=N -b /b id");
  assert_string_equal (preserved (ARGC (joined), joined), "runc exec --preserve-fds=N id sh");
  /* After the id is the command's, never the runtime's.  */
  assert_string_equal (preserved (ARGC (exec_none), exec_none), "runc exec --preserve-fds=N id sh --preserve-fds 9");
}

/* exec --process: the copy entitle judged (full/exec.c) takes the place
   of FILE in whichever spelling it was given; the rest of argv is as it
   was, a -p after the id (the command's) included.  */
static char *
process_set (int argc, char **given)
{
  static char out[512];
  struct entitle_args_s a;
  char *argv[16];

  memcpy (argv, given, (size_t)argc * sizeof (char *));
  entitle_args_parse (argc, argv, &a);
  entitle_args_set_process (argc, argv, &a, "/proc/self/fd/9");
  assert_string_equal (a.process, "/proc/self/fd/9");
  out[0] = '\0';
  for (int i = 0; i < argc; i++)
    {
      strcat (out, i ? " " : "");
      strcat (out, argv[i]);
      if (argv[i] != given[i])
        free (argv[i]);
    }
  return out;
}

static void
test_entitle_args_set_process (void **state)
{
  char *separate[] = { "runc", "exec", "-p", "F", "id", "-p", "x" };
  char *joined[] = { "runc", "exec", "--process=F", "id" };
  char *one_dash[] = { "runc", "exec", "-process=F=G", "id" };
  char *twice[] = { "runc", "exec", "-p", "F", "--process", "G", "id" };

  (void)state;
  assert_string_equal (process_set (ARGC (separate), separate), "runc exec -p /proc/self/fd/9 id -p x");
  assert_string_equal (process_set (ARGC (joined), joined), "runc exec --process=/proc/self/fd/9 id");
  assert_string_equal (process_set (ARGC (one_dash), one_dash), "runc exec -process=/proc/self/fd/9 id");
  /* The last one is the runtime's.  */
  assert_string_equal (process_set (ARGC (twice), twice), "runc exec -p F --process /proc/self/fd/9 id");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_entitle_args_parse_exec_caps),
    cmocka_unit_test (test_entitle_args_parse_entitle_config),
    cmocka_unit_test (test_entitle_args_profile),
    cmocka_unit_test (test_entitle_args_take_own),
    cmocka_unit_test (test_entitle_args_parse_globals_and_create),
    cmocka_unit_test (test_entitle_args_parse_bundle_spellings),
    PARSE_CASES (test_entitle_args_parse_bundle_after_id, bundle_after_id),
    PARSE_CASES (test_entitle_args_parse_last_bundle_wins, last_bundle_wins),
    PARSE_CASES (test_entitle_args_parse_equals_in_value, equals_in_value),
    PARSE_CASES (test_entitle_args_parse_crun_config, crun_config),
    PARSE_CASES (test_entitle_args_parse_value_flags_skip_values, value_flags_skip_values),
    PARSE_CASES (test_entitle_args_parse_exec_process, exec_process),
    cmocka_unit_test (test_entitle_args_parse_exec_stops_at_positional),
    PARSE_CASES (test_entitle_args_parse_exec_double_dash, exec_double_dash),
    PARSE_CASES (test_entitle_args_parse_ps, ps),
    cmocka_unit_test (test_entitle_args_parse_debug_state),
    cmocka_unit_test (test_entitle_args_parse_pass_through_globals),
    cmocka_unit_test (test_entitle_args_parse_help_version),
    cmocka_unit_test (test_entitle_args_parse_no_command),
    cmocka_unit_test (test_entitle_args_parse_unknown_global),
    cmocka_unit_test (test_entitle_args_parse_missing_value),
    cmocka_unit_test (test_entitle_args_parse_double_dash_before_command),
    cmocka_unit_test (test_entitle_args_parse_argv_unchanged),
    cmocka_unit_test (test_entitle_args_parse_bool_false),
    cmocka_unit_test (test_entitle_args_set_preserve_fds),
    cmocka_unit_test (test_entitle_args_set_process),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
