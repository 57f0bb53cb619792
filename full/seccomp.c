/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "commands.h"
#include "custom-progs.h"
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

/* Put @fd at @target, which the runtime inherits (dup2 clears
   close-on-exec).  */
static int
hand_over (int fd, int target, entitle_error_t *err)
{
  if (dup2 (fd, target) < 0)
    {
      close (fd);
      return entitle_make_sys_error (err, "fd %d", target);
    }
  close (fd);
  return 0;
}

/* The admin's programs at `seccomp`, after entitle's own filter at
   @target - 1 or @target.  */
static int
custom_filters (const struct entitle_set_s *final, int target, entitle_error_t *err)
{
  size_t i, n = entitle_layers_seccomp_custom (final, NULL, 0);
  cleanup_free struct entitle_seccomp_custom_s *c = xcalloc (n + 1, sizeof (*c));
  entitle_layers_seccomp_custom (final, c, n);
  for (i = 0; i < n; i++)
    {
      int fd = entitle_bpf_custom_seccomp_load (&entitle_kernel, c[i].entry, c[i].prog, err);
      if (UNLIKELY (fd < 0) || UNLIKELY (hand_over (fd, target + (int)i, err) < 0))
        return entitle_error_wrap (err, "the eBPF seccomp layer");
    }
  return 0;
}

int
shim_seccomp_layer (struct shim_s *s, const struct entitle_set_s *final, entitle_error_t *err)
{
  struct entitle_seccomp_policy policy;
  size_t n = entitle_layers_seccomp_filters (s->ctx, final);
  int target = entitle_helper_seccomp_fd (s->ctx), fd, ret;
  int given = s->args.preserve_fds ? atoi (s->args.preserve_fds) : 0;
  char *flag;

  if (n == 0)
    return 0;
  if (entitle_layers_seccomp (s->ctx, final))
    {
      entitle_layers_seccomp_policy (final, &policy);
      fd = entitle_seccomp_ebpf_load (&entitle_kernel, &policy, err);
      if (UNLIKELY (fd < 0) || UNLIKELY (hand_over (fd, target++, err) < 0))
        return entitle_error_wrap (err, "the eBPF seccomp layer");
    }
  ret = custom_filters (final, target, err);
  if (UNLIKELY (ret < 0))
    return ret;
  xasprintf (&flag, "--preserve-fds=%d", given + (int)n);
  s->argv = entitle_args_set_preserve_fds (s->argc, s->argv, &s->args, flag);
  s->argc++;
  return 0;
}
