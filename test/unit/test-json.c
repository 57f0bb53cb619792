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
#include "json.h"
#include "utils.h"

/* The JSON layer of a lossless config.json rewrite: what is parsed must
   come back out as written (key order, number text), a key twice in one object is refused, and
   what is malformed must be refused with a one-line message.  */

/* Parse @s, expecting a refusal; returns the message (malloc'd).  */
static char *
parse_fails (const char *s, size_t len)
{
  entitle_error_t err = NULL;
  json_t *v = NULL;
  char *msg;
  int ret = json_parse (s, len, &v, &err);

  assert_true (ret < 0);
  assert_null (v);
  assert_non_null (err);
  assert_non_null (err->msg);
  assert_true (strlen (err->msg) > 0);
  /* The error contract: one line.  */
  assert_null (strchr (err->msg, '\n'));
  msg = strdup (err->msg);
  entitle_error_release (&err);
  assert_null (err);
  return msg;
}

static char *
generate_ok (const json_t *v)
{
  entitle_error_t err = NULL;
  char *out = NULL;
  size_t len = 0;
  int ret = json_generate (v, &out, &len, &err);

  if (ret < 0)
    fail_msg ("json_generate: %s", err->msg);
  assert_non_null (out);
  assert_int_equal (strlen (out), len);
  return out;
}

/* Parse, generate, parse again: the two trees must be equal.  */
static json_t *
round_trip (const char *s, char **text)
{
  cleanup_json json_t *v = parse_ok (s);
  char *out = generate_ok (v);
  json_t *again = parse_ok (out);

  assert_true (json_equal (v, again));
  if (text)
    *text = out;
  else
    free (out);
  return again;
}

/* A document of @depth nested arrays.  */
static char *
nested (size_t depth)
{
  char *s = malloc (2 * depth + 1);
  assert_non_null (s);
  memset (s, '[', depth);
  memset (s + depth, ']', depth);
  s[2 * depth] = '\0';
  return s;
}

static void
test_json_parse_keeps_key_order (void **state)
{
  (void)state;
  cleanup_json json_t *v = round_trip ("{\"z\":1,\"a\":2,\"m\":{\"y\":true,\"b\":null}}", NULL);

  assert_int_equal (v->type, JSON_OBJECT);
  assert_int_equal (v->n, 3);
  assert_string_equal (v->keys[0], "z");
  assert_string_equal (v->keys[1], "a");
  assert_string_equal (v->keys[2], "m");
  assert_string_equal (v->items[2]->keys[0], "y");
  assert_string_equal (v->items[2]->keys[1], "b");
  assert_int_equal (v->items[2]->items[0]->type, JSON_TRUE);
  assert_int_equal (v->items[2]->items[1]->type, JSON_NULL);
}

/* Parse @s and rename its key @from to @to, no longer than @from, in
   place: objects with a key twice, which the parser refuses but the tree
   can hold.  */
static json_t *
parse_renamed (const char *s, const char *from, const char *to)
{
  json_t *v = parse_ok (s);
  size_t i;

  assert_true (strlen (to) <= strlen (from));
  for (i = 0; i < v->n; i++)
    if (strcmp (v->keys[i], from) == 0)
      strcpy (v->keys[i], to);
  return v;
}

static void
test_json_parse_refuses_duplicate_keys (void **state)
{
  static const char *const docs[]
      = { "{\"a\":\"first\",\"b\":0,\"a\":\"last\"}",
          "{\"annotations\":{\"io.entitle.entitlements\":\"network.none\"},\"annotations\":{}}",
          "[{\"x\":{\"y\":1,\"y\":1}}]",
          "{\"\\n\":1,\"\\n\":2}" };
  size_t i;

  (void)state;
  /* Go's encoding/json (runc) merges two objects under one key: entitle
     could not see what the runtime sees.  */
  for (i = 0; i < sizeof (docs) / sizeof (docs[0]); i++)
    {
      char *msg = parse_fails (docs[i], strlen (docs[i]));
      assert_non_null (strstr (msg, "duplicate object key"));
      free (msg);
    }
  {
    char *msg = parse_fails (docs[1], strlen (docs[1]));
    assert_non_null (strstr (msg, "`annotations`"));
    free (msg);
  }
}

