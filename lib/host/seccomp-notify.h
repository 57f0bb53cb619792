/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SECCOMP_NOTIFY_H
#define ENTITLE_SECCOMP_NOTIFY_H

#include <stdbool.h>
#include <stddef.h>
#include "denial.h"
#include "error.h"

/* The seccomp source of syscall uses and denials.

   entitle learn: seccomp user notification (SCMP_ACT_NOTIFY with the
   runtime-spec's linux.seccomp.listenerPath), which runc 1.1.5 and crun
   1.8.1 support: the runtime sends the filter's listener fd, with the
   container's state, to a unix socket, and each notified syscall waits
   for the listener's answer.  entitle learn is that listener for its own
   run: it records each call and lets it continue
   (SECCOMP_USER_NOTIF_FLAG_CONTINUE), so that the call does exactly what
   the engine's profile allowed.  No other syscall pays anything.

   entitle why: not this (a process per container); `entitle why --follow`
   takes them from an fexit program instead (bpf/seccomp-denials.h,
   docs/denials.md).  */

#define ENTITLE_NOTIFY_MAX_FDS  64   /* filters: the container's init, then one per exec */
#define ENTITLE_NOTIFY_MAX_USES 4096 /* distinct uses kept */

struct entitle_notify_s
{
  int sock;
  int fds[ENTITLE_NOTIFY_MAX_FDS];
  size_t n_fds;
  struct entitle_syscall_use_s *uses; /**< each once, by name and the arguments the rows judge */
  size_t n_uses;
  bool connected; /**< a runtime sent a listener fd */
};

/** Listen on the unix socket @path (made, mode 0600).  */
int entitle_notify_listen (struct entitle_notify_s *l, const char *path, entitle_error_t *err);

/**
 * Answer notifications, recording each use, until @wait_fd is readable
 * (returns 1) or @timeout_ms pass (returns 0; -1: wait forever).
 */
int entitle_notify_serve (struct entitle_notify_s *l, int wait_fd, int timeout_ms, entitle_error_t *err);

void entitle_notify_close (struct entitle_notify_s *l);

#endif
