/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A unified diff of two texts, for `entitle configure --dry-run`: lines
 * matched by their longest common subsequence, hunks of three lines of
 * context, as diff -u prints them.
 */
#include <config.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff.h"
#include "utils.h"

#define CONTEXT 3

/* Past this many cells (lines of one side times lines of the other, once
   the common head and tail are set aside), the middle is one hunk.  */
#define MAX_CELLS (4u * 1024 * 1024)

struct lines
{
  const char **at; /* each line's start */
  size_t *len;     /* its length, line end included */
  size_t n;
};

struct out
{
  char *data;
  size_t len, cap;
};

static void
out_add (struct out *o, const char *s, size_t n)
{
  if (o->len + n + 1 > o->cap)
    {
      o->cap = (o->len + n + 1) * 2;
      o->data = xrealloc (o->data, o->cap);
    }
  memcpy (o->data + o->len, s, n);
  o->len += n;
  o->data[o->len] = '\0';
}

static void
split_lines (const char *text, size_t len, struct lines *l)
{
  const char *p = text, *end = text + len;
  size_t cap = 16;

  l->n = 0;
  l->at = xmalloc (cap * sizeof (*l->at));
  l->len = xmalloc (cap * sizeof (*l->len));
  while (p < end)
    {
      const char *nl = memchr (p, '\n', (size_t)(end - p));
      size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
      if (l->n == cap)
        {
          cap *= 2;
          l->at = xrealloc (l->at, cap * sizeof (*l->at));
          l->len = xrealloc (l->len, cap * sizeof (*l->len));
        }
      l->at[l->n] = p;
      l->len[l->n++] = n;
      p += n;
    }
}

static bool
same (const struct lines *a, size_t i, const struct lines *b, size_t j)
{
  return a->len[i] == b->len[j] && memcmp (a->at[i], b->at[j], a->len[i]) == 0;
}

/* The edit script: for each step, ' ' (both), '-' (a only) or '+' (b
   only), NUL-terminated.  */
static char *
edit_script (const struct lines *a, const struct lines *b)
{
  size_t head = 0, tail = 0, n, m, i, j, k = 0;
  char *ops = xmalloc (a->n + b->n + 1);
  unsigned *lcs = NULL;
  while (head < a->n && head < b->n && same (a, head, b, head))
    head++;
  while (tail < a->n - head && tail < b->n - head && same (a, a->n - 1 - tail, b, b->n - 1 - tail))
    tail++;
  n = a->n - head - tail;
  m = b->n - head - tail;
  if (n * m <= MAX_CELLS)
    lcs = calloc ((n + 1) * (m + 1), sizeof (*lcs));
#define L(x, y) lcs[(x) * (m + 1) + (y)]
  for (i = n; lcs && i-- > 0;)
    for (j = m; j-- > 0;)
      L (i, j) = same (a, head + i, b, head + j) ? L (i + 1, j + 1) + 1
                 : L (i + 1, j) >= L (i, j + 1)  ? L (i + 1, j)
                                                 : L (i, j + 1);
  memset (ops, ' ', head);
  k = head;
  for (i = 0, j = 0; i < n || j < m;)
    if (lcs && i < n && j < m && same (a, head + i, b, head + j))
      ops[k++] = ' ', i++, j++;
    else if (i < n && (j == m || lcs == NULL || L (i + 1, j) >= L (i, j + 1)))
      ops[k++] = '-', i++;
    else
      ops[k++] = '+', j++;
#undef L
  memset (ops + k, ' ', tail);
  ops[k + tail] = '\0';
  free (lcs);
  return ops;
}

static void
add_line (struct out *o, char op, const struct lines *l, size_t i)
{
  out_add (o, &op, 1);
  out_add (o, l->at[i], l->len[i]);
  if (l->len[i] == 0 || l->at[i][l->len[i] - 1] != '\n')
    out_add (o, "\n\\ No newline at end of file\n", 30);
}

/* The hunk of the steps [@s, @e) of @ops; @i and @j the lines of a and b
   at @s.  */
static void
add_hunk (struct out *o, const char *ops, size_t s, size_t e, size_t i, size_t j, const struct lines *a,
          const struct lines *b)
{
  size_t na = 0, nb = 0, k;
  char head[96];

  for (k = s; k < e; k++)
    na += ops[k] != '+', nb += ops[k] != '-';
  snprintf (head, sizeof head, "@@ -%zu,%zu +%zu,%zu @@\n", na ? i + 1 : i, na, nb ? j + 1 : j, nb);
  out_add (o, head, strlen (head));
  for (k = s; k < e; k++)
    if (ops[k] == ' ')
      add_line (o, ' ', a, i++), j++;
    else if (ops[k] == '-')
      add_line (o, '-', a, i++);
    else
      add_line (o, '+', b, j++);
}

static void
add_hunks (struct out *o, const char *ops, const struct lines *a, const struct lines *b)
{
  size_t n = strlen (ops), k = 0, i = 0, j = 0;

  while (k < n)
    {
      size_t s, e, run, ci, cj;
      if (ops[k] == ' ')
        {
          k++, i++, j++;
          continue;
        }
      s = k > CONTEXT ? k - CONTEXT : 0;
      ci = i - (k - s);
      cj = j - (k - s);
      /* Changes closer than twice the context share a hunk.  */
      for (e = k; e < n;)
        {
          for (run = 0; e + run < n && ops[e + run] == ' '; run++)
            ;
          if (e + run == n || run > 2 * CONTEXT)
            {
              e += run < CONTEXT ? run : CONTEXT;
              break;
            }
          e += run;
          while (e < n && ops[e] != ' ')
            e++;
        }
      add_hunk (o, ops, s, e, ci, cj, a, b);
      for (; k < e; k++)
        i += ops[k] != '+', j += ops[k] != '-';
    }
}

char *
entitle_unified_diff (const char *name, const char *a, size_t alen, const char *b, size_t blen)
{
  struct lines la, lb;
  struct out o = { 0 };
  cleanup_free char *ops = NULL;

  out_add (&o, "", 0);
  if (alen == blen && memcmp (a, b, alen) == 0)
    return o.data;
  split_lines (a, alen, &la);
  split_lines (b, blen, &lb);
  ops = edit_script (&la, &lb);
  out_add (&o, "--- ", 4);
  out_add (&o, name, strlen (name));
  out_add (&o, "\n+++ ", 5);
  out_add (&o, name, strlen (name));
  out_add (&o, "\n", 1);
  add_hunks (&o, ops, &la, &lb);
  free (la.at);
  free (la.len);
  free (lb.at);
  free (lb.len);
  return o.data;
}
