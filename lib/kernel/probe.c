/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "catalogue.h"
#include "probe.h"
#include "utils.h"

/* The probe as JSON, the form `entitle probe --json` prints and the
   cache in state_dir keeps.  One flat object; every key is required,
   unknown keys are ignored (a newer writer may add some):

   {
     "kernel": "6.18.0",                   uname -r (at most 64 bytes)
     "seccomp": true,                      seccomp filters available
     "seccomp_flags": ["tsync", "log"],    SECCOMP_FILTER_FLAG_* accepted, by
                                           name: tsync, log, spec_allow,
                                           new_listener, tsync_esrch,
                                           wait_killable_recv
     "seccomp_filter_extended": false,     eBPF seccomp (never merged)
     "checmate": false,                    PR_CHECMATE (never merged)
     "bpf_lsm": {                          BPF LSM
       "listed": true,                     "bpf" in /sys/kernel/security/lsm
       "works": false,                     a program loaded, attached, ran
       "error": "..."                      why not ("" when it works; < 128 bytes)
     },
     "lsm_cgroup": false,                  a BPF_LSM_CGROUP program, attached to
                                           a cgroup, ran for a task in it
     "lsm_cgroup_error": "...",            why not ("" when it does; < 128 bytes)
     "lockdown": "none",                   none, integrity, confidentiality or ""
     "cgroup_bpf": ["sock_create", ...],   cgroup attach points that load and
                                           attach, by their names in
                                           lib/catalogue/attach.c
     "cgroup2": "/sys/fs/cgroup",          a cgroup v2 mount, or ""
     "landlock_abi": 7,                    0 when absent
     "selinux": false,
     "apparmor": false
   }  */

struct flag_name
{
  unsigned bit;
  const char *name;
};

/* SECCOMP_FILTER_FLAG_* (linux/seccomp.h), by value.  */
static const struct flag_name seccomp_flag_names[] = {
  { 1u << 0, "tsync" },
  { 1u << 1, "log" },
  { 1u << 2, "spec_allow" },
  { 1u << 3, "new_listener" },
  { 1u << 4, "tsync_esrch" },
  { 1u << 5, "wait_killable_recv" },
  { 0, NULL },
};

static json_t *
attach_to_json (unsigned bits)
{
  json_t *a = json_new (JSON_ARRAY);
  int i;
  for (i = 0; i < ATTACH_COUNT; i++)
    if (bits & ATTACH_BIT (i))
      json_push (a, json_new_string (entitle_attach_points[i].name));
  return a;
}

static json_t *
flags_to_json (unsigned bits, const struct flag_name *names)
{
  json_t *a = json_new (JSON_ARRAY);
  for (; names->name; names++)
    if (bits & names->bit)
      json_push (a, json_new_string (names->name));
  return a;
}

char *
entitle_probe_to_json (const struct entitle_probe_s *p)
{
  cleanup_json json_t *doc = json_new (JSON_OBJECT);
  json_t *lsm = json_new (JSON_OBJECT);
  entitle_error_t err = NULL;
  char *out = NULL;
  size_t len;

  json_set (doc, "kernel", json_new_string (p->kernel));
  json_set (doc, "seccomp", json_new_bool (p->seccomp));
  json_set (doc, "seccomp_flags", flags_to_json (p->seccomp_flags, seccomp_flag_names));
  json_set (doc, "seccomp_filter_extended", json_new_bool (p->seccomp_extended));
  json_set (doc, "checmate", json_new_bool (p->checmate));
  json_set (lsm, "listed", json_new_bool (p->bpf_lsm_listed));
  json_set (lsm, "works", json_new_bool (p->bpf_lsm));
  json_set (lsm, "error", json_new_string (p->bpf_lsm_error));
  json_set (doc, "bpf_lsm", lsm);
  json_set (doc, "lsm_cgroup", json_new_bool (p->lsm_cgroup));
  json_set (doc, "lsm_cgroup_error", json_new_string (p->lsm_cgroup_error));
  json_set (doc, "lockdown", json_new_string (p->lockdown));
  json_set (doc, "cgroup_bpf", attach_to_json (p->cgroup_bpf));
  json_set (doc, "cgroup2", json_new_string (p->cgroup2));
  json_set (doc, "landlock_abi", json_new_uint (p->landlock_abi > 0 ? (unsigned)p->landlock_abi : 0));
  json_set (doc, "selinux", json_new_bool (p->selinux));
  json_set (doc, "apparmor", json_new_bool (p->apparmor));
  if (json_generate (doc, &out, &len, &err) < 0)
    {
      entitle_error_release (&err);
      return NULL;
    }
  return out;
}

