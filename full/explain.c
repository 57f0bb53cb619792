/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bpf-plan.h"
#include "catalogue.h"
#include "commands.h"
#include "compile.h"
#include "enforce-path.h"
#include "explain-trust.h"
#include "rewrite.h"
#include "entitlements.h"
#include "help.h"
#include "probe-cache.h"
#include "score.h"
#include "utils.h"

/* entitle explain [--json] [ENT...]: what each entitlement changes, for
   people, read from the same table the compiler uses, and which mechanism
   enforces each part of it on this host; without ENT, the catalogue.
   entitle explain --score [--json] [-b DIR] [--config FILE] [--max SCORE]:
   how exposed the bundle's container would be (lib/read/score.c).  */

#define MAX_EXPLAINED 256
#define M(x)          ENTITLE_MECH_BIT (ENTITLE_MECH_##x)

struct explain_opts
{
  bool json, score;
  const char *bundle, *config, *max;
  const char *names[MAX_EXPLAINED]; /* the entitlements */
  int n;
};

/* What the host says about one mechanism part of an entitlement.  */
enum part_state
{
  PART_UNKNOWN = -1, /* not probed */
  PART_UNENFORCEABLE = 0,
  PART_ENFORCED = 1,
};

struct part_s
{
  const char *mechanism;
  char detail[96]; /**< the attach types, for cgroup BPF */
  enum part_state state;
  char reason[384]; /**< "enforced by ...", the missing mechanism, or why not probed */
};

#define MAX_PARTS (8 + ENTITLE_CUSTOM_PARTS)
/* A custom row's programs at seed interfaces are a part each.  */
#define ENTITLE_CUSTOM_PARTS 8

/* The host facts, or why there are none, and the engine's config that
   what widens is judged against.  */
struct host_s
{
  const struct entitle_probe_s *probe; /**< NULL when not probed */
  const char *why_not;
  const struct explain_baseline_s *baseline;
};

static struct part_s *
add_part (struct part_s *parts, size_t *n, enum entitle_mech mechanism, enum part_state state)
{
  struct part_s *p = &parts[(*n)++];
  memset (p, 0, sizeof (*p));
  p->mechanism = entitle_mech_name (mechanism);
  p->state = state;
  return p;
}

static bool
not_probed (struct part_s *p, const struct host_s *host)
{
  if (host->probe)
    return false;
  p->state = PART_UNKNOWN;
  snprintf (p->reason, sizeof (p->reason), "on this host: not probed (%s)", host->why_not);
  return true;
}

/* Does a custom rule of @e take a call away (errno, kill) or log it?  */
static bool
rules_restrict (const struct entitle_entry_s *e)
{
  size_t i;
  for (i = 0; i < e->n_sys_rules; i++)
    if (e->sys_rules[i].action != ENTITLE_ACT_ALLOW)
      return true;
  return false;
}

static void
seccomp_part (const struct entitle_entry_s *e, const struct host_s *host, struct part_s *p)
{
  bool restricts = e->sys_deny || (entitle_fx_mechs (entitle_entry_fx (e)) & M (SECCOMP)) || rules_restrict (e);

  if (not_probed (p, host))
    return;
  if (host->probe->seccomp)
    snprintf (p->reason, sizeof (p->reason), "enforced by seccomp (linux.seccomp, loaded by the runtime)");
  else if (!restricts)
    snprintf (p->reason, sizeof (p->reason), "nothing to enforce: it only allows system calls, and this kernel has no seccomp");
  else
    {
      p->state = PART_UNENFORCEABLE;
      snprintf (p->reason, sizeof (p->reason), "NOT enforceable here: seccomp filters (this kernel has none)");
    }
}

static void
lsm_part (const struct host_s *host, struct part_s *p)
{
  if (not_probed (p, host))
    return;
  if (host->probe->selinux || host->probe->apparmor)
    snprintf (p->reason, sizeof (p->reason), "enforced by LSM (the runtime sets the %s)",
              host->probe->selinux ? "SELinux label" : "AppArmor profile");
  else
    snprintf (p->reason, sizeof (p->reason), "nothing to relax: this host runs neither AppArmor nor SELinux");
}