static void
test_json_parse_refuses_ill_formed_utf8 (void **state)
{
  /* Overlong "/", a UTF-16 surrogate, past U+10FFFF, a lone continuation
     byte, a cut sequence: in a value and in a key.  */
  static const char *const bad[] = { "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                                     "\xf5\x80\x80\x80", "\x80", "\xe2\x82" };
  static const char *const good[] = { "\xc2\xa9", "\xe2\x82\xac", "\xed\x9f\xbf", "\xf0\x9f\x98\x80",
                                      "\xf4\x8f\xbf\xbf", "\\ud83d\\ude00" };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (bad) / sizeof (bad[0]); i++)
    {
      char doc[64], *msg;
      snprintf (doc, sizeof (doc), "{\"k\":\"a%sb\"}", bad[i]);
      msg = parse_fails (doc, strlen (doc));
      assert_non_null (strstr (msg, "UTF"));
      free (msg);
      snprintf (doc, sizeof (doc), "{\"a%sb\":1}", bad[i]);
      msg = parse_fails (doc, strlen (doc));
      assert_non_null (strstr (msg, "UTF"));
      free (msg);
    }
  for (i = 0; i < sizeof (good) / sizeof (good[0]); i++)
    {
      char doc[64];
      snprintf (doc, sizeof (doc), "{\"a%sb\":\"a%sb\"}", good[i], good[i]);
      json_free (round_trip (doc, NULL));
    }
}

static void
test_json_parse_keeps_numbers_as_written (void **state)
{
  static const char *const numbers[] = { "18446744073709551615", "1.50", "-0", "1e3", "0",
                                         "-9223372036854775809", "1E+3", "0.1000000000000000055511151231257827" };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (numbers) / sizeof (numbers[0]); i++)
    {
      char doc[128], *text = NULL, *p;
      cleanup_json json_t *v = NULL;

      snprintf (doc, sizeof (doc), "{\"value\":%s,\"list\":[%s]}", numbers[i], numbers[i]);
      v = round_trip (doc, &text);
      assert_int_equal (json_get (v, "value")->type, JSON_NUMBER);
      assert_string_equal (json_get (v, "value")->text, numbers[i]);
      assert_int_equal (json_get (v, "value")->len, strlen (numbers[i]));
      assert_string_equal (json_get (v, "list")->items[0]->text, numbers[i]);
      /* The generated text holds the number byte for byte, twice.  */
      p = strstr (text, numbers[i]);
      assert_non_null (p);
      assert_non_null (strstr (p + strlen (numbers[i]), numbers[i]));
      free (text);
    }
}

static void
test_json_parse_numbers_are_not_equal_by_value (void **state)
{
  (void)state;
  cleanup_json json_t *a = parse_ok ("[1.5]");
  cleanup_json json_t *b = parse_ok ("[1.50]");
  cleanup_json json_t *c = parse_ok ("[1.50]");

  /* Numbers compare as written: a rewrite must not change their text.  */
  assert_false (json_equal (a, b));
  assert_true (json_equal (b, c));
}

static void
test_json_parse_strings_and_escapes (void **state)
{
  (void)state;
  char *text = NULL;
  cleanup_json json_t *v = round_trip ("[\"a\\\"b\\\\c\\n\\u00e9\\u2028\", \"\xc3\xa9t\xc3\xa9\", \"\"]", &text);

  assert_int_equal (v->n, 3);
  assert_string_equal (json_string (v->items[0]), "a\"b\\c\n\xc3\xa9\xe2\x80\xa8");
  assert_string_equal (json_string (v->items[1]), "\xc3\xa9t\xc3\xa9");
  assert_string_equal (json_string (v->items[2]), "");
  assert_int_equal (v->items[2]->len, 0);
  free (text);
}

static void
test_json_generate_indents_and_ends_with_newline (void **state)
{
  (void)state;
  cleanup_json json_t *v = parse_ok ("{\"a\":[1,2],\"b\":{}}");
  char *text = generate_ok (v);
  size_t len = strlen (text);

  assert_true (len > 0);
  assert_int_equal (text[len - 1], '\n');
  assert_int_not_equal (text[len - 2], '\n');
  /* Beautified: more than one line.  */
  assert_non_null (strchr (text, '\n'));
  assert_true (strchr (text, '\n') < text + len - 1);
  free (text);

  {
    cleanup_json json_t *n = parse_ok ("42");
    text = generate_ok (n);
    assert_string_equal (text, "42\n");
    free (text);
  }
}

/* Indented output, byte for byte as yajl's beautifier wrote it before the
   one writer replaced it: these strings are what yajl 2 printed.  */
static void
expect_pretty (const char *in, const char *want)
{
  cleanup_json json_t *v = parse_ok (in);
  char *text = generate_ok (v);

  assert_string_equal (text, want);
  free (text);
}

