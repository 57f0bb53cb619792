/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "unit.h"
#include "catalogue.h"
#include "entitlements.h"
#include "attach.h"
#include "resolve.h"
#include "utils.h"

/* The catalogue, the entitlement syntax, the resolver's sources and
   ladders, the grant globs and the admin config (DESIGN §2, §3).  */

/* Parse @json as an admin config, expecting a refusal; returns the message.  */
static char *
config_fails (const char *json)
{
  struct entitle_config_s cfg;
  entitle_error_t err = NULL;
  char *msg;
  int ret;

  memset (&cfg, 0, sizeof (cfg));
  ret = entitle_config_parse (&cfg, CONFIG_PATH, json, strlen (json), &err);
  assert_true (ret < 0);
  assert_non_null (err);
  assert_null (strchr (err->msg, '\n'));
  msg = strdup (err->msg);
  entitle_error_release (&err);
  entitle_config_free (&cfg);
  return msg;
}

static void
parse_list_ok (const char *list, struct entitle_set_s *set)
{
  entitle_error_t err = NULL;
  int ret = entitle_parse_list (NULL, list, "test", set, &err);

  if (ret < 0)
    fail_msg ("entitle_parse_list `%s`: %s", list, err->msg);
  assert_null (err);
}

/* Parse @list, expecting a refusal; returns the message.  */
static char *
parse_list_fails (const char *list)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  entitle_error_t err = NULL;
  char *msg;
  int ret = entitle_parse_list (NULL, list, "test", &set, &err);

  if (ret >= 0)
    fail_msg ("entitle_parse_list `%s` accepted", list);
  assert_non_null (err);
  msg = strdup (err->msg);
  entitle_error_release (&err);
  return msg;
}

static char *
parse_one_fails (const char *s)
{
  struct entitle_request_s req = { 0 };
  entitle_error_t err = NULL;
  char *msg;
  int ret = entitle_parse_one (NULL, s, strlen (s), &req, &err);

  if (ret >= 0)
    fail_msg ("entitle_parse_one `%s` accepted", s);
  assert_non_null (err);
  msg = strdup (err->msg);
  entitle_error_release (&err);
  return msg;
}

/* @msg, from one of the *_fails helpers, contains @needle; it is freed.  */
static void
assert_fails_with (char *msg, const char *needle)
{
  assert_contains (msg, needle);
  free (msg);
}

/* Resolve @requested (a list) under @cfg_json; returns the formatted final
   set, or NULL with *msg set.  */
static char *
resolve (const char *cfg_json, const char *requested, char **msg)
{
  struct entitle_config_s cfg;
  cleanup_entitle_set struct entitle_set_s req = { 0 }, final = { 0 };
  entitle_error_t err = NULL;
  char *out = NULL;
  int ret;

  config_from (&cfg, cfg_json);
  parse_list_ok (requested, &req);
  ret = entitle_resolve (&cfg, &req, &final, &err);
  if (ret < 0)
    {
      assert_non_null (err);
      assert_null (strchr (err->msg, '\n'));
      if (msg == NULL)
        fail_msg ("entitle_resolve `%s` under %s: %s", requested, cfg_json, err->msg);
      *msg = strdup (err->msg);
      entitle_error_release (&err);
    }
  else
    {
      assert_null (err);
      out = entitle_set_format (&final);
    }
  entitle_config_free (&cfg);
  return out;
}

static void
assert_resolves (const char *cfg_json, const char *requested, const char *expected)
{
  char *out = resolve (cfg_json, requested, NULL);
  if (strcmp (out, expected) != 0)
    fail_msg ("`%s` under %s resolves to `%s`, expected `%s`", requested, cfg_json, out, expected);
  free (out);
}

static char *
resolve_fails (const char *cfg_json, const char *requested)
{
  char *msg = NULL, *out = resolve (cfg_json, requested, &msg);
  if (out)
    fail_msg ("`%s` under %s resolves to `%s`, expected a refusal", requested, cfg_json, out);
  return msg;
}

/* A well-formed value for the modifier @name: its kind's example.  */
static const char *
sample_value (const char *name)
{
  static char buf[128];
  const struct entitle_entry_s *e = entitle_catalogue_find (NULL, name, strlen (name));

  snprintf (buf, sizeof (buf), "=%s", e->value->example);
  return buf;
}

static bool
granted (const char *cfg_json, const char *entitlement)
{
  struct entitle_config_s cfg;
  struct entitle_request_s req = { 0 };
  entitle_error_t err = NULL;
  bool r;

  config_from (&cfg, cfg_json);
  assert_int_equal (entitle_parse_one (NULL, entitlement, strlen (entitlement), &req, &err), 0);
  r = entitle_granted (&cfg, &req);
  free (req.value);
  entitle_config_free (&cfg);
  return r;
}

/* Under @cfg_json each entitlement of @yes is granted and none of @no
   (both NULL-terminated), in that order.  */
static void
assert_grants (const char *cfg_json, const char *const *yes, const char *const *no)
{
  for (; *yes != NULL; yes++)
    if (!granted (cfg_json, *yes))
      fail_msg ("%s does not grant `%s`", cfg_json, *yes);
  for (; *no != NULL; no++)
    if (granted (cfg_json, *no))
      fail_msg ("%s grants `%s`", cfg_json, *no);
}

#define NAMES(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The catalogue.  */

static void
test_entitle_catalogue_rows_sorted (void **state)
{
  const struct entitle_entry_s *rows;
  size_t n, i;

  (void)state;
  rows = entitle_catalogue_rows (NULL, &n);
  assert_non_null (rows);
  assert_true (n >= 20);
  for (i = 1; i < n; i++)
    if (strcmp (rows[i - 1].name, rows[i].name) >= 0)
      fail_msg ("catalogue not sorted: `%s` before `%s`", rows[i - 1].name, rows[i].name);
}

static void
test_entitle_catalogue_find_every_row (void **state)
{
  const struct entitle_entry_s *rows;
  size_t n, i;

  (void)state;
  rows = entitle_catalogue_rows (NULL, &n);
  for (i = 0; i < n; i++)
    {
      char buf[128];

      assert_ptr_equal (entitle_catalogue_find (NULL, rows[i].name, strlen (rows[i].name)), &rows[i]);
      /* Only @len bytes are the name: "name=value" finds the row too.  */
      snprintf (buf, sizeof (buf), "%s=10.0.0.0/8", rows[i].name);
      assert_ptr_equal (entitle_catalogue_find (NULL, buf, strlen (rows[i].name)), &rows[i]);
      /* A prefix of a name or a longer name is another name.  */
      assert_null (entitle_catalogue_find (NULL, rows[i].name, strlen (rows[i].name) - 1));
      snprintf (buf, sizeof (buf), "%sx", rows[i].name);
      assert_null (entitle_catalogue_find (NULL, buf, strlen (buf)));
    }
  assert_null (entitle_catalogue_find (NULL, "network", 7));
  assert_null (entitle_catalogue_find (NULL, "a", 1));
  assert_null (entitle_catalogue_find (NULL, "zzz.zzz", 7));
  assert_null (entitle_catalogue_find (NULL, "", 0));
}

