/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <linux/capability.h>
#include <cmocka.h>
#include "unit.h"
#include "caps.h"
#include "compile.h"
#include "request.h"
#include "rewrite.h"
#include "context.h"
#include "json.h"
#include "seccomp-rules.h"
#include "trust.h"
#include "utils.h"

/* The whole rewrite of a config.json: sources, the trust rule, and what
   each entitlement compiles to (DESIGN §2, §3).  */

/* What `runc spec` writes, trimmed; no seccomp section, no network
   namespace, no noNewPrivileges, /proc/sys not read-only.  */
static const char runc_spec[] = "{"
                                "\"ociVersion\": \"1.0.2-dev\","
                                "\"process\": {"
                                "  \"terminal\": false,"
                                "  \"user\": {\"uid\": 0, \"gid\": 0},"
                                "  \"args\": [\"sh\"],"
                                "  \"env\": [\"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\", \"TERM=xterm\"],"
                                "  \"cwd\": \"/\","
                                "  \"capabilities\": {"
                                "    \"bounding\": [\"CAP_AUDIT_WRITE\", \"CAP_KILL\", \"CAP_NET_BIND_SERVICE\"],"
                                "    \"effective\": [\"CAP_AUDIT_WRITE\", \"CAP_KILL\", \"CAP_NET_BIND_SERVICE\"],"
                                "    \"permitted\": [\"CAP_AUDIT_WRITE\", \"CAP_KILL\", \"CAP_NET_BIND_SERVICE\"],"
                                "    \"ambient\": [\"CAP_AUDIT_WRITE\", \"CAP_KILL\", \"CAP_NET_BIND_SERVICE\"]"
                                "  },"
                                "  \"rlimits\": [{\"type\": \"RLIMIT_NOFILE\", \"hard\": 1024, \"soft\": 1024}]"
                                "},"
                                "\"root\": {\"path\": \"rootfs\", \"readonly\": true},"
                                "\"hostname\": \"runc\","
                                "\"mounts\": ["
                                "  {\"destination\": \"/proc\", \"type\": \"proc\", \"source\": \"proc\"},"
                                "  {\"destination\": \"/dev\", \"type\": \"tmpfs\", \"source\": \"tmpfs\","
                                "   \"options\": [\"nosuid\", \"strictatime\", \"mode=755\", \"size=65536k\"]}"
                                "],"
                                "\"linux\": {"
                                "  \"resources\": {\"devices\": [{\"allow\": false, \"access\": \"rwm\"}]},"
                                "  \"namespaces\": [{\"type\": \"pid\"}, {\"type\": \"ipc\"}, {\"type\": \"uts\"}, {\"type\": \"mount\"}],"
                                "  \"maskedPaths\": [\"/proc/acpi\", \"/proc/asound\", \"/proc/kcore\", \"/proc/keys\","
                                "                   \"/proc/latency_stats\", \"/proc/timer_list\", \"/proc/timer_stats\","
                                "                   \"/proc/sched_debug\", \"/sys/firmware\", \"/proc/scsi\"],"
                                "  \"readonlyPaths\": [\"/proc/bus\", \"/proc/fs\", \"/proc/irq\", \"/proc/sysrq-trigger\"]"
                                "}"
                                "}";

static const char *const cap_sets[] = { "bounding", "effective", "inheritable", "permitted", "ambient" };

static struct entitle_log_s test_log = { .path = NULL };
static char *const no_list[] = { NULL };

/* The admin config entitle_config_load gives when there is no file.  */
static void
no_config (struct entitle_config_s *cfg)
{
  memset (cfg, 0, sizeof (*cfg));
  cfg->path = (char *)CONFIG_PATH;
  cfg->present = false;
  cfg->defaults = (char **)no_list;
  cfg->grant = (char **)no_list;
  cfg->require = (char **)no_list;
}

/* The runc spec with annotation io.entitle.entitlements = @list (none
   when NULL).  */
static json_t *
spec_requesting (const char *list)
{
  json_t *spec = parse_ok (runc_spec);

  if (list)
    json_set (json_get_or_add (spec, "annotations", JSON_OBJECT), ENTITLE_ANNOTATION,
              json_new_string (list));
  return spec;
}

static void
set_annotation (json_t *spec, const char *key, const char *value)
{
  json_set (json_get_or_add (spec, "annotations", JSON_OBJECT), key, json_new_string (value));
}

static const char *
annotation (const json_t *spec, const char *key)
{
  return json_string (json_get (json_get (spec, "annotations"), key));
}

/* entitle_rewrite under @cfg, for a runtime that manages the container's
   cgroup unless @unmanaged (crun --cgroup-manager=disabled); on failure
   the message is returned in *msg.  */
static int
rewrite_for (const struct entitle_config_s *cfg, json_t *spec, bool unmanaged, char **msg)
{
  struct entitle_ctx_s ctx;
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  entitle_error_t err = NULL;
  int ret;

  entitle_ctx_init (&ctx, &test_log, cfg);
  ctx.cgroup_unmanaged = unmanaged;
  ret = entitle_rewrite (&ctx, spec, &final, &err);
  entitle_ctx_release (&ctx);
  if (ret < 0)
    {
      assert_non_null (err);
      assert_null (strchr (err->msg, '\n'));
      if (msg == NULL)
        fail_msg ("entitle_rewrite: %s", err->msg);
      *msg = strdup (err->msg);
      entitle_error_release (&err);
    }
  else
    assert_null (err);
  return ret;
}

static int
rewrite (const struct entitle_config_s *cfg, json_t *spec, char **msg)
{
  return rewrite_for (cfg, spec, false, msg);
}

/* Rewriting @spec under @cfg fails with a message that contains each of
   the strings that follow, up to NULL.  */
static void
assert_rewrite_fails (const struct entitle_config_s *cfg, json_t *spec, ...)
{
  char *msg = NULL;
  const char *needle;
  va_list ap;

  assert_true (rewrite (cfg, spec, &msg) < 0);
  va_start (ap, spec);
  while ((needle = va_arg (ap, const char *)) != NULL)
    assert_contains (msg, needle);
  va_end (ap);
  free (msg);
}

static bool
cap_in (const json_t *spec_or_process, const char *set, const char *cap)
{
  const json_t *process = json_get (spec_or_process, "process");
  const json_t *caps = json_get (process ? process : spec_or_process, "capabilities");
  return json_array_find_string (json_get (caps, set), cap) >= 0;
}

static bool
cap_in_any_set (const json_t *spec_or_process, const char *cap)
{
  size_t i;
  for (i = 0; i < sizeof (cap_sets) / sizeof (cap_sets[0]); i++)
    if (cap_in (spec_or_process, cap_sets[i], cap))
      return true;
  return false;
}

static bool
path_in (const json_t *spec, const char *key, const char *path)
{
  return json_array_find_string (json_get (json_get (spec, "linux"), key), path) >= 0;
}

static size_t
namespaces_of_type (const json_t *spec, const char *type, const json_t **last)
{
  const json_t *ns = json_get (json_get (spec, "linux"), "namespaces");
  size_t i, n = 0;

  for (i = 0; ns && i < ns->n; i++)
    {
      const char *t = json_string (json_get (ns->items[i], "type"));
      if (t && strcmp (t, type) == 0)
        {
          n++;
          if (last)
            *last = ns->items[i];
        }
    }
  return n;
}

static bool
nnp (const json_t *spec_or_process)
{
  const json_t *process = json_get (spec_or_process, "process");
  const json_t *v = json_get (process ? process : spec_or_process, "noNewPrivileges");
  return v && v->type == JSON_TRUE;
}

static bool
entitle_holds (int cap)
{
  return prctl (PR_CAPBSET_READ, cap, 0, 0, 0) == 1;
}

