/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <poll.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <linux/seccomp.h>
#include "seccomp-notify.h"
#include "utils.h"

int
entitle_notify_listen (struct entitle_notify_s *l, const char *path, entitle_error_t *err)
{
  struct sockaddr_un a = { .sun_family = AF_UNIX };

  memset (l, 0, sizeof (*l));
  l->sock = -1;
  if (strlen (path) >= sizeof (a.sun_path))
    return entitle_make_error (err, ENAMETOOLONG, "the listener's socket path `%s` is too long", path);
  strcpy (a.sun_path, path);
  l->sock = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (l->sock < 0 || bind (l->sock, (struct sockaddr *)&a, sizeof (a)) < 0 || chmod (path, 0600) < 0
      || listen (l->sock, 8) < 0)
    return entitle_make_sys_error (err, "listen on `%s`", path);
  return 0;
}

/* A runtime connects, sends the container's state and the listener fd
   (SCM_RIGHTS, the first fd of the message), and hangs up.  */
static void
take_fd (struct entitle_notify_s *l)
{
  char buf[4096], control[CMSG_SPACE (4 * sizeof (int))];
  struct iovec io = { buf, sizeof (buf) };
  struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof (control) };
  cleanup_close int c = accept4 (l->sock, NULL, NULL, SOCK_CLOEXEC);
  struct cmsghdr *h;

  if (c < 0 || recvmsg (c, &m, MSG_CMSG_CLOEXEC) < 0)
    return;
  for (h = CMSG_FIRSTHDR (&m); h; h = CMSG_NXTHDR (&m, h))
    if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS)
      {
        size_t k, n = (h->cmsg_len - CMSG_LEN (0)) / sizeof (int);
        int fds[4];

        memcpy (fds, CMSG_DATA (h), (n > 4 ? 4 : n) * sizeof (int));
        for (k = 0; k < n && k < 4; k++)
          {
            if (k > 0 || l->n_fds == ENTITLE_NOTIFY_MAX_FDS)
              {
                close (fds[k]);
                continue;
              }
            l->fds[l->n_fds++] = fds[k];
            l->connected = true;
          }
      }
}

static void
record (struct entitle_notify_s *l, const struct seccomp_notif *req)
{
  struct entitle_syscall_use_s u = { 0 };
  char *name = seccomp_syscall_resolve_num_arch (req->data.arch, req->data.nr);
  size_t i;

  if (name == NULL)
    return;
  u.name = name;
  memcpy (u.args, req->data.args, sizeof (u.args));
  entitle_syscall_normalize (&u);
  for (i = 0; i < l->n_uses; i++)
    if (strcmp (l->uses[i].name, u.name) == 0 && memcmp (l->uses[i].args, u.args, sizeof (u.args)) == 0)
      break;
  if (i < l->n_uses || l->n_uses == ENTITLE_NOTIFY_MAX_USES)
    {
      free (name);
      return;
    }
  l->uses = xrealloc (l->uses, (l->n_uses + 1) * sizeof (*l->uses));
  l->uses[l->n_uses++] = u;
}

/* One notification: recorded, then let through as the profile allowed.
   A call whose task died meanwhile fails its answer (ENOENT): nothing to do.  */
static void
answer (struct entitle_notify_s *l, int fd)
{
  struct seccomp_notif req;
  struct seccomp_notif_resp resp;

  memset (&req, 0, sizeof (req));
  if (ioctl (fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
    return;
  record (l, &req);
  memset (&resp, 0, sizeof (resp));
  resp.id = req.id;
  resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
  ioctl (fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

static void
drop_fd (struct entitle_notify_s *l, size_t i)
{
  close (l->fds[i]);
  l->fds[i] = l->fds[--l->n_fds];
}

static long
now_ms (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int
entitle_notify_serve (struct entitle_notify_s *l, int wait_fd, int timeout_ms, entitle_error_t *err)
{
  long end = timeout_ms < 0 ? -1 : now_ms () + timeout_ms;

  for (;;)
    {
      struct pollfd p[ENTITLE_NOTIFY_MAX_FDS + 2];
      size_t i, n = 0;
      int left = end < 0 ? -1 : (int)(end - now_ms ()), r;

      if (end >= 0 && left <= 0)
        return 0;
      p[n++] = (struct pollfd){ .fd = wait_fd, .events = POLLIN };
      p[n++] = (struct pollfd){ .fd = l->sock, .events = POLLIN };
      for (i = 0; i < l->n_fds; i++)
        p[n++] = (struct pollfd){ .fd = l->fds[i], .events = POLLIN };
      r = poll (p, n, left);
      if (r < 0 && errno != EINTR)
        return entitle_make_sys_error (err, "poll the seccomp listener");
      if (r <= 0)
        continue;
      if (p[1].revents & POLLIN)
        take_fd (l);
      /* Backwards: drop_fd moves the last fd into the slot.  */
      for (i = n; i-- > 2;)
        if (p[i].revents & POLLIN)
          answer (l, p[i].fd);
        else if (p[i].revents & (POLLHUP | POLLERR | POLLNVAL))
          drop_fd (l, i - 2);
      if (p[0].revents)
        return 1;
    }
}

void
entitle_notify_close (struct entitle_notify_s *l)
{
  size_t i;

  while (l->n_fds)
    drop_fd (l, 0);
  if (l->sock >= 0)
    close (l->sock);
  l->sock = -1;
  for (i = 0; i < l->n_uses; i++)
    free ((char *)l->uses[i].name);
  free (l->uses);
  l->uses = NULL;
  l->n_uses = 0;
}
