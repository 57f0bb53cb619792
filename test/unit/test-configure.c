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
#include <cmocka.h>
#include "unit.h"
#include "engines.h"
#include "toml-edit.h"
#include "utils.h"

/* `entitle configure`'s editors (lib/base/toml-edit.c, lib/host/engines.c):
   every byte they do not edit comes back as it was, a second run changes
   nothing, and what they do not understand is refused with the line,
   never rewritten.  The engines load what they write in
   test/integration/configure.bats, cri.bats and docker.bats.  */

#define BIN "/usr/local/bin/entitle"

static entitle_toml_t *
toml_ok (const char *text)
{
  entitle_error_t err = NULL;
  entitle_toml_t *doc = NULL;

  if (entitle_toml_parse ("f.toml", text, strlen (text), &doc, &err) < 0)
    fail_msg ("entitle_toml_parse: %s", err->msg);
  return doc;
}

static char *
text_of (const entitle_toml_t *doc)
{
  size_t len;
  char *t = entitle_toml_text (doc, &len);

  assert_int_equal (strlen (t), len);
  return t;
}

/* The document's text is @want.  */
static void
assert_text (const entitle_toml_t *doc, const char *want)
{
  cleanup_free char *out = text_of (doc);
  assert_string_equal (out, want);
}

/* The error of a failed call: one line, naming @needle.  */
static void
refused (int ret, entitle_error_t *err, const char *needle)
{
  assert_true (ret < 0);
  assert_non_null (*err);
  assert_null (strchr ((*err)->msg, '\n'));
  assert_contains ((*err)->msg, needle);
  entitle_error_release (err);
}

static void
parse_refused (const char *text, const char *needle)
{
  entitle_error_t err = NULL;
  entitle_toml_t *doc = NULL;

  refused (entitle_toml_parse ("f.toml", text, strlen (text), &doc, &err), &err, needle);
  assert_null (doc);
}

/* A document with every kind of line the scanner reads comes back byte
   for byte.  */
static void
test_toml_round_trip (void **state)
{
  static const char text[] = "# head comment\r\n"
                             "title = \"a # not a comment\" # a comment\r\n"
                             "lit = 'C:\\path'\n"
                             "ml = \"\"\"\nline \\\"\"\" \\\n  two\"\"\"\n"
                             "mll = '''\nraw '' ''\n'''\n"
                             "date = 1979-05-27 07:32:00Z\n"
                             "n = [ 1, -2.5e3, +inf, nan, 0x1F, 1_000, true, false ]\n"
                             "arr = [\n  \"a\", # first\n  [ 'b', { x = 1, y.z = \"2\" } ],\n]\n"
                             "  [ a . \"b.c\" . 'd' ]  # header comment\n"
                             "\tkey.dotted = { }\n"
                             "[[fruit]]\n"
                             "name = \"apple\"\n"
                             "\n"
                             "last = 1";
  cleanup_toml entitle_toml_t *doc = toml_ok (text);
  cleanup_free char *out = text_of (doc);

  (void)state;
  assert_string_equal (out, text);
  assert_false (entitle_toml_is_empty (doc));
}

static void
test_toml_refuses_what_it_cannot_read (void **state)
{
  (void)state;
  parse_refused ("a = \"open\n", "line 1: a string is not closed on its line");
  parse_refused ("# c\na = [1, 2\n", "line 2: an array item is not followed by `,` or `]`");
  parse_refused ("a = [1 2]\n", "is not followed by `,` or `]`");
  parse_refused ("a = 1 b\n", "unexpected text after the value");
  parse_refused ("a = nope\n", "a value entitle cannot read");
  parse_refused ("[a\n", "a table header is not closed");
  parse_refused ("just words\n", "neither a table header nor `key = value`");
  parse_refused ("a = \"\"\"never closed\n", "a multi-line string is not closed");
  parse_refused ("a = \"\\q\"\n", "an escape TOML does not define");
  parse_refused ("a = \"\x01\"\n", "a control character");
  parse_refused ("a = { b = 1\n", "inline table");
  parse_refused ("a =\n", "a key without a value");
  parse_refused ("a = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n", "nested too deeply");
}

