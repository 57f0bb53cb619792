/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "seccomp-denials.h"
#ifdef ENTITLE_HAVE_SECCOMP_FOLLOW
#include <bpf/libbpf.h>
#include "seccomp-denials.skel.h"
#endif
#include "probe.h"

#define WHAT "the fexit program on __secure_computing"
#ifdef ENTITLE_HAVE_BPF
#define LEFT_OUT "this build left out " WHAT " (it needs the build host's kernel BTF, and x86)"
#else
#define LEFT_OUT ENTITLE_NO_BPF
#endif

void
entitle_seccomp_denials_stop (struct entitle_seccomp_denials_s *s)
{
#ifdef ENTITLE_HAVE_SECCOMP_FOLLOW
  ring_buffer__free (s->ring);
  seccomp_denials_bpf__destroy (s->skel);
#endif
  s->ring = NULL;
  s->skel = NULL;
}

#ifdef ENTITLE_HAVE_SECCOMP_FOLLOW
static int
one_denial (void *ctx, void *data, size_t size)
{
  struct entitle_seccomp_denials_s *s = ctx;

  if (size >= sizeof (struct entitle_seccomp_denial))
    s->fn (data, s->data);
  return 0;
}

/* libbpf's own errors are the one line below: it prints nothing.  */
static int
load (struct entitle_seccomp_denials_s *s, entitle_error_t *err)
{
  int ret;

  libbpf_set_print (NULL);
  if ((s->skel = seccomp_denials_bpf__open ()) == NULL)
    return entitle_make_sys_error (err, "open " WHAT);
  if ((ret = seccomp_denials_bpf__load (s->skel)) < 0)
    {
      errno = -ret;
      return entitle_make_sys_error (err, "the kernel refused to load " WHAT);
    }
  if ((ret = seccomp_denials_bpf__attach (s->skel)) < 0)
    {
      errno = -ret;
      return entitle_make_sys_error (err, "the kernel refused to attach " WHAT);
    }
  return 0;
}

int
entitle_seccomp_denials_start (struct entitle_seccomp_denials_s *s, entitle_seccomp_denial_fn fn, void *data,
                               entitle_error_t *err)
{
  int ret;

  memset (s, 0, sizeof (*s));
  s->fn = fn;
  s->data = data;
  ret = load (s, err);
  if (ret == 0 && (s->ring = ring_buffer__new (bpf_map__fd (s->skel->maps.entitle_seccomp_denials), one_denial, s, NULL)) == NULL)
    ret = entitle_make_sys_error (err, "read the ring of " WHAT);
  if (ret < 0)
    entitle_seccomp_denials_stop (s);
  return ret;
}

int
entitle_seccomp_denials_fd (const struct entitle_seccomp_denials_s *s)
{
  return ring_buffer__epoll_fd (s->ring);
}

int
entitle_seccomp_denials_read (struct entitle_seccomp_denials_s *s, entitle_error_t *err)
{
  int n = ring_buffer__consume (s->ring);

  if (n < 0)
    {
      errno = -n;
      return entitle_make_sys_error (err, "read the ring of " WHAT);
    }
  return n;
}

uint64_t
entitle_seccomp_denials_lost (const struct entitle_seccomp_denials_s *s)
{
  return s->skel->bss->entitle_seccomp_lost;
}
#else
int
entitle_seccomp_denials_start (struct entitle_seccomp_denials_s *s, entitle_seccomp_denial_fn fn, void *data,
                               entitle_error_t *err)
{
  (void)fn;
  (void)data;
  memset (s, 0, sizeof (*s));
  return entitle_make_error (err, ENOSYS, "%s", LEFT_OUT);
}

int
entitle_seccomp_denials_fd (const struct entitle_seccomp_denials_s *s)
{
  (void)s;
  return -1;
}

int
entitle_seccomp_denials_read (struct entitle_seccomp_denials_s *s, entitle_error_t *err)
{
  (void)s;
  (void)err;
  return 0;
}

uint64_t
entitle_seccomp_denials_lost (const struct entitle_seccomp_denials_s *s)
{
  (void)s;
  return 0;
}
#endif

static void
ignore (const struct entitle_seccomp_denial *d, void *data)
{
  (void)d;
  (void)data;
}

bool
entitle_seccomp_denials_supported (char *why, size_t len)
{
  struct entitle_seccomp_denials_s s;
  entitle_error_t err = NULL;

  if (entitle_seccomp_denials_start (&s, ignore, NULL, &err) < 0)
    {
      snprintf (why, len, "%s", err->msg);
      entitle_error_release (&err);
      return false;
    }
  entitle_seccomp_denials_stop (&s);
  return true;
}