static void
cgroup_part (unsigned needed, const struct host_s *host, struct part_s *p)
{
  char why[256];

  entitle_attach_names (needed, p->detail, sizeof (p->detail));
  if (not_probed (p, host))
    return;
  /* What create refuses with (lib/host/probe.c): the kernel's missing
     attach types, no cgroup v2 mount, or a build without BPF.  */
  if (entitle_probe_missing (host->probe, needed, why, sizeof (why)) == 0)
    {
      snprintf (p->reason, sizeof (p->reason), "enforced by cgroup BPF (%s)", p->detail);
      return;
    }
  p->state = PART_UNENFORCEABLE;
  snprintf (p->reason, sizeof (p->reason),
            "NOT enforceable here: %s; create refuses it unless on_unenforceable is \"warn\"", why);
}

static void
landlock_part (const struct entitle_entry_s *e, const struct host_s *host, struct part_s *p)
{
  char why[192];

  if (not_probed (p, host))
    return;
  if (!entitle_landlock_lacks (e, host->probe->landlock_abi, why, sizeof (why)))
    {
      p->state = PART_ENFORCED;
      snprintf (p->reason, sizeof (p->reason),
                "enforced by Landlock (in-container helper entitle-init; the kernel has Landlock ABI %d)",
                host->probe->landlock_abi);
      return;
    }
  snprintf (p->reason, sizeof (p->reason),
            "NOT enforceable here: Landlock (in-container helper entitle-init): %s; create refuses it unless "
            "on_unenforceable is \"warn\"",
            why);
}

/* An admin's program at a seed interface: used on this host, or not (the
   kernel, or this version, lacks the way), which the rest of the
   entitlement makes up for, or nothing does.  */
static void
seed_part (const struct entitle_entry_s *e, const struct entitle_prog_s *prog, const struct host_s *host,
           struct part_s *p)
{
  snprintf (p->detail, sizeof (p->detail), "%s", prog->attach);
  if (not_probed (p, host))
    return;
  if (entitle_probe_seed_lacks (host->probe, prog->point) == NULL)
    {
      p->state = PART_ENFORCED;
      snprintf (p->reason, sizeof (p->reason), "%s",
                prog->point == ENTITLE_POINT_SECCOMP
                    ? "enforced by the admin's eBPF seccomp filter (create loads it, the in-container helper "
                      "entitle-init installs it)"
                    : "enforced by the admin's Checmate program (entitle-hook installs it once per host and "
                      "writes the container's data by its cgroup id)");
    }
  else if (entitle_bpf_beyond_seed (e))
    snprintf (p->reason, sizeof (p->reason), "not used here: %s; the entitlement's other parts enforce it",
              entitle_probe_seed_lacks (host->probe, prog->point));
  else
    snprintf (p->reason, sizeof (p->reason), "NOT enforceable here: %s; create refuses it unless on_unenforceable is \"warn\"",
              entitle_probe_seed_lacks (host->probe, prog->point));
}

