/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "entitlements.h"
#include "utils.h"

/* A value is one token without commas or whitespace: CIDRs, ports, paths.  */
#define MAX_ENTITLEMENT_LEN 1024
/* Items in one list: far more than any container needs, few enough that
   a hostile list of a mebibyte is refused at once rather than sorted,
   resolved and written to the shared BPF maps.  */
#define MAX_ENTITLEMENT_ITEMS 256

/* @s for a message: one line, no terminal control bytes (malloc'd).  */
static char *
printable (const char *s, size_t len)
{
  char *p = xstrndup (s, len);
  for (char *q = p; *q; q++)
    if ((unsigned char)*q < ' ' || *q == 0x7f)
      *q = '?';
  return p;
}

/* component := [a-z0-9]+(-[a-z0-9]+)* ; name := component ("." component)+ */
bool
entitle_valid_name (const char *s, size_t len)
{
  size_t i, dots = 0;
  char prev = '.';

  for (i = 0; i < len; i++)
    {
      char c = s[i];
      bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      if (c == '.' || c == '-')
        {
          if (prev == '.' || prev == '-')
            return false;
          dots += c == '.';
        }
      else if (!alnum)
        return false;
      prev = c;
    }
  return dots > 0 && prev != '.' && prev != '-';
}

static bool
valid_value (const char *s, size_t len)
{
  size_t i;
  if (len == 0)
    return false;
  for (i = 0; i < len; i++)
    if ((unsigned char)s[i] <= ' ' || s[i] == ',' || s[i] == 0x7f)
      return false;
  return true;
}

int
entitle_parse_one (const struct entitle_catalogue_s *cat, const char *s, size_t len, struct entitle_request_s *out,
                   entitle_error_t *err)
{
  const char *eq = memchr (s, '=', len);
  size_t nlen = eq ? (size_t)(eq - s) : len;
  const struct entitle_entry_s *e;

  if (len > MAX_ENTITLEMENT_LEN)
    return entitle_make_error (err, EINVAL, "entitlement `%.64s...` is longer than %d bytes", s,
                               MAX_ENTITLEMENT_LEN);
  if (!entitle_valid_name (s, nlen))
    {
      cleanup_free char *p = printable (s, len);
      return entitle_make_error (err, EINVAL, "malformed entitlement `%s`", p);
    }
  e = entitle_catalogue_find (cat, s, nlen);
  if (e == NULL)
    {
      const struct entitle_entry_s *hint = entitle_catalogue_closest (cat, s, nlen);
      return entitle_make_error (err, EINVAL, "unknown entitlement `%.*s`%s%s%s", (int)nlen, s,
                                 hint ? ": did you mean `" : "", hint ? hint->name : "", hint ? "`?" : "");
    }
  if (e->value && eq == NULL)
    return entitle_make_error (err, EINVAL, "entitlement `%s` needs a value (`%s=...`)", e->name, e->name);
  if (!e->value && eq)
    return entitle_make_error (err, EINVAL, "entitlement `%s` takes no value", e->name);
  if (eq && !valid_value (eq + 1, len - nlen - 1))
    {
      cleanup_free char *p = printable (s, len);
      return entitle_make_error (err, EINVAL, "malformed value in entitlement `%s`", p);
    }
  memset (out, 0, sizeof (*out));
  out->entry = e;
  if (eq == NULL)
    return 0;
  out->value = xstrndup (eq + 1, len - nlen - 1);
  if (!e->value->parse (out->value, &out->v))
    {
      const struct entitle_value_kind_s *k = e->value;
      cleanup_free char *p = printable (s, len);
      free (get_and_reset (&out->value));
      return entitle_make_error (err, EINVAL, "malformed value in entitlement `%s`: expected %s=%s%s%s%s", p, e->name,
                                 k->form, k->hint ? " (" : "", k->hint ? k->hint : "", k->hint ? ")" : "");
    }
  return 0;
}

static int
compare_request (const struct entitle_request_s *a, const struct entitle_request_s *b)
{
  int c = strcmp (a->entry->name, b->entry->name);
  if (c)
    return c;
  return strcmp (a->value ? a->value : "", b->value ? b->value : "");
}

