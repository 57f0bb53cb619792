/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include "store-read.h"
#include "denial.h"
#include "seccomp-denials.h"
#include "utils.h"
#include "why.h"

/* entitle why --follow [ID] [--json]: the denials as they happen, until
   SIGINT or SIGTERM.  Two sources: the store's new records (looked at
   every STORE_TICK_MS), and the syscalls seccomp refuses, from the fexit
   program of bpf/seccomp-denials.h, attached for as long as this runs:
   the only time the host pays for it (docs/denials.md).  A seccomp denial
   is shown when its cgroup, or the nearest ancestor that has one, has a
   record of entitle-hook (the containers entitle attached programs to),
   of container ID only with ID, and read against that container's set
   with the rows' seccomp parts (lib/read/denial.h).  */

#define STORE_TICK_MS 500

struct follow_s
{
  struct shim_s *s;
  const struct why_opts *o;
  uint64_t store_last; /* the store's last record looked at */
  int ret;             /* the first error of the seccomp handler, with err */
  entitle_error_t err;
};

/* A seccomp denial in entitle's words.  */
struct seccomp_why_s
{
  char when[32], what[192], got[32], how[256];
  char *denied_by;            /* malloc'd; NULL: no row of the set refuses it (the engine's profile did) */
  char *allowed_by;           /* malloc'd; NULL: none */
  enum entitle_source source; /* where denied_by came from, NONE: not recorded */
};

/* Is the record @r of container @f->o->id (of --root, when given)?  */
static bool
followed (const struct follow_s *f, const struct entitle_cgroup_record_s *r)
{
  const char *root = f->s->ctx->root;

  return f->o->id == NULL || (strcmp (r->id, f->o->id) == 0 && (root == NULL || strcmp (r->root, root) == 0));
}

/* The record of @d's cgroup or of its nearest ancestor that has one.  */
static bool
denial_record (const struct follow_s *f, const struct entitle_seccomp_denial *d, struct entitle_cgroup_record_s *r)
{
  const char *state = f->s->ctx->config->state_dir;
  size_t i;

  if (entitle_cgroup_record_read (state, d->cgroup, r))
    return true;
  for (i = ENTITLE_CGROUP_LEVELS; i-- > 0;)
    if (d->ancestors[i] != 0 && d->ancestors[i] != d->cgroup && entitle_cgroup_record_read (state, d->ancestors[i], r))
      return true;
  return false;
}

/* The syscall's name in its ABI (libseccomp's), or "syscall NR".  */
static char *
syscall_name (const struct entitle_seccomp_denial *d)
{
  uint32_t arch = seccomp_arch_native ();
  char *name;

  if (d->flags & ENTITLE_SECCOMP_COMPAT)
    arch = SCMP_ARCH_X86;
  else if (arch == SCMP_ARCH_X86_64 && (d->nr & 0x40000000u))
    arch = SCMP_ARCH_X32;
  name = seccomp_syscall_resolve_num_arch (arch, (int)d->nr);
  if (name == NULL)
    xasprintf (&name, "syscall %u", d->nr);
  return name;
}

/* What the task got: "EPERM", or "SIGSYS" (a trap: ax holds the number).  */
static void
outcome (const struct entitle_seccomp_denial *d, char *buf, size_t len)
{
  const char *name;

  if (d->ret >= 0 || d->ret < -4095)
    snprintf (buf, len, "SIGSYS");
  else if ((name = strerrorname_np ((int)-d->ret)) != NULL)
    snprintf (buf, len, "%s", name);
  else
    snprintf (buf, len, "errno %" PRId64, -(int64_t)d->ret);
}

static void
explain (const struct follow_s *f, const struct entitle_seccomp_denial *d, const struct entitle_cgroup_record_s *r,
         const char *name, struct seccomp_why_s *w)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  struct entitle_syscall_use_s use = { .name = name };
  const struct entitle_request_s *denier;
  time_t t = why_wall_time (d->time);

  memset (w, 0, sizeof (*w));
  memcpy (use.args, d->args, sizeof (use.args));
  strftime (w->when, sizeof (w->when), "%Y-%m-%d %H:%M:%S", localtime (&t));
  entitle_syscall_describe (&use, w->what, sizeof (w->what));
  outcome (d, w->got, sizeof (w->got));
  why_record_set (&f->s->ctx->config->catalogue, r, &set);
  if ((denier = entitle_syscall_denier (&set, &use, w->how, sizeof (w->how))) == NULL)
    return;
  w->denied_by = entitle_denier_name (&set, denier);
  w->source = why_denier_source (r, denier);
  w->allowed_by = entitle_syscall_allower (denier->entry, &use);
}