/* A row has every part that another of its parts needs: adding a row
   that forgets one fails here, not silently at run time.  */
static void
row_complete (const struct entitle_entry_s *r)
{
  union entitle_value_u v;
  const struct entitle_fx_text_s *fx;
  size_t n, i;
  unsigned described = 0;

  /* A value has a form for messages and man pages, and a parser that
     takes the example.  */
  if (r->value)
    {
      assert_non_null (r->value->form);
      assert_non_null (r->value->parse);
      assert_true (r->value->parse (r->value->example, &v));
    }
  /* A modifier the cgroup programs read puts its values into their
     policy: a fill, and a value to fill; a fill belongs to such a row.  */
  if (r->value && r->policy)
    assert_non_null (r->fill);
  if (r->fill)
    assert_true (r->value && r->policy && r->attach);
  /* Policy bits mean programs to read them, and the reverse; programs are
     described for people, and each is one the loader has.  */
  assert_true ((r->policy != 0) == (r->attach != 0));
  if (r->attach)
    assert_non_null (r->bpf_text);
  for (i = 0; i < ATTACH_COUNT; i++)
    if (r->attach & ATTACH_BIT (i))
      assert_non_null (entitle_attach_points[i].program);
  /* Every effect bit has its sentence.  */
  fx = entitle_fx_texts (&n);
  for (i = 0; i < n; i++)
    described |= fx[i].fx;
  if ((r->fx & ~described) != 0)
    fail_msg ("`%s`: effect bits %#x have no text in entitle_fx_texts", r->name, r->fx & ~described);
  /* What it contradicts exists.  */
  for (const char *const *c = r->contradicts; c && *c; c++)
    if (entitle_catalogue_find (NULL, *c, strlen (*c)) == NULL)
      fail_msg ("`%s` contradicts `%s`, which is not in the catalogue", r->name, *c);
}

static void
test_entitle_catalogue_rows_consistent (void **state)
{
  const struct entitle_entry_s *rows;
  size_t n, i, k;

  (void)state;
  rows = entitle_catalogue_rows (NULL, &n);
  for (i = 0; i < n; i++)
    {
      const struct entitle_entry_s *r = &rows[i];
      struct entitle_request_s req = { 0 };
      entitle_error_t err = NULL;
      char buf[128];

      assert_non_null (r->summary);
      row_complete (r);
      /* A rung belongs to a ladder; a modifier does not.  */
      assert_true ((r->rung > 0) == (r->domain != DOMAIN_NONE));
      /* Values repeat: only modifiers take one.  */
      if (r->value)
        assert_int_equal (r->rung, 0);
      /* One row per rung of a ladder.  */
      for (k = 0; k < n; k++)
        if (k != i && r->rung > 0 && rows[k].domain == r->domain)
          assert_int_not_equal (rows[k].rung, r->rung);
      /* Every row parses back to itself.  */
      snprintf (buf, sizeof (buf), "%s%s", r->name, r->value ? sample_value (r->name) : "");
      assert_int_equal (entitle_parse_one (NULL, buf, strlen (buf), &req, &err), 0);
      assert_ptr_equal (req.entry, r);
      free (req.value);
    }
  /* Exact grants: BuildKit's two names.  */
  assert_true (entitle_catalogue_find (NULL, "network.host", 12)->exact_grant);
  assert_true (entitle_catalogue_find (NULL, "security.insecure", 17)->exact_grant);
  assert_false (entitle_catalogue_find (NULL, "network.admin", 13)->exact_grant);
  /* Ladders read narrow to wide.  */
  assert_true (entitle_catalogue_find (NULL, "network.none", 12)->rung
               < entitle_catalogue_find (NULL, "network.user", 12)->rung);
  assert_true (entitle_catalogue_find (NULL, "network.admin", 13)->rung
               < entitle_catalogue_find (NULL, "network.host", 12)->rung);
  assert_true (entitle_catalogue_find (NULL, "security.confined", 17)->rung
               < entitle_catalogue_find (NULL, "security.view", 13)->rung);
}

static void
test_entitle_domain_name_ladders (void **state)
{
  (void)state;
  assert_string_equal (entitle_domain_name (DOMAIN_NETWORK), "network");
  assert_string_equal (entitle_domain_name (DOMAIN_SECURITY), "security");
  assert_string_equal (entitle_domain_name (DOMAIN_DEVICES), "host.devices");
  assert_string_equal (entitle_domain_name (DOMAIN_PROCESSES), "host.processes");
  assert_string_equal (entitle_domain_name (DOMAIN_MODULES), "host.modules");
}

/* Parsing one entitlement.  */

static void
test_entitle_parse_one_splits_on_first_equal (void **state)
{
  static const struct
  {
    const char *in, *name, *value;
  } cases[] = {
    { "network.egress=10.0.0.0/8:80", "network.egress", "10.0.0.0/8:80" },
    { "fs.read=/a=b=c", "fs.read", "/a=b=c" },
    { "fs.write=/data=1", "fs.write", "/data=1" },
    { "network.bind-map=80:8080", "network.bind-map", "80:8080" },
    { "network.none", "network.none", NULL },
    { "security.memory-lock", "security.memory-lock", NULL },
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    {
      struct entitle_request_s req = { 0 };
      entitle_error_t err = NULL;
      char *f;

      if (entitle_parse_one (NULL, cases[i].in, strlen (cases[i].in), &req, &err) < 0)
        fail_msg ("`%s`: %s", cases[i].in, err->msg);
      assert_string_equal (req.entry->name, cases[i].name);
      if (cases[i].value)
        assert_string_equal (req.value, cases[i].value);
      else
        assert_null (req.value);
      f = entitle_request_format (&req);
      assert_string_equal (f, cases[i].in);
      free (f);
      free (req.value);
    }
}

static void
test_entitle_parse_one_uses_len (void **state)
{
  struct entitle_request_s req = { 0 };
  entitle_error_t err = NULL;

  (void)state;
  /* Only 12 bytes: "network.none", the rest is another entitlement.  */
  assert_int_equal (entitle_parse_one (NULL, "network.none,security.confined", 12, &req, &err), 0);
  assert_string_equal (req.entry->name, "network.none");
  assert_int_equal (entitle_parse_one (NULL, "network.egress=1.2.3.4/32,x", 25, &req, &err), 0);
  assert_string_equal (req.value, "1.2.3.4/32");
  free (req.value);
}

static void
test_entitle_parse_one_unknown (void **state)
{
  char *msg;

  (void)state;
  msg = parse_one_fails ("network.bogus");
  assert_string_equal (msg, "unknown entitlement `network.bogus`");
  free (msg);
  /* The value is not part of the name.  */
  msg = parse_one_fails ("network.bogus=10.0.0.0/8");
  assert_string_equal (msg, "unknown entitlement `network.bogus`");
  free (msg);
  msg = parse_one_fails ("x.y");
  assert_string_equal (msg, "unknown entitlement `x.y`");
  free (msg);
  /* A name a few typing mistakes from a row gets it as a hint.  */
  msg = parse_one_fails ("network.none.x");
  assert_string_equal (msg, "unknown entitlement `network.none.x`: did you mean `network.none`?");
  free (msg);
  {
    static const char *const typos[][2] = {
      { "network.nnoe", "network.none" },
      { "netwrk.none", "network.none" },
      { "network.egres=10.0.0.0/8", "network.egress" },
      { "security.confinement", "security.confined" },
      { "host.device.none", "host.devices.none" },
      { "fs.wirte", "fs.write" },
    };
    size_t i;
    char want[256];

    for (i = 0; i < sizeof (typos) / sizeof (typos[0]); i++)
      {
        msg = parse_one_fails (typos[i][0]);
        snprintf (want, sizeof (want), "unknown entitlement `%.*s`: did you mean `%s`?",
                  (int)strcspn (typos[i][0], "="), typos[i][0], typos[i][1]);
        assert_string_equal (msg, want);
        free (msg);
      }
  }
}

static void
test_entitle_parse_one_malformed_names (void **state)
{
  static const char *const bad[] = { "Network.none", "network..none", "network.", "-a.b", "a",
                                     ".network", "network.none-", "network.-none", "network.no_ne",
                                     "network.no--ne", "network .none", "network.NONE", "",
                                     "=x", "network.none\n", "x" };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (bad) / sizeof (bad[0]); i++)
    {
      char *msg = parse_one_fails (bad[i]);
      assert_contains (msg, "malformed entitlement");
      free (msg);
    }
}