static void
test_toml_refuses_nul (void **state)
{
  static const char text[] = "a = 1\0\n";
  entitle_error_t err = NULL;
  entitle_toml_t *doc = NULL;

  (void)state;
  refused (entitle_toml_parse ("f.toml", text, sizeof text - 1, &doc, &err), &err, "a NUL byte");
}

static void
set_ok (entitle_toml_t *doc, const char *const *table, const char *key, const char *value)
{
  entitle_error_t err = NULL;

  if (entitle_toml_set (doc, table, key, value, &err) < 0)
    fail_msg ("entitle_toml_set: %s", err->msg);
}

/* A value is replaced in place: the comment after it, the other lines and
   their indentation stay.  */
static void
test_toml_set_keeps_the_rest (void **state)
{
  static const char *const t[] = { "plugins", "io.containerd.grpc.v1.cri", NULL };
  cleanup_toml entitle_toml_t *doc = toml_ok ("# containerd\n"
                                              "version = 2\n"
                                              "\n"
                                              "[plugins]\n"
                                              "  [plugins.\"io.containerd.grpc.v1.cri\"]\n"
                                              "    # the sandbox\n"
                                              "    sandbox_image = 'pause:3.6'   # pinned\n"
                                              "    other = 1\n"
                                              "\n"
                                              "  # next\n"
                                              "  [plugins.x]\n");

  (void)state;
  set_ok (doc, t, "sandbox_image", "\"pause:3.7\"");
  set_ok (doc, t, "added", "true");
  assert_text (doc, "# containerd\n"
                    "version = 2\n"
                    "\n"
                    "[plugins]\n"
                    "  [plugins.\"io.containerd.grpc.v1.cri\"]\n"
                    "    # the sandbox\n"
                    "    sandbox_image = \"pause:3.7\"   # pinned\n"
                    "    other = 1\n"
                    "    added = true\n"
                    "\n"
                    "  # next\n"
                    "  [plugins.x]\n");
}

/* The same string in another quoting is not rewritten.  */
static void
test_toml_set_same_value_kept (void **state)
{
  static const char *const t[] = { "a", NULL };
  static const char text[] = "[a]\nk = 'v'\n";
  cleanup_toml entitle_toml_t *doc = toml_ok (text);

  (void)state;
  set_ok (doc, t, "k", "\"v\"");
  assert_text (doc, text);
}

/* A new table goes after its relatives, indented one step per level
   below its closest ancestor; a blank line sets it apart.  */
static void
test_toml_new_table_placed (void **state)
{
  static const char *const t[] = { "p", "c", "runtimes", "e", NULL };
  cleanup_toml entitle_toml_t *doc = toml_ok ("[p]\n"
                                              "  [p.c]\n"
                                              "    x = 1\n"
                                              "    [p.c.runtimes.runc]\n"
                                              "      y = 2\n"
                                              "  # about q\n"
                                              "  [p.q]\n");

  (void)state;
  set_ok (doc, t, "k", "3");
  assert_text (doc, "[p]\n"
                    "  [p.c]\n"
                    "    x = 1\n"
                    "    [p.c.runtimes.runc]\n"
                    "      y = 2\n"
                    "\n"
                    "    [p.c.runtimes.e]\n"
                    "      k = 3\n"
                    "\n"
                    "  # about q\n"
                    "  [p.q]\n");
}

/* An empty file gets root keys first, then tables; a file without a
   final newline gets one before what is added.  */
