/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "unit.h"
#include "seccomp-load.h"
#include "bpf-plan.h"
#include "compile.h"
#include "context.h"
#include "custom.h"
#include "denial.h"
#include "entitlements.h"
#include "hash.h"
#include "resolve.h"
#include "rewrite.h"
#include "request.h"
#include "score.h"
#include "utils.h"

/* Custom entitlements (lib/model/custom.c): the definitions the admin
   config accepts and those it refuses, the rows they make in the
   catalogue, and what the compiler makes of them, down to the errno a
   process gets from the filter a runtime would build (loaded in a child
   of the test, as runc loads it).  */

static struct entitle_log_s test_log = { .path = NULL };

/* A config with custom entitlements @defs (the inside of the
   `entitlements` object) and @more top-level keys ("" for none).  */
static void
config_with (struct entitle_config_s *cfg, const char *defs, const char *more)
{
  cleanup_free char *json = NULL;

  assert_true (asprintf (&json, "{\"entitlements\": {%s}%s%s}", defs, *more ? ", " : "", more) > 0);
  config_from (cfg, json);
}

/* The message of a config refused, which holds each string up to NULL
   and is one line.  */
static void
assert_refused (const char *defs, ...)
{
  struct entitle_config_s cfg;
  entitle_error_t err = NULL;
  cleanup_free char *json = NULL;
  const char *needle;
  va_list ap;

  assert_true (asprintf (&json, "{\"entitlements\": {%s}}", defs) > 0);
  memset (&cfg, 0, sizeof (cfg));
  if (entitle_config_parse (&cfg, CONFIG_PATH, json, strlen (json), &err) == 0)
    fail_msg ("accepted: %s", defs);
  assert_null (strchr (err->msg, '\n'));
  va_start (ap, defs);
  while ((needle = va_arg (ap, const char *)) != NULL)
    assert_contains (err->msg, needle);
  va_end (ap);
  entitle_error_release (&err);
  entitle_config_free (&cfg);
}

/* The one FNV-1a (lib/base/hash.h) gives the published 64-bit vectors,
   over bytes and over strings alike.  */
static void
test_fnv_vectors (void **state)
{
  static const struct
  {
    const char *s;
    uint64_t h;
  } v[] = { { "", 0xcbf29ce484222325ull }, { "a", 0xaf63dc4c8601ec8cull }, { "foobar", 0x85944171f73967e8ull } };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (v) / sizeof (v[0]); i++)
    {
      assert_true (entitle_fnv_bytes (ENTITLE_FNV_OFFSET, v[i].s, strlen (v[i].s)) == v[i].h);
      assert_true (entitle_fnv_str (ENTITLE_FNV_OFFSET, v[i].s) == v[i].h);
    }
}