static void
test_entitle_parse_one_value_required (void **state)
{
  char *msg;

  (void)state;
  msg = parse_one_fails ("network.egress");
  assert_string_equal (msg, "entitlement `network.egress` needs a value (`network.egress=...`)");
  free (msg);
  assert_fails_with (parse_one_fails ("fs.write"), "needs a value");
  /* An empty value is no value.  */
  assert_fails_with (parse_one_fails ("network.egress="), "malformed value");
  /* A value is one comma-free, space-free token.  */
  assert_fails_with (parse_one_fails ("network.egress=10.0.0.0/8 80"), "malformed value");
}

static void
test_entitle_parse_one_value_forbidden (void **state)
{
  char *msg;

  (void)state;
  msg = parse_one_fails ("network.none=1");
  assert_string_equal (msg, "entitlement `network.none` takes no value");
  free (msg);
  assert_fails_with (parse_one_fails ("security.confined="), "takes no value");
}

static void
test_entitle_parse_one_too_long (void **state)
{
  char *s = malloc (2048), *msg;

  (void)state;
  strcpy (s, "fs.write=/");
  memset (s + 10, 'a', 2000);
  s[2010] = '\0';
  msg = parse_one_fails (s);
  assert_contains (msg, "longer than");
  assert_true (strlen (msg) < 200);
  free (msg);
  free (s);
}

/* The error contract (lib/base/error.h): a message is one line.  The input
   comes from the container's annotations and is echoed in the message.  */
static void
test_entitle_parse_one_message_one_line (void **state)
{
  static const char *const bad[] = { "network.egress=a\nb", "net\nwork.none", "network.none\n=1" };
  static const char *const lists[] = { ",\n", "network.none,fs.write=/a\n/b" };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (bad) / sizeof (bad[0]); i++)
    {
      char *msg = parse_one_fails (bad[i]);
      if (strchr (msg, '\n'))
        fail_msg ("the message for `%s` spans lines", bad[i]);
      free (msg);
    }
  for (i = 0; i < sizeof (lists) / sizeof (lists[0]); i++)
    {
      char *msg = parse_list_fails (lists[i]);
      if (strchr (msg, '\n'))
        fail_msg ("the message for list `%s` spans lines", lists[i]);
      free (msg);
    }
}

/* Parsing lists.  */

static void
test_entitle_parse_list_two_rungs_conflict (void **state)
{
  char *msg;

  (void)state;
  msg = parse_list_fails ("network.none,network.user");
  assert_contains (msg, "`network.none`");
  assert_contains (msg, "`network.user`");
  assert_contains (msg, "test");
  free (msg);
  msg = parse_list_fails ("security.admin, security.confined");
  assert_contains (msg, "security.admin");
  assert_contains (msg, "security.confined");
  free (msg);
  msg = parse_list_fails ("host.processes.none,network.host,host.processes.admin");
  assert_contains (msg, "host.processes.none");
  assert_contains (msg, "host.processes.admin");
  free (msg);
}

static void
test_entitle_parse_list_ladders_combine (void **state)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  const struct entitle_request_s *r;

  (void)state;
  parse_list_ok ("network.none,security.confined,host.devices.none,host.processes.none,"
                 "host.modules.admin,security.memory-lock,fs.read=/a,fs.read=/b",
                 &set);
  assert_int_equal (set.n, 8);
  r = entitle_set_rung (&set, DOMAIN_NETWORK);
  assert_non_null (r);
  assert_string_equal (r->entry->name, "network.none");
  r = entitle_set_rung (&set, DOMAIN_SECURITY);
  assert_string_equal (r->entry->name, "security.confined");
  assert_true (entitle_set_has (&set, "fs.read"));
  assert_true (entitle_set_has (&set, "security.memory-lock"));
  assert_false (entitle_set_has (&set, "fs.write"));
  /* Modifiers are not rungs.  */
  assert_null (entitle_set_rung (&set, DOMAIN_NONE));
}

static void
test_entitle_parse_list_duplicates_collapse (void **state)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  char *f;

  (void)state;
  parse_list_ok ("network.none,network.none,network.bind=80,network.bind=80,network.bind=443", &set);
  assert_int_equal (set.n, 3);
  f = entitle_set_format (&set);
  assert_string_equal (f, "network.bind=443,network.bind=80,network.none");
  free (f);
  /* And across calls.  */
  parse_list_ok ("network.none", &set);
  assert_int_equal (set.n, 3);
}

static void
test_entitle_parse_list_empty_items (void **state)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  static const char *const bad[] = { "network.none,,security.confined", "network.none,", ",network.none", " , " };
  size_t i;

  (void)state;
  /* An empty annotation asks for nothing.  */
  parse_list_ok ("", &set);
  assert_int_equal (set.n, 0);
  for (i = 0; i < sizeof (bad) / sizeof (bad[0]); i++)
    {
      char *msg = parse_list_fails (bad[i]);
      assert_contains (msg, "empty entitlement");
      free (msg);
    }
}

static void
test_entitle_parse_list_spaces_trimmed (void **state)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };

  (void)state;
  parse_list_ok (" network.user ,\tsecurity.confined\t", &set);
  assert_int_equal (set.n, 2);
  assert_true (entitle_set_has (&set, "network.user"));
  assert_true (entitle_set_has (&set, "security.confined"));
}

