/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "unit.h"
#include "seccomp-load.h"
#include "catalogue.h"
#include "context.h"
#include "json.h"
#include "scmp.h"
#include "seccomp-rules.h"
#include "seccomp-profile.h"
#include "utils.h"

/* linux.seccomp as entitle edits and writes it: blocked syscalls leave
   every allowing rule whatever its arguments, rules mean the same to runc
   (which ORs conditions on a repeated argument index) and crun, untouched
   rules keep their numbers as written, and whatever entitle writes
   compiles into a libseccomp filter (libseccomp's "sim" tier: the filter
   is exported as PFC, never loaded).  */

/* A Docker-like "expanded" profile: deny by default, one big allow rule,
   and socket() once more per argument range, as moby's default.json.  */
static const char docker_like[] = "{"
                                  "\"defaultAction\": \"SCMP_ACT_ERRNO\","
                                  "\"defaultErrnoRet\": 1,"
                                  "\"architectures\": [\"SCMP_ARCH_X86_64\", \"SCMP_ARCH_X86\", \"SCMP_ARCH_X32\"],"
                                  "\"syscalls\": ["
                                  "  {\"names\": [\"accept\", \"accept4\", \"bind\", \"clone\", \"close\", \"connect\", \"exit\","
                                  "     \"exit_group\", \"getpid\", \"mknod\", \"mknodat\", \"mlock\", \"ptrace\", \"read\", \"recvfrom\","
                                  "     \"sendto\", \"socket\", \"socketcall\", \"socketpair\", \"write\"],"
                                  "   \"action\": \"SCMP_ACT_ALLOW\"},"
                                  "  {\"names\": [\"ptrace\"], \"action\": \"SCMP_ACT_ALLOW\","
                                  "   \"args\": [{\"index\": 0, \"value\": 16, \"op\": \"SCMP_CMP_EQ\"}]},"
                                  "  {\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ALLOW\","
                                  "   \"args\": [{\"index\": 0, \"value\": 38, \"op\": \"SCMP_CMP_LT\"}]},"
                                  "  {\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ALLOW\","
                                  "   \"args\": [{\"index\": 0, \"value\": 39, \"op\": \"SCMP_CMP_EQ\"}]},"
                                  "  {\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ALLOW\","
                                  "   \"args\": [{\"index\": 0, \"value\": 40, \"op\": \"SCMP_CMP_GT\"}]},"
                                  "  {\"names\": [\"personality\"], \"action\": \"SCMP_ACT_ALLOW\","
                                  "   \"args\": [{\"index\": 0, \"value\": 0, \"op\": \"SCMP_CMP_EQ\"}]},"
                                  "  {\"names\": [\"personality\"], \"action\": \"SCMP_ACT_ALLOW\","
                                  "   \"args\": [{\"index\": 0, \"value\": 8, \"op\": \"SCMP_CMP_EQ\"}]},"
                                  "  {\"names\": [\"personality\"], \"action\": \"SCMP_ACT_ALLOW\","
                                  "   \"args\": [{\"index\": 0, \"value\": 4294967295, \"op\": \"SCMP_CMP_EQ\"}]},"
                                  "  {\"names\": [\"fadvise64\"], \"action\": \"SCMP_ACT_ALLOW\","
                                  "   \"args\": [{\"index\": 1, \"value\": 18446744073709551615, \"op\": \"SCMP_CMP_LE\"}]},"
                                  "  {\"names\": [\"kill\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 38}"
                                  "]}";

/* The untouched rule above, as written.  */
static const char untouched_rule[] = "{\"names\": [\"fadvise64\"], \"action\": \"SCMP_ACT_ALLOW\","
                                     "\"args\": [{\"index\": 1, \"value\": 18446744073709551615, \"op\": \"SCMP_CMP_LE\"}]}";

static struct entitle_log_s test_log = { .path = NULL };

static char *const no_list[] = { NULL };

static void
init_config (struct entitle_config_s *cfg, bool warn)
{
  memset (cfg, 0, sizeof (*cfg));
  cfg->path = (char *)"/etc/entitle/entitle.json";
  cfg->defaults = (char **)no_list;
  cfg->grant = (char **)no_list;
  cfg->require = (char **)no_list;
  cfg->warn_unenforceable = warn;
}

/* A spec {"linux":{"seccomp": @profile}} (no seccomp section when NULL).  */
static json_t *
spec_with (const char *profile)
{
  json_t *spec = json_new (JSON_OBJECT), *linux_ = json_new (JSON_OBJECT);

  if (profile)
    json_set (linux_, "seccomp", parse_ok (profile));
  json_set (spec, "linux", linux_);
  return spec;
}

static json_t *
seccomp_of (json_t *spec)
{
  json_t *s = json_get (json_get (spec, "linux"), "seccomp");
  assert_non_null (s);
  return s;
}

static void
apply_ok (json_t *spec, const struct entitle_seccomp_plan_s *plan)
{
  struct entitle_config_s cfg;
  struct entitle_ctx_s ctx;
  entitle_error_t err = NULL;

  init_config (&cfg, false);
  entitle_ctx_init (&ctx, &test_log, &cfg);
  if (entitle_seccomp_apply (&ctx, spec, plan, NULL, &err) < 0)
    fail_msg ("entitle_seccomp_apply: %s", err->msg);
  assert_null (err);
  entitle_ctx_release (&ctx);
}

/* apply_ok, then the profile it left in @spec.  */
static json_t *
applied (json_t *spec, const struct entitle_seccomp_plan_s *plan)
{
  apply_ok (spec, plan);
  return seccomp_of (spec);
}

static json_t *
generate (const json_t *process)
{
  struct entitle_config_s cfg;
  struct entitle_ctx_s ctx;
  json_t *seccomp;

  init_config (&cfg, false);
  entitle_ctx_init (&ctx, &test_log, &cfg);
  seccomp = entitle_seccomp_generate (&ctx, process);
  entitle_ctx_release (&ctx);
  return seccomp;
}

static bool
allows (const json_t *rule)
{
  return entitle_scmp_act_allows (entitle_scmp_act_of (rule, "action"));
}

static bool
lists (const json_t *rule, const char *name)
{
  return json_array_find_string (json_get (rule, "names"), name) >= 0;
}

/* The last rule of @syscalls that lists @name, or NULL.  */
static const json_t *
last_listing (const json_t *syscalls, const char *name)
{
  const json_t *found = NULL;
  size_t i;

  for (i = 0; i < syscalls->n; i++)
    if (lists (syscalls->items[i], name))
      found = syscalls->items[i];
  return found;
}

/* How many allowing rules list @name; the last one in *last.  */
static size_t
count_allowing (const json_t *seccomp, const char *name, const json_t **last)
{
  const json_t *syscalls = json_get (seccomp, "syscalls");
  size_t i, n = 0;

  for (i = 0; syscalls && i < syscalls->n; i++)
    if (allows (syscalls->items[i]) && lists (syscalls->items[i], name))
      {
        n++;
        if (last)
          *last = syscalls->items[i];
      }
  return n;
}

