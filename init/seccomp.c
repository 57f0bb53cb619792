/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "init.h"
#include "seccomp-ebpf.h"

/* The eBPF seccomp layer (entitle-init(8), DESIGN §4): the filter entitle
   loaded at create or exec, which the runtime passed in at the fd
   --seccomp-fd names (loading a program takes privileges this process
   lacks), installed on this process, and so on the command and its
   children, never on the runtime.  The fd is closed before the command
   runs: the filter stays with the process.  A kernel that refuses it
   ends the helper, and the command never runs unfiltered.  */

static int
fd_of (const char *value)
{
  char *end;
  long fd;

  errno = 0;
  fd = strtol (value, &end, 10);
  if (errno || *end || end == value || fd < 3 || fd > INT_MAX)
    init_fail (INIT_EXIT_FAILED, "--seccomp-fd `%s`: not a file descriptor past 2", value);
  return (int)fd;
}

void
init_seccomp (const struct plan *p)
{
  for (size_t i = 0; i < p->n_rules; i++)
    {
      int fd;

      if (p->rules[i].kind != RULE_SECCOMP_FD)
        continue;
      fd = fd_of (p->rules[i].value);
      if (entitle_seed_seccomp_install (p->kernel, fd) < 0)
        init_fail (INIT_EXIT_FAILED, "eBPF seccomp: install the filter at fd %d: %s", fd, strerror (errno));
      close (fd);
    }
}