/* The mechanism parts of @e, in the order entitle applies them.  */
static size_t
explain_parts (const struct entitle_entry_s *e, const struct host_s *host, struct part_s *parts)
{
  unsigned needed = e->attach | entitle_bpf_custom_points (e), fxm = entitle_fx_mechs (entitle_entry_fx (e));
  size_t n = 0, i;

  if (e->cap_add || e->cap_drop || e->cap_keep)
    snprintf (add_part (parts, &n, ENTITLE_MECH_CAPABILITIES, PART_ENFORCED)->reason, sizeof (parts->reason),
              "enforced by capabilities (the runtime sets all five sets)");
  if (e->sys_deny || e->sys_allow || e->n_sys_rules || (fxm & M (SECCOMP)))
    seccomp_part (e, host, add_part (parts, &n, ENTITLE_MECH_SECCOMP, PART_ENFORCED));
  if (fxm & M (NAMESPACES))
    snprintf (add_part (parts, &n, ENTITLE_MECH_NAMESPACES, PART_ENFORCED)->reason, sizeof (parts->reason),
              "enforced by namespaces (the runtime makes them)");
  if ((fxm & M (PATHS)) || e->masked || e->readonly)
    snprintf (add_part (parts, &n, ENTITLE_MECH_PATHS, PART_ENFORCED)->reason, sizeof (parts->reason),
              "enforced by paths (the runtime's masked and read-only mounts)");
  if (fxm & M (DEVICE_CGROUP))
    snprintf (add_part (parts, &n, ENTITLE_MECH_DEVICE_CGROUP, PART_ENFORCED)->reason, sizeof (parts->reason),
              "enforced by the runtime's device cgroup (linux.resources.devices; not applied where the "
              "runtime manages no cgroup, as crun with --cgroup-manager=disabled)");
  if (fxm & M (PROCESS))
    snprintf (add_part (parts, &n, ENTITLE_MECH_PROCESS, PART_ENFORCED)->reason, sizeof (parts->reason),
              "enforced by the kernel's no_new_privs (set by the runtime)");
  if (fxm & M (LSM))
    lsm_part (host, add_part (parts, &n, ENTITLE_MECH_LSM, PART_ENFORCED));
  if (needed)
    cgroup_part (needed, host, add_part (parts, &n, ENTITLE_MECH_CGROUP_BPF, PART_ENFORCED));
  if (fxm & M (LANDLOCK))
    landlock_part (e, host, add_part (parts, &n, ENTITLE_MECH_LANDLOCK, PART_UNENFORCEABLE));
  for (i = 0; i < e->n_progs && i < ENTITLE_CUSTOM_PARTS; i++)
    if (e->progs[i].point >= ATTACH_COUNT)
      seed_part (e, &e->progs[i], host,
                 add_part (parts, &n, e->progs[i].point == ENTITLE_POINT_SECCOMP ? ENTITLE_MECH_EBPF_SECCOMP : ENTITLE_MECH_CHECMATE,
                           PART_UNENFORCEABLE));
  return n;
}

/* A custom rule for people: "close when arg0 == 999: errno 1".  */
static void
rule_text (const struct entitle_sys_rule_s *r, char *buf, size_t size)
{
  static const char *const ops[_SCMP_CMP_MAX] = { [SCMP_CMP_EQ] = "==", [SCMP_CMP_NE] = "!=", [SCMP_CMP_LT] = "<", [SCMP_CMP_LE] = "<=", [SCMP_CMP_GT] = ">", [SCMP_CMP_GE] = ">=" };
  size_t len = 0;
  unsigned i;

  buf[0] = '\0';
  for (const char *const *n = r->names; *n && len < size; n++)
    len += (size_t)snprintf (buf + len, size - len, "%s%s", n == r->names ? "" : " ", *n);
  for (i = 0; i < r->n_args && len < size; i++)
    {
      const struct entitle_sys_arg_s *a = &r->args[i];
      const char *lead = i ? " and" : " when";
      if (a->op != SCMP_CMP_MASKED_EQ)
        len += (size_t)snprintf (buf + len, size - len, "%s arg%u %s %llu", lead, a->index, ops[a->op],
                                 (unsigned long long)a->value);
      else
        len += (size_t)snprintf (buf + len, size - len, "%s arg%u & %#llx == %#llx", lead, a->index,
                                 (unsigned long long)a->value, (unsigned long long)a->value_two);
    }
  if (r->action == ENTITLE_ACT_ERRNO)
    snprintf (buf + len, size - len, ": errno %u (%s)", r->errno_ret,
              strerrorname_np ((int)r->errno_ret) ? strerrorname_np ((int)r->errno_ret) : "?");
  else
    snprintf (buf + len, size - len, ": %s",
              r->action == ENTITLE_ACT_KILL_PROCESS ? "kill" : r->action == ENTITLE_ACT_LOG ? "log"
                                                                                            : "allow");
}

/* What @e implies, as written ("network.egress=10.0.0.0/8"), malloc'd
   and NULL-terminated.  */
static char **
implies_text (const struct entitle_entry_s *e)
{
  char **v = xcalloc (e->n_implies + 1, sizeof (char *));
  size_t i;

  for (i = 0; i < e->n_implies; i++)
    v[i] = entitle_implied_format (&e->implies[i]);
  return v;
}

static void print_list (const char *label, const char *const *list);

