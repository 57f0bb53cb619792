/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>
#include "attach.h"
#include "bpf-read.h"
#include "store-read.h"
#include "catalogue.h"
#include "cgroup.h"
#include "cgroup-record.h"
#include "commands.h"
#include "denial.h"
#include "inspect-roots.h"
#include "seccomp-ebpf.h"
#include "seccomp-filter.h"
#include "utils.h"
#include "why.h"

/* entitle inspect [--json] ID|PID: what the kernel enforces on a
   container (its init process) or a process right now, read from the
   kernel and never from config.json: the cgroup programs attached where
   it runs (bpf_prog_query), the policy entitle's programs keep for its
   cgroup (the pinned storage), its seccomp filters (ptrace), its
   capabilities and no_new_privs (/proc).  */

struct target_s
{
  pid_t pid;
  const char *id;      /**< the container, or NULL for a bare PID */
  char root[PATH_MAX]; /**< the engine's root it was found in without --root, or "" */
};

/* @arg's container: in --root, or in the runtime's default root, or
   without --root in the one root of the known engines' that holds it.  */
static int
find_container (struct shim_s *s, const char *arg, struct target_s *t, char **searched, entitle_error_t *err)
{
  cleanup_free char *root = NULL;
  int ret;

  if ((t->pid = shim_container_pid (s, s->ctx->root, arg)) > 0 || s->ctx->root)
    return 0;
  ret = shim_engine_container (s, arg, &t->pid, &root, searched, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "inspect");
  if (root)
    snprintf (t->root, sizeof (t->root), "%s", root);
  return ret;
}

