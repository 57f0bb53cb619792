/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <arpa/inet.h>
#include <sys/socket.h>
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
#include "bpf-plan.h"
#include "catalogue.h"
#include "entitlements.h"
#include "probe.h"
#include "utils.h"

/* The probe's JSON form (lib/kernel/probe.c): what the hook writes, the
   shim reads back.  */

static void
sample (struct entitle_probe_s *p)
{
  memset (p, 0, sizeof (*p));
  strcpy (p->kernel, "6.18.0-entitle");
  p->seccomp = true;
  p->seccomp_flags = 1u | 2u | 8u | 32u;
  p->bpf_lsm_listed = true;
  strcpy (p->bpf_lsm_error, "bpf_prog_attach: Operation not permitted");
  strcpy (p->lsm_cgroup_error, "attached but never ran");
  strcpy (p->lockdown, "none");
  p->cgroup_bpf = ATTACH_BIT (ATTACH_SOCK_CREATE) | ATTACH_BIT (ATTACH_CONNECT4) | ATTACH_BIT (ATTACH_SYSCTL)
                  | ATTACH_BIT (ATTACH_DEVICE);
  strcpy (p->cgroup2, "/sys/fs/cgroup/unified");
  p->landlock_abi = 7;
  p->apparmor = true;
}

static void
assert_probe_equal (const struct entitle_probe_s *a, const struct entitle_probe_s *b)
{
  assert_string_equal (a->kernel, b->kernel);
  assert_int_equal (a->seccomp, b->seccomp);
  assert_int_equal (a->seccomp_flags, b->seccomp_flags);
  assert_int_equal (a->seccomp_extended, b->seccomp_extended);
  assert_int_equal (a->checmate, b->checmate);
  assert_int_equal (a->bpf_lsm_listed, b->bpf_lsm_listed);
  assert_int_equal (a->bpf_lsm, b->bpf_lsm);
  assert_string_equal (a->bpf_lsm_error, b->bpf_lsm_error);
  assert_int_equal (a->lsm_cgroup, b->lsm_cgroup);
  assert_string_equal (a->lsm_cgroup_error, b->lsm_cgroup_error);
  assert_string_equal (a->lockdown, b->lockdown);
  assert_int_equal (a->cgroup_bpf, b->cgroup_bpf);
  assert_string_equal (a->cgroup2, b->cgroup2);
  assert_int_equal (a->landlock_abi, b->landlock_abi);
  assert_int_equal (a->selinux, b->selinux);
  assert_int_equal (a->apparmor, b->apparmor);
}

static json_t *
parse_probe_text (const char *text)
{
  return parse_ok (text);
}

static void
test_probe_json_round_trip (void **state)
{
  struct entitle_probe_s p, q;
  entitle_error_t err = NULL;
  cleanup_free char *text = NULL;
  cleanup_json json_t *doc = NULL;

  (void)state;
  sample (&p);
  text = entitle_probe_to_json (&p);
  assert_non_null (text);
  doc = parse_probe_text (text);
  memset (&q, 0xa5, sizeof (q));
  assert_int_equal (entitle_probe_from_json (&q, doc, &err), 0);
  assert_string_equal (q.kernel, p.kernel);
  assert_true (q.seccomp);
  assert_int_equal (q.seccomp_flags, p.seccomp_flags);
  assert_false (q.seccomp_extended);
  assert_false (q.checmate);
  assert_true (q.bpf_lsm_listed);
  assert_false (q.bpf_lsm);
  assert_string_equal (q.bpf_lsm_error, p.bpf_lsm_error);
  assert_false (q.lsm_cgroup);
  assert_string_equal (q.lockdown, "none");
  assert_int_equal (q.cgroup_bpf, p.cgroup_bpf);
  assert_string_equal (q.cgroup2, p.cgroup2);
  assert_int_equal (q.landlock_abi, 7);
  assert_false (q.selinux);
  assert_true (q.apparmor);
}