/* What only custom rows say, for people.  */
static void
custom_text (const struct entitle_entry_s *e)
{
  cleanup_strv char **implies = implies_text (e);
  char buf[1024];
  size_t i;

  for (i = 0; i < e->n_sys_rules; i++)
    {
      rule_text (&e->sys_rules[i], buf, sizeof (buf));
      printf ("  seccomp rule: %s\n", buf);
    }
  print_list ("paths masked", e->masked);
  print_list ("paths made read-only", e->readonly);
  print_list ("implies (as if asked for with it)", (const char *const *)implies);
  for (i = 0; i < e->n_progs; i++)
    printf ("  bpf %s: program %s of %s\n", e->progs[i].attach, e->progs[i].program, e->progs[i].object);
  for (i = 0; i < e->n_data; i++)
    printf ("%s%llu%s", i ? " " : "  data (entitle_data words): ", (unsigned long long)e->data[i],
            i + 1 == e->n_data ? "\n" : "");
}

static void
print_list (const char *label, const char *const *list)
{
  if (list == NULL || *list == NULL)
    return;
  printf ("  %s:", label);
  for (; *list; list++)
    printf (" %s", *list);
  putchar ('\n');
}

static void
print_effects (const struct entitle_entry_s *e)
{
  const struct entitle_fx_text_s *fx;
  const char *cg = e->bpf_text, *layer, *text;
  size_t i, n;
  char mech[64];

  fx = entitle_fx_texts (&n);
  for (i = 0; i < n; i++)
    if (entitle_entry_fx (e) & fx[i].fx)
      printf ("  %s: %s\n", entitle_mech_names (fx[i].mechs, mech, sizeof (mech)), fx[i].text);
  if (cg)
    printf ("  %s: %s\n", entitle_mech_name (ENTITLE_MECH_CGROUP_BPF), cg);
  for (i = 0; entitle_layer_text (e, &i, &layer, &text);)
    printf ("  %s, where the kernel has it: %s\n", layer, text);
}

/* Which path each part takes on this host (DESIGN §4), the seed layers
   included.  */
static void
paths_text (const struct entitle_entry_s *e, const struct host_s *host)
{
  char line[1024];

  if (host->probe == NULL)
    {
      printf ("  paths on this host: not probed (%s)\n", host->why_not);
      return;
    }
  entitle_paths_format (e, host->probe, line, sizeof (line));
  if (line[0])
    printf ("  paths on this host: %s\n", line);
}

static json_t *
paths_json (const struct entitle_entry_s *e, const struct host_s *host)
{
  struct entitle_path_s paths[ENTITLE_PATH_KINDS];
  json_t *a;
  size_t i, n;

  if (host->probe == NULL)
    return json_new (JSON_NULL);
  a = json_new (JSON_ARRAY);
  n = entitle_paths (e, host->probe, paths);
  for (i = 0; i < n; i++)
    {
      json_t *o = json_new (JSON_OBJECT);
      json_set (o, "path", json_new_string (paths[i].name));
      json_set (o, "detail", paths[i].detail[0] ? json_new_string (paths[i].detail) : json_new (JSON_NULL));
      json_set (o, "layer", json_new_bool (paths[i].layer));
      json_set (o, "taken", json_new_bool (paths[i].taken));
      json_set (o, "reason", json_new_string (paths[i].reason));
      json_push (a, o);
    }
  return a;
}

static void
explain_text (struct shim_s *s, const struct entitle_entry_s *e, const char *value, const struct host_s *host)
{
  struct part_s parts[MAX_PARTS];
  size_t i, n = explain_parts (e, host, parts);

  printf ("%s%s%s\n  %s\n", e->name, e->value ? "=" : "", e->value ? e->value->form : "", e->summary);
  if (e->value)
    printf ("  value: %s%s(e.g. %s=%s)\n", e->value->hint ? e->value->hint : "", e->value->hint ? " " : "", e->name,
            e->value->example);
  if (e->note)
    printf ("  %s\n", e->note);
  if (e->custom)
    printf ("  custom entitlement of %s (definition %s)\n", e->custom, e->digest);
  if (e->rung)
    printf ("  ladder: %s, rung %d (one rung per ladder)\n", entitle_domain_name (e->domain), e->rung);
  else
    printf ("  modifier: combines with any rung%s\n", e->value ? "; may repeat" : "");
  if (e->exact_grant)
    printf ("  grant: by exact name only, never by a glob\n");
  explain_trust_text (s, host->baseline, e, value);
  print_list ("capabilities kept at most (all five sets; what another entitlement adds is added after)", e->cap_keep);
  print_list ("capabilities dropped (all five sets)", e->cap_drop);
  print_list ("capabilities added", e->cap_add);
  print_list ("syscalls denied whatever their arguments", e->sys_deny);
  print_list ("syscalls allowed", e->sys_allow);
  custom_text (e);
  print_effects (e);
  print_list ("contradicts", e->contradicts);
  for (const char *const *l = e->limits; l && *l; l++)
    printf ("  limit: %s\n", *l);
  if (n)
    printf ("  enforcement:\n");
  for (i = 0; i < n; i++)
    printf ("    %s%s%s%s: %s\n", parts[i].mechanism, parts[i].detail[0] ? " (" : "", parts[i].detail,
            parts[i].detail[0] ? ")" : "", parts[i].reason);
  paths_text (e, host);
}

