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
#include "go-fold.h"
#include "json.h"
#include "oci-fields.h"
#include "utils.h"

/* Keys as runc reads them: Go's encoding/json matches a key to a struct
   field exactly, else folded (go-fold.h; Go 1.19's encoding/json/fold.go
   and Go 1.21's foldName agree).  entitle reads keys as written, so a
   config or a process whose key only folds to a field is refused.  */

#define LONG_S    "\xc5\xbf"     /* U+017F LATIN SMALL LETTER LONG S */
#define KELVIN    "\xe2\x84\xaa" /* U+212A KELVIN SIGN */
#define DOTLESS_I "\xc4\xb1"     /* U+0131 */
#define DOTTED_I  "\xc4\xb0"     /* U+0130 */
#define CTRL_3    "\x13"         /* the byte of 3 with 0x20 cleared: no letter */

static void
test_fold_matches_as_go (void **state)
{
  static const struct
  {
    const char *field, *key;
    bool match;
  } cases[] = {
    { "capabilities", "capabilities", true },
    { "capabilities", "Capabilities", true },
    { "capabilities", "CAPABILITIES", true },
    { "noNewPrivileges", "nonewprivileges", true },
    { "noNewPrivileges", "noNewprivileges", true },
    /* equalFoldRight: s to U+017F, k to U+212A, in either case.  */
    { "seccomp", LONG_S "eccomp", true },
    { "maskedPaths", "ma" LONG_S "kedPath" LONG_S, true },
    { "maskedPaths", "mas" KELVIN "edPaths", true },
    { "blockIO", "bloc" KELVIN "io", true },
    { "Kernel", KELVIN "ernel", true },
    { "sysctl", "SY" LONG_S "CTL", true },
    /* No other folds: not s to k, not U+0131 or U+0130 to i (Go's
       caseOrbit keeps them to themselves), not ß to ss, not fullwidth.  */
    { "seccomp", KELVIN "eccomp", false },
    { "kernel", LONG_S "ernel", false },
    { "uid", "u" DOTLESS_I "d", false },
    { "uid", "u" DOTTED_I "d", false },
    { "class", "cla\xc3\x9f", false },
    { "cwd", "\xef\xbd\x83wd", false },
    /* Non-letters as written (asciiEqualFold): no case to fold.  */
    { "l3CacheSchema", "L3cacheschema", true },
    { "l3CacheSchema", "l" CTRL_3 "CacheSchema", false },
    { "uid", "u@d", false },
    { "uid", "ui", false },
    { "uid", "uidd", false },
    { "uid", "", false },
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    if (entitle_go_fold_matches (cases[i].field, cases[i].key) != cases[i].match)
      fail_msg ("`%s` against field `%s`: %s", cases[i].key, cases[i].field,
                cases[i].match ? "Go matches it" : "Go does not match it");
}

/* An order (keys that fold to one meet when sorted).  */
static void
test_fold_cmp_orders (void **state)
{
  static const char *keys[] = { "a", "B", "Ab", "aB", LONG_S "x", "SX", "sy", KELVIN, "k", "z", "\xc3\xa9", "" };
  size_t n = sizeof (keys) / sizeof (keys[0]), i, j, k;

  (void)state;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      {
        int ij = entitle_go_fold_cmp (keys[i], keys[j]), ji = entitle_go_fold_cmp (keys[j], keys[i]);
        assert_true ((ij < 0 && ji > 0) || (ij > 0 && ji < 0) || (ij == 0 && ji == 0));
        for (k = 0; k < n; k++)
          if (ij <= 0 && entitle_go_fold_cmp (keys[j], keys[k]) <= 0)
            assert_true (entitle_go_fold_cmp (keys[i], keys[k]) <= 0);
      }
}

/* The table: rows grouped by object in increasing order, every object a
   row names has rows, names ASCII, and no two fields of one object that
   Go would take for each other.  */
static void
test_table_well_formed (void **state)
{
  size_t n, i, j;
  const struct entitle_oci_field_s *f = entitle_oci_fields (&n);

  (void)state;
  assert_true (n > 250);
  for (i = 0; i < n; i++)
    {
      bool has_rows = f[i].of == 0;
      if (i > 0)
        assert_true (f[i - 1].in <= f[i].in);
      for (j = 0; f[i].name[j]; j++)
        assert_true ((unsigned char)f[i].name[j] < 0x80);
      for (j = 0; j < n; j++)
        {
          has_rows = has_rows || f[j].in == f[i].of;
          if (j != i && f[j].in == f[i].in && entitle_go_fold_matches (f[i].name, f[j].name))
            fail_msg ("`%s` and `%s` of one object", f[i].name, f[j].name);
        }
      if (!has_rows)
        fail_msg ("`%s` names an object with no rows", f[i].name);
    }
}

/* The refusal of @text read as @kind: one line, naming each of @words.  */
static void
refused (const char *text, enum entitle_oci_doc kind, const char *w1, const char *w2)
{
  cleanup_json json_t *doc = parse_ok (text);
  entitle_error_t err = NULL;

  if (entitle_oci_fields_check (doc, kind, &err) == 0)
    fail_msg ("not refused: %s", text);
  assert_null (strchr (err->msg, '\n'));
  if (strstr (err->msg, w1) == NULL || strstr (err->msg, w2) == NULL)
    fail_msg ("`%s` does not name `%s` and `%s`", err->msg, w1, w2);
  entitle_error_release (&err);
}

static void
accepted (const char *text, enum entitle_oci_doc kind)
{
  cleanup_json json_t *doc = parse_ok (text);
  entitle_error_t err = NULL;

  if (entitle_oci_fields_check (doc, kind, &err) < 0)
    fail_msg ("refused: %s: %s", text, err->msg);
}

static void
test_variant_keys_refused (void **state)
{
  (void)state;
  /* The attack: entitle judged the first, runc applied the second.  */
  refused ("{\"args\":[\"sh\"],\"capabilities\":{\"bounding\":[]},"
           "\"Capabilities\":{\"bounding\":[\"CAP_SYS_ADMIN\"]}}",
           ENTITLE_OCI_PROCESS, "`Capabilities`", "`process.capabilities`");
  refused ("{\"noNewprivileges\":false}", ENTITLE_OCI_PROCESS, "`noNewprivileges`", "`process.noNewPrivileges`");
  refused ("{\"Process\":{\"args\":[\"sh\"]}}", ENTITLE_OCI_CONFIG, "`Process`", "`process`");
  refused ("{\"process\":{\"args\":[\"sh\"]},\"Process\":{\"args\":[\"sh\"]}}", ENTITLE_OCI_CONFIG, "`Process`",
           "`process`");
  refused ("{\"linux\":{\"" LONG_S "eccomp\":{}}}", ENTITLE_OCI_CONFIG, "`" LONG_S "eccomp`", "`linux.seccomp`");
  refused ("{\"linux\":{\"resources\":{\"networ" KELVIN "\":{}}}}", ENTITLE_OCI_CONFIG, KELVIN,
           "`linux.resources.network`");
  refused ("{\"linux\":{\"MaskedPaths\":[]}}", ENTITLE_OCI_CONFIG, "`MaskedPaths`", "`linux.maskedPaths`");
  /* In lists and maps of objects.  */
  refused ("{\"mounts\":[{\"destination\":\"/a\"},{\"Type\":\"proc\"}]}", ENTITLE_OCI_CONFIG, "`Type`",
           "`mounts[].type`");
  refused ("{\"linux\":{\"seccomp\":{\"syscalls\":[{\"names\":[],\"args\":[{\"OP\":\"x\"}]}]}}}", ENTITLE_OCI_CONFIG,
           "`OP`", "`linux.seccomp.syscalls[].args[].op`");
  refused ("{\"linux\":{\"resources\":{\"rdma\":{\"mlx5_1\":{\"HcaHandles\":1}}}}}", ENTITLE_OCI_CONFIG,
           "`HcaHandles`", "`linux.resources.rdma[].hcaHandles`");
  refused ("{\"Annotations\":{\"io.entitle.entitlements\":\"security.insecure\"}}", ENTITLE_OCI_CONFIG,
           "`Annotations`", "`annotations`");
}

static void
test_unknown_keys_folding_to_one_refused (void **state)
{
  (void)state;
  refused ("{\"args\":[],\"x-note\":1,\"X-Note\":2}", ENTITLE_OCI_PROCESS, "`x-note`", "`X-Note`");
  refused ("{\"linux\":{\"a\":1,\"b\":2,\"A\":3}}", ENTITLE_OCI_CONFIG, "`A`", "`linux`");
  accepted ("{\"args\":[],\"X-Note\":1,\"x-other\":2}", ENTITLE_OCI_PROCESS);
}

/* Maps are the config's own: their keys are data, in any case.  */
static void
test_map_keys_free (void **state)
{
  (void)state;
  accepted ("{\"annotations\":{\"Org.Example\":\"1\",\"org.example\":\"2\",\"ORG.EXAMPLE\":\"3\"},"
            "\"linux\":{\"sysctl\":{\"Net.X\":\"1\",\"net.x\":\"2\"},"
            "\"resources\":{\"unified\":{\"Memory.High\":\"1\",\"memory.high\":\"2\"},"
            "\"rdma\":{\"MLX\":{\"hcaHandles\":1},\"mlx\":{\"hcaObjects\":2}}}}}",
            ENTITLE_OCI_CONFIG);
  accepted ("{\"windows\":{\"credentialSpec\":{\"A\":1,\"a\":2}}}", ENTITLE_OCI_CONFIG);
}

/* A member of another type is runc's to refuse; unknown keys are no
   field (runc and crun ignore them).  */
static void
test_other_shapes_accepted (void **state)
{
  (void)state;
  accepted ("{\"process\":\"sh\",\"mounts\":{\"Type\":1},\"linux\":[{\"Seccomp\":1}]}", ENTITLE_OCI_CONFIG);
  accepted ("{\"mounts\":[1,\"x\",null,{\"type\":\"proc\"}]}", ENTITLE_OCI_CONFIG);
  accepted ("{\"args\":[\"sh\"],\"Unknown\":{\"Capabilities\":1}}", ENTITLE_OCI_PROCESS);
  accepted ("[]", ENTITLE_OCI_CONFIG);
}

/* Configs as engines write them pass.  */
static void
test_engine_configs_accepted (void **state)
{
  static const char *files[] = { "runc-spec.json", "docker-expanded.json", "no-seccomp.json" };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (files) / sizeof (files[0]); i++)
    {
      cleanup_json json_t *spec = load_test_data (files[i]);
      entitle_error_t err = NULL;

      if (entitle_oci_fields_check (spec, ENTITLE_OCI_CONFIG, &err) < 0)
        fail_msg ("%s: %s", files[i], err->msg);
      if (entitle_oci_fields_check (json_get (spec, "process"), ENTITLE_OCI_PROCESS, &err) < 0)
        fail_msg ("%s's process: %s", files[i], err->msg);
    }
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_fold_matches_as_go),
    cmocka_unit_test (test_fold_cmp_orders),
    cmocka_unit_test (test_table_well_formed),
    cmocka_unit_test (test_variant_keys_refused),
    cmocka_unit_test (test_unknown_keys_folding_to_one_refused),
    cmocka_unit_test (test_map_keys_free),
    cmocka_unit_test (test_other_shapes_accepted),
    cmocka_unit_test (test_engine_configs_accepted),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