static void
test_custom_parse_refused (void **state)
{
  (void)state;
  assert_refused ("\"example.x\": {\"seccomp\": [{\"names\": [\"ptrace\"]}]}", "`" CONFIG_PATH "`: entitlement `example.x`",
                  "vendor component", NULL);
  assert_refused ("\"network.example.x\": {\"seccomp\": [{\"names\": [\"ptrace\"]}]}", "`network` is a built-in domain", NULL);
  assert_refused ("\"security.confined.x\": {\"seccomp\": [{\"names\": [\"ptrace\"]}]}", "built-in domain", NULL);
  assert_refused ("\"Example.com.x\": {\"seccomp\": [{\"names\": [\"ptrace\"]}]}", "malformed name", NULL);
  assert_refused ("\"example.com.x\": {}", "does nothing", NULL);
  assert_refused ("\"example.com.x\": {\"sccomp\": []}", "unknown field `sccomp`", NULL);
  assert_refused ("\"example.com.x\": {\"seccomp\": [{\"names\": [\"close\"], \"action\": \"deny\"}]}", "errno, kill, log, allow",
                  NULL);
  assert_refused ("\"example.com.x\": {\"seccomp\": [{\"names\": [\"close\"], \"errno\": \"ENOPE\"}]}", "`errno` must be", NULL);
  assert_refused ("\"example.com.x\": {\"seccomp\": [{\"names\": [\"close\"], \"action\": \"kill\", \"errno\": 1}]}",
                  "goes with the action errno only", NULL);
  assert_refused ("\"example.com.x\": {\"seccomp\": [{\"names\": [\"close\"], \"args\": [{\"index\": 0, \"op\": \"like\", \"value\": 1}]}]}",
                  "eq, ne, lt, le, gt, ge, masked_eq", NULL);
  assert_refused ("\"example.com.x\": {\"seccomp\": [{\"names\": [\"close\"], \"args\": [{\"index\": 0, \"op\": \"gt\", \"value\": 1},"
                  " {\"index\": 0, \"op\": \"lt\", \"value\": 9}]}]}",
                  "two conditions on argument 0", NULL);
  assert_refused ("\"example.com.x\": {\"seccomp\": [{\"names\": [\"close\"], \"args\": [{\"index\": 6, \"op\": \"eq\", \"value\": 1}]}]}",
                  "from 0 to 5", NULL);
  assert_refused ("\"example.com.x\": {\"seccomp\": [{\"names\": [\"close\"], \"args\": [{\"index\": 0, \"op\": \"eq\", \"value\": -1}]}]}",
                  "unsigned integers", NULL);
  assert_refused ("\"example.com.x\": {\"seccomp\": [{\"names\": [\"close\"], \"args\": [{\"index\": 0, \"op\": \"masked_eq\", \"value\": 15,"
                  " \"value_two\": 16}]}]}",
                  "bits outside the mask", NULL);
  assert_refused ("\"example.com.x\": {\"seccomp\": [{\"names\": [\"close\"], \"args\": [{\"index\": 0, \"op\": \"eq\", \"value\": 1,"
                  " \"value_two\": 2}]}]}",
                  "goes with masked_eq", NULL);
  assert_refused ("\"example.com.x\": {\"capabilities\": {\"add\": [\"SYS_PTRACE\"]}}", "not a capability name", NULL);
  assert_refused ("\"example.com.x\": {\"masked_paths\": [\"proc/kcore\"]}", "absolute path", NULL);
  assert_refused ("\"example.com.x\": {\"egress\": [\"10.0.0.0/33\"]}", "`egress`", "network.egress=10.0.0.0/33", NULL);
  assert_refused ("\"example.com.x\": {\"bpf\": [{\"object\": \"a.o\", \"program\": \"p\", \"attach\": \"connect5\"}]}",
                  "unknown attach point `connect5`", NULL);
  assert_refused ("\"example.com.x\": {\"bpf\": [{\"object\": \"a.o\", \"program\": \"p\", \"attach\": \"checmate/socket_dance\"}]}",
                  "unknown attach point", NULL);
  assert_refused ("\"example.com.x\": {\"bpf\": [{\"object\": \"a.o\", \"attach\": \"connect4\"}]}", "needs `object`, `program`", NULL);
  assert_refused ("\"example.com.x\": {\"data\": [1], \"masked_paths\": [\"/x\"]}", "`data` is for the programs", NULL);
  assert_refused ("\"example.com.x\": {\"bpf\": [{\"object\": \"a.o\", \"program\": \"p\", \"attach\": \"connect4\"}],"
                  " \"data\": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]}",
                  "1 to 16", NULL);
  assert_refused ("\"example.com.x\": {\"contradicts\": [\"network.nowhere\"], \"masked_paths\": [\"/x\"]}",
                  "`network.nowhere`, which is no entitlement", NULL);
  assert_refused ("\"example.com.x\": {\"summary\": \"two\\nlines\", \"masked_paths\": [\"/x\"]}", "one line", NULL);
}

/* A row built: found by name, merged in order with the built-in ones,
   and what each field became.  */
