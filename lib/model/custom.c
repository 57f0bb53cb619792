/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach.h"
#include "closest.h"
#include "custom.h"
#include "entitlements.h"
#include "hash.h"
#include "utils.h"

/* The admin's custom rows (custom.h).  Everything a row points to is kept
   in the catalogue's `owned` list and freed with it.  */

/* A list being built; its strings are owned already, the array is owned
   when the row is done.  */
struct vec_s
{
  char **v;
  size_t n;
};

struct build_s
{
  struct entitle_catalogue_s *cat;
  const char *path; /**< the admin config */
  char *dir;        /**< its directory, where object paths start */
  struct entitle_entry_s *row;
  struct vec_s cap_add, cap_drop, deny, allow;
  struct entitle_sys_rule_s *rules;
  size_t n_rules;
  struct entitle_implied_s *implies;
  size_t n_implies;
};

static void *
own (struct entitle_catalogue_s *cat, void *p)
{
  if (p == NULL)
    abort ();
  cat->owned = xrealloc (cat->owned, (cat->n_owned + 1) * sizeof (*cat->owned));
  cat->owned[cat->n_owned++] = p;
  return p;
}

static char *
own_str (struct entitle_catalogue_s *cat, const char *s)
{
  return own (cat, xstrdup (s));
}

static void
vec_push (struct vec_s *vec, char *s)
{
  char **v = xrealloc (vec->v, (vec->n + 2) * sizeof (*v));
  vec->v = v;
  vec->v[vec->n++] = s;
  vec->v[vec->n] = NULL;
}

/* The array of @vec, owned by the catalogue (NULL when empty).  */
static const char *const *
vec_take (struct entitle_catalogue_s *cat, struct vec_s *vec)
{
  char **v = get_and_reset (&vec->v);

  vec->n = 0;
  return v ? own (cat, v) : NULL;
}

static void
vec_release (struct vec_s *vec)
{
  free (get_and_reset (&vec->v));
  vec->n = 0;
}

/* What a row left unfinished (its strings are the catalogue's).  */
static void
build_release (struct build_s *b)
{
  vec_release (&b->cap_add);
  vec_release (&b->cap_drop);
  vec_release (&b->deny);
  vec_release (&b->allow);
  free (get_and_reset (&b->rules));
  b->n_rules = 0;
  free (get_and_reset (&b->implies));
  b->n_implies = 0;
}

/* A non-empty array of strings.  */
static int
strings (const json_t *v, const char *what, entitle_error_t *err)
{
  size_t i;

  if (v->type != JSON_ARRAY || v->n == 0)
    return entitle_make_error (err, EINVAL, "`%s` must be a non-empty array of strings", what);
  for (i = 0; i < v->n; i++)
    if (v->items[i]->type != JSON_STRING || v->items[i]->len == 0)
      return entitle_make_error (err, EINVAL, "`%s` must be a non-empty array of strings", what);
  return 0;
}

/* A JSON number that is an unsigned 64-bit integer, as written.  */
static bool
u64_of (const json_t *v, uint64_t *out)
{
  char *end;

  if (v == NULL || v->type != JSON_NUMBER || v->text[0] < '0' || v->text[0] > '9')
    return false;
  errno = 0;
  *out = strtoull (v->text, &end, 10);
  return errno == 0 && *end == '\0';
}