void
entitle_set_add (struct entitle_set_s *set, const struct entitle_request_s *req)
{
  size_t i = 0;
  struct entitle_request_s *items;

  while (i < set->n && compare_request (&set->items[i], req) < 0)
    i++;
  if (i < set->n && compare_request (&set->items[i], req) == 0)
    return;
  items = xrealloc (set->items, (set->n + 1) * sizeof (*items));
  memmove (&items[i + 1], &items[i], (set->n - i) * sizeof (*items));
  items[i] = *req;
  items[i].value = req->value ? xstrdup (req->value) : NULL;
  set->items = items;
  set->n++;
}

const struct entitle_request_s *
entitle_set_rung (const struct entitle_set_s *set, enum entitle_domain domain)
{
  size_t i;
  for (i = 0; i < set->n; i++)
    if (set->items[i].entry->domain == domain && set->items[i].entry->rung > 0)
      return &set->items[i];
  return NULL;
}

bool
entitle_set_has (const struct entitle_set_s *set, const char *name)
{
  size_t i;
  for (i = 0; i < set->n; i++)
    if (strcmp (set->items[i].entry->name, name) == 0)
      return true;
  return false;
}

static int
add_checked (struct entitle_set_s *set, struct entitle_request_s *req, const char *source,
             entitle_error_t *err)
{
  const struct entitle_request_s *other = NULL;
  int ret = 0;

  if (req->entry->rung > 0)
    other = entitle_set_rung (set, req->entry->domain);
  if (other && other->entry != req->entry)
    ret = entitle_make_error (err, EINVAL, "conflicting entitlements `%s` and `%s` in %s: one %s rung only",
                              other->entry->name, req->entry->name, source,
                              entitle_domain_name (req->entry->domain));
  else
    entitle_set_add (set, req);
  free (req->value);
  return ret;
}

/* The built-in modifiers @req's row stands for (a custom row's `egress`,
   `ingress`, `bind`), added as @source asked for them: floors,
   contradictions and fills then hold for them as for any request.  They
   were parsed when the admin config was loaded; their rows are looked up
   in @cat, as every other request of the set: one row, one address.  */
static int
add_implied (const struct entitle_catalogue_s *cat, const struct entitle_request_s *req, const char *source,
             struct entitle_set_s *set, entitle_error_t *err)
{
  size_t i;