static void
test_custom_rows (void **state)
{
  struct entitle_config_s cfg;
  const struct entitle_entry_s *e, *rows;
  size_t n, nb, i;

  (void)state;
  config_with (&cfg,
               "\"example.com.no-debug\": {\"summary\": \"no debugging\", \"capabilities\": {\"drop\": [\"CAP_SYS_PTRACE\"]},"
               " \"seccomp\": [{\"names\": [\"ptrace\", \"process_vm_readv\"]}, {\"names\": [\"kcmp\"], \"action\": \"allow\"},"
               " {\"names\": [\"close\"], \"errno\": \"EBADF\", \"args\": [{\"index\": 0, \"op\": \"eq\", \"value\": 999}]}],"
               " \"masked_paths\": [\"/proc/kallsyms\"], \"readonly_paths\": [\"/etc\"], \"egress\": [\"10.0.0.0/8:443\"],"
               " \"bpf\": [{\"object\": \"x.bpf.o\", \"program\": \"p\", \"attach\": \"connect4\"},"
               " {\"object\": \"/abs/y.bpf.o\", \"program\": \"q\", \"attach\": \"checmate/socket_connect\"}], \"data\": [7]}",
               "");
  e = entitle_catalogue_find (&cfg.catalogue, "example.com.no-debug", 20);
  assert_non_null (e);
  assert_null (entitle_catalogue_find (NULL, "example.com.no-debug", 20));
  assert_string_equal (e->custom, CONFIG_PATH);
  assert_int_equal (strlen (e->digest), 16);
  assert_string_equal (e->summary, "no debugging");
  assert_string_equal (e->cap_drop[0], "CAP_SYS_PTRACE");
  assert_string_equal (e->sys_deny[0], "ptrace");
  assert_string_equal (e->sys_deny[1], "process_vm_readv");
  assert_string_equal (e->sys_allow[0], "kcmp");
  assert_int_equal (e->n_sys_rules, 1);
  assert_int_equal (e->sys_rules[0].errno_ret, EBADF);
  assert_int_equal (e->sys_rules[0].args[0].op, SCMP_CMP_EQ);
  assert_string_equal (e->masked[0], "/proc/kallsyms");
  assert_string_equal (e->readonly[0], "/etc");
  assert_int_equal (e->n_implies, 1);
  assert_string_equal (e->implies[0].entry->name, "network.egress");
  assert_string_equal (e->implies[0].value, "10.0.0.0/8:443");
  assert_int_equal (e->implies[0].v.cidr.lo, 443);
  assert_string_equal (e->progs[0].object, "/etc/entitle/x.bpf.o");
  assert_int_equal (e->progs[0].point, ATTACH_CONNECT4);
  assert_string_equal (e->progs[1].object, "/abs/y.bpf.o");
  assert_int_equal (e->progs[1].point, ENTITLE_POINT_CHECMATE);
  assert_string_equal (entitle_checmate_hooks[e->progs[1].hook], "socket_connect");
  assert_int_equal (e->n_data, 1);
  assert_int_equal (entitle_bpf_custom_points (e), ATTACH_BIT (ATTACH_CONNECT4));
  assert_false (entitle_entry_bpf_only (e));

  rows = entitle_catalogue_rows (&cfg.catalogue, &n);
  entitle_catalogue_rows (NULL, &nb);
  assert_int_equal (n, nb + 1);
  for (i = 1; i < n; i++)
    assert_true (strcmp (rows[i - 1].name, rows[i].name) < 0);
  assert_ptr_equal (entitle_catalogue_closest (&cfg.catalogue, "example.com.no-debgu", 20), e);
  entitle_config_free (&cfg);

  /* Without custom rows the lookup is the built-in table itself.  */
  config_from (&cfg, "{\"grant\": []}");
  assert_ptr_equal (entitle_catalogue_rows (&cfg.catalogue, &n), entitle_catalogue_rows (NULL, &nb));
  entitle_config_free (&cfg);
}

