/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "commands.h"
#include "seccomp-ebpf.h"
#include "seccomp-filter.h"
#include "utils.h"

/* entitle inspect PID (entitle(8)): a debug command, which no engine
   runs, that prints the seccomp filters a running process holds, as the
   kernel has them: each classic filter disassembled with the names of
   the syscalls it compares, and where the kernel has eBPF seccomp,
   entitle's eBPF filter with the decisions of its map.  What the runtime
   installed from config.json, not what config.json says.  */

static int
parse_pid (const char *text, pid_t *pid, entitle_error_t *err)
{
  char *end;
  long v;

  errno = 0;
  v = text ? strtol (text, &end, 10) : 0;
  if (text == NULL || errno || *end || end == text || v <= 0 || v > INT_MAX)
    return entitle_make_error (err, EINVAL, "inspect: usage: entitle inspect PID (a process id, such as a "
                                            "container's from the runtime's state)");
  *pid = (pid_t)v;
  return 0;
}

static int
print_ebpf (int index, int fd, entitle_error_t *err)
{
  struct entitle_seccomp_ext_s ext;
  char text[4096];
  int ret = entitle_seccomp_ext_describe (&entitle_kernel, fd, &ext, err);

  if (UNLIKELY (ret < 0))
    return ret;
  printf ("filter %d: eBPF, program %u (tag %s), %u instructions\n", index, ext.id, ext.tag, ext.n_insns);
  if (ext.entitle)
    {
      entitle_seccomp_ext_format (&ext.policy, text, sizeof (text));
      printf ("  entitle's filter: %s\n", text);
    }
  return 0;
}

int
shim_inspect (struct shim_s *s, entitle_error_t *err)
{
  int i = s->args.command_index + 1;
  struct entitle_seccomp_filter_s *f = NULL;
  size_t n = 0;
  pid_t pid = 0;
  int ret = parse_pid (i + 1 == s->argc ? s->argv[i] : NULL, &pid, err);

  if (UNLIKELY (ret < 0))
    return ret;
  ret = entitle_seccomp_filters_read (&entitle_kernel, pid, entitle_seed_seccomp_extended (&entitle_kernel), &f, &n,
                                      err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (n == 0)
    printf ("process %d: no seccomp filter\n", (int)pid);
  else
    printf ("process %d: %zu seccomp filter%s, the oldest first\n", (int)pid, n, n > 1 ? "s" : "");
  for (size_t k = 0; ret == 0 && k < n; k++)
    {
      if (f[k].insns == NULL)
        {
          ret = print_ebpf ((int)k, f[k].ebpf_fd, err);
          continue;
        }
      printf ("filter %zu: classic, %zu instructions\n", k, f[k].n);
      entitle_seccomp_disassemble (stdout, f[k].insns, f[k].n);
    }
  entitle_seccomp_filters_free (f, n);
  if (UNLIKELY (ret < 0))
    return ret;
  fflush (stdout);
  exit (EXIT_SUCCESS);
}