static void
test_json_generate_pretty_nested (void **state)
{
  (void)state;
  expect_pretty ("{\"a\":[1,{\"b\":null}],\"c\":{\"d\":true,\"e\":false},\"f\":\"g\"}",
                 "{\n\t\"a\": [\n\t\t1,\n\t\t{\n\t\t\t\"b\": null\n\t\t}\n\t],\n"
                 "\t\"c\": {\n\t\t\"d\": true,\n\t\t\"e\": false\n\t},\n\t\"f\": \"g\"\n}\n");
  expect_pretty ("[[1,2],[[3]]]", "[\n\t[\n\t\t1,\n\t\t2\n\t],\n\t[\n\t\t[\n\t\t\t3\n\t\t]\n\t]\n]\n");
  expect_pretty ("\"top\"", "\"top\"\n");
  expect_pretty ("null", "null\n");
}

static void
test_json_generate_pretty_empty (void **state)
{
  (void)state;
  expect_pretty ("{}", "{\n\n}\n");
  expect_pretty ("[]", "[\n\n]\n");
  expect_pretty ("{\"o\":{},\"a\":[],\"n\":[[],{}]}",
                 "{\n\t\"o\": {\n\n\t},\n\t\"a\": [\n\n\t],\n\t\"n\": [\n\t\t[\n\n\t\t],\n\t\t{\n\n\t\t}\n\t]\n}\n");
}

static void
test_json_generate_pretty_strings (void **state)
{
  (void)state;
  expect_pretty ("{\"k\\\"\\n\":\"q\\\"b\\\\s/\\/\\b\\f\\n\\r\\t\\u0001\\u001f\\u007f\"}",
                 "{\n\t\"k\\\"\\n\": \"q\\\"b\\\\s//\\b\\f\\n\\r\\t\\u0001\\u001F\x7f\"\n}\n");
  expect_pretty ("[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\",\"\\u00e9\\ud83d\\ude00\"]",
                 "[\n\t\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\",\n\t\"\xc3\xa9\xf0\x9f\x98\x80\"\n]\n");
}

static void
test_json_generate_pretty_numbers_as_written (void **state)
{
  (void)state;
  expect_pretty ("[1.50,-0e+10,1E3,12345678901234567890123,0.000001]",
                 "[\n\t1.50,\n\t-0e+10,\n\t1E3,\n\t12345678901234567890123,\n\t0.000001\n]\n");
}

/* The compact form is the same writer without the layout.  */
static void
test_json_generate_compact_same_bytes (void **state)
{
  static const char in[] = "{\"a\":[1.50,{},[]],\"s\":\"\\t\\u0002\xc3\xa9\",\"n\":null}";
  cleanup_json json_t *v = parse_ok (in);
  entitle_error_t err = NULL;
  char *out = NULL;
  size_t len = 0;

  (void)state;
  assert_int_equal (json_generate_compact (v, &out, &len, &err), 0);
  assert_string_equal (out, "{\"a\":[1.50,{},[]],\"s\":\"\\t\\u0002\xc3\xa9\",\"n\":null}\n");
  assert_int_equal (len, strlen (out));
  free (out);
}

/* A string that is not UTF-8 (built, not parsed) is refused in both forms.  */
static void
test_json_generate_refuses_bad_utf8 (void **state)
{
  cleanup_json json_t *v = json_new (JSON_ARRAY);
  entitle_error_t err = NULL;
  char *out = NULL;
  size_t len = 0;

  (void)state;
  json_push (v, json_new_string ("ok\xff"));
  assert_true (json_generate (v, &out, &len, &err) < 0);
  assert_null (out);
  assert_non_null (err);
  assert_null (strchr (err->msg, '\n'));
  entitle_error_release (&err);
  assert_true (json_generate_compact (v, &out, &len, &err) < 0);
  assert_null (out);
  entitle_error_release (&err);
}

/* A parse error says where, as editors count: the line, and the column
   of the byte yajl stopped at (the end of a document cut short).  */