/* The member @key of @obj, which must be there with type @type (for
   booleans: true or false).  */
static int
member (const json_t *obj, const char *key, enum json_type type, const json_t **out,
        entitle_error_t *err)
{
  static const char *const names[] = { "null", "a boolean", "a boolean", "a number",
                                       "a string", "an object", "an array" };
  const json_t *v = json_get (obj, key);

  if (v == NULL)
    return entitle_make_error (err, EINVAL, "probe: missing key `%s`", key);
  if (v->type != type && !(type == JSON_TRUE && v->type == JSON_FALSE))
    return entitle_make_error (err, EINVAL, "probe: `%s` must be %s", key, names[type]);
  *out = v;
  return 0;
}

static int
get_bool (const json_t *obj, const char *key, bool *out, entitle_error_t *err)
{
  const json_t *v = NULL;
  int ret = member (obj, key, JSON_TRUE, &v, err);
  if (UNLIKELY (ret < 0))
    return ret;
  *out = v->type == JSON_TRUE;
  return 0;
}

static int
get_string (const json_t *obj, const char *key, char *buf, size_t size, entitle_error_t *err)
{
  const json_t *v = NULL;
  int ret = member (obj, key, JSON_STRING, &v, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (v->len >= size || memchr (v->text, '\0', v->len))
    return entitle_make_error (err, EINVAL, "probe: `%s` is longer than %zu bytes", key, size - 1);
  memcpy (buf, v->text, v->len);
  buf[v->len] = '\0';
  return 0;
}

/* The bit of a seccomp flag's name, or 0.  */
static unsigned
seccomp_flag_bit (const char *name)
{
  const struct flag_name *f;
  for (f = seccomp_flag_names; f->name; f++)
    if (strcmp (f->name, name) == 0)
      return f->bit;
  return 0;
}

static unsigned
attach_bit (const char *name)
{
  int a = entitle_attach_find (name);
  return a < 0 ? 0 : ATTACH_BIT (a);
}

/* An array of names, each mapped to its bit by @bit_of (0: unknown).  */
static int
get_names (const json_t *obj, const char *key, unsigned (*bit_of) (const char *), unsigned *out,
           entitle_error_t *err)
{
  const json_t *v = NULL;
  size_t i;
  int ret = member (obj, key, JSON_ARRAY, &v, err);

  if (UNLIKELY (ret < 0))
    return ret;
  *out = 0;
  for (i = 0; i < v->n; i++)
    {
      const char *s = json_string (v->items[i]);
      unsigned bit = s ? bit_of (s) : 0;
      if (bit == 0)
        return entitle_make_error (err, EINVAL, "probe: `%s` has an unknown item `%s`", key,
                                   s ? s : "(not a string)");
      *out |= bit;
    }
  return 0;
}

static int
get_abi (const json_t *obj, const char *key, int *out, entitle_error_t *err)
{
  const json_t *v = NULL;
  char *end;
  long n;
  int ret = member (obj, key, JSON_NUMBER, &v, err);

  if (UNLIKELY (ret < 0))
    return ret;
  errno = 0;
  n = strtol (v->text, &end, 10);
  if (errno || *end || n < 0 || n > INT_MAX)
    return entitle_make_error (err, EINVAL, "probe: `%s` must be a whole number >= 0, not `%s`", key,
                               v->text);
  *out = (int)n;
  return 0;
}

static int
get_bpf_lsm (const json_t *doc, struct entitle_probe_s *p, entitle_error_t *err)
{
  const json_t *lsm = NULL;
  int ret = member (doc, "bpf_lsm", JSON_OBJECT, &lsm, err);

  if (ret == 0)
    ret = get_bool (lsm, "listed", &p->bpf_lsm_listed, err);
  if (ret == 0)
    ret = get_bool (lsm, "works", &p->bpf_lsm, err);
  if (ret == 0)
    ret = get_string (lsm, "error", p->bpf_lsm_error, sizeof (p->bpf_lsm_error), err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "`bpf_lsm`");
  return 0;
}

int
entitle_probe_from_json (struct entitle_probe_s *p, const json_t *doc, entitle_error_t *err)
{
  struct entitle_probe_s q;
  int ret;

  memset (&q, 0, sizeof (q));
  if (doc == NULL || doc->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "probe: not a JSON object");
  ret = get_string (doc, "kernel", q.kernel, sizeof (q.kernel), err);
  if (ret == 0)
    ret = get_bool (doc, "seccomp", &q.seccomp, err);
  if (ret == 0)
    ret = get_names (doc, "seccomp_flags", seccomp_flag_bit, &q.seccomp_flags, err);
  if (ret == 0)
    ret = get_bool (doc, "seccomp_filter_extended", &q.seccomp_extended, err);
  if (ret == 0)
    ret = get_bool (doc, "checmate", &q.checmate, err);
  if (ret == 0)
    ret = get_bpf_lsm (doc, &q, err);
  if (ret == 0)
    ret = get_bool (doc, "lsm_cgroup", &q.lsm_cgroup, err);
  if (ret == 0)
    ret = get_string (doc, "lsm_cgroup_error", q.lsm_cgroup_error, sizeof (q.lsm_cgroup_error), err);
  if (ret == 0)
    ret = get_string (doc, "lockdown", q.lockdown, sizeof (q.lockdown), err);
  if (ret == 0)
    ret = get_names (doc, "cgroup_bpf", attach_bit, &q.cgroup_bpf, err);
  if (ret == 0)
    ret = get_string (doc, "cgroup2", q.cgroup2, sizeof (q.cgroup2), err);
  if (ret == 0)
    ret = get_abi (doc, "landlock_abi", &q.landlock_abi, err);
  if (ret == 0)
    ret = get_bool (doc, "selinux", &q.selinux, err);
  if (ret == 0)
    ret = get_bool (doc, "apparmor", &q.apparmor, err);
  if (UNLIKELY (ret < 0))
    return ret;
  *p = q;
  return 0;
}

unsigned
entitle_probe_missing (const struct entitle_probe_s *p, unsigned needed, char *why, size_t len)
{
  unsigned missing = needed & ~p->cgroup_bpf;
  char names[256];

#ifndef ENTITLE_HAVE_BPF
  if (needed)
    snprintf (why, len, "%s", ENTITLE_NO_BPF);
  return needed;
#endif
  if (needed && p->cgroup2[0] == '\0')
    {
      snprintf (why, len, "no cgroup v2 hierarchy is mounted");
      return needed;
    }
  if (missing)
    snprintf (why, len, "the kernel refuses cgroup BPF %s programs",
              entitle_attach_names (missing, names, sizeof (names)));
  return missing;
}

const char *
entitle_probe_seed_lacks (const struct entitle_probe_s *p, int point)
{
  bool seccomp = point == ENTITLE_POINT_SECCOMP;

#ifndef ENTITLE_HAVE_BPF
  (void)p;
  (void)seccomp;
  return ENTITLE_NO_BPF;
#endif
  if (seccomp ? !p->seccomp_extended : !p->checmate)
    return seccomp ? "this kernel has no eBPF seccomp (SECCOMP_MODE_FILTER_EXTENDED)" : "this kernel has no Checmate (PR_CHECMATE)";
  return NULL;
}

bool
entitle_landlock_lacks (const struct entitle_entry_s *e, int abi, char *why, size_t len)
{
  if (abi <= 0)
    snprintf (why, len, "it needs Landlock, which this kernel lacks");
  else if (abi < e->landlock_abi)
    snprintf (why, len, "it needs Landlock ABI %d, and this kernel has ABI %d: %s would stay allowed", e->landlock_abi,
              abi, e->landlock_below ? e->landlock_below : "part of it");
  else
    return false;
  return true;
}

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)

int
entitle_probe_landlock_abi (void)
{
  long abi = syscall (__NR_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi > 0 ? (int)abi : 0;
}
