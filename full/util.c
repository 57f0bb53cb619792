/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "commands.h"
#include "file.h"
#include "json.h"
#include "utils.h"

int
shim_load_json (const char *path, char **raw, size_t *len, json_t **out, entitle_error_t *err)
{
  int ret = entitle_file_read (path, ENTITLE_MAX_CONFIG_SIZE, raw, len, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = json_parse (*raw, *len, out, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "load `%s`", path);
  return 0;
}

static int
read_all (int fd, char **out, size_t *len)
{
  size_t cap = 4096, n = 0;
  char *buf = malloc (cap + 1);

  for (;;)
    {
      ssize_t r;
      if (buf == NULL)
        return -1;
      r = read (fd, buf + n, cap - n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      n += (size_t)r;
      if (n == cap)
        buf = realloc (buf, (cap *= 2) + 1);
    }
  buf[n] = '\0';
  *out = buf;
  *len = n;
  return 0;
}

int
shim_capture (const char *runtime, char *const *argv, char **out, size_t *len, entitle_error_t *err)
{
  int fds[2], status;
  pid_t pid;

  if (pipe2 (fds, O_CLOEXEC) < 0)
    return entitle_make_error (err, errno, "pipe: %s", strerror (errno));
  pid = fork ();
  if (pid < 0)
    return entitle_make_error (err, errno, "fork: %s", strerror (errno));
  if (pid == 0)
    {
      /* The runtime's complaints are entitle's to judge, not the user's.  */
      int null = open ("/dev/null", O_WRONLY | O_CLOEXEC);
      dup2 (fds[1], STDOUT_FILENO);
      if (null >= 0)
        dup2 (null, STDERR_FILENO);
      ((char **)argv)[0] = (char *)runtime;
      execv (runtime, argv);
      _exit (127);
    }
  close (fds[1]);
  if (read_all (fds[0], out, len) < 0)
    abort ();
  close (fds[0]);
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      return entitle_make_error (err, errno, "waitpid: %s", strerror (errno));
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}
