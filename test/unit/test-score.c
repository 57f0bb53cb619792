/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit.h"
#include "json.h"
#include "score.h"

/* The exposure rating of `entitle explain --score` (lib/read/score.c), on
   hand-written configs: exact totals and the checks that cost.  */

/* What `runc spec` writes, trimmed to what the checks read.  */
#define RUNC_PROCESS(caps, extra)                                                      \
  "\"process\": {\"user\": {\"uid\": 0, \"gid\": 0}, \"noNewPrivileges\": true," extra \
  "\"capabilities\": {\"bounding\": [" caps "], \"effective\": [" caps "],"            \
  " \"permitted\": [" caps "]}}"

#define RUNC_LINUX(extra)                                                                   \
  "\"linux\": {\"resources\": {\"devices\": [{\"allow\": false, \"access\": \"rwm\"}]},"    \
  " \"namespaces\": [{\"type\": \"pid\"}, {\"type\": \"network\"}, {\"type\": \"ipc\"},"    \
  "  {\"type\": \"uts\"}, {\"type\": \"mount\"}" extra "],"                                 \
  " \"maskedPaths\": [\"/proc/acpi\", \"/proc/kcore\", \"/proc/keys\", \"/sys/firmware\"]," \
  " \"readonlyPaths\": [\"/proc/bus\", \"/proc/fs\", \"/proc/irq\", \"/proc/sys\", \"/proc/sysrq-trigger\"]"

#define RUNC_CAPS "\"CAP_AUDIT_WRITE\", \"CAP_KILL\", \"CAP_NET_BIND_SERVICE\""

static const char runc_spec[] = "{" RUNC_PROCESS (RUNC_CAPS, "") "," RUNC_LINUX ("") "}}";

/* Rate @text; check the total and that exactly the checks @ids (a
   space-separated list, in table order) cost points.  */
static void
rated (const char *text, int total, const char *label, const char *ids)
{
  cleanup_json json_t *spec = parse_ok (text);
  struct entitle_score_s s;
  entitle_error_t err = NULL;
  char got[512] = "";
  size_t i;

  assert_int_equal (entitle_score (spec, NULL, &s, &err), 0);
  for (i = 0; i < s.n; i++)
    if (s.items[i].cost > 0)
      {
        if (*got)
          strcat (got, " ");
        strcat (got, s.items[i].id);
        assert_true (s.items[i].cost <= s.items[i].weight);
        assert_null (strchr (s.items[i].text, '\n'));
      }
  assert_string_equal (got, ids);
  assert_int_equal (s.total, total);
  assert_string_equal (entitle_score_label (s.total), label);
}

static const struct entitle_score_item_s *
item (const struct entitle_score_s *s, const char *id)
{
  size_t i;
  for (i = 0; i < s->n; i++)
    if (strcmp (s->items[i].id, id) == 0)
      return &s->items[i];
  fail_msg ("no check %s", id);
  return NULL;
}

static void
test_score_runc_spec (void **state)
{
  (void)state;
  /* No seccomp (2.0), root without a user namespace (1.5).  */
  rated (runc_spec, 35, "MEDIUM", "seccomp root-without-userns");
}

static void
test_score_runc_spec_sys_admin (void **state)
{
  (void)state;
  rated ("{" RUNC_PROCESS (RUNC_CAPS ", \"CAP_SYS_ADMIN\"", "") "," RUNC_LINUX ("") "}}", 65,
         "EXPOSED", "cap-sys-admin seccomp root-without-userns");
}

/* What security.confined and network.none leave: root (a user namespace
   would take that away too).  */
static void
test_score_confined (void **state)
{
  (void)state;
  rated ("{" RUNC_PROCESS ("\"CAP_KILL\"", "") ","
                                               " \"linux\": {\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": []},"
                                               " \"namespaces\": [{\"type\": \"pid\"}, {\"type\": \"network\"}, {\"type\": \"ipc\"}],"
                                               " \"maskedPaths\": [\"/proc/kcore\"], \"readonlyPaths\": [\"/proc/sys\"]}}",
         15, "OK", "root-without-userns");
  rated ("{" RUNC_PROCESS ("\"CAP_KILL\"", "") "," RUNC_LINUX (", {\"type\": \"user\"}") ", \"seccomp\": {\"defaultAction\": \"SCMP_ACT_ERRNO\"}}}",
         0, "OK", "");
}