/* Is @cap in entitle's own bounding set (what it can add)?  */
static bool
entitle_holds_name (const char *cap)
{
  struct entitle_config_s cfg;
  struct entitle_ctx_s ctx;
  cleanup_json json_t *held = NULL;

  no_config (&cfg);
  entitle_ctx_init (&ctx, &test_log, &cfg);
  held = entitle_caps_names (&ctx);
  entitle_ctx_release (&ctx);
  return json_array_find_string (held, cap) >= 0;
}

/* Is @name allowed by some rule of the spec's seccomp profile?  */
static bool
seccomp_allows (const json_t *spec, const char *name)
{
  char **names = entitle_seccomp_allowed_names (json_get (json_get (spec, "linux"), "seccomp"));
  bool found = false;
  char **p;

  for (p = names; *p; p++)
    {
      found |= strcmp (*p, name) == 0;
      free (*p);
    }
  free (names);
  return found;
}

/* entitle_rewrite: transparency.  */

static void
test_entitle_rewrite_no_annotation_untouched (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting (NULL);
  cleanup_json json_t *orig = json_clone (spec);

  (void)state;
  no_config (&cfg);
  assert_int_equal (rewrite (&cfg, spec, NULL), 0);
  assert_true (json_equal (spec, orig));

  /* Other annotations, an empty list, a config without defaults: the same.  */
  set_annotation (spec, "org.opencontainers.image.ref.name", "x");
  set_annotation (spec, ENTITLE_ANNOTATION, "");
  json_free (orig);
  orig = json_clone (spec);
  assert_int_equal (rewrite (&cfg, spec, NULL), 0);
  assert_true (json_equal (spec, orig));
  {
    struct entitle_config_s present;
    config_from (&present, "{\"grant\":[\"*\"]}");
    assert_int_equal (rewrite (&present, spec, NULL), 0);
    assert_true (json_equal (spec, orig));
    entitle_config_free (&present);
  }
}

/* entitle_requested: process.env (DESIGN §8).  */

/* What @spec asks for, formatted with its sources; the error message
   instead when it fails (malloc'd).  */
static char *
requested_of (const json_t *spec)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  entitle_error_t err = NULL;
  char *out;

  if (entitle_requested (NULL, spec, &set, &err) < 0)
    {
      out = strdup (err->msg);
      entitle_error_release (&err);
      return out;
    }
  return entitle_set_format_sources (&set);
}

static json_t *
spec_with_env (const char *env_json)
{
  json_t *spec = spec_requesting (NULL);
  json_set (json_get (spec, "process"), "env", parse_ok (env_json));
  return spec;
}