static int
parse_caps_list (struct build_s *b, const json_t *v, const char *what, struct vec_s *out, entitle_error_t *err)
{
  size_t i;
  int ret = strings (v, what, err);

  for (i = 0; ret == 0 && i < v->n; i++)
    {
      const char *c = v->items[i]->text;
      if (strncmp (c, "CAP_", 4) != 0 || c[4] == '\0' || strspn (c + 4, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != strlen (c + 4))
        return entitle_make_error (err, EINVAL, "`%s`: `%s` is not a capability name (CAP_...)", what, c);
      vec_push (out, own_str (b->cat, c));
    }
  return ret;
}

/* "capabilities": {"add": [CAP...], "drop": [CAP...]}  */
static int
parse_capabilities (struct build_s *b, const json_t *v, entitle_error_t *err)
{
  size_t i;
  int ret = 0;

  if (v->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "`capabilities` must be an object with `add` and `drop`");
  for (i = 0; ret == 0 && i < v->n; i++)
    if (strcmp (v->keys[i], "add") == 0)
      ret = parse_caps_list (b, v->items[i], "capabilities.add", &b->cap_add, err);
    else if (strcmp (v->keys[i], "drop") == 0)
      ret = parse_caps_list (b, v->items[i], "capabilities.drop", &b->cap_drop, err);
    else
      ret = entitle_make_error (err, EINVAL, "`capabilities`: unknown key `%s` (add, drop)", v->keys[i]);
  return ret;
}

static const struct
{
  const char *word;
  enum entitle_scmp_act action;
} actions[] = {
  { "errno", ENTITLE_ACT_ERRNO },
  { "kill", ENTITLE_ACT_KILL_PROCESS },
  { "log", ENTITLE_ACT_LOG },
  { "allow", ENTITLE_ACT_ALLOW },
};

static const struct
{
  const char *word;
  enum scmp_compare op;
} ops[] = {
  { "eq", SCMP_CMP_EQ },
  { "ne", SCMP_CMP_NE },
  { "lt", SCMP_CMP_LT },
  { "le", SCMP_CMP_LE },
  { "gt", SCMP_CMP_GT },
  { "ge", SCMP_CMP_GE },
  { "masked_eq", SCMP_CMP_MASKED_EQ },
};

/* "errno": a number from 1 to 4095, or a name ("EPERM").  */
static int
parse_errno (const json_t *v, unsigned *out, entitle_error_t *err)
{
  uint64_t n;
  int e;

  if (u64_of (v, &n) && n >= 1 && n <= 4095)
    {
      *out = (unsigned)n;
      return 0;
    }
  for (e = 1; v->type == JSON_STRING && e < 4096; e++)
    {
      const char *name = strerrorname_np (e);
      if (name && strcmp (name, v->text) == 0)
        {
          *out = (unsigned)e;
          return 0;
        }
    }
  return entitle_make_error (err, EINVAL, "`errno` must be a number from 1 to 4095 or a name such as \"EPERM\"");
}

/* {"index": 0-5, "op": OP, "value": N, "value_two": N}  */
static int
parse_arg (const json_t *v, struct entitle_sys_arg_s *a, unsigned *seen, entitle_error_t *err)
{
  const char *op = json_string (json_get (v, "op"));
  const json_t *two = json_get (v, "value_two");
  uint64_t index;
  size_t i;

  for (i = 0; v->type == JSON_OBJECT && i < v->n; i++)
    if (strcmp (v->keys[i], "index") && strcmp (v->keys[i], "op") && strcmp (v->keys[i], "value")
        && strcmp (v->keys[i], "value_two"))
      return entitle_make_error (err, EINVAL, "`args`: unknown key `%s` (index, op, value, value_two)", v->keys[i]);
  if (v->type != JSON_OBJECT || !u64_of (json_get (v, "index"), &index) || index > 5)
    return entitle_make_error (err, EINVAL, "`args`: each condition needs an `index` from 0 to 5");
  if (*seen & (1u << index))
    return entitle_make_error (err, EINVAL, "`args`: two conditions on argument %u (runc and crun would read them differently)",
                               (unsigned)index);
  *seen |= 1u << index;
  a->index = (unsigned)index;
  for (i = 0; op && i < sizeof (ops) / sizeof (ops[0]) && strcmp (ops[i].word, op) != 0; i++)
    ;
  if (op == NULL || i == sizeof (ops) / sizeof (ops[0]))
    return entitle_make_error (err, EINVAL, "`args`: `op` must be one of eq, ne, lt, le, gt, ge, masked_eq");
  a->op = ops[i].op;
  if (!u64_of (json_get (v, "value"), &a->value) || (two && !u64_of (two, &a->value_two)))
    return entitle_make_error (err, EINVAL, "`args`: `value` and `value_two` must be unsigned integers");
  if ((two != NULL) != (a->op == SCMP_CMP_MASKED_EQ))
    return entitle_make_error (err, EINVAL, "`args`: `value_two` goes with masked_eq (value is the mask), and only there");
  if (a->value_two & ~a->value)
    return entitle_make_error (err, EINVAL, "`args`: masked_eq: `value_two` has bits outside the mask `value`: it never matches");
  return 0;
}

static int
parse_rule_key (struct build_s *b, struct entitle_sys_rule_s *r, const char *key, const json_t *v,
                entitle_error_t *err)
{
  size_t i;
  unsigned seen = 0;
  int ret;

  if (strcmp (key, "names") == 0)
    {
      char **names;
      if ((ret = strings (v, "seccomp.names", err)) < 0)
        return ret;
      names = own (b->cat, xcalloc (v->n + 1, sizeof (char *)));
      for (i = 0; i < v->n; i++)
        names[i] = own_str (b->cat, v->items[i]->text);
      r->names = (const char *const *)names;
      return 0;
    }
  if (strcmp (key, "action") == 0)
    {
      for (i = 0; v->type == JSON_STRING && i < sizeof (actions) / sizeof (actions[0]); i++)
        if (strcmp (v->text, actions[i].word) == 0)
          {
            r->action = actions[i].action;
            return 0;
          }
      return entitle_make_error (err, EINVAL, "`seccomp.action` must be one of errno, kill, log, allow");
    }
  if (strcmp (key, "errno") == 0)
    return parse_errno (v, &r->errno_ret, err);
  if (strcmp (key, "args") != 0)
    return entitle_make_error (err, EINVAL, "`seccomp`: unknown key `%s` (names, action, errno, args)", key);
  if (v->type != JSON_ARRAY || v->n == 0 || v->n > ENTITLE_SYS_RULE_ARGS)
    return entitle_make_error (err, EINVAL, "`seccomp.args` must be an array of 1 to %d conditions", ENTITLE_SYS_RULE_ARGS);
  for (i = 0; i < v->n; i++)
    if ((ret = parse_arg (v->items[i], &r->args[i], &seen, err)) < 0)
      return ret;
  r->n_args = (unsigned)v->n;
  return 0;
}

/* A rule the plain lists say (EPERM whatever the arguments, or allowed
   whatever they are) goes there: the compiler, explain and the trust rule
   already know them.  Any other is a rule of its own.  */
static void
file_rule (struct build_s *b, struct entitle_sys_rule_s *r)
{
  bool plain_deny = r->action == ENTITLE_ACT_ERRNO && r->errno_ret == EPERM;
  bool plain_allow = r->action == ENTITLE_ACT_ALLOW;
  struct entitle_sys_rule_s *rules;

  if (r->n_args == 0 && (plain_deny || plain_allow))
    {
      for (const char *const *n = r->names; *n; n++)
        vec_push (plain_deny ? &b->deny : &b->allow, (char *)*n);
      return;
    }
  rules = xrealloc (b->rules, (b->n_rules + 1) * sizeof (*rules));
  b->rules = rules;
  b->rules[b->n_rules++] = *r;
}

/* "seccomp": [{"names": [...], "action": "errno", "errno": 1, "args": [...]}]  */
static int
parse_seccomp (struct build_s *b, const json_t *v, entitle_error_t *err)
{
  size_t i, k;
  int ret;

  if (v->type != JSON_ARRAY || v->n == 0)
    return entitle_make_error (err, EINVAL, "`seccomp` must be a non-empty array of rules");
  for (i = 0; i < v->n; i++)
    {
      struct entitle_sys_rule_s r = { .action = ENTITLE_ACT_ERRNO };
      const json_t *rule = v->items[i];
      bool has_errno = json_get (rule, "errno") != NULL;

      if (rule->type != JSON_OBJECT)
        return entitle_make_error (err, EINVAL, "`seccomp` must be an array of objects");
      for (k = 0; k < rule->n; k++)
        if ((ret = parse_rule_key (b, &r, rule->keys[k], rule->items[k], err)) < 0)
          return ret;
      if (r.names == NULL)
        return entitle_make_error (err, EINVAL, "`seccomp`: a rule needs `names`");
      if (has_errno && r.action != ENTITLE_ACT_ERRNO)
        return entitle_make_error (err, EINVAL, "`seccomp`: `errno` goes with the action errno only");
      if (!has_errno && r.action == ENTITLE_ACT_ERRNO)
        r.errno_ret = EPERM;
      file_rule (b, &r);
    }
  return 0;
}

/* "masked_paths", "readonly_paths": absolute paths, as the value kind
   PATH reads them.  */
static int
parse_paths (struct build_s *b, const json_t *v, const char *what, const char *const **out, entitle_error_t *err)
{
  union entitle_value_u unused;
  char **paths;
  size_t i;
  int ret = strings (v, what, err);

  if (UNLIKELY (ret < 0))
    return ret;
  paths = own (b->cat, xcalloc (v->n + 1, sizeof (char *)));
  for (i = 0; i < v->n; i++)
    {
      if (!entitle_value_path.parse (v->items[i]->text, &unused))
        return entitle_make_error (err, EINVAL, "`%s`: `%s` is not %s", what, v->items[i]->text, entitle_value_path.hint);
      paths[i] = own_str (b->cat, v->items[i]->text);
    }
  *out = (const char *const *)paths;
  return 0;
}

static int
parse_masked (struct build_s *b, const json_t *v, entitle_error_t *err)
{
  return parse_paths (b, v, "masked_paths", &b->row->masked, err);
}

static int
parse_readonly (struct build_s *b, const json_t *v, entitle_error_t *err)
{
  return parse_paths (b, v, "readonly_paths", &b->row->readonly, err);
}

/* The built-in row that a custom row implies by the key @key (its
   custom_key: "egress"), or NULL.  */
static const struct entitle_entry_s *
implied_row (const char *key)
{
  size_t n, i;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (NULL, &n);

  for (i = 0; i < n; i++)
    if (rows[i].custom_key && rows[i].custom_key[0] && strcmp (rows[i].custom_key, key) == 0)
      return &rows[i];
  return NULL;
}

/* "egress", "ingress", "bind" (a row's custom_key): the rules of that
   built-in modifier @row, which the row then implies (parsed here as a
   request would be).  */
static int
parse_implied (struct build_s *b, const struct entitle_entry_s *row, const char *key, const json_t *v,
               entitle_error_t *err)
{
  size_t i;
  int ret = strings (v, key, err);

  for (i = 0; ret == 0 && i < v->n; i++)
    {
      struct entitle_request_s req;
      cleanup_free char *text = NULL;

      xasprintf (&text, "%s=%s", row->name, v->items[i]->text);
      ret = entitle_parse_one (NULL, text, strlen (text), &req, err);
      if (UNLIKELY (ret < 0))
        return entitle_error_wrap (err, "`%s`", key);
      b->implies = xrealloc (b->implies, (b->n_implies + 1) * sizeof (*b->implies));
      b->implies[b->n_implies++] = (struct entitle_implied_s){ req.entry, own (b->cat, req.value), req.v };
    }
  return ret;
}

/* The point @attach names: a cgroup point of attach.c, `seccomp`, or
   `checmate/HOOK`.  */
static int
parse_point (struct entitle_prog_s *p, const char *attach, entitle_error_t *err)
{
  int point = entitle_attach_find (attach);

  if (point >= 0)
    p->point = point;
  else if (strcmp (attach, "seccomp") == 0)
    p->point = ENTITLE_POINT_SECCOMP;
  else if (strncmp (attach, "checmate/", 9) == 0 && (p->hook = entitle_checmate_hook_find (attach + 9)) > 0)
    p->point = ENTITLE_POINT_CHECMATE;
  else
    {
      char names[256];
      entitle_attach_names (ATTACH_ALL, names, sizeof (names));
      return entitle_make_error (err, EINVAL, "`bpf`: unknown attach point `%s` (one of %s, seccomp, checmate/HOOK)",
                                 attach, names);
    }
  p->attach = attach;
  return 0;
}

static int
parse_prog (struct build_s *b, const json_t *v, struct entitle_prog_s *p, entitle_error_t *err)
{
  const char *object = json_string (json_get (v, "object")), *program = json_string (json_get (v, "program"));
  const char *attach = json_string (json_get (v, "attach"));
  char *path;
  size_t i;

  for (i = 0; v->type == JSON_OBJECT && i < v->n; i++)
    if (strcmp (v->keys[i], "object") && strcmp (v->keys[i], "program") && strcmp (v->keys[i], "attach"))
      return entitle_make_error (err, EINVAL, "`bpf`: unknown key `%s` (object, program, attach)", v->keys[i]);
  if (v->type != JSON_OBJECT || object == NULL || !*object || program == NULL || !*program || attach == NULL)
    return entitle_make_error (err, EINVAL, "`bpf`: each program needs `object`, `program` and `attach` strings");
  xasprintf (&path, "%s%s%s", object[0] == '/' ? "" : b->dir, object[0] == '/' ? "" : "/", object);
  p->object = own (b->cat, path);
  p->program = own_str (b->cat, program);
  return parse_point (p, own_str (b->cat, attach), err);
}

/* "bpf": [{"object": "x.bpf.o", "program": "name", "attach": "connect4"}]  */
static int
parse_bpf (struct build_s *b, const json_t *v, entitle_error_t *err)
{
  struct entitle_prog_s *progs;
  size_t i;
  int ret;

  if (v->type != JSON_ARRAY || v->n == 0 || v->n > ENTITLE_CUSTOM_MAX_PROGS)
    return entitle_make_error (err, EINVAL, "`bpf` must be an array of 1 to %d programs", ENTITLE_CUSTOM_MAX_PROGS);
  progs = own (b->cat, xcalloc (v->n, sizeof (*progs)));
  for (i = 0; i < v->n; i++)
    if ((ret = parse_prog (b, v->items[i], &progs[i], err)) < 0)
      return ret;
  b->row->progs = progs;
  b->row->n_progs = v->n;
  return 0;
}

/* "data": [N...], the words of the programs' entitle_data.  */
static int
parse_data (struct build_s *b, const json_t *v, entitle_error_t *err)
{
  uint64_t *data;
  size_t i;

  if (v->type != JSON_ARRAY || v->n == 0 || v->n > ENTITLE_CUSTOM_DATA_MAX)
    return entitle_make_error (err, EINVAL, "`data` must be an array of 1 to %d unsigned integers", ENTITLE_CUSTOM_DATA_MAX);
  data = own (b->cat, xcalloc (v->n, sizeof (*data)));
  for (i = 0; i < v->n; i++)
    if (!u64_of (v->items[i], &data[i]))
      return entitle_make_error (err, EINVAL, "`data` must be an array of 1 to %d unsigned integers", ENTITLE_CUSTOM_DATA_MAX);
  b->row->data = data;
  b->row->n_data = v->n;
  return 0;
}

/* "contradicts": names, checked once every row is known.  */
static int
parse_contradicts (struct build_s *b, const json_t *v, entitle_error_t *err)
{
  char **names;
  size_t i;
  int ret = strings (v, "contradicts", err);

  if (UNLIKELY (ret < 0))
    return ret;
  names = own (b->cat, xcalloc (v->n + 1, sizeof (char *)));
  for (i = 0; i < v->n; i++)
    names[i] = own_str (b->cat, v->items[i]->text);
  b->row->contradicts = (const char *const *)names;
  return 0;
}

static int
parse_text (const json_t *v, const char *what, entitle_error_t *err)
{
  if (v->type != JSON_STRING || v->len == 0 || strpbrk (v->text, "\n\r"))
    return entitle_make_error (err, EINVAL, "`%s` must be a non-empty string of one line", what);
  return 0;
}

static int
parse_summary (struct build_s *b, const json_t *v, entitle_error_t *err)
{
  int ret = parse_text (v, "summary", err);
  if (ret == 0)
    b->row->summary = own_str (b->cat, v->text);
  return ret;
}

static int
parse_note (struct build_s *b, const json_t *v, entitle_error_t *err)
{
  int ret = parse_text (v, "note", err);
  if (ret == 0)
    b->row->note = own_str (b->cat, v->text);
  return ret;
}

/* The fields of a definition, and what reads each.  */
static const struct
{
  const char *key;
  int (*parse) (struct build_s *b, const json_t *v, entitle_error_t *err);
} fields[] = {
  { "bpf", parse_bpf },
  { "capabilities", parse_capabilities },
  { "contradicts", parse_contradicts },
  { "data", parse_data },
  { "masked_paths", parse_masked },
  { "note", parse_note },
  { "readonly_paths", parse_readonly },
  { "seccomp", parse_seccomp },
  { "summary", parse_summary },
};

/* FNV-1a over the tree: each node's type and text, each member's key,
   each container's size (the same JSON however it is spaced).  */
static uint64_t
hash_json (uint64_t h, const json_t *v)
{
  uint32_t i;

  h = entitle_fnv_bytes (h, &v->type, 1);
  if (v->type == JSON_STRING || v->type == JSON_NUMBER)
    return entitle_fnv_bytes (h, v->text, v->len + 1);
  if (v->type != JSON_OBJECT && v->type != JSON_ARRAY)
    return h;
  h = entitle_fnv_bytes (h, &v->n, sizeof (v->n));
  for (i = 0; i < v->n; i++)
    {
      if (v->type == JSON_OBJECT)
        h = entitle_fnv_bytes (h, v->keys[i], strlen (v->keys[i]) + 1);
      h = hash_json (h, v->items[i]);
    }
  return h;
}

/* The definition's own version, so that what a container ran under
   names the definition, not the file it is in.  */
static const char *
digest_of (struct entitle_catalogue_s *cat, const json_t *v)
{
  char *out = own (cat, xmalloc (17));

  snprintf (out, 17, "%016llx", (unsigned long long)hash_json (ENTITLE_FNV_OFFSET, v));
  return out;
}

static int
check_name (const char *name, entitle_error_t *err)
{
  size_t len = strlen (name), dots = 0, i;

  for (i = 0; i < len; i++)
    dots += name[i] == '.';
  if (!entitle_valid_name (name, len) || strchr (name, '=') != NULL)
    return entitle_make_error (err, EINVAL, "malformed name: lowercase letters, digits and single dashes, in dot-separated components");
  if (dots + 1 < ENTITLE_CUSTOM_MIN_COMPONENTS)
    return entitle_make_error (err, EINVAL,
                               "a custom entitlement needs a vendor component: at least %d components, the first two the "
                               "vendor's domain (`example.com.%s`)",
                               ENTITLE_CUSTOM_MIN_COMPONENTS, name);
  if (entitle_catalogue_builtin_domain (name, len))
    return entitle_make_error (err, EINVAL, "`%.*s` is a built-in domain: a custom entitlement may not shadow the catalogue",
                               (int)strcspn (name, "."), name);
  return 0;
}

static bool
does_something (const struct build_s *b)
{
  return b->cap_add.n || b->cap_drop.n || b->deny.n || b->allow.n || b->n_rules || b->n_implies || b->row->masked
         || b->row->readonly || b->row->n_progs;
}

static int
compare_str (const void *a, const void *b)
{
  return strcmp (*(const char *const *)a, *(const char *const *)b);
}

static int
unknown_field (const char *key, entitle_error_t *err)
{
  const size_t nf = sizeof (fields) / sizeof (fields[0]);
  size_t n, k, m = 0;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (NULL, &n);
  cleanup_free const char **names = xcalloc (nf + n, sizeof (char *));
  struct entitle_closest_s c;

  /* The fields and the rows' keys in one sorted order: the first of two
     as close wins.  */
  for (k = 0; k < nf; k++)
    names[m++] = fields[k].key;
  for (k = 0; k < n; k++)
    if (rows[k].custom_key && rows[k].custom_key[0])
      names[m++] = rows[k].custom_key;
  qsort (names, m, sizeof (char *), compare_str);
  entitle_closest_init (&c, key, strlen (key));
  for (k = 0; k < m; k++)
    entitle_closest_consider (&c, names[k]);
  return entitle_make_error (err, EINVAL, "unknown field `%s`%s%s%s (see entitle.json(5))", key,
                             c.best ? ": did you mean `" : "", c.best ? c.best : "", c.best ? "`?" : "");
}

/* The row @name defined by @v, into @row.  */
static int
build_row (struct build_s *b, const char *name, const json_t *v, entitle_error_t *err)
{
  struct entitle_entry_s *row = b->row;
  size_t i, k;
  int ret;

  if ((ret = check_name (name, err)) < 0)
    return ret;
  if (v->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "the definition must be an object");
  for (i = 0; i < v->n; i++)
    {
      const struct entitle_entry_s *implied = implied_row (v->keys[i]);

      for (k = 0; k < sizeof (fields) / sizeof (fields[0]) && strcmp (fields[k].key, v->keys[i]) != 0; k++)
        ;
      if (implied)
        ret = parse_implied (b, implied, v->keys[i], v->items[i], err);
      else if (k == sizeof (fields) / sizeof (fields[0]))
        return unknown_field (v->keys[i], err);
      else
        ret = fields[k].parse (b, v->items[i], err);
      if (ret < 0)
        return ret;
    }
  if (!does_something (b))
    return entitle_make_error (err, EINVAL, "the definition does nothing (capabilities, seccomp, paths, network rules or bpf)");
  if (row->n_data && !row->n_progs)
    return entitle_make_error (err, EINVAL, "`data` is for the programs of `bpf`, and there are none");
  row->name = own_str (b->cat, name);
  row->cap_add = vec_take (b->cat, &b->cap_add);
  row->cap_drop = vec_take (b->cat, &b->cap_drop);
  row->sys_deny = vec_take (b->cat, &b->deny);
  row->sys_allow = vec_take (b->cat, &b->allow);
  row->implies = b->n_implies ? own (b->cat, get_and_reset (&b->implies)) : NULL;
  row->n_implies = b->n_implies;
  row->sys_rules = b->n_rules ? own (b->cat, get_and_reset (&b->rules)) : NULL;
  row->n_sys_rules = b->n_rules;
  row->custom = b->path;
  row->digest = digest_of (b->cat, v);
  if (row->summary == NULL)
    row->summary = "a custom entitlement of the admin config";
  return 0;
}

static int
compare_rows (const void *a, const void *b)
{
  return strcmp (((const struct entitle_entry_s *)a)->name, ((const struct entitle_entry_s *)b)->name);
}

/* Every name a custom row says it contradicts is a row.  */
static int
check_contradicts (const struct entitle_catalogue_s *cat, const char *path, entitle_error_t *err)
{
  size_t i;

  for (i = 0; i < cat->n; i++)
    for (const char *const *c = cat->rows[i].custom ? cat->rows[i].contradicts : NULL; c && *c; c++)
      if (entitle_catalogue_find (cat, *c, strlen (*c)) == NULL)
        return entitle_make_error (err, EINVAL, "`%s`: entitlement `%s`: `contradicts` names `%s`, which is no entitlement",
                                   path, cat->rows[i].name, *c);
  return 0;
}

/* The directory of @path, made absolute with the working directory if it
   is relative (entitle-hook runs in the runtime's).  */
static char *
dir_of (const char *path)
{
  const char *slash = strrchr (path, '/');
  char cwd[PATH_MAX], *dir;

  if (slash == path)
    xasprintf (&dir, "/");
  else if (path[0] == '/')
    xasprintf (&dir, "%.*s", (int)(slash - path), path);
  else if (getcwd (cwd, sizeof (cwd)) == NULL)
    xasprintf (&dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  else
    xasprintf (&dir, "%s%s%.*s", cwd, slash ? "/" : "", slash ? (int)(slash - path) : 0, path);
  return dir;
}

/* The built-in rows (sorted) and @custom (@n of them, sorted here), merged
   in order into @cat.  */
static void
merge (struct entitle_catalogue_s *cat, struct entitle_entry_s *custom, size_t n)
{
  size_t nb, i = 0, k = 0;
  const struct entitle_entry_s *builtin = entitle_catalogue_rows (NULL, &nb);

  qsort (custom, n, sizeof (*custom), compare_rows);
  cat->rows = xcalloc (nb + n, sizeof (*cat->rows));
  while (i < nb || k < n)
    if (k == n || (i < nb && strcmp (builtin[i].name, custom[k].name) < 0))
      cat->rows[i + k] = builtin[i], i++;
    else
      cat->rows[i + k] = custom[k], k++;
  cat->n = nb + n;
  cat->n_custom = n;
}

int
entitle_custom_parse (struct entitle_catalogue_s *cat, const char *path, const json_t *v, entitle_error_t *err)
{
  struct build_s b = { .cat = cat, .path = NULL };
  cleanup_free struct entitle_entry_s *rows = NULL;
  size_t i;
  int ret = 0;

  entitle_catalogue_free (cat);
  if (v->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "`%s`: `entitlements` must be an object of definitions", path);
  if (v->n > ENTITLE_CUSTOM_MAX)
    return entitle_make_error (err, E2BIG, "`%s`: `entitlements` defines %u, more than %d", path, v->n, ENTITLE_CUSTOM_MAX);
  if (v->n == 0)
    return 0;
  rows = xcalloc (v->n, sizeof (*rows));
  b.path = own_str (cat, path);
  b.dir = own (cat, dir_of (path));
  for (i = 0; ret == 0 && i < v->n; i++)
    {
      for (size_t k = 0; k < i; k++)
        if (strcmp (v->keys[k], v->keys[i]) == 0)
          ret = entitle_make_error (err, EINVAL, "defined twice");
      b.row = &rows[i];
      if (ret == 0)
        ret = build_row (&b, v->keys[i], v->items[i], err);
      build_release (&b);
      if (UNLIKELY (ret < 0))
        ret = entitle_error_wrap (err, "`%s`: entitlement `%.128s`", path, v->keys[i]);
    }
  if (ret == 0)
    {
      merge (cat, rows, v->n);
      ret = check_contradicts (cat, path, err);
    }
  if (UNLIKELY (ret < 0))
    entitle_catalogue_free (cat);
  return ret;
}
