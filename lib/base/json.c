/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_common.h>
#include <yajl/yajl_parse.h>
#include "json.h"
#include "utils.h"

/* Nesting deeper than this is hostile input, not a config.  */
#define JSON_MAX_DEPTH (YAJL_MAX_DEPTH - 1)

/* flags: the node's key in its object was allocated with the node (by
   the parser), not on its own.  */
#define KEY_INLINE 0x1

static bool
has_text (const json_t *v)
{
  return v->type == JSON_STRING || v->type == JSON_NUMBER;
}

/* One allocation for the node, its member @key (NULL: none, or one the
   object owns) and its @text (scalars); *@keyp receives the key's copy.  */
static json_t *
node (enum json_type type, const char *key, const char *text, size_t len, char **keyp)
{
  bool scalar = type == JSON_STRING || type == JSON_NUMBER;
  size_t klen = key ? strlen (key) + 1 : 0, tlen = scalar ? len + 1 : 0;
  json_t *v = xrealloc (NULL, sizeof (*v) + klen + tlen);
  char *extra = (char *)(v + 1);

  memset (v, 0, sizeof (*v));
  v->type = (unsigned char)type;
  if (key)
    {
      memcpy (extra, key, klen);
      *keyp = extra;
      v->flags |= KEY_INLINE;
      extra += klen;
    }
  if (scalar)
    {
      memcpy (extra, text, len);
      extra[len] = '\0';
      v->text = extra;
      v->len = (uint32_t)len;
    }
  return v;
}

json_t *
json_new (enum json_type type)
{
  return node (type, NULL, "", 0, NULL);
}

static json_t *
new_text (enum json_type type, const char *s, size_t len)
{
  return node (type, NULL, s, len, NULL);
}

json_t *
json_new_string (const char *s)
{
  return new_text (JSON_STRING, s, strlen (s));
}

json_t *
json_new_number (const char *text)
{
  return new_text (JSON_NUMBER, text, strlen (text));
}

json_t *
json_new_uint (unsigned long long v)
{
  char buf[32];
  snprintf (buf, sizeof (buf), "%llu", v);
  return json_new_number (buf);
}

json_t *
json_new_bool (bool v)
{
  return json_new (v ? JSON_TRUE : JSON_FALSE);
}

static bool
is_container (const json_t *v)
{
  return v->type == JSON_OBJECT || v->type == JSON_ARRAY;
}

/* Member @i's key and value, freed.  */
static void
free_member (json_t *c, size_t i)
{
  if (c->keys && !(c->items[i]->flags & KEY_INLINE))
    free (c->keys[i]);
  json_free (c->items[i]);
}

void
json_free (json_t *v)
{
  size_t i;
  if (v == NULL)
    return;
  if (is_container (v))
    {
      for (i = 0; i < v->n; i++)
        free_member (v, i);
      free (v->keys);
      free (v->items);
    }
  free (v);
}

static void
grow (json_t *c, uint32_t cap)
{
  c->cap = cap;
  c->items = xrealloc (c->items, cap * sizeof (*c->items));
  if (c->type == JSON_OBJECT)
    c->keys = xrealloc (c->keys, cap * sizeof (*c->keys));
}

/* Append @val under @key (the object's to free, unless @val holds it).  */
static void
append (json_t *c, char *key, json_t *val)
{
  if (c->n == c->cap)
    grow (c, c->cap ? c->cap * 2 : 4);
  if (c->type == JSON_OBJECT)
    c->keys[c->n] = key;
  c->items[c->n++] = val;
}

/* An object's own key for @val: a node moved from another object keeps
   its old key's bytes but not their ownership.  */
static void
append_owned_key (json_t *c, const char *key, json_t *val)
{
  val->flags &= (unsigned char)~KEY_INLINE;
  append (c, c->type == JSON_OBJECT && key ? xstrndup (key, strlen (key)) : NULL, val);
}