/* Is @name in an allowing rule without arguments?  */
static bool
allowed_unconditionally (const json_t *seccomp, const char *name)
{
  const json_t *syscalls = json_get (seccomp, "syscalls");
  size_t i;

  for (i = 0; syscalls && i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i], *args = json_get (r, "args");
      if (allows (r) && lists (r, name) && (args == NULL || args->n == 0))
        return true;
    }
  return false;
}

static unsigned long long
number (const json_t *v)
{
  assert_non_null (v);
  assert_int_equal (v->type, JSON_NUMBER);
  return strtoull (v->text, NULL, 10);
}

/* Is @args exactly [{index @index, op @op, value @value}] (valueTwo 0)?  */
static bool
args_are (const json_t *args, unsigned index, const char *op, unsigned long long value)
{
  const json_t *a, *v2;

  if (args == NULL || args->type != JSON_ARRAY || args->n != 1)
    return false;
  a = args->items[0];
  v2 = json_get (a, "valueTwo");
  return number (json_get (a, "index")) == index && strcmp (json_string (json_get (a, "op")), op) == 0
         && number (json_get (a, "value")) == value && (v2 == NULL || number (v2) == 0);
}

/* runc ORs the conditions of a rule as soon as an index repeats.  */
static void
assert_no_repeated_index (const json_t *seccomp)
{
  const json_t *syscalls = json_get (seccomp, "syscalls");
  size_t i, k;

  for (i = 0; syscalls && i < syscalls->n; i++)
    {
      const json_t *args = json_get (syscalls->items[i], "args");
      unsigned seen = 0;

      for (k = 0; args && k < args->n; k++)
        {
          unsigned long long index = number (json_get (args->items[k], "index"));
          assert_true (index < 6);
          if (seen & (1u << index))
            fail_msg ("rule %zu repeats argument index %llu", i, index);
          seen |= 1u << index;
        }
    }
}

/* Build the filter as runc 1.1.5 and crun 1.8.1 do (seccomp-load.h:
   every listed architecture, their rule order, their OR of a repeated
   argument index), and export it: every profile entitle writes must be
   one the runtimes take, with libseccomp's EEXIST for rules it sees as
   one ("file exists") a failure.  */
static void
build_filter (const json_t *seccomp)
{
  char why[256];
  int ret;

  /* SCMP_ACT_LOG needs API level 3: say so rather than probe the kernel
     (under valgrind, or where seccomp(2) is filtered, the probe says 1).  */
  if (seccomp_api_get () < 3)
    assert_int_equal (seccomp_api_set (3), 0);
  ret = seccomp_load_like_runc (seccomp, why, sizeof (why));
  if (ret < 0)
    fail_msg ("the runtimes would refuse this profile: %s", why);
}

/* A process whose bounding set is @caps (NULL-terminated).  */
static json_t *
process_with_bounding (const char *const *caps)
{
  json_t *process = json_new (JSON_OBJECT), *c = json_new (JSON_OBJECT), *b = json_new (JSON_ARRAY);

  for (; *caps; caps++)
    json_push (b, json_new_string (*caps));
  json_set (c, "bounding", b);
  json_set (process, "capabilities", c);
  return process;
}

static const char *const docker_caps[] = { "CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER",
                                           "CAP_MKNOD", "CAP_NET_RAW", "CAP_SETGID", "CAP_SETUID",
                                           "CAP_SETFCAP", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE",
                                           "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE", NULL };

/* The Docker-like profile.  */

static void
test_entitle_seccomp_apply_sock_unix_deny_default (void **state)
{
  cleanup_json json_t *spec = spec_with (docker_like);
  struct entitle_seccomp_plan_s plan = { .fx = FX_SOCK_UNIX };
  const json_t *seccomp, *rule = NULL;
  size_t i, n;

  (void)state;
  seccomp = applied (spec, &plan);
  assert_string_equal (json_string (json_get (seccomp, "defaultAction")), "SCMP_ACT_ERRNO");

  /* socket: one allowing rule, AF_UNIX only.  */
  assert_int_equal (count_allowing (seccomp, "socket", &rule), 1);
  assert_int_equal (json_get (rule, "names")->n, 1);
  assert_true (args_are (json_get (rule, "args"), 0, "SCMP_CMP_EQ", 1));
  /* socketcall would bypass any rule on socket's arguments.  */
  assert_int_equal (count_allowing (seccomp, "socketcall", NULL), 0);
  /* socketpair: AF_UNIX only, too.  */
  n = count_allowing (seccomp, "socketpair", NULL);
  assert_true (n >= 1);
  for (i = 0; i < json_get (seccomp, "syscalls")->n; i++)
    {
      const json_t *r = json_get (seccomp, "syscalls")->items[i];
      if (allows (r) && lists (r, "socketpair"))
        assert_true (args_are (json_get (r, "args"), 0, "SCMP_CMP_EQ", 1));
    }
  /* The rest of the big rule stays.  */
  assert_true (allowed_unconditionally (seccomp, "read"));
  assert_true (allowed_unconditionally (seccomp, "connect"));
  assert_true (allowed_unconditionally (seccomp, "ptrace"));
  assert_no_repeated_index (seccomp);
  build_filter (seccomp);
}

static void
test_entitle_seccomp_apply_sock_unix_drops_repeated_index (void **state)
{
  /* Conditions on index 0 twice: runc reads "x >= 2 OR x <= 10", crun
     "x >= 2 AND x <= 10".  entitle must not write such a rule.  */
  static const char profile[] = "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": ["
                                "{\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": ["
                                "  {\"index\": 0, \"value\": 2, \"op\": \"SCMP_CMP_GE\"},"
                                "  {\"index\": 0, \"value\": 10, \"op\": \"SCMP_CMP_LE\"}]},"
                                "{\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": ["
                                "  {\"index\": 1, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"}]},"
                                "{\"names\": [\"getpid\"], \"action\": \"SCMP_ACT_ALLOW\"}]}";
  cleanup_json json_t *spec = spec_with (profile);
  struct entitle_seccomp_plan_s plan = { .fx = FX_SOCK_UNIX };
  const json_t *seccomp, *rule = NULL, *args;

  (void)state;
  seccomp = applied (spec, &plan);
  assert_no_repeated_index (seccomp);
  /* The second rule, ANDed with AF_UNIX: socket (AF_UNIX, SOCK_STREAM).  */
  assert_int_equal (count_allowing (seccomp, "socket", &rule), 1);
  args = json_get (rule, "args");
  assert_int_equal (args->n, 2);
  assert_true (allowed_unconditionally (seccomp, "getpid"));
  build_filter (seccomp);
}

static void
test_entitle_seccomp_apply_deny_ptrace_whatever_args (void **state)
{
  cleanup_json json_t *spec = spec_with (docker_like);
  char *deny[] = { "ptrace", NULL };
  struct entitle_seccomp_plan_s plan = { .deny = deny };
  const json_t *seccomp;

  (void)state;
  seccomp = applied (spec, &plan);
  /* The big rule and the rule with arguments both lose it.  */
  assert_int_equal (count_allowing (seccomp, "ptrace", NULL), 0);
  assert_true (allowed_unconditionally (seccomp, "read"));
  assert_true (allowed_unconditionally (seccomp, "socket"));
  assert_int_equal (count_allowing (seccomp, "socket", NULL), 4);
  assert_no_repeated_index (seccomp);
  build_filter (seccomp);
}

