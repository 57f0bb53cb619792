/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "unit.h"
#include "compile.h"
#include "context.h"
#include "json.h"
#include "landlock.h"
#include "layers.h"
#include "rewrite.h"
#include "utils.h"

/* fs.write and fs.read through the in-container helper (lib/compile/
   landlock.c): the helper's command line, its mount, process.args, the
   idempotence of the rewrite, and what happens where the kernel has no
   Landlock.  The helper itself runs for real in test/integration/
   landlock.bats.  */

#define HELPER "/usr/libexec/entitle/entitle-init"

/* What `runc spec` writes, cut to what the rewrite reads: a command and
   the /dev tmpfs with the mounts engines put below it.  */
static const char spec_text[]
    = "{\"ociVersion\":\"1.0.2\",\"process\":{\"args\":[\"sh\",\"-c\",\"echo hi\"],\"cwd\":\"/\"},"
      "\"root\":{\"path\":\"rootfs\",\"readonly\":true},"
      "\"mounts\":[{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\"},"
      "{\"destination\":\"/dev\",\"type\":\"tmpfs\",\"source\":\"tmpfs\",\"options\":[\"nosuid\",\"mode=755\"]},"
      "{\"destination\":\"/dev/shm\",\"type\":\"tmpfs\",\"source\":\"shm\"}],"
      "\"linux\":{\"namespaces\":[{\"type\":\"mount\"}]}}";

static struct entitle_log_s test_log = { .path = NULL };
/* No admin config, as entitle_config_load leaves it without a file.  */
static void
no_config (struct entitle_config_s *cfg)
{
  memset (cfg, 0, sizeof (*cfg));
  entitle_config_reset (cfg);
}
#define cleanup_config __attribute__ ((cleanup (entitle_config_free)))

static json_t *
spec_requesting (const char *list)
{
  json_t *spec = parse_ok (spec_text);
  json_set (json_get_or_add (spec, "annotations", JSON_OBJECT), ENTITLE_ANNOTATION, json_new_string (list));
  return spec;
}

/* entitle_rewrite of @spec under @cfg with a kernel of Landlock ABI
   @abi; the message of a failure in *msg.  */
static int
rewrite_abi (const struct entitle_config_s *cfg, json_t *spec, int abi, char **msg)
{
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  struct entitle_ctx_s ctx;
  entitle_error_t err = NULL;
  int ret;

  entitle_ctx_init (&ctx, &test_log, cfg);
  ctx.landlock_abi = abi;
  ret = entitle_rewrite (&ctx, spec, &final, &err);
  entitle_ctx_release (&ctx);
  if (ret < 0 && msg)
    *msg = strdup (err->msg);
  else if (ret < 0)
    fail_msg ("entitle_rewrite: %s", err->msg);
  entitle_error_release (&err);
  return ret;
}

/* @list parsed into @set, as the resolver would hand it over.  */
static void
set_of (const char *list, struct entitle_set_s *set)
{
  entitle_error_t err = NULL;
  if (entitle_parse_list (NULL, list, "test", set, &err) < 0)
    fail_msg ("%s: %s", list, err->msg);
}

/* A context whose kernel has Landlock ABI @abi and, where @seccomp_ebpf,
   eBPF seccomp filters (a FAKE kernel answer: mainline has none), called
   with --preserve-fds @preserve.  */
static struct entitle_ctx_s *
ctx_of (struct entitle_ctx_s *ctx, int abi, int seccomp_ebpf, int preserve)
{
  static struct entitle_config_s cfg; /* the contexts point at it */

  entitle_config_free (&cfg);
  no_config (&cfg);
  entitle_ctx_init (ctx, &test_log, &cfg);
  ctx->landlock_abi = abi;
  ctx->seccomp_ebpf = seccomp_ebpf;
  ctx->preserve_fds = preserve;
  return ctx;
}

/* The helper's argv for @set in @ctx, joined with spaces.  */
static char *
argv_of_set (struct entitle_ctx_s *ctx, const struct entitle_set_s *set)
{
  cleanup_strv char **argv = entitle_landlock_argv (ctx, set);
  char *out = calloc (1, 4096);

  for (char **p = argv; *p; p++)
    {
      strcat (out, p == argv ? "" : " ");
      strcat (out, *p);
    }
  return out;
}

/* The helper's argv for @list in @ctx, joined with spaces.  */
static char *
argv_in (struct entitle_ctx_s *ctx, const char *list)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };

  set_of (list, &set);
  return argv_of_set (ctx, &set);
}

/* The helper's argv for @list on this tree's CI kernel: Landlock ABI 7, no
   eBPF seccomp.  */
static char *
argv_of (const char *list)
{
  struct entitle_ctx_s ctx;
  return argv_in (ctx_of (&ctx, 7, 0, 0), list);
}