/* A copy of @v with its member @key inline (NULL: none).  */
static json_t *
clone_node (const json_t *v, const char *key, char **keyp)
{
  json_t *c = node (v->type, key, has_text (v) ? v->text : "", v->len, keyp);
  size_t i;

  if (!is_container (v) || v->n == 0)
    return c;
  grow (c, v->n);
  for (i = 0; i < v->n; i++)
    {
      char *k = NULL;
      json_t *item = clone_node (v->items[i], v->keys ? v->keys[i] : NULL, &k);
      append (c, k, item);
    }
  return c;
}

json_t *
json_clone (const json_t *v)
{
  return clone_node (v, NULL, NULL);
}

/* Parsing: a stack of open containers and the pending object key.  */
struct parser
{
  json_t *stack[JSON_MAX_DEPTH + 1];
  int depth;
  json_t *root;
  char *key;
  const char *error;
  char dup[64]; /* the duplicate key, cut */
};

/* The new value's node, with the pending key inline when the open
   container is an object.  */
static json_t *
new_value (struct parser *p, enum json_type type, const char *text, size_t len, char **keyp)
{
  bool member = p->depth > 0 && p->stack[p->depth - 1]->type == JSON_OBJECT;
  *keyp = NULL;
  return node (type, member ? p->key : NULL, text, len, keyp);
}

static int
add_value (struct parser *p, json_t *v, char *key)
{
  if (p->depth == 0)
    {
      p->root = v;
      return 1;
    }
  append (p->stack[p->depth - 1], key, v);
  return 1;
}

static int
add_scalar (struct parser *p, enum json_type type, const char *text, size_t len)
{
  char *key;
  json_t *v = new_value (p, type, text, len, &key);
  return add_value (p, v, key);
}

static int
push_container (struct parser *p, enum json_type type)
{
  char *key;
  json_t *v = new_value (p, type, "", 0, &key);

  add_value (p, v, key);
  if (p->depth == JSON_MAX_DEPTH)
    {
      p->error = "nested too deeply";
      return 0;
    }
  p->stack[p->depth++] = v;
  return 1;
}

static int
on_null (void *ctx)
{
  return add_scalar (ctx, JSON_NULL, "", 0);
}

static int
on_bool (void *ctx, int b)
{
  return add_scalar (ctx, b ? JSON_TRUE : JSON_FALSE, "", 0);
}

/* Is @s[@i..] a well-formed UTF-8 sequence of more than one byte, as
   RFC 3629 has it (Unicode Table 3-7)?  Its length, or 0.  yajl checks
   only the shape of each sequence: it lets overlong forms, surrogates and
   code points past U+10FFFF through, which the runtime would read as
   something else (Go replaces them with U+FFFD).  The parser and the
   compact writer both check with this, and the text log's quoting.  */
size_t
entitle_utf8_len (const unsigned char *s, size_t i, size_t len)
{
  unsigned char c = s[i];
  size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 && c <= 0xef ? 3
                                      : c >= 0xc2 && c <= 0xdf   ? 2
                                                                 : 0;
  size_t k;

  if (n == 0 || i + n > len)
    return 0;
  for (k = 1; k < n; k++)
    if ((s[i + k] & 0xc0) != 0x80)
      return 0;
  /* No overlong forms, surrogates or code points past U+10FFFF.  */
  if ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] > 0x9f) || (c == 0xf0 && s[i + 1] < 0x90)
      || (c == 0xf4 && s[i + 1] > 0x8f))
    return 0;
  return n;
}

static bool
utf8_valid (const unsigned char *s, size_t len)
{
  size_t i = 0, u;

  while (i < len)
    {
      u = s[i] < 0x80 ? 1 : entitle_utf8_len (s, i, len);
      if (u == 0)
        return false;
      i += u;
    }
  return true;
}

static int
on_number (void *ctx, const char *s, size_t len)
{
  return add_scalar (ctx, JSON_NUMBER, s, len);
}

