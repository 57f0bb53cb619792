/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "attach.h"
#include "store-read.h"
#include "cgroup-record.h"
#include "commands.h"
#include "denial.h"
#include "seccomp-denials.h"
#include "utils.h"
#include "why.h"

/* entitle why [ID] [--json] [--since DURATION | --follow]: the recent
   denials of entitle's cgroup programs on this host (or of container ID,
   also after it was deleted), each with the entitlement whose rule denied
   it and the one that would allow it.  Read from the store the programs
   write (bpf/progs/policy.h) and the records entitle-hook keeps of which
   container each cgroup was (lib/host/cgroup-record.h).  --follow prints
   them as they happen instead, seccomp's too (full/why-follow.c).  */

/* "90", "90s", "10m", "1h", "2d".  */
static bool
parse_duration (const char *s, double *out)
{
  char *end;
  double v = strtod (s, &end);

  if (end == s || v < 0)
    return false;
  switch (*end)
    {
    case '\0':
    case 's':
      break;
    case 'm':
      v *= 60;
      break;
    case 'h':
      v *= 3600;
      break;
    case 'd':
      v *= 86400;
      break;
    default:
      return false;
    }
  *out = v;
  return *end == '\0' || end[1] == '\0';
}

static int
take_opt (struct shim_s *s, void *data, enum shim_key key, const char *value, entitle_error_t *err)
{
  struct why_opts *o = data;

  if (key == KEY_JSON)
    o->json = true;
  else if (key == KEY_FOLLOW)
    o->follow = true;
  else if (key == KEY_SINCE && !parse_duration (value, &o->since))
    return entitle_make_error (err, EINVAL, "why: `--since` needs a duration (90s, 10m, 1h, 2d)");
  else if (key == KEY_ARG && o->id == NULL)
    o->id = value;
  else if (key == KEY_ARG)
    shim_usage_error (s, "why: unexpected argument `%s`", value);
  return 0;
}

static int
parse_opts (struct shim_s *s, struct why_opts *o, entitle_error_t *err)
{
  int ret = shim_parse (s, o, take_opt, err);

  if (UNLIKELY (ret < 0))
    return ret;
  if (o->follow && o->since > 0)
    return entitle_make_error (err, EINVAL, "why: `--follow` shows the denials from now on, `--since` those before");
  return 0;
}

time_t
why_wall_time (uint64_t boot_ns)
{
  struct timespec boot, real;

  clock_gettime (CLOCK_BOOTTIME, &boot);
  clock_gettime (CLOCK_REALTIME, &real);
  return real.tv_sec - (time_t)(((uint64_t)boot.tv_sec * 1000000000ull + (uint64_t)boot.tv_nsec - boot_ns) / 1000000000ull);
}

/* What one record says, in entitle's words.  */
struct denial_s
{
  char when[32], what[192], program[32], container[256];
  char *denied_by;            /* malloc'd */
  char *allowed_by;           /* malloc'd, NULL: none */
  enum entitle_source source; /* where denied_by came from, NONE: not recorded */
};

static void
denial_free (struct denial_s *d)
{
  free (d->denied_by);
  free (d->allowed_by);
}

void
why_record_set (const struct entitle_catalogue_s *cat, const struct entitle_cgroup_record_s *r, struct entitle_set_s *set)
{
  entitle_error_t err = NULL;

  if (entitle_parse_list (cat, r->entitlements, "the cgroup's record", set, &err) < 0)
    {
      entitle_set_free (set);
      entitle_error_release (&err);
    }
}

enum entitle_source
why_denier_source (const struct entitle_cgroup_record_s *r, const struct entitle_request_s *denier)
{
  cleanup_free char *name = entitle_request_format (denier);
  return entitle_cgroup_record_source (r, name);
}

