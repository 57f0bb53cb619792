/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "catalogue.h"
#include "scmp.h"
#include "score.h"

/* The exposure checks (lib/read/score.h): a table, one row per check, each a
   small function that returns what the config costs, in tenths.  */

struct check_s
{
  const char *id;
  int weight;
  int (*run) (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item);
  const char *arg;    /**< what run looks at (a capability, a namespace, a path) */
  const char *reason; /**< why failing it costs */
  /* What lowers it: the entitlements with these effects (FX_*; for a
     capability check, those that take the capability away), an applied
     entitlement with the effects of @cause being why it costs; and what
     to change in the engine's config.  */
  unsigned fix, cause;
  const char *change;
};

/* With the FX_* bits of a check's fix: the entitlements that restrict
   system calls, which give a config without seccomp a profile that denies
   by default.  */
#define FIX_SECCOMP (1u << 31)

static const char *const cap_sets[] = { "bounding", "effective", "inheritable", "permitted",
                                        "ambient", NULL };

/* Does the process hold @cap in any of its five sets?  */
static bool
holds_cap (const json_t *spec, const char *cap)
{
  const json_t *caps = json_get (json_get (spec, "process"), "capabilities");
  const char *const *set;

  for (set = cap_sets; *set; set++)
    if (json_array_find_string (json_get (caps, *set), cap) >= 0)
      return true;
  return false;
}

static bool
has_namespace (const json_t *spec, const char *type)
{
  const json_t *ns = json_get (json_get (spec, "linux"), "namespaces");
  size_t i;

  for (i = 0; ns && ns->type == JSON_ARRAY && i < ns->n; i++)
    {
      const char *t = json_string (json_get (ns->items[i], "type"));
      if (t && strcmp (t, type) == 0)
        return true;
    }
  return false;
}

static bool
lists_path (const json_t *spec, const char *key, const char *path)
{
  return json_array_find_string (json_get (json_get (spec, "linux"), key), path) >= 0;
}

/* The capabilities of @list (separated by spaces) that the process holds,
   each after a space, in @held.  */
static size_t
held_caps (const json_t *spec, const char *list, char *held, size_t size)
{
  size_t len = 0, n;
  char cap[32];

  held[0] = '\0';
  for (; *list; list += n + (list[n] == ' '))
    {
      n = strcspn (list, " ");
      snprintf (cap, sizeof (cap), "%.*s", (int)n, list);
      if (holds_cap (spec, cap) && len < size)
        len += (size_t)snprintf (held + len, size - len, " %s", cap);
    }
  return len;
}

/* Any of the capabilities @c->arg names; a row of several names those
   held in its reason.  */
static int
check_caps (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item)
{
  char held[160];

  if (held_caps (spec, c->arg, held, sizeof (held)) == 0)
    return 0;
  if (strchr (c->arg, ' '))
    snprintf (item->text, sizeof (item->text), "%s:%s", c->reason, held);
  return c->weight;
}

static int
check_seccomp (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item)
{
  const json_t *seccomp = json_get (json_get (spec, "linux"), "seccomp");
  const char *def = json_string (json_get (seccomp, "defaultAction"));
  enum entitle_scmp_act act = entitle_scmp_act_parse (def);

  if (seccomp == NULL || seccomp->type != JSON_OBJECT)
    return c->weight;
  if (act == ENTITLE_ACT_ALLOW || act == ENTITLE_ACT_LOG)
    {
      snprintf (item->text, sizeof (item->text),
                "seccomp allows by default (%s): only the calls it lists are denied", def);
      /* An entitlement adds rules, never a default.  */
      snprintf (item->fix, sizeof (item->fix), "give a profile that denies by default (the engine's default)");
      return c->weight / 2;
    }
  return 0;
}

static int
check_nnp (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item)
{
  const json_t *nnp = json_get (json_get (spec, "process"), "noNewPrivileges");
  (void)item;
  return nnp && nnp->type == JSON_TRUE ? 0 : c->weight;
}

