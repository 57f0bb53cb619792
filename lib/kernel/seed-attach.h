/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SEED_ATTACH_H
#define ENTITLE_SEED_ATTACH_H

#include <stdbool.h>
#include "error.h"
#include "seed-kernel.h"

/* The seed interfaces as attach points, for any program: entitle's own
   (bpf/checmate.c, full/seccomp.c and init/seccomp.c take these paths)
   and an admin's, whose custom entitlement names `checmate/HOOK` (a hook
   of the seed's enum checmate_hook, lib/catalogue/attach.c) or `seccomp`
   (DESIGN §4).  This file only names the points and sends each to its
   feature: Checmate's calls are checmate-prctl.h's, eBPF seccomp's
   seccomp-ebpf.h's.  To put a program there:

   1. parse the point (entitle_seed_point_parse) and load the program as
      its type (entitle_seed_point_type, the numbers configure was given):
      with entitle_seed_load (lib/kernel/seed-load.h), instructions and maps
      by name, every call through the kernel table; or with libbpf,
      bpf_program__set_type before the object's load.  A Checmate program
      takes the running kernel's version as kern_version
      (entitle_seed_kernel_version; seed 006);
   2. where the kernel has the interface (entitle_seed_point_here, one
      prctl; elsewhere leave the program out, as entitle's own layers do),
      entitle_seed_attach.

   Checmate's hooks are global: the program finds the container by the
   current task's cgroup id (bpf/progs/policy.h), and is installed once
   per host.  An eBPF seccomp filter binds the task that installs it, so
   a container's is installed by the in-container helper: entitle-full
   loads it and passes it to the runtime as one more --preserve-fds fd,
   named by the helper's --seccomp-fd (full/seccomp.c).  Every call to
   the patch sets goes through @k, so that the tests can pass the fake
   kernel (test/unit/fake-kernel.h).  */

enum entitle_seed_iface
{
  ENTITLE_SEED_CHECMATE,
  ENTITLE_SEED_SECCOMP,
};

struct entitle_seed_point_s
{
  enum entitle_seed_iface iface;
  const char *hook; /**< Checmate's hook ("socket_connect"), or NULL */
};

/**
 * Parse @point, `checmate/HOOK` or `seccomp`, into @out (@out->hook
 * points into @point).  An unknown interface or hook is EINVAL, named.
 */
int entitle_seed_point_parse (const char *point, struct entitle_seed_point_s *out, entitle_error_t *err);

/** The BPF program type of @p's programs.  */
int entitle_seed_point_type (const struct entitle_seed_point_s *p);

/** Does the kernel @k have @p's interface?  */
bool entitle_seed_point_here (const struct entitle_kernel_s *k, const struct entitle_seed_point_s *p);

/**
 * Install the loaded program @fd at @p: at a Checmate hook (with @lock,
 * its deny_reset too; 1 when it was installed already), or as an eBPF
 * seccomp filter on the calling task and its children (@lock unused).
 */
int entitle_seed_attach (const struct entitle_kernel_s *k, const struct entitle_seed_point_s *p, int fd, bool lock,
                         entitle_error_t *err);

#endif