static int
resolve (struct shim_s *s, const char *arg, struct target_s *t, entitle_error_t *err)
{
  cleanup_free char *searched = NULL;
  char proc[64];
  char *end;
  long pid;
  int ret;

  t->id = NULL;
  t->root[0] = '\0';
  ret = find_container (s, arg, t, &searched, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (t->pid > 0)
    {
      t->id = arg;
      return 0;
    }
  pid = strtol (arg, &end, 10);
  snprintf (proc, sizeof (proc), "/proc/%ld", pid);
  if (*arg && *end == '\0' && pid > 0 && pid <= INT_MAX && access (proc, F_OK) == 0)
    {
      t->pid = (pid_t)pid;
      return 0;
    }
  if (searched)
    return entitle_make_error (err, ENOENT,
                               "inspect: `%s` is neither a running container of `%s` nor a process: searched its "
                               "default root, %s; a container elsewhere needs its engine's root, "
                               "e.g. --root /run/containerd/runc/NAMESPACE",
                               arg, s->runtime, searched);
  return entitle_make_error (err, ENOENT, "inspect: `%s` is neither a running container of `%s`%s%s nor a process",
                             arg, s->runtime, s->ctx->root ? " under --root " : "", s->ctx->root ? s->ctx->root : "");
}

/* The custom row of @cat whose program at @point is @name (the kernel
   keeps the first BPF_OBJ_NAME_LEN - 1 characters of it), or NULL.  */
static const struct entitle_entry_s *
custom_owner (const struct entitle_catalogue_s *cat, int point, const char *name)
{
  const struct entitle_entry_s *rows;
  size_t n, i, k;

  rows = entitle_catalogue_rows (cat, &n);
  for (i = 0; i < n; i++)
    for (k = 0; rows[i].custom && k < rows[i].n_progs; k++)
      if (rows[i].progs[k].point == point && *name
          && strncmp (rows[i].progs[k].program, name, BPF_OBJ_NAME_LEN - 1) == 0)
        return &rows[i];
  return NULL;
}

/* "owner" of the program @id at @point: this build's (pinned), another
   entitle build's (its name), the admin's for the custom entitlement
   *@custom of the admin config (its name: the hook loads one per
   container), or another's.  */
static const char *
owner (const struct entitle_catalogue_s *cat, int point, uint32_t id, const char *name,
       const struct entitle_entry_s **custom)
{
  struct bpf_prog_info info;
  cleanup_close int fd = -1;
  const char *prog = entitle_attach_points[point].program;

  if (prog && (fd = entitle_bpf_pin_get (prog)) >= 0 && entitle_bpf_info (fd, &info, sizeof (info)) == 0
      && info.id == id)
    return "entitle, this build";
  if (strncmp (name, "entitle_", 8) == 0)
    return "entitle, another build";
  if ((*custom = custom_owner (cat, point, name)) != NULL)
    return "the admin's";
  return "not entitle's";
}

static json_t *
programs (const struct entitle_catalogue_s *cat, int cgfd, bool text)
{
  json_t *arr = json_new (JSON_ARRAY);
  int i;

  if (text)
    printf ("programs attached (effective, bpf_prog_query):\n");
  for (i = 0; i < ATTACH_COUNT; i++)
    {
      uint32_t ids[64], n = 64, k;

      if (entitle_bpf_cgroup_progs (cgfd, entitle_attach_points[i].type, BPF_F_QUERY_EFFECTIVE, ids, &n) < 0)
        continue;
      for (k = 0; k < n; k++)
        {
          struct bpf_prog_info info;
          json_t *o = json_new (JSON_OBJECT);
          const struct entitle_entry_s *custom = NULL;
          const char *who;

          if (entitle_bpf_prog_info_by_id (ids[k], &info) < 0)
            memset (&info, 0, sizeof (info));
          who = owner (cat, i, ids[k], info.name, &custom);
          json_set (o, "point", json_new_string (entitle_attach_points[i].name));
          json_set (o, "id", json_new_uint (ids[k]));
          json_set (o, "name", json_new_string (info.name));
          json_set (o, "owner", json_new_string (who));
          if (custom)
            json_set (o, "entitlement", json_new_string (custom->name));
          json_push (arr, o);
          if (text)
            printf ("  %-12s id %-6u %-16s (%s%s%s)\n", entitle_attach_points[i].name, ids[k], info.name, who,
                    custom ? ", custom entitlement " : "", custom ? custom->name : "");
        }
    }
  /* A build without BPF asks the kernel nothing (bpf/nobpf.c): it cannot
     say "none".  */
  if (text && arr->n == 0)
#ifdef ENTITLE_HAVE_BPF
    printf ("  none\n");
#else
    printf ("  not asked: %s\n", ENTITLE_NO_BPF);
#endif
  return arr;
}

static void
cidr_text (const struct entitle_cidr *c, char *buf, size_t len)
{
  char a[INET6_ADDRSTRLEN] = "?";
  int bits = 0, w;

  for (w = 0; w < (c->family == AF_INET6 ? 4 : 1); w++)
    bits += __builtin_popcount (c->mask[w]);
  inet_ntop (c->family, c->net, a, sizeof (a));
  if (c->lo == 0 && c->hi == 65535)
    snprintf (buf, len, "%s/%d", a, bits);
  else if (c->lo == c->hi)
    snprintf (buf, len, "%s/%d:%u", a, bits, c->lo);
  else
    snprintf (buf, len, "%s/%d:%u-%u", a, bits, c->lo, c->hi);
}

static json_t *
cidrs (const char *what, const struct entitle_cidr *c, unsigned n, bool text)
{
  json_t *arr = json_new (JSON_ARRAY);
  char buf[96];
  unsigned i;

  for (i = 0; i < n; i++)
    {
      cidr_text (&c[i], buf, sizeof (buf));
      json_push (arr, json_new_string (buf));
      if (text)
        printf ("  %s %s\n", what, buf);
    }
  return arr;
}

static json_t *
ranges (const char *what, const struct entitle_range *r, unsigned n, const char *sep, bool text)
{
  json_t *arr = json_new (JSON_ARRAY);
  char buf[32];
  unsigned i;

  for (i = 0; i < n; i++)
    {
      if (r[i].lo == r[i].hi && strcmp (sep, "-") == 0)
        snprintf (buf, sizeof (buf), "%u", r[i].lo);
      else
        snprintf (buf, sizeof (buf), "%u%s%u", r[i].lo, sep, r[i].hi);
      json_push (arr, json_new_string (buf));
      if (text)
        printf ("  %s %s\n", what, buf);
    }
  return arr;
}

/* Each rule bit of @flags with the rows that carry it, for people.  */
static json_t *
rules (unsigned flags, bool text)
{
  json_t *o = json_new (JSON_OBJECT);
  unsigned bit;

  for (bit = 1; bit & POL_RULES; bit <<= 1)
    if (flags & bit)
      {
        cleanup_free char *rows = entitle_rule_rows (bit);
        char key[16];

        snprintf (key, sizeof (key), "0x%x", bit);
        json_set (o, key, json_new_string (rows));
        if (text)
          printf ("  rule 0x%x, of %s\n", bit, rows);
      }
  return o;
}

/* Where each recorded entitlement came from: "sources" of @o, and a line
   "sources: NAME from SOURCE; ..." (a record written before sources were
   recorded has none).  */
static void
recorded_sources (const struct entitle_catalogue_s *cat, const struct entitle_cgroup_record_s *r, json_t *o,
                  bool text)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  json_t *sources = json_new (JSON_OBJECT);
  size_t i, n = 0;

  why_record_set (cat, r, &set);
  for (i = 0; i < set.n; i++)
    {
      cleanup_free char *name = entitle_request_format (&set.items[i]);
      enum entitle_source from = entitle_cgroup_record_source (r, name);
      if (entitle_source_key (from) == NULL)
        continue;
      json_set (sources, name, json_new_string (entitle_source_key (from)));
      if (text)
        printf ("%s%s from %s", n++ ? "; " : "  sources: ", name, entitle_source_name (from));
    }
  if (text && n)
    putchar ('\n');
  json_set (o, "sources", sources);
}