static int
on_string (void *ctx, const unsigned char *s, size_t len)
{
  if (!utf8_valid (s, len))
    {
      ((struct parser *)ctx)->error = "invalid UTF-8 in a string";
      return 0;
    }
  return add_scalar (ctx, JSON_STRING, (const char *)s, len);
}

static int
on_map_key (void *ctx, const unsigned char *s, size_t len)
{
  struct parser *p = ctx;
  if (memchr (s, '\0', len))
    {
      p->error = "object key contains a NUL character";
      return 0;
    }
  if (!utf8_valid (s, len))
    {
      p->error = "invalid UTF-8 in an object key";
      return 0;
    }
  free (p->key);
  p->key = xstrndup ((const char *)s, len);
  return 1;
}

static int
on_start_map (void *ctx)
{
  return push_container (ctx, JSON_OBJECT);
}

static int
on_start_array (void *ctx)
{
  return push_container (ctx, JSON_ARRAY);
}

/* A closed container keeps exactly the room its members take.  */
static int
on_end (void *ctx)
{
  struct parser *p = ctx;
  json_t *c = p->stack[--p->depth];

  if (c->n && c->n < c->cap)
    grow (c, c->n);
  return 1;
}

static int
cmp_keys (const void *a, const void *b)
{
  return strcmp (*(char *const *)a, *(char *const *)b);
}

/* A key twice in one object is refused: Go's encoding/json (runc) merges
   two objects under one key, field by field, and which fields survive
   cannot be told from one of them; entitle must see what the runtime
   will see, or it could miss a request or a setting.  Sorted, to stay
   O(n log n) on an object of 10^5 keys.  */
static int
on_end_map (void *ctx)
{
  struct parser *p = ctx;
  json_t *obj = p->stack[p->depth - 1];
  char **keys;
  size_t i;

  if (obj->n > 1)
    {
      keys = xrealloc (NULL, obj->n * sizeof (*keys));
      memcpy (keys, obj->keys, obj->n * sizeof (*keys));
      qsort (keys, obj->n, sizeof (*keys), cmp_keys);
      for (i = 1; i < obj->n; i++)
        if (strcmp (keys[i - 1], keys[i]) == 0)
          break;
      if (i < obj->n)
        {
          size_t j;
          /* Shown in a one-line message: printable ASCII only.  */
          for (j = 0; keys[i][j] && j < sizeof (p->dup) - 1; j++)
            p->dup[j] = keys[i][j] >= 0x20 && keys[i][j] < 0x7f ? keys[i][j] : '?';
          p->dup[j] = '\0';
          p->error = "duplicate object key";
        }
      free (keys);
      if (p->error)
        return 0;
    }
  return on_end (ctx);
}

static const yajl_callbacks callbacks = {
  .yajl_null = on_null,
  .yajl_boolean = on_bool,
  .yajl_number = on_number,
  .yajl_string = on_string,
  .yajl_start_map = on_start_map,
  .yajl_map_key = on_map_key,
  .yajl_end_map = on_end_map,
  .yajl_start_array = on_start_array,
  .yajl_end_array = on_end,
};

/* Where byte @off of @buf is, for people: its line and column (of bytes),
   from 1, as editors count them.  */
static void
position (const char *buf, size_t len, size_t off, size_t *line, size_t *col)
{
  const char *p = buf, *end = buf + (off < len ? off : len), *nl;

  *line = 1;
  while ((nl = memchr (p, '\n', (size_t)(end - p))) != NULL)
    {
      (*line)++;
      p = nl + 1;
    }
  *col = (size_t)(end - p) + 1;
}

/* yajl's verbose message spans lines; keep the first one.  */
/* @at: where yajl stopped, the byte after the last it read (the
   unallowed token's last, or the end of a document cut short).  */