static void
print_text (const struct entitle_seccomp_denial *d, const struct entitle_cgroup_record_s *r,
            const struct seccomp_why_s *w)
{
  const char *detail = strncmp (w->how, "seccomp: ", 9) == 0 ? w->how + 9 : NULL;

  printf ("%s  %s: %s (pid %u, %.16s): ", w->when, r->id, w->what, d->pid, d->comm);
  if (w->denied_by == NULL)
    printf ("denied by its seccomp profile, not by an entitlement (%s)\n", w->got);
  else
    printf ("denied by %s%s%s (seccomp, %s%s%s); allowed by %s\n", w->denied_by,
            entitle_source_name (w->source) ? ", from " : "",
            entitle_source_name (w->source) ? entitle_source_name (w->source) : "", w->got, detail ? ": " : "",
            detail ? detail : "", w->allowed_by ? w->allowed_by : "none: no entitlement allows this");
  fflush (stdout);
}

static json_t *
to_json (const struct entitle_seccomp_denial *d, const struct entitle_cgroup_record_s *r, const char *name,
         const struct seccomp_why_s *w)
{
  json_t *o = json_new (JSON_OBJECT), *args = json_new (JSON_ARRAY);
  time_t t = why_wall_time (d->time);
  char iso[32], comm[17];

  strftime (iso, sizeof (iso), "%Y-%m-%dT%H:%M:%SZ", gmtime (&t));
  snprintf (comm, sizeof (comm), "%.16s", d->comm);
  json_set (o, "time", json_new_string (iso));
  json_set (o, "container", json_new_string (r->id));
  json_set (o, "root", json_new_string (r->root));
  json_set (o, "cgroup", json_new_uint (d->cgroup));
  json_set (o, "program", json_new_string ("seccomp"));
  json_set (o, "denied", json_new_string (w->what));
  json_set (o, "syscall", json_new_string (name));
  for (size_t i = 0; i < 6; i++)
    json_push (args, json_new_uint (d->args[i]));
  json_set (o, "args", args);
  json_set (o, "result", json_new_string (w->got));
  json_set (o, "pid", json_new_uint (d->pid));
  json_set (o, "command", json_new_string (comm));
  json_set (o, "denied_by", w->denied_by ? json_new_string (w->denied_by) : json_new (JSON_NULL));
  json_set (o, "denied_by_source", entitle_source_key (w->source) ? json_new_string (entitle_source_key (w->source)) : json_new (JSON_NULL));
  json_set (o, "allowed_by", w->allowed_by ? json_new_string (w->allowed_by) : json_new (JSON_NULL));
  return o;
}

/* The ring's handler: one denial, shown if it is a followed container's.  */
static void
on_seccomp (const struct entitle_seccomp_denial *d, void *data)
{
  struct follow_s *f = data;
  struct entitle_cgroup_record_s r = { 0 };
  cleanup_free char *name = NULL;
  struct seccomp_why_s w;

  if (f->ret < 0 || !denial_record (f, d, &r))
    return;
  if (followed (f, &r))
    {
      name = syscall_name (d);
      explain (f, d, &r, name, &w);
      if (f->o->json)
        {
          cleanup_json json_t *j = to_json (d, &r, name, &w);
          f->ret = shim_print_json_line (j, &f->err);
        }
      else
        print_text (d, &r, &w);
      free (w.denied_by);
      free (w.allowed_by);
    }
  entitle_cgroup_record_free (&r);
}

/* The store's newest record; 0 where there is no store yet (no program of
   this build loaded on this boot).  */
static int
store_last (uint64_t *last, entitle_error_t *err)
{
  int ret = entitle_store_last (last, err);

  if (ret < 0 && (*err)->status == ENOENT)
    {
      entitle_error_release (err);
      return 0;
    }
  return ret;
}

/* The records of the store written since the last look, of the containers
   followed.  */