static int
check_root (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item)
{
  const json_t *uid = json_get (json_get (json_get (spec, "process"), "user"), "uid");
  (void)item;
  if (uid && !(uid->type == JSON_NUMBER && strcmp (uid->text, "0") == 0))
    return 0;
  return has_namespace (spec, "user") ? 0 : c->weight;
}

static int
check_host_ns (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item)
{
  (void)item;
  return has_namespace (spec, c->arg) ? 0 : c->weight;
}

static int
check_masked (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item)
{
  (void)item;
  return lists_path (spec, "maskedPaths", c->arg) ? 0 : c->weight;
}

static int
check_readonly (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item)
{
  (void)item;
  if (lists_path (spec, "readonlyPaths", c->arg) || lists_path (spec, "maskedPaths", c->arg))
    return 0;
  return c->weight;
}

/* A device cgroup rule that allows every device: allow, no type (or
   "a"), no major, no minor.  */
static int
check_devices (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item)
{
  const json_t *rules = json_get (json_get (json_get (spec, "linux"), "resources"), "devices");
  size_t i;

  (void)item;
  for (i = 0; rules && rules->type == JSON_ARRAY && i < rules->n; i++)
    {
      const json_t *r = rules->items[i];
      const char *type = json_string (json_get (r, "type"));
      const json_t *allow = json_get (r, "allow");

      if (allow && allow->type == JSON_TRUE && (type == NULL || strcmp (type, "a") == 0)
          && json_get (r, "major") == NULL && json_get (r, "minor") == NULL)
        return c->weight;
    }
  return 0;
}

static int
check_lsm (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item)
{
  const json_t *process = json_get (spec, "process");
  const char *aa = json_string (json_get (process, "apparmorProfile"));
  const char *label = json_string (json_get (process, "selinuxLabel"));

  (void)item;
  if ((aa && strcmp (aa, "unconfined") == 0) || (label && strstr (label, ":spc_t")))
    return c->weight;
  return 0;
}

#define CAP_CHANGE "take it out of the engine's config (no --privileged, --cap-drop)"