static int
parse_error (yajl_handle h, struct parser *p, const char *buf, size_t len, size_t at,
             entitle_error_t *err)
{
  unsigned char *msg;
  char *nl;
  size_t line, col;
  int ret;

  position (buf, len, at ? at - 1 : 0, &line, &col);
  if (p->error && p->dup[0])
    return entitle_make_error (err, EINVAL, "invalid JSON: %s `%s` at line %zu, column %zu", p->error, p->dup, line, col);
  if (p->error)
    return entitle_make_error (err, EINVAL, "invalid JSON: %s at line %zu, column %zu", p->error, line, col);
  msg = yajl_get_error (h, 0, (const unsigned char *)buf, len);
  nl = strchr ((char *)msg, '\n');
  if (nl)
    *nl = '\0';
  ret = entitle_make_error (err, EINVAL, "invalid JSON: %s at line %zu, column %zu", (char *)msg, line, col);
  yajl_free_error (h, msg);
  return ret;
}

int
json_parse (const char *buf, size_t len, json_t **out, entitle_error_t *err)
{
  struct parser p = { .depth = 0 };
  yajl_handle h = yajl_alloc (&callbacks, NULL, &p);
  yajl_status st;
  size_t at;
  int ret = 0;

  if (h == NULL)
    return entitle_make_error (err, ENOMEM, "yajl_alloc");
  st = yajl_parse (h, (const unsigned char *)buf, len);
  at = yajl_get_bytes_consumed (h);
  if (st == yajl_status_ok)
    {
      st = yajl_complete_parse (h);
      at = len;
    }
  if (st != yajl_status_ok)
    ret = parse_error (h, &p, buf, len, at, err);
  else if (p.root == NULL)
    ret = entitle_make_error (err, EINVAL, "invalid JSON: empty document");
  yajl_free (h);
  free (p.key);
  if (ret < 0)
    {
      json_free (p.root);
      return ret;
    }
  *out = p.root;
  return 0;
}

/* The text is built in one buffer of ours.  */
struct outbuf
{
  char *p;
  size_t n, cap;
};

static void
out_append (struct outbuf *o, const char *s, size_t len)
{
  if (o->n + len + 2 > o->cap)
    {
      while (o->n + len + 2 > o->cap)
        o->cap = o->cap ? o->cap + o->cap / 2 : 4096;
      o->p = xrealloc (o->p, o->cap);
    }
  memcpy (o->p + o->n, s, len);
  o->n += len;
}

/* One writer for both forms.  The bytes are yajl 2's generator's, which
   wrote them before: the same escapes (\" \\ \b \f \n \r \t, \u00XX for
   the other control bytes, upper-case hex, '/' as is), UTF-8 checked,
   numbers as written.  Indented (@pretty), each member is on its own line
   behind one tab per level, ": " after a key, and an empty object or
   array spans two lines ("{\n\n}").  */

struct writer
{
  struct outbuf o;
  bool pretty;
  /* Replace each byte of ill-formed UTF-8 with U+FFFD, as Go's
     encoding/json does, instead of refusing the string.  */
  bool lossy;
};

static bool
put_string (struct outbuf *o, const char *text, size_t len, bool lossy)
{
  static const char hex[] = "0123456789ABCDEF";
  const unsigned char *s = (const unsigned char *)text;
  size_t i = 0, run = 0;

  out_append (o, "\"", 1);
  while (i < len)
    {
      unsigned char c = s[i];
      char esc[7] = { '\\', 0 };
      size_t n = 2;

      if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80)
        {
          i++;
          continue;
        }
      if (c >= 0x80)
        {
          size_t u = entitle_utf8_len (s, i, len);
          if (u == 0 && !lossy)
            return false;
          if (u == 0)
            {
              out_append (o, text + run, i - run);
              out_append (o, "\\ufffd", 6);
              run = ++i;
              continue;
            }
          i += u;
          continue;
        }
      out_append (o, text + run, i - run);
      esc[1] = c == '"' ? '"' : c == '\\' ? '\\'
                            : c == '\b'   ? 'b'
                            : c == '\f'   ? 'f'
                            : c == '\n'   ? 'n'
                            : c == '\r'   ? 'r'
                            : c == '\t'   ? 't'
                                          : 'u';
      if (esc[1] == 'u')
        {
          memcpy (esc + 2, "00", 2);
          esc[4] = hex[c >> 4];
          esc[5] = hex[c & 0xf];
          n = 6;
        }
      out_append (o, esc, n);
      run = ++i;
    }
  out_append (o, text + run, len - run);
  out_append (o, "\"", 1);
  return true;
}