static void
test_entitle_seccomp_apply_deny_under_allow_default (void **state)
{
  static const char profile[] = "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": ["
                                "{\"names\": [\"ptrace\", \"getpid\"], \"action\": \"SCMP_ACT_LOG\"},"
                                "{\"names\": [\"ptrace\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": [{\"index\": 0, \"value\": 0, \"op\": \"SCMP_CMP_EQ\"}]},"
                                "{\"names\": [\"kexec_load\"], \"action\": \"SCMP_ACT_ERRNO\"}]}";
  cleanup_json json_t *spec = spec_with (profile);
  char *deny[] = { "ptrace", NULL };
  struct entitle_seccomp_plan_s plan = { .deny = deny };
  const json_t *seccomp, *syscalls;
  size_t i;
  bool denied = false;

  (void)state;
  seccomp = applied (spec, &plan);
  syscalls = json_get (seccomp, "syscalls");
  assert_int_equal (count_allowing (seccomp, "ptrace", NULL), 0);
  for (i = 0; i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i];
      const json_t *args = json_get (r, "args");
      if (lists (r, "ptrace") && strcmp (json_string (json_get (r, "action")), "SCMP_ACT_ERRNO") == 0
          && (args == NULL || args->n == 0))
        denied = true;
    }
  assert_true (denied);
  /* Untouched: getpid is still logged, kexec_load still denied.  */
  assert_int_equal (count_allowing (seccomp, "getpid", NULL), 1);
  assert_string_equal (json_string (json_get (seccomp, "defaultAction")), "SCMP_ACT_ALLOW");
  build_filter (seccomp);
}

static void
test_entitle_seccomp_apply_sock_unix_under_allow_default (void **state)
{
  static const char profile[] = "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": []}";
  cleanup_json json_t *spec = spec_with (profile);
  struct entitle_seccomp_plan_s plan = { .fx = FX_SOCK_UNIX };
  const json_t *seccomp, *syscalls;
  size_t i;
  bool socket_denied = false, socketcall_denied = false;

  (void)state;
  seccomp = applied (spec, &plan);
  syscalls = json_get (seccomp, "syscalls");
  for (i = 0; i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i], *args = json_get (r, "args");
      if (strcmp (json_string (json_get (r, "action")), "SCMP_ACT_ERRNO") != 0)
        continue;
      if (lists (r, "socket") && args_are (args, 0, "SCMP_CMP_NE", 1))
        socket_denied = true;
      if (lists (r, "socketcall") && (args == NULL || args->n == 0))
        socketcall_denied = true;
    }
  assert_true (socket_denied);
  assert_true (socketcall_denied);
  assert_no_repeated_index (seccomp);
  build_filter (seccomp);
}

static void
test_entitle_seccomp_apply_sock_user_deny_default (void **state)
{
  cleanup_json json_t *spec = spec_with (docker_like);
  struct entitle_seccomp_plan_s plan = { .fx = FX_SOCK_USER };
  const json_t *seccomp, *syscalls;
  size_t i, n = 0;

  (void)state;
  seccomp = applied (spec, &plan);
  syscalls = json_get (seccomp, "syscalls");
  assert_int_equal (count_allowing (seccomp, "socketcall", NULL), 0);
  for (i = 0; i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i], *args = json_get (r, "args");
      unsigned long long family;
      size_t k;
      bool type_ok = false;

      if (!allows (r) || !lists (r, "socket"))
        continue;
      n++;
      assert_non_null (args);
      /* Every allowed socket names its family: never AF_PACKET.  */
      assert_string_equal (json_string (json_get (args->items[0], "op")), "SCMP_CMP_EQ");
      assert_int_equal (number (json_get (args->items[0], "index")), 0);
      family = number (json_get (args->items[0], "value"));
      assert_true (family == 1 || family == 16 || family == 2 || family == 10);
      if (family == 1 || family == 16)
        continue;
      /* inet: stream, datagram or seqpacket, never SOCK_RAW.  */
      for (k = 0; k < args->n; k++)
        if (number (json_get (args->items[k], "index")) == 1)
          {
            const json_t *a = args->items[k];
            unsigned long long t = number (json_get (a, "valueTwo"));
            assert_string_equal (json_string (json_get (a, "op")), "SCMP_CMP_MASKED_EQ");
            assert_int_equal (number (json_get (a, "value")), 0xf);
            assert_true (t == 1 || t == 2 || t == 5);
            type_ok = true;
          }
      assert_true (type_ok);
    }
  assert_true (n >= 4);
  assert_no_repeated_index (seccomp);
  build_filter (seccomp);
}

static void
test_entitle_seccomp_apply_keeps_untouched_numbers (void **state)
{
  cleanup_json json_t *spec = spec_with (docker_like);
  cleanup_json json_t *expect = parse_ok (untouched_rule);
  char *deny[] = { "ptrace", "mknod", NULL };
  struct entitle_seccomp_plan_s plan = { .deny = deny, .fx = FX_SOCK_UNIX | FX_PERSONALITY };
  const json_t *seccomp, *syscalls, *found;
  entitle_error_t err = NULL;
  char *before = NULL, *after = NULL, *all = NULL;
  size_t len;

  (void)state;
  assert_int_equal (json_generate (expect, &before, &len, &err), 0);
  seccomp = applied (spec, &plan);
  syscalls = json_get (seccomp, "syscalls");
  found = last_listing (syscalls, "fadvise64");
  assert_non_null (found);
  assert_true (json_equal (found, expect));
  assert_int_equal (json_generate (found, &after, &len, &err), 0);
  assert_string_equal (before, after);
  assert_int_equal (json_generate (spec, &all, &len, &err), 0);
  assert_non_null (strstr (all, "18446744073709551615"));
  assert_null (strstr (all, "1.8446744073709552e+19"));
  /* The errno rule for kill is kept too.  */
  found = last_listing (syscalls, "kill");
  assert_non_null (found);
  assert_string_equal (json_get (found, "errnoRet")->text, "38");
  free (before);
  free (after);
  free (all);
}

static void
test_entitle_seccomp_apply_personality_linux_only (void **state)
{
  cleanup_json json_t *spec = spec_with (docker_like);
  struct entitle_seccomp_plan_s plan = { .fx = FX_PERSONALITY };
  const json_t *seccomp, *syscalls;
  size_t i, n = 0;

  (void)state;
  seccomp = applied (spec, &plan);
  syscalls = json_get (seccomp, "syscalls");
  for (i = 0; i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i];
      if (!allows (r) || !lists (r, "personality"))
        continue;
      n++;
      assert_true (args_are (json_get (r, "args"), 0, "SCMP_CMP_EQ", 0)
                   || args_are (json_get (r, "args"), 0, "SCMP_CMP_EQ", 0xffffffffULL));
    }
  assert_int_equal (n, 2);
  build_filter (seccomp);
}

static void
test_entitle_seccomp_apply_no_dev_mknod (void **state)
{
  cleanup_json json_t *spec = spec_with (docker_like);
  struct entitle_seccomp_plan_s plan = { .fx = FX_NO_DEV_MKNOD };
  const json_t *seccomp;

  (void)state;
  seccomp = applied (spec, &plan);
  assert_false (allowed_unconditionally (seccomp, "mknod"));
  assert_false (allowed_unconditionally (seccomp, "mknodat"));
  assert_true (count_allowing (seccomp, "mknod", NULL) >= 1);
  assert_true (count_allowing (seccomp, "mknodat", NULL) >= 1);
  assert_no_repeated_index (seccomp);
  build_filter (seccomp);
}

