/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdint.h>
#include <string.h>
#include "closest.h"

/* The longest name a hint is looked for: far more than any row's or
   key's.  */
#define CLOSEST_MAX 64

/* Edits from @a to @b, kept in three rows.  */
static size_t
edit_distance (const char *a, size_t alen, const char *b)
{
  size_t rows[3][CLOSEST_MAX + 1], blen = strlen (b), i, j;

  if (blen > CLOSEST_MAX)
    return SIZE_MAX;
  for (j = 0; j <= blen; j++)
    rows[0][j] = j;
  for (i = 1; i <= alen; i++)
    {
      size_t *cur = rows[i % 3], *prev = rows[(i - 1) % 3], *prev2 = rows[(i + 1) % 3];
      cur[0] = i;
      for (j = 1; j <= blen; j++)
        {
          size_t cost = a[i - 1] != b[j - 1], d = prev[j - 1] + cost;
          if (prev[j] + 1 < d)
            d = prev[j] + 1;
          if (cur[j - 1] + 1 < d)
            d = cur[j - 1] + 1;
          if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
            d = prev2[j - 2] + 1;
          cur[j] = d;
        }
    }
  return rows[alen % 3][blen];
}

void
entitle_closest_init (struct entitle_closest_s *c, const char *name, size_t len)
{
  c->name = name;
  c->len = len;
  c->best_d = len < 10 ? 2 : len / 5;
  c->best = NULL;
}

bool
entitle_closest_consider (struct entitle_closest_s *c, const char *candidate)
{
  size_t d;

  if (c->len > CLOSEST_MAX)
    return false;
  d = edit_distance (c->name, c->len, candidate);
  if (d > c->best_d || (c->best && d >= c->best_d))
    return false;
  c->best = candidate;
  c->best_d = d;
  return true;
}