static void
test_toml_new_file_and_last_line (void **state)
{
  static const char *const root[] = { NULL }, *const t[] = { "t", NULL };
  cleanup_toml entitle_toml_t *doc = toml_ok ("");
  cleanup_toml entitle_toml_t *doc2 = toml_ok ("[t]\na = 1");

  (void)state;
  assert_true (entitle_toml_is_empty (doc));
  set_ok (doc, t, "k", "1");
  set_ok (doc, root, "version", "2");
  assert_text (doc, "version = 2\n\n[t]\n  k = 1\n");
  set_ok (doc2, t, "b", "2");
  assert_text (doc2, "[t]\na = 1\nb = 2\n");
}

static void
test_toml_array_add (void **state)
{
  static const char *const t[] = { "t", NULL };
  cleanup_toml entitle_toml_t *doc = toml_ok ("[t]\n"
                                              "a = [\n"
                                              "  \"x/*\", # mine\n"
                                              "]\n"
                                              "b = []\n"
                                              "c = 'io.entitle.*'\n");
  entitle_error_t err = NULL;
  cleanup_free char *once = NULL;

  (void)state;
  assert_int_equal (entitle_toml_array_add (doc, t, "a", "io.entitle.*", &err), 1);
  assert_int_equal (entitle_toml_array_add (doc, t, "b", "io.entitle.*", &err), 1);
  assert_int_equal (entitle_toml_array_add (doc, t, "d", "io.entitle.*", &err), 1);
  assert_text (doc, "[t]\n"
                    "a = [\n"
                    "  \"x/*\", \"io.entitle.*\", # mine\n"
                    "]\n"
                    "b = [\"io.entitle.*\"]\n"
                    "c = 'io.entitle.*'\n"
                    "d = [\"io.entitle.*\"]\n");
  /* Twice is once.  */
  once = text_of (doc);
  assert_int_equal (entitle_toml_array_add (doc, t, "a", "io.entitle.*", &err), 0);
  assert_text (doc, once);
  refused (entitle_toml_array_add (doc, t, "c", "io.entitle.*", &err), &err,
           "`f.toml` line 6: `c` is not an array of strings");
}

/* What array_add and prepend_key add, array_remove and delete take out,
   byte for byte: containerd's `imports`, which --remove undoes.  */
static void
test_toml_array_remove (void **state)
{
  static const char *const root[] = { NULL };
  static const char *const text = "# mine\n\nversion = 2\nimports = [\"/a\"] # a\n";
  cleanup_toml entitle_toml_t *doc = toml_ok (text), *bare = toml_ok ("# mine\nversion = 2\n");
  entitle_error_t err = NULL;

  (void)state;
  assert_int_equal (entitle_toml_array_add (doc, root, "imports", "/b", &err), 1);
  assert_text (doc, "# mine\n\nversion = 2\nimports = [\"/a\", \"/b\"] # a\n");
  assert_int_equal (entitle_toml_array_remove (doc, root, "imports", "/b", &err), 1);
  assert_int_equal (entitle_toml_array_remove (doc, root, "imports", "/b", &err), 0);
  assert_text (doc, text);
  assert_int_equal (entitle_toml_array_remove (doc, root, "imports", "/a", &err), 1);
  assert_text (doc, "# mine\n\nversion = 2\nimports = [] # a\n");
  assert_int_equal (entitle_toml_prepend_key (bare, "imports", "[\"/b\"]", &err), 0);
  assert_text (bare, "imports = [\"/b\"]\n# mine\nversion = 2\n");
  refused (entitle_toml_prepend_key (bare, "imports", "[]", &err), &err, "`imports` is there already");
  assert_int_equal (entitle_toml_delete (bare, root, "imports", &err), 1);
  assert_int_equal (entitle_toml_delete (bare, root, "imports", &err), 0);
  assert_text (bare, "# mine\nversion = 2\n");
}

/* Tables made another way than by their own header are refused, naming
   the line, rather than given a header TOML would reject.  */