/* The keys people read: flags by name, the BPF LSM facts in one object.  */
static void
test_probe_json_readable_keys (void **state)
{
  struct entitle_probe_s p;
  cleanup_free char *text = NULL;
  cleanup_json json_t *doc = NULL;
  const json_t *flags, *cg;

  (void)state;
  sample (&p);
  text = entitle_probe_to_json (&p);
  doc = parse_probe_text (text);
  flags = json_get (doc, "seccomp_flags");
  assert_int_equal (flags->n, 4);
  assert_string_equal (json_string (flags->items[0]), "tsync");
  assert_string_equal (json_string (flags->items[1]), "log");
  assert_string_equal (json_string (flags->items[2]), "new_listener");
  assert_string_equal (json_string (flags->items[3]), "wait_killable_recv");
  cg = json_get (doc, "cgroup_bpf");
  assert_int_equal (cg->n, 4);
  assert_string_equal (json_string (cg->items[0]), "sock_create");
  assert_string_equal (json_string (cg->items[1]), "connect4");
  assert_string_equal (json_string (cg->items[2]), "sysctl");
  assert_string_equal (json_string (cg->items[3]), "device");
  assert_int_equal (json_get (json_get (doc, "bpf_lsm"), "works")->type, JSON_FALSE);
  assert_string_equal (json_get (doc, "landlock_abi")->text, "7");
}

/* Every bit survives, and an empty probe too.  */
static void
test_probe_json_round_trip_all_and_nothing (void **state)
{
  struct entitle_probe_s p, q;
  entitle_error_t err = NULL;
  int k;

  (void)state;
  for (k = 0; k < 2; k++)
    {
      cleanup_free char *text = NULL;
      cleanup_json json_t *doc = NULL;

      memset (&p, 0, sizeof (p));
      if (k == 1)
        {
          p.seccomp_flags = 63;
          p.cgroup_bpf = ATTACH_ALL;
          p.seccomp = p.seccomp_extended = p.checmate = p.bpf_lsm = p.bpf_lsm_listed = true;
          p.lsm_cgroup = p.selinux = p.apparmor = true;
          memset (p.cgroup2, 'x', sizeof (p.cgroup2) - 1);
        }
      text = entitle_probe_to_json (&p);
      doc = parse_probe_text (text);
      assert_int_equal (entitle_probe_from_json (&q, doc, &err), 0);
      assert_probe_equal (&p, &q);
    }
}

/* @text must be refused with a message containing @msg, and leave @p as it was.  */
static void
refused (const char *text, const char *msg)
{
  struct entitle_probe_s p, before;
  entitle_error_t err = NULL;
  cleanup_json json_t *doc = parse_ok (text);

  sample (&p);
  memcpy (&before, &p, sizeof (p));
  if (entitle_probe_from_json (&p, doc, &err) >= 0)
    fail_msg ("accepted: %s", text);
  assert_contains (err->msg, msg);
  assert_null (strchr (err->msg, '\n'));
  assert_memory_equal (&p, &before, sizeof (p));
  entitle_error_release (&err);
}

#define GOOD_TAIL                                                                                                 \
  "\"seccomp_filter_extended\":false,\"checmate\":false,"                                                         \
  "\"bpf_lsm\":{\"listed\":false,\"works\":false,\"error\":\"\"},\"lsm_cgroup\":false,\"lsm_cgroup_error\":\"\"," \
  "\"lockdown\":\"\",\"cgroup_bpf\":[],\"cgroup2\":\"\",\"landlock_abi\":0,"                                      \
  "\"selinux\":false,\"apparmor\":false"

static void
test_probe_json_malformed_refused (void **state)
{
  (void)state;
  refused ("[]", "probe: not a JSON object");
  refused ("{}", "probe: missing key `kernel`");
  refused ("{\"kernel\":1}", "probe: `kernel` must be a string");
  refused ("{\"kernel\":\"6\",\"seccomp\":\"yes\"}", "probe: `seccomp` must be a boolean");
  refused ("{\"kernel\":\"6\",\"seccomp\":true,\"seccomp_flags\":[\"tsync\",\"bogus\"]," GOOD_TAIL "}",
           "probe: `seccomp_flags` has an unknown item `bogus`");
  refused ("{\"kernel\":\"6\",\"seccomp\":true,\"seccomp_flags\":[1]," GOOD_TAIL "}",
           "probe: `seccomp_flags` has an unknown item `(not a string)`");
  refused ("{\"kernel\":\"6\",\"seccomp\":true,\"seccomp_flags\":{}," GOOD_TAIL "}",
           "probe: `seccomp_flags` must be an array");
  refused ("{\"kernel\":\"6\",\"seccomp\":true,\"seccomp_flags\":[],"
           "\"seccomp_filter_extended\":false,\"checmate\":false,\"bpf_lsm\":{\"listed\":false}}",
           "`bpf_lsm`: probe: missing key `works`");
  refused ("{\"kernel\":\"6\",\"seccomp\":true,\"seccomp_flags\":[],"
           "\"seccomp_filter_extended\":false,\"checmate\":false,\"bpf_lsm\":[]}",
           "probe: `bpf_lsm` must be an object");
  refused ("{\"kernel\":\""
           "0123456789012345678901234567890123456789012345678901234567890123456789"
           "\"}",
           "probe: `kernel` is longer than 64 bytes");
}

