/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "attach-after.h"
#include "capture.h"
#include "cgroup-record.h"
#include "fault.h"
#include "file.h"
#include "hook.h"
#include "pending.h"
#include "utils.h"

/* create without a createRuntime hook (issue 25): the runtime's create
   runs as entitle-full's child; once it returned 0 the container's init
   waits for `start` and has run no instruction of its own, so the cgroup
   programs attached now bind it from its first.  The cgroup is the one the
   runtime placed the init in (/proc/PID/cgroup), checked to hold nothing
   else, exactly as entitle-hook's createRuntime does: its code runs here,
   in a child, so that a crash of the attach (or a fault injected there)
   still leaves this process to delete the container.  */

/* The signals an engine sends its runtime: passed on to it while it runs.  */
static const int forwarded[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH };

static void
forwarded_set (sigset_t *set)
{
  sigemptyset (set);
  for (size_t i = 0; i < sizeof (forwarded) / sizeof (forwarded[0]); i++)
    sigaddset (set, forwarded[i]);
  sigaddset (set, SIGCHLD);
}

/* Wait for @pid, passing on each forwarded signal that arrives meanwhile
   (they are blocked: sigtimedwait takes them).  */
static int
wait_forwarding (pid_t pid, const sigset_t *set)
{
  struct timespec tick = { 0, 100 * 1000 * 1000 };
  int status, sig;

  for (;;)
    {
      pid_t r = waitpid (pid, &status, WNOHANG);
      if (r == pid)
        return status;
      if (r < 0 && errno != EINTR)
        return -1;
      sig = sigtimedwait (set, NULL, &tick);
      if (sig > 0 && sig != SIGCHLD)
        kill (pid, sig);
    }
}

/* Run @argv (a runtime command line) with the signal mask as it was,
   by posix_spawn (a vfork: no copy of this process's page tables), with
   this process's stdout and stderr, or with /dev/null for both (@quiet).  */
static pid_t
spawn (char **argv, const sigset_t *old, bool quiet)
{
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  pid_t pid;
  int ret;

  posix_spawnattr_init (&attr);
  posix_spawnattr_setsigmask (&attr, old);
  posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETSIGMASK);
  posix_spawn_file_actions_init (&fa);
  if (quiet)
    {
      posix_spawn_file_actions_addopen (&fa, 1, "/dev/null", O_WRONLY, 0);
      posix_spawn_file_actions_addopen (&fa, 2, "/dev/null", O_WRONLY, 0);
    }
  ret = posix_spawn (&pid, argv[0], &fa, &attr, argv, environ);
  posix_spawn_file_actions_destroy (&fa);
  posix_spawnattr_destroy (&attr);
  errno = ret;
  return ret == 0 ? pid : -1;
}

/* The runtime's global flags (--root, --systemd-cgroup, --log...), then
   @verb and its arguments: a new command line (the strings are @s's).  */
static char **
runtime_argv (const struct shim_s *s, const char *const *verb)
{
  int i, k = 0, n = 0, at = 1;
  char **argv;

  while (s->argv[at] && s->argv[at] != s->args.command)
    at++;
  while (verb[n])
    n++;
  argv = xcalloc (at + n + 1, sizeof (char *));
  argv[k++] = (char *)s->runtime;
  for (i = 1; i < at; i++)
    argv[k++] = s->argv[i];
  for (i = 0; i < n; i++)
    argv[k++] = (char *)verb[i];
  return argv;
}

/* The container's init: the --pid-file the runtime wrote, else its state
   (read whole: it holds the config's annotations, which can be as large
   as the config).  */