static void
test_entitle_requested_env (void **state)
{
  static const struct
  {
    const char *env, *want;
  } cases[] = {
    { "[\"PATH=/bin\", \"ENTITLE_ENTITLEMENTS=network.none\"]", "env:network.none" },
    /* The last of duplicates, as runc gives the workload.  */
    { "[\"ENTITLE_ENTITLEMENTS=security.insecure\", \"ENTITLE_ENTITLEMENTS=network.none security.confined\"]",
      "env:network.none,env:security.confined" },
    { "[\"ENTITLE_ENTITLEMENTS=network.none\", \"ENTITLE_ENTITLEMENTS=\"]", "" },
    /* Only that name, with its `=`; what is not a string is the runtime's.  */
    { "[\"ENTITLE_ENTITLEMENTS\", 7, \"XENTITLE_ENTITLEMENTS=network.none\", \"ENTITLE_ENTITLEMENTSX=network.none\"]", "" },
    { "\"ENTITLE_ENTITLEMENTS=network.none\"", "" },
    { "[\"ENTITLE_ENTITLEMENTS=network.nnoe\"]",
      "process.env `ENTITLE_ENTITLEMENTS`: unknown entitlement `network.nnoe`: did you mean `network.none`?" },
    { "[\"ENTITLE_ENTITLEMENTS=network.none\\u0000security.insecure\"]", "process.env `ENTITLE_ENTITLEMENTS` holds a NUL byte" },
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    {
      cleanup_json json_t *spec = spec_with_env (cases[i].env);
      cleanup_free char *got = requested_of (spec);
      if (strcmp (got, cases[i].want) != 0)
        fail_msg ("env %s: got `%s`, want `%s`", cases[i].env, got, cases[i].want);
    }
}

static void
test_entitle_requested_annotation_wins (void **state)
{
  cleanup_json json_t *spec = spec_with_env ("[\"ENTITLE_ENTITLEMENTS=security.insecure\"]");
  char *got;

  (void)state;
  set_annotation (spec, ENTITLE_ANNOTATION, "network.user");
  got = requested_of (spec);
  assert_string_equal (got, "annotation:network.user");
  free (got);
  /* Empty, it still is the whole request.  */
  set_annotation (spec, ENTITLE_ANNOTATION, "");
  got = requested_of (spec);
  assert_string_equal (got, "");
  free (got);
  assert_true (entitle_request_in_annotations (spec));
  json_del (json_get (spec, "annotations"), ENTITLE_ANNOTATION);
  assert_false (entitle_request_in_annotations (spec));
}

/* The final set says where each entitlement came from.  */
static void
test_entitle_resolve_sources (void **state)
{
  struct entitle_config_s cfg;
  struct entitle_ctx_s ctx;
  cleanup_json json_t *spec = spec_with_env ("[\"ENTITLE_ENTITLEMENTS=network.user,network.egress=10.0.0.0/8:443\"]");
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  cleanup_free char *sources = NULL;
  entitle_error_t err = NULL;

  (void)state;
  config_from (&cfg, "{\"defaults\": [\"security.confined\", \"network.none\"], \"require\": [\"host.processes.none\"]}");
  entitle_ctx_init (&ctx, &test_log, &cfg);
  if (entitle_final_set (&ctx, spec, &final, &err) < 0)
    fail_msg ("entitle_final_set: %s", err->msg);
  sources = entitle_set_format_sources (&final);
  assert_string_equal (sources, "require:host.processes.none,env:network.egress=10.0.0.0/8:443,env:network.user,"
                                "defaults:security.confined");
  entitle_ctx_release (&ctx);
  entitle_config_free (&cfg);
}

/* entitle_rewrite: network.none.  */

static void
test_entitle_rewrite_network_none (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting ("network.none");
  const json_t *ns = NULL, *seccomp;
  size_t i;

  (void)state;
  no_config (&cfg);
  assert_int_equal (rewrite (&cfg, spec, NULL), 1);

  /* An own, empty network namespace; the others kept.  */
  assert_int_equal (namespaces_of_type (spec, "network", &ns), 1);
  assert_null (json_get (ns, "path"));
  assert_int_equal (namespaces_of_type (spec, "pid", NULL), 1);
  assert_int_equal (namespaces_of_type (spec, "mount", NULL), 1);
  /* Capabilities: gone from every set, the others kept.  */
  for (i = 0; i < sizeof (cap_sets) / sizeof (cap_sets[0]); i++)
    {
      assert_false (cap_in (spec, cap_sets[i], "CAP_NET_BIND_SERVICE"));
      assert_false (cap_in (spec, cap_sets[i], "CAP_NET_RAW"));
      assert_false (cap_in (spec, cap_sets[i], "CAP_NET_ADMIN"));
    }
  assert_true (cap_in (spec, "bounding", "CAP_KILL"));
  assert_true (cap_in (spec, "ambient", "CAP_AUDIT_WRITE"));
  /* Masked paths added, the engine's kept.  */
  assert_true (path_in (spec, "maskedPaths", "/proc/sys/net"));
  assert_true (path_in (spec, "maskedPaths", "/sys/class/net"));
  assert_true (path_in (spec, "maskedPaths", "/proc/kcore"));
  assert_true (path_in (spec, "readonlyPaths", "/proc/bus"));
  /* A generated seccomp profile: AF_UNIX sockets only.  */
  seccomp = json_get (json_get (spec, "linux"), "seccomp");
  assert_non_null (seccomp);
  assert_string_equal (json_string (json_get (seccomp, "defaultAction")), "SCMP_ACT_ERRNO");
  assert_true (seccomp_allows (spec, "read"));
  assert_false (seccomp_allows (spec, "socketcall"));
  /* What entitle did, recorded.  */
  assert_string_equal (annotation (spec, ENTITLE_ANNOTATION_APPLIED), "network.none");
  assert_string_equal (annotation (spec, ENTITLE_ANNOTATION_VERSION), PACKAGE_VERSION);
  assert_string_equal (annotation (spec, ENTITLE_ANNOTATION), "network.none");
  /* Nothing else: no noNewPrivileges for network.none.  */
  assert_false (nnp (spec));
}

static void
test_entitle_rewrite_network_namespace_path_kept (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting ("network.none");
  cleanup_json json_t *given = parse_ok ("{\"type\": \"network\", \"path\": \"/var/run/netns/pod\"}");
  const json_t *ns = NULL;

  (void)state;
  no_config (&cfg);
  json_push (json_get (json_get (spec, "linux"), "namespaces"), json_clone (given));
  assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  assert_int_equal (namespaces_of_type (spec, "network", &ns), 1);
  assert_true (json_equal (ns, given));
}

static void
test_entitle_rewrite_idempotent (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting ("network.none,security.confined");
  cleanup_json json_t *once = NULL, *reread = NULL;
  entitle_error_t err = NULL;
  char *text = NULL;
  size_t len;

  (void)state;
  no_config (&cfg);
  assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  once = json_clone (spec);
  /* Compiled again (the record is never trusted), to the same config.  */
  assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  assert_true (json_equal (spec, once));
  /* As on disk: written, read back, rewritten.  */
  assert_int_equal (json_generate_compact (spec, &text, &len, &err), 0);
  assert_int_equal (json_parse (text, len, &reread, &err), 0);
  assert_int_equal (rewrite (&cfg, reread, NULL), 1);
  assert_true (json_equal (reread, once));
  free (text);
}

/* The trust rule.  */

static void
test_entitle_rewrite_grant_refused (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting ("network.admin");
  cleanup_json json_t *orig = json_clone (spec);

  (void)state;
  no_config (&cfg);
  assert_rewrite_fails (&cfg, spec, "entitlement \"network.admin\" requested by the container is not granted by", CONFIG_PATH, NULL);
  assert_true (json_equal (spec, orig));
}

/* The image's label (docs/image-labels.md): the refusal names the image
   by the digest create recorded.  */
#define IMAGE_DIGEST "sha256:5049a88b0000000000000000000000000000000000000000000000000000abcd"

static void
test_entitle_rewrite_image_grant_refused (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting (NULL);
  cleanup_json json_t *orig = NULL;

  (void)state;
  set_annotation (spec, "io.entitle.image-label", "network.admin");
  set_annotation (spec, "io.entitle.image-digest", IMAGE_DIGEST);
  orig = json_clone (spec);
  no_config (&cfg);
  assert_rewrite_fails (&cfg, spec, "image " IMAGE_DIGEST ": "
                                    "entitlement \"network.admin\" requested by the container through the image's label "
                                    "`io.entitle.entitlements` is not granted by",
                        CONFIG_PATH, NULL);
  assert_true (json_equal (spec, orig));
}

static void
test_entitle_rewrite_grant_glob_accepted (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting ("network.admin");

  (void)state;
  config_from (&cfg, "{\"grant\":[\"network.*\"]}");
  assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  assert_string_equal (annotation (spec, ENTITLE_ANNOTATION_APPLIED), "network.admin");
  if (entitle_holds (CAP_NET_ADMIN))
    {
      assert_true (cap_in (spec, "bounding", "CAP_NET_ADMIN"));
      assert_true (cap_in (spec, "effective", "CAP_NET_ADMIN"));
      assert_true (cap_in (spec, "permitted", "CAP_NET_ADMIN"));
      /* uid 0 keeps them through permitted: not made ambient.  */
      assert_false (cap_in (spec, "ambient", "CAP_NET_ADMIN"));
    }
  else
    assert_false (cap_in_any_set (spec, "CAP_NET_ADMIN"));
  assert_true (cap_in (spec, "bounding", "CAP_NET_BIND_SERVICE"));
  assert_true (cap_in (spec, "bounding", "CAP_KILL"));
  /* No namespace taken away.  */
  assert_int_equal (namespaces_of_type (spec, "pid", NULL), 1);
  entitle_config_free (&cfg);
}

static void
test_entitle_rewrite_exact_grant_needs_name (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting ("network.host");

  (void)state;
  config_from (&cfg, "{\"grant\":[\"network.*\", \"*\"]}");
  assert_rewrite_fails (&cfg, spec, "\"network.host\"", NULL);
  entitle_config_free (&cfg);

  config_from (&cfg, "{\"grant\":[\"network.host\"]}");
  assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  entitle_config_free (&cfg);
}

static void
test_entitle_rewrite_narrowing_needs_no_grant (void **state)
{
  static const char *const lists[] = { "network.none", "network.user", "security.confined", "security.view",
                                       "host.devices.none", "host.processes.none" };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (lists) / sizeof (lists[0]); i++)
    {
      struct entitle_config_s cfg;
      cleanup_json json_t *spec = spec_requesting (lists[i]);
      char *msg = NULL;

      no_config (&cfg);
      if (rewrite (&cfg, spec, &msg) != 1)
        fail_msg ("`%s` refused: %s", lists[i], msg ? msg : "nothing done");
    }
}

static void
test_entitle_rewrite_widening_needs_grant (void **state)
{
  static const char *const lists[] = { "network.admin", "network.proxy", "security.admin", "security.insecure",
                                       "host.devices.admin", "host.processes.admin", "host.modules.admin",
                                       "security.memory-lock" };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (lists) / sizeof (lists[0]); i++)
    {
      struct entitle_config_s cfg;
      cleanup_json json_t *spec = spec_requesting (lists[i]);
      char *msg = NULL;
      char expect[128];

      no_config (&cfg);
      if (rewrite (&cfg, spec, &msg) >= 0)
        fail_msg ("`%s` accepted without a grant", lists[i]);
      snprintf (expect, sizeof (expect), "entitlement \"%s\" requested by the container is not granted", lists[i]);
      assert_contains (msg, expect);
      free (msg);
    }
}

/* No capabilities object: root keeps what the runtime has, but a user
   other than root keeps nothing across exec.  Capabilities entitle makes
   ambient for such a user are more than the engine gave.  */
static void
test_entitle_rewrite_non_root_without_capabilities_needs_grant (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting ("network.admin");
  char *msg = NULL;
  int ret;

  (void)state;
  no_config (&cfg);
  json_del (json_get (spec, "process"), "capabilities");
  json_set (json_get (json_get (spec, "process"), "user"), "uid", json_new_uint (1000));
  ret = rewrite (&cfg, spec, &msg);
  if (ret >= 0)
    fail_msg ("network.admin accepted without a grant; ambient: %s",
              cap_in (spec, "ambient", "CAP_NET_ADMIN") ? "CAP_NET_ADMIN" : "-");
  assert_contains (msg, "entitlement \"network.admin\" requested by the container is not granted by");
  free (msg);
}

static void
test_entitle_rewrite_non_root_without_capabilities_narrowing (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting ("network.none,security.confined");

  (void)state;
  no_config (&cfg);
  json_del (json_get (spec, "process"), "capabilities");
  json_set (json_get (json_get (spec, "process"), "user"), "uid", json_new_uint (1000));
  assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  assert_false (cap_in_any_set (spec, "CAP_NET_RAW"));
  assert_false (cap_in_any_set (spec, "CAP_SYS_ADMIN"));
  assert_false (cap_in (spec, "ambient", "CAP_KILL"));
}