static void
test_entitle_parse_list_unknown_names_source (void **state)
{
  char *msg;

  (void)state;
  msg = parse_list_fails ("network.none,x.y");
  assert_contains (msg, "unknown entitlement `x.y`");
  assert_contains (msg, "test");
  free (msg);
}

static void
test_entitle_set_format_sorted (void **state)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 }, empty = { 0 };
  char *f;

  (void)state;
  parse_list_ok ("security.confined,network.egress=10.0.0.0/8,host.processes.none,network.egress=1.0.0.0/8,"
                 "fs.write=/tmp",
                 &set);
  f = entitle_set_format (&set);
  assert_string_equal (f, "fs.write=/tmp,host.processes.none,network.egress=1.0.0.0/8,"
                          "network.egress=10.0.0.0/8,security.confined");
  free (f);
  f = entitle_set_format (&empty);
  assert_string_equal (f, "");
  free (f);
}

/* DESIGN §7: whitespace separates entitlements as commas do (Podman's
   --annotation splits its value on commas).  */
static void
test_entitle_parse_list_whitespace_separates (void **state)
{
  static const char *const lists[] = {
    "network.user security.confined",
    "network.user\tsecurity.confined",
    "  network.user\n\nsecurity.confined  ",
    "network.user security.confined,network.egress=10.0.0.0/8:443",
    "network.user ,  security.confined network.egress=10.0.0.0/8:443",
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (lists) / sizeof (lists[0]); i++)
    {
      cleanup_entitle_set struct entitle_set_s set = { 0 };
      parse_list_ok (lists[i], &set);
      assert_int_equal (set.n, i < 3 ? 2 : 3);
      assert_true (entitle_set_has (&set, "network.user"));
      assert_true (entitle_set_has (&set, "security.confined"));
      if (i >= 3)
        assert_true (entitle_set_has (&set, "network.egress"));
    }
}

/* Whitespace alone asks for nothing, as the empty list does; a comma
   still needs an entitlement on each side.  */
static void
test_entitle_parse_list_whitespace_empty (void **state)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  static const char *const bad[] = { "network.none , , security.confined", "network.none security.confined ,",
                                     "\t, network.none" };
  size_t i;

  (void)state;
  parse_list_ok (" \t\n ", &set);
  assert_int_equal (set.n, 0);
  for (i = 0; i < sizeof (bad) / sizeof (bad[0]); i++)
    assert_fails_with (parse_list_fails (bad[i]), "empty entitlement");
}

/* Two rungs are still two rungs, however they are separated; the 256-item
   limit counts entitlements, whatever separates them.  */
static void
test_entitle_parse_list_whitespace_conflicts_and_limit (void **state)
{
  char *msg, *big;
  size_t i;

  (void)state;
  msg = parse_list_fails ("network.none network.user");
  assert_contains (msg, "network.none");
  assert_contains (msg, "network.user");
  free (msg);
  big = calloc (300, sizeof ("network.bind=65000 "));
  assert_non_null (big);
  for (i = 0; i < 300; i++)
    sprintf (big + strlen (big), "network.bind=%zu ", 1000 + i);
  assert_fails_with (parse_list_fails (big), "300 entitlements, more than 256");
  free (big);
}

/* `defaults` and `require` items are lists too.  */
static void
test_entitle_parse_strv_whitespace_separates (void **state)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  char *list[] = { "network.user security.confined", "host.processes.none", NULL };
  char *empty[] = { "network.user", " ", NULL };
  char *conflict[] = { "network.user network.none", NULL };
  entitle_error_t err = NULL;

  (void)state;
  assert_int_equal (entitle_parse_strv (NULL, list, "`defaults`", &set, &err), 0);
  assert_int_equal (set.n, 3);
  assert_true (entitle_set_has (&set, "network.user"));
  assert_true (entitle_set_has (&set, "security.confined"));
  assert_true (entitle_set_has (&set, "host.processes.none"));
  entitle_set_free (&set);
  assert_true (entitle_parse_strv (NULL, empty, "`require`", &set, &err) < 0);
  assert_contains (err->msg, "empty entitlement in `require`");
  entitle_error_release (&err);
  entitle_set_free (&set);
  assert_true (entitle_parse_strv (NULL, conflict, "`require`", &set, &err) < 0);
  assert_contains (err->msg, "network.none");
  assert_contains (err->msg, "network.user");
  entitle_error_release (&err);
}

/* The admin config's lists, through the resolver.  */
static void
test_entitle_resolve_admin_lists_whitespace (void **state)
{
  cleanup_entitle_set struct entitle_set_s req = { 0 }, final = { 0 };
  struct entitle_config_s cfg;
  entitle_error_t err = NULL;

  (void)state;
  config_from (&cfg, "{\"defaults\":[\"network.user security.confined\"],\"require\":[\"host.processes.none\"]}");
  assert_int_equal (entitle_resolve (&cfg, &req, &final, &err), 0);
  assert_int_equal (final.n, 3);
  assert_true (entitle_set_has (&final, "network.user"));
  assert_true (entitle_set_has (&final, "security.confined"));
  assert_true (entitle_set_has (&final, "host.processes.none"));
  entitle_config_free (&cfg);
}

static void
test_entitle_parse_strv_sources (void **state)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  char *list[] = { "security.confined", "network.user", NULL };
  char *bad[] = { "network.user", "network.none", NULL };
  entitle_error_t err = NULL;

  (void)state;
  assert_int_equal (entitle_parse_strv (NULL, list, "`defaults`", &set, &err), 0);
  assert_int_equal (set.n, 2);
  assert_string_equal (set.items[0].entry->name, "network.user");
  entitle_set_free (&set);
  assert_true (entitle_parse_strv (NULL, bad, "`defaults`", &set, &err) < 0);
  assert_contains (err->msg, "network.user");
  assert_contains (err->msg, "network.none");
  assert_contains (err->msg, "`defaults`");
  entitle_error_release (&err);
}

/* Resolving sources and ladders.  */

static void
test_entitle_resolve_nothing (void **state)
{
  (void)state;
  assert_resolves ("{}", "", "");
}

static void
test_entitle_resolve_defaults_fill_empty_ladders (void **state)
{
  static const char *cfg = "{\"defaults\":[\"network.user\",\"security.confined\"]}";

  (void)state;
  assert_resolves (cfg, "", "network.user,security.confined");
  /* A request replaces the default in its own ladder only.  */
  assert_resolves (cfg, "network.none", "network.none,security.confined");
  assert_resolves (cfg, "network.admin", "network.admin,security.confined");
  assert_resolves (cfg, "security.view", "network.user,security.view");
  assert_resolves (cfg, "host.processes.none", "host.processes.none,network.user,security.confined");
  /* A modifier is no rung: the default stays.  */
  assert_resolves (cfg, "network.egress=10.0.0.0/8", "network.egress=10.0.0.0/8,network.user,security.confined");
}

