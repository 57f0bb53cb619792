/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "utils.h"
#include "strset.h"

static size_t
hash (const char *s, size_t len)
{
  return entitle_fnv_bytes (ENTITLE_FNV_OFFSET, s, len);
}

void
entitle_strset_init (struct entitle_strset_s *s, size_t n)
{
  size_t size = 16;

  while (size < 2 * n)
    size *= 2;
  s->mask = size - 1;
  s->count = 0;
  s->key = xcalloc (size, sizeof (*s->key));
  s->len = xcalloc (size, sizeof (*s->len));
}

/* The slot of @str, or the empty one where it would go.  */
static size_t
slot (const struct entitle_strset_s *s, const char *str, size_t len)
{
  size_t i = hash (str, len) & s->mask;
  while (s->key[i] && !(s->len[i] == len && memcmp (s->key[i], str, len) == 0))
    i = (i + 1) & s->mask;
  return i;
}

static void
grow (struct entitle_strset_s *s)
{
  struct entitle_strset_s bigger;
  size_t i;

  entitle_strset_init (&bigger, s->mask + 1);
  for (i = 0; i <= s->mask; i++)
    if (s->key[i])
      entitle_strset_add (&bigger, s->key[i], s->len[i]);
  entitle_strset_free (s);
  *s = bigger;
}

bool
entitle_strset_add (struct entitle_strset_s *s, const char *str, size_t len)
{
  size_t i = slot (s, str, len);

  if (s->key[i])
    return false;
  s->key[i] = str;
  s->len[i] = len;
  if (++s->count * 2 > s->mask + 1)
    grow (s);
  return true;
}

bool
entitle_strset_has (const struct entitle_strset_s *s, const char *str, size_t len)
{
  return s->key[slot (s, str, len)] != NULL;
}

void
entitle_strset_free (struct entitle_strset_s *s)
{
  free (s->key);
  free (s->len);
  s->key = NULL;
  s->len = NULL;
}