static void
test_toml_refuses_tables_it_cannot_edit (void **state)
{
  static const char *const t[] = { "a", "b", NULL };
  static const struct
  {
    const char *text, *needle;
  } cases[] = {
    { "[a]\nb.c = 1\n", "line 2: table `a.b` is made by a dotted key or an inline table" },
    { "[a]\nb = { c = 1 }\n", "line 2: table `a.b` is made by a dotted key" },
    { "a.b.c = 1\n", "line 1: table `a.b` is made by a dotted key" },
    { "[a.b]\n[x]\n[a.b]\n", "line 3: table `a.b` has a second header here" },
    { "[[a]]\nq = 1\n", "line 1: table `a.b` is in an array of tables" },
    { "[a.b.k.z]\n", "line 1: `k` of table `a.b` is a table" },
    { "[a.b]\nk.z = 1\n", "line 2: `k` of table `a.b` is a table" },
    { "[a.b]\nk = 1\nk = 2\n", "line 3: `k` of table `a.b` is set twice" },
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      cleanup_toml entitle_toml_t *doc = toml_ok (cases[i].text);
      entitle_error_t err = NULL;
      refused (entitle_toml_set (doc, t, "k", "1", &err), &err, cases[i].needle);
      assert_text (doc, cases[i].text);
    }
}

static void
test_toml_copy_keys (void **state)
{
  static const char *const from[] = { "r", "runc", NULL }, *const to[] = { "r", "e", NULL };
  static const char *const skip[] = { "BinaryName", NULL };
  cleanup_toml entitle_toml_t *doc = toml_ok ("[r.runc]\n"
                                              "BinaryName = \"/usr/bin/runc\"\n"
                                              "SystemdCgroup = true # systemd\n"
                                              "multi = [\n1]\n");
  entitle_error_t err = NULL;
  cleanup_free char *out = NULL;

  (void)state;
  assert_int_equal (entitle_toml_copy_keys (doc, from, to, skip, &err), 0);
  out = text_of (doc);
  /* The file indents nothing: nor does the new table.  */
  assert_contains (out, "\n[r.e]\nSystemdCgroup = true\n");
  assert_null (strstr (out + 20, "BinaryName"));
}

static void
test_toml_get_string (void **state)
{
  static const char *const t[] = { "t", NULL };
  cleanup_toml entitle_toml_t *doc = toml_ok ("[t]\ns = \"a\\u00e9\\\"\"\nn = 1\n");
  cleanup_free char *s = NULL;
  entitle_error_t err = NULL;

  (void)state;
  assert_int_equal (entitle_toml_get_string (doc, t, "s", &s, &err), 1);
  assert_string_equal (s, "a\xc3\xa9\"");
  assert_int_equal (entitle_toml_get_string (doc, t, "none", &s, &err), 0);
  refused (entitle_toml_get_string (doc, t, "n", &s, &err), &err, "`n` of table `t` is not a string");
}

static void
test_toml_string_escapes (void **state)
{
  cleanup_free char *s = entitle_toml_string ("a\"b\\c\nd");

  (void)state;
  assert_string_equal (s, "\"a\\\"b\\\\c\\u000Ad\"");
}

/* Run the editor of @engine on @text for entitle and @profiles.  */
static int
edit (const char *engine, const char *text, char *const *profiles, char **out, entitle_error_t *err)
{
  const struct entitle_engine_s *e = entitle_engine_find (engine);
  struct entitle_engine_runtime_s *r;
  size_t n, len;
  int ret;

  assert_non_null (e);
  r = entitle_engine_runtimes (e, BIN, profiles, &n);
  ret = e->edit ("f", text, strlen (text), r, n, out, &len, err);
  if (ret == 0)
    assert_int_equal (strlen (*out), len);
  entitle_engine_runtimes_free (r, n);
  return ret;
}

/* @engine's editor makes @want of @text, and @want again of @want.  */
static void
edits_to (const char *engine, const char *text, char *const *profiles, const char *want)
{
  cleanup_free char *out = NULL, *again = NULL;
  entitle_error_t err = NULL;

  if (edit (engine, text, profiles, &out, &err) < 0)
    fail_msg ("%s: %s", engine, err->msg);
  assert_string_equal (out, want);
  if (edit (engine, out, profiles, &again, &err) < 0)
    fail_msg ("%s again: %s", engine, err->msg);
  assert_string_equal (again, want);
}