/* Admin sources.  */

static void
test_entitle_rewrite_defaults_need_no_grant (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting (NULL);

  (void)state;
  config_from (&cfg, "{\"defaults\":[\"network.none\", \"host.processes.admin\"]}");
  assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  assert_string_equal (annotation (spec, ENTITLE_ANNOTATION_APPLIED), "host.processes.admin,network.none");
  assert_int_equal (namespaces_of_type (spec, "pid", NULL), 0);
  assert_int_equal (namespaces_of_type (spec, "network", NULL), 1);
  entitle_config_free (&cfg);
}

static void
test_entitle_rewrite_require_floor (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting ("security.admin");

  (void)state;
  config_from (&cfg, "{\"require\":[\"security.confined\"], \"grant\":[\"*\"]}");
  assert_rewrite_fails (&cfg, spec, "security.admin", "security.confined", NULL);
  entitle_config_free (&cfg);
}

/* An annotation is what the container's requester writes, and entitle
   skips a bundle that says `io.entitle.applied`.  The admin's `require`
   is "always applied" (DESIGN §2): a forged annotation must not lift it.  */
static void
test_entitle_rewrite_forged_applied_keeps_floor (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting (NULL);
  char *msg = NULL;
  int ret;

  (void)state;
  config_from (&cfg, "{\"require\":[\"security.confined\"]}");
  set_annotation (spec, ENTITLE_ANNOTATION_APPLIED, "security.confined");
  set_annotation (spec, ENTITLE_ANNOTATION_VERSION, PACKAGE_VERSION);
  ret = rewrite (&cfg, spec, &msg);
  /* Either refused, or the floor is in force.  */
  if (ret >= 0)
    {
      assert_true (nnp (spec));
      assert_true (path_in (spec, "readonlyPaths", "/proc/sys"));
    }
  free (msg);
  entitle_config_free (&cfg);
}

/* DESIGN §7: a required allowlist modifier is a floor.  A request outside
   it is refused naming both; one inside it replaces it (narrows); without
   a request the floor applies, and a default of that modifier gives way.  */
static void
test_entitle_rewrite_require_floors_modifiers (void **state)
{
  struct entitle_config_s cfg;

  (void)state;
  config_from (&cfg, "{\"require\":[\"network.egress=10.0.0.1/32\", \"network.bind=8000-9000\"],"
                     " \"defaults\":[\"network.egress=0.0.0.0/0\"]}");
  {
    cleanup_json json_t *spec = spec_requesting ("network.egress=0.0.0.0/0");
    assert_rewrite_fails (&cfg, spec, "\"network.egress=0.0.0.0/0\"", "\"network.egress=10.0.0.1/32\"",
                          "required by", NULL);
  }
  {
    cleanup_json json_t *spec = spec_requesting ("network.egress=10.0.0.0/8:443");
    assert_rewrite_fails (&cfg, spec, "network.egress=10.0.0.0/8:443", NULL);
  }
  {
    cleanup_json json_t *spec = spec_requesting ("network.bind=80");
    assert_rewrite_fails (&cfg, spec, "\"network.bind=80\"", "\"network.bind=8000-9000\"", NULL);
  }
  {
    cleanup_json json_t *spec = spec_requesting ("network.egress=10.0.0.1/32:443,network.bind=8080");
    assert_int_equal (rewrite (&cfg, spec, NULL), 1);
    assert_string_equal (annotation (spec, ENTITLE_ANNOTATION_APPLIED), "network.bind=8080,network.egress=10.0.0.1/32:443");
  }
  {
    cleanup_json json_t *spec = spec_requesting (NULL);
    assert_int_equal (rewrite (&cfg, spec, NULL), 1);
    assert_string_equal (annotation (spec, ENTITLE_ANNOTATION_APPLIED), "network.bind=8000-9000,network.egress=10.0.0.1/32");
  }
  entitle_config_free (&cfg);
}

/* An egress allowlist means no raw sockets: it contradicts the rungs that
   give them (DESIGN §7), from whichever source.  */
static void
test_entitle_rewrite_egress_contradictions (void **state)
{
  static const char *const rungs[] = { "network.none", "network.proxy", "network.admin", "network.host",
                                       "security.insecure" };
  struct entitle_config_s cfg;
  size_t i;

  (void)state;
  config_from (&cfg, "{\"grant\":[\"*\", \"network.host\", \"security.insecure\"]}");
  for (i = 0; i < sizeof (rungs) / sizeof (rungs[0]); i++)
    {
      char list[128];
      cleanup_json json_t *spec = NULL;
      snprintf (list, sizeof (list), "network.egress=10.0.0.1/32,%s", rungs[i]);
      spec = spec_requesting (list);
      assert_rewrite_fails (&cfg, spec, "`network.egress` contradicts", rungs[i], NULL);
    }
  entitle_config_free (&cfg);
  config_from (&cfg, "{\"defaults\":[\"network.egress=10.0.0.1/32\"], \"grant\":[\"*\"]}");
  {
    cleanup_json json_t *spec = spec_requesting ("network.proxy");
    assert_rewrite_fails (&cfg, spec, "contradicts `network.proxy`", NULL);
  }
  entitle_config_free (&cfg);
}

/* Every capability libcap knows, in all four sets (what --privileged
   gives), into @spec.  */
static void
all_caps (json_t *spec)
{
  json_t *caps = json_get (json_get (spec, "process"), "capabilities");
  size_t i;

  for (i = 0; i < caps->n; i++)
    {
      json_t *set = caps->items[i];
      cleanup_json json_t *names = entitle_caps_names (NULL);
      while (set->n)
        json_remove_at (set, set->n - 1);
      for (size_t k = 0; k < names->n; k++)
        json_push (set, json_new_string (names->items[k]->text));
    }
}

/* security.confined and security.view are upper bounds (DESIGN §7): on a
   --privileged base they keep eight (nine) capabilities; what another
   entitlement adds is added after the bound.  */
static void
test_entitle_rewrite_confined_bounds (void **state)
{
  static const char *const keep[] = { "CAP_CHOWN", "CAP_FOWNER", "CAP_MKNOD", "CAP_NET_RAW",
                                      "CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE" };
  static const struct
  {
    const char *list, *extra;
    size_t n;
  } cases[] = { { "security.confined", NULL, 8 },
                { "security.view", "CAP_DAC_READ_SEARCH", 9 },
                { "security.confined,security.memory-lock", "CAP_IPC_LOCK", 9 },
                { "security.confined,network.user", NULL, 6 } };
  struct entitle_config_s cfg;
  size_t c, k;

  (void)state;
  config_from (&cfg, "{\"grant\":[\"*\"]}");
  for (c = 0; c < sizeof (cases) / sizeof (cases[0]); c++)
    {
      cleanup_json json_t *spec = spec_requesting (cases[c].list);
      const json_t *bounding;

      all_caps (spec);
      assert_int_equal (rewrite (&cfg, spec, NULL), 1);
      bounding = json_get (json_get (json_get (spec, "process"), "capabilities"), "bounding");
      for (k = 0; k < sizeof (keep) / sizeof (keep[0]); k++)
        if (strstr (cases[c].list, "network.user") == NULL || strncmp (keep[k], "CAP_NET_", 8) != 0)
          assert_true (cap_in (spec, "bounding", keep[k]));
      if (cases[c].extra && entitle_holds_name (cases[c].extra))
        assert_true (cap_in (spec, "bounding", cases[c].extra));
      assert_false (cap_in_any_set (spec, "CAP_SYS_ADMIN"));
      assert_false (cap_in_any_set (spec, "CAP_NET_ADMIN"));
      assert_false (cap_in_any_set (spec, "CAP_BPF"));
      assert_int_equal (bounding->n, cases[c].n - (cases[c].extra && !entitle_holds_name (cases[c].extra)));
    }
  entitle_config_free (&cfg);
}