static void
test_probe_json_bad_abi_refused (void **state)
{
  static const char *const bad[] = { "-1", "1.5", "1e3", "99999999999999999999" };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (bad) / sizeof (bad[0]); i++)
    {
      char text[1024], msg[128];
      snprintf (text, sizeof (text),
                "{\"kernel\":\"6\",\"seccomp\":true,\"seccomp_flags\":[],"
                "\"seccomp_filter_extended\":false,\"checmate\":false,"
                "\"bpf_lsm\":{\"listed\":false,\"works\":false,\"error\":\"\"},\"lsm_cgroup\":false,\"lsm_cgroup_error\":\"\","
                "\"lockdown\":\"\",\"cgroup_bpf\":[],\"cgroup2\":\"\",\"landlock_abi\":%s,"
                "\"selinux\":false,\"apparmor\":false}",
                bad[i]);
      snprintf (msg, sizeof (msg), "probe: `landlock_abi` must be a whole number >= 0, not `%s`", bad[i]);
      refused (text, msg);
    }
}

/* Keys a newer hook adds are ignored.  */
static void
test_probe_json_unknown_keys_ignored (void **state)
{
  struct entitle_probe_s p;
  entitle_error_t err = NULL;
  cleanup_json json_t *doc = parse_ok ("{\"kernel\":\"6\",\"seccomp\":true,\"seccomp_flags\":[],"
                                       "\"future\":{\"x\":1}," GOOD_TAIL "}");

  (void)state;
  assert_int_equal (entitle_probe_from_json (&p, doc, &err), 0);
  assert_string_equal (p.kernel, "6");
}

/* The programs a set needs are the union of its rows' (lib/compile/bpf-plan.c).  */
static unsigned
needed (const char *list)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  entitle_error_t err = NULL;

  if (entitle_parse_list (NULL, list, "test", &set, &err) < 0)
    fail_msg ("%s: %s", list, err->msg);
  return entitle_bpf_needed (&set);
}

#define B(a) ATTACH_BIT (ATTACH_##a)

static void
test_probe_bpf_needed (void **state)
{
  const unsigned egress = B (CONNECT4) | B (CONNECT6) | B (SENDMSG4) | B (SENDMSG6) | B (SOCK_CREATE) | B (SKB_EGRESS);

  (void)state;
  assert_int_equal (needed ("network.none"), B (SOCK_CREATE));
  assert_int_equal (needed ("host.processes.none,network.user"), B (SOCK_CREATE));
  assert_int_equal (needed ("network.egress=10.0.0.0/8:443,network.user"), egress);
  assert_int_equal (needed ("network.bind=80,network.bind-map=80:8080"), B (BIND4) | B (BIND6) | B (SKB_INGRESS));
  assert_int_equal (needed ("network.bind-map=80:8080"), B (BIND4) | B (BIND6));
  assert_int_equal (needed ("security.confined"), B (SYSCTL));
  /* security.view keeps sysctl writes to the runtime's /proc/sys rules (DESIGN §3).  */
  assert_int_equal (needed ("network.egress=::/0,security.view"), egress);
  assert_int_equal (needed ("network.admin,security.admin,fs.write=/tmp"), 0);
  assert_int_equal (needed (""), 0);
}