static char *
text_of (const json_t *v)
{
  entitle_error_t err = NULL;
  char *out;
  size_t len;

  if (json_generate_compact (v, &out, &len, &err) < 0)
    fail_msg ("json_generate_compact: %s", err->msg);
  /* Without the newline that ends a file.  */
  if (len && out[len - 1] == '\n')
    out[len - 1] = '\0';
  return out;
}

static void
test_landlock_argv_paths (void **state)
{
  cleanup_free char *a = argv_of ("fs.write=/tmp,fs.write=/data,fs.read=/etc");

  (void)state;
  /* The set is sorted: the command line does not depend on the order the
     entitlements were written in.  */
  assert_string_equal (a, "/dev/entitle-init --fs.read /etc --fs.write /data --fs.write /tmp --");
}

static void
test_landlock_argv_tcp_connect_only_when_every_rule_has_ports (void **state)
{
  cleanup_free char *ports = argv_of ("fs.write=/tmp,network.egress=10.0.0.0/8:443,network.egress=192.168.0.0/16:443,"
                                      "network.egress=::1/128:8000-8002");
  cleanup_free char *portless = argv_of ("fs.write=/tmp,network.egress=10.0.0.0/8:443,network.egress=127.0.0.0/8");
  cleanup_free char *wide = argv_of ("fs.write=/tmp,network.egress=10.0.0.0/8:1-2000");

  (void)state;
  /* One rule a port and no address: 443 once, whatever the CIDRs.  */
  assert_string_equal (ports, "/dev/entitle-init --fs.write /tmp --tcp-connect 443 --tcp-connect 8000-8002 --");
  /* A rule without a port allows every port: Landlock would deny what
     the cgroup programs allow, so there is no connect layer.  */
  assert_string_equal (portless, "/dev/entitle-init --fs.write /tmp --");
  /* More ports than the layer takes.  */
  assert_string_equal (wide, "/dev/entitle-init --fs.write /tmp --");
}

static void
test_landlock_argv_tcp_bind (void **state)
{
  cleanup_free char *bind = argv_of ("fs.read=/etc,network.bind=8080,network.bind=9000-9001,network.bind-map=80:8080");
  cleanup_free char *map_only = argv_of ("fs.read=/etc,network.bind-map=80:8080");
  cleanup_free char *wide = argv_of ("fs.read=/etc,network.bind=1024-65535");

  (void)state;
  /* bind(0) and a bind-map's FROM (Landlock sees the port before the bind
     program maps it) pass the cgroup programs: Landlock allows them.  */
  assert_string_equal (bind, "/dev/entitle-init --fs.read /etc --tcp-bind 0 --tcp-bind 8080 --tcp-bind 9000-9001 "
                             "--tcp-bind 80 --");
  /* Without network.bind no port is refused.  */
  assert_string_equal (map_only, "/dev/entitle-init --fs.read /etc --");
  assert_string_equal (wide, "/dev/entitle-init --fs.read /etc --");
}

/* The whole rewrite: the helper mounted read-only last, in front of the
   command; compiling the result again gives the same bytes.  */
static void
test_landlock_rewrite_mount_and_args_idempotent (void **state)
{
  cleanup_json json_t *spec = spec_requesting ("fs.write=/tmp,network.egress=10.0.0.0/8:443");
  cleanup_config struct entitle_config_s cfg;
  cleanup_free char *first = NULL, *second = NULL, *args = NULL, *mount = NULL;
  const json_t *mounts;

  (void)state;
  setenv ("ENTITLE_INIT", HELPER, 1);
  no_config (&cfg);
  assert_int_equal (rewrite_abi (&cfg, spec, 7, NULL), 1);
  args = text_of (json_get (json_get (spec, "process"), "args"));
  assert_string_equal (args, "[\"/dev/entitle-init\",\"--fs.write\",\"/tmp\",\"--tcp-connect\",\"443\",\"--\","
                             "\"sh\",\"-c\",\"echo hi\"]");
  mounts = json_get (spec, "mounts");
  assert_int_equal (mounts->n, 4);
  mount = text_of (mounts->items[3]);
  assert_string_equal (mount, "{\"destination\":\"/dev/entitle-init\",\"type\":\"bind\",\"source\":\"" HELPER "\","
                              "\"options\":[\"bind\",\"ro\",\"nosuid\",\"nodev\"]}");
  first = text_of (spec);
  assert_int_equal (rewrite_abi (&cfg, spec, 7, NULL), 1);
  second = text_of (spec);
  assert_string_equal (first, second);
  unsetenv ("ENTITLE_INIT");
}

