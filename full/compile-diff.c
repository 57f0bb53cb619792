/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compile-diff.h"
#include "utils.h"

/* An array difference of more scalars than this is summarised: a diff
   line a scalar, and the seccomp profile's names are some 400.  */
#define LONG_DIFF 40

/* Names shown of a summarised list.  */
#define SHOWN 6

/* Items of @a that @b has no equal of (jq's `$a - $b`).  */
static bool
only_in (const json_t *item, const json_t *b)
{
  size_t i;

  for (i = 0; b && i < b->n; i++)
    if (json_equal (item, b->items[i]))
      return false;
  return true;
}

static size_t
scalars (const json_t *v)
{
  size_t i, n = 0;

  if (v->type != JSON_OBJECT && v->type != JSON_ARRAY)
    return 1;
  for (i = 0; i < v->n; i++)
    n += scalars (v->items[i]);
  return n;
}

/* What one side's different items come to.  */
struct side_s
{
  size_t items, names, weight;
  const char *shown[SHOWN];
};

static void
add_name (struct side_s *s, const json_t *v)
{
  if (v->type != JSON_STRING)
    return;
  if (s->names < SHOWN)
    s->shown[s->names] = v->text;
  s->names++;
}

/* The items of @a not in @b: how many, and their names (a string item
   is one, a seccomp rule has its "names").  */
static void
side (const json_t *a, const json_t *b, struct side_s *s)
{
  size_t i, k;

  memset (s, 0, sizeof (*s));
  for (i = 0; a && i < a->n; i++)
    {
      const json_t *item = a->items[i], *names = json_get (item, "names");

      if (!only_in (item, b))
        continue;
      s->items++;
      s->weight += scalars (item);
      if (item->type == JSON_OBJECT && names && names->type == JSON_ARRAY)
        for (k = 0; k < names->n; k++)
          add_name (s, names->items[k]);
      else
        add_name (s, item);
    }
}

static void
print_side (FILE *out, char sign, const struct side_s *s, const char *key, bool first)
{
  size_t i, shown = s->names < SHOWN ? s->names : SHOWN;
  bool rules = strcmp (key, "syscalls") == 0;

  if (s->items == 0)
    return;
  fprintf (out, "%s%c%zu%s", first ? "" : ", ", sign, s->items, rules ? (s->items == 1 ? " rule" : " rules") : "");
  if (s->names == 0)
    return;
  fprintf (out, " (");
  if (rules)
    fprintf (out, "%zu name%s: ", s->names, s->names == 1 ? "" : "s");
  for (i = 0; i < shown; i++)
    fprintf (out, "%s%s", i ? ", " : "", s->shown[i]);
  if (s->names > shown)
    fprintf (out, ", \xe2\x80\xa6 and %zu more", s->names - shown);
  fprintf (out, ")");
}

/* The array @key, @a before (or missing) and @b after: told when its
   difference is long.  */
static bool
array (const char *path, const char *key, const json_t *a, const json_t *b, FILE *out)
{
  struct side_s minus, plus;

  side (a, b, &minus);
  side (b, a, &plus);
  if (minus.weight + plus.weight <= LONG_DIFF)
    return false;
  fprintf (out, "%s%s: ", path, key);
  print_side (out, '-', &minus, key, true);
  print_side (out, '+', &plus, key, minus.items == 0);
  fprintf (out, "; --diff --full for all\n");
  return true;
}

/* Array member @i of @after back to @a, in its place (the node keeps
   its key), or removed when @a is missing.  */
static void
restore (json_t *after, size_t i, const json_t *a)
{
  if (a == NULL)
    {
      json_remove_at (after, i);
      return;
    }
  while (after->items[i]->n > 0)
    json_remove_at (after->items[i], after->items[i]->n - 1);
  for (size_t k = 0; k < a->n; k++)
    json_push (after->items[i], json_clone (a->items[k]));
}

static bool
is (const json_t *v, enum json_type type)
{
  return v == NULL || v->type == type;
}

static size_t
walk (const char *path, const json_t *before, json_t *after, FILE *out)
{
  size_t i, n = 0;

  for (i = 0; i < after->n; i++)
    {
      const char *key = after->keys[i];
      const json_t *a = json_get (before, key);
      json_t *b = after->items[i];
      cleanup_free char *sub = NULL;

      if (json_get (after, key) != b || json_equal (a, b))
        continue; /* a duplicate key: only the last counts */
      if (b->type == JSON_OBJECT && is (a, JSON_OBJECT))
        {
          xasprintf (&sub, "%s%s.", path, key);
          n += walk (sub, a, b, out);
        }
      else if (b->type == JSON_ARRAY && is (a, JSON_ARRAY) && array (path, key, a, b, out))
        {
          restore (after, i, a);
          i -= a == NULL;
          n++;
        }
    }
  return n;
}

char *
shim_diff_summary (const json_t *before, json_t *after)
{
  char *text = NULL;
  size_t len = 0, n = 0;
  FILE *out = open_memstream (&text, &len);

  if (out == NULL)
    abort ();
  if (before->type == JSON_OBJECT && after->type == JSON_OBJECT)
    n = walk ("", before, after, out);
  if (fclose (out) != 0)
    abort ();
  if (n == 0)
    free (get_and_reset (&text));
  return text;
}