static const struct check_s checks[] = {
  { "cap-sys-admin", 30, check_caps, "CAP_SYS_ADMIN", "holds CAP_SYS_ADMIN: mounts, namespaces, most of the kernel's admin interfaces", 0, 0, CAP_CHANGE },
  { "cap-sys-module", 30, check_caps, "CAP_SYS_MODULE", "holds CAP_SYS_MODULE: may load kernel code", 0, 0, CAP_CHANGE },
  { "cap-sys-ptrace", 15, check_caps, "CAP_SYS_PTRACE", "holds CAP_SYS_PTRACE: may trace and read any process it can see", 0, 0, CAP_CHANGE },
  { "cap-net-admin", 10, check_caps, "CAP_NET_ADMIN", "holds CAP_NET_ADMIN: may reconfigure the network it is in", 0, 0, CAP_CHANGE },
  { "cap-dac-read-search", 10, check_caps, "CAP_DAC_READ_SEARCH", "holds CAP_DAC_READ_SEARCH: may read any file, open_by_handle_at escapes bind mounts", 0, 0, CAP_CHANGE },
  { "cap-sys-rawio", 10, check_caps, "CAP_SYS_RAWIO", "holds CAP_SYS_RAWIO: raw I/O ports and device memory", 0, 0, CAP_CHANGE },
  { "cap-other", 10, check_caps, "CAP_SYS_BOOT CAP_SYS_TIME CAP_MAC_ADMIN CAP_MAC_OVERRIDE CAP_BPF CAP_PERFMON CAP_SYSLOG", "holds capabilities that reach the whole host", 0, 0, "take them out of the engine's config (no --privileged, --cap-drop)" },
  { "seccomp", 20, check_seccomp, NULL, "no seccomp profile: every system call is allowed", FIX_SECCOMP, 0, "give the engine's default profile (no seccomp=unconfined)" },
  { "no-new-privileges", 10, check_nnp, NULL, "noNewPrivileges is not set: setuid files and file capabilities raise privileges", FX_NNP, 0, "set process.noNewPrivileges (--security-opt no-new-privileges)" },
  { "root-without-userns", 15, check_root, NULL, "runs as uid 0 without a user namespace: root inside is root outside", 0, 0, "run as another user (process.user.uid) or in a user namespace (rootless, userns-remap)" },
  { "host-network", 15, check_host_ns, "network", "no network namespace: the host's network, its interfaces and abstract sockets", FX_NEW_NETNS, FX_HOST_NETNS, "give it the engine's network (no --network host)" },
  { "host-pid", 15, check_host_ns, "pid", "no pid namespace: sees and signals the host's processes", FX_NEW_PIDNS, FX_HOST_PIDNS, "give it a pid namespace (no --pid host)" },
  { "host-ipc", 5, check_host_ns, "ipc", "no ipc namespace: the host's shared memory and semaphores", 0, 0, "give it an ipc namespace (no --ipc host)" },
  { "kcore-unmasked", 5, check_masked, "/proc/kcore", "/proc/kcore is not masked: kernel memory", FX_SYS_RO, 0, "mask it (linux.maskedPaths, the engines' default)" },
  { "proc-sys-writable", 5, check_readonly, "/proc/sys", "/proc/sys is neither read-only nor masked: kernel settings", FX_PROC_SYS_RO, FX_CLEAR_RO, "make it read-only (linux.readonlyPaths, the engines' default)" },
  { "devices-all", 15, check_devices, NULL, "the device cgroup allows every device", FX_DEV_DEFAULT, FX_DEV_ALL, "drop the allow-all device rule (--privileged, a *:* rwm)" },
  { "lsm-unconfined", 5, check_lsm, NULL, "AppArmor unconfined or SELinux spc_t: no mandatory access control", 0, FX_LSM_UNCONFINED, "give it the engine's AppArmor profile or SELinux type" },
};

static bool
lists (const char *const *list, const char *s, size_t len)
{
  for (; list && *list; list++)
    if (strlen (*list) == len && strncmp (*list, s, len) == 0)
      return true;
  return false;
}

/* Is some capability of @held (" CAP_A CAP_B") taken away by @row (every
   one, with @all), or added by it?  */
static bool
row_caps (const struct entitle_entry_s *row, const char *held, bool add, bool all)
{
  size_t n;

  for (held++; *held; held += n + (held[n] == ' '))
    {
      bool hit;
      n = strcspn (held, " ");
      hit = add ? lists (row->cap_add, held, n) : lists (row->cap_drop, held, n) || (row->cap_keep && !lists (row->cap_keep, held, n));
      if (hit != all)
        return hit;
    }
  return all;
}

/* The effects a row applies through seccomp, from the catalogue's own
   words for them.  */
static unsigned
seccomp_effects (void)
{
  const struct entitle_fx_text_s *fx;
  unsigned bits = 0;
  size_t i, n;

  fx = entitle_fx_texts (&n);
  for (i = 0; i < n; i++)
    if (fx[i].mechs == ENTITLE_MECH_BIT (ENTITLE_MECH_SECCOMP))
      bits |= fx[i].fx;
  return bits;
}

/* Would asking for @row lower @c (@held: the capabilities it found)?  Only
   an entitlement that widens nothing is offered.  */
static bool
fixes (const struct check_s *c, const char *held, const struct entitle_entry_s *row)
{
  if (row->cap_add || row->sys_allow
      || (row->fx & (FX_HOST_NETNS | FX_HOST_PIDNS | FX_CLEAR_RO | FX_UNMASK | FX_LSM_UNCONFINED | FX_DEV_ALL)))
    return false;
  if (c->run == check_caps)
    return row_caps (row, held, false, true);
  if (c->fix & FIX_SECCOMP)
    return row->sys_deny || (row->fx & seccomp_effects ());
  return row->fx & c->fix;
}