static void
explain_one (const struct entitle_catalogue_s *cat, const struct entitle_event *ev,
             const struct entitle_cgroup_record_s *r, bool have_record,
             struct denial_s *d)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  const struct entitle_request_s *denier;
  const struct entitle_entry_s *row = NULL;
  time_t t = why_wall_time (ev->time);
  int point = entitle_event_point (ev);
  size_t n, i;

  memset (d, 0, sizeof (*d));
  strftime (d->when, sizeof (d->when), "%Y-%m-%d %H:%M:%S", localtime (&t));
  entitle_event_describe (ev, d->what, sizeof (d->what));
  snprintf (d->program, sizeof (d->program), "%s", point >= 0 ? entitle_attach_points[point].name : "?");
  if (have_record)
    snprintf (d->container, sizeof (d->container), "%s", r->id);
  else
    snprintf (d->container, sizeof (d->container), "cgroup %" PRIu64, (uint64_t)ev->cgroup);
  if (have_record)
    why_record_set (cat, r, &set);
  if ((denier = entitle_event_denier (&set, ev)) != NULL)
    {
      d->denied_by = entitle_denier_name (&set, denier);
      d->source = why_denier_source (r, denier);
      row = denier->entry;
    }
  else
    {
      /* No record to say which: every row that carries the rule.  */
      const struct entitle_entry_s *rows = entitle_catalogue_rows (NULL, &n);
      d->denied_by = entitle_rule_rows (ev->rule);
      for (i = 0; i < n && row == NULL; i++)
        if (rows[i].policy & ev->rule)
          row = &rows[i];
    }
  d->allowed_by = row ? entitle_event_allower (row, ev) : NULL;
}

static void
print_text (const struct entitle_event *ev, const struct denial_s *d)
{
  const char *from = entitle_source_name (d->source);

  printf ("%s  %s: %s: denied by %s%s%s (cgroup BPF %s); ", d->when, d->container, d->what, d->denied_by,
          from ? ", from " : "", from ? from : "", d->program);
  if (d->allowed_by)
    printf ("allowed by %s", d->allowed_by);
  else
    printf ("allowed by none: no entitlement allows this");
  if (ev->dropped)
    printf (" (%u more from this container were not recorded before it)", ev->dropped);
  putchar ('\n');
}

static json_t *
to_json (const struct entitle_event *ev, const struct entitle_cgroup_record_s *r, bool have_record,
         const struct denial_s *d)
{
  json_t *o = json_new (JSON_OBJECT);
  time_t t = why_wall_time (ev->time);
  char iso[32];

  strftime (iso, sizeof (iso), "%Y-%m-%dT%H:%M:%SZ", gmtime (&t));
  json_set (o, "time", json_new_string (iso));
  json_set (o, "container", have_record ? json_new_string (r->id) : json_new (JSON_NULL));
  json_set (o, "root", have_record ? json_new_string (r->root) : json_new (JSON_NULL));
  json_set (o, "cgroup", json_new_uint (ev->cgroup));
  json_set (o, "program", json_new_string (d->program));
  json_set (o, "denied", json_new_string (d->what));
  if (ev->port)
    json_set (o, "port", json_new_uint (ev->port));
  if (ev->family == AF_INET || ev->family == AF_INET6)
    {
      char a[INET6_ADDRSTRLEN];
      if (ev->hook != BPF_CGROUP_INET_SOCK_CREATE && ev->hook != BPF_CGROUP_INET4_BIND
          && ev->hook != BPF_CGROUP_INET6_BIND && inet_ntop (ev->family, ev->addr, a, sizeof (a)))
        json_set (o, "address", json_new_string (a));
    }
  json_set (o, "denied_by", json_new_string (d->denied_by));
  json_set (o, "denied_by_source", entitle_source_key (d->source) ? json_new_string (entitle_source_key (d->source)) : json_new (JSON_NULL));
  json_set (o, "allowed_by", d->allowed_by ? json_new_string (d->allowed_by) : json_new (JSON_NULL));
  json_set (o, "not_recorded_before", json_new_uint (ev->dropped));
  return o;
}

/* Is @cgroup one of container @o->id's?  */
static bool
wanted (const struct entitle_cgroup_record_s *mine, size_t n_mine, uint64_t cgroup)
{
  size_t i;
  for (i = 0; i < n_mine; i++)
    if (mine[i].cgroup_id == cgroup)
      return true;
  return false;
}