/* The runtimes apply masked and read-only paths in a private mount
   namespace only, and refuse a config that has them without one (runc:
   "unable to restrict sys entries without a private MNT namespace").  */
static void
test_entitle_rewrite_no_mount_namespace (void **state)
{
  struct entitle_config_s cfg;
  size_t i;

  (void)state;
  no_config (&cfg);
  {
    cleanup_json json_t *spec = spec_requesting ("security.confined");
    json_t *ns = json_get (json_get (spec, "linux"), "namespaces");
    json_del (json_get (spec, "linux"), "maskedPaths");
    json_del (json_get (spec, "linux"), "readonlyPaths");
    for (i = 0; i < ns->n; i++)
      if (strcmp (json_string (json_get (ns->items[i], "type")), "mount") == 0)
        json_remove_at (ns, i--);
    /* The sysctl program holds /proc/sys: no path is written.  */
    assert_int_equal (rewrite (&cfg, spec, NULL), 1);
    assert_null (json_get (json_get (spec, "linux"), "readonlyPaths"));
    assert_null (json_get (json_get (spec, "linux"), "maskedPaths"));
    json_set (json_get (spec, "annotations"), ENTITLE_ANNOTATION, json_new_string ("network.none"));
    assert_rewrite_fails (&cfg, spec, "`network.none`", "mount namespace", NULL);
    json_set (json_get (spec, "annotations"), ENTITLE_ANNOTATION, json_new_string ("host.devices.none"));
    assert_rewrite_fails (&cfg, spec, "`host.devices.none`", "mount namespace", NULL);
  }
}

/* DESIGN §8, admin rungs versus entitle's enforcement: a container that
   holds CAP_SYS_ADMIN, CAP_BPF or CAP_DAC_READ_SEARCH, whoever gave it,
   is held (bpf and open_by_handle_at denied, a cgroup namespace of its
   own); security.insecure is not.  */
static void
test_entitle_rewrite_admin_held (void **state)
{
  static const struct
  {
    const char *list;
    bool engine_all, held;
  } cases[] = { { "security.admin", false, true },
                { "host.devices.admin", false, true },
                { "network.user", true, true },
                { "network.admin", false, false },
                { "security.insecure", false, false },
                { "security.insecure", true, false } };
  struct entitle_config_s cfg;
  size_t c;

  (void)state;
  config_from (&cfg, "{\"grant\":[\"*\", \"security.insecure\"]}");
  for (c = 0; c < sizeof (cases) / sizeof (cases[0]); c++)
    {
      cleanup_json json_t *spec = spec_requesting (cases[c].list);

      if (cases[c].engine_all)
        all_caps (spec);
      assert_int_equal (rewrite (&cfg, spec, NULL), 1);
      assert_int_equal (namespaces_of_type (spec, "cgroup", NULL), cases[c].held);
      if (cases[c].held)
        {
          assert_false (seccomp_allows (spec, "bpf"));
          assert_false (seccomp_allows (spec, "open_by_handle_at"));
          assert_non_null (json_get (json_get (spec, "linux"), "seccomp"));
        }
    }
  entitle_config_free (&cfg);
}

/* @list on the runc spec edited by @edit (a function of the spec), under
   a config that grants everything: refused with a message that names each
   of the strings that follow, up to NULL.  */
static void
assert_held_refused (const char *list, void (*edit) (json_t *), bool unmanaged, ...)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting (list);
  char *msg = NULL;
  const char *needle;
  va_list ap;

  config_from (&cfg, "{\"grant\":[\"*\"], \"entitlements\": {\"example.com.bpf\": {\"seccomp\": "
                     "[{\"names\": [\"bpf\"], \"action\": \"allow\"}]}}}");
  if (edit)
    edit (spec);
  assert_true (rewrite_for (&cfg, spec, unmanaged, &msg) < 0);
  va_start (ap, unmanaged);
  while ((needle = va_arg (ap, const char *)) != NULL)
    assert_contains (msg, needle);
  va_end (ap);
  free (msg);
  entitle_config_free (&cfg);
}

static void
drop_namespace (json_t *spec, const char *type)
{
  json_t *ns = json_get (json_get (spec, "linux"), "namespaces");

  for (size_t i = 0; i < ns->n;)
    if (strcmp (json_string (json_get (ns->items[i], "type")), type) == 0)
      json_remove_at (ns, i);
    else
      i++;
}

static void
host_pid (json_t *spec)
{
  drop_namespace (spec, "pid");
}

static void
no_mount_ns (json_t *spec)
{
  drop_namespace (spec, "mount");
  json_del (json_get (spec, "linux"), "maskedPaths");
  json_del (json_get (spec, "linux"), "readonlyPaths");
}

static void
namespace_path (json_t *spec, const char *type, const char *path)
{
  json_t *n = json_new (JSON_OBJECT);

  drop_namespace (spec, type);
  json_set (n, "type", json_new_string (type));
  json_set (n, "path", json_new_string (path));
  json_push (json_get (json_get (spec, "linux"), "namespaces"), n);
}

static void
pid_path (json_t *spec)
{
  namespace_path (spec, "pid", "/proc/4242/ns/pid");
}

static void
cgroup_path (json_t *spec)
{
  namespace_path (spec, "cgroup", "/proc/4242/ns/cgroup");
}

static void
cgroup_bind (json_t *spec)
{
  json_push (json_get (spec, "mounts"),
             parse_ok ("{\"destination\": \"/sys/fs/cgroup\", \"type\": \"bind\", \"source\": "
                       "\"/sys/fs/cgroup\", \"options\": [\"rbind\", \"ro\"]}"));
}

static void
engine_ptrace (json_t *spec)
{
  json_t *caps = json_get (json_get (spec, "process"), "capabilities");
  for (size_t i = 0; i < caps->n; i++)
    json_push (caps->items[i], json_new_string ("CAP_SYS_PTRACE"));
}

/* Where the hold cannot keep the container in, the combination is
   refused, naming both (DESIGN §8).  */
static void
test_entitle_rewrite_admin_refused (void **state)
{
  (void)state;
  assert_held_refused ("security.admin,host.processes.admin", NULL, false, "`security.admin` (CAP_SYS_ADMIN)",
                       "`host.processes.admin`", "setns", NULL);
  assert_held_refused ("host.devices.admin,host.processes.admin", NULL, false, "`host.devices.admin`",
                       "`host.processes.admin`", NULL);
  assert_held_refused ("security.admin", host_pid, false, "`security.admin`", "host's pid namespace", NULL);
  assert_held_refused ("security.admin", pid_path, false, "`security.admin`", "/proc/4242/ns/pid", NULL);
  assert_held_refused ("security.admin", cgroup_path, false, "`security.admin`", "/proc/4242/ns/cgroup", NULL);
  assert_held_refused ("security.admin", cgroup_bind, false, "`security.admin`", "`/sys/fs/cgroup`", NULL);
  assert_held_refused ("security.admin", no_mount_ns, false, "`security.admin`", "mount namespace", NULL);
  assert_held_refused ("security.admin,network.egress=10.0.0.1/32", NULL, true, "`security.admin`",
                       "`network.egress`", "cgroup-manager=disabled", NULL);
  assert_held_refused ("security.admin,example.com.bpf", NULL, false, "`security.admin`", "`example.com.bpf`",
                       "bpf", NULL);
  /* The engine's CAP_SYS_PTRACE in the host's pid namespace.  */
  assert_held_refused ("host.processes.admin", engine_ptrace, false, "CAP_SYS_PTRACE of the engine's config",
                       "`host.processes.admin`", NULL);
}

/* What the refusals leave alone: security.insecure anywhere, security.admin
   with a pid namespace given by the runtime where it manages the cgroup,
   security.view with the host's processes (no CAP_SYS_ADMIN, no
   CAP_SYS_PTRACE), security.admin alone where crun manages no cgroup
   (there is no cgroup of entitle's to leave).  */