/* The entitlements the hook enforced for the cgroup (its record), and
   where each came from, into @o.  */
static void
recorded (struct shim_s *s, uint64_t cgroup, json_t *o, bool text)
{
  struct entitle_cgroup_record_s r;

  if (!entitle_cgroup_record_read (s->ctx->config->state_dir, cgroup, &r))
    {
      json_set (o, "entitlements", json_new (JSON_NULL));
      json_set (o, "sources", json_new (JSON_NULL));
      return;
    }
  json_set (o, "entitlements", json_new_string (r.entitlements));
  if (text)
    printf ("  entitlements (entitle-hook's record at createRuntime): %s\n", *r.entitlements ? r.entitlements : "(entitle learn)");
  recorded_sources (&s->ctx->config->catalogue, &r, o, text);
  entitle_cgroup_record_free (&r);
}

static json_t *
policy_json (struct shim_s *s, const struct entitle_policy *p, uint64_t cgroup, bool text)
{
  json_t *o = json_new (JSON_OBJECT);
  unsigned i;

  if (text)
    printf ("policy of cgroup %" PRIu64 " (pinned storage entitle_policy):\n", cgroup);
  json_set (o, "cgroup", json_new_uint (cgroup));
  recorded (s, cgroup, o, text);
  json_set (o, "flags", json_new_uint (p->flags));
  json_set (o, "rules", rules (p->flags, text));
  json_set (o, "egress", cidrs ("egress", p->egress, p->n_egress, text));
  json_set (o, "ingress", cidrs ("ingress", p->ingress, p->n_ingress, text));
  json_set (o, "bind", ranges ("bind", p->bind, p->n_bind, "-", text));
  json_set (o, "bind_map", ranges ("bind-map", p->map, p->n_map, ":", text));
  {
    json_t *keys = json_get_or_add (o, "sysctl", JSON_ARRAY);
    for (i = 0; i < p->n_sysctl && i < ENTITLE_MAX_SYSCTLS; i++)
      {
        char name[ENTITLE_SYSCTL_NAME + 1] = { 0 };
        memcpy (name, p->sysctl[i], ENTITLE_SYSCTL_NAME);
        json_push (keys, json_new_string (name));
        if (text)
          printf ("  sysctl writable %s\n", name);
      }
  }
  json_set (o, "denials_recorded", json_new_bool (p->flags & POL_REPORT));
  json_set (o, "learning", json_new_bool (p->flags & POL_LEARN));
  if (text)
    printf ("  records of denials: %s%s\n", p->flags & POL_REPORT ? "on" : "off (admin config: denials false)",
            p->flags & POL_LEARN ? "; counting uses (entitle learn)" : "");
  return o;
}

/* The policy of the cgroup at @rel (below @mnt), or of the nearest
   ancestor that has one: entitle attaches to the container's cgroup, and
   a cgroup made below it runs under the same storage.  */
