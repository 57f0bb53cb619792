/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "help.h"
#include "runtime.h"
#include "utils.h"

/* entitle's commands and options: what `--help` and `help` print and
   what `__complete` offers (full/complete.c).  entitle's own commands
   first, then those of the runtime that entitle acts on, then the
   runtime's alone.  */

#define HELP_OPTION                             \
  {                                             \
    "--help", "-h", ARG_NONE, NULL, "this help" \
  }
#define END_OPTIONS                  \
  {                                  \
    NULL, NULL, ARG_NONE, NULL, NULL \
  }

#define BUNDLE_OPTION(what)                                                    \
  {                                                                            \
    "--bundle", "-b", ARG_DIR, "DIR", what " (default: the current directory)" \
  }
#define CONFIG_OPTION(what)                  \
  {                                          \
    "--config", "-f", ARG_FILE, "FILE", what \
  }

static const struct shim_option_s explain_options[] = {
  { "--json", NULL, ARG_NONE, NULL, "print JSON" },
  { "--score", NULL, ARG_NONE, NULL, "rate the bundle's exposure instead" },
  BUNDLE_OPTION ("with --score: the bundle; with names: the bundle whose config they may widen, in place of "
                 "Docker 20.10's default"),
  CONFIG_OPTION ("this config instead of DIR/config.json"),
  { "--max", NULL, ARG_TEXT, "SCORE",
    "with --score: fail (one line, exit status 1) when the exposure is above SCORE, 0 to 10 (2.5): for CI" },
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s compile_options[] = {
  BUNDLE_OPTION ("the bundle"),
  CONFIG_OPTION ("this config instead of DIR/config.json, as crun's --config"),
  { "--entitlements", "-e", ARG_LIST, "LIST",
    "these entitlements (separated by commas or spaces) in place of the bundle's request (io.entitle.entitlements, "
    "or ENTITLE_ENTITLEMENTS in process.env)" },
  { "--diff", NULL, ARG_NONE, NULL, "print a unified diff against the config as it is (needs diff)" },
  { "--check", NULL, ARG_NONE, NULL,
    "print nothing; fail, naming the first section that differs, unless the config is already as create "
    "writes it" },
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s json_options[] = {
  { "--json", NULL, ARG_NONE, NULL, "print JSON" },
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s help_only[] = { HELP_OPTION, END_OPTIONS };

static const struct shim_option_s why_options[] = {
  { "--json", NULL, ARG_NONE, NULL, "print JSON" },
  { "--since", NULL, ARG_TEXT, "DURATION", "only denials this recent: 90s, 10m, 1h, 2d" },
  { "--follow", NULL, ARG_NONE, NULL, "print the denials as they happen, seccomp's too, until interrupted" },
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s learn_options[] = {
  BUNDLE_OPTION ("the bundle to run"),
  { "--duration", NULL, ARG_TEXT, "SECONDS", "stop the container this long after it starts (default 10)" },
  { "--json", NULL, ARG_NONE, NULL, "print JSON" },
  { "--write", NULL, ARG_NONE, NULL,
    "put the proposal in the bundle's io.entitle.entitlements (atomically, as create writes config.json)" },
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s create_options[] = {
  BUNDLE_OPTION ("the bundle, as the runtime reads it"),
  CONFIG_OPTION ("crun's: the config that is rewritten and run, instead of DIR/config.json"),
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s restore_options[] = {
  BUNDLE_OPTION ("the bundle, as the runtime reads it"),
  HELP_OPTION,
  END_OPTIONS,
};

static const struct shim_option_s exec_options[] = {
  { "--process", "-p", ARG_FILE, "FILE", "the process to run (a file or a pipe): entitle narrows it for the container's entitlements" },
  { "--cap", "-c", ARG_TEXT, "CAP", "refused when the container's entitlements take CAP away" },
  HELP_OPTION,
  END_OPTIONS,
};

#define REWRITE_TEXT                                                                                   \
  "First, entitle rewrites the bundle's config.json for the container's entitlements: the annotation " \
  "io.entitle.entitlements (else ENTITLE_ENTITLEMENTS in the process's environment), with the admin "  \
  "configuration's defaults, require and grants.  It edits "                                           \
  "capabilities, seccomp, namespaces, masked and read-only paths, device rules and noNewPrivileges, "  \
  "and adds entitle-hook at createRuntime and poststop where cgroup BPF enforces a part.  The "        \
  "rewrite is atomic; on an error entitle prints one line, leaves the bundle as it was and does not "  \
  "run the runtime.  With no entitlement from any source nothing is written."

static const struct shim_help_s commands[] = {
  { "explain", HELP_OWN, "[--json] [-b DIR|--config FILE] [ENTITLEMENT...]\n--score [--json] [-b DIR|--config FILE] [--max SCORE]",
    "what entitlements do, how this host enforces them; a bundle's exposure",
    "Without an argument, list the catalogue: each ladder narrow to wide, then the modifiers.  With "
    "entitlements (a modifier alone or with its =VALUE), print what each one changes, mechanism by "
    "mechanism, and whether this host enforces each part; whether a container that asks for it would widen "
    "an engine's config (Docker 20.10's default, or the bundle's with -b or --config), and so needs the "
    "admin's grant, and whether this host's admin config grants it, by which entry, or applies it itself; "
    "an unknown name is an error that names the closest known one.  With --score, rate how exposed the bundle's container would be, from 0.0 to "
    "10.0, as create would rewrite it: each check that costs points, and the entitlement to ask for "
    "or the change to make that would lower it.",
    explain_options, true },
  { "compile", HELP_OWN, "[-b DIR] [--config FILE] [--entitlements LIST] [--diff|--check]",
    "the config.json create would write, printed; nothing is written",
    "Compute the rewrite create would make for the bundle, with the same admin configuration and "
    "grants, and print it: the bytes create would write, or with --diff a diff -u against the config "
    "as it is.  Nothing on disk changes; it fails where create would, with the same message.",
    compile_options, false },
  { "probe", HELP_OWN, "[--json]", "what this kernel offers entitle",
    "Probe this host afresh through entitle-hook: seccomp, each cgroup BPF attach type, BPF LSM, "
    "Landlock, SELinux, AppArmor, and the Checmate and eBPF seccomp patches.  create and explain use "
    "the same answer, kept for this boot in state_dir/probe.json.",
    json_options, false },
  { "checmate", HELP_OWN, "reset HOOK", "debug: take every program off a Checmate hook",
    "Where the kernel has Checmate (a seed patch set; entitle probe says), take every program off HOOK "
    "(socket_connect, task_create, or another of the seed's hooks), entitle's included: running "
    "containers lose that layer until the next create that takes it installs entitle's again.  A hook "
    "locked with deny_reset (the admin configuration's \"lock\") refuses until a reboot.",
    help_only, false },
  { "why", HELP_OWN, "[ID] [--json] [--since DURATION | --follow]",
    "recent denials, the entitlement behind each and the one that would allow it",
    "List the denials entitle's cgroup programs recorded on this host (or those of container ID, also for "
    "two hours after it was deleted): when, which container, what was denied (socket family, destination, "
    "port, sysctl), the entitlement whose rule denied it, and the entitlement that would allow it (or none). "
    "The programs record at most 16 denials a minute per container, in one store of the last 8192 that "
    "outlives the containers; the admin config's \"denials\": false turns recording off.  Seccomp denials "
    "are not recorded: --follow shows them as they happen, with the cgroup programs' new records, through an "
    "fexit program it attaches for as long as it runs (every seccomp'd syscall of the host costs more while it "
    "is), where the kernel allows it; the note says whether it does here, or why not.",
    why_options, false },
  { "learn", HELP_OWN, "-b DIR [--duration SECONDS] [--json] [--write]",
    "run a bundle once and propose the narrowest entitlements it needs",
    "Run the bundle's container through the runtime with its config as the engine gave it, with only "
    "logging added: its allowed calls of the syscalls an entitlement may deny are passed to entitle's "
    "seccomp listener, which lets them continue, entitle-hook counts its sockets, destinations, "
    "binds and sysctl writes, and a BPF program on the kernel's capability check (tp_btf or fexit on "
    "cap_capable, the first this kernel takes) notes each capability it was granted or refused.  Then "
    "print the narrowest rung of each ladder and the egress and bind values that cover what it did, one "
    "line of evidence each, and what this kernel could not observe.",
    learn_options, false },
  { "inspect", HELP_OWN, "[--json] ID|PID", "what the kernel enforces on a container or process now",
    "Read from the kernel, not config.json: the cgroup programs attached where the container's init (or "
    "PID) runs, the policy entitle's programs keep for that cgroup, its capabilities and no_new_privs, and "
    "its seccomp filters, read with ptrace (the process stops for the moment) and disassembled with "
    "syscall names.",
    json_options, false },
  { "config", HELP_OWN, "check [FILE]", "check an admin configuration: every key and every name",
    "Check FILE (default: the admin configuration entitle would load, from --entitle-config, $ENTITLE_CONFIG "
    "or " ENTITLE_CONFIG_FILE ") strictly, with entitle's own parser: every key (an unknown one names the "
    "closest known key) and the type of its value; every name in grant (a glob must cover an entitlement), "
    "defaults, require and each profile (an unknown one names the closest known entitlement); the custom "
    "entitlements; then the lists resolved as create resolves them.  Each error is one line (invalid JSON "
    "says its line and column), and the exit status is 1 when there is one; a good file prints `FILE`: ok.",
    help_only, false },
  { "version", HELP_OWN, "", "the runtime's version, then entitle's and the catalogue's",
    "Print the wrapped runtime's own --version first (tools read its first line), then entitle's "
    "version, the catalogue version and the runtime's path; exit with the runtime's status.",
    help_only, false },
  { "help", HELP_OWN, "[COMMAND]", "this help, or a command's (as COMMAND --help)",
    "Print entitle's commands, then the runtime's help.  With a command: what entitle does for it "
    "and its options, then the runtime's help for it where the command is the runtime's.",
    help_only, false },
  { "create", HELP_ACTS, "[options] ID", "rewrite config.json for the entitlements, then create",
    REWRITE_TEXT, create_options, false },
  { "run", HELP_ACTS, "[options] ID", "the same, then create and start", REWRITE_TEXT, create_options, false },
  { "restore", HELP_ACTS, "[options] ID", "the same, then restore from a checkpoint", REWRITE_TEXT,
    restore_options, false },
  { "exec", HELP_ACTS, "[options] ID [COMMAND...]", "give the process the container's entitlements",
    "With --process FILE (what engines pass), entitle first applies to the process in FILE the "
    "process-level effects of the container's entitlements, derived as create derives them from the "
    "container's state (never from FILE's environment): capabilities, noNewPrivileges, AppArmor and SELinux labels, with the trust rule; "
    "FILE (a file or a pipe) is read as runc reads it and left as given.  In a container that runs "
    "entitle-init (fs.read, fs.write), every exec'd command, plain or in FILE, gets it in front.  "
    "--cap CAP is refused when the entitlements take CAP away.  Where entitle-hook made the container's "
    "cgroup (crun without a cgroup manager), the process joins it.  Otherwise exec is the runtime's.",
    exec_options, false },
  { "features", HELP_ACTS, "", "the runtime's features, with entitle's",
    "entitle adds its facts to the runtime's features, under annotations: io.entitle.version, "
    "io.entitle.entitlements (the names it knows), io.entitle.catalogue and io.entitle.mechanisms.  "
    "Where the runtime has no features command (crun before 1.8.6), entitle writes the document.",
    help_only, false },
#define RUNTIME(name)                                      \
  {                                                        \
    name, HELP_RUNTIME, NULL, NULL, NULL, help_only, false \
  }
  RUNTIME ("checkpoint"),
  RUNTIME ("delete"),
  RUNTIME ("events"),
  RUNTIME ("kill"),
  RUNTIME ("list"),
  RUNTIME ("pause"),
  RUNTIME ("ps"),
  RUNTIME ("resume"),
  RUNTIME ("spec"),
  RUNTIME ("start"),
  RUNTIME ("state"),
  RUNTIME ("update"),
#undef RUNTIME
};

/* entitle's own first; then the runtime's that entitle reads.  */
static const struct shim_option_s globals[] = {
  { "--entitle-config", NULL, ARG_FILE, "FILE",
    "entitle's own: the admin configuration, in place of $ENTITLE_CONFIG and " ENTITLE_CONFIG_FILE
    "; the runtime never sees it" },
  { "--entitle-profile", NULL, ARG_TEXT, "NAME",
    "entitle's own: the admin's profile NAME, as if run as entitle-NAME (Docker's runtimeArgs); the runtime "
    "never sees it" },
  { "--log", NULL, ARG_FILE, "FILE", "the runtime's log: entitle's warnings go there, its errors there and to stderr" },
  { "--log-format", NULL, ARG_WORDS, "text|json", "the log's format, which entitle writes too" },
  { "--root", NULL, ARG_DIR, "DIR", "the runtime's state directory: entitle keys containers by it and their id" },
  { "--debug", NULL, ARG_NONE, NULL, "entitle's debug lines go to the log as well" },
  { "--help", "-h", ARG_NONE, NULL, "this help, then the runtime's" },
  { "--version", "-v", ARG_NONE, NULL, "the runtime's version, then entitle's" },
  { "--systemd-cgroup", NULL, ARG_NONE, NULL, NULL },
  { "--rootless", NULL, ARG_WORDS, "true|false|auto", NULL },
  { "--cgroup-manager", NULL, ARG_WORDS, "cgroupfs|systemd|disabled", NULL },
  { "--log-level", NULL, ARG_WORDS, "error|warning|debug", NULL },
  { "--criu", NULL, ARG_FILE, "PATH", NULL },
  END_OPTIONS,
};

const struct shim_help_s *
shim_help_commands (size_t *n)
{
  *n = sizeof (commands) / sizeof (commands[0]);
  return commands;
}

const struct shim_help_s *
shim_help_find (const char *name)
{
  size_t i;
  for (i = 0; name && i < sizeof (commands) / sizeof (commands[0]); i++)
    if (strcmp (commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

const struct shim_option_s *
shim_help_globals (void)
{
  return globals;
}

const struct shim_option_s *
shim_help_option (const struct shim_option_s *opts, const char *arg)
{
  size_t len = strcspn (arg, "=");

  for (; opts && opts->name; opts++)
    if ((strlen (opts->name) == len && strncmp (opts->name, arg, len) == 0)
        || (opts->alias && strlen (opts->alias) == len && strncmp (opts->alias, arg, len) == 0))
      return opts;
  return NULL;
}

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
print_overview (void)
{
  size_t i;

  printf ("Usage: entitle [global options] COMMAND [options] [arguments]\n\n"
          "An OCI runtime that applies the container's entitlements, then runs the\n"
          "wrapped runtime (runc or crun) with the same arguments.\n\n"
          "entitle's commands:\n");
  for (i = 0; i < sizeof (commands) / sizeof (commands[0]); i++)
    {
      if (commands[i].kind == HELP_RUNTIME)
        break;
      if (i > 0 && commands[i].kind != commands[i - 1].kind)
        printf ("Commands entitle acts on before the runtime runs them:\n");
      shim_help_wrap (commands[i].summary, printf ("  %-10s ", commands[i].name), 13);
    }
  print_options ("Global options entitle reads (all but entitle's own go to the runtime too):", globals);
  printf ("\nEvery other command and option is the runtime's.  `entitle COMMAND --help`\n"
          "shows a command's options.  The entitlements: `entitle explain`,\n"
          "entitlements(7); the admin configuration: entitle.json(5); entitle(8).\n");
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

  help_topic (s, &topic);
  h = shim_help_find (topic);
  if (topic == NULL)
    print_overview ();
  else if (h && h->kind != HELP_RUNTIME)
    print_command (h);
  if (h && h->kind == HELP_OWN)
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