int
why_show_event (struct shim_s *s, const struct why_opts *o, const struct entitle_event *ev, json_t *arr,
                entitle_error_t *err)
{
  struct entitle_cgroup_record_s r = { 0 };
  bool have = entitle_cgroup_record_read (s->ctx->config->state_dir, ev->cgroup, &r);
  struct denial_s d;
  json_t *j = NULL;
  int ret = 0;

  explain_one (&s->ctx->config->catalogue, ev, &r, have, &d);
  if (o->json)
    j = to_json (ev, &r, have, &d);
  if (arr)
    json_push (arr, j);
  else if (j)
    {
      ret = shim_print_json_line (j, err);
      json_free (j);
    }
  else
    print_text (ev, &d);
  denial_free (&d);
  entitle_cgroup_record_free (&r);
  return ret;
}

/* Why seccomp denials are not in the store, one line into @why: where this
   kernel runs the follower's program (loaded and attached once, then taken
   off), that --follow shows them; otherwise the kernel's reason.  */
static void
seccomp_note (char *why, size_t len)
{
  static const char what[] = "seccomp denials (a socket family under network.none or network.user, a syscall "
                             "under security.*)";
  char reason[256];

  if (entitle_seccomp_denials_supported (reason, sizeof (reason)))
    snprintf (why, len, "%s are not kept: `entitle why --follow` shows them as they happen (docs/denials.md)", what);
  else
    snprintf (why, len, "%s are not observable on this host: %s (docs/denials.md)", what, reason);
}

static int
list (struct shim_s *s, const struct why_opts *o, const struct entitle_event *ev, size_t n,
      const struct entitle_cgroup_record_s *mine, size_t n_mine, entitle_error_t *err)
{
  cleanup_json json_t *doc = json_new (JSON_OBJECT);
  json_t *arr = json_get_or_add (doc, "denials", JSON_ARRAY), *notes;
  time_t now = time (NULL);
  char reason[512];
  size_t i;

  for (i = 0; i < n; i++)
    if (ev[i].rule != 0 && (o->since <= 0 || difftime (now, why_wall_time (ev[i].time)) <= o->since)
        && (o->id == NULL || wanted (mine, n_mine, ev[i].cgroup)))
      why_show_event (s, o, &ev[i], o->json ? arr : NULL, err);
  seccomp_note (reason, sizeof (reason));
  if (!o->json)
    {
      printf ("note: %s\n", reason);
      return 0;
    }
  notes = json_get_or_add (doc, "not_observed", JSON_ARRAY);
  json_push (notes, json_new_string (reason));
  return shim_print_json (doc, err);
}

int
shim_why (struct shim_s *s, entitle_error_t *err)
{
  struct why_opts o = { 0 };
  cleanup_free struct entitle_event *ev = NULL;
  struct entitle_cgroup_record_s *mine = NULL;
  size_t n = 0, n_mine = 0, i;
  int ret;

  ret = parse_opts (s, &o, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (o.follow)
    {
      ret = why_follow (s, &o, err);
      if (UNLIKELY (ret < 0))
        return ret;
      exit (EXIT_SUCCESS);
    }
  if (o.id)
    {
      mine = entitle_cgroup_record_find (s->ctx->config->state_dir, s->ctx->root, o.id, &n_mine);
      if (n_mine == 0)
        {
          free (mine);
          return entitle_make_error (err, ENOENT,
                                     "why: no record of container `%s`: entitle-hook records the containers it "
                                     "attaches programs to, for %d hours after they are gone",
                                     o.id, ENTITLE_RECORD_KEEP / 3600);
        }
    }
  /* No store: entitle's programs never ran on this boot, so nothing was
     denied by them.  */
  ret = entitle_store_read (&ev, &n, err);
  if (ret < 0 && (*err)->status == ENOENT)
    {
      entitle_error_release (err);
      ret = 0;
    }
  if (ret == 0)
    ret = list (s, &o, ev, n, mine, n_mine, err);
  for (i = 0; i < n_mine; i++)
    entitle_cgroup_record_free (&mine[i]);
  free (mine);
  if (UNLIKELY (ret < 0))
    return ret;
  exit (EXIT_SUCCESS);
}
