/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The soak test's probe (test/soak/soak.sh):

     procstat STATS TAG PROGRAM [ARG...]

   runs PROGRAM and, for each of entitle's programs the process runs (the
   front execs entitle-full, which execs the runtime), appends one line
   "TAG:NAME PEAK_RSS_KB OPEN_FDS" of that image to STATS at the moment it
   exits or execs the next program; it stops looking once the process runs
   a program that is not entitle's.  Its exit status is PROGRAM's.  It
   traces system calls with ptrace and reads /proc at the entry of execve
   or exit_group, so it sees into statically linked programs (entitle's
   are, where the archives exist), which an LD_PRELOAD probe could not.
   x86_64 only.  Not part of entitle: built by soak.sh with cc.  */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef __x86_64__
#error "procstat reads x86_64 registers"
#endif

static long
peak_rss (pid_t pid)
{
  char path[64], buf[4096], *p;
  long hwm = -1;
  ssize_t n;
  int fd;

  snprintf (path, sizeof (path), "/proc/%d/status", (int)pid);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  n = read (fd, buf, sizeof (buf) - 1);
  close (fd);
  if (n > 0)
    {
      buf[n] = '\0';
      if ((p = strstr (buf, "VmHWM:")) != NULL)
        hwm = strtol (p + 6, NULL, 10);
    }
  return hwm;
}

static int
open_fds (pid_t pid)
{
  char path[64];
  struct dirent *de;
  DIR *d;
  int fds = 0;

  snprintf (path, sizeof (path), "/proc/%d/fd", (int)pid);
  if ((d = opendir (path)) == NULL)
    return -1;
  while ((de = readdir (d)) != NULL)
    fds += de->d_name[0] != '.';
  closedir (d);
  return fds;
}

/* The name of the program @pid runs, into @buf.  */
static const char *
image (pid_t pid, char *buf, size_t len)
{
  char path[64], exe[4096];
  ssize_t n;
  const char *slash;

  snprintf (path, sizeof (path), "/proc/%d/exe", (int)pid);
  n = readlink (path, exe, sizeof (exe) - 1);
  if (n < 0)
    n = 0;
  exe[n] = '\0';
  slash = strrchr (exe, '/');
  snprintf (buf, len, "%.255s", slash ? slash + 1 : exe);
  return buf;
}

static void
report (const char *stats, const char *tag, pid_t pid)
{
  char name[256];
  FILE *f = fopen (stats, "ae");

  if (f == NULL)
    return;
  fprintf (f, "%s:%s %ld %d\n", tag, image (pid, name, sizeof (name)), peak_rss (pid), open_fds (pid));
  fclose (f);
}

static int
is_exec (const struct user_regs_struct *r)
{
  return r->orig_rax == SYS_execve || r->orig_rax == SYS_execveat;
}

/* Follow the traced child @pid through its system calls: a report at the
   entry of each execve or exit of one of entitle's programs, until it
   runs another program (then 1: detach it) or ends (0, @status says
   how); -1 when ptrace fails.  */
static int
trace (const char *stats, const char *tag, pid_t pid, int *status)
{
  struct user_regs_struct regs;
  int entering = 1, sig = 0, execing = 0;
  char name[256];

  for (;;)
    {
      if (ptrace (PTRACE_SYSCALL, pid, 0, sig) < 0 || waitpid (pid, status, 0) < 0)
        return -1;
      sig = 0;
      if (WIFEXITED (*status) || WIFSIGNALED (*status))
        return 0;
      /* A signal for the program (not a system call stop): delivered as
         it goes on; a SIGTRAP stop is ptrace's own (PTRACE_EVENT_EXEC,
         which takes the place of the SIGTRAP a traced execve would get
         and which would kill the program once it is no longer traced).  */
      if (WSTOPSIG (*status) != (SIGTRAP | 0x80))
        {
          sig = WSTOPSIG (*status) == SIGTRAP ? 0 : WSTOPSIG (*status);
          continue;
        }
      if (ptrace (PTRACE_GETREGS, pid, 0, &regs) < 0)
        return -1;
      if (entering && (is_exec (&regs) || regs.orig_rax == SYS_exit_group || regs.orig_rax == SYS_exit))
        report (stats, tag, pid);
      if (entering)
        execing = is_exec (&regs);
      else if (execing && strncmp (image (pid, name, sizeof (name)), "entitle", 7) != 0)
        return 1;
      entering = !entering;
    }
}

int
main (int argc, char **argv)
{
  int status = 0;
  pid_t pid;

  if (argc < 4)
    {
      fputs ("usage: procstat STATS TAG PROGRAM [ARG...]\n", stderr);
      return 2;
    }
  pid = fork ();
  if (pid < 0)
    return 127;
  if (pid == 0)
    {
      ptrace (PTRACE_TRACEME, 0, 0, 0);
      execvp (argv[3], argv + 3);
      _exit (127);
    }
  /* Stopped at its own exec (the SIGTRAP of PTRACE_TRACEME).  */
  if (waitpid (pid, &status, 0) < 0 || !WIFSTOPPED (status))
    return 127;
  ptrace (PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL);
  if (trace (argv[1], argv[2], pid, &status) == 1)
    {
      ptrace (PTRACE_DETACH, pid, 0, 0);
      while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
        ;
    }
  if (WIFSIGNALED (status))
    return 128 + WTERMSIG (status);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 127;
}