static char *confined[] = { (char *)"confined", NULL };

static void
test_engine_containerd_new (void **state)
{
  (void)state;
  edits_to ("containerd", "", confined,
            "version = 2\n"
            "\n"
            "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.entitle]\n"
            "  runtime_type = \"io.containerd.runc.v2\"\n"
            "  pod_annotations = [\"io.entitle.*\"]\n"
            "\n"
            "  [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.entitle.options]\n"
            "    BinaryName = \"" BIN "\"\n"
            "\n"
            "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.entitle-confined]\n"
            "  runtime_type = \"io.containerd.runc.v2\"\n"
            "  pod_annotations = [\"io.entitle.*\"]\n"
            "\n"
            "  [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.entitle-confined.options]\n"
            "    BinaryName = \"/usr/local/bin/entitle-confined\"\n");
}

/* Version 3 (containerd 2.x) has the runtimes in another plugin; the
   default runtime's options come along once (an admin's later change of
   them in entitle's handler stays).  */
static void
test_engine_containerd_v3_copies_default_options (void **state)
{
  static const char text[] = "version = 3\n"
                             "[plugins.'io.containerd.cri.v1.runtime'.containerd]\n"
                             "  default_runtime_name = 'crun'\n"
                             "[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.crun.options]\n"
                             "  BinaryName = '/usr/bin/crun'\n"
                             "  SystemdCgroup = true\n"
                             "[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.entitle.options]\n"
                             "  SystemdCgroup = false # the admin's\n";

  (void)state;
  edits_to ("containerd", text, NULL,
            "version = 3\n"
            "[plugins.'io.containerd.cri.v1.runtime'.containerd]\n"
            "  default_runtime_name = 'crun'\n"
            "[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.crun.options]\n"
            "  BinaryName = '/usr/bin/crun'\n"
            "  SystemdCgroup = true\n"
            "\n"
            "[plugins.\"io.containerd.cri.v1.runtime\".containerd.runtimes.entitle]\n"
            "  runtime_type = \"io.containerd.runc.v2\"\n"
            "  pod_annotations = [\"io.entitle.*\"]\n"
            "\n"
            "[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.entitle.options]\n"
            "  SystemdCgroup = false # the admin's\n"
            "  BinaryName = \"" BIN "\"\n");
}

static void
test_engine_containerd_refuses (void **state)
{
  cleanup_free char *out = NULL;
  entitle_error_t err = NULL;

  (void)state;
  refused (edit ("containerd", "[plugins]\n", NULL, &out, &err), &err, "`f` has no `version`");
  refused (edit ("containerd", "version = 4\n", NULL, &out, &err), &err, "containerd config version 4");
  refused (edit ("containerd", "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\".containerd]\nruntimes.entitle = {}\n", NULL, &out, &err),
           &err, "line 3: table");
  assert_null (out);
}

static void
test_engine_podman_and_crio (void **state)
{
  (void)state;
  edits_to ("podman", "# containers.conf\n[engine]\nruntime = \"crun\"\n\n[engine.runtimes]\n#crun = []\n", confined,
            "# containers.conf\n[engine]\nruntime = \"crun\"\n"
            "runtime_supports_json = [\"crun\", \"runc\", \"kata\", \"runsc\", \"youki\", \"krun\", \"entitle\", "
            "\"entitle-confined\"]\n\n[engine.runtimes]\n"
            "entitle = [\"" BIN "\"]\n"
            "entitle-confined = [\"/usr/local/bin/entitle-confined\"]\n"
            "#crun = []\n");
  /* A list of the file's own is added to, not replaced.  */
  edits_to ("podman", "[engine]\nruntime_supports_json = [\"runc\"]\n", NULL,
            "[engine]\nruntime_supports_json = [\"runc\", \"entitle\"]\n\n[engine.runtimes]\n"
            "entitle = [\"" BIN "\"]\n");
  edits_to ("crio", "", NULL,
            "[crio.runtime.runtimes.entitle]\n"
            "  runtime_path = \"" BIN "\"\n"
            "  runtime_type = \"oci\"\n");
}

