/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_common.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>
#include "json.h"
#include "utils.h"

/* Nesting deeper than this is hostile input, not a config.  */
#define JSON_MAX_DEPTH (YAJL_MAX_DEPTH - 1)

static void *
xrealloc (void *p, size_t n)
{
  p = realloc (p, n);
  if (p == NULL)
    abort ();
  return p;
}

static char *
xstrndup (const char *s, size_t n)
{
  char *r = xrealloc (NULL, n + 1);
  memcpy (r, s, n);
  r[n] = '\0';
  return r;
}

json_t *
json_new (enum json_type type)
{
  json_t *v = xrealloc (NULL, sizeof (*v));
  memset (v, 0, sizeof (*v));
  v->type = type;
  return v;
}

static json_t *
new_text (enum json_type type, const char *s, size_t len)
{
  json_t *v = json_new (type);
  v->text = xstrndup (s, len);
  v->len = len;
  return v;
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

void
json_free (json_t *v)
{
  size_t i;
  if (v == NULL)
    return;
  for (i = 0; i < v->n; i++)
    {
      if (v->keys)
        free (v->keys[i]);
      json_free (v->items[i]);
    }
  free (v->keys);
  free (v->items);
  free (v->text);
  free (v);
}

static void
append (json_t *c, char *key, json_t *val)
{
  if (c->n == c->cap)
    {
      c->cap = c->cap ? c->cap * 2 : 4;
      c->items = xrealloc (c->items, c->cap * sizeof (*c->items));
      if (c->type == JSON_OBJECT)
        c->keys = xrealloc (c->keys, c->cap * sizeof (*c->keys));
    }
  if (c->type == JSON_OBJECT)
    c->keys[c->n] = key;
  c->items[c->n++] = val;
}

json_t *
json_clone (const json_t *v)
{
  json_t *c;
  size_t i;

  if (v->text)
    return new_text (v->type, v->text, v->len);
  c = json_new (v->type);
  for (i = 0; i < v->n; i++)
    append (c, v->keys ? xstrndup (v->keys[i], strlen (v->keys[i])) : NULL,
            json_clone (v->items[i]));
  return c;
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

static int
add_value (struct parser *p, json_t *v)
{
  json_t *top;

  if (p->depth == 0)
    {
      p->root = v;
      return 1;
    }
  top = p->stack[p->depth - 1];
  append (top, top->type == JSON_OBJECT ? get_and_reset (&p->key) : NULL, v);
  return 1;
}

static int
push_container (struct parser *p, enum json_type type)
{
  json_t *v = json_new (type);

  add_value (p, v);
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
  return add_value (ctx, json_new (JSON_NULL));
}

static int
on_bool (void *ctx, int b)
{
  return add_value (ctx, json_new_bool (b));
}

/* Well-formed UTF-8 as RFC 3629 has it (Unicode Table 3-7).  yajl checks
   only the shape of each sequence: it lets overlong forms, surrogates and
   code points past U+10FFFF through, which the runtime would read as
   something else (Go replaces them with U+FFFD).  */
static bool
utf8_valid (const unsigned char *s, size_t len)
{
  size_t i = 0;

  while (i < len)
    {
      unsigned char c = s[i];
      unsigned char lo = 0x80, hi = 0xbf;
      size_t n, j;

      if (c < 0x80)
        {
          i++;
          continue;
        }
      if (c >= 0xc2 && c <= 0xdf)
        n = 1;
      else if (c >= 0xe0 && c <= 0xef)
        {
          n = 2;
          if (c == 0xe0)
            lo = 0xa0;
          else if (c == 0xed)
            hi = 0x9f;
        }
      else if (c >= 0xf0 && c <= 0xf4)
        {
          n = 3;
          if (c == 0xf0)
            lo = 0x90;
          else if (c == 0xf4)
            hi = 0x8f;
        }
      else
        return false;
      if (len - i - 1 < n)
        return false;
      for (j = 1; j <= n; j++)
        {
          unsigned char b = s[i + j];
          if (b < (j == 1 ? lo : 0x80) || b > (j == 1 ? hi : 0xbf))
            return false;
        }
      i += n + 1;
    }
  return true;
}

static int
on_number (void *ctx, const char *s, size_t len)
{
  return add_value (ctx, new_text (JSON_NUMBER, s, len));
}

static int
on_string (void *ctx, const unsigned char *s, size_t len)
{
  if (!utf8_valid (s, len))
    {
      ((struct parser *)ctx)->error = "invalid UTF-8 in a string";
      return 0;
    }
  return add_value (ctx, new_text (JSON_STRING, (const char *)s, len));
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

static int
on_end (void *ctx)
{
  ((struct parser *)ctx)->depth--;
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

/* yajl's verbose message spans lines; keep the first one.  */
static int
parse_error (yajl_handle h, struct parser *p, const char *buf, size_t len,
             entitle_error_t *err)
{
  unsigned char *msg;
  char *nl;
  int ret;

  if (p->error && p->dup[0])
    return entitle_make_error (err, EINVAL, "invalid JSON: %s `%s` at byte %zu", p->error, p->dup,
                               yajl_get_bytes_consumed (h));
  if (p->error)
    return entitle_make_error (err, EINVAL, "invalid JSON: %s at byte %zu", p->error, yajl_get_bytes_consumed (h));
  msg = yajl_get_error (h, 0, (const unsigned char *)buf, len);
  nl = strchr ((char *)msg, '\n');
  if (nl)
    *nl = '\0';
  ret = entitle_make_error (err, EINVAL, "invalid JSON: %s at byte %zu", (char *)msg,
                            yajl_get_bytes_consumed (h));
  yajl_free_error (h, msg);
  return ret;
}

int
json_parse (const char *buf, size_t len, json_t **out, entitle_error_t *err)
{
  struct parser p = { .depth = 0 };
  yajl_handle h = yajl_alloc (&callbacks, NULL, &p);
  yajl_status st;
  int ret = 0;

  if (h == NULL)
    return entitle_make_error (err, ENOMEM, "yajl_alloc");
  st = yajl_parse (h, (const unsigned char *)buf, len);
  if (st == yajl_status_ok)
    st = yajl_complete_parse (h);
  if (st != yajl_status_ok)
    ret = parse_error (h, &p, buf, len, err);
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

static const char *
gen_status_msg (yajl_gen_status st)
{
  switch (st)
    {
    case yajl_gen_keys_must_be_strings:
      return "keys must be strings";
    case yajl_max_depth_exceeded:
      return "nested too deeply";
    case yajl_gen_in_error_state:
      return "generator in error state";
    case yajl_gen_generation_complete:
      return "generation already complete";
    case yajl_gen_invalid_number:
      return "invalid number";
    case yajl_gen_no_buf:
      return "no buffer";
    case yajl_gen_invalid_string:
      return "invalid UTF-8 string";
    default:
      return "unknown generator error";
    }
}

static yajl_gen_status
gen_value (yajl_gen g, const json_t *v)
{
  yajl_gen_status st = yajl_gen_status_ok;
  size_t i;

  switch (v->type)
    {
    case JSON_NULL:
      return yajl_gen_null (g);
    case JSON_FALSE:
    case JSON_TRUE:
      return yajl_gen_bool (g, v->type == JSON_TRUE);
    case JSON_NUMBER:
      return yajl_gen_number (g, v->text, v->len);
    case JSON_STRING:
      return yajl_gen_string (g, (const unsigned char *)v->text, v->len);
    case JSON_OBJECT:
    case JSON_ARRAY:
      st = v->type == JSON_OBJECT ? yajl_gen_map_open (g) : yajl_gen_array_open (g);
      for (i = 0; st == yajl_gen_status_ok && i < v->n; i++)
        {
          if (v->type == JSON_OBJECT)
            st = yajl_gen_string (g, (const unsigned char *)v->keys[i], strlen (v->keys[i]));
          if (st == yajl_gen_status_ok)
            st = gen_value (g, v->items[i]);
        }
      if (st != yajl_gen_status_ok)
        return st;
      return v->type == JSON_OBJECT ? yajl_gen_map_close (g) : yajl_gen_array_close (g);
    }
  return yajl_gen_status_ok;
}

static int
generate (const json_t *v, bool pretty, char **out, size_t *len, entitle_error_t *err)
{
  yajl_gen g = yajl_gen_alloc (NULL);
  const unsigned char *buf;
  yajl_gen_status st;
  size_t n;

  if (g == NULL)
    return entitle_make_error (err, ENOMEM, "yajl_gen_alloc");
  yajl_gen_config (g, yajl_gen_beautify, pretty);
  yajl_gen_config (g, yajl_gen_indent_string, "\t");
  yajl_gen_config (g, yajl_gen_validate_utf8, 1);
  st = gen_value (g, v);
  if (st == yajl_gen_status_ok)
    st = yajl_gen_get_buf (g, &buf, &n);
  if (st != yajl_gen_status_ok)
    {
      yajl_gen_free (g);
      return entitle_make_error (err, EINVAL, "generate JSON: %s", gen_status_msg (st));
    }
  *out = xrealloc (NULL, n + 2);
  memcpy (*out, buf, n);
  if (n == 0 || buf[n - 1] != '\n')
    (*out)[n++] = '\n';
  (*out)[n] = '\0';
  *len = n;
  yajl_gen_free (g);
  return 0;
}

int
json_generate (const json_t *v, char **out, size_t *len, entitle_error_t *err)
{
  return generate (v, true, out, len, err);
}

int
json_generate_compact (const json_t *v, char **out, size_t *len, entitle_error_t *err)
{
  return generate (v, false, out, len, err);
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
  append (obj, xstrndup (key, strlen (key)), val);
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
          free (obj->keys[i]);
          json_free (obj->items[i]);
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
  append (arr, NULL, val);
}

void
json_remove_at (json_t *arr, size_t i)
{
  json_free (arr->items[i]);
  if (arr->keys)
    {
      free (arr->keys[i]);
      memmove (&arr->keys[i], &arr->keys[i + 1], (arr->n - i - 1) * sizeof (*arr->keys));
    }
  memmove (&arr->items[i], &arr->items[i + 1], (arr->n - i - 1) * sizeof (*arr->items));
  arr->n--;
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
  if (a->type != b->type || a->n != b->n || a->len != b->len)
    return false;
  if (a->text && memcmp (a->text, b->text, a->len) != 0)
    return false;
  for (i = 0; i < a->n; i++)
    {
      if (a->keys && strcmp (a->keys[i], b->keys[i]) != 0)
        return false;
      if (!json_equal (a->items[i], b->items[i]))
        return false;
    }
  return true;
}
