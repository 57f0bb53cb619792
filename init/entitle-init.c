/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * entitle-init: the in-container helper (entitle-init(8), DESIGN §4).
 *
 *   entitle-init [--fs.write PATH]... [--fs.read PATH]...
 *                [--tcp-connect PORT[-PORT]]... [--tcp-bind PORT[-PORT]]...
 *                [--seccomp-fd FD] -- COMMAND [ARG]...
 *
 * entitle bind-mounts it read-only into a container whose entitlements
 * need per-process enforcement and puts it in front of process.args (and
 * of every exec'd process).  It sets no_new_privs, applies its layers in
 * order, and execve()s COMMAND: it is gone from the process list once the
 * command runs.  Anything it cannot apply ends it with one line
 * "entitle-init: ..." and status 127, before the command runs: never
 * unconfined.
 */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "init.h"

/* runc and containerd's default when the process has no PATH.  */
#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/* Options named after the entitlement whose values they take as written;
   the TCP ones take ports entitle derived (entitle-init(8)).  */
static const struct
{
  const char *name;
  enum rule_kind kind;
} options[] = {
  { "--fs.write", RULE_FS_WRITE },
  { "--fs.read", RULE_FS_READ },
  { "--tcp-connect", RULE_TCP_CONNECT },
  { "--tcp-bind", RULE_TCP_BIND },
  { "--seccomp-fd", RULE_SECCOMP_FD },
};

static void
parse (int argc, char **argv, struct plan *p)
{
  int i;

  p->rules = calloc ((size_t)argc, sizeof (*p->rules));
  if (p->rules == NULL)
    init_fail (INIT_EXIT_FAILED, "out of memory");
  for (i = 1; i < argc && strcmp (argv[i], "--") != 0; i += 2)
    {
      size_t k = 0;
      while (k < sizeof (options) / sizeof (options[0]) && strcmp (argv[i], options[k].name) != 0)
        k++;
      if (k == sizeof (options) / sizeof (options[0]))
        init_fail (INIT_EXIT_FAILED, "unknown option `%s` (usage: entitle-init [RULE VALUE]... -- COMMAND [ARG]...)", argv[i]);
      if (i + 1 >= argc)
        init_fail (INIT_EXIT_FAILED, "option `%s` needs a value", argv[i]);
      p->rules[p->n_rules].kind = options[k].kind;
      p->rules[p->n_rules++].value = argv[i + 1];
    }
  if (i + 1 >= argc)
    init_fail (INIT_EXIT_FAILED, "no command (usage: entitle-init [RULE VALUE]... -- COMMAND [ARG]...)");
  p->command = &argv[i + 1];
}

static bool
executable_file (const char *path)
{
  struct stat st;
  return access (path, X_OK) == 0 && stat (path, &st) == 0 && S_ISREG (st.st_mode);
}

/* COMMAND as the runtime would have found it: a name with a slash as it
   is, else the first executable file of that name in $PATH.  */
static char *
resolve (const char *name)
{
  const char *path = getenv ("PATH"), *dir, *end;
  char *found;

  if (strchr (name, '/'))
    return strdup (name);
  if (path == NULL || *path == '\0')
    path = DEFAULT_PATH;
  for (dir = path; dir; dir = *end ? end + 1 : NULL)
    {
      int len;
      end = strchrnul (dir, ':');
      len = (int)(end - dir);
      /* An empty element is the current directory, as for execvp.  */
      if (asprintf (&found, "%.*s/%s", len ? len : 1, len ? dir : ".", name) < 0)
        init_fail (INIT_EXIT_FAILED, "out of memory");
      if (executable_file (found))
        return found;
      free (found);
    }
  init_fail (INIT_EXIT_FAILED, "exec `%s`: not found in $PATH", name);
}

int
main (int argc, char **argv)
{
  struct plan p = { .kernel = &entitle_kernel };
  extern char **environ;
  int saved;

  parse (argc, argv, &p);
  p.path = resolve (p.command[0]);
  /* Landlock requires it of a process without CAP_SYS_ADMIN, as an eBPF
     seccomp filter would: nothing the command runs gains privileges
     through setuid or file capabilities.  */
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
    init_fail (INIT_EXIT_FAILED, "prctl PR_SET_NO_NEW_PRIVS: %s", strerror (errno));
  init_apply (&p);
  execve (p.path, p.command, environ);
  saved = errno;
  init_fail (saved == ENOENT ? INIT_EXIT_FAILED : INIT_EXIT_NOEXEC, "exec `%s`: %s", p.command[0], strerror (saved));
}