/* A prefix and a helper mount that did not come from this rewrite (an
   image's, another set's) are replaced, not stacked: the command is what
   follows the first "--", the mount is ours and last.  */
static void
test_landlock_rewrite_replaces_foreign_prefix_and_mount (void **state)
{
  cleanup_json json_t *spec = spec_requesting ("fs.write=/tmp");
  cleanup_config struct entitle_config_s cfg;
  cleanup_free char *args = NULL;
  const json_t *mounts;

  (void)state;
  json_set (json_get (spec, "process"), "args",
            parse_ok ("[\"/dev/entitle-init\",\"--fs.write\",\"/\",\"--\",\"sh\"]"));
  /* Before the /dev tmpfs, which would hide it.  */
  json_set (spec, "mounts",
            parse_ok ("[{\"destination\":\"/dev/entitle-init\",\"type\":\"bind\",\"source\":\"/bin/true\"},"
                      "{\"destination\":\"/dev\",\"type\":\"tmpfs\",\"source\":\"tmpfs\"}]"));
  no_config (&cfg);
  assert_int_equal (rewrite_abi (&cfg, spec, 7, NULL), 1);
  args = text_of (json_get (json_get (spec, "process"), "args"));
  assert_string_equal (args, "[\"/dev/entitle-init\",\"--fs.write\",\"/tmp\",\"--\",\"sh\"]");
  mounts = json_get (spec, "mounts");
  assert_int_equal (mounts->n, 2);
  assert_string_equal (json_string (json_get (mounts->items[0], "destination")), "/dev");
  assert_string_equal (json_string (json_get (mounts->items[1], "destination")), "/dev/entitle-init");
  assert_string_not_equal (json_string (json_get (mounts->items[1], "source")), "/bin/true");
}

static void
test_landlock_rewrite_refuses_dev_not_tmpfs (void **state)
{
  cleanup_json json_t *spec = spec_requesting ("fs.read=/etc");
  cleanup_config struct entitle_config_s cfg;
  cleanup_free char *msg = NULL;

  (void)state;
  /* Docker's -v /dev:/dev: the mount point would be made in the host's.  */
  json_push (json_get (spec, "mounts"), parse_ok ("{\"destination\":\"/dev/\",\"type\":\"bind\",\"source\":\"/dev\"}"));
  no_config (&cfg);
  assert_true (rewrite_abi (&cfg, spec, 7, &msg) < 0);
  assert_contains (msg, "entitlement `fs.read`");
  assert_contains (msg, "/dev is not a tmpfs");
}

/* Without Landlock the refusal names the entitlement and the kernel;
   under "warn" the container runs without the helper, as warned.  */
static void
test_landlock_without_landlock_refused_or_warned (void **state)
{
  cleanup_json json_t *spec = spec_requesting ("fs.write=/data");
  cleanup_json json_t *warned = spec_requesting ("fs.write=/data");
  cleanup_config struct entitle_config_s cfg, warn;
  cleanup_free char *msg = NULL, *args = NULL;

  (void)state;
  no_config (&cfg);
  assert_true (rewrite_abi (&cfg, spec, 0, &msg) < 0);
  assert_string_equal (msg, "entitlement `fs.write` cannot be enforced here: it needs Landlock, which this kernel lacks");
  config_from (&warn, "{\"on_unenforceable\":\"warn\"}");
  assert_int_equal (rewrite_abi (&warn, warned, 0, NULL), 1);
  args = text_of (json_get (json_get (warned, "process"), "args"));
  assert_string_equal (args, "[\"sh\",\"-c\",\"echo hi\"]");
  assert_int_equal (json_get (warned, "mounts")->n, 3);
}

/* A config without a command runs nothing (the runtimes refuse it), and
   the trust rule compiles views without args: nothing is added.  */
static void
test_landlock_no_args_nothing_added (void **state)
{
  cleanup_json json_t *spec = spec_requesting ("fs.write=/tmp");
  cleanup_config struct entitle_config_s cfg;

  (void)state;
  json_del (json_get (spec, "process"), "args");
  no_config (&cfg);
  assert_int_equal (rewrite_abi (&cfg, spec, 7, NULL), 1);
  assert_null (json_get (json_get (spec, "process"), "args"));
  assert_int_equal (json_get (spec, "mounts")->n, 3);
}

/* exec --process: the engine's process object gets the same prefix.  */
static void
test_landlock_wrap_process (void **state)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  cleanup_json json_t *process = parse_ok ("{\"args\":[\"ls\",\"-l\"],\"cwd\":\"/\"}");
  cleanup_free char *once = NULL, *twice = NULL;
  struct entitle_ctx_s ctx;

  (void)state;
  set_of ("fs.read=/etc,network.bind=80", &set);
  entitle_landlock_wrap (ctx_of (&ctx, 7, 0, 0), process, &set);
  once = text_of (process);
  assert_string_equal (once, "{\"cwd\":\"/\",\"args\":[\"/dev/entitle-init\",\"--fs.read\",\"/etc\",\"--tcp-bind\",\"0\","
                             "\"--tcp-bind\",\"80\",\"--\",\"ls\",\"-l\"]}");
  entitle_landlock_wrap (&ctx, process, &set);
  twice = text_of (process);
  assert_string_equal (once, twice);
}