static json_t *
policy (struct shim_s *s, const char *mnt, const char *rel, bool text, entitle_error_t *err)
{
  char path[PATH_MAX + 256];
  struct entitle_policy p;
  char *slash;
  int ret;

  snprintf (path, sizeof (path), "%s%s", mnt, rel);
  for (;;)
    {
      cleanup_close int fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      uint64_t id = fd >= 0 ? entitle_cgroup_id (fd) : 0;

      if (id && (ret = entitle_policy_read (id, &p, err)) != 0)
        return ret < 0 ? NULL : policy_json (s, &p, id, text);
      if (strlen (path) <= strlen (mnt) || (slash = strrchr (path, '/')) == NULL)
        break;
      *slash = '\0';
    }
  if (text)
    printf ("policy: none (no entitle program keeps one for this cgroup)\n");
  return json_new (JSON_NULL);
}

/* An eBPF filter of the seed's: what the kernel says of the program, and
   for entitle's own, the decisions of its map.  */
static void
ebpf_json (json_t *o, size_t i, int fd, bool text)
{
  struct entitle_seccomp_ext_s ext;
  entitle_error_t err = NULL;
  char decisions[4096];

  json_set (o, "kind", json_new_string ("ebpf"));
  if (fd < 0 || entitle_seccomp_ext_describe (&entitle_kernel, fd, &ext, &err) < 0)
    {
      entitle_error_release (&err);
      if (text)
        printf ("seccomp filter %zu (eBPF, not readable here)\n", i);
      return;
    }
  json_set (o, "program_id", json_new_uint (ext.id));
  json_set (o, "tag", json_new_string (ext.tag));
  json_set (o, "instruction_count", json_new_uint (ext.n_insns));
  if (text)
    printf ("seccomp filter %zu (eBPF, program %u, tag %s, %u instructions):\n", i, ext.id, ext.tag, ext.n_insns);
  if (!ext.entitle)
    return;
  entitle_seccomp_ext_format (&ext.policy, decisions, sizeof (decisions));
  json_set (o, "entitle", json_new_string (decisions));
  if (text)
    printf ("  entitle's filter: %s\n", decisions);
}

static json_t *
filters_json (const struct entitle_seccomp_filter_s *f, size_t n, bool text)
{
  json_t *arr = json_new (JSON_ARRAY);
  size_t i, k;

  for (i = 0; i < n; i++)
    {
      struct entitle_disasm_s d;
      json_t *o = json_new (JSON_OBJECT), *insns;

      json_push (arr, o);
      if (f[i].kind == ENTITLE_FILTER_EBPF)
        {
          ebpf_json (o, i, f[i].ebpf_fd, text);
          continue;
        }
      json_set (o, "kind", json_new_string ("classic"));
      insns = json_get_or_add (o, "instructions", JSON_ARRAY);
      if (text)
        printf ("seccomp filter %zu (classic, %zu instructions; 0 is the first installed):\n", i, f[i].n);
      entitle_disasm_start (&d, f[i].insns, f[i].n);
      for (k = 0; k < f[i].n; k++)
        {
          char line[160];
          entitle_disasm (&d, k, line, sizeof (line));
          json_push (insns, json_new_string (line));
          if (text)
            printf ("  %04zu: %s\n", k, line);
        }
      entitle_disasm_end (&d);
    }
  return arr;
}

/* From /proc/PID/status: the seccomp mode, no_new_privs, the capability
   sets.  */
static json_t *
status_json (pid_t pid, bool text)
{
  static const char *const keys[] = { "Seccomp", "Seccomp_filters", "NoNewPrivs", "CapEff", "CapPrm", "CapBnd" };
  json_t *o = json_new (JSON_OBJECT);
  cleanup_file FILE *f = NULL;
  cleanup_free char *line = NULL;
  char path[64];
  size_t cap = 0, i;

  snprintf (path, sizeof (path), "/proc/%d/status", (int)pid);
  if ((f = fopen (path, "re")) == NULL)
    return o;
  while (getline (&line, &cap, f) > 0)
    for (i = 0; i < sizeof (keys) / sizeof (keys[0]); i++)
      {
        size_t kl = strlen (keys[i]);
        char *v = line + kl + 1;

        if (strncmp (line, keys[i], kl) != 0 || line[kl] != ':')
          continue;
        while (isspace ((unsigned char)*v))
          v++;
        v[strcspn (v, "\n")] = '\0';
        json_set (o, keys[i], json_new_string (v));
        if (text)
          printf ("%s: %s\n", keys[i], v);
        if (strncmp (keys[i], "Cap", 3) == 0)
          {
            unsigned long long mask = strtoull (v, NULL, 16);
            json_t *names = json_new (JSON_ARRAY);
            char key[32];

            for (int c = 0; c < 64; c++)
              if (mask & (1ull << c))
                {
                  cleanup_free char *n = NULL;
                  char *cn = cap_to_name (c);
                  xasprintf (&n, "%s", cn ? cn : "?");
                  cap_free (cn);
                  for (char *p = n; *p; p++)
                    *p = (char)toupper ((unsigned char)*p);
                  json_push (names, json_new_string (n));
                  if (text)
                    printf ("  %s\n", n);
                }
            snprintf (key, sizeof (key), "%s_names", keys[i]);
            json_set (o, key, names);
          }
      }
  return o;
}