/* An allowing default costs half; a non-root user passes the root check;
   noNewPrivileges unset costs 1.0.  */
static void
test_score_allow_default_seccomp (void **state)
{
  (void)state;
  rated ("{\"process\": {\"user\": {\"uid\": 1000}},"
         " \"linux\": {\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": []},"
         " \"namespaces\": [{\"type\": \"pid\"}, {\"type\": \"network\"}, {\"type\": \"ipc\"}],"
         " \"maskedPaths\": [\"/proc/kcore\", \"/proc/sys\"]}}",
         20, "OK", "seccomp no-new-privileges");
}

/* Host namespaces, unmasked paths, all devices, no MAC: the lot, capped.  */
static void
test_score_privileged_capped (void **state)
{
  cleanup_json json_t *spec = parse_ok (
      "{\"process\": {\"user\": {\"uid\": 0}, \"apparmorProfile\": \"unconfined\","
      " \"capabilities\": {\"bounding\": [\"CAP_SYS_ADMIN\", \"CAP_SYS_MODULE\", \"CAP_SYS_PTRACE\","
      " \"CAP_NET_ADMIN\", \"CAP_DAC_READ_SEARCH\", \"CAP_SYS_RAWIO\", \"CAP_BPF\", \"CAP_SYS_TIME\"]}},"
      " \"linux\": {\"resources\": {\"devices\": [{\"allow\": true, \"access\": \"rwm\"}]}}}");
  struct entitle_score_s s;
  entitle_error_t err = NULL;
  int sum = 0;
  size_t i;

  (void)state;
  assert_int_equal (entitle_score (spec, NULL, &s, &err), 0);
  for (i = 0; i < s.n; i++)
    {
      assert_int_equal (s.items[i].cost, s.items[i].weight);
      sum += s.items[i].cost;
    }
  assert_int_equal (sum, 225);
  assert_int_equal (s.total, 100);
  assert_string_equal (entitle_score_label (s.total), "UNSAFE");
  assert_string_equal (item (&s, "cap-other")->text,
                       "holds capabilities that reach the whole host: CAP_SYS_TIME CAP_BPF");
  assert_string_equal (item (&s, "seccomp")->text, "no seccomp profile: every system call is allowed");
}

/* Each namespace and path check alone, on the runc spec's config.  */
static void
test_score_namespaces_and_paths (void **state)
{
  (void)state;
  rated ("{" RUNC_PROCESS (RUNC_CAPS, "") ", \"linux\": {\"namespaces\": [{\"type\": \"user\"}],"
                                          " \"seccomp\": {\"defaultAction\": \"SCMP_ACT_LOG\"},"
                                          " \"resources\": {\"devices\": [{\"allow\": true, \"type\": \"c\", \"major\": 1, \"minor\": 3}]}}}",
         55, "EXPOSED", "seccomp host-network host-pid host-ipc kcore-unmasked proc-sys-writable");
  rated ("{\"process\": {\"user\": {\"uid\": 0}, \"noNewPrivileges\": false, \"selinuxLabel\": \"system_u:system_r:spc_t:s0\"},"
         " \"linux\": {\"namespaces\": [{\"type\": \"pid\"}, {\"type\": \"network\"}, {\"type\": \"ipc\"}],"
         " \"seccomp\": {\"defaultAction\": \"SCMP_ACT_ERRNO\"},"
         " \"maskedPaths\": [\"/proc/kcore\"], \"readonlyPaths\": [\"/proc/sys\"],"
         " \"resources\": {\"devices\": [{\"allow\": true, \"type\": \"a\", \"access\": \"rwm\"}]}}}",
         45, "MEDIUM", "no-new-privileges root-without-userns devices-all lsm-unconfined");
}

/* The fix of @id when @text is rated as made by @applied (a list, or NULL).  */
static void
fix_is (const char *text, const char *applied, const char *id, const char *fix)
{
  cleanup_json json_t *spec = parse_ok (text);
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  struct entitle_score_s s;
  entitle_error_t err = NULL;

  if (applied)
    assert_int_equal (entitle_parse_list (NULL, applied, "test", &set, &err), 0);
  assert_int_equal (entitle_score (spec, applied ? &set : NULL, &s, &err), 0);
  assert_string_equal (item (&s, id)->fix, fix);
}