/* In the indented form: a line break, then @depth tabs.  */
static void
put_break (struct writer *w, size_t depth)
{
  if (!w->pretty)
    return;
  out_append (&w->o, "\n", 1);
  while (depth-- > 0)
    out_append (&w->o, "\t", 1);
}

static bool put_value (struct writer *w, const json_t *v, size_t depth);

static bool
put_container (struct writer *w, const json_t *v, size_t depth)
{
  bool object = v->type == JSON_OBJECT;
  size_t i;

  out_append (&w->o, object ? "{" : "[", 1);
  /* yajl broke the line after the opening bracket even with nothing
     inside: an empty one is "{", a blank line, "}".  */
  if (w->pretty && v->n == 0)
    out_append (&w->o, "\n", 1);
  for (i = 0; i < v->n; i++)
    {
      if (i)
        out_append (&w->o, ",", 1);
      put_break (w, depth + 1);
      if (object)
        {
          if (!put_string (&w->o, v->keys[i], strlen (v->keys[i]), w->lossy))
            return false;
          out_append (&w->o, w->pretty ? ": " : ":", w->pretty ? 2 : 1);
        }
      if (!put_value (w, v->items[i], depth + 1))
        return false;
    }
  put_break (w, depth);
  out_append (&w->o, object ? "}" : "]", 1);
  return true;
}

static bool
put_value (struct writer *w, const json_t *v, size_t depth)
{
  switch (v->type)
    {
    case JSON_NULL:
      out_append (&w->o, "null", 4);
      return true;
    case JSON_FALSE:
      out_append (&w->o, "false", 5);
      return true;
    case JSON_TRUE:
      out_append (&w->o, "true", 4);
      return true;
    case JSON_NUMBER:
      out_append (&w->o, v->text, v->len);
      return true;
    case JSON_STRING:
      return put_string (&w->o, v->text, v->len, w->lossy);
    case JSON_OBJECT:
    case JSON_ARRAY:
      return put_container (w, v, depth);
    }
  return false;
}

static int
generate (const json_t *v, bool pretty, bool lossy, char **out, size_t *len, entitle_error_t *err)
{
  struct writer w = { { NULL, 0, 0 }, pretty, lossy };

  if (!put_value (&w, v, 0))
    {
      free (w.o.p);
      return entitle_make_error (err, EINVAL, "generate JSON: invalid UTF-8 in a string");
    }
  out_append (&w.o, "\n", 1);
  w.o.p[w.o.n] = '\0';
  *out = w.o.p;
  *len = w.o.n;
  return 0;
}

int
json_generate (const json_t *v, char **out, size_t *len, entitle_error_t *err)
{
  return generate (v, true, false, out, len, err);
}

/* What create writes for every container: the same writer, unindented.  */
int
json_generate_compact (const json_t *v, char **out, size_t *len, entitle_error_t *err)
{
  return generate (v, false, false, out, len, err);
}

/* A record of a log: unindented, and never refused.  A message that
   quotes bad input (a path of arbitrary bytes) is still written, each
   byte of ill-formed UTF-8 as \ufffd (what logrus writes), so that the
   engine reading the log parses the line and the error is not lost.  */
char *
json_generate_record (const json_t *v, size_t *len)
{
  entitle_error_t err = NULL;
  char *out = NULL;

  if (generate (v, false, true, &out, len, &err) < 0)
    entitle_error_release (&err);
  return out;
}