static bool
contradicts (const struct entitle_set_s *applied, const struct entitle_entry_s *row)
{
  size_t i;

  for (i = 0; applied && i < applied->n; i++)
    {
      const struct entitle_entry_s *a = applied->items[i].entry;
      if (lists (row->contradicts, a->name, strlen (a->name)) || lists (a->contradicts, row->name, strlen (row->name)))
        return true;
    }
  return false;
}

/* `a`, `b` or `c`, after @lead, at the end of @buf.  */
static void
append_names (char *buf, size_t size, const char *lead, const struct entitle_entry_s *const *rows, size_t n)
{
  size_t i, len = strlen (buf);

  for (i = 0; i < n && len < size; i++)
    len += (size_t)snprintf (buf + len, size - len, "%s`%s%s`", i == 0 ? lead : i + 1 == n ? " or "
                                                                                           : ", ",
                             rows[i]->name, rows[i]->value ? "=..." : "");
}

/* What would lower @c, which costs: the applied entitlements that cause it,
   those that would take it away, and the change to the engine's config.  */
static void
suggest (const json_t *spec, const struct check_s *c, const struct entitle_set_s *applied,
         struct entitle_score_item_s *item)
{
  const struct entitle_entry_s *rows, *drop[64] = { NULL }, *ask[64] = { NULL };
  size_t i, n, nd = 0, na = 0, len;
  char held[160] = "";

  if (item->fix[0])
    return;
  if (c->run == check_caps)
    held_caps (spec, c->arg, held, sizeof (held));
  /* What was applied, custom rows included (the set is sorted: a row
     with several values comes once); what to ask for, of the catalogue.  */
  for (i = 0; applied && i < applied->n && nd < 64; i++)
    {
      const struct entitle_entry_s *r = applied->items[i].entry;
      if ((nd == 0 || drop[nd - 1] != r)
          && ((c->run == check_caps && row_caps (r, held, true, false)) || (r->fx & c->cause)))
        drop[nd++] = r;
    }
  rows = entitle_catalogue_rows (NULL, &n);
  for (i = 0; i < n && na < 64; i++)
    if (!(applied && entitle_set_has (applied, rows[i].name)) && fixes (c, held, &rows[i])
        && !contradicts (applied, &rows[i]))
      ask[na++] = &rows[i];
  append_names (item->fix, sizeof (item->fix), "drop ", drop, nd);
  if (na)
    append_names (item->fix, sizeof (item->fix), nd ? "; ask for " : "ask for ", ask, na);
  len = strlen (item->fix);
  snprintf (item->fix + len, sizeof (item->fix) - len, "%s%s", len ? "; or " : "", c->change);
}

int
entitle_score (const json_t *spec, const struct entitle_set_s *applied, struct entitle_score_s *out,
               entitle_error_t *err)
{
  size_t i;

  if (spec == NULL || spec->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "config is not a JSON object");
  memset (out, 0, sizeof (*out));
  for (i = 0; i < sizeof (checks) / sizeof (checks[0]); i++)
    {
      const struct check_s *c = &checks[i];
      struct entitle_score_item_s *item = &out->items[out->n++];

      item->id = c->id;
      item->weight = c->weight;
      snprintf (item->text, sizeof (item->text), "%s", c->reason);
      item->cost = c->run (spec, c, item);
      if (item->cost > 0)
        suggest (spec, c, applied, item);
      out->total += item->cost;
    }
  if (out->total > ENTITLE_SCORE_MAX)
    out->total = ENTITLE_SCORE_MAX;
  return 0;
}

const char *
entitle_score_label (int total)
{
  if (total < 25)
    return "OK";
  if (total < 50)
    return "MEDIUM";
  if (total < 75)
    return "EXPOSED";
  return "UNSAFE";
}