static json_t *
strv_json (const char *const *list)
{
  json_t *a = json_new (JSON_ARRAY);
  for (; list && *list; list++)
    json_push (a, json_new_string (*list));
  return a;
}

static json_t *
pair_json (const char *k1, const char *const *v1, const char *k2, const char *const *v2)
{
  json_t *o = json_new (JSON_OBJECT);
  json_set (o, k1, strv_json (v1));
  json_set (o, k2, strv_json (v2));
  return o;
}

static json_t *
effects_json (const struct entitle_entry_s *e)
{
  json_t *a = json_new (JSON_ARRAY);
  const struct entitle_fx_text_s *fx = NULL;
  const char *cg = e->bpf_text, *layer, *text;
  size_t i, n;
  char buf[512], mech[64];

  fx = entitle_fx_texts (&n);
  for (i = 0; i < n; i++)
    if (entitle_entry_fx (e) & fx[i].fx)
      {
        snprintf (buf, sizeof (buf), "%s: %s", entitle_mech_names (fx[i].mechs, mech, sizeof (mech)), fx[i].text);
        json_push (a, json_new_string (buf));
      }
  if (cg)
    {
      snprintf (buf, sizeof (buf), "%s: %s", entitle_mech_name (ENTITLE_MECH_CGROUP_BPF), cg);
      json_push (a, json_new_string (buf));
    }
  for (i = 0; entitle_layer_text (e, &i, &layer, &text);)
    {
      snprintf (buf, sizeof (buf), "%s, where the kernel has it: %s", layer, text);
      json_push (a, json_new_string (buf));
    }
  return a;
}

static json_t *
mechanisms_json (const struct entitle_entry_s *e, const struct host_s *host)
{
  struct part_s parts[MAX_PARTS];
  size_t i, n = explain_parts (e, host, parts);
  json_t *a = json_new (JSON_ARRAY);

  for (i = 0; i < n; i++)
    {
      json_t *m = json_new (JSON_OBJECT);
      json_set (m, "mechanism", json_new_string (parts[i].mechanism));
      json_set (m, "detail", parts[i].detail[0] ? json_new_string (parts[i].detail) : json_new (JSON_NULL));
      json_set (m, "enforceable", parts[i].state == PART_UNKNOWN ? json_new (JSON_NULL) : json_new_bool (parts[i].state == PART_ENFORCED));
      json_set (m, "reason", json_new_string (parts[i].reason));
      json_push (a, m);
    }
  return a;
}

/* What only custom rows say: their origin, rules, paths, programs.  */
static void
custom_json (json_t *o, const struct entitle_entry_s *e)
{
  cleanup_strv char **implies = implies_text (e);
  json_t *rules = json_new (JSON_ARRAY), *progs = json_new (JSON_ARRAY), *data = json_new (JSON_ARRAY);
  char buf[1024];
  size_t i;

  json_set (o, "custom", json_new_string (e->custom));
  json_set (o, "digest", json_new_string (e->digest));
  for (i = 0; i < e->n_sys_rules; i++)
    {
      rule_text (&e->sys_rules[i], buf, sizeof (buf));
      json_push (rules, json_new_string (buf));
    }
  json_set (o, "seccomp_rules", rules);
  json_set (o, "paths", pair_json ("masked", e->masked, "readonly", e->readonly));
  json_set (o, "implies", strv_json ((const char *const *)implies));
  for (i = 0; i < e->n_progs; i++)
    {
      json_t *p = json_new (JSON_OBJECT);
      json_set (p, "object", json_new_string (e->progs[i].object));
      json_set (p, "program", json_new_string (e->progs[i].program));
      json_set (p, "attach", json_new_string (e->progs[i].attach));
      json_push (progs, p);
    }
  json_set (o, "bpf", progs);
  for (i = 0; i < e->n_data; i++)
    json_push (data, json_new_uint (e->data[i]));
  json_set (o, "data", data);
}