static void
test_json_parse_error_position (void **state)
{
  static const struct
  {
    const char *doc, *where;
  } cases[] = {
    { "{\n  \"a\": [1,]\n}", "at line 2, column 11" },
    { "{\"a\": 1} x", "at line 1, column 10" },
    { "{\"a\": [1", "at line 1, column 8" },
    { "\n\n  {\"a\": 1, \"a\": 2}", "at line 3, column 18" },
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    {
      entitle_error_t err = NULL;
      json_t *v = NULL;
      const char *end;

      assert_true (json_parse (cases[i].doc, strlen (cases[i].doc), &v, &err) < 0);
      end = err->msg + strlen (err->msg) - strlen (cases[i].where);
      if (end < err->msg || strcmp (end, cases[i].where) != 0)
        fail_msg ("`%s`: %s, expected it to end %s", cases[i].doc, err->msg, cases[i].where);
      entitle_error_release (&err);
    }
}

static void
test_json_parse_truncated (void **state)
{
  static const char *const docs[] = { "{\"a\":", "{\"a\":1", "[1,2", "\"abc", "{\"a\"", "tru", "" };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (docs) / sizeof (docs[0]); i++)
    {
      char *msg = parse_fails (docs[i], strlen (docs[i]));
      assert_non_null (strstr (msg, "invalid JSON"));
      free (msg);
    }
}

static void
test_json_parse_trailing_garbage (void **state)
{
  static const char *const docs[] = { "{} x", "{}{}", "[1] [2]", "1 2", "{\"a\":1}}", "01" };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (docs) / sizeof (docs[0]); i++)
    free (parse_fails (docs[i], strlen (docs[i])));
}

static void
test_json_parse_invalid_utf8 (void **state)
{
  static const char *const docs[] = {
    "[\"\xff\"]",       /* never valid */
    "[\"\xc3\"]",       /* truncated sequence */
    "{\"\xc3\x28\":1}", /* bad continuation byte, in a key */
    "[\"\xe2\x82\"]",   /* truncated three-byte sequence */
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (docs) / sizeof (docs[0]); i++)
    free (parse_fails (docs[i], strlen (docs[i])));
}

static void
test_json_parse_other_malformed (void **state)
{
  static const char *const docs[] = { "{a:1}", "[1,]", "{\"a\" 1}", "[01]", "[NaN]", "// c\n{}", "{'a':1}", "[\"\x01\"]" };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (docs) / sizeof (docs[0]); i++)
    free (parse_fails (docs[i], strlen (docs[i])));
}

static void
test_json_parse_uses_len_not_nul (void **state)
{
  (void)state;
  /* Only the first 2 bytes are the document.  */
  json_t *v = NULL;
  entitle_error_t err = NULL;

  assert_int_equal (json_parse ("[]garbage", 2, &v, &err), 0);
  assert_int_equal (v->type, JSON_ARRAY);
  json_free (v);
  /* An embedded NUL is not the end of the document.  */
  free (parse_fails ("[1]\0[2]", 7));
}

static void
test_json_parse_nul_in_key_refused (void **state)
{
  (void)state;
  char *msg = parse_fails ("{\"a\\u0000b\":1}", strlen ("{\"a\\u0000b\":1}"));
  assert_non_null (strstr (msg, "NUL"));
  free (msg);
}

static void
test_json_parse_depth_limit (void **state)
{
  (void)state;
  char *ok = nested (100), *deep = nested (257), *deeper = nested (100000);
  char *msg;
  json_t *v = NULL;
  entitle_error_t err = NULL;

  assert_int_equal (json_parse (ok, strlen (ok), &v, &err), 0);
  assert_null (err);
  json_free (v);

  msg = parse_fails (deep, strlen (deep));
  assert_non_null (strstr (msg, "nested too deeply"));
  free (msg);
  msg = parse_fails (deeper, strlen (deeper));
  assert_non_null (strstr (msg, "nested too deeply"));
  free (msg);

  /* Objects count too.  */
  {
    size_t depth = 300, i;
    char *s = malloc (depth * 6 + depth + 16), *p = s;
    for (i = 0; i < depth; i++)
      p += sprintf (p, "{\"a\":");
    p += sprintf (p, "1");
    for (i = 0; i < depth; i++)
      *p++ = '}';
    *p = '\0';
    msg = parse_fails (s, strlen (s));
    assert_non_null (strstr (msg, "nested too deeply"));
    free (msg);
    free (s);
  }
  free (ok);
  free (deep);
  free (deeper);
}

/* Whatever json_parse accepts, json_generate must be able to write back:
   entitle parses a bundle's config.json and writes it after a rewrite.  */
static void
test_json_generate_whatever_parse_accepts (void **state)
{
  size_t depth;

  (void)state;
  for (depth = 1; depth <= 300; depth++)
    {
      char *s = nested (depth), *out = NULL;
      json_t *v = NULL;
      entitle_error_t err = NULL;
      size_t len;

      if (json_parse (s, strlen (s), &v, &err) < 0)
        {
          entitle_error_release (&err);
          free (s);
          continue;
        }
      if (json_generate (v, &out, &len, &err) < 0)
        fail_msg ("a %zu-deep document parses but does not generate: %s", depth, err->msg);
      free (out);
      json_free (v);
      free (s);
    }
}

