/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit.h"
#include "seccomp-load.h"
#include "compile.h"
#include "rewrite.h"
#include "context.h"
#include "file.h"
#include "json.h"
#include "utils.h"

/* The configs real engines wrote on the build host (test/data/engines,
   recorded by record.sh), each compiled with every entitlement of the
   catalogue and with the common sets, under an admin config that grants
   them all: the rewrite either succeeds with a seccomp profile that loads
   as runc 1.1.5 and crun 1.8.1 load it (Podman's profile with
   network.none once gave "error adding seccomp rule for syscall socket:
   file exists"), or is refused with one line.  The matrix
   (test/matrix/run.sh) runs the same cells in real containers.  */

#ifndef ENTITLE_TEST_DATADIR
#define ENTITLE_TEST_DATADIR "test/data"
#endif

static struct entitle_log_s quiet = { .path = NULL };

static const char *const sets[] = { "network.none,security.confined",
                                    "network.user,security.confined,network.egress=10.200.0.1/32",
                                    "network.admin,security.admin,host.devices.admin",
                                    "host.processes.none,host.devices.none" };

static char *
engines_dir (void)
{
  const char *srcdir = getenv ("ENTITLE_SRCDIR");
  char *dir;

  if (srcdir && *srcdir)
    assert_true (asprintf (&dir, "%s/test/data/engines", srcdir) > 0);
  else
    assert_true (asprintf (&dir, "%s/engines", ENTITLE_TEST_DATADIR) > 0);
  return dir;
}

/* A recorded config (not index.json or the recorder's files).  */
static bool
is_config (const char *name)
{
  size_t n = strlen (name);
  return n > 5 && strcmp (name + n - 5, ".json") == 0 && strcmp (name, "index.json") != 0;
}

static json_t *
load (const char *dir, const char *name)
{
  cleanup_free char *path = NULL, *raw = NULL;
  entitle_error_t err = NULL;
  json_t *spec = NULL;
  size_t len;

  assert_true (asprintf (&path, "%s/%s", dir, name) > 0);
  if (entitle_file_read (path, ENTITLE_MAX_CONFIG_SIZE, &raw, &len, &err) < 0 || json_parse (raw, len, &spec, &err) < 0)
    fail_msg ("%s: %s", path, err->msg);
  return spec;
}

/* The compact form of a config an engine wrote parses back to the same
   tree, and is its own compact form (entitle's generator, not yajl's).  */
static void
compact_round_trip (const json_t *spec, const char *name)
{
  cleanup_free char *out = NULL, *again = NULL;
  cleanup_json json_t *back = NULL;
  entitle_error_t err = NULL;
  size_t len, len2;

  if (json_generate_compact (spec, &out, &len, &err) < 0 || json_parse (out, len, &back, &err) < 0
      || json_generate_compact (back, &again, &len2, &err) < 0)
    fail_msg ("%s: %s", name, err->msg);
  if (!json_equal (spec, back) || len != len2 || memcmp (out, again, len) != 0)
    fail_msg ("%s: the compact form does not round-trip", name);
}

/* One cell: @list on the config @name.  */
static void
cell (const struct entitle_config_s *cfg, const char *dir, const char *name, const char *list)
{
  cleanup_json json_t *spec = load (dir, name);
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  struct entitle_ctx_s ctx;
  entitle_error_t err = NULL;
  const json_t *seccomp;
  char why[256];
  int ret;

  compact_round_trip (spec, name);
  json_set (json_get_or_add (spec, "annotations", JSON_OBJECT), ENTITLE_ANNOTATION, json_new_string (list));
  entitle_ctx_init (&ctx, &quiet, cfg);
  ret = entitle_rewrite (&ctx, spec, &final, &err);
  entitle_ctx_release (&ctx);
  if (ret < 0)
    {
      /* Refused: one line, naming what (fs.* where the kernel has no
         Landlock; an engine's CAP_SYS_ADMIN or CAP_SYS_PTRACE beside the
         host's pid namespace, DESIGN §8).  */
      assert_null (strchr (err->msg, '\n'));
      if (strstr (list, "fs.") == NULL && strstr (err->msg, "cannot be kept from entitle's enforcement") == NULL)
        fail_msg ("%s x %s: refused: %s", name, list, err->msg);
      entitle_error_release (&err);
      return;
    }
  seccomp = json_get (json_get (spec, "linux"), "seccomp");
  if (seccomp && seccomp_load_like_runc (seccomp, why, sizeof (why)) < 0)
    fail_msg ("%s x %s: the runtimes would refuse the profile: %s", name, list, why);
  /* create on a bundle it rewrote writes the same bytes, and the hook from
     hooks.d (compile --check) finds the config as entitle wrote it.  */
  {
    cleanup_json json_t *again = json_clone (spec);
    cleanup_entitle_set struct entitle_set_s final2 = { 0 };
    entitle_ctx_init (&ctx, &quiet, cfg);
    ret = entitle_rewrite (&ctx, again, &final2, &err);
    entitle_ctx_release (&ctx);
    if (ret < 0)
      fail_msg ("%s x %s: compiling the rewrite again: %s", name, list, err->msg);
    if (!json_equal (spec, again))
      fail_msg ("%s x %s: compiling the rewrite again changes it", name, list);
  }
}

static void
test_engines_every_config_every_entitlement (void **state)
{
  cleanup_free char *dir = engines_dir ();
  cleanup_dir DIR *d = opendir (dir);
  struct entitle_config_s cfg;
  const struct entitle_entry_s *rows;
  struct dirent *e;
  size_t n, i, configs = 0;

  (void)state;
  if (d == NULL)
    fail_msg ("%s: no recorded engine configs", dir);
  if (seccomp_api_get () < 3)
    assert_int_equal (seccomp_api_set (3), 0);
  config_from (&cfg, "{\"grant\": [\"*\", \"network.host\", \"security.insecure\"]}");
  rows = entitle_catalogue_rows (NULL, &n);
  while ((e = readdir (d)) != NULL)
    {
      if (!is_config (e->d_name))
        continue;
      configs++;
      for (i = 0; i < n; i++)
        {
          char list[128];
          const char *value = rows[i].value ? rows[i].value->example : NULL;
          snprintf (list, sizeof (list), "%s%s%s", rows[i].name, value ? "=" : "", value ? value : "");
          cell (&cfg, dir, e->d_name, list);
        }
      for (i = 0; i < sizeof (sets) / sizeof (sets[0]); i++)
        cell (&cfg, dir, e->d_name, sets[i]);
    }
  entitle_config_free (&cfg);
  assert_true (configs >= 20);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_engines_every_config_every_entitlement),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