static void
test_entitle_resolve_require_is_a_floor (void **state)
{
  static const char *cfg = "{\"require\":[\"security.view\"],\"defaults\":[\"network.user\"]}";
  char *msg;

  (void)state;
  assert_resolves (cfg, "", "network.user,security.view");
  /* As wide or narrower: the request stands.  */
  assert_resolves (cfg, "security.view", "network.user,security.view");
  assert_resolves (cfg, "security.confined", "network.user,security.confined");
  /* Wider: refused, naming both and the config.  */
  msg = resolve_fails (cfg, "security.admin");
  assert_contains (msg, "\"security.admin\"");
  assert_contains (msg, "\"security.view\"");
  assert_contains (msg, CONFIG_PATH);
  free (msg);
  msg = resolve_fails (cfg, "security.insecure");
  assert_contains (msg, "security.insecure");
  assert_contains (msg, "security.view");
  free (msg);
  /* A floor in one ladder says nothing of the others.  */
  assert_resolves (cfg, "network.admin", "network.admin,security.view");
}

static void
test_entitle_resolve_require_overrides_nothing_requested (void **state)
{
  static const char *cfg = "{\"require\":[\"network.none\"],\"defaults\":[\"network.admin\"]}";
  char *msg;

  (void)state;
  /* The floor applies where the container asks for nothing.  */
  assert_resolves (cfg, "", "network.none");
  msg = resolve_fails (cfg, "network.user");
  assert_contains (msg, "network.user");
  assert_contains (msg, "network.none");
  free (msg);
}

static void
test_entitle_resolve_network_none_contradictions (void **state)
{
  char *msg;

  (void)state;
  msg = resolve_fails ("{}", "network.none,network.egress=10.0.0.0/8");
  assert_string_equal (msg, "entitlement `network.egress` contradicts `network.none`");
  free (msg);
  msg = resolve_fails ("{}", "network.bind=80,network.none");
  assert_contains (msg, "network.bind");
  assert_contains (msg, "network.none");
  free (msg);
  assert_fails_with (resolve_fails ("{}", "network.none,network.bind-map=80:8080"), "network.bind-map");
  /* From another source: the floor and the request.  */
  assert_fails_with (resolve_fails ("{\"require\":[\"network.none\"]}", "network.egress=10.0.0.0/8"), "contradicts `network.none`");
  /* Other rungs do not contradict it.  */
  assert_resolves ("{}", "network.user,network.egress=10.0.0.0/8", "network.egress=10.0.0.0/8,network.user");
}

static void
test_entitle_resolve_modifiers_from_every_source (void **state)
{
  (void)state;
  assert_resolves ("{\"require\":[\"network.bind=80\"],\"defaults\":[\"security.memory-lock\"]}",
                   "network.egress=10.0.0.0/8",
                   "network.bind=80,network.egress=10.0.0.0/8,security.memory-lock");
}

static void
test_entitle_resolve_bad_admin_lists (void **state)
{
  char *msg;

  (void)state;
  msg = resolve_fails ("{\"defaults\":[\"network.bogus\"]}", "");
  assert_contains (msg, "unknown entitlement `network.bogus`");
  assert_contains (msg, "`defaults` of " CONFIG_PATH);
  free (msg);
  assert_fails_with (resolve_fails ("{\"require\":[\"network.none\",\"network.user\"]}", ""), "`require` of " CONFIG_PATH);
}

/* Grant globs.  */

static void
test_entitle_granted_component_glob (void **state)
{
  static const char *cfg = "{\"grant\":[\"network.*\"]}";

  (void)state;
  /* Exact-grant rows need their exact name.  */
  assert_grants (cfg,
                 NAMES ("network.user", "network.none", "network.admin", "network.egress=10.0.0.0/8",
                        "network.bind-map=1:2"),
                 NAMES ("network.host", "security.confined", "host.devices.none"));
}

static void
test_entitle_granted_star_alone (void **state)
{
  static const char *cfg = "{\"grant\":[\"*\"]}";
  const struct entitle_entry_s *rows;
  size_t n, i;

  (void)state;
  rows = entitle_catalogue_rows (NULL, &n);
  for (i = 0; i < n; i++)
    {
      char buf[128];
      snprintf (buf, sizeof (buf), "%s%s", rows[i].name, rows[i].value ? sample_value (rows[i].name) : "");
      assert_int_equal (granted (cfg, buf), !rows[i].exact_grant);
    }
  assert_false (granted (cfg, "security.insecure"));
  assert_false (granted (cfg, "network.host"));
}

static void
test_entitle_granted_exact_names (void **state)
{
  static const char *cfg = "{\"grant\":[\"network.host\",\"security.insecure\",\"host.modules.admin\"]}";

  (void)state;
  assert_grants (cfg, NAMES ("network.host", "security.insecure", "host.modules.admin"),
                 NAMES ("network.admin", "security.admin", "host.devices.admin"));
}