/* An admin's program at `seccomp` (examples/seccomp1.json) is one more
   filter for the helper, after entitle's own, where the kernel has eBPF
   seccomp (a FAKE kernel answer); on mainline, none, and no helper for
   it.  */
static void
test_helper_argv_custom_seccomp_fake_kernel (void **state)
{
  static const struct entitle_prog_s prog = { .object = "seccomp1.bpf.o", .program = "close_999", .attach = "seccomp", .point = ENTITLE_POINT_SECCOMP };
  struct entitle_entry_s custom = { .name = "example.com.seccomp1", .progs = &prog, .n_progs = 1, .custom = "t.json" };
  struct entitle_request_s items[] = { { .entry = &custom },
                                       { .entry = entitle_catalogue_find (NULL, "security.confined", 17) } };
  struct entitle_set_s alone = { items, 1 }, both = { items, 2 };
  struct entitle_ctx_s ctx;
  cleanup_free char *a = NULL, *b = NULL, *c = NULL;

  (void)state;
  a = argv_of_set (ctx_of (&ctx, 0, 1, 0), &alone);
  assert_string_equal (a, "/dev/entitle-init --seccomp-fd 3 --");
  assert_int_equal (entitle_layers_seccomp_filters (&ctx, &alone), 1);
  b = argv_of_set (ctx_of (&ctx, 0, 1, 1), &both);
  assert_string_equal (b, "/dev/entitle-init --seccomp-fd 4 --seccomp-fd 5 --");
  assert_int_equal (entitle_layers_seccomp_filters (&ctx, &both), 2);
  assert_false (entitle_landlock_wraps (ctx_of (&ctx, 0, 0, 0), &alone));
  c = argv_of_set (ctx_of (&ctx, 0, 0, 0), &both);
  assert_string_equal (c, "/dev/entitle-init --");
}

/* Where the kernel has eBPF seccomp (a FAKE kernel answer), a set with
   syscall rules runs through the helper, which gets the filter as the fd
   after the runtime's --preserve-fds; without Landlock it gets no
   Landlock rule.  */
static void
test_helper_argv_seccomp_fd_fake_kernel (void **state)
{
  struct entitle_ctx_s ctx;
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  cleanup_free char *a = NULL, *b = NULL, *c = NULL, *d = NULL;

  (void)state;
  a = argv_in (ctx_of (&ctx, 7, 1, 0), "security.confined,fs.write=/tmp");
  assert_string_equal (a, "/dev/entitle-init --fs.write /tmp --seccomp-fd 3 --");
  b = argv_in (ctx_of (&ctx, 0, 1, 2), "network.none,fs.write=/tmp");
  assert_string_equal (b, "/dev/entitle-init --seccomp-fd 5 --");
  /* No syscall rule: no filter, and no helper for it.  */
  c = argv_in (ctx_of (&ctx, 0, 1, 0), "network.egress=10.0.0.0/8");
  assert_string_equal (c, "/dev/entitle-init --");
  set_of ("network.egress=10.0.0.0/8", &set);
  assert_false (entitle_landlock_wraps (ctx_of (&ctx, 0, 1, 0), &set));
  /* Mainline: the helper for Landlock only.  */
  d = argv_in (ctx_of (&ctx, 7, 0, 0), "security.confined,fs.write=/tmp");
  assert_string_equal (d, "/dev/entitle-init --fs.write /tmp --");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_landlock_argv_paths),
    cmocka_unit_test (test_helper_argv_custom_seccomp_fake_kernel),
    cmocka_unit_test (test_landlock_argv_tcp_connect_only_when_every_rule_has_ports),
    cmocka_unit_test (test_landlock_argv_tcp_bind),
    cmocka_unit_test (test_landlock_rewrite_mount_and_args_idempotent),
    cmocka_unit_test (test_landlock_rewrite_replaces_foreign_prefix_and_mount),
    cmocka_unit_test (test_landlock_rewrite_refuses_dev_not_tmpfs),
    cmocka_unit_test (test_landlock_without_landlock_refused_or_warned),
    cmocka_unit_test (test_landlock_no_args_nothing_added),
    cmocka_unit_test (test_landlock_wrap_process),
    cmocka_unit_test (test_helper_argv_seccomp_fd_fake_kernel),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