static void
test_entitle_rewrite_admin_accepted (void **state)
{
  struct entitle_config_s cfg;

  (void)state;
  config_from (&cfg, "{\"grant\":[\"*\", \"security.insecure\"]}");
  {
    cleanup_json json_t *spec = spec_requesting ("security.insecure,host.processes.admin");
    cgroup_bind (spec);
    assert_int_equal (rewrite_for (&cfg, spec, true, NULL), 1);
  }
  {
    cleanup_json json_t *spec = spec_requesting ("security.view,host.processes.admin");
    assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  }
  {
    cleanup_json json_t *spec = spec_requesting ("security.admin");
    assert_int_equal (rewrite_for (&cfg, spec, true, NULL), 1);
  }
  entitle_config_free (&cfg);
}

/* DESIGN §7: io.entitle.applied is output only.  A forged record neither
   skips the rewrite (the admin's required egress still gets its hooks)
   nor survives it.  */
static void
test_entitle_rewrite_forged_applied_overwritten (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting (NULL);

  (void)state;
  config_from (&cfg, "{\"require\":[\"network.egress=10.0.0.1/32:80\"]}");
  set_annotation (spec, ENTITLE_ANNOTATION_APPLIED, "network.egress=10.0.0.1/32:80");
  set_annotation (spec, ENTITLE_ANNOTATION_VERSION, PACKAGE_VERSION);
  assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  assert_non_null (json_get (json_get (spec, "hooks"), "createRuntime"));
  entitle_config_free (&cfg);
  /* And a record with nothing behind it is no request.  */
  no_config (&cfg);
  {
    cleanup_json json_t *forged = spec_requesting (NULL);
    cleanup_json json_t *before = NULL;
    set_annotation (forged, ENTITLE_ANNOTATION_APPLIED, "security.insecure");
    before = json_clone (forged);
    assert_int_equal (rewrite (&cfg, forged, NULL), 0);
    assert_true (json_equal (before, forged));
  }
}

/* security.confined.  */

static void
test_entitle_rewrite_security_confined (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting ("security.confined");
  json_t *caps;
  size_t i;

  (void)state;
  no_config (&cfg);
  caps = json_get (json_get (spec, "process"), "capabilities");
  for (i = 0; i < caps->n; i++)
    {
      json_push (caps->items[i], json_new_string ("CAP_DAC_OVERRIDE"));
      json_push (caps->items[i], json_new_string ("CAP_SYS_ADMIN"));
    }
  assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  assert_true (nnp (spec));
  assert_true (path_in (spec, "readonlyPaths", "/proc/sys"));
  assert_true (path_in (spec, "readonlyPaths", "/proc/bus"));
  assert_false (cap_in_any_set (spec, "CAP_DAC_OVERRIDE"));
  assert_false (cap_in_any_set (spec, "CAP_SYS_ADMIN"));
  assert_true (cap_in (spec, "bounding", "CAP_KILL"));
  assert_true (cap_in (spec, "bounding", "CAP_NET_BIND_SERVICE"));
  /* The syscalls it takes away.  */
  assert_true (seccomp_allows (spec, "read"));
  assert_false (seccomp_allows (spec, "ptrace"));
  assert_false (seccomp_allows (spec, "mount"));
  assert_false (seccomp_allows (spec, "bpf"));
  assert_false (seccomp_allows (spec, "io_uring_setup"));
  assert_false (seccomp_allows (spec, "kexec_load"));
  assert_string_equal (annotation (spec, ENTITLE_ANNOTATION_APPLIED), "security.confined");
}

/* A BPF-enforced entitlement brings entitle-hook at createRuntime, once,
   with the admin config's path (hooks run with an empty environment) and
   the hook path the config names; at poststop only where the runtime
   manages no cgroup (the hook may make one, and removes it then).  */
static void
test_entitle_rewrite_adds_hooks (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting ("network.egress=10.0.0.0/8:443");
  const json_t *hooks, *h;

  (void)state;
  config_from (&cfg, "{\"hook\":\"/opt/entitle-hook\"}");
  unsetenv ("ENTITLE_HOOK");
  assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  hooks = json_get (spec, "hooks");
  assert_non_null (hooks);
  assert_int_equal (json_get (hooks, "createRuntime")->n, 1);
  assert_null (json_get (hooks, "poststop"));
  h = json_get (hooks, "createRuntime")->items[0];
  {
    cleanup_json json_t *want = parse_ok ("{\"path\":\"/opt/entitle-hook\",\"args\":[\"entitle-hook\","
                                          "\"createRuntime\",\"--root\",\"\",\"--config\",\"" CONFIG_PATH "\"]}");
    assert_true (json_equal (h, want));
  }
  /* Compiling the rewritten config again adds nothing.  */
  {
    cleanup_entitle_set struct entitle_set_s set = { 0 };
    struct entitle_ctx_s ctx;
    entitle_error_t err = NULL;
    assert_int_equal (entitle_parse_list (NULL, "network.egress=10.0.0.0/8:443", "test", &set, &err), 0);
    entitle_ctx_init (&ctx, &test_log, &cfg);
    assert_int_equal (entitle_compile (&ctx, spec, &set, NULL, &err), 0);
    entitle_ctx_release (&ctx);
  }
  assert_int_equal (json_get (json_get (spec, "hooks"), "createRuntime")->n, 1);
  /* crun --cgroup-manager=disabled: poststop too, once; and gone again
     when compiled for a runtime that manages the cgroup.  */
  {
    cleanup_entitle_set struct entitle_set_s set = { 0 };
    struct entitle_ctx_s ctx;
    entitle_error_t err = NULL;
    assert_int_equal (entitle_parse_list (NULL, "network.egress=10.0.0.0/8:443", "test", &set, &err), 0);
    entitle_ctx_init (&ctx, &test_log, &cfg);
    ctx.cgroup_unmanaged = true;
    assert_int_equal (entitle_compile (&ctx, spec, &set, NULL, &err), 0);
    assert_int_equal (entitle_compile (&ctx, spec, &set, NULL, &err), 0);
    assert_int_equal (json_get (json_get (spec, "hooks"), "poststop")->n, 1);
    h = json_get (json_get (spec, "hooks"), "poststop")->items[0];
    assert_string_equal (json_string (json_get (h, "args")->items[1]), "poststop");
    ctx.cgroup_unmanaged = false;
    assert_int_equal (entitle_compile (&ctx, spec, &set, NULL, &err), 0);
    assert_null (json_get (json_get (spec, "hooks"), "poststop"));
    entitle_ctx_release (&ctx);
  }
  entitle_config_free (&cfg);
}

/* A label the host cannot apply is dropped from a rewritten config; one it
   can apply is kept (the memoized probes of the context stand in for the
   host).  */
static void
rewrite_with_lsm (json_t *spec, int apparmor, int selinux)
{
  struct entitle_config_s cfg;
  struct entitle_ctx_s ctx;
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  entitle_error_t err = NULL;

  no_config (&cfg);
  entitle_ctx_init (&ctx, &test_log, &cfg);
  ctx.apparmor_enabled = apparmor;
  ctx.selinux_enabled = selinux;
  assert_int_equal (entitle_rewrite (&ctx, spec, &final, &err), 1);
  entitle_ctx_release (&ctx);
}