static void
test_entitle_seccomp_apply_clone_no_ns (void **state)
{
  cleanup_json json_t *spec = spec_with (docker_like);
  struct entitle_seccomp_plan_s plan = { .clone_no_ns = true };
  const json_t *seccomp, *rule = NULL, *syscalls;
  size_t i;
  bool clone3_enosys = false;

  (void)state;
  seccomp = applied (spec, &plan);
  assert_int_equal (count_allowing (seccomp, "clone", &rule), 1);
  assert_false (allowed_unconditionally (seccomp, "clone"));
  assert_int_equal (count_allowing (seccomp, "clone3", NULL), 0);
  /* glibc falls back from clone3 to clone on ENOSYS only.  */
  syscalls = json_get (seccomp, "syscalls");
  for (i = 0; i < syscalls->n; i++)
    if (lists (syscalls->items[i], "clone3") && json_get (syscalls->items[i], "errnoRet")
        && number (json_get (syscalls->items[i], "errnoRet")) == ENOSYS)
      clone3_enosys = true;
  assert_true (clone3_enosys);
  build_filter (seccomp);
}

/* Under an allowing default, clone stays argument-gated: one deny rule
   per namespace flag, each of one condition (runc and crun read them
   alike), so that fork and threads still work.  */
static void
test_entitle_seccomp_apply_clone_no_ns_allow_default (void **state)
{
  static const char profile[] = "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": []}";
  cleanup_json json_t *spec = spec_with (profile);
  struct entitle_seccomp_plan_s plan = { .clone_no_ns = true };
  const json_t *seccomp, *syscalls;
  unsigned flags = 0;
  size_t i;

  (void)state;
  seccomp = applied (spec, &plan);
  syscalls = json_get (seccomp, "syscalls");
  for (i = 0; i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i], *args = json_get (r, "args");
      if (!lists (r, "clone"))
        continue;
      assert_string_equal (json_string (json_get (r, "action")), "SCMP_ACT_ERRNO");
      assert_non_null (args);
      assert_int_equal (args->n, 1);
      assert_string_equal (json_string (json_get (args->items[0], "op")), "SCMP_CMP_MASKED_EQ");
      assert_int_equal (number (json_get (args->items[0], "value")), number (json_get (args->items[0], "valueTwo")));
      flags |= (unsigned)number (json_get (args->items[0], "value"));
    }
  assert_int_equal (flags, ENTITLE_CLONE_NS_FLAGS);
  build_filter (seccomp);
}

/* Would a profile's deny rules for personality refuse @x?  */
static bool
personality_denied (const json_t *seccomp, uint64_t x)
{
  const json_t *syscalls = json_get (seccomp, "syscalls");
  size_t i;

  for (i = 0; i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i], *args = json_get (r, "args");
      if (!lists (r, "personality") || allows (r))
        continue;
      if (args == NULL || args->n == 0)
        return true;
      assert_int_equal (args->n, 1);
      if ((x & number (json_get (args->items[0], "value"))) == number (json_get (args->items[0], "valueTwo")))
        return true;
    }
  return false;
}

/* Under an allowing default, personality is denied but PER_LINUX and the
   query, as the kernel reads the argument (its low 32 bits).  */
static void
test_entitle_seccomp_apply_personality_allow_default (void **state)
{
  static const char profile[] = "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": []}";
  static const uint64_t denied[] = { 1, 8, 0x20000, 0x0040000 /* ADDR_NO_RANDOMIZE */, 0x0400000, 0x7fffffff,
                                     0x80000000, 0xfffffffe, 0x100000040ULL };
  static const uint64_t allowed[] = { 0, 0xffffffff, 0x100000000ULL, 0xffffffff00000000ULL };
  cleanup_json json_t *spec = spec_with (profile);
  struct entitle_seccomp_plan_s plan = { .fx = FX_PERSONALITY };
  const json_t *seccomp;
  size_t i;

  (void)state;
  seccomp = applied (spec, &plan);
  for (i = 0; i < sizeof (denied) / sizeof (denied[0]); i++)
    if (!personality_denied (seccomp, denied[i]))
      fail_msg ("personality 0x%llx is not denied", (unsigned long long)denied[i]);
  for (i = 0; i < sizeof (allowed) / sizeof (allowed[0]); i++)
    if (personality_denied (seccomp, allowed[i]))
      fail_msg ("personality 0x%llx is denied", (unsigned long long)allowed[i]);
  build_filter (seccomp);
}

/* A socket-family rule is in force: the profile lists the native ABI
   alone, so that a 32-bit socketcall (whose arguments seccomp cannot
   read) is killed for its architecture; and the runtimes take it.  */
static void
test_entitle_seccomp_apply_sock_rules_native_abi (void **state)
{
  static const unsigned fx[] = { FX_SOCK_UNIX, FX_SOCK_USER };
  size_t i;

  (void)state;
  for (i = 0; i < 2; i++)
    {
      cleanup_json json_t *spec = spec_with (docker_like), *native = NULL;
      struct entitle_seccomp_plan_s plan = { .fx = fx[i] };
      const json_t *seccomp = applied (spec, &plan);
      cleanup_free char *want = NULL;

      assert_true (asprintf (&want, "[\"%s\"]", entitle_seccomp_host_archs ()[0]) > 0);
      native = parse_ok (want);
      assert_true (json_equal (native, json_get (seccomp, "architectures")));
      build_filter (seccomp);
    }
  {
    cleanup_json json_t *spec = spec_with (docker_like);
    struct entitle_seccomp_plan_s plan = { .fx = FX_NO_DEV_MKNOD };
    const json_t *seccomp = applied (spec, &plan);
    assert_int_equal (json_get (seccomp, "architectures")->n, 3);
  }
}

/* Podman's profile denies bpf and the module calls by name ahead of its
   allow-list: what a granted entitlement allows is lifted from such a
   rule (and from no rule with argument conditions), under either
   default.  */