static void
test_entitle_granted_globs_match_whole_components (void **state)
{
  static const struct
  {
    const char *cfg, *entitlement;
    bool granted;
  } cases[] = {
    { "{\"grant\":[\"net*\"]}", "network.user", false },
    { "{\"grant\":[\"network\"]}", "network.user", false },
    { "{\"grant\":[\"network.us*\"]}", "network.user", false },
    { "{\"grant\":[\"host.*\"]}", "host.devices.none", true },
    { "{\"grant\":[\"host.*.admin\"]}", "host.devices.admin", true },
    { "{\"grant\":[\"host.*.admin\"]}", "host.devices.none", false },
    { "{\"grant\":[\"security.*\"]}", "security.insecure", false },
    { "{\"grant\":[\"security.*\"]}", "security.admin", true },
    { "{\"grant\":[]}", "network.none", false },
    { "{}", "network.none", false },
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    if (granted (cases[i].cfg, cases[i].entitlement) != cases[i].granted)
      fail_msg ("%s: `%s` granted is not %d", cases[i].cfg, cases[i].entitlement, cases[i].granted);
}

static void
test_entitle_granted_values (void **state)
{
  static const char *cfg = "{\"grant\":[\"network.egress=10.0.0.0/8\"]}";

  (void)state;
  assert_grants (cfg, NAMES ("network.egress=10.0.0.0/8"),
                 NAMES ("network.egress=10.0.0.0/16", "network.egress=10.0.0.0/8:80", "network.egress=0.0.0.0/0",
                        "network.bind=8080"));
  /* A name without value grants every value.  */
  assert_grants ("{\"grant\":[\"network.egress\"]}", NAMES ("network.egress=0.0.0.0/0"), NAMES ("network.bind=80"));
}

/* The admin config.  */

static void
test_entitle_config_parse_full (void **state)
{
  struct entitle_config_s cfg;

  (void)state;
  config_from (&cfg, "{\n"
                     "  \"runtime\": \"/usr/sbin/runc\",\n"
                     "  \"defaults\": [\"network.user\", \"security.confined\"],\n"
                     "  \"grant\": [\"network.*\", \"security.confined\", \"security.view\", \"host.processes.none\"],\n"
                     "  \"require\": [\"security.confined\"],\n"
                     "  \"on_unenforceable\": \"refuse\",\n"
                     "  \"lock\": true,\n"
                     "  \"state_dir\": \"/run/entitle\"\n"
                     "}\n");
  assert_string_equal (cfg.path, CONFIG_PATH);
  assert_string_equal (cfg.runtime, "/usr/sbin/runc");
  assert_string_equal (cfg.defaults[0], "network.user");
  assert_string_equal (cfg.defaults[1], "security.confined");
  assert_null (cfg.defaults[2]);
  assert_string_equal (cfg.grant[3], "host.processes.none");
  assert_null (cfg.grant[4]);
  assert_string_equal (cfg.require[0], "security.confined");
  assert_null (cfg.require[1]);
  assert_false (cfg.warn_unenforceable);
  assert_true (cfg.lock);
  assert_string_equal (cfg.state_dir, "/run/entitle");
  entitle_config_free (&cfg);
}

static void
test_entitle_config_parse_unknown_key (void **state)
{
  char *msg;

  (void)state;
  /* A misspelt floor must not pass silently.  */
  msg = config_fails ("{\"requrie\":[\"security.confined\"]}");
  assert_contains (msg, "unknown key `requrie`");
  assert_contains (msg, CONFIG_PATH);
  free (msg);
}

static void
test_entitle_config_parse_wrong_types (void **state)
{
  static const char *const bad[] = {
    "{\"grant\":\"network.*\"}",
    "{\"grant\":[1]}",
    "{\"defaults\":{}}",
    "{\"require\":[null]}",
    "{\"require\":[[\"a\"]]}",
    "{\"lock\":\"false\"}",
    "{\"lock\":0}",
    "{\"lock\":null}",
    "{\"runtime\":1}",
    "{\"runtime\":\"\"}",
    "{\"state_dir\":[]}",
    "{\"on_unenforceable\":1}",
    "{\"on_unenforceable\":true}",
    "[]",
    "\"x\"",
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (bad) / sizeof (bad[0]); i++)
    free (config_fails (bad[i]));
}

static void
test_entitle_config_parse_on_unenforceable (void **state)
{
  struct entitle_config_s cfg;

  (void)state;
  config_from (&cfg, "{\"on_unenforceable\":\"warn\"}");
  assert_true (cfg.warn_unenforceable);
  entitle_config_free (&cfg);
  config_from (&cfg, "{\"on_unenforceable\":\"refuse\"}");
  assert_false (cfg.warn_unenforceable);
  entitle_config_free (&cfg);
  config_from (&cfg, "{}");
  assert_false (cfg.warn_unenforceable);
  entitle_config_free (&cfg);
  assert_fails_with (config_fails ("{\"on_unenforceable\":\"ignore\"}"), "on_unenforceable");
  free (config_fails ("{\"on_unenforceable\":\"WARN\"}"));
}

static void
test_entitle_config_parse_malformed_json (void **state)
{
  (void)state;
  assert_fails_with (config_fails ("{\"grant\":[\"network.*\""), "load `" CONFIG_PATH "`");
}

/* struct entitle_config_s: the lists are "never NULL", whoever fills it.  */
static void
test_entitle_config_parse_lists_never_null (void **state)
{
  struct entitle_config_s cfg;
  entitle_error_t err = NULL;
  const char *json = "{\"grant\":[\"network.*\"]}";

  (void)state;
  memset (&cfg, 0, sizeof (cfg));
  assert_int_equal (entitle_config_parse (&cfg, CONFIG_PATH, json, strlen (json), &err), 0);
  assert_true (cfg.present);
  assert_non_null (cfg.grant);
  assert_non_null (cfg.defaults);
  assert_non_null (cfg.require);
  entitle_config_free (&cfg);
}

/* A temporary file holding @json; its name in @path (of mkstemp's form).  */
static void
write_temp (char *path, const char *json)
{
  int fd = mkstemp (path);

  assert_true (fd >= 0);
  assert_int_equal (write (fd, json, strlen (json)), (ssize_t)strlen (json));
  close (fd);
}

static void
test_entitle_config_load_missing_and_present (void **state)
{
  struct entitle_config_s cfg;
  entitle_error_t err = NULL;
  char path[] = "/tmp/test-entitlements-XXXXXX";
  const char *json = "{\"grant\":[\"network.*\"],\"on_unenforceable\":\"warn\"}";

  (void)state;
  write_temp (path, json);
  setenv ("ENTITLE_CONFIG", path, 1);
  assert_string_equal (entitle_config_path (), path);
  assert_int_equal (entitle_config_load (&cfg, &err), 0);
  assert_true (cfg.present);
  assert_string_equal (cfg.path, path);
  assert_string_equal (entitle_config_arg (&cfg), path);
  assert_string_equal (cfg.grant[0], "network.*");
  assert_non_null (cfg.defaults);
  assert_null (cfg.defaults[0]);
  assert_true (cfg.warn_unenforceable);
  entitle_config_free (&cfg);
  unlink (path);

  /* DESIGN §7: a file ENTITLE_CONFIG names that does not exist is an
     error, not "no config".  */
  assert_true (entitle_config_load (&cfg, &err) < 0);
  assert_contains (err->msg, path);
  assert_contains (err->msg, "named by ENTITLE_CONFIG");
  assert_contains (err->msg, "does not exist");
  assert_null (strchr (err->msg, '\n'));
  entitle_error_release (&err);
  /* What is left is a config with nothing in it.  */
  assert_false (cfg.present);
  assert_non_null (cfg.grant);
  assert_null (cfg.grant[0]);
  entitle_config_free (&cfg);

  /* ENTITLE_CONFIG= (set and empty): no admin config, nothing granted.  */
  setenv ("ENTITLE_CONFIG", "", 1);
  assert_string_equal (entitle_config_path (), "");
  assert_int_equal (entitle_config_load (&cfg, &err), 0);
  assert_null (err);
  assert_false (cfg.present);
  assert_string_equal (cfg.path, "");
  assert_string_equal (entitle_config_arg (&cfg), "");
  assert_non_null (cfg.grant);
  assert_null (cfg.grant[0]);
  assert_non_null (cfg.require);
  assert_non_null (cfg.defaults);
  entitle_config_free (&cfg);
  unsetenv ("ENTITLE_CONFIG");
  assert_string_equal (entitle_config_path (), ENTITLE_CONFIG_FILE);
}

/* --entitle-config FILE (DESIGN §7) beats ENTITLE_CONFIG; a file it names
   must exist, and it must name one.  */
static void
test_entitle_config_load_file_flag (void **state)
{
  struct entitle_config_s cfg;
  entitle_error_t err = NULL;
  char flag[] = "/tmp/test-entitlements-XXXXXX", env[] = "/tmp/test-entitlements-XXXXXX";

  (void)state;
  write_temp (flag, "{\"grant\":[\"network.admin\"]}");
  write_temp (env, "{\"grant\":[\"security.admin\"]}");
  setenv ("ENTITLE_CONFIG", env, 1);
  assert_int_equal (entitle_config_load_file (&cfg, flag, &err), 0);
  assert_true (cfg.present);
  assert_string_equal (cfg.path, flag);
  assert_string_equal (cfg.grant[0], "network.admin");
  entitle_config_free (&cfg);
  /* Also over ENTITLE_CONFIG= .  */
  setenv ("ENTITLE_CONFIG", "", 1);
  assert_int_equal (entitle_config_load_file (&cfg, flag, &err), 0);
  assert_true (cfg.present);
  entitle_config_free (&cfg);
  unlink (flag);
  assert_true (entitle_config_load_file (&cfg, flag, &err) < 0);
  assert_contains (err->msg, flag);
  assert_contains (err->msg, "named by --entitle-config");
  assert_contains (err->msg, "does not exist");
  entitle_error_release (&err);
  entitle_config_free (&cfg);
  assert_true (entitle_config_load_file (&cfg, "", &err) < 0);
  assert_contains (err->msg, "`--entitle-config` needs a file name");
  entitle_error_release (&err);
  entitle_config_free (&cfg);
  unlink (env);
  unsetenv ("ENTITLE_CONFIG");
}

/* A malformed config is refused and leaves no half-read policy behind
   (commands that apply none go on without it).  */
static void
test_entitle_config_load_malformed_resets (void **state)
{
  struct entitle_config_s cfg;
  entitle_error_t err = NULL;
  char path[] = "/tmp/test-entitlements-XXXXXX";

  (void)state;
  write_temp (path, "{\"runtime\":\"/usr/bin/crun\",\"grant\":[\"*\"],\"requrie\":[]}");
  setenv ("ENTITLE_CONFIG", path, 1);
  assert_true (entitle_config_load (&cfg, &err) < 0);
  assert_contains (err->msg, "unknown key `requrie`");
  entitle_error_release (&err);
  assert_false (cfg.present);
  assert_null (cfg.runtime);
  assert_null (cfg.grant[0]);
  assert_string_equal (cfg.path, path);
  assert_string_equal (entitle_config_arg (&cfg), "");
  entitle_config_free (&cfg);
  unlink (path);
  unsetenv ("ENTITLE_CONFIG");
}

/* The words after "... requested by the container is " in a refused
   grant: where there is no admin config, the refusal says so, and how an
   admin grants it; never "not granted by" a file that does not exist.  */
static void
test_entitle_config_grant_hint (void **state)
{
  struct entitle_config_s cfg;
  cleanup_free char *present = NULL, *absent = NULL, *empty = NULL;

  (void)state;
  config_from (&cfg, "{}");
  present = entitle_config_grant_hint (&cfg, "network.admin");
  assert_string_equal (present, "not granted by " CONFIG_PATH);
  assert_string_equal (entitle_config_name (&cfg), CONFIG_PATH);
  entitle_config_free (&cfg);

  /* No file at the default path.  */
  memset (&cfg, 0, sizeof (cfg));
  cfg.path = strdup (CONFIG_PATH);
  entitle_config_reset (&cfg);
  absent = entitle_config_grant_hint (&cfg, "network.egress=10.0.0.0/8");
  assert_string_equal (absent, "not granted by an admin config: there is none at " CONFIG_PATH
                               " (to grant it, an admin writes {\"grant\": [\"network.egress=10.0.0.0/8\"]} there; see "
                               "entitle.json(5))");
  entitle_config_free (&cfg);

  /* ENTITLE_CONFIG= .  */
  memset (&cfg, 0, sizeof (cfg));
  entitle_config_reset (&cfg);
  assert_string_equal (cfg.path, "");
  empty = entitle_config_grant_hint (&cfg, "security.admin");
  assert_contains (empty, "there is none (ENTITLE_CONFIG is set and empty");
  assert_contains (empty, "{\"grant\": [\"security.admin\"]}");
  assert_string_equal (entitle_config_name (&cfg), "an admin config");
  entitle_config_free (&cfg);
}

/* Modifier values are checked where they are parsed (DESIGN §3).  */
static void
test_entitle_parse_one_values (void **state)
{
  static const struct
  {
    const char *text;
    bool ok;
  } cases[] = {
    { "network.egress=10.200.0.1/32:80", true },
    { "network.egress=fd00::/64:443-445", true },
    { "network.egress=0.0.0.0/0", true },
    { "network.egress=10.0.0.1", false },
    { "network.egress=10.0.0.1/33", false },
    { "network.egress=1.2.3.4/32:0", false },
    { "network.egress=::1/128:80-79", false },
    { "network.egress=10.0.0.300/32", false },
    { "network.bind=8080", true },
    { "network.bind=80-90", true },
    { "network.bind=65536", false },
    { "network.bind=x", false },
    { "network.bind-map=80:8080", true },
    { "network.bind-map=80", false },
    { "fs.write=/data", true },
    { "fs.write=/data/../etc", false },
    { "fs.read=relative", false },
  };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    {
      struct entitle_request_s req = { 0 };
      entitle_error_t err = NULL;
      int ret = entitle_parse_one (NULL, cases[i].text, strlen (cases[i].text), &req, &err);

      if ((ret == 0) != cases[i].ok)
        fail_msg ("`%s`: expected %s", cases[i].text, cases[i].ok ? "success" : "a refusal");
      if (ret < 0)
        assert_non_null (strstr (err->msg, "expected "));
      free (req.value);
      entitle_error_release (&err);
    }
}

/* Profiles (DESIGN §7): named lists, selected by name; a bad name or list
   shape is a config error, an unknown profile an error naming those that
   exist.  */
static void
test_entitle_config_profiles (void **state)
{
  static const char *const bad[] = {
    "{\"profiles\":[]}",
    "{\"profiles\":{\"a\":\"network.none\"}}",
    "{\"profiles\":{\"a\":[1]}}",
    "{\"profiles\":{\"Confined\":[]}}",
    "{\"profiles\":{\"a b\":[]}}",
    "{\"profiles\":{\"a--b\":[]}}",
    "{\"profiles\":{\"-a\":[]}}",
    "{\"profiles\":{\"\":[]}}",
    "{\"profiles\":{\"full\":[]}}",
    "{\"profiles\":{\"hook\":[]}}",
    "{\"profiles\":{\"init\":[]}}",
  };
  struct entitle_config_s cfg;
  entitle_error_t err = NULL;
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (bad) / sizeof (bad[0]); i++)
    free (config_fails (bad[i]));
  assert_fails_with (config_fails ("{\"profiles\":{\"hook\":[]}}"), "not `full`, `hook` or `init`");
  config_from (&cfg, "{\"profiles\":{\"confined\":[\"network.none\",\"security.confined\"],\"dind-2\":[]}}");
  assert_int_equal (cfg.n_profiles, 2);
  assert_false (entitle_config_sets_policy (&cfg));
  assert_int_equal (entitle_config_select_profile (&cfg, "confined", &err), 0);
  assert_string_equal (cfg.profile->name, "confined");
  assert_true (entitle_config_sets_policy (&cfg));
  /* An empty profile sets nothing.  */
  assert_int_equal (entitle_config_select_profile (&cfg, "dind-2", &err), 0);
  assert_false (entitle_config_sets_policy (&cfg));
  assert_true (entitle_config_select_profile (&cfg, "nope", &err) < 0);
  assert_null (cfg.profile);
  assert_string_equal (err->msg, "unknown profile `nope`: " CONFIG_PATH " defines `confined`, `dind-2`");
  entitle_error_release (&err);
  entitle_config_free (&cfg);
  config_from (&cfg, "{}");
  assert_true (entitle_config_select_profile (&cfg, "x", &err) < 0);
  assert_string_equal (err->msg, "unknown profile `x`: " CONFIG_PATH " defines none");
  entitle_error_release (&err);
  entitle_config_free (&cfg);
}