/* The same definition has the same digest, another has another.  */
static void
test_custom_digest (void **state)
{
  struct entitle_config_s a, b, c;
  const char *def = "\"example.com.x\": {\"masked_paths\": [\"/x\"]}";

  (void)state;
  config_with (&a, def, "");
  config_with (&b, def, "\"grant\": []");
  config_with (&c, "\"example.com.x\": {\"masked_paths\": [\"/y\"]}", "");
  assert_string_equal (entitle_catalogue_find (&a.catalogue, "example.com.x", 13)->digest,
                       entitle_catalogue_find (&b.catalogue, "example.com.x", 13)->digest);
  assert_string_not_equal (entitle_catalogue_find (&a.catalogue, "example.com.x", 13)->digest,
                           entitle_catalogue_find (&c.catalogue, "example.com.x", 13)->digest);
  entitle_config_free (&a);
  entitle_config_free (&b);
  entitle_config_free (&c);
}

/* A definition's digest names what a container ran under (recorded,
   shown by `entitle features`): it stays the value past versions gave.  */
static void
test_custom_digest_stable (void **state)
{
  struct entitle_config_s cfg;

  (void)state;
  config_with (&cfg, "\"example.com.x\": {\"masked_paths\": [\"/x\"]}", "");
  assert_string_equal (entitle_catalogue_find (&cfg.catalogue, "example.com.x", 13)->digest, "105704acafb29e6d");
  entitle_config_free (&cfg);
}

/* A custom row's egress rules are network.egress requests of the same
   source: a floor holds them.  */
static void
test_custom_implies (void **state)
{
  struct entitle_config_s cfg;
  cleanup_entitle_set struct entitle_set_s req = { 0 }, final = { 0 };
  entitle_error_t err = NULL;

  (void)state;
  config_with (&cfg, "\"example.com.web\": {\"egress\": [\"192.168.0.0/16:443\"]}",
               "\"require\": [\"network.egress=10.0.0.0/8\"]");
  assert_int_equal (entitle_parse_list (&cfg.catalogue, "example.com.web", "test", &req, &err), 0);
  assert_int_equal (req.n, 2);
  assert_true (entitle_set_has (&req, "network.egress"));
  assert_true (entitle_resolve (&cfg, &req, &final, &err) < 0);
  assert_contains (err->msg, "network.egress=192.168.0.0/16:443");
  assert_contains (err->msg, "is not within");
  entitle_error_release (&err);
  entitle_config_free (&cfg);

  entitle_set_free (&req);
  config_with (&cfg, "\"example.com.web\": {\"egress\": [\"10.1.0.0/16:443\"]}", "\"require\": [\"network.egress=10.0.0.0/8\"]");
  assert_int_equal (entitle_parse_list (&cfg.catalogue, "example.com.web", "test", &req, &err), 0);
  assert_int_equal (entitle_resolve (&cfg, &req, &final, &err), 0);
  assert_true (entitle_set_has (&final, "example.com.web"));
  entitle_config_free (&cfg);
}

/* @spec rewritten once under @cfg (entitle_rewrite's result).  */
static int
rewrite_once (const struct entitle_config_s *cfg, json_t *spec, entitle_error_t *err)
{
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  struct entitle_ctx_s ctx;
  int ret;

  entitle_ctx_init (&ctx, &test_log, cfg);
  ret = entitle_rewrite (&ctx, spec, &final, err);
  entitle_ctx_release (&ctx);
  return ret;
}

/* @spec rewritten under @cfg for the annotation @list: 1, or the
   message of the refusal in *msg.  A rewrite compiled again is the
   same (compile is a fixed point: create on a rewritten bundle writes
   nothing new, and compile --check finds the config as it was written).  */
static int
rewrite_for (const struct entitle_config_s *cfg, json_t *spec, const char *list, char **msg)
{
  cleanup_json json_t *again = NULL;
  entitle_error_t err = NULL;
  int ret;

  json_set (json_get_or_add (spec, "annotations", JSON_OBJECT), ENTITLE_ANNOTATION, json_new_string (list));
  ret = rewrite_once (cfg, spec, &err);
  if (ret > 0)
    {
      again = json_clone (spec);
      if (rewrite_once (cfg, again, &err) < 0)
        fail_msg ("%s: compiling the rewrite again: %s", list, err->msg);
      if (!json_equal (spec, again))
        fail_msg ("%s: compiling the rewrite again changes it", list);
    }
  if (ret < 0)
    {
      assert_null (strchr (err->msg, '\n'));
      if (msg == NULL)
        fail_msg ("entitle_rewrite: %s", err->msg);
      *msg = strdup (err->msg);
      entitle_error_release (&err);
    }
  return ret;
}

