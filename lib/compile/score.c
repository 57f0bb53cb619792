/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "score.h"

/* The exposure checks (lib/compile/score.h): a table, one row per check, each a
   small function that returns what the config costs, in tenths.  */

struct check_s
{
  const char *id;
  int weight;
  int (*run) (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item);
  const char *arg;    /**< what run looks at (a capability, a namespace, a path) */
  const char *reason; /**< why failing it costs */
};

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

static int
check_cap (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item)
{
  (void)item;
  return holds_cap (spec, c->arg) ? c->weight : 0;
}

/* Any of the other capabilities that reach the whole host: one row, the
   reason names those held.  */
static int
check_other_caps (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item)
{
  static const char *const caps[] = { "CAP_SYS_BOOT", "CAP_SYS_TIME", "CAP_MAC_ADMIN",
                                      "CAP_MAC_OVERRIDE", "CAP_BPF", "CAP_PERFMON",
                                      "CAP_SYSLOG", NULL };
  const char *const *cap;
  char held[160] = "";
  size_t len = 0;

  for (cap = caps; *cap; cap++)
    if (holds_cap (spec, *cap))
      len += (size_t)snprintf (held + len, sizeof (held) - len, " %s", *cap);
  if (len == 0)
    return 0;
  snprintf (item->text, sizeof (item->text), "%s:%s", c->reason, held);
  return c->weight;
}

static int
check_seccomp (const json_t *spec, const struct check_s *c, struct entitle_score_item_s *item)
{
  const json_t *seccomp = json_get (json_get (spec, "linux"), "seccomp");
  const char *def = json_string (json_get (seccomp, "defaultAction"));

  if (seccomp == NULL || seccomp->type != JSON_OBJECT)
    return c->weight;
  if (def && (strcmp (def, "SCMP_ACT_ALLOW") == 0 || strcmp (def, "SCMP_ACT_LOG") == 0))
    {
      snprintf (item->text, sizeof (item->text),
                "seccomp allows by default (%s): only the calls it lists are denied", def);
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

static const struct check_s checks[] = {
  { "cap-sys-admin", 30, check_cap, "CAP_SYS_ADMIN", "holds CAP_SYS_ADMIN: mounts, namespaces, most of the kernel's admin interfaces" },
  { "cap-sys-module", 30, check_cap, "CAP_SYS_MODULE", "holds CAP_SYS_MODULE: may load kernel code" },
  { "cap-sys-ptrace", 15, check_cap, "CAP_SYS_PTRACE", "holds CAP_SYS_PTRACE: may trace and read any process it can see" },
  { "cap-net-admin", 10, check_cap, "CAP_NET_ADMIN", "holds CAP_NET_ADMIN: may reconfigure the network it is in" },
  { "cap-dac-read-search", 10, check_cap, "CAP_DAC_READ_SEARCH", "holds CAP_DAC_READ_SEARCH: may read any file, open_by_handle_at escapes bind mounts" },
  { "cap-sys-rawio", 10, check_cap, "CAP_SYS_RAWIO", "holds CAP_SYS_RAWIO: raw I/O ports and device memory" },
  { "cap-other", 10, check_other_caps, NULL, "holds capabilities that reach the whole host" },
  { "seccomp", 20, check_seccomp, NULL, "no seccomp profile: every system call is allowed" },
  { "no-new-privileges", 10, check_nnp, NULL, "noNewPrivileges is not set: setuid files and file capabilities raise privileges" },
  { "root-without-userns", 15, check_root, NULL, "runs as uid 0 without a user namespace: root inside is root outside" },
  { "host-network", 15, check_host_ns, "network", "no network namespace: the host's network, its interfaces and abstract sockets" },
  { "host-pid", 15, check_host_ns, "pid", "no pid namespace: sees and signals the host's processes" },
  { "host-ipc", 5, check_host_ns, "ipc", "no ipc namespace: the host's shared memory and semaphores" },
  { "kcore-unmasked", 5, check_masked, "/proc/kcore", "/proc/kcore is not masked: kernel memory" },
  { "proc-sys-writable", 5, check_readonly, "/proc/sys", "/proc/sys is neither read-only nor masked: kernel settings" },
  { "devices-all", 15, check_devices, NULL, "the device cgroup allows every device" },
  { "lsm-unconfined", 5, check_lsm, NULL, "AppArmor unconfined or SELinux spc_t: no mandatory access control" },
};

int
entitle_score (const json_t *spec, struct entitle_score_s *out, entitle_error_t *err)
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