/* Per check, what lowers it: the catalogue's entitlements that take it
   away and widen nothing, the applied ones that cause it, the engine's
   change; nothing for a check that costs nothing.  */
static void
test_score_fixes (void **state)
{
  static const char admin[] = "{" RUNC_PROCESS (RUNC_CAPS ", \"CAP_SYS_ADMIN\"", "") "," RUNC_LINUX ("") "}}";
  static const char no_netns[] = "{" RUNC_PROCESS (RUNC_CAPS, "") ", \"linux\": {\"namespaces\": [{\"type\": \"pid\"}]}}";

  (void)state;
  fix_is (admin, NULL, "cap-sys-admin",
          "ask for `host.devices.none`, `security.confined` or `security.view`; or take it out of the engine's "
          "config (no --privileged, --cap-drop)");
  fix_is (admin, "security.admin", "cap-sys-admin",
          "drop `security.admin`; ask for `host.devices.none`, `security.confined` or `security.view`; or take it "
          "out of the engine's config (no --privileged, --cap-drop)");
  fix_is (admin, NULL, "cap-sys-module", "");
  fix_is (admin, NULL, "seccomp",
          "ask for `host.devices.none`, `network.none`, `network.user`, `security.confined` or `security.view`; "
          "or give the engine's default profile (no seccomp=unconfined)");
  fix_is (admin, NULL, "root-without-userns",
          "run as another user (process.user.uid) or in a user namespace (rootless, userns-remap)");
  /* An entitlement adds rules to a profile, never its default.  */
  fix_is ("{\"linux\": {\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\"}}}", NULL, "seccomp",
          "give a profile that denies by default (the engine's default)");
  /* What contradicts an applied entitlement is not offered.  */
  fix_is (no_netns, NULL, "host-network", "ask for `network.none`; or give it the engine's network (no --network host)");
  fix_is (no_netns, "network.egress=10.0.0.0/8", "host-network", "give it the engine's network (no --network host)");
  fix_is (no_netns, "network.host", "host-network",
          "drop `network.host`; ask for `network.none`; or give it the engine's network (no --network host)");
  /* Several capabilities: only what takes them all away.  */
  fix_is ("{" RUNC_PROCESS ("\"CAP_BPF\", \"CAP_SYS_TIME\"", "") "}", "security.insecure", "cap-other",
          "drop `security.insecure`; ask for `security.confined` or `security.view`; or take them out of the engine's config (no --privileged, "
          "--cap-drop)");
}

static void
test_score_labels (void **state)
{
  (void)state;
  assert_string_equal (entitle_score_label (0), "OK");
  assert_string_equal (entitle_score_label (24), "OK");
  assert_string_equal (entitle_score_label (25), "MEDIUM");
  assert_string_equal (entitle_score_label (49), "MEDIUM");
  assert_string_equal (entitle_score_label (50), "EXPOSED");
  assert_string_equal (entitle_score_label (74), "EXPOSED");
  assert_string_equal (entitle_score_label (75), "UNSAFE");
  assert_string_equal (entitle_score_label (100), "UNSAFE");
}

static void
test_score_not_an_object (void **state)
{
  cleanup_json json_t *spec = parse_ok ("[1]");
  struct entitle_score_s s;
  entitle_error_t err = NULL;

  (void)state;
  assert_true (entitle_score (spec, NULL, &s, &err) < 0);
  assert_string_equal (err->msg, "config is not a JSON object");
  entitle_error_release (&err);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_score_runc_spec),
    cmocka_unit_test (test_score_runc_spec_sys_admin),
    cmocka_unit_test (test_score_confined),
    cmocka_unit_test (test_score_allow_default_seccomp),
    cmocka_unit_test (test_score_privileged_capped),
    cmocka_unit_test (test_score_namespaces_and_paths),
    cmocka_unit_test (test_score_fixes),
    cmocka_unit_test (test_score_labels),
    cmocka_unit_test (test_score_not_an_object),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