static json_t *
explain_json (struct shim_s *s, const struct entitle_entry_s *e, const char *value, const struct host_s *host)
{
  json_t *o = json_new (JSON_OBJECT);

  json_set (o, "name", json_new_string (e->name));
  json_set (o, "value", json_new_bool (e->value != NULL));
  json_set (o, "form", e->value ? json_new_string (e->value->form) : json_new (JSON_NULL));
  json_set (o, "example", e->value ? json_new_string (e->value->example) : json_new (JSON_NULL));
  json_set (o, "note", e->note ? json_new_string (e->note) : json_new (JSON_NULL));
  json_set (o, "domain", e->rung ? json_new_string (entitle_domain_name (e->domain)) : json_new (JSON_NULL));
  json_set (o, "rung", e->rung ? json_new_uint ((unsigned)e->rung) : json_new (JSON_NULL));
  json_set (o, "modifier", json_new_bool (e->rung == 0));
  json_set (o, "exact_grant", json_new_bool (e->exact_grant));
  json_set (o, "summary", json_new_string (e->summary));
  json_set (o, "capabilities", pair_json ("add", e->cap_add, "drop", e->cap_drop));
  json_set (json_get (o, "capabilities"), "keep", e->cap_keep ? strv_json (e->cap_keep) : json_new (JSON_NULL));
  json_set (o, "contradicts", strv_json (e->contradicts));
  json_set (o, "limits", strv_json (e->limits));
  json_set (o, "seccomp", pair_json ("deny", e->sys_deny, "allow", e->sys_allow));
  json_set (o, "effects", effects_json (e));
  /* Only custom rows say more (the built-in rows' objects keep their keys).  */
  if (e->custom)
    custom_json (o, e);
  json_set (o, "mechanisms", mechanisms_json (e, host));
  json_set (o, "paths", paths_json (e, host));
  json_set (o, "trust", explain_trust_json (s, host->baseline, e, value));
  return o;
}

static int
take_opt (struct shim_s *s, void *data, enum shim_key key, const char *value, entitle_error_t *err)
{
  struct explain_opts *o = data;

  if (key == KEY_JSON)
    o->json = true;
  else if (key == KEY_SCORE)
    o->score = true;
  else if (key == KEY_BUNDLE)
    o->bundle = value;
  else if (key == KEY_CONFIG)
    o->config = value;
  else if (key == KEY_MAX)
    o->max = value;
  else if (o->n == MAX_EXPLAINED)
    return entitle_make_error (err, E2BIG, "explain: more than %d entitlements", MAX_EXPLAINED);
  else
    o->names[o->n++] = value;
  (void)s;
  return 0;
}

static int
parse_opts (struct shim_s *s, struct explain_opts *o, entitle_error_t *err)
{
  int ret = shim_parse (s, o, take_opt, err);

  if (UNLIKELY (ret < 0))
    return ret;
  if (o->score && o->n > 0)
    shim_usage_error (s, "explain --score: unexpected argument `%s`", o->names[0]);
  if (!o->score && o->max)
    return entitle_make_error (err, EINVAL, "explain: --max goes with --score");
  if (o->bundle && o->config)
    return entitle_make_error (err, EINVAL, "explain: --bundle or --config, not both");
  return 0;
}

/* A modifier is explained by its name alone; anything else goes through
   the parser, for its error message.  */
static int
lookup (const struct entitle_catalogue_s *cat, const char *arg, const struct entitle_entry_s **out, entitle_error_t *err)
{
  const struct entitle_entry_s *e = entitle_catalogue_find (cat, arg, strcspn (arg, "="));
  struct entitle_request_s req;

  if (e == NULL || strchr (arg, '='))
    {
      int ret = entitle_parse_one (cat, arg, strlen (arg), &req, err);
      if (UNLIKELY (ret < 0))
        return ret;
      free (req.value);
      e = req.entry;
    }
  *out = e;
  return 0;
}

/* The catalogue as `explain` lists it: each ladder narrow to wide, the
   ladders in the order of their domains, then the modifiers by name.  */