static int
store_tick (struct follow_s *f, entitle_error_t *err)
{
  uint64_t last, seq;
  int ret = store_last (&last, err);

  if (UNLIKELY (ret < 0))
    return ret;
  /* Another build's pins replaced the store: its records are all new.  */
  if (last < f->store_last)
    f->store_last = 0;
  seq = f->store_last + 1;
  if (last > ENTITLE_EVENTS && seq + ENTITLE_EVENTS <= last)
    seq = last - ENTITLE_EVENTS + 1;
  for (; seq <= last; seq++)
    {
      struct entitle_cgroup_record_s r = { 0 };
      struct entitle_event ev;
      bool show;

      ret = entitle_store_get (seq, &ev, err);
      if (UNLIKELY (ret < 0))
        return ret;
      if (ret == 0 && ev.seq == 0)
        break; /* being written: at the next look */
      f->store_last = seq;
      if (ret == 0 || ev.rule == 0)
        continue;
      show = f->o->id == NULL
             || (entitle_cgroup_record_read (f->s->ctx->config->state_dir, ev.cgroup, &r) && followed (f, &r));
      entitle_cgroup_record_free (&r);
      if (show && (ret = why_show_event (f->s, f->o, &ev, NULL, err)) < 0)
        return ret;
      fflush (stdout);
    }
  return 0;
}

/* Until SIGINT or SIGTERM (@sfd), then what is left.  */
static int
loop (struct follow_s *f, struct entitle_seccomp_denials_s *sd, int sfd, entitle_error_t *err)
{
  struct pollfd p[2] = { { .fd = sfd, .events = POLLIN }, { .fd = sd ? entitle_seccomp_denials_fd (sd) : -1, .events = POLLIN } };
  int ret;

  for (;;)
    {
      if (poll (p, 2, STORE_TICK_MS) < 0 && errno != EINTR)
        return entitle_make_sys_error (err, "why: wait for denials");
      if (sd && (ret = entitle_seccomp_denials_read (sd, err)) < 0)
        return ret;
      if (f->ret < 0)
        {
          *err = f->err;
          return f->ret;
        }
      if ((ret = store_tick (f, err)) < 0)
        return ret;
      if (p[0].revents & POLLIN)
        return 0;
    }
}

/* SIGINT and SIGTERM, as a descriptor: the loop ends when one comes.  */
static int
stop_signals (entitle_error_t *err)
{
  sigset_t mask;
  int fd;

  sigemptyset (&mask);
  sigaddset (&mask, SIGINT);
  sigaddset (&mask, SIGTERM);
  if (sigprocmask (SIG_BLOCK, &mask, NULL) < 0 || (fd = signalfd (-1, &mask, SFD_CLOEXEC)) < 0)
    return entitle_make_sys_error (err, "why: take SIGINT and SIGTERM");
  return fd;
}

/* What is followed, on stderr (stdout is the denials'), once it is.  */
static void
announce (bool seccomp, const char *refused)
{
  if (seccomp)
    fprintf (stderr, "note: following denials until interrupted: the records of entitle's cgroup programs, and "
                     "seccomp's through an fexit program on __secure_computing, attached until then\n");
  else
    fprintf (stderr, "note: following the records of entitle's cgroup programs until interrupted; seccomp denials "
                     "are not observable on this host: %s (docs/denials.md)\n",
             refused);
}

int
why_follow (struct shim_s *s, const struct why_opts *o, entitle_error_t *err)
{
  struct follow_s f = { .s = s, .o = o };
  struct entitle_seccomp_denials_s sd = { 0 };
  cleanup_close int sfd = stop_signals (err);
  entitle_error_t refused = NULL;
  bool seccomp;
  int ret;

  if (UNLIKELY (sfd < 0))
    return sfd;
  /* What the store held before is `why`'s, not --follow's.  */
  ret = store_last (&f.store_last, err);
  if (UNLIKELY (ret < 0))
    return ret;
  seccomp = entitle_seccomp_denials_start (&sd, on_seccomp, &f, &refused) == 0;
  announce (seccomp, seccomp ? NULL : refused->msg);
  entitle_error_release (&refused);
  ret = loop (&f, seccomp ? &sd : NULL, sfd, err);
  if (seccomp && entitle_seccomp_denials_lost (&sd) > 0)
    fprintf (stderr, "note: %" PRIu64 " seccomp denials were not shown: the ring of the fexit program was full\n",
             entitle_seccomp_denials_lost (&sd));
  entitle_seccomp_denials_stop (&sd);
  return ret;
}