static void
test_entitle_error_release_null (void **state)
{
  entitle_error_t err = NULL;

  (void)state;
  entitle_error_release (&err);
  assert_null (err);
}

static void
test_json_set_replaces_every_duplicate (void **state)
{
  (void)state;
  cleanup_json json_t *v = parse_renamed ("{\"a\":1,\"b\":2,\"a2\":3}", "a2", "a");
  char *text;

  json_set (v, "a", json_new_string ("x"));
  assert_int_equal (v->n, 2);
  assert_string_equal (json_string (json_get (v, "a")), "x");
  assert_string_equal (json_get (v, "b")->text, "2");
  text = generate_ok (v);
  assert_null (strstr (text, "3"));
  free (text);

  json_set (v, "new", json_new_bool (true));
  assert_int_equal (v->n, 3);
  assert_int_equal (json_get (v, "new")->type, JSON_TRUE);
}

static void
test_json_del_every_duplicate (void **state)
{
  (void)state;
  cleanup_json json_t *v = parse_renamed ("{\"a\":1,\"b\":{\"c\":[]},\"a2\":3,\"d\":4}", "a2", "a");
  cleanup_json json_t *arr = parse_ok ("[1]");

  assert_true (json_del (v, "a"));
  assert_int_equal (v->n, 2);
  assert_null (json_get (v, "a"));
  assert_string_equal (v->keys[0], "b");
  assert_string_equal (v->keys[1], "d");
  assert_false (json_del (v, "a"));
  assert_true (json_del (v, "b"));
  assert_int_equal (v->n, 1);
  assert_string_equal (json_get (v, "d")->text, "4");
  /* Not an object: nothing to delete.  */
  assert_false (json_del (arr, "a"));
  assert_false (json_del (NULL, "a"));
  assert_int_equal (arr->n, 1);
}

static void
test_json_get_or_add_types (void **state)
{
  (void)state;
  cleanup_json json_t *v = parse_ok ("{\"obj\":{\"k\":1},\"str\":\"s\"}");
  json_t *o, *a, *s;

  /* Present with the right type: the same node.  */
  o = json_get_or_add (v, "obj", JSON_OBJECT);
  assert_ptr_equal (o, json_get (v, "obj"));
  assert_int_equal (o->n, 1);
  /* Missing: created.  */
  a = json_get_or_add (v, "arr", JSON_ARRAY);
  assert_non_null (a);
  assert_int_equal (a->type, JSON_ARRAY);
  assert_int_equal (a->n, 0);
  assert_ptr_equal (a, json_get (v, "arr"));
  assert_int_equal (v->n, 3);
  /* Present with another type: replaced.  */
  s = json_get_or_add (v, "str", JSON_OBJECT);
  assert_int_equal (s->type, JSON_OBJECT);
  assert_ptr_equal (s, json_get (v, "str"));
  assert_int_equal (v->n, 3);
  json_push (a, json_new_uint (18446744073709551615ULL));
  assert_string_equal (json_get (v, "arr")->items[0]->text, "18446744073709551615");
}

static void
test_json_remove_at_shifts (void **state)
{
  (void)state;
  cleanup_json json_t *v = parse_ok ("[\"a\",\"b\",{\"c\":1},\"d\"]");
  cleanup_json json_t *expect = parse_ok ("[\"b\",{\"c\":1}]");

  json_remove_at (v, 0);
  assert_int_equal (v->n, 3);
  assert_string_equal (json_string (v->items[0]), "b");
  json_remove_at (v, 2);
  assert_int_equal (v->n, 2);
  assert_true (json_equal (v, expect));
  assert_int_equal (json_array_find_string (v, "d"), -1);
  assert_int_equal (json_array_find_string (v, "b"), 0);
  json_remove_at (v, 0);
  json_remove_at (v, 0);
  assert_int_equal (v->n, 0);
}

static void
test_json_array_find_string_first (void **state)
{
  (void)state;
  cleanup_json json_t *v = parse_ok ("[1,\"x\",null,\"y\",\"x\"]");
  cleanup_json json_t *o = parse_ok ("{\"x\":\"x\"}");

  assert_int_equal (json_array_find_string (v, "x"), 1);
  assert_int_equal (json_array_find_string (v, "y"), 3);
  assert_int_equal (json_array_find_string (v, "1"), -1);
  assert_int_equal (json_array_find_string (o, "x"), -1);
  assert_int_equal (json_array_find_string (NULL, "x"), -1);
}