static size_t
listing (const struct entitle_catalogue_s *cat, const struct entitle_entry_s **out)
{
  size_t i, n, k = 0;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (cat, &n);
  int d, rung, top = 0;

  for (i = 0; i < n; i++)
    top = rows[i].rung > top ? rows[i].rung : top;
  for (d = DOMAIN_NONE + 1; d <= DOMAIN_MODULES; d++)
    for (rung = 1; rung <= top; rung++)
      for (i = 0; i < n; i++)
        if ((int)rows[i].domain == d && rows[i].rung == rung)
          out[k++] = &rows[i];
  for (i = 0; i < n; i++)
    if (rows[i].rung == 0 && rows[i].custom == NULL)
      out[k++] = &rows[i];
  for (i = 0; i < n; i++)
    if (rows[i].custom)
      out[k++] = &rows[i];
  return k;
}

static void
list_text (const struct entitle_entry_s *const *e, size_t n)
{
  const char *last = NULL;
  char name[64];
  size_t i;

  for (i = 0; i < n; i++)
    {
      const char *head = e[i]->rung     ? entitle_domain_name (e[i]->domain)
                         : e[i]->custom ? "custom entitlements of the admin config, with any rung"
                                        : "modifiers, with any rung";
      const char *form = e[i]->value ? e[i]->value->form : NULL;

      if (last == NULL || strcmp (head, last) != 0)
        printf ("%s%s:\n", last ? "\n" : "", head);
      last = head;
      snprintf (name, sizeof (name), "%s%s%s", e[i]->name, form ? "=" : "", form ? form : "");
      if (strlen (name) > 20)
        printf ("  %s\n%24s", name, "");
      else
        printf ("  %-20s  ", name);
      shim_help_wrap (e[i]->summary, 24, 24);
    }
  printf ("\nEach ladder reads narrow to wide; one rung per ladder.  A modifier with a\n"
          "value may repeat.  `entitle explain NAME...` says what each one changes and\n"
          "how this host enforces it; see also entitlements(7).\n");
}