json_t *
json_get (const json_t *obj, const char *key)
{
  size_t i;
  json_t *found = NULL;

  if (obj == NULL || obj->type != JSON_OBJECT)
    return NULL;
  /* The last duplicate wins, as in Go's encoding/json that runc uses.  */
  for (i = 0; i < obj->n; i++)
    if (strcmp (obj->keys[i], key) == 0)
      found = obj->items[i];
  return found;
}

void
json_set (json_t *obj, const char *key, json_t *val)
{
  json_del (obj, key);
  append_owned_key (obj, key, val);
}

json_t *
json_get_or_add (json_t *obj, const char *key, enum json_type type)
{
  json_t *v = json_get (obj, key);

  if (v && v->type == type)
    return v;
  v = json_new (type);
  json_set (obj, key, v);
  return v;
}

bool
json_del (json_t *obj, const char *key)
{
  size_t i, j;
  bool found = false;

  if (obj == NULL || obj->type != JSON_OBJECT)
    return false;
  for (i = 0, j = 0; i < obj->n; i++)
    {
      if (strcmp (obj->keys[i], key) == 0)
        {
          free_member (obj, i);
          found = true;
          continue;
        }
      obj->keys[j] = obj->keys[i];
      obj->items[j++] = obj->items[i];
    }
  obj->n = j;
  return found;
}

void
json_push (json_t *arr, json_t *val)
{
  append_owned_key (arr, NULL, val);
}

void
json_remove_at (json_t *arr, size_t i)
{
  free_member (arr, i);
  if (arr->keys)
    memmove (&arr->keys[i], &arr->keys[i + 1], (arr->n - i - 1) * sizeof (*arr->keys));
  memmove (&arr->items[i], &arr->items[i + 1], (arr->n - i - 1) * sizeof (*arr->items));
  arr->n--;
}

size_t
json_array_drop (json_t *arr, bool (*drop) (const json_t *item, void *data), void *data)
{
  size_t i, kept = 0;

  for (i = 0; i < arr->n; i++)
    if (drop (arr->items[i], data))
      json_free (arr->items[i]);
    else
      arr->items[kept++] = arr->items[i];
  i = arr->n - kept;
  arr->n = kept;
  return i;
}

const char *
json_string (const json_t *v)
{
  return v && v->type == JSON_STRING ? v->text : NULL;
}

long
json_array_find_string (const json_t *arr, const char *s)
{
  size_t i, len;

  if (arr == NULL || arr->type != JSON_ARRAY)
    return -1;
  /* Lengths first: seccomp rules list hundreds of names, and this runs
     for every name a restriction takes away.  */
  len = strlen (s);
  for (i = 0; i < arr->n; i++)
    {
      const json_t *e = arr->items[i];
      if (e->type == JSON_STRING && e->len == len && memcmp (e->text, s, len) == 0)
        return (long)i;
    }
  return -1;
}

bool
json_equal (const json_t *a, const json_t *b)
{
  size_t i;

  if (a == NULL || b == NULL)
    return a == b;
  if (a->type != b->type || a->len != b->len || (is_container (a) && a->n != b->n))
    return false;
  if (has_text (a) && memcmp (a->text, b->text, a->len) != 0)
    return false;
  for (i = 0; is_container (a) && i < a->n; i++)
    {
      if (a->keys && strcmp (a->keys[i], b->keys[i]) != 0)
        return false;
      if (!json_equal (a->items[i], b->items[i]))
        return false;
    }
  return true;
}

static bool
json_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

long
json_scan (struct json_scan_s *s, const char *buf, size_t len)
{
  for (; s->pos < len; s->pos++)
    {
      char c = buf[s->pos];

      if (s->in_string)
        {
          s->in_string = s->escape || c != '"';
          s->escape = !s->escape && c == '\\';
        }
      else if (s->depth == 0 && json_space (c))
        continue;
      else if (c == '{' || c == '[')
        s->depth++;
      else if (s->depth == 0)
        return -1;
      else if (c == '}' || c == ']')
        {
          if (--s->depth == 0)
            return (long)++s->pos;
        }
      else
        s->in_string = c == '"';
    }
  return 0;
}