static void
test_json_equal_deep (void **state)
{
  (void)state;
  cleanup_json json_t *a = parse_ok ("{\"a\":[1,\"s\",true,null],\"b\":{}}");
  cleanup_json json_t *same = parse_ok ("{ \"a\" : [ 1 , \"s\" , true , null ] , \"b\" : { } }");
  cleanup_json json_t *order = parse_ok ("{\"b\":{},\"a\":[1,\"s\",true,null]}");
  cleanup_json json_t *value = parse_ok ("{\"a\":[1,\"s\",false,null],\"b\":{}}");
  cleanup_json json_t *longer = parse_ok ("{\"a\":[1,\"s\",true,null,1],\"b\":{}}");
  cleanup_json json_t *str = parse_ok ("{\"a\":[1,\"t\",true,null],\"b\":{}}");
  cleanup_json json_t *num_str = parse_ok ("{\"a\":[\"1\",\"s\",true,null],\"b\":{}}");
  cleanup_json json_t *empty_obj = parse_ok ("{}");
  cleanup_json json_t *empty_arr = parse_ok ("[]");

  assert_true (json_equal (a, a));
  assert_true (json_equal (a, same));
  assert_false (json_equal (a, order));
  assert_false (json_equal (a, value));
  assert_false (json_equal (a, longer));
  assert_false (json_equal (longer, a));
  assert_false (json_equal (a, str));
  assert_false (json_equal (a, num_str));
  assert_false (json_equal (empty_obj, empty_arr));
  assert_false (json_equal (a, NULL));
  assert_false (json_equal (NULL, a));
  assert_true (json_equal (NULL, NULL));
}

static void
test_json_clone_deep (void **state)
{
  (void)state;
  const char *doc = "{\"a\":[18446744073709551615,\"s\",true,false,null,{\"k\":-0}],\"a2\":1.50,\"e\":\"\"}";
  cleanup_json json_t *v = parse_renamed (doc, "a2", "a");
  cleanup_json json_t *c = json_clone (v);
  char *t1 = generate_ok (v), *t2;

  assert_ptr_not_equal (c, v);
  assert_true (json_equal (v, c));
  t2 = generate_ok (c);
  assert_string_equal (t1, t2);
  free (t2);
  /* The duplicate key is cloned too, in its place.  */
  assert_int_equal (c->n, 3);
  assert_string_equal (c->keys[1], "a");
  assert_string_equal (json_get (c, "a")->text, "1.50");
  /* Deep: editing the clone leaves the original alone.  */
  json_set (v->items[0]->items[5], "k", json_new_string ("changed"));
  assert_false (json_equal (v, c));
  assert_string_equal (c->items[0]->items[5]->items[0]->text, "-0");
  json_remove_at (c->items[0], 0);
  assert_int_equal (v->items[0]->n, 6);
  assert_string_equal (v->items[0]->items[0]->text, "18446744073709551615");
  free (t1);
}

static void
test_json_new_constructors (void **state)
{
  (void)state;
  cleanup_json json_t *o = json_new (JSON_OBJECT);
  cleanup_json json_t *expect = parse_ok ("{\"s\":\"v\",\"n\":0,\"u\":18446744073709551615,\"t\":true,\"f\":false,\"x\":12.0,\"a\":[null]}");
  json_t *a;

  json_set (o, "s", json_new_string ("v"));
  json_set (o, "n", json_new_uint (0));
  json_set (o, "u", json_new_uint (18446744073709551615ULL));
  json_set (o, "t", json_new_bool (true));
  json_set (o, "f", json_new_bool (false));
  json_set (o, "x", json_new_number ("12.0"));
  a = json_new (JSON_ARRAY);
  json_push (a, json_new (JSON_NULL));
  json_set (o, "a", a);
  assert_true (json_equal (o, expect));
  assert_null (json_string (json_get (o, "n")));
  assert_string_equal (json_string (json_get (o, "s")), "v");
  assert_null (json_get (o, "missing"));
  assert_null (json_get (a, "s"));
  assert_null (json_get (NULL, "s"));
  json_free (NULL);
}

/* Messages quoting input stay one line (fuzz regression
   test/fuzz/regressions/admin-config/unknown-key-with-newline.json): an
   admin config key "a\nb" was quoted with its newline.  */