static int
inspect (struct shim_s *s, const struct target_s *t, bool json, entitle_error_t *err)
{
  cleanup_json json_t *doc = json_new (JSON_OBJECT);
  struct entitle_seccomp_filter_s *f = NULL;
  char mnt[256], rel[PATH_MAX], dir[PATH_MAX + 256];
  cleanup_close int cgfd = -1;
  json_t *pol;
  size_t n_f = 0;
  int ret;

  ret = entitle_cgroup2_mount (mnt, sizeof (mnt), err);
  if (ret == 0)
    ret = entitle_cgroup_of_pid (t->pid, rel, sizeof (rel), err);
  if (UNLIKELY (ret < 0))
    return ret;
  snprintf (dir, sizeof (dir), "%s%s", mnt, strcmp (rel, "/") == 0 ? "" : rel);
  if ((cgfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return entitle_make_sys_error (err, "open `%s`", dir);
  if (!json)
    printf ("process %d%s%s%s%s, cgroup %s (id %" PRIu64 ")\n", (int)t->pid, t->id ? ", init of container " : "",
            t->id ? t->id : "", *t->root ? " of --root " : "", t->root, rel, entitle_cgroup_id (cgfd));
  json_set (doc, "pid", json_new_uint ((unsigned long long)t->pid));
  json_set (doc, "container", t->id ? json_new_string (t->id) : json_new (JSON_NULL));
  if (*t->root || (t->id && s->ctx->root))
    json_set (doc, "root", json_new_string (*t->root ? t->root : s->ctx->root));
  else
    json_set (doc, "root", json_new (JSON_NULL));
  json_set (doc, "cgroup", json_new_string (rel));
  json_set (doc, "cgroup_id", json_new_uint (entitle_cgroup_id (cgfd)));
  json_set (doc, "programs", programs (&s->ctx->config->catalogue, cgfd, !json));
  if ((pol = policy (s, mnt, strcmp (rel, "/") == 0 ? "" : rel, !json, err)) == NULL)
    return -1;
  json_set (doc, "policy", pol);
  json_set (doc, "status", status_json (t->pid, !json));
  ret = entitle_seccomp_read_filters (&entitle_kernel, t->pid, entitle_seed_seccomp_extended (&entitle_kernel), &f,
                                      &n_f, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (!json && n_f == 0)
    printf ("seccomp: no filter\n");
  json_set (doc, "seccomp", filters_json (f, n_f, !json));
  entitle_seccomp_filters_free (f, n_f);
  return json ? shim_print_json (doc, err) : 0;
}

struct inspect_opts
{
  const char *arg;
  bool json;
};

static int
take_opt (struct shim_s *s, void *data, enum shim_key key, const char *value, entitle_error_t *err)
{
  struct inspect_opts *o = data;

  (void)err;
  if (key == KEY_JSON)
    o->json = true;
  else if (o->arg == NULL)
    o->arg = value;
  else
    shim_usage_error (s, "inspect: unexpected argument `%s`", value);
  return 0;
}

int
shim_inspect (struct shim_s *s, entitle_error_t *err)
{
  cleanup_free char *runtime = NULL;
  struct inspect_opts o = { NULL, false };
  struct target_s t;
  int ret;

  ret = shim_parse (s, &o, take_opt, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (o.arg == NULL)
    return entitle_make_error (err, EINVAL, "inspect: which container or process? (entitle inspect ID|PID)");
  ret = shim_find_runtime (s, &runtime, err);
  if (ret == 0)
    ret = resolve (s, o.arg, &t, err);
  if (ret == 0)
    ret = inspect (s, &t, o.json, err);
  if (UNLIKELY (ret < 0))
    return ret;
  exit (EXIT_SUCCESS);
}