/* What close(@fd) gives a child under the filter of @spec, built as runc
   builds it: 0, the errno, or minus the signal that killed it.  */
static int
close_under (const json_t *spec, long fd)
{
  scmp_filter_ctx ctx = NULL;
  char why[256];
  int status;
  pid_t pid;

  if (seccomp_build_like_runc (json_get (json_get (spec, "linux"), "seccomp"), &ctx, why, sizeof (why)) < 0)
    fail_msg ("the runtime would refuse the profile: %s", why);
  pid = fork ();
  assert_true (pid >= 0);
  if (pid == 0)
    {
      /* A kill rule's SIGSYS would dump core into the build tree.  */
      struct rlimit no_core = { 0, 0 };
      setrlimit (RLIMIT_CORE, &no_core);
      if (seccomp_load (ctx) < 0)
        _exit (255);
      _exit (syscall (SYS_close, fd) < 0 ? errno : 0);
    }
  seccomp_release (ctx);
  assert_int_equal (waitpid (pid, &status, 0), pid);
  if (WIFSIGNALED (status))
    return -WTERMSIG (status);
  assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* seccomp1's rule under Docker's profile (a denying default that allows
   close) and under an allowing default: close(999) gets EPERM, another
   bad fd EBADF, as the container sees it.  */
static void
test_custom_seccomp_rule (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *docker = load_test_data ("docker-expanded.json");
  cleanup_json json_t *allowing = load_test_data ("docker-expanded.json");
  json_t *sc;

  (void)state;
  config_with (&cfg,
               "\"example.com.seccomp1\": {\"seccomp\": [{\"names\": [\"close\"], \"args\": [{\"index\": 0, \"op\": \"eq\", \"value\": 999}]}]}",
               "");
  assert_int_equal (rewrite_for (&cfg, docker, "example.com.seccomp1", NULL), 1);
  assert_int_equal (close_under (docker, 999), EPERM);
  assert_int_equal (close_under (docker, 998), EBADF);

  sc = json_get (json_get (allowing, "linux"), "seccomp");
  json_set (sc, "defaultAction", json_new_string ("SCMP_ACT_ALLOW"));
  json_set (sc, "syscalls", json_new (JSON_ARRAY));
  assert_int_equal (rewrite_for (&cfg, allowing, "example.com.seccomp1", NULL), 1);
  assert_int_equal (close_under (allowing, 999), EPERM);
  assert_int_equal (close_under (allowing, 998), EBADF);
  entitle_config_free (&cfg);
}

/* A masked_eq condition, negated bit by bit where the default denies:
   (fd & 0x3ff) == 999 denies 999 and 2023, not 998; and another errno.  */
static void
test_custom_seccomp_masked (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *docker = load_test_data ("docker-expanded.json");

  (void)state;
  config_with (&cfg,
               "\"example.com.m\": {\"seccomp\": [{\"names\": [\"close\"], \"errno\": \"EACCES\","
               " \"args\": [{\"index\": 0, \"op\": \"masked_eq\", \"value\": 1023, \"value_two\": 999}]}]}",
               "");
  assert_int_equal (rewrite_for (&cfg, docker, "example.com.m", NULL), 1);
  assert_int_equal (close_under (docker, 999), EACCES);
  assert_int_equal (close_under (docker, 2023), EACCES);
  assert_int_equal (close_under (docker, 998), EBADF);
  entitle_config_free (&cfg);
}

/* A kill rule: the process that makes the call is killed (SIGSYS), the
   others' calls run.  */
static void
test_custom_seccomp_kill (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *docker = load_test_data ("docker-expanded.json");

  (void)state;
  config_with (&cfg,
               "\"example.com.k\": {\"seccomp\": [{\"names\": [\"close\"], \"action\": \"kill\","
               " \"args\": [{\"index\": 0, \"op\": \"ge\", \"value\": 999}]}]}",
               "");
  assert_int_equal (rewrite_for (&cfg, docker, "example.com.k", NULL), 1);
  assert_int_equal (close_under (docker, 1000), -SIGSYS);
  assert_int_equal (close_under (docker, 998), EBADF);
  entitle_config_free (&cfg);
}

/* The trust rule judges a custom row by what it compiles to: adding a
   capability, or a log or allow rule for a call the engine denied,
   needs a grant; a grant by glob gives it.  A narrowing row needs none.  */
static void
test_custom_trust (void **state)
{
  struct entitle_config_s cfg;
  char *msg = NULL;
  const char *widening[] = {
    "\"example.com.w\": {\"capabilities\": {\"add\": [\"CAP_SYS_PTRACE\"]}}",
    "\"example.com.w\": {\"seccomp\": [{\"names\": [\"reboot\"], \"action\": \"log\"}]}",
    "\"example.com.w\": {\"seccomp\": [{\"names\": [\"reboot\"], \"action\": \"allow\", \"args\": [{\"index\": 0, \"op\": \"eq\", \"value\": 1}]}]}",
    "\"example.com.w\": {\"seccomp\": [{\"names\": [\"reboot\"], \"action\": \"allow\"}]}",
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (widening) / sizeof (widening[0]); i++)
    {
      cleanup_json json_t *docker = load_test_data ("docker-expanded.json"), *again = NULL;

      config_with (&cfg, widening[i], "");
      assert_true (rewrite_for (&cfg, docker, "example.com.w", &msg) < 0);
      assert_contains (msg, "entitlement \"example.com.w\" requested by the container is not granted");
      free (get_and_reset (&msg));
      entitle_config_free (&cfg);
      config_with (&cfg, widening[i], "\"grant\": [\"example.com.*\"]");
      again = load_test_data ("docker-expanded.json");
      assert_int_equal (rewrite_for (&cfg, again, "example.com.w", NULL), 1);
      entitle_config_free (&cfg);
    }
  {
    cleanup_json json_t *docker = load_test_data ("docker-expanded.json");
    config_with (&cfg, "\"example.com.n\": {\"seccomp\": [{\"names\": [\"close\"], \"action\": \"kill\"}], \"masked_paths\": [\"/x\"]}", "");
    assert_int_equal (rewrite_for (&cfg, docker, "example.com.n", NULL), 1);
    assert_int_equal (json_array_find_string (json_get (json_get (docker, "linux"), "maskedPaths"), "/x") >= 0, 1);
    entitle_config_free (&cfg);
  }
}

/* explain --score names a custom row that causes a cost among those to
   drop, as it does a built-in one.  */
static void
test_custom_score (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *docker = load_test_data ("docker-expanded.json");
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  struct entitle_score_s s;
  entitle_error_t err = NULL;
  size_t i;

  (void)state;
  config_with (&cfg, "\"example.com.trace\": {\"capabilities\": {\"add\": [\"CAP_SYS_PTRACE\"]}}",
               "\"grant\": [\"example.com.trace\"]");
  assert_int_equal (rewrite_for (&cfg, docker, "example.com.trace", NULL), 1);
  assert_int_equal (entitle_parse_list (&cfg.catalogue, "example.com.trace", "test", &set, &err), 0);
  assert_int_equal (entitle_score (docker, &set, &s, &err), 0);
  for (i = 0; i < s.n && strcmp (s.items[i].id, "cap-sys-ptrace") != 0; i++)
    ;
  assert_true (i < s.n);
  assert_true (s.items[i].cost > 0);
  assert_contains (s.items[i].fix, "drop `example.com.trace`");
  entitle_config_free (&cfg);
}

/* `why` names the custom row behind a rule it implies, and a request
   the container made itself as it is.  */
static void
test_custom_why_names_row (void **state)
{
  struct entitle_config_s cfg;
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  entitle_error_t err = NULL;
  cleanup_free char *implied = NULL, *own = NULL;
  size_t i;

  (void)state;
  config_with (&cfg, "\"example.com.web\": {\"egress\": [\"10.1.0.0/16:443\"]}", "");
  assert_int_equal (entitle_parse_list (&cfg.catalogue, "example.com.web,network.egress=10.2.0.0/16:80", "test", &set, &err), 0);
  for (i = 0; i < set.n; i++)
    if (set.items[i].value && strcmp (set.items[i].value, "10.1.0.0/16:443") == 0)
      implied = entitle_denier_name (&set, &set.items[i]);
    else if (set.items[i].value)
      own = entitle_denier_name (&set, &set.items[i]);
  assert_non_null (implied);
  assert_string_equal (implied, "example.com.web (network.egress=10.1.0.0/16:443)");
  assert_non_null (own);
  assert_string_equal (own, "network.egress=10.2.0.0/16:80");
  entitle_config_free (&cfg);
}

/* Paths need a mount namespace: without one the row is refused by name.  */
static void
test_custom_paths_need_mount_ns (void **state)
{
  struct entitle_config_s cfg;
  cleanup_json json_t *spec = load_test_data ("runc-spec.json");
  json_t *ns = json_get (json_get (spec, "linux"), "namespaces");
  char *msg = NULL;
  size_t i;

  (void)state;
  for (i = 0; i < ns->n;)
    if (strcmp (json_string (json_get (ns->items[i], "type")), "mount") == 0)
      json_remove_at (ns, i);
    else
      i++;
  config_with (&cfg, "\"example.com.p\": {\"readonly_paths\": [\"/etc\"]}", "");
  assert_true (rewrite_for (&cfg, spec, "example.com.p", &msg) < 0);
  assert_contains (msg, "entitlement `example.com.p` cannot be enforced on this config");
  free (msg);
  entitle_config_free (&cfg);
}

/* The plan of a set with an admin program at a cgroup point asks for the
   hook; one whose only programs are at seed interfaces has nothing
   beyond them.  */
static void
test_custom_plan (void **state)
{
  struct entitle_config_s cfg;
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  struct entitle_bpf_plan_s plan;
  entitle_error_t err = NULL;

  (void)state;
  config_with (&cfg,
               "\"example.com.c\": {\"bpf\": [{\"object\": \"c.o\", \"program\": \"p\", \"attach\": \"connect4\"}]},"
               " \"example.com.s\": {\"bpf\": [{\"object\": \"s.o\", \"program\": \"p\", \"attach\": \"seccomp\"}]}",
               "");
  assert_int_equal (entitle_parse_list (&cfg.catalogue, "example.com.c", "test", &set, &err), 0);
  assert_int_equal (entitle_bpf_plan (&plan, &set, NULL, &err), 1);
  assert_int_equal (plan.attach, 0);
  assert_int_equal (plan.custom, ATTACH_BIT (ATTACH_CONNECT4));
  assert_true (entitle_bpf_beyond_seed (set.items[0].entry));
  entitle_set_free (&set);
  assert_int_equal (entitle_parse_list (&cfg.catalogue, "example.com.s", "test", &set, &err), 0);
  assert_int_equal (entitle_bpf_plan (&plan, &set, NULL, &err), 0);
  assert_false (entitle_bpf_beyond_seed (set.items[0].entry));
  entitle_config_free (&cfg);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_custom_parse_refused),
    cmocka_unit_test (test_custom_rows),
    cmocka_unit_test (test_custom_digest),
    cmocka_unit_test (test_custom_digest_stable),
    cmocka_unit_test (test_fnv_vectors),
    cmocka_unit_test (test_custom_implies),
    cmocka_unit_test (test_custom_seccomp_rule),
    cmocka_unit_test (test_custom_seccomp_masked),
    cmocka_unit_test (test_custom_seccomp_kill),
    cmocka_unit_test (test_custom_trust),
    cmocka_unit_test (test_custom_score),
    cmocka_unit_test (test_custom_why_names_row),
    cmocka_unit_test (test_custom_paths_need_mount_ns),
    cmocka_unit_test (test_custom_plan),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
