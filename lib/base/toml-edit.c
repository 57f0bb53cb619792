/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The TOML section editor of toml-edit.h.  The scanner reads just enough
 * TOML to know where each key, value and header starts and ends; it keeps
 * the bytes, so that what it does not edit is written back unchanged.
 */
#include <config.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "toml-edit.h"
#include "utils.h"

/* Arrays and inline tables nested deeper than this are refused: the
   scanner recurses, and no engine config nests more than two.  */
#define MAX_DEPTH 32

enum item_kind
{
  ITEM_TRIVIA, /* blank or comment line */
  ITEM_TABLE,
  ITEM_ARRAY_TABLE,
  ITEM_KEYVAL,
};

/* A line of the file, or the lines of one key whose value spans several.  */
struct item
{
  enum item_kind kind;
  char *text; /* its bytes, line ends included */
  size_t len;
  char **path;                 /* a header's table, or a key's components */
  size_t value_off, value_len; /* ITEM_KEYVAL: where the value is in text */
  size_t indent;               /* leading blanks */
  size_t line;                 /* first line in the file as read; 0 if inserted */
};

struct entitle_toml_s
{
  char *name;
  struct item *items;
  size_t n, cap;
  size_t step; /* how much deeper a table's keys are indented than its header */
};

/* Sections: the root table's keys come before the first header.  */
#define ROOT_SECTION ((size_t)-1)
#define NO_SECTION   ((size_t)-2)
#define NO_ITEM      ((size_t)-1)

static const char *const root_table[] = { NULL };

/* Growing buffers; out of memory aborts, as the JSON constructors do.  */
struct buf
{
  char *data;
  size_t len, cap;
};