static pid_t
init_pid (const struct shim_s *s, entitle_error_t *err)
{
  const char *verb[] = { "state", s->args.id, NULL };
  cleanup_free char **argv = NULL;
  cleanup_free char *raw = NULL;
  cleanup_json json_t *state = NULL;
  const json_t *pid;
  size_t len = 0;
  int ret;

  if (s->args.pid_file)
    {
      if (entitle_file_read (s->args.pid_file, 64, &raw, &len, err) < 0)
        return entitle_error_wrap (err, "read the runtime's --pid-file");
      return (pid_t)atol (raw);
    }
  argv = runtime_argv (s, verb);
  ret = entitle_capture (s->runtime, argv, STDOUT_FILENO, &raw, &len, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (ret != 0)
    return entitle_make_error (err, EIO, "`%s state %s` failed", s->runtime, s->args.id);
  if (json_parse (raw, len, &state, err) < 0)
    return entitle_error_wrap (err, "read `%s state %s`", s->runtime, s->args.id);
  pid = json_get (state, "pid");
  if (pid == NULL || pid->type != JSON_NUMBER || atol (pid->text) <= 0)
    return entitle_make_error (err, EIO, "`%s state %s` has no pid", s->runtime, s->args.id);
  return (pid_t)atol (pid->text);
}

/* What the attach's child gets.  */
struct attach_child_s
{
  struct shim_s *s;
  const struct hook_state_s *st;
};

/* entitle-hook's createRuntime; its error is its one line.  */
static int
attach_child (void *arg)
{
  const struct attach_child_s *c = arg;
  entitle_error_t err = NULL;

  ENTITLE_FAULT_POINT ("after-runtime-create");
  if (hook_create_runtime (c->s->ctx, c->st, &err) < 0)
    {
      entitle_log_error (c->s->ctx->log, "%s", err->msg);
      _exit (1);
    }
  ENTITLE_FAULT_POINT ("after-attach");
  _exit (0);
}

/* The attach's stack: as large as a main thread's by default (ulimit -s),
   with a guard page below; only what the child touches is ever backed.  */
#define ATTACH_STACK (8 * 1024 * 1024)

/* Run the attach in a child that shares this process's memory and is
   waited for before this process runs on (CLONE_VM | CLONE_VFORK, as
   posix_spawn does), on a stack of its own: a crash of the attach (or a
   fault injected there) kills the child alone and leaves this process to
   delete the container, and no page table is copied nor page copied on
   write, which a fork costs on the path of every container (issue 25).  */
static pid_t
attach_spawn (struct attach_child_s *c)
{
  size_t page = (size_t)sysconf (_SC_PAGESIZE);
  char *stack = mmap (NULL, ATTACH_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE,
                      -1, 0);
  pid_t pid;
  int saved;

  if (stack == MAP_FAILED)
    return -1;
  mprotect (stack, page, PROT_NONE);
  pid = clone (attach_child, stack + ATTACH_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, c);
  saved = errno;
  munmap (stack, ATTACH_STACK);
  errno = saved;
  return pid;
}

/* entitle-hook's createRuntime, in a child of this process; its error is
   its one line.  */
static int
attach (struct shim_s *s, const json_t *spec, const struct entitle_set_s *final, entitle_error_t *err)
{
  struct hook_state_s st = { .id = s->args.id,
                             .bundle = s->args.bundle ? s->args.bundle : ".",
                             .root = s->ctx->root ? s->ctx->root : "",
                             .spec = spec,
                             .final = final };
  struct attach_child_s c = { s, &st };
  int status;
  pid_t pid;

  st.pid = init_pid (s, err);
  if (UNLIKELY (st.pid <= 0))
    return st.pid < 0 ? st.pid : entitle_make_error (err, EIO, "the runtime's --pid-file has no pid");
  fflush (NULL);
  pid = attach_spawn (&c);
  if (pid < 0)
    return entitle_make_sys_error (err, "start the attach");
  if (waitpid (pid, &status, 0) < 0)
    return entitle_make_sys_error (err, "wait");
  if (WIFEXITED (status) && WEXITSTATUS (status) == 0)
    return 0;
  if (WIFSIGNALED (status))
    return entitle_make_error (err, EINTR, "the attach of container `%s`'s cgroup BPF policy was killed (signal %d)",
                               s->args.id, WTERMSIG (status));
  return 1;
}

/* Leave nothing of a create that failed after the runtime's: the
   container (its cgroup, and the programs with it), a cgroup the attach
   made, the record `why` reads.  */
static void
undo (const struct shim_s *s, const sigset_t *old, time_t since)
{
  const char *verb[] = { "delete", "--force", s->args.id, NULL };
  cleanup_free char **argv = runtime_argv (s, verb);
  const char *root = s->ctx->root ? s->ctx->root : "";
  int status;
  pid_t pid = spawn (argv, old, true);

  if (pid > 0)
    waitpid (pid, &status, 0);
  hook_made_remove (s->ctx->config->state_dir, root, s->args.id, s->ctx->log);
  entitle_cgroup_record_forget (s->ctx->config->state_dir, root, s->args.id, since);
}

int
shim_create_attach_after (struct shim_s *s, const json_t *spec, const struct entitle_set_s *final,
                          entitle_error_t *err)
{
  const char *state_dir = s->ctx->config->state_dir, *root = s->ctx->root ? s->ctx->root : "";
  time_t since = time (NULL);
  sigset_t set, old;
  int status, ret;
  pid_t pid;

  /* Until the policy is attached, `start` through entitle refuses the
     container (lib/host/pending.h): a kill of this process in between
     leaves no container that can run without it.  */
  ret = entitle_pending_mark (state_dir, root, s->args.id, err);
  if (UNLIKELY (ret < 0))
    return ret;
  forwarded_set (&set);
  sigprocmask (SIG_BLOCK, &set, &old);
  s->argv[0] = (char *)s->runtime;
  fflush (NULL);
  pid = spawn (s->argv, &old, false);
  if (pid < 0)
    {
      entitle_pending_clear (state_dir, root, s->args.id);
      return entitle_make_sys_error (err, "run `%s`", s->runtime);
    }
  status = wait_forwarding (pid, &set);
  if (status < 0)
    return entitle_make_sys_error (err, "wait for `%s create`", s->runtime);
  /* The runtime's failure is its to report, with its status.  */
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      entitle_pending_clear (state_dir, root, s->args.id);
      exit (WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status));
    }
  ENTITLE_FAULT_POINT ("runtime-created");
  ret = attach (s, spec, final, err);
  if (ret != 0)
    undo (s, &old, since);
  entitle_pending_clear (state_dir, root, s->args.id);
  sigprocmask (SIG_SETMASK, &old, NULL);
  /* The attach's own line is said (ret 1): exit without a second.  */
  if (ret > 0)
    exit (EXIT_FAILURE);
  if (ret < 0)
    return ret;
  exit (EXIT_SUCCESS);
}
