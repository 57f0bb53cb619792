/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "capture.h"
#include "utils.h"

static void
read_all (int fd, char **out, size_t *len)
{
  size_t cap = 4096, n = 0;
  char *buf = xmalloc (cap + 1);

  for (;;)
    {
      ssize_t r = read (fd, buf + n, cap - n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      n += (size_t)r;
      if (n == cap)
        buf = xrealloc (buf, (cap *= 2) + 1);
    }
  buf[n] = '\0';
  *out = buf;
  *len = n;
}

int
entitle_capture (const char *path, char *const *argv, int fd, char **out, size_t *len, entitle_error_t *err)
{
  int fds[2], status;
  pid_t pid;

  if (pipe2 (fds, O_CLOEXEC) < 0)
    return entitle_make_sys_error (err, "pipe");
  pid = fork ();
  if (pid < 0)
    return entitle_make_sys_error (err, "fork");
  if (pid == 0)
    {
      int null = open ("/dev/null", O_WRONLY | O_CLOEXEC);
      dup2 (fds[1], fd);
      if (null >= 0)
        dup2 (null, fd == STDOUT_FILENO ? STDERR_FILENO : STDOUT_FILENO);
      ((char **)argv)[0] = (char *)path;
      execv (path, argv);
      _exit (127);
    }
  close (fds[1]);
  read_all (fds[0], out, len);
  close (fds[0]);
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      return entitle_make_sys_error (err, "waitpid");
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}