static void
buf_add (struct buf *b, const char *s, size_t n)
{
  if (b == NULL)
    return;
  if (b->len + n + 1 > b->cap)
    {
      b->cap = (b->len + n + 1) * 2;
      b->data = xrealloc (b->data, b->cap);
    }
  memcpy (b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

static void
buf_put (struct buf *b, char c)
{
  buf_add (b, &c, 1);
}

struct strv
{
  char **v;
  size_t n, cap;
};

static void
strv_push (struct strv *v, char *s)
{
  if (v->n + 2 > v->cap)
    {
      v->cap = (v->n + 2) * 2;
      v->v = xrealloc (v->v, v->cap * sizeof (char *));
    }
  v->v[v->n++] = s;
  v->v[v->n] = NULL;
}

static void
strv_release (struct strv *v)
{
  cleanup_strvp (&v->v);
  v->v = NULL;
  v->n = v->cap = 0;
}

/* The scanner.  */

struct scan
{
  const char *start, *p, *end;
  const char *name;
  entitle_error_t *err;
};

static int
bad (const struct scan *s, const char *what)
{
  const char *c;
  size_t line = 1;

  for (c = s->start; c < s->p && c < s->end; c++)
    line += *c == '\n';
  /* At the end of a file that ends its last line: that line.  */
  if (s->p >= s->end && s->end > s->start && s->end[-1] == '\n')
    line--;
  return entitle_make_error (s->err, EINVAL, "`%s` line %zu: %s", s->name, line, what);
}

static bool
is_bare (char c)
{
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static bool
at (const struct scan *s, const char *what)
{
  size_t n = strlen (what);
  return (size_t)(s->end - s->p) >= n && memcmp (s->p, what, n) == 0;
}

static bool
at_eol (const struct scan *s)
{
  return s->p == s->end || at (s, "\n") || at (s, "\r\n");
}

static void
skip_blank (struct scan *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t'))
    s->p++;
}

static void
skip_comment (struct scan *s)
{
  if (at (s, "#"))
    while (!at_eol (s))
      s->p++;
}

static void
skip_eol (struct scan *s)
{
  s->p += at (s, "\r\n") ? 2 : at (s, "\n") ? 1
                                            : 0;
}

/* Inside an array: blanks, comments and line ends.  */
static void
skip_space (struct scan *s)
{
  for (;;)
    {
      skip_blank (s);
      skip_comment (s);
      if (s->p == s->end || !at_eol (s))
        return;
      skip_eol (s);
    }
}

static int
hex_value (struct scan *s, size_t digits, uint32_t *cp)
{
  size_t i;

  *cp = 0;
  for (i = 0; i < digits; i++, s->p++)
    {
      char c = s->p < s->end ? *s->p : '\0';
      int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                           : c >= 'A' && c <= 'F'   ? c - 'A' + 10
                                                                    : -1;
      if (v < 0)
        return bad (s, "a \\u escape needs hexadecimal digits");
      *cp = *cp * 16 + (uint32_t)v;
    }
  if (*cp == 0 || *cp > 0x10FFFF || (*cp >= 0xD800 && *cp <= 0xDFFF))
    return bad (s, "a \\u escape that is not a character entitle keeps");
  return 0;
}

static void
put_utf8 (struct buf *b, uint32_t cp)
{
  char u[4];
  size_t n;

  if (cp < 0x80)
    u[0] = (char)cp, n = 1;
  else if (cp < 0x800)
    u[0] = (char)(0xC0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
  else if (cp < 0x10000)
    u[0] = (char)(0xE0 | cp >> 12), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
  else
    u[0] = (char)(0xF0 | cp >> 18), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
  buf_add (b, u, n);
}

static int
scan_escape (struct scan *s, struct buf *out)
{
  static const char from[] = "btnfr\"\\", to[] = "\b\t\n\f\r\"\\";
  const char *e;
  uint32_t cp;
  int ret;

  if (s->p == s->end)
    return bad (s, "a string ends in `\\`");
  if (*s->p == 'u' || *s->p == 'U')
    {
      bool wide = *s->p++ == 'U';
      ret = hex_value (s, wide ? 8 : 4, &cp);
      if (UNLIKELY (ret < 0))
        return ret;
      put_utf8 (out, cp);
      return 0;
    }
  e = *s->p ? strchr (from, *s->p) : NULL;
  if (e == NULL)
    return bad (s, "an escape TOML does not define");
  s->p++;
  buf_put (out, to[e - from]);
  return 0;
}

/* A "basic" (@quote '"', escapes) or 'literal' string on one line; its
   bytes, decoded, appended to @out when not NULL.  */
static int
scan_string (struct scan *s, char quote, struct buf *out)
{
  int ret;

  for (s->p++;;)
    {
      unsigned char c;
      if (s->p == s->end || *s->p == '\n' || *s->p == '\r')
        return bad (s, "a string is not closed on its line");
      c = (unsigned char)*s->p++;
      if (c == (unsigned char)quote)
        return 0;
      if ((c < 0x20 && c != '\t') || c == 0x7F)
        return bad (s, "a control character in a string");
      if (c != '\\' || quote == '\'')
        {
          buf_put (out, (char)c);
          continue;
        }
      ret = scan_escape (s, out);
      if (UNLIKELY (ret < 0))
        return ret;
    }
}

/* """...""" or '''...''' over any number of lines.  A run of up to five
   quotes ends it (the first ones belong to the string).  */
static int
scan_multiline (struct scan *s, char quote)
{
  const char delim[4] = { quote, quote, quote, '\0' };

  for (s->p += 3; s->p < s->end; s->p++)
    {
      if (quote == '"' && *s->p == '\\')
        {
          s->p++;
          continue;
        }
      if (at (s, delim))
        {
          size_t run = 0;
          while (s->p < s->end && *s->p == quote)
            s->p++, run++;
          if (run > 5)
            return bad (s, "too many quotes after a multi-line string");
          return 0;
        }
    }
  return bad (s, "a multi-line string is not closed");
}

/* A number, a boolean, a date or a time: its characters only.  */
static int
scan_scalar (struct scan *s)
{
  const char *t = s->p;
  size_t n;

  while (s->p < s->end && (is_bare (*s->p) || *s->p == '.' || *s->p == ':' || *s->p == '+'))
    s->p++;
  n = (size_t)(s->p - t);
  /* A date and a time may be separated by one space.  */
  if (n == 10 && t[4] == '-' && t[7] == '-' && at (s, " ") && s->p + 1 < s->end && s->p[1] >= '0' && s->p[1] <= '9')
    for (s->p++; s->p < s->end && (is_bare (*s->p) || *s->p == '.' || *s->p == ':' || *s->p == '+');)
      s->p++;
  if (n > 0 && ((*t >= '0' && *t <= '9') || *t == '+' || *t == '-'))
    return 0;
  if ((n == 4 && memcmp (t, "true", 4) == 0) || (n == 5 && memcmp (t, "false", 5) == 0)
      || (n == 3 && (memcmp (t, "inf", 3) == 0 || memcmp (t, "nan", 3) == 0)))
    return 0;
  s->p = t;
  return bad (s, "a value entitle cannot read");
}

static int scan_value (struct scan *s, int depth);
static int scan_key (struct scan *s, struct strv *path);

/* `key = value`: the key's components pushed on @path when not NULL,
   and where the value starts in @value.  */
static int
scan_pair (struct scan *s, struct strv *path, int depth, const char **value)
{
  int ret = scan_key (s, path);

  if (UNLIKELY (ret < 0))
    return ret;
  if (!at (s, "="))
    return bad (s, "neither a table header nor `key = value`");
  s->p++;
  skip_blank (s);
  *value = s->p;
  return scan_value (s, depth);
}

/* After an item of an array or an inline table: a `,` (skipped), or
   @close (left to the caller).  */
static int
scan_separator (struct scan *s, const char *close, const char *what)
{
  if (at (s, ","))
    {
      s->p++;
      return 0;
    }
  return at (s, close) ? 0 : bad (s, what);
}

static int
scan_array (struct scan *s, int depth)
{
  int ret;

  for (s->p++;;)
    {
      skip_space (s);
      if (s->p == s->end)
        return bad (s, "an array is not closed");
      if (*s->p == ']')
        break;
      ret = scan_value (s, depth + 1);
      if (UNLIKELY (ret < 0))
        return ret;
      skip_space (s);
      ret = scan_separator (s, "]", "an array item is not followed by `,` or `]`");
      if (UNLIKELY (ret < 0))
        return ret;
    }
  s->p++;
  return 0;
}

/* { key = value, ... }, on one line as TOML 1.0 says.  */
static int
scan_inline_table (struct scan *s, int depth)
{
  int ret;

  s->p++;
  skip_blank (s);
  while (!at (s, "}"))
    {
      const char *value;
      ret = scan_pair (s, NULL, depth + 1, &value);
      if (UNLIKELY (ret < 0))
        return ret;
      skip_blank (s);
      ret = scan_separator (s, "}", "an inline table item is not followed by `,` or `}`");
      if (UNLIKELY (ret < 0))
        return ret;
      skip_blank (s);
    }
  s->p++;
  return 0;
}

static int
scan_value (struct scan *s, int depth)
{
  if (depth > MAX_DEPTH)
    return bad (s, "values nested too deeply");
  if (at_eol (s))
    return bad (s, "a key without a value");
  if (at (s, "\"\"\"") || at (s, "'''"))
    return scan_multiline (s, *s->p);
  if (*s->p == '"' || *s->p == '\'')
    return scan_string (s, *s->p, NULL);
  if (*s->p == '[')
    return scan_array (s, depth);
  if (*s->p == '{')
    return scan_inline_table (s, depth);
  return scan_scalar (s);
}

/* A key, dotted or not; its components, unquoted, pushed on @path when
   not NULL.  Blanks around it are skipped.  */
static int
scan_key (struct scan *s, struct strv *path)
{
  int ret;

  for (;;)
    {
      struct buf b = { 0 };
      skip_blank (s);
      if (at (s, "\"") || at (s, "'"))
        ret = scan_string (s, *s->p, &b);
      else
        {
          const char *t = s->p;
          while (s->p < s->end && is_bare (*s->p))
            s->p++;
          ret = s->p == t ? bad (s, "a key entitle cannot read") : 0;
          buf_add (&b, t, (size_t)(s->p - t));
        }
      if (ret == 0 && b.data && strlen (b.data) != b.len)
        ret = bad (s, "a NUL character in a key");
      if (UNLIKELY (ret < 0))
        {
          free (b.data);
          return ret;
        }
      if (path)
        strv_push (path, b.data ? b.data : xstrndup ("", 0));
      else
        free (b.data);
      skip_blank (s);
      if (!at (s, "."))
        return 0;
      s->p++;
    }
}

static int
scan_header (struct scan *s, struct item *it, struct strv *path)
{
  bool array = at (s, "[[");
  int ret;

  s->p += array ? 2 : 1;
  ret = scan_key (s, path);
  if (UNLIKELY (ret < 0))
    return ret;
  if (!at (s, array ? "]]" : "]"))
    return bad (s, "a table header is not closed");
  s->p += array ? 2 : 1;
  it->kind = array ? ITEM_ARRAY_TABLE : ITEM_TABLE;
  return 0;
}

static int
scan_keyval (struct scan *s, const char *begin, struct item *it, struct strv *path)
{
  const char *value;
  int ret = scan_pair (s, path, 0, &value);

  if (UNLIKELY (ret < 0))
    return ret;
  it->value_off = (size_t)(value - begin);
  it->value_len = (size_t)(s->p - value);
  it->kind = ITEM_KEYVAL;
  return 0;
}

/* The next item: a line, or the lines of a value that spans several.  */
static int
scan_item (struct scan *s, struct item *it)
{
  const char *begin = s->p;
  struct strv path = { 0 };
  int ret = 0;

  skip_blank (s);
  it->indent = (size_t)(s->p - begin);
  it->kind = ITEM_TRIVIA;
  if (at (s, "["))
    ret = scan_header (s, it, &path);
  else if (!at_eol (s) && !at (s, "#"))
    ret = scan_keyval (s, begin, it, &path);
  if (ret == 0)
    {
      skip_blank (s);
      skip_comment (s);
      if (!at_eol (s))
        ret = bad (s, "unexpected text after the value");
    }
  if (UNLIKELY (ret < 0))
    {
      strv_release (&path);
      return ret;
    }
  skip_eol (s);
  it->path = path.v;
  it->len = (size_t)(s->p - begin);
  it->text = xstrndup (begin, it->len);
  return 0;
}

/* The document.  */

static void
item_release (struct item *it)
{
  free (it->text);
  cleanup_strvp (&it->path);
}

void
entitle_toml_free (entitle_toml_t *doc)
{
  size_t i;

  if (doc == NULL)
    return;
  for (i = 0; i < doc->n; i++)
    item_release (&doc->items[i]);
  free (doc->items);
  free (doc->name);
  free (doc);
}

/* Insert @it (taken) before item @at.  */
static void
insert_item (entitle_toml_t *doc, size_t at_index, struct item *it)
{
  if (doc->n == doc->cap)
    {
      doc->cap = doc->cap ? doc->cap * 2 : 64;
      doc->items = xrealloc (doc->items, doc->cap * sizeof (*doc->items));
    }
  memmove (&doc->items[at_index + 1], &doc->items[at_index], (doc->n - at_index) * sizeof (*doc->items));
  doc->items[at_index] = *it;
  doc->n++;
}

static bool
is_header (const struct item *it)
{
  return it->kind == ITEM_TABLE || it->kind == ITEM_ARRAY_TABLE;
}

static bool
is_blank (const struct item *it)
{
  return it->kind == ITEM_TRIVIA && strspn (it->text, " \t\r\n") == it->len;
}

static bool
is_comment (const struct item *it)
{
  return it->kind == ITEM_TRIVIA && !is_blank (it);
}

/* The indentation step: that of the first table whose keys are indented
   under its header; 2 when the file shows none.  */
static void
detect_step (entitle_toml_t *doc)
{
  size_t i;

  doc->step = 2;
  for (i = 0; i + 1 < doc->n; i++)
    if (doc->items[i].kind == ITEM_TABLE)
      {
        size_t j = i + 1;
        while (j < doc->n && doc->items[j].kind == ITEM_TRIVIA)
          j++;
        if (j < doc->n && doc->items[j].kind == ITEM_KEYVAL)
          {
            size_t h = doc->items[i].indent, k = doc->items[j].indent;
            doc->step = k > h ? k - h : 0;
            return;
          }
      }
}

int
entitle_toml_parse (const char *name, const char *text, size_t len, entitle_toml_t **out, entitle_error_t *err)
{
  struct scan s = { text, text, text + len, name, err };
  entitle_toml_t *doc;
  size_t line = 1;
  const char *c;

  if (memchr (text, '\0', len))
    return entitle_make_error (err, EINVAL, "`%s`: a NUL byte, which TOML does not allow", name);
  doc = xcalloc (1, sizeof (*doc));
  doc->name = xstrdup (name);
  while (s.p < s.end)
    {
      struct item it = { 0 };
      int ret = scan_item (&s, &it);
      if (UNLIKELY (ret < 0))
        {
          entitle_toml_free (doc);
          return ret;
        }
      it.line = line;
      for (c = it.text; (c = memchr (c, '\n', it.len - (size_t)(c - it.text))) != NULL; c++)
        line++;
      insert_item (doc, doc->n, &it);
    }
  detect_step (doc);
  *out = doc;
  return 0;
}

char *
entitle_toml_text (const entitle_toml_t *doc, size_t *len)
{
  struct buf b = { 0 };
  size_t i;

  buf_add (&b, "", 0);
  for (i = 0; i < doc->n; i++)
    buf_add (&b, doc->items[i].text, doc->items[i].len);
  *len = b.len;
  return b.data;
}

bool
entitle_toml_is_empty (const entitle_toml_t *doc)
{
  size_t i;

  for (i = 0; i < doc->n; i++)
    if (doc->items[i].kind != ITEM_TRIVIA)
      return false;
  return true;
}

/* Tables and keys.  */

static size_t
path_len (const char *const *p)
{
  size_t n = 0;
  while (p[n])
    n++;
  return n;
}

/* Are the first @n components of @p those of @prefix (which has @n)?  */
static bool
has_prefix (const char *const *p, const char *const *prefix, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    if (p[i] == NULL || strcmp (p[i], prefix[i]) != 0)
      return false;
  return true;
}

static bool
path_equal (const char *const *a, const char *const *b)
{
  size_t n = path_len (b);
  return path_len (a) == n && has_prefix (a, b, n);
}

static const char *const *
cpath (char **p)
{
  return (const char *const *)p;
}

static void
add_component (struct buf *b, const char *c)
{
  const char *q;

  for (q = c; *q && is_bare (*q); q++)
    ;
  if (*c && *q == '\0')
    buf_add (b, c, strlen (c));
  else
    {
      cleanup_free char *quoted = entitle_toml_string (c);
      buf_add (b, quoted, strlen (quoted));
    }
}

/* @table as a header writes it, without the brackets (malloc'd).  */
static char *
format_path (const char *const *table)
{
  struct buf b = { 0 };
  size_t i;

  buf_add (&b, "", 0);
  for (i = 0; table[i]; i++)
    {
      if (i)
        buf_put (&b, '.');
      add_component (&b, table[i]);
    }
  return b.data;
}

/* Does the key @key of the section @sect make @table, or a table around
   it, as a value or with its dots?  Either way, @table has no header of
   its own to edit.  */
static bool
key_makes (const char *const *sect, const char *const *key, const char *const *table)
{
  size_t s = path_len (sect), t = path_len (table), i;

  if (s >= t || !has_prefix (table, sect, s))
    return false;
  for (i = 0; key[i] && s + i < t; i++)
    if (strcmp (key[i], table[s + i]) != 0)
      return false;
  return true;
}

/* "FILE line N: [`KEY` of ]table `TABLE` WHY", an edit refused.  */
static int
refuse (const entitle_toml_t *doc, const struct item *it, const char *const *table, const char *key,
        const char *why, entitle_error_t *err)
{
  cleanup_free char *name = format_path (table);
  return entitle_make_error (err, EINVAL, "`%s` line %zu: %s%s%stable `%s` %s, which entitle configure does not edit",
                             doc->name, it->line, key ? "`" : "", key ? key : "", key ? "` of " : "", name, why);
}

/* Is @table one entitle can edit: made by one [header] or not at all?  */
static int
check_table (const entitle_toml_t *doc, const char *const *table, entitle_error_t *err)
{
  const char *const *sect = root_table;
  size_t i, headers = 0;

  for (i = 0; i < doc->n; i++)
    {
      const struct item *it = &doc->items[i];
      const char *const *p = cpath (it->path);
      if (it->kind == ITEM_TABLE && path_equal (p, table) && ++headers > 1)
        return refuse (doc, it, table, NULL, "has a second header here", err);
      if (it->kind == ITEM_ARRAY_TABLE && has_prefix (table, p, path_len (p)))
        return refuse (doc, it, table, NULL, "is in an array of tables", err);
      if (it->kind == ITEM_KEYVAL && key_makes (sect, p, table))
        return refuse (doc, it, table, NULL, "is made by a dotted key or an inline table", err);
      if (is_header (it))
        sect = p;
    }
  return 0;
}

static size_t
find_table (const entitle_toml_t *doc, const char *const *table)
{
  size_t i;

  if (table[0] == NULL)
    return ROOT_SECTION;
  for (i = 0; i < doc->n; i++)
    if (doc->items[i].kind == ITEM_TABLE && path_equal (cpath (doc->items[i].path), table))
      return i;
  return NO_SECTION;
}

static size_t
body_start (size_t h)
{
  return h == ROOT_SECTION ? 0 : h + 1;
}

static size_t
body_end (const entitle_toml_t *doc, size_t h)
{
  size_t i = body_start (h);
  while (i < doc->n && !is_header (&doc->items[i]))
    i++;
  return i;
}

/* The `key = ...` line of @key in section @h, or NO_ITEM.  */
static size_t
find_key (const entitle_toml_t *doc, size_t h, const char *key)
{
  size_t i, end = body_end (doc, h);

  for (i = body_start (h); i < end; i++)
    {
      const struct item *it = &doc->items[i];
      if (it->kind == ITEM_KEYVAL && it->path[1] == NULL && strcmp (it->path[0], key) == 0)
        return i;
    }
  return NO_ITEM;
}

/* Can @key of @table be edited as `key = value`: the table can, and the
   key is no table (a [table.key] header, a dotted key.sub) and is
   there once at most?  */
static int
check_key (const entitle_toml_t *doc, const char *const *table, const char *key, entitle_error_t *err)
{
  size_t t = path_len (table), i, h, end, seen = 0;
  int ret = check_table (doc, table, err);

  if (UNLIKELY (ret < 0))
    return ret;
  for (i = 0; i < doc->n; i++)
    {
      const struct item *it = &doc->items[i];
      const char *const *p = cpath (it->path);
      if (is_header (it) && path_len (p) > t && has_prefix (p, table, t) && strcmp (p[t], key) == 0)
        return refuse (doc, it, table, key, "is a table", err);
    }
  h = find_table (doc, table);
  if (h == NO_SECTION)
    return 0;
  end = body_end (doc, h);
  for (i = body_start (h); i < end; i++)
    {
      const struct item *it = &doc->items[i];
      if (it->kind != ITEM_KEYVAL || strcmp (it->path[0], key) != 0)
        continue;
      if (it->path[1] || ++seen > 1)
        return refuse (doc, it, table, key, it->path[1] ? "is a table" : "is set twice", err);
    }
  return 0;
}

/* Decode @len bytes of @raw as one string: 1 and @out, or 0 when it is
   another kind of value.  */
static int
decode_string (const char *raw, size_t len, char **out)
{
  entitle_error_t err = NULL;
  struct scan s = { raw, raw, raw + len, "", &err };
  struct buf b = { 0 };
  int ret = -1;

  buf_add (&b, "", 0);
  if (len > 0 && (*raw == '"' || *raw == '\''))
    ret = scan_string (&s, *raw, &b);
  if (ret < 0 || s.p != s.end || strlen (b.data) != b.len)
    {
      entitle_error_release (&err);
      free (b.data);
      return 0;
    }
  *out = b.data;
  return 1;
}

static bool
same_value (const char *raw, size_t len, const char *value)
{
  cleanup_free char *a = NULL, *b = NULL;

  if (len == strlen (value) && memcmp (raw, value, len) == 0)
    return true;
  return decode_string (raw, len, &a) && decode_string (value, strlen (value), &b) && strcmp (a, b) == 0;
}

static void
set_text (struct item *it, char *text)
{
  free (it->text);
  it->text = text;
  it->len = strlen (text);
}

/* Replace @len bytes at @off of the item's text with @with.  */
static void
splice (struct item *it, size_t off, size_t len, const char *with)
{
  char *text;

  xasprintf (&text, "%.*s%s%s", (int)off, it->text, with, it->text + off + len);
  set_text (it, text);
}

/* The item before @at ends its line, so that another can follow.  */
static void
end_line_before (entitle_toml_t *doc, size_t at_index)
{
  struct item *prev = at_index > 0 ? &doc->items[at_index - 1] : NULL;

  if (prev && prev->len > 0 && prev->text[prev->len - 1] != '\n')
    splice (prev, prev->len, 0, "\n");
}

static void
insert_text (entitle_toml_t *doc, size_t at_index, enum item_kind kind, char **path, size_t indent, char *text)
{
  struct item it = { .kind = kind, .path = path, .indent = indent };

  end_line_before (doc, at_index);
  set_text (&it, text);
  insert_item (doc, at_index, &it);
}

static char **
path_dup (const char *const *p)
{
  size_t i, n = path_len (p);
  char **v = xcalloc (n + 1, sizeof (char *));
  for (i = 0; i < n; i++)
    v[i] = xstrndup (p[i], strlen (p[i]));
  return v;
}

/* The last header whose table starts with the first @d components of
   @table and has @len components (0: any length), or NO_ITEM.  */
static size_t
last_header (const entitle_toml_t *doc, const char *const *table, size_t d, size_t len)
{
  size_t i, found = NO_ITEM;

  for (i = 0; i < doc->n; i++)
    if (is_header (&doc->items[i]) && has_prefix (cpath (doc->items[i].path), table, d)
        && (len == 0 || path_len (cpath (doc->items[i].path)) == len))
      found = i;
  return found;
}

/* Where a new [table] goes, and how far it is indented.  Before a table
   of its own that the file already has (and the comments just above
   it); else after the section of the last header among its closest
   relatives (its siblings and their children, else further up),
   indented as its siblings are, or one step per level below its closest
   ancestor.  */
static void
place_table (const entitle_toml_t *doc, const char *const *table, size_t *at_index, size_t *indent)
{
  size_t t = path_len (table), d, i, anchor = NO_ITEM, ancestor = NO_ITEM, sibling;

  for (i = 0; i < doc->n; i++)
    if (is_header (&doc->items[i]) && has_prefix (cpath (doc->items[i].path), table, t))
      {
        size_t below = path_len (cpath (doc->items[i].path)) - t;
        *indent = doc->items[i].indent > doc->step * below ? doc->items[i].indent - doc->step * below : 0;
        for (*at_index = i; *at_index > 0 && is_comment (&doc->items[*at_index - 1]); (*at_index)--)
          ;
        return;
      }
  for (d = t; d-- > 0 && anchor == NO_ITEM;)
    anchor = last_header (doc, table, d, 0);
  for (d = t - 1; d > 0 && ancestor == NO_ITEM; d--)
    ancestor = last_header (doc, table, d, d);
  sibling = last_header (doc, table, t - 1, t);
  if (sibling != NO_ITEM)
    *indent = doc->items[sibling].indent;
  else if (ancestor != NO_ITEM)
    *indent = doc->items[ancestor].indent + doc->step * (t - path_len (cpath (doc->items[ancestor].path)));
  else
    *indent = 0;
  if (anchor == NO_ITEM)
    {
      *at_index = doc->n;
      return;
    }
  /* After the anchor's last key: the comments that follow belong to
     what comes next.  */
  *at_index = anchor + 1;
  for (i = anchor + 1; i < doc->n && !is_header (&doc->items[i]); i++)
    if (doc->items[i].kind == ITEM_KEYVAL)
      *at_index = i + 1;
}

static size_t
add_table (entitle_toml_t *doc, const char *const *table)
{
  cleanup_free char *name = format_path (table);
  size_t at_index, indent;
  char *text;

  place_table (doc, table, &at_index, &indent);
  /* Blank lines set it apart, as the file's tables usually are.  */
  if (at_index > 0 && !is_blank (&doc->items[at_index - 1]))
    insert_text (doc, at_index++, ITEM_TRIVIA, NULL, 0, xstrndup ("\n", 1));
  xasprintf (&text, "%*s[%s]\n", (int)indent, "", name);
  insert_text (doc, at_index, ITEM_TABLE, path_dup (table), indent, text);
  if (at_index + 1 < doc->n && !is_blank (&doc->items[at_index + 1]))
    insert_text (doc, at_index + 1, ITEM_TRIVIA, NULL, 0, xstrndup ("\n", 1));
  return at_index;
}

/* A new `key = value` after the last key of section @h, indented as the
   section's keys are.  */
static void
add_key (entitle_toml_t *doc, size_t h, const char *key, const char *value)
{
  size_t i, end = body_end (doc, h), at_index = NO_ITEM, indent = 0;
  const char *const k[] = { key, NULL };
  cleanup_free char *name = format_path (k);
  char *text;

  if (h != ROOT_SECTION)
    indent = doc->items[h].indent + doc->step;
  for (i = body_start (h); i < end; i++)
    if (doc->items[i].kind == ITEM_KEYVAL)
      {
        if (at_index == NO_ITEM)
          indent = doc->items[i].indent;
        at_index = i + 1;
      }
  if (at_index == NO_ITEM)
    at_index = h == ROOT_SECTION ? end : h + 1;
  xasprintf (&text, "%*s%s = %s\n", (int)indent, "", name, value);
  insert_text (doc, at_index, ITEM_KEYVAL, path_dup (k), indent, text);
  /* The root's keys end before the first table with a blank line.  */
  if (h == ROOT_SECTION && at_index + 1 < doc->n && is_header (&doc->items[at_index + 1]))
    insert_text (doc, at_index + 1, ITEM_TRIVIA, NULL, 0, xstrndup ("\n", 1));
}

/* The section of @table (or NO_SECTION) and the line of @key in it (or
   NO_ITEM), once check_key allows editing them.  */
static int
lookup (const entitle_toml_t *doc, const char *const *table, const char *key, size_t *h, size_t *i,
        entitle_error_t *err)
{
  int ret = check_key (doc, table, key, err);

  if (UNLIKELY (ret < 0))
    return ret;
  *h = find_table (doc, table);
  *i = *h == NO_SECTION ? NO_ITEM : find_key (doc, *h, key);
  return 0;
}

int
entitle_toml_set (entitle_toml_t *doc, const char *const *table, const char *key, const char *value,
                  entitle_error_t *err)
{
  struct item *it;
  size_t h, i;
  int ret;

  ret = lookup (doc, table, key, &h, &i, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (h == NO_SECTION)
    h = add_table (doc, table);
  if (i == NO_ITEM)
    {
      add_key (doc, h, key, value);
      return 0;
    }
  it = &doc->items[i];
  if (!same_value (it->text + it->value_off, it->value_len, value))
    {
      splice (it, it->value_off, it->value_len, value);
      it->value_len = strlen (value);
    }
  return 0;
}

int
entitle_toml_get (const entitle_toml_t *doc, const char *const *table, const char *key, char **raw,
                  entitle_error_t *err)
{
  const struct item *it;
  size_t h, i;
  int ret;

  ret = lookup (doc, table, key, &h, &i, err);
  if (ret < 0 || i == NO_ITEM)
    return ret;
  it = &doc->items[i];
  *raw = xstrndup (it->text + it->value_off, it->value_len);
  return 1;
}

int
entitle_toml_get_string (const entitle_toml_t *doc, const char *const *table, const char *key, char **out,
                         entitle_error_t *err)
{
  cleanup_free char *raw = NULL, *name = NULL;
  int ret = entitle_toml_get (doc, table, key, &raw, err);

  if (ret <= 0)
    return ret;
  if (decode_string (raw, strlen (raw), out))
    return 1;
  name = format_path (table);
  return entitle_make_error (err, EINVAL, "`%s`: `%s` of table `%s` is not a string", doc->name, key, name);
}

/* The strings of the array @raw (@len bytes) as [start, end) offsets,
   each item's; -1 when it is not an array of one-line strings.  @at is
   the index of @s among them, or -1.  */
static int
string_array_items (const char *raw, size_t len, const char *s, size_t (*spans)[2], size_t max, size_t *n,
                    long *at_item)
{
  entitle_error_t err = NULL;
  struct scan sc = { raw, raw, raw + len, "", &err };
  int ret = 0;

  *n = 0;
  *at_item = -1;
  if (!at (&sc, "["))
    return -1;
  for (sc.p++; ret == 0 && *n < max;)
    {
      struct buf b = { 0 };
      skip_space (&sc);
      if (at (&sc, "]"))
        return 0;
      if (!at (&sc, "\"") && !at (&sc, "'"))
        break;
      buf_add (&b, "", 0);
      spans[*n][0] = (size_t)(sc.p - raw);
      ret = scan_string (&sc, *sc.p, &b);
      if (ret == 0 && *at_item < 0 && strcmp (b.data, s) == 0)
        *at_item = (long)*n;
      spans[(*n)++][1] = (size_t)(sc.p - raw);
      free (b.data);
      skip_space (&sc);
      if (ret == 0)
        ret = scan_separator (&sc, "]", "");
    }
  entitle_error_release (&err);
  return -1;
}

/* The arrays entitle edits are short: containerd's imports, pod_annotations.  */
#define MAX_ARRAY_ITEMS 256

/* The line of the array of strings @key of @table in @it (NULL when the
   key is not there), the spans of its items in @spans, how many in @n
   and the index of @s among them in @k (or -1).  */
static int
string_array (entitle_toml_t *doc, const char *const *table, const char *key, const char *s, struct item **it,
              size_t (*spans)[2], size_t *n, long *k, entitle_error_t *err)
{
  size_t h, i;
  int ret = lookup (doc, table, key, &h, &i, err);

  *it = NULL;
  *n = 0;
  *k = -1;
  if (ret < 0 || i == NO_ITEM)
    return ret;
  *it = &doc->items[i];
  if (string_array_items ((*it)->text + (*it)->value_off, (*it)->value_len, s, spans, MAX_ARRAY_ITEMS, n, k) < 0)
    return entitle_make_error (err, EINVAL, "`%s` line %zu: `%s` is not an array of strings", doc->name,
                               (*it)->line, key);
  return 0;
}

int
entitle_toml_array_add (entitle_toml_t *doc, const char *const *table, const char *key, const char *s,
                        entitle_error_t *err)
{
  cleanup_free char *quoted = entitle_toml_string (s), *text = NULL;
  size_t spans[MAX_ARRAY_ITEMS][2], n;
  struct item *it;
  long k;
  int ret = string_array (doc, table, key, s, &it, spans, &n, &k, err);

  if (ret < 0 || k >= 0)
    return ret;
  /* No array, or an empty one: the array of @s.  */
  xasprintf (&text, n == 0 ? "[%s]" : ", %s", quoted);
  if (n == 0)
    return entitle_toml_set (doc, table, key, text, err) < 0 ? -1 : 1;
  splice (it, it->value_off + spans[n - 1][1], 0, text);
  it->value_len += strlen (text);
  return 1;
}

int
entitle_toml_copy_keys (entitle_toml_t *doc, const char *const *from, const char *const *to,
                        const char *const *skip, entitle_error_t *err)
{
  struct strv keys = { 0 }, values = { 0 };
  size_t h = find_table (doc, from), i, end;
  int ret = 0;

  if (h == NO_SECTION)
    return 0;
  end = body_end (doc, h);
  for (i = body_start (h); i < end; i++)
    {
      const struct item *it = &doc->items[i];
      if (it->kind != ITEM_KEYVAL || it->path[1] || entitle_strv_has ((char *const *)skip, it->path[0])
          || memchr (it->text + it->value_off, '\n', it->value_len))
        continue;
      strv_push (&keys, xstrndup (it->path[0], strlen (it->path[0])));
      strv_push (&values, xstrndup (it->text + it->value_off, it->value_len));
    }
  for (i = 0; i < keys.n && ret == 0; i++)
    ret = entitle_toml_set (doc, to, keys.v[i], values.v[i], err);
  strv_release (&keys);
  strv_release (&values);
  return ret;
}

bool
entitle_toml_has_table (const entitle_toml_t *doc, const char *const *table)
{
  return find_table (doc, table) != NO_SECTION;
}

char *
entitle_toml_string (const char *s)
{
  struct buf b = { 0 };

  buf_put (&b, '"');
  for (; *s; s++)
    {
      unsigned char c = (unsigned char)*s;
      char esc[8];
      if (c == '"' || c == '\\')
        {
          buf_put (&b, '\\');
          buf_put (&b, (char)c);
        }
      else if (c < 0x20 || c == 0x7F)
        {
          snprintf (esc, sizeof esc, "\\u%04X", c);
          buf_add (&b, esc, strlen (esc));
        }
      else
        buf_put (&b, (char)c);
    }
  buf_put (&b, '"');
  return b.data;
}

int
entitle_toml_array_remove (entitle_toml_t *doc, const char *const *table, const char *key, const char *s,
                           entitle_error_t *err)
{
  size_t spans[MAX_ARRAY_ITEMS][2], n, from, to;
  struct item *it;
  long k;
  int ret = string_array (doc, table, key, s, &it, spans, &n, &k, err);

  if (ret < 0 || k < 0)
    return ret;
  if (n == 1)
    {
      /* The array entitle_toml_array_add made of `[]`.  */
      splice (it, it->value_off, it->value_len, "[]");
      it->value_len = 2;
      return 1;
    }
  /* What entitle_toml_array_add appended, `, ITEM`: from the end of the
     item before; the first item up to the next.  */
  from = k > 0 ? spans[k - 1][1] : spans[0][0];
  to = k > 0 ? spans[k][1] : spans[1][0];
  splice (it, it->value_off + from, to - from, "");
  it->value_len -= to - from;
  return 1;
}

int
entitle_toml_delete (entitle_toml_t *doc, const char *const *table, const char *key, entitle_error_t *err)
{
  size_t h, i;
  int ret;

  ret = lookup (doc, table, key, &h, &i, err);
  if (ret < 0 || i == NO_ITEM)
    return ret;
  item_release (&doc->items[i]);
  memmove (&doc->items[i], &doc->items[i + 1], (doc->n - i - 1) * sizeof (*doc->items));
  doc->n--;
  return 1;
}

int
entitle_toml_prepend_key (entitle_toml_t *doc, const char *key, const char *value, entitle_error_t *err)
{
  const char *const k[] = { key, NULL };
  cleanup_free char *name = format_path (k);
  size_t h, i, at_index = 0;
  char *text;
  int ret;

  ret = lookup (doc, root_table, key, &h, &i, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (i != NO_ITEM)
    return entitle_make_error (err, EEXIST, "`%s` line %zu: `%s` is there already", doc->name, doc->items[i].line,
                               key);
  while (at_index < doc->n && doc->items[at_index].kind == ITEM_TRIVIA)
    at_index++;
  /* After a comment block that opens the file, but not into a comment
     that belongs to the first key or header.  */
  if (at_index < doc->n && at_index > 0 && !is_blank (&doc->items[at_index - 1]))
    while (at_index > 0 && is_comment (&doc->items[at_index - 1]))
      at_index--;
  xasprintf (&text, "%s = %s\n", name, value);
  insert_text (doc, at_index, ITEM_KEYVAL, path_dup (k), 0, text);
  return 0;
}

char *
entitle_toml_tree_text (const entitle_toml_t *doc, const char *const *table, size_t *len, entitle_error_t *err)
{
  struct buf b = { 0 };
  size_t t = path_len (table), i;
  bool in = false;

  if (check_table (doc, table, err) < 0)
    return NULL;
  buf_add (&b, "", 0);
  for (i = 0; i < doc->n; i++)
    {
      const struct item *it = &doc->items[i];
      if (is_header (it))
        in = has_prefix (cpath (it->path), table, t);
      if (in)
        buf_add (&b, it->text, it->len);
    }
  if (b.len > 0 && b.data[b.len - 1] != '\n')
    buf_put (&b, '\n');
  *len = b.len;
  return b.data;
}