static void
test_entitle_rewrite_drops_unusable_labels (void **state)
{
  cleanup_json json_t *a = spec_requesting ("network.none"), *b = spec_requesting ("network.none");
  json_t *pa = json_get_or_add (a, "process", JSON_OBJECT), *pb = json_get_or_add (b, "process", JSON_OBJECT);

  (void)state;
  json_set (pa, "apparmorProfile", json_new_string ("docker-default"));
  json_set (pa, "selinuxLabel", json_new_string ("system_u:system_r:container_t:s0"));
  json_set (pb, "apparmorProfile", json_new_string ("docker-default"));
  json_set (pb, "selinuxLabel", json_new_string ("system_u:system_r:container_t:s0"));
  rewrite_with_lsm (a, 0, 0);
  assert_null (json_get (json_get (a, "process"), "apparmorProfile"));
  assert_null (json_get (json_get (a, "process"), "selinuxLabel"));
  rewrite_with_lsm (b, 1, 1);
  assert_string_equal (json_string (json_get (json_get (b, "process"), "apparmorProfile")), "docker-default");
  assert_string_equal (json_string (json_get (json_get (b, "process"), "selinuxLabel")),
                       "system_u:system_r:container_t:s0");
}

/* Nothing cgroup BPF enforces: no hooks.  */
static void
test_entitle_rewrite_no_hooks_without_bpf (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = spec_requesting ("host.processes.none");

  (void)state;
  no_config (&cfg);
  assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  assert_null (json_get (spec, "hooks"));
}

/* Catalogue versions.  */

static void
test_entitle_rewrite_catalogue_version (void **state)
{
  struct entitle_config_s cfg;

  (void)state;
  no_config (&cfg);
  {
    cleanup_json json_t *spec = spec_requesting ("network.none");
    set_annotation (spec, ENTITLE_ANNOTATION_CATALOGUE, "2");
    assert_rewrite_fails (&cfg, spec, "2", NULL);
    assert_null (annotation (spec, ENTITLE_ANNOTATION_APPLIED));
  }
  {
    cleanup_json json_t *spec = spec_requesting ("network.none");
    set_annotation (spec, ENTITLE_ANNOTATION_CATALOGUE, "v1");
    assert_rewrite_fails (&cfg, spec, ENTITLE_ANNOTATION_CATALOGUE, NULL);
  }
  {
    cleanup_json json_t *spec = spec_requesting ("network.none");
    set_annotation (spec, ENTITLE_ANNOTATION_CATALOGUE, "1");
    assert_int_equal (rewrite (&cfg, spec, NULL), 1);
  }
}

/* Bad requests.  */

static void
test_entitle_rewrite_bad_annotation (void **state)
{
  struct entitle_config_s cfg;

  (void)state;
  no_config (&cfg);
  {
    cleanup_json json_t *spec = spec_requesting ("network.none,network.bogus");
    cleanup_json json_t *orig = json_clone (spec);
    assert_rewrite_fails (&cfg, spec, "unknown entitlement `network.bogus`", NULL);
    assert_true (json_equal (spec, orig));
  }
  {
    cleanup_json json_t *spec = spec_requesting ("network.none,network.user");
    assert_rewrite_fails (&cfg, spec, "network.none", "network.user", NULL);
  }
  {
    cleanup_json json_t *spec = spec_requesting (NULL);
    json_set (json_get_or_add (spec, "annotations", JSON_OBJECT), ENTITLE_ANNOTATION,
              json_new_bool (true));
    assert_rewrite_fails (&cfg, spec, ENTITLE_ANNOTATION, NULL);
  }
  {
    cleanup_json json_t *spec = json_new (JSON_ARRAY);
    assert_rewrite_fails (&cfg, spec, NULL);
  }
}

/* crun's precompiled filter would replace the profile entitle wrote.  */
static void
test_entitle_rewrite_seccomp_bpf_data_removed (void **state)
{
  struct entitle_config_s cfg;

  (void)state;
  no_config (&cfg);
  {
    cleanup_json json_t *spec = spec_requesting ("network.none");
    set_annotation (spec, "run.oci.seccomp_bpf_data", "AAAA");
    assert_int_equal (rewrite (&cfg, spec, NULL), 1);
    assert_non_null (json_get (json_get (spec, "linux"), "seccomp"));
    assert_null (json_get (json_get (spec, "annotations"), "run.oci.seccomp_bpf_data"));
  }
  /* Added to a config compiled before, which compiles to the same
     profile: removed all the same.  */
  {
    cleanup_json json_t *spec = spec_requesting ("network.none");
    assert_int_equal (rewrite (&cfg, spec, NULL), 1);
    set_annotation (spec, "run.oci.seccomp_bpf_data", "AAAA");
    assert_int_equal (rewrite (&cfg, spec, NULL), 1);
    assert_null (json_get (json_get (spec, "annotations"), "run.oci.seccomp_bpf_data"));
  }
  /* Seccomp untouched: the annotation stays.  */
  {
    cleanup_json json_t *spec = spec_requesting ("host.processes.none");
    set_annotation (spec, "run.oci.seccomp_bpf_data", "AAAA");
    assert_int_equal (rewrite (&cfg, spec, NULL), 1);
    assert_null (json_get (json_get (spec, "linux"), "seccomp"));
    assert_string_equal (annotation (spec, "run.oci.seccomp_bpf_data"), "AAAA");
  }
}

/* entitle_widens.  */

static bool
widens (const char *before, const char *after)
{
  cleanup_json json_t *b = parse_ok (before);
  cleanup_json json_t *a = parse_ok (after);
  return entitle_widens (b, a);
}

static void
test_entitle_widens_pairs (void **state)
{
  (void)state;
  /* Identical.  */
  assert_false (widens (runc_spec, runc_spec));
  /* Capabilities.  */
  assert_true (widens ("{\"process\":{\"capabilities\":{\"bounding\":[\"CAP_KILL\"]}}}",
                       "{\"process\":{\"capabilities\":{\"bounding\":[\"CAP_KILL\",\"CAP_SYS_ADMIN\"]}}}"));
  assert_true (widens ("{\"process\":{\"capabilities\":{\"ambient\":[]}}}",
                       "{\"process\":{\"capabilities\":{\"ambient\":[\"CAP_KILL\"]}}}"));
  assert_false (widens ("{\"process\":{\"capabilities\":{\"bounding\":[\"CAP_KILL\",\"CAP_CHOWN\"]}}}",
                        "{\"process\":{\"capabilities\":{\"bounding\":[\"CAP_CHOWN\"]}}}"));
  /* No capabilities object: runc and crun give none (measured).  */
  assert_false (widens ("{\"process\":{\"capabilities\":{\"bounding\":[]}}}", "{\"process\":{}}"));
  assert_true (widens ("{\"process\":{}}", "{\"process\":{\"capabilities\":{\"bounding\":[\"CAP_KILL\"]}}}"));
  assert_false (widens ("{\"process\":{}}", "{\"process\":{\"capabilities\":{\"bounding\":[]}}}"));
  /* Namespaces.  */
  assert_true (widens ("{\"linux\":{\"namespaces\":[{\"type\":\"pid\"},{\"type\":\"network\"}]}}",
                       "{\"linux\":{\"namespaces\":[{\"type\":\"pid\"}]}}"));
  assert_false (widens ("{\"linux\":{\"namespaces\":[{\"type\":\"pid\"}]}}",
                        "{\"linux\":{\"namespaces\":[{\"type\":\"pid\"},{\"type\":\"network\"}]}}"));
  /* Masked and read-only paths.  */
  assert_true (widens ("{\"linux\":{\"maskedPaths\":[\"/proc/kcore\",\"/proc/keys\"]}}",
                       "{\"linux\":{\"maskedPaths\":[\"/proc/keys\"]}}"));
  assert_false (widens ("{\"linux\":{\"maskedPaths\":[\"/proc/keys\"]}}",
                        "{\"linux\":{\"maskedPaths\":[\"/proc/keys\",\"/proc/kcore\"]}}"));
  assert_true (widens ("{\"linux\":{\"readonlyPaths\":[\"/proc/sys\"]}}", "{\"linux\":{\"readonlyPaths\":[]}}"));
  /* noNewPrivileges.  */
  assert_true (widens ("{\"process\":{\"noNewPrivileges\":true}}", "{\"process\":{\"noNewPrivileges\":false}}"));
  assert_true (widens ("{\"process\":{\"noNewPrivileges\":true}}", "{\"process\":{}}"));
  assert_false (widens ("{\"process\":{}}", "{\"process\":{\"noNewPrivileges\":true}}"));
  /* LSM labels.  */
  assert_true (widens ("{\"process\":{\"apparmorProfile\":\"docker-default\"}}",
                       "{\"process\":{\"apparmorProfile\":\"unconfined\"}}"));
  /* Seccomp.  */
  assert_true (widens ("{\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":"
                       "[{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ALLOW\"}]}}}",
                       "{\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":"
                       "[{\"names\":[\"read\",\"ptrace\"],\"action\":\"SCMP_ACT_ALLOW\"}]}}}"));
  assert_true (widens ("{\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ERRNO\"}}}", "{\"linux\":{}}"));
  assert_false (widens ("{\"linux\":{}}", "{\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ERRNO\"}}}"));
}

