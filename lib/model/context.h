/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CONTEXT_H
#define ENTITLE_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "admin-config.h"
#include "log.h"

/* What one entitle call knows: where to log, the admin's config, and
   host facts probed at most once (lib/ keeps no other state).  */
struct entitle_ctx_s
{
  const struct entitle_log_s *log;
  const struct entitle_config_s *config;
  const char *root;      /**< the runtime's --root, or NULL */
  bool cgroup_unmanaged; /**< crun --cgroup-manager=disabled: the hook may make a cgroup */
  int preserve_fds;      /**< the runtime's --preserve-fds: the fds past 2 the container gets */
  bool attach_after;     /**< create attaches the cgroup programs itself once the runtime's create
                              returned (full/attach-after.c): no createRuntime hook */

  /* Memoized probes; -1 until asked.  */
  int selinux_enabled;
  int apparmor_enabled;
  int landlock_abi; /**< the kernel's Landlock ABI, 0: none */
  int seccomp_ebpf; /**< the kernel has eBPF seccomp filters (0, never asked, in a build without BPF) */
  int bounding_read;
  uint64_t bounding;    /**< entitle's own bounding set */
  char **syscall_names; /**< every syscall of the host's architectures */
};

static inline void
entitle_ctx_init (struct entitle_ctx_s *ctx, const struct entitle_log_s *log,
                  const struct entitle_config_s *config)
{
  ctx->log = log;
  ctx->config = config;
  ctx->root = NULL;
  ctx->cgroup_unmanaged = false;
  ctx->preserve_fds = 0;
  ctx->attach_after = false;
  ctx->selinux_enabled = -1;
  ctx->apparmor_enabled = -1;
  ctx->landlock_abi = -1;
#ifdef ENTITLE_HAVE_BPF
  ctx->seccomp_ebpf = -1;
#else
  /* configure --disable-bpf: no eBPF seccomp program to install.  */
  ctx->seccomp_ebpf = 0;
#endif
  ctx->bounding_read = 0;
  ctx->bounding = 0;
  ctx->syscall_names = NULL;
}

static inline void
entitle_ctx_release (struct entitle_ctx_s *ctx)
{
  char **p;
  for (p = ctx->syscall_names; p && *p; p++)
    free (*p);
  free (ctx->syscall_names);
  ctx->syscall_names = NULL;
}

#endif