/* resolve under @cfg_json's profile @profile.  */
static char *
resolve_profile (const char *cfg_json, const char *profile, const char *requested, char **msg)
{
  struct entitle_config_s cfg;
  cleanup_entitle_set struct entitle_set_s req = { 0 }, final = { 0 };
  entitle_error_t err = NULL;
  char *out = NULL;

  config_from (&cfg, cfg_json);
  assert_int_equal (entitle_config_select_profile (&cfg, profile, &err), 0);
  parse_list_ok (requested, &req);
  if (entitle_resolve (&cfg, &req, &final, &err) < 0)
    {
      assert_non_null (msg);
      *msg = strdup (err->msg);
      entitle_error_release (&err);
    }
  else
    out = entitle_set_format (&final);
  entitle_config_free (&cfg);
  return out;
}

/* A profile's entitlements are the admin's: they apply without a
   request, and are a floor in their domains, as `require` is.  */
static void
test_entitle_resolve_profile_is_a_floor (void **state)
{
  static const char cfg[] = "{\"require\":[\"security.view\"],\"defaults\":[\"host.processes.none\"],"
                            "\"profiles\":{\"p\":[\"network.none\",\"security.confined\"],"
                            "\"e\":[\"network.user\",\"network.egress=10.0.0.0/8:443\"]}}";
  char *msg = NULL, *out;

  (void)state;
  out = resolve_profile (cfg, "p", "", NULL);
  assert_string_equal (out, "host.processes.none,network.none,security.confined");
  free (out);
  /* The narrower of require and the profile is the floor.  */
  assert_null (resolve_profile (cfg, "p", "security.view", &msg));
  assert_string_equal (msg, "entitlement \"security.view\" requested by the container is wider than "
                            "\"security.confined\" required by profile `p` of " CONFIG_PATH);
  free (msg);
  assert_null (resolve_profile (cfg, "p", "network.user", &msg));
  assert_contains (msg, "profile `p` of " CONFIG_PATH);
  free (msg);
  /* Modifiers: within the profile's rules, the request replaces them.  */
  out = resolve_profile (cfg, "e", "network.egress=10.1.0.0/16:443", NULL);
  assert_string_equal (out, "host.processes.none,network.egress=10.1.0.0/16:443,network.user,security.view");
  free (out);
  assert_null (resolve_profile (cfg, "e", "network.egress=192.168.0.0/16:443", &msg));
  assert_contains (msg, "not within \"network.egress=10.0.0.0/8:443\" required by profile `e` of " CONFIG_PATH);
  free (msg);
  /* Without the profile, none of it.  */
  out = resolve_profile (cfg, NULL, "", NULL);
  assert_string_equal (out, "host.processes.none,security.view");
  free (out);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_entitle_parse_one_values),
    cmocka_unit_test (test_entitle_catalogue_rows_sorted),
    cmocka_unit_test (test_entitle_catalogue_find_every_row),
    cmocka_unit_test (test_entitle_catalogue_rows_consistent),
    cmocka_unit_test (test_entitle_domain_name_ladders),
    cmocka_unit_test (test_entitle_parse_one_splits_on_first_equal),
    cmocka_unit_test (test_entitle_parse_one_uses_len),
    cmocka_unit_test (test_entitle_parse_one_unknown),
    cmocka_unit_test (test_entitle_parse_one_malformed_names),
    cmocka_unit_test (test_entitle_parse_one_value_required),
    cmocka_unit_test (test_entitle_parse_one_value_forbidden),
    cmocka_unit_test (test_entitle_parse_one_too_long),
    cmocka_unit_test (test_entitle_parse_one_message_one_line),
    cmocka_unit_test (test_entitle_parse_list_two_rungs_conflict),
    cmocka_unit_test (test_entitle_parse_list_ladders_combine),
    cmocka_unit_test (test_entitle_parse_list_duplicates_collapse),
    cmocka_unit_test (test_entitle_parse_list_empty_items),
    cmocka_unit_test (test_entitle_parse_list_spaces_trimmed),
    cmocka_unit_test (test_entitle_parse_list_unknown_names_source),
    cmocka_unit_test (test_entitle_set_format_sorted),
    cmocka_unit_test (test_entitle_parse_strv_sources),
    cmocka_unit_test (test_entitle_parse_list_whitespace_separates),
    cmocka_unit_test (test_entitle_parse_list_whitespace_empty),
    cmocka_unit_test (test_entitle_parse_list_whitespace_conflicts_and_limit),
    cmocka_unit_test (test_entitle_parse_strv_whitespace_separates),
    cmocka_unit_test (test_entitle_resolve_admin_lists_whitespace),
    cmocka_unit_test (test_entitle_resolve_nothing),
    cmocka_unit_test (test_entitle_resolve_defaults_fill_empty_ladders),
    cmocka_unit_test (test_entitle_resolve_require_is_a_floor),
    cmocka_unit_test (test_entitle_resolve_require_overrides_nothing_requested),
    cmocka_unit_test (test_entitle_resolve_network_none_contradictions),
    cmocka_unit_test (test_entitle_resolve_modifiers_from_every_source),
    cmocka_unit_test (test_entitle_resolve_bad_admin_lists),
    cmocka_unit_test (test_entitle_granted_component_glob),
    cmocka_unit_test (test_entitle_granted_star_alone),
    cmocka_unit_test (test_entitle_granted_exact_names),
    cmocka_unit_test (test_entitle_granted_globs_match_whole_components),
    cmocka_unit_test (test_entitle_granted_values),
    cmocka_unit_test (test_entitle_config_parse_full),
    cmocka_unit_test (test_entitle_config_parse_unknown_key),
    cmocka_unit_test (test_entitle_config_parse_wrong_types),
    cmocka_unit_test (test_entitle_config_parse_on_unenforceable),
    cmocka_unit_test (test_entitle_config_parse_malformed_json),
    cmocka_unit_test (test_entitle_config_parse_lists_never_null),
    cmocka_unit_test (test_entitle_config_load_missing_and_present),
    cmocka_unit_test (test_entitle_config_load_file_flag),
    cmocka_unit_test (test_entitle_config_load_malformed_resets),
    cmocka_unit_test (test_entitle_config_grant_hint),
    cmocka_unit_test (test_entitle_config_profiles),
    cmocka_unit_test (test_entitle_resolve_profile_is_a_floor),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