static void
test_entitle_seccomp_apply_allow_lifts_denial (void **state)
{
  static const char *const profiles[] = {
    "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": ["
    "{\"names\": [\"bpf\", \"kexec_load\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 1},"
    "{\"names\": [\"bpf\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 22, \"args\": [{\"index\": 0, \"value\": 99, \"op\": \"SCMP_CMP_EQ\"}]},"
    "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\"}]}",
    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": ["
    "{\"names\": [\"bpf\", \"kexec_load\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 1}]}",
  };
  size_t i;

  (void)state;
  for (i = 0; i < 2; i++)
    {
      cleanup_json json_t *spec = spec_with (profiles[i]);
      char *allow[] = { "bpf", NULL };
      struct entitle_seccomp_plan_s plan = { .allow = allow };
      const json_t *seccomp = applied (spec, &plan), *syscalls = json_get (seccomp, "syscalls");
      size_t k, denied = 0, conditional = 0;

      for (k = 0; k < syscalls->n; k++)
        {
          const json_t *r = syscalls->items[k], *args = json_get (r, "args");
          if (allows (r))
            continue;
          denied += lists (r, "bpf") && (args == NULL || args->n == 0);
          conditional += lists (r, "bpf") && args && args->n > 0;
          if (lists (r, "kexec_load"))
            assert_false (lists (r, "bpf"));
        }
      assert_int_equal (denied, 0);
      assert_int_equal (conditional, i == 0);
      if (i == 0)
        assert_int_equal (count_allowing (seccomp, "bpf", NULL), 1);
      build_filter (seccomp);
    }
}

static void
test_entitle_seccomp_apply_allow_adds_one_rule (void **state)
{
  cleanup_json json_t *spec = spec_with (docker_like);
  char *deny[] = { "ptrace", NULL };
  char *allow[] = { "read", "mlock2", "munlock", "ptrace", "no_such_syscall_here", NULL };
  struct entitle_seccomp_plan_s plan = { .deny = deny, .allow = allow };
  const json_t *seccomp, *syscalls, *rule;
  size_t n_before;

  (void)state;
  n_before = json_get (json_get (json_get (spec, "linux"), "seccomp"), "syscalls")->n;
  seccomp = applied (spec, &plan);
  syscalls = json_get (seccomp, "syscalls");
  /* The rule that allowed only ptrace is gone, one rule is added.  */
  assert_int_equal (syscalls->n, n_before);
  rule = syscalls->items[syscalls->n - 1];
  assert_int_equal (json_get (rule, "names")->n, 2);
  assert_true (lists (rule, "mlock2"));
  assert_true (lists (rule, "munlock"));
  assert_null (json_get (rule, "args"));
  assert_true (allowed_unconditionally (seccomp, "mlock2"));
  assert_true (allowed_unconditionally (seccomp, "munlock"));
  /* Listed once; deny wins over allow; unknown names are left out.  */
  assert_int_equal (count_allowing (seccomp, "read", NULL), 1);
  assert_int_equal (count_allowing (seccomp, "ptrace", NULL), 0);
  assert_int_equal (count_allowing (seccomp, "no_such_syscall_here", NULL), 0);
  build_filter (seccomp);
}

/* "allow: allowed": a syscall the engine allows only under conditions is
   allowed whatever its arguments once entitle is asked to allow it (as
   security.memory-lock does for the mlock family).  */
static void
test_entitle_seccomp_apply_allow_conditional (void **state)
{
  static const char profile[] = "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": ["
                                "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\"},"
                                "{\"names\": [\"mlock\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": ["
                                "  {\"index\": 1, \"value\": 4096, \"op\": \"SCMP_CMP_LE\"}]}]}";
  cleanup_json json_t *spec = spec_with (profile);
  char *allow[] = { "mlock", "munlock", NULL };
  struct entitle_seccomp_plan_s plan = { .allow = allow };
  const json_t *seccomp;

  (void)state;
  seccomp = applied (spec, &plan);
  assert_true (allowed_unconditionally (seccomp, "munlock"));
  assert_true (allowed_unconditionally (seccomp, "mlock"));
  build_filter (seccomp);
}

static void
test_entitle_seccomp_apply_unresolvable_deny (void **state)
{
  static const char profile[] = "{\"defaultAction\": \"SCMP_ACT_ALLOW\"}";
  char *deny[] = { "no_such_syscall_here", NULL };
  struct entitle_seccomp_plan_s plan = { .deny = deny };
  struct entitle_config_s cfg;
  struct entitle_ctx_s ctx;
  entitle_error_t err = NULL;

  (void)state;
  /* Under an allowing default, a deny libseccomp cannot place is a
     restriction that cannot be enforced: noted, and settled as the admin
     says (refused, or with "warn" a warning).  */
  {
    cleanup_json json_t *spec = spec_with (profile);
    cleanup_outcome struct entitle_outcome_s out = { 0 };
    init_config (&cfg, false);
    entitle_ctx_init (&ctx, &test_log, &cfg);
    assert_int_equal (entitle_seccomp_apply (&ctx, spec, &plan, &out, &err), 0);
    assert_int_equal (out.n_lacks, 1);
    assert_true (entitle_outcome_settle (&cfg, &test_log, &out, &err) < 0);
    assert_non_null (strstr (err->msg, "the denial of syscall `no_such_syscall_here` cannot be enforced here"));
    entitle_error_release (&err);
  }
  {
    cleanup_json json_t *spec = spec_with (profile);
    cleanup_outcome struct entitle_outcome_s out = { 0 };
    init_config (&cfg, true);
    entitle_ctx_init (&ctx, &test_log, &cfg);
    assert_int_equal (entitle_seccomp_apply (&ctx, spec, &plan, &out, &err), 0);
    assert_int_equal (entitle_outcome_settle (&cfg, &test_log, &out, &err), 0);
    assert_null (err);
  }
}

static void
test_entitle_seccomp_apply_no_section (void **state)
{
  (void)state;
  /* Allowances alone: no filter is as open as it gets already.  */
  {
    cleanup_json json_t *spec = spec_with (NULL);
    cleanup_json json_t *orig = json_clone (spec);
    char *allow[] = { "mlock", NULL };
    struct entitle_seccomp_plan_s plan = { .allow = allow, .clone_ns = true };

    apply_ok (spec, &plan);
    assert_true (json_equal (spec, orig));
  }
  /* A restriction: a complete profile.  */
  {
    cleanup_json json_t *spec = spec_with (NULL);
    struct entitle_seccomp_plan_s plan = { .fx = FX_SOCK_UNIX };
    const json_t *seccomp, *rule = NULL;

    seccomp = applied (spec, &plan);
    assert_string_equal (json_string (json_get (seccomp, "defaultAction")), "SCMP_ACT_ERRNO");
    assert_true (allowed_unconditionally (seccomp, "read"));
    assert_int_equal (count_allowing (seccomp, "socket", &rule), 1);
    assert_true (args_are (json_get (rule, "args"), 0, "SCMP_CMP_EQ", 1));
    assert_int_equal (count_allowing (seccomp, "socketcall", NULL), 0);
    assert_no_repeated_index (seccomp);
    build_filter (seccomp);
  }
}

/* The generated profile.  */

/* The libseccomp token of "SCMP_ARCH_X86_64": libseccomp knows the
   architecture as "x86_64", in lower case.  */
static uint32_t
arch_token (const char *scmp_arch)
{
  char lower[32];
  size_t i;

  assert_non_null (scmp_arch);
  assert_int_equal (strncmp (scmp_arch, "SCMP_ARCH_", 10), 0);
  for (i = 0; scmp_arch[10 + i] && i < sizeof (lower) - 1; i++)
    lower[i] = (char)(scmp_arch[10 + i] >= 'A' && scmp_arch[10 + i] <= 'Z' ? scmp_arch[10 + i] + 32
                                                                           : scmp_arch[10 + i]);
  lower[i] = '\0';
  return seccomp_arch_resolve_name (lower);
}

static void
assert_native_arch (const json_t *seccomp)
{
  const json_t *archs = json_get (seccomp, "architectures");
  size_t i;
  bool native = false;

  assert_non_null (archs);
  for (i = 0; i < archs->n; i++)
    {
      uint32_t token = arch_token (json_string (archs->items[i]));
      assert_int_not_equal (token, 0);
      native |= token == seccomp_arch_native ();
    }
  assert_true (native);
}

static void
test_entitle_seccomp_generate_unprivileged (void **state)
{
  cleanup_json json_t *process = process_with_bounding (docker_caps);
  cleanup_json json_t *seccomp = generate (process);
  static const char *const denied[] = { "kcmp", "mount", "umount2", "kexec_load", "unshare", "setns",
                                        "init_module", "bpf", "keyctl", "userfaultfd", "pidfd_getfd",
                                        "clone3", "reboot", "swapon" };
  size_t i;

  (void)state;
  assert_non_null (seccomp);
  assert_string_equal (json_string (json_get (seccomp, "defaultAction")), "SCMP_ACT_ERRNO");
  assert_native_arch (seccomp);
  assert_true (allowed_unconditionally (seccomp, "read"));
  assert_true (allowed_unconditionally (seccomp, "write"));
  assert_true (allowed_unconditionally (seccomp, "socket"));
  assert_true (allowed_unconditionally (seccomp, "chroot")); /* CAP_SYS_CHROOT held */
  /* As Docker's profile from Linux 4.8 on: no CAP_SYS_PTRACE needed.  */
  assert_true (allowed_unconditionally (seccomp, "ptrace"));
  assert_true (allowed_unconditionally (seccomp, "process_vm_readv"));
  assert_true (allowed_unconditionally (seccomp, "process_vm_writev"));
  for (i = 0; i < sizeof (denied) / sizeof (denied[0]); i++)
    if (count_allowing (seccomp, denied[i], NULL) > 0)
      fail_msg ("`%s` allowed without its capability", denied[i]);
  /* clone, but no new namespaces.  */
  assert_int_equal (count_allowing (seccomp, "clone", NULL), 1);
  assert_false (allowed_unconditionally (seccomp, "clone"));
  assert_false (allowed_unconditionally (seccomp, "personality"));
  assert_no_repeated_index (seccomp);
  build_filter (seccomp);
}

/* "every syscall libseccomp knows for the host's architectures": the
   profile lists SCMP_ARCH_X86 (or SCMP_ARCH_ARM) for 32-bit programs,
   whose memory and file calls have names of their own.  */
static void
test_entitle_seccomp_generate_names_of_every_architecture (void **state)
{
  static const char *const compat_names[] = { "mmap2", "_llseek", "fcntl64", "fstat64", NULL };
  cleanup_json json_t *process = process_with_bounding (docker_caps);
  cleanup_json json_t *seccomp = generate (process);
  const json_t *archs = json_get (seccomp, "architectures");
  size_t i;

  (void)state;
  for (i = 0; i < archs->n; i++)
    {
      const char *a = json_string (archs->items[i]);
      uint32_t token = arch_token (a);
      const char *const *n;

      for (n = compat_names; *n; n++)
        if (seccomp_syscall_resolve_name_arch (token, *n) >= 0 && count_allowing (seccomp, *n, NULL) == 0)
          fail_msg ("`%s` of %s is not allowed", *n, a);
    }
}

/* What Docker's default profile allows without capabilities stays allowed
   (mlock is bounded by RLIMIT_MEMLOCK, not by CAP_IPC_LOCK); what it
   leaves out (io_uring) stays out.  */
static void
test_entitle_seccomp_generate_docker_level (void **state)
{
  static const char *const caps[] = { "CAP_KILL", NULL };
  static const char *const allowed[] = { "mlock", "mlockall", "munlock", "name_to_handle_at", "read" };
  static const char *const denied[] = { "io_uring_setup", "io_uring_enter", "io_uring_register",
                                        "migrate_pages", "bdflush" };
  cleanup_json json_t *process = process_with_bounding (caps);
  cleanup_json json_t *seccomp = generate (process);
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (allowed) / sizeof (allowed[0]); i++)
    assert_true (allowed_unconditionally (seccomp, allowed[i]));
  for (i = 0; i < sizeof (denied) / sizeof (denied[0]); i++)
    assert_int_equal (count_allowing (seccomp, denied[i], NULL), 0);
}

static void
test_entitle_seccomp_generate_ptrace_with_cap (void **state)
{
  static const char *const caps[] = { "CAP_KILL", "CAP_SYS_PTRACE", NULL };
  cleanup_json json_t *process = process_with_bounding (caps);
  cleanup_json json_t *seccomp = generate (process);

  (void)state;
  assert_true (allowed_unconditionally (seccomp, "ptrace"));
  assert_true (allowed_unconditionally (seccomp, "process_vm_readv"));
  assert_int_equal (count_allowing (seccomp, "mount", NULL), 0);
  assert_int_equal (count_allowing (seccomp, "kexec_load", NULL), 0);
  build_filter (seccomp);
}

static void
test_entitle_seccomp_generate_sys_admin (void **state)
{
  static const char *const caps[] = { "CAP_SYS_ADMIN", NULL };
  cleanup_json json_t *process = process_with_bounding (caps);
  cleanup_json json_t *seccomp = generate (process);

  (void)state;
  assert_true (allowed_unconditionally (seccomp, "mount"));
  assert_true (allowed_unconditionally (seccomp, "unshare"));
  assert_true (allowed_unconditionally (seccomp, "clone"));
  assert_true (allowed_unconditionally (seccomp, "clone3"));
  /* Never by name, whatever the capabilities.  */
  assert_int_equal (count_allowing (seccomp, "kexec_load", NULL), 0);
  /* Gated on CAP_SYS_PTRACE, which is not held; ptrace itself is not.  */
  assert_int_equal (count_allowing (seccomp, "kcmp", NULL), 0);
  assert_true (allowed_unconditionally (seccomp, "ptrace"));
  build_filter (seccomp);
}

static void
test_entitle_seccomp_generate_no_capabilities_object (void **state)
{
  cleanup_json json_t *process = json_new (JSON_OBJECT);
  cleanup_json json_t *seccomp = generate (process);

  (void)state;
  /* No capabilities object: runc and crun give none (caps.c); ptrace is
     not gated from Linux 4.8 on, mount is on CAP_SYS_ADMIN.  */
  assert_true (allowed_unconditionally (seccomp, "ptrace"));
  assert_int_equal (count_allowing (seccomp, "mount", NULL), 0);
  assert_int_equal (count_allowing (seccomp, "kexec_load", NULL), 0);
  build_filter (seccomp);
}

/* Every action and operator the OCI runtime spec names reads to one
   value of its own and writes back as the same text; allows() is true for
   those that let the call run.  */
static void
test_entitle_scmp_names_round_trip (void **state)
{
  static const struct
  {
    const char *name;
    bool allows;
  } acts[] = {
    { "SCMP_ACT_KILL", false },
    { "SCMP_ACT_KILL_PROCESS", false },
    { "SCMP_ACT_KILL_THREAD", false },
    { "SCMP_ACT_TRAP", false },
    { "SCMP_ACT_ERRNO", false },
    { "SCMP_ACT_TRACE", true },
    { "SCMP_ACT_ALLOW", true },
    { "SCMP_ACT_LOG", true },
    { "SCMP_ACT_NOTIFY", true },
  };
  static const char *const ops[] = { "SCMP_CMP_NE", "SCMP_CMP_LT", "SCMP_CMP_LE", "SCMP_CMP_EQ",
                                     "SCMP_CMP_GE", "SCMP_CMP_GT", "SCMP_CMP_MASKED_EQ" };
  unsigned seen = 0;
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (acts) / sizeof (acts[0]); i++)
    {
      enum entitle_scmp_act a = entitle_scmp_act_parse (acts[i].name);
      assert_int_not_equal (a, ENTITLE_ACT_UNKNOWN);
      assert_false (seen & (1u << a));
      seen |= 1u << a;
      assert_string_equal (entitle_scmp_act_name (a), acts[i].name);
      assert_int_equal (entitle_scmp_act_allows (a), acts[i].allows);
    }
  for (seen = 0, i = 0; i < sizeof (ops) / sizeof (ops[0]); i++)
    {
      enum scmp_compare op = entitle_scmp_op_parse (ops[i]);
      assert_int_not_equal (op, 0);
      assert_false (seen & (1u << op));
      seen |= 1u << op;
      assert_string_equal (entitle_scmp_op_name (op), ops[i]);
    }
  assert_int_equal (entitle_scmp_act_parse ("allow"), ENTITLE_ACT_UNKNOWN);
  assert_int_equal (entitle_scmp_act_parse (NULL), ENTITLE_ACT_UNKNOWN);
  assert_false (entitle_scmp_act_allows (ENTITLE_ACT_UNKNOWN));
  assert_null (entitle_scmp_act_name (ENTITLE_ACT_UNKNOWN));
  assert_int_equal (entitle_scmp_op_parse ("SCMP_CMP_MASKED"), 0);
  assert_null (entitle_scmp_op_name (0));
}

static void
test_entitle_seccomp_allowed_names_sorted_unique (void **state)
{
  cleanup_json json_t *seccomp = parse_ok ("{\"syscalls\": ["
                                           "{\"names\": [\"write\", \"read\"], \"action\": \"SCMP_ACT_ALLOW\"},"
                                           "{\"names\": [\"kill\"], \"action\": \"SCMP_ACT_ERRNO\"},"
                                           "{\"names\": [\"read\", \"close\"], \"action\": \"SCMP_ACT_LOG\"}]}");
  char **names = entitle_seccomp_allowed_names (seccomp), **p;

  (void)state;
  assert_string_equal (names[0], "close");
  assert_string_equal (names[1], "read");
  assert_string_equal (names[2], "write");
  assert_null (names[3]);
  for (p = names; *p; p++)
    free (*p);
  free (names);
}

/* What entitle's restrictions give the calls they deny, as a process
   sees it: the profile (from a recorded engine config) rewritten for
   @plan, built as runc builds it and loaded in a child, which makes the
   calls.  Every call entitle denies reads EPERM whatever the engine's
   default errno (Podman's is ENOSYS; entitlements(7) promises EPERM);
   every call it allows reaches the kernel (neither EPERM nor ENOSYS).  */

#define N_ELEMENTS(x) (sizeof (x) / sizeof ((x)[0]))

/* One call, and what it must get: 0 for "reaches the kernel".  */
struct probe_call
{
  long nr;
  unsigned long a[4];
  int want;
};

struct probe_calls
{
  struct probe_call *v;
  size_t n, cap;
};

static void
add_call (struct probe_calls *c, long nr, unsigned long a0, unsigned long a1, unsigned long a2, unsigned long a3,
          int want)
{
  if (c->n == c->cap)
    {
      c->cap = c->cap ? 2 * c->cap : 256;
      c->v = realloc (c->v, c->cap * sizeof (*c->v));
      assert_non_null (c->v);
    }
  c->v[c->n++] = (struct probe_call){ nr, { a0, a1, a2, a3 }, want };
}

/* Each call of @c in a child under @seccomp: 0 or its errno, into @got.  */
static void
errnos_under (const json_t *seccomp, const struct probe_calls *c, int *got)
{
  scmp_filter_ctx ctx = NULL;
  char why[256];
  int fds[2], status;
  size_t i, off = 0;
  pid_t pid;

  if (seccomp_build_like_runc (seccomp, &ctx, why, sizeof (why)) < 0)
    fail_msg ("the runtimes would refuse this profile: %s", why);
  assert_int_equal (pipe (fds), 0);
  pid = fork ();
  assert_true (pid >= 0);
  if (pid == 0)
    {
      close (fds[0]);
      if (seccomp_load (ctx) < 0)
        _exit (255);
      for (i = 0; i < c->n; i++)
        {
          const struct probe_call *p = &c->v[i];
          long r = syscall (p->nr, p->a[0], p->a[1], p->a[2], p->a[3], 0L);
          int e = r < 0 ? errno : 0;
          if (r > 2 && p->nr == SYS_socket)
            close ((int)r);
          if (write (fds[1], &e, sizeof (e)) != (ssize_t)sizeof (e))
            _exit (254);
        }
      _exit (0);
    }
  seccomp_release (ctx);
  close (fds[1]);
  while (off < c->n * sizeof (int))
    {
      ssize_t r = read (fds[0], (char *)got + off, c->n * sizeof (int) - off);
      if (r <= 0)
        break;
      off += (size_t)r;
    }
  close (fds[0]);
  assert_int_equal (waitpid (pid, &status, 0), pid);
  assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  assert_int_equal (off, c->n * sizeof (int));
}

static bool
user_socket (unsigned long family, unsigned long type)
{
  unsigned long t = type & 0xf;
  if (family == AF_UNIX || family == AF_NETLINK)
    return true;
  return (family == AF_INET || family == AF_INET6) && (t == SOCK_STREAM || t == SOCK_DGRAM || t == SOCK_SEQPACKET);
}

/* socket() of every family the C library names and more, of every type
   (and one with SOCK_CLOEXEC), under network.none or network.user.  */
static void
socket_calls (struct probe_calls *c, unsigned fx)
{
  static const unsigned long more[] = { 64, 255, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff };
  unsigned long f, t;

  for (f = 0; f < AF_MAX + N_ELEMENTS (more); f++)
    {
      unsigned long family = f < AF_MAX ? f : more[f - AF_MAX];
      for (t = 0; t <= 16; t++)
        {
          unsigned long type = t < 16 ? t : (SOCK_STREAM | SOCK_CLOEXEC);
          bool ok = fx == FX_SOCK_UNIX ? family == AF_UNIX : user_socket (family, type);
          add_call (c, SYS_socket, family, type, 0, 0, ok ? 0 : EPERM);
        }
    }
}

/* host.devices.none: every node but a device node (types the kernel
   refuses, a directory say, are denied too).  */
static bool
mode_is_node (unsigned long mode)
{
  unsigned long t = mode & S_IFMT;
  return t == 0 || t == S_IFREG || t == S_IFIFO || t == S_IFSOCK;
}

/* mknod and mknodat of every file type, at a path that does not exist
   (what reaches the kernel reads ENOENT).  */
static void
mknod_calls (struct probe_calls *c)
{
  static const char path[] = "/nonexistent-entitle-unit/node";
  unsigned long t;

  for (t = 0; t < 16; t++)
    {
      unsigned long mode = (t << 12) | 0600;
      bool ok = mode_is_node (mode);
#ifdef SYS_mknod
      add_call (c, SYS_mknod, (unsigned long)path, mode, 0, 0, ok ? 0 : EPERM);
#endif
      add_call (c, SYS_mknodat, (unsigned long)AT_FDCWD, (unsigned long)path, mode, 0, ok ? 0 : EPERM);
    }
}

static void
personality_calls (struct probe_calls *c)
{
  static const unsigned long denied[] = { 1, 6, 8, 0x20000, 0x20008, 0x0040000, 0x7fffffff, 0x80000000, 0xfffffffe };
  size_t i;

  for (i = 0; i < N_ELEMENTS (denied); i++)
    add_call (c, SYS_personality, denied[i], 0, 0, 0, EPERM);
  add_call (c, SYS_personality, 0xffffffff, 0, 0, 0, 0);
  add_call (c, SYS_personality, 0, 0, 0, 0, 0);
}

/* clone with a namespace flag (and CLONE_NEWNS | CLONE_FS, which the
   kernel refuses with EINVAL, so that nothing is ever created), and
   without (CLONE_SIGHAND without CLONE_VM: EINVAL); clone3, which must
   read ENOSYS, for glibc to fall back to clone.  */
static void
clone_calls (struct probe_calls *c)
{
  static const unsigned long ns[] = { CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
                                      CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET };
  size_t i;

  for (i = 0; i < N_ELEMENTS (ns); i++)
    add_call (c, SYS_clone, ns[i] | CLONE_NEWNS | CLONE_FS, 0, 0, 0, EPERM);
  add_call (c, SYS_clone, CLONE_SIGHAND, 0, 0, 0, 0);
#ifdef SYS_clone3
  add_call (c, SYS_clone3, 0, 0, 0, 0, ENOSYS);
#endif
}

static const char *
errno_name (int e)
{
  return e == 0 ? "0" : e == EPERM ? "EPERM"
                    : e == ENOSYS  ? "ENOSYS"
                                   : strerror (e);
}

/* Under the recorded engine config @config, @plan's denials read EPERM
   and its allowances reach the kernel, for the calls of @c.  */
static void
check_errnos (const char *config, const struct entitle_seccomp_plan_s *plan, const struct probe_calls *c)
{
  cleanup_json json_t *recorded = load_test_data (config);
  cleanup_json json_t *spec = json_new (JSON_OBJECT);
  cleanup_free int *got = calloc (c->n, sizeof (int));
  json_t *linux_ = json_new (JSON_OBJECT);
  size_t i;

  assert_non_null (got);
  json_set (linux_, "seccomp", json_clone (json_get (json_get (recorded, "linux"), "seccomp")));
  json_set (spec, "linux", linux_);
  errnos_under (applied (spec, plan), c, got);
  for (i = 0; i < c->n; i++)
    {
      const struct probe_call *p = &c->v[i];
      bool ok = p->want ? got[i] == p->want : got[i] != EPERM && got[i] != ENOSYS;
      cleanup_free char *name = ok ? NULL : seccomp_syscall_resolve_num_arch (SCMP_ARCH_NATIVE, (int)p->nr);
      if (!ok)
        fail_msg ("%s: %s (0x%lx, 0x%lx, 0x%lx): %s, want %s", config, name ? name : "?", p->a[0], p->a[1],
                  p->a[2], errno_name (got[i]), p->want ? errno_name (p->want) : "the kernel's answer");
    }
}

static const char *const engine_configs[] = { "engines/docker-default.json", "engines/podman-default.json" };

static void
test_entitle_seccomp_apply_denials_read_eperm (void **state)
{
  static const unsigned sock[] = { FX_SOCK_UNIX, FX_SOCK_USER };
  size_t i, k;

  (void)state;
  for (i = 0; i < N_ELEMENTS (engine_configs); i++)
    {
      struct probe_calls mknods = { 0 }, personas = { 0 }, clones = { 0 };
      struct entitle_seccomp_plan_s no_dev = { .fx = FX_NO_DEV_MKNOD }, persona = { .fx = FX_PERSONALITY };
      struct entitle_seccomp_plan_s no_ns = { .clone_no_ns = true };

      for (k = 0; k < N_ELEMENTS (sock); k++)
        {
          struct probe_calls sockets = { 0 };
          struct entitle_seccomp_plan_s plan = { .fx = sock[k] };
          socket_calls (&sockets, sock[k]);
          check_errnos (engine_configs[i], &plan, &sockets);
          free (sockets.v);
        }
      mknod_calls (&mknods);
      check_errnos (engine_configs[i], &no_dev, &mknods);
      personality_calls (&personas);
      check_errnos (engine_configs[i], &persona, &personas);
      clone_calls (&clones);
      check_errnos (engine_configs[i], &no_ns, &clones);
      free (mknods.v);
      free (personas.v);
      free (clones.v);
    }
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_entitle_seccomp_apply_sock_unix_deny_default),
    cmocka_unit_test (test_entitle_seccomp_apply_sock_unix_drops_repeated_index),
    cmocka_unit_test (test_entitle_seccomp_apply_deny_ptrace_whatever_args),
    cmocka_unit_test (test_entitle_seccomp_apply_deny_under_allow_default),
    cmocka_unit_test (test_entitle_seccomp_apply_sock_unix_under_allow_default),
    cmocka_unit_test (test_entitle_seccomp_apply_sock_user_deny_default),
    cmocka_unit_test (test_entitle_seccomp_apply_keeps_untouched_numbers),
    cmocka_unit_test (test_entitle_seccomp_apply_personality_linux_only),
    cmocka_unit_test (test_entitle_seccomp_apply_no_dev_mknod),
    cmocka_unit_test (test_entitle_seccomp_apply_clone_no_ns),
    cmocka_unit_test (test_entitle_seccomp_apply_clone_no_ns_allow_default),
    cmocka_unit_test (test_entitle_seccomp_apply_personality_allow_default),
    cmocka_unit_test (test_entitle_seccomp_apply_sock_rules_native_abi),
    cmocka_unit_test (test_entitle_seccomp_apply_allow_lifts_denial),
    cmocka_unit_test (test_entitle_seccomp_apply_allow_adds_one_rule),
    cmocka_unit_test (test_entitle_seccomp_apply_allow_conditional),
    cmocka_unit_test (test_entitle_seccomp_apply_unresolvable_deny),
    cmocka_unit_test (test_entitle_seccomp_apply_no_section),
    cmocka_unit_test (test_entitle_seccomp_generate_unprivileged),
    cmocka_unit_test (test_entitle_seccomp_generate_docker_level),
    cmocka_unit_test (test_entitle_seccomp_generate_names_of_every_architecture),
    cmocka_unit_test (test_entitle_seccomp_generate_ptrace_with_cap),
    cmocka_unit_test (test_entitle_seccomp_generate_sys_admin),
    cmocka_unit_test (test_entitle_seccomp_generate_no_capabilities_object),
    cmocka_unit_test (test_entitle_scmp_names_round_trip),
    cmocka_unit_test (test_entitle_seccomp_allowed_names_sorted_unique),
    cmocka_unit_test (test_entitle_seccomp_apply_denials_read_eperm),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