  for (i = 0; i < req->entry->n_implies; i++)
    {
      const struct entitle_implied_s *imp = &req->entry->implies[i];
      struct entitle_request_s r = { entitle_catalogue_find (cat, imp->entry->name, strlen (imp->entry->name)),
                                     xstrdup (imp->value), imp->v, ENTITLE_SOURCE_NONE };
      int ret = add_checked (set, &r, source, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  return 0;
}

/* DESIGN §7: commas and whitespace both separate entitlements (Podman's
   --annotation splits its value on commas, so "a b" must work too).  */
static bool
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* The entitlements in @list: runs of characters that are neither commas
   nor whitespace.  */
static size_t
count_items (const char *list)
{
  size_t n = 0;
  bool in = false;

  for (; *list; list++)
    {
      bool sep = *list == ',' || is_space (*list);
      n += !sep && !in;
      in = !sep;
    }
  return n;
}

/* Parse the entitlements of @list into @set.  Between two commas (or a
   comma and an end) there must be at least one; with @may_be_empty, a
   list without commas may hold none.  */
static int
parse_items (const struct entitle_catalogue_s *cat, const char *list, bool may_be_empty, const char *source,
             struct entitle_set_s *set, entitle_error_t *err)
{
  bool commas = strchr (list, ',') != NULL;
  const char *part = list;

  for (;;)
    {
      const char *end = strchr (part, ',');
      const char *stop = end ? end : part + strlen (part);
      const char *p = part;
      size_t n = 0;

      for (;;)
        {
          struct entitle_request_s req;
          const char *q;
          int ret;

          while (p < stop && is_space (*p))
            p++;
          if (p == stop)
            break;
          for (q = p; q < stop && !is_space (*q); q++)
            ;
          ret = entitle_parse_one (cat, p, (size_t)(q - p), &req, err);
          if (UNLIKELY (ret < 0))
            return entitle_error_wrap (err, "%s", source);
          ret = add_implied (cat, &req, source, set, err);
          if (ret == 0)
            ret = add_checked (set, &req, source, err);
          else
            free (req.value);
          if (UNLIKELY (ret < 0))
            return ret;
          n++;
          p = q;
        }
      if (n == 0 && (commas || !may_be_empty))
        {
          /* The list may be long: show its start.  */
          size_t llen = strlen (list);
          cleanup_free char *l = printable (list, llen > 128 ? 128 : llen);
          return entitle_make_error (err, EINVAL, "empty entitlement in %s `%s%s`", source, l,
                                     llen > 128 ? "..." : "");
        }
      if (end == NULL)
        return 0;
      part = end + 1;
    }
}

int
entitle_parse_list (const struct entitle_catalogue_s *cat, const char *list, const char *source,
                    struct entitle_set_s *set, entitle_error_t *err)
{
  size_t items = count_items (list);

  if (items > MAX_ENTITLEMENT_ITEMS)
    return entitle_make_error (err, E2BIG, "%s: %zu entitlements, more than %d", source, items,
                               MAX_ENTITLEMENT_ITEMS);
  /* An empty annotation asks for nothing.  */
  return parse_items (cat, list, true, source, set, err);
}

int
entitle_parse_strv (const struct entitle_catalogue_s *cat, char *const *list, const char *source,
                    struct entitle_set_s *set, entitle_error_t *err)
{
  char *const *l;
  size_t items = 0;

  for (l = list; *l; l++)
    items += count_items (*l);
  if (items > MAX_ENTITLEMENT_ITEMS)
    return entitle_make_error (err, E2BIG, "%s: %zu entitlements, more than %d", source, items,
                               MAX_ENTITLEMENT_ITEMS);
  for (l = list; *l; l++)
    {
      int ret = parse_items (cat, *l, false, source, set, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  return 0;
}

char *
entitle_request_format (const struct entitle_request_s *req)
{
  char *s;
  xasprintf (&s, "%s%s%s", req->entry->name, req->value ? "=" : "", req->value ? req->value : "");
  return s;
}

char *
entitle_implied_format (const struct entitle_implied_s *imp)
{
  const struct entitle_request_s r = { .entry = imp->entry, .value = (char *)imp->value };
  return entitle_request_format (&r);
}

bool
entitle_implied_is (const struct entitle_implied_s *imp, const struct entitle_request_s *req)
{
  const struct entitle_request_s r = { .entry = imp->entry, .value = (char *)imp->value };
  return compare_request (&r, req) == 0;
}

char *
entitle_set_format (const struct entitle_set_s *set)
{
  size_t i, len = 1;
  char *s, *p;

  for (i = 0; i < set->n; i++)
    len += strlen (set->items[i].entry->name) + 2
           + (set->items[i].value ? strlen (set->items[i].value) : 0);
  s = p = xmalloc (len);
  *p = '\0';
  for (i = 0; i < set->n; i++)
    p += sprintf (p, "%s%s%s%s", i ? "," : "", set->items[i].entry->name,
                  set->items[i].value ? "=" : "", set->items[i].value ? set->items[i].value : "");
  return s;
}

void
entitle_set_stamp (struct entitle_set_s *set, enum entitle_source source)
{
  size_t i;
  for (i = 0; i < set->n; i++)
    if (set->items[i].source == ENTITLE_SOURCE_NONE)
      set->items[i].source = source;
}

char *
entitle_set_format_sources (const struct entitle_set_s *set)
{
  size_t i, len = 1;
  char *s, *p;

  for (i = 0; i < set->n; i++)
    if (entitle_source_key (set->items[i].source))
      len += strlen (entitle_source_key (set->items[i].source)) + strlen (set->items[i].entry->name) + 3
             + (set->items[i].value ? strlen (set->items[i].value) : 0);
  s = p = xmalloc (len);
  *p = '\0';
  for (i = 0; i < set->n; i++)
    {
      const struct entitle_request_s *r = &set->items[i];
      if (entitle_source_key (r->source))
        p += sprintf (p, "%s%s:%s%s%s", p == s ? "" : ",", entitle_source_key (r->source), r->entry->name,
                      r->value ? "=" : "", r->value ? r->value : "");
    }
  return s;
}

void
entitle_set_free (struct entitle_set_s *set)
{
  size_t i;
  for (i = 0; i < set->n; i++)
    free (set->items[i].value);
  free (set->items);
  set->items = NULL;
  set->n = 0;
}