/* entitle_compile_process: exec --process FILE.  */

static void
test_entitle_compile_process_drops_caps (void **state)
{
  cleanup_json json_t *spec = parse_ok (runc_spec);
  json_t *process = json_get (spec, "process");
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  struct entitle_config_s cfg;
  struct entitle_ctx_s ctx;
  entitle_error_t err = NULL;
  size_t i;

  (void)state;
  no_config (&cfg);
  entitle_ctx_init (&ctx, &test_log, &cfg);
  assert_int_equal (entitle_parse_list (NULL, "network.none", "test", &set, &err), 0);
  assert_int_equal (entitle_compile_process (&ctx, process, &set, NULL, &err), 0);
  for (i = 0; i < sizeof (cap_sets) / sizeof (cap_sets[0]); i++)
    assert_false (cap_in (process, cap_sets[i], "CAP_NET_BIND_SERVICE"));
  assert_true (cap_in (process, "bounding", "CAP_KILL"));
  assert_true (cap_in (process, "ambient", "CAP_AUDIT_WRITE"));
  assert_false (nnp (process));
  entitle_set_free (&set);

  assert_int_equal (entitle_parse_list (NULL, "security.confined", "test", &set, &err), 0);
  assert_int_equal (entitle_compile_process (&ctx, process, &set, NULL, &err), 0);
  assert_true (nnp (process));
}

static void
test_entitle_compile_process_no_capabilities_object (void **state)
{
  cleanup_json json_t *process = parse_ok ("{\"args\":[\"sh\"]}");
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  struct entitle_config_s cfg;
  struct entitle_ctx_s ctx;
  entitle_error_t err = NULL;

  (void)state;
  no_config (&cfg);
  entitle_ctx_init (&ctx, &test_log, &cfg);
  assert_int_equal (entitle_parse_list (NULL, "network.none", "test", &set, &err), 0);
  assert_int_equal (entitle_compile_process (&ctx, process, &set, NULL, &err), 0);
  /* What the runtime gives, written down: none (runc 1.1 and crun 1.8 give
     a root container no capability without the object).  */
  assert_non_null (json_get (process, "capabilities"));
  for (size_t i = 0; i < sizeof (cap_sets) / sizeof (cap_sets[0]); i++)
    assert_false (json_get (json_get (process, "capabilities"), cap_sets[i])
                  && json_get (json_get (process, "capabilities"), cap_sets[i])->n > 0);
}

/* "capabilities": null is no capabilities object (Go, which runc is
   written in, reads null as a missing member): the runtime gives such an
   exec'd process the container's capabilities.  A narrowing entitlement
   needs no grant for it (issue 23, class 6: fs.write was refused as not
   granted, the null judged as empty sets and the narrowing as adding all
   entitle holds).  */
static void
test_entitle_check_process_grants_null_capabilities (void **state)
{
  static const char *const lists[] = { "fs.write=/tmp", "network.none", "security.confined" };
  struct entitle_config_s cfg;
  struct entitle_ctx_s ctx;
  size_t i;

  (void)state;
  no_config (&cfg);
  entitle_ctx_init (&ctx, &test_log, &cfg);
  for (i = 0; i < sizeof (lists) / sizeof (lists[0]); i++)
    {
      cleanup_json json_t *process = parse_ok ("{\"args\":[\"sh\"],\"capabilities\":null}");
      cleanup_entitle_set struct entitle_set_s set = { 0 };
      entitle_error_t err = NULL;

      assert_int_equal (entitle_parse_list (NULL, lists[i], "test", &set, &err), 0);
      if (entitle_check_process_grants (&ctx, process, &set, &err) < 0)
        fail_msg ("`%s` refused: %s", lists[i], err->msg);
    }
  /* A null object is a missing one, which gives a container none (runc
     1.1, crun 1.8): any capability after widens (exec fills in the
     container's before it judges).  */
  assert_true (widens ("{\"process\":{\"capabilities\":null}}",
                       "{\"process\":{\"capabilities\":{\"bounding\":[\"CAP_KILL\"]}}}"));
  entitle_ctx_release (&ctx);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_entitle_rewrite_no_annotation_untouched),
    cmocka_unit_test (test_entitle_requested_env),
    cmocka_unit_test (test_entitle_requested_annotation_wins),
    cmocka_unit_test (test_entitle_resolve_sources),
    cmocka_unit_test (test_entitle_rewrite_network_none),
    cmocka_unit_test (test_entitle_rewrite_network_namespace_path_kept),
    cmocka_unit_test (test_entitle_rewrite_idempotent),
    cmocka_unit_test (test_entitle_rewrite_grant_refused),
    cmocka_unit_test (test_entitle_rewrite_image_grant_refused),
    cmocka_unit_test (test_entitle_rewrite_grant_glob_accepted),
    cmocka_unit_test (test_entitle_rewrite_exact_grant_needs_name),
    cmocka_unit_test (test_entitle_rewrite_narrowing_needs_no_grant),
    cmocka_unit_test (test_entitle_rewrite_widening_needs_grant),
    cmocka_unit_test (test_entitle_rewrite_non_root_without_capabilities_needs_grant),
    cmocka_unit_test (test_entitle_rewrite_non_root_without_capabilities_narrowing),
    cmocka_unit_test (test_entitle_rewrite_defaults_need_no_grant),
    cmocka_unit_test (test_entitle_rewrite_require_floor),
    cmocka_unit_test (test_entitle_rewrite_forged_applied_keeps_floor),
    cmocka_unit_test (test_entitle_rewrite_require_floors_modifiers),
    cmocka_unit_test (test_entitle_rewrite_egress_contradictions),
    cmocka_unit_test (test_entitle_rewrite_confined_bounds),
    cmocka_unit_test (test_entitle_rewrite_no_mount_namespace),
    cmocka_unit_test (test_entitle_rewrite_admin_held),
    cmocka_unit_test (test_entitle_rewrite_admin_refused),
    cmocka_unit_test (test_entitle_rewrite_admin_accepted),
    cmocka_unit_test (test_entitle_rewrite_forged_applied_overwritten),
    cmocka_unit_test (test_entitle_rewrite_security_confined),
    cmocka_unit_test (test_entitle_rewrite_adds_hooks),
    cmocka_unit_test (test_entitle_rewrite_no_hooks_without_bpf),
    cmocka_unit_test (test_entitle_rewrite_drops_unusable_labels),
    cmocka_unit_test (test_entitle_rewrite_catalogue_version),
    cmocka_unit_test (test_entitle_rewrite_bad_annotation),
    cmocka_unit_test (test_entitle_rewrite_seccomp_bpf_data_removed),
    cmocka_unit_test (test_entitle_widens_pairs),
    cmocka_unit_test (test_entitle_compile_process_drops_caps),
    cmocka_unit_test (test_entitle_compile_process_no_capabilities_object),
    cmocka_unit_test (test_entitle_check_process_grants_null_capabilities),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