static void
test_error_message_one_line (void **state)
{
  struct entitle_config_s cfg = { 0 };
  static const char config[] = "{\"on_\\nenforce\\u001b[2J\": 1}";
  entitle_error_t err = NULL;

  (void)state;
  assert_true (entitle_config_parse (&cfg, CONFIG_PATH, config, strlen (config), &err) < 0);
  assert_string_equal (err->msg, "`/etc/entitle/entitle.json`: unknown key `on_?enforce?[2J`");
  entitle_make_error (&err, EINVAL, "ignored: the first error is kept");
  assert_int_equal (entitle_error_wrap (&err, "load\t`%s`", "x\r"), -EINVAL - 1);
  assert_string_equal (err->msg, "load?`x?`: `/etc/entitle/entitle.json`: unknown key `on_?enforce?[2J`");
  entitle_error_release (&err);
  entitle_config_free (&cfg);
}

/* The compact form entitle writes for the runtime is written by entitle's
   own generator: the bytes yajl writes (its escapes, upper-case hex),
   UTF-8 checked, and it parses back to the same tree.  */
static void
test_json_generate_compact_bytes (void **state)
{
  static const struct
  {
    const char *in, *out;
  } cases[] = {
    { "{\"a\": [1, -2.50e3, true, false, null], \"b\": {}}", "{\"a\":[1,-2.50e3,true,false,null],\"b\":{}}\n" },
    { "[\"q\\\"b\\\\s/\"]", "[\"q\\\"b\\\\s/\"]\n" },
    { "[\"\\b\\f\\n\\r\\t\\u0001\\u001f\\u007f\"]", "[\"\\b\\f\\n\\r\\t\\u0001\\u001F\x7f\"]\n" },
    { "{\"k\\n\": \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x90\xb3\"}", "{\"k\\n\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x90\xb3\"}\n" },
    { "[[],[[]],{\"\":\"\"}]", "[[],[[]],{\"\":\"\"}]\n" },
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    {
      cleanup_json json_t *v = NULL, *back = NULL;
      cleanup_free char *out = NULL;
      entitle_error_t err = NULL;
      size_t len;

      assert_int_equal (json_parse (cases[i].in, strlen (cases[i].in), &v, &err), 0);
      assert_int_equal (json_generate_compact (v, &out, &len, &err), 0);
      if (strcmp (out, cases[i].out) != 0)
        fail_msg ("compact of `%s`: `%s`, expected `%s`", cases[i].in, out, cases[i].out);
      assert_int_equal (len, strlen (cases[i].out));
      assert_int_equal (json_parse (out, len, &back, &err), 0);
      assert_true (json_equal (v, back));
    }
}

/* A log record is never refused: each byte of ill-formed UTF-8 becomes
   \ufffd, as Go's encoding/json writes it (logrus, in runc's logs); a
   well-formed string is written as the compact form writes it.  */
static void
test_json_generate_record_replaces_bad_utf8 (void **state)
{
  static const struct
  {
    const char *in, *out;
  } cases[] = {
    { "\xff", "[\"\\ufffd\"]\n" },
    { "a\xc3", "[\"a\\ufffd\"]\n" },
    { "\xc0\xaf"
      "b",
      "[\"\\ufffd\\ufffdb\"]\n" },
    { "\xed\xa0\x80", "[\"\\ufffd\\ufffd\\ufffd\"]\n" },
    { "/x\n\xc3\xa9\"", "[\"/x\\n\xc3\xa9\\\"\"]\n" },
  };

  (void)state;
  for (size_t i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    {
      cleanup_json json_t *v = json_new (JSON_ARRAY), *back = NULL;
      cleanup_free char *out = NULL;
      entitle_error_t err = NULL;
      size_t len = 0;

      json_push (v, json_new_string (cases[i].in));
      out = json_generate_record (v, &len);
      assert_non_null (out);
      if (strcmp (out, cases[i].out) != 0)
        fail_msg ("record of case %zu: `%s`, expected `%s`", i, out, cases[i].out);
      assert_int_equal (len, strlen (out));
      assert_int_equal (json_parse (out, len, &back, &err), 0);
    }
}

/* A string entitle made from bytes that are not UTF-8 (a path from the
   environment) is refused, never written into a config a runtime could
   not read.  */
static void
test_json_generate_compact_refuses_bad_utf8 (void **state)
{
  static const char *const bad[] = { "\xff", "a\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                                     "\xf5\x80\x80", "\xf8\x80\x80" };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (bad) / sizeof (bad[0]); i++)
    {
      cleanup_json json_t *v = json_new (JSON_ARRAY);
      cleanup_free char *out = NULL;
      entitle_error_t err = NULL;
      size_t len;

      cleanup_free char *doc = NULL;
      json_t *parsed = NULL;

      json_push (v, json_new_string (bad[i]));
      assert_true (json_generate_compact (v, &out, &len, &err) < 0);
      assert_non_null (strstr (err->msg, "UTF-8"));
      entitle_error_release (&err);
      /* The parser refuses the same bytes: one check for both.  */
      assert_true (asprintf (&doc, "[\"%s\"]", bad[i]) > 0);
      assert_true (json_parse (doc, strlen (doc), &parsed, &err) < 0);
      entitle_error_release (&err);
    }
}

/* json_scan: where runc's decoder stops reading exec --process FILE.  */

/* Feed @doc to json_scan @step bytes at a time, as reads would bring it. */
static long
scan_in_steps (const char *doc, size_t step)
{
  struct json_scan_s s = { 0 };
  size_t len = strlen (doc), n = 0;
  long end = 0;

  while (end == 0 && n < len)
    {
      n = n + step > len ? len : n + step;
      end = json_scan (&s, doc, n);
    }
  return end;
}

static void
test_json_scan_ends_at_the_first_value (void **state)
{
  static const struct
  {
    const char *doc;
    long end;
  } cases[] = {
    { "{}", 2 },
    { " \n\t{\"args\":[\"sh\"]}\n", 18 },
    { "{\"a\":\"}\"}{", 9 },
    { "{\"a\":\"\\\"}\"}x", 11 },
    { "{\"a\":\"\\\\\"}garbage", 10 },
    { "[{\"a\":[1,{}]}] [", 14 },
    { "{\"args\":[\"", 0 },
    { "{\"a\":{}", 0 },
    { "", 0 },
    { "  ", 0 },
    { "null", -1 },
    { "\"{}\"", -1 },
    { "}", -1 },
  };
  struct json_scan_s zero = { 0 };
  size_t i, step;

  (void)state;
  for (i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    for (step = 1; step <= 4; step++)
      if (scan_in_steps (cases[i].doc, step) != cases[i].end)
        fail_msg ("`%s` in steps of %zu: %ld, not %ld", cases[i].doc, step, scan_in_steps (cases[i].doc, step),
                  cases[i].end);
  /* /dev/zero: refused at its first byte, as runc's decoder refuses it. */
  assert_int_equal (json_scan (&zero, "\0{}", 3), -1);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_json_parse_keeps_key_order),
    cmocka_unit_test (test_json_generate_compact_bytes),
    cmocka_unit_test (test_json_generate_compact_refuses_bad_utf8),
    cmocka_unit_test (test_json_generate_record_replaces_bad_utf8),
    cmocka_unit_test (test_json_parse_refuses_duplicate_keys),
    cmocka_unit_test (test_json_parse_error_position),
    cmocka_unit_test (test_json_parse_refuses_ill_formed_utf8),
    cmocka_unit_test (test_json_parse_keeps_numbers_as_written),
    cmocka_unit_test (test_json_parse_numbers_are_not_equal_by_value),
    cmocka_unit_test (test_json_parse_strings_and_escapes),
    cmocka_unit_test (test_json_generate_indents_and_ends_with_newline),
    cmocka_unit_test (test_json_parse_truncated),
    cmocka_unit_test (test_json_parse_trailing_garbage),
    cmocka_unit_test (test_json_parse_invalid_utf8),
    cmocka_unit_test (test_json_parse_other_malformed),
    cmocka_unit_test (test_json_parse_uses_len_not_nul),
    cmocka_unit_test (test_json_parse_nul_in_key_refused),
    cmocka_unit_test (test_json_parse_depth_limit),
    cmocka_unit_test (test_json_generate_whatever_parse_accepts),
    cmocka_unit_test (test_entitle_error_release_null),
    cmocka_unit_test (test_json_set_replaces_every_duplicate),
    cmocka_unit_test (test_json_del_every_duplicate),
    cmocka_unit_test (test_json_get_or_add_types),
    cmocka_unit_test (test_json_remove_at_shifts),
    cmocka_unit_test (test_json_array_find_string_first),
    cmocka_unit_test (test_json_equal_deep),
    cmocka_unit_test (test_json_clone_deep),
    cmocka_unit_test (test_json_new_constructors),
    cmocka_unit_test (test_error_message_one_line),
    cmocka_unit_test (test_json_scan_ends_at_the_first_value),
    cmocka_unit_test (test_json_generate_pretty_nested),
    cmocka_unit_test (test_json_generate_pretty_empty),
    cmocka_unit_test (test_json_generate_pretty_strings),
    cmocka_unit_test (test_json_generate_pretty_numbers_as_written),
    cmocka_unit_test (test_json_generate_compact_same_bytes),
    cmocka_unit_test (test_json_generate_refuses_bad_utf8),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