/* Docker: runtimeArgs carry the profile; the rest of daemon.json, key
   order and number text included, is kept, and an unchanged file is
   returned as it was written.  */
static void
test_engine_docker (void **state)
{
  static const char text[] = "{\"debug\": true, \"n\": 1.50, \"runtimes\": {\"entitle-confined\": "
                             "{\"runtimeType\": \"x\", \"runtimeArgs\": [\"--entitle-config=/e.json\", "
                             "\"--entitle-profile=old\"]}}}";
  cleanup_free char *out = NULL;
  cleanup_json json_t *doc = NULL, *want = NULL;
  entitle_error_t err = NULL;

  (void)state;
  assert_int_equal (edit ("docker", text, confined, &out, &err), 0);
  doc = parse_ok (out);
  want = parse_ok ("{\"debug\": true, \"n\": 1.50, \"runtimes\": {\"entitle-confined\": {\"runtimeArgs\": "
                   "[\"--entitle-config=/e.json\", \"--entitle-profile=confined\"], \"path\": \"" BIN "\"},"
                   "\"entitle\": {\"path\": \"" BIN "\"}}}");
  assert_true (json_equal (doc, want));
  assert_contains (out, "1.50");
  edits_to ("docker", out, confined, out);
  edits_to ("docker", " \n", NULL, "{\n\t\"runtimes\": {\n\t\t\"entitle\": {\n\t\t\t\"path\": \"" BIN "\"\n\t\t}\n\t}\n}\n");
}

static void
test_engine_docker_refuses (void **state)
{
  cleanup_free char *out = NULL;
  entitle_error_t err = NULL;

  (void)state;
  refused (edit ("docker", "{\"runtimes\": []}", NULL, &out, &err), &err, "`f`: `runtimes` is not an object");
  refused (edit ("docker", "{\"runtimes\": {\"entitle\": 1}}", NULL, &out, &err), &err, "`entitle` is not an object");
  refused (edit ("docker", "[]", NULL, &out, &err), &err, "`f` is not a JSON object");
  refused (edit ("docker", "{\"a\": ", NULL, &out, &err), &err, "`f`: invalid JSON");
  assert_null (out);
}

static void
test_engine_table (void **state)
{
  char names[128];

  (void)state;
  entitle_engine_names (names, sizeof names);
  assert_string_equal (names, "containerd, docker, podman, crio");
  assert_null (entitle_engine_find ("cri-o"));
  assert_string_equal (entitle_engine_find ("docker")->config, "/etc/docker/daemon.json");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_toml_round_trip),
    cmocka_unit_test (test_toml_refuses_what_it_cannot_read),
    cmocka_unit_test (test_toml_refuses_nul),
    cmocka_unit_test (test_toml_set_keeps_the_rest),
    cmocka_unit_test (test_toml_set_same_value_kept),
    cmocka_unit_test (test_toml_new_table_placed),
    cmocka_unit_test (test_toml_new_file_and_last_line),
    cmocka_unit_test (test_toml_array_add),
    cmocka_unit_test (test_toml_array_remove),
    cmocka_unit_test (test_toml_refuses_tables_it_cannot_edit),
    cmocka_unit_test (test_toml_copy_keys),
    cmocka_unit_test (test_toml_get_string),
    cmocka_unit_test (test_toml_string_escapes),
    cmocka_unit_test (test_engine_containerd_new),
    cmocka_unit_test (test_engine_containerd_v3_copies_default_options),
    cmocka_unit_test (test_engine_containerd_refuses),
    cmocka_unit_test (test_engine_podman_and_crio),
    cmocka_unit_test (test_engine_docker),
    cmocka_unit_test (test_engine_docker_refuses),
    cmocka_unit_test (test_engine_table),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