static int
explain_entitlements (struct shim_s *s, const struct explain_opts *o, entitle_error_t *err)
{
  const struct entitle_entry_s *entries[MAX_EXPLAINED];
  const char *values[MAX_EXPLAINED] = { NULL };
  struct entitle_probe_s probe;
  struct explain_baseline_s baseline = { 0 };
  struct host_s host = { NULL, NULL, &baseline };
  entitle_error_t perr = NULL;
  cleanup_free char *why_not = NULL;
  cleanup_json json_t *all = json_new (JSON_ARRAY);
  size_t i, n = 0;
  int ret;

  if (o->n == 0)
    n = listing (&s->ctx->config->catalogue, entries);
  for (i = 0; i < (size_t)o->n; i++)
    {
      const char *eq = strchr (o->names[i], '=');
      values[n] = eq ? eq + 1 : NULL;
      ret = lookup (&s->ctx->config->catalogue, o->names[i], &entries[n++], err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  if (o->n == 0 && !o->json)
    {
      list_text (entries, n);
      return 0;
    }
  ret = explain_baseline (o->bundle, o->config, &baseline, err);
  if (UNLIKELY (ret < 0))
    {
      explain_baseline_free (&baseline);
      return ret;
    }
  if (entitle_probe_host (s->ctx->config->state_dir, &probe, &perr) < 0)
    {
      why_not = strdup (perr->msg);
      host.why_not = why_not ? why_not : "out of memory";
      entitle_error_release (&perr);
    }
  else
    host.probe = &probe;
  for (i = 0; i < n; i++)
    {
      if (o->json)
        json_push (all, explain_json (s, entries[i], values[i], &host));
      else
        {
          if (i > 0)
            putchar ('\n');
          explain_text (s, entries[i], values[i], &host);
        }
    }
  explain_baseline_free (&baseline);
  return o->json ? shim_print_json (all, err) : 0;
}

static void
score_text (const struct entitle_score_s *sc)
{
  size_t i;
  bool any = false;

  for (i = 0; i < sc->n; i++)
    if (sc->items[i].cost > 0)
      {
        if (!any)
          printf ("%-20s %5s  %s\n", "CHECK", "COST", "REASON");
        any = true;
        printf ("%-20s %3d.%d  %s\n", sc->items[i].id, sc->items[i].cost / 10, sc->items[i].cost % 10,
                sc->items[i].text);
        printf ("%28slower it: %s\n", "", sc->items[i].fix);
      }
  if (!any)
    printf ("no check costs points\n");
  printf ("\nexposure %d.%d/10 %s\n", sc->total / 10, sc->total % 10, entitle_score_label (sc->total));
}

static json_t *
tenths (int v)
{
  char buf[16];
  snprintf (buf, sizeof (buf), "%d.%d", v / 10, v % 10);
  return json_new_number (buf);
}

static int
score_json (const struct entitle_score_s *sc, entitle_error_t *err)
{
  cleanup_json json_t *doc = json_new (JSON_OBJECT);
  json_t *checks = json_new (JSON_ARRAY);
  size_t i;

  json_set (doc, "exposure", tenths (sc->total));
  json_set (doc, "label", json_new_string (entitle_score_label (sc->total)));
  for (i = 0; i < sc->n; i++)
    {
      json_t *c = json_new (JSON_OBJECT);
      json_set (c, "id", json_new_string (sc->items[i].id));
      json_set (c, "cost", tenths (sc->items[i].cost));
      json_set (c, "weight", tenths (sc->items[i].weight));
      json_set (c, "reason", json_new_string (sc->items[i].text));
      json_set (c, "fix", sc->items[i].cost ? json_new_string (sc->items[i].fix) : json_new (JSON_NULL));
      json_push (checks, c);
    }
  json_set (doc, "checks", checks);
  return shim_print_json (doc, err);
}

/* --max SCORE: 0 to 10, with at most one decimal, in tenths.  */
static int
parse_max (const char *arg, int *tenths, entitle_error_t *err)
{
  const char *p = arg;
  int v = 0;

  if (*p < '0' || *p > '9')
    goto bad;
  while (*p >= '0' && *p <= '9' && v <= 100)
    v = v * 10 + (*p++ - '0') * 10;
  if (*p == '.' && p[1] >= '0' && p[1] <= '9')
    v += p[1] - '0', p += 2;
  if (*p == '\0' && v <= ENTITLE_SCORE_MAX)
    {
      *tenths = v;
      return 0;
    }
bad:
  return entitle_make_error (err, EINVAL, "explain --score: --max `%s`: expected a score from 0 to 10, such as 2.5", arg);
}

/* The config as it would run: what create would make of it (a bundle
   entitle rewrote compiles to itself), without writing anything.  */
static int
explain_score (struct shim_s *s, const struct explain_opts *o, entitle_error_t *err)
{
  cleanup_free char *path = NULL, *raw = NULL;
  cleanup_json json_t *spec = NULL;
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  struct entitle_score_s sc;
  int ret, max = ENTITLE_SCORE_MAX;
  size_t len;

  if (o->max && (ret = parse_max (o->max, &max, err)) < 0)
    return ret;
  if (o->config)
    path = strdup (o->config);
  else if (asprintf (&path, "%s/config.json", o->bundle ? o->bundle : ".") < 0)
    path = NULL;
  if (path == NULL)
    return entitle_make_error (err, ENOMEM, "out of memory");
  ret = shim_load_json (path, &raw, &len, &spec, err);
  if (ret == 0 && spec->type != JSON_OBJECT)
    ret = entitle_make_error (err, EINVAL, "`%s`: config is not a JSON object", path);
  if (ret == 0)
    ret = entitle_rewrite (s->ctx, spec, &final, err);
  if (ret >= 0)
    ret = entitle_score (spec, &final, &sc, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (o->json)
    ret = score_json (&sc, err);
  else
    score_text (&sc);
  /* For CI: the report is out, and the exit status says whether it passes.  */
  if (ret == 0 && sc.total > max)
    ret = entitle_make_error (err, ERANGE, "exposure %d.%d/10 is above --max %d.%d", sc.total / 10, sc.total % 10,
                              max / 10, max % 10);
  return ret;
}

int
shim_explain (struct shim_s *s, entitle_error_t *err)
{
  struct explain_opts o = { 0 };
  int ret = parse_opts (s, &o, err);

  if (ret == 0)
    ret = o.score ? explain_score (s, &o, err) : explain_entitlements (s, &o, err);
  if (UNLIKELY (ret < 0))
    return ret;
  fflush (stdout);
  exit (EXIT_SUCCESS);
}