/* The plan holds what the programs hold (bpf/progs/policy.h) and refuses
   more, at create, whatever on_unenforceable says; rules are kept once,
   with the host bits of each CIDR cleared.  */
static int
plan_of (const char *list, const char *spec_text, struct entitle_bpf_plan_s *plan, char **msg)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  cleanup_json json_t *spec = parse_ok (spec_text ? spec_text : "{}");
  entitle_error_t err = NULL;
  int ret;

  if (entitle_parse_list (NULL, list, "test", &set, &err) < 0)
    fail_msg ("%s: %s", list, err->msg);
  cleanup_strv char **keys = entitle_sysctl_keys (spec);
  ret = entitle_bpf_plan (plan, &set, keys, &err);
  if (ret < 0)
    {
      *msg = strdup (err->msg);
      entitle_error_release (&err);
    }
  return ret;
}

/* @n modifiers "NAME=VALUE(i)", comma-separated (malloc'd).  */
static char *
repeated (const char *name, int n, bool ports)
{
  size_t cap = (size_t)n * 64 + 1, len = 0;
  char *out = calloc (1, cap);
  int i;

  for (i = 0; i < n; i++)
    if (ports)
      len += (size_t)snprintf (out + len, cap - len, "%s%s=%d", i ? "," : "", name, 1000 + i);
    else
      len += (size_t)snprintf (out + len, cap - len, "%s%s=10.%d.%d.0/24", i ? "," : "", name, i / 250 + 1, i % 250 + 1);
  return out;
}

static void
test_probe_bpf_plan_limits (void **state)
{
  struct entitle_bpf_plan_s plan;
  char *msg = NULL;

  (void)state;
  {
    cleanup_free char *max = repeated ("network.egress", ENTITLE_MAX_EGRESS, false);
    cleanup_free char *over = repeated ("network.egress", ENTITLE_MAX_EGRESS + 1, false);
    assert_int_equal (plan_of (max, NULL, &plan, &msg), 1);
    assert_int_equal (plan.policy.n_egress, ENTITLE_MAX_EGRESS);
    assert_true (plan_of (over, NULL, &plan, &msg) < 0);
    assert_contains (msg, "more than 64 rules");
    free (msg);
  }
  {
    cleanup_free char *over = repeated ("network.bind", ENTITLE_MAX_RANGES + 1, true);
    assert_true (plan_of (over, NULL, &plan, &msg) < 0);
    assert_contains (msg, "network.bind");
    free (msg);
  }
  /* Once each, host bits cleared: 10.1.2.3/8 is 10.0.0.0/8.  */
  assert_int_equal (plan_of ("network.egress=10.1.2.3/8,network.egress=10.0.0.0/8,network.egress=::1/128:53", NULL, &plan, &msg), 1);
  assert_int_equal (plan.policy.n_egress, 2);
  assert_int_equal (plan.policy.egress[0].net[0], htonl (0x0a000000));
  assert_int_equal (plan.policy.egress[0].mask[0], htonl (0xff000000));
  assert_int_equal (plan.policy.egress[0].lo, 0);
  assert_int_equal (plan.policy.egress[0].hi, 65535);
  assert_int_equal (plan.policy.egress[1].family, AF_INET6);
  assert_int_equal (plan.policy.egress[1].mask[3], 0xffffffffu);
  assert_int_equal (plan.policy.egress[1].lo, 53);
  /* network.egress: no raw sockets either.  */
  assert_int_equal (plan.policy.flags, POL_EGRESS | POL_SOCK_NO_RAW);
  /* network.ingress fills its own table, with the same limit.  */
  assert_int_equal (plan_of ("network.ingress=10.1.2.3/8:8080,network.egress=10.0.0.0/8", NULL, &plan, &msg), 1);
  assert_int_equal (plan.policy.n_ingress, 1);
  assert_int_equal (plan.policy.n_egress, 1);
  assert_int_equal (plan.policy.ingress[0].net[0], htonl (0x0a000000));
  assert_int_equal (plan.policy.ingress[0].lo, 8080);
  assert_int_equal (plan.policy.ingress[0].hi, 8080);
  assert_int_equal (plan.policy.flags, POL_INGRESS | POL_EGRESS | POL_SOCK_NO_RAW);
  {
    cleanup_free char *over = repeated ("network.ingress", ENTITLE_MAX_INGRESS + 1, false);
    assert_true (plan_of (over, NULL, &plan, &msg) < 0);
    assert_contains (msg, "entitlement `network.ingress`: more than 64 rules");
    free (msg);
  }
  /* linux.sysctl keys, as the kernel names them; too many refused.  */
  assert_int_equal (plan_of ("security.confined", "{\"linux\":{\"sysctl\":{\"net.ipv4.ip_forward\":\"1\"}}}", &plan, &msg), 1);
  assert_int_equal (plan.policy.n_sysctl, 1);
  assert_string_equal (plan.policy.sysctl[0], "net/ipv4/ip_forward");
  {
    char spec[64 * (ENTITLE_MAX_SYSCTLS + 1) + 64];
    size_t len = (size_t)snprintf (spec, sizeof (spec), "{\"linux\":{\"sysctl\":{");
    for (int i = 0; i <= ENTITLE_MAX_SYSCTLS; i++)
      len += (size_t)snprintf (spec + len, sizeof (spec) - len, "%s\"net.k%d\":\"1\"", i ? "," : "", i);
    snprintf (spec + len, sizeof (spec) - len, "}}}");
    assert_true (plan_of ("security.confined", spec, &plan, &msg) < 0);
    assert_contains (msg, "more than 32 keys");
    free (msg);
  }
}

