/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "commands.h"
#include "landlock.h"
#include "layers.h"
#include "seccomp-ebpf.h"
#include "utils.h"

/* The eBPF seccomp layer at create, run and exec (DESIGN §4): where the
   set takes it, the filter is loaded here, since loading a program takes
   privileges the container's process lacks, and the runtime hands it to
   the container as one more preserved fd, the one the helper's
   --seccomp-fd names (lib/compile/landlock.c).  The helper installs it on
   the container's process, never on the runtime; the filter goes with the
   last process that holds it.  */

/* The fds the runtime passes the container before ours: systemd's socket
   activation (LISTEN_FDS, when meant for this process), then
   --preserve-fds.  */
int
shim_preserved_fds (const struct entitle_args_s *a)
{
  const char *pid = getenv ("LISTEN_PID"), *fds = getenv ("LISTEN_FDS");
  int n = a->preserve_fds ? atoi (a->preserve_fds) : 0;

  if (pid && fds && atol (pid) == (long)getpid ())
    n += atoi (fds);
  return n < 0 ? 0 : n;
}

int
shim_seccomp_layer (struct shim_s *s, const struct entitle_set_s *final, entitle_error_t *err)
{
  struct entitle_seccomp_policy policy;
  int target = entitle_helper_seccomp_fd (s->ctx), fd;
  int given = s->args.preserve_fds ? atoi (s->args.preserve_fds) : 0;
  char *flag;

  if (!entitle_layers_seccomp (s->ctx, final))
    return 0;
  entitle_layers_seccomp_policy (final, &policy);
  fd = entitle_seccomp_ebpf_load (&entitle_kernel, &policy, err);
  if (UNLIKELY (fd < 0))
    return entitle_error_wrap (err, "the eBPF seccomp layer");
  /* dup2 clears close-on-exec: the runtime inherits it.  */
  if (dup2 (fd, target) < 0)
    {
      close (fd);
      return entitle_make_sys_error (err, "the eBPF seccomp layer: fd %d", target);
    }
  close (fd);
  if (asprintf (&flag, "--preserve-fds=%d", given + 1) < 0)
    abort ();
  s->argv = entitle_args_set_preserve_fds (s->argc, s->argv, &s->args, flag);
  s->argc++;
  return 0;
}