/* One row per attach point, each named once; every point with a program
   is one the loader pins (entitle_attach_find finds it by name).  */
static void
test_probe_attach_table (void **state)
{
  int i, j;

  (void)state;
  for (i = 0; i < ATTACH_COUNT; i++)
    {
      const struct entitle_attach_s *a = &entitle_attach_points[i];
      if (a->name == NULL || a->prog_type == BPF_PROG_TYPE_UNSPEC)
        fail_msg ("attach point %d has no row", i);
      assert_int_equal (entitle_attach_find (a->name), i);
      for (j = 0; j < i; j++)
        if (a->program && entitle_attach_points[j].program
            && strcmp (a->program, entitle_attach_points[j].program) == 0)
          fail_msg ("program `%s` is attached at two points", a->program);
    }
  assert_int_equal (entitle_attach_find ("nonexistent"), -1);
}

/* What a row says of the cgroup programs agrees with itself: a row with
   programs says what they do, has policy bits and needs only points that
   have a program; each FX_* has its words.  */
static void
test_probe_cg_tables_agree (void **state)
{
  size_t i, j, n, nfx;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (NULL, &n);
  const struct entitle_fx_text_s *fx = entitle_fx_texts (&nfx);
  unsigned covered = 0, bit, with_program = 0;
  int a;

  (void)state;
  for (a = 0; a < ATTACH_COUNT; a++)
    if (entitle_attach_points[a].program)
      with_program |= ATTACH_BIT (a);
  for (i = 0; i < n; i++)
    {
      if ((rows[i].attach != 0) != (rows[i].bpf_text != NULL) || (rows[i].attach != 0) != (rows[i].policy != 0))
        fail_msg ("%s: attach points, policy bits and cgroup BPF text disagree", rows[i].name);
      if (rows[i].attach & ~with_program)
        fail_msg ("%s: needs an attach point without a program", rows[i].name);
    }
  for (j = 0; j < nfx; j++)
    covered |= fx[j].fx;
  for (i = 0; i < n; i++)
    for (bit = 1; bit; bit <<= 1)
      if ((rows[i].fx & bit) && !(covered & bit))
        fail_msg ("%s: effect %#x has no text", rows[i].name, bit);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_probe_json_round_trip),
    cmocka_unit_test (test_probe_json_readable_keys),
    cmocka_unit_test (test_probe_json_round_trip_all_and_nothing),
    cmocka_unit_test (test_probe_json_malformed_refused),
    cmocka_unit_test (test_probe_json_bad_abi_refused),
    cmocka_unit_test (test_probe_json_unknown_keys_ignored),
    cmocka_unit_test (test_probe_bpf_needed),
    cmocka_unit_test (test_probe_attach_table),
    cmocka_unit_test (test_probe_bpf_plan_limits),
    cmocka_unit_test (test_probe_cg_tables_agree),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
