/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include "go-fold.h"

/* The unit of @s at *@i, folded: an ASCII letter in upper case, U+017F
   (UTF-8 C5 BF) as 'S', U+212A (E2 84 AA) as 'K', any other byte as
   itself (a continuation byte is never C5 or E2, so a sequence is only
   ever seen from its start); *@i moves past it.  0 at the end.  */
static int
fold_next (const unsigned char *s, unsigned long *i)
{
  unsigned char c = s[*i];

  if (c == 0)
    return 0;
  if (c == 0xc5 && s[*i + 1] == 0xbf)
    {
      *i += 2;
      return 'S';
    }
  if (c == 0xe2 && s[*i + 1] == 0x84 && s[*i + 2] == 0xaa)
    {
      *i += 3;
      return 'K';
    }
  (*i)++;
  return c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c;
}

int
entitle_go_fold_cmp (const char *a, const char *b)
{
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  unsigned long i = 0, j = 0;

  for (;;)
    {
      int c = fold_next (x, &i), d = fold_next (y, &j);
      if (c != d || c == 0)
        return c - d;
    }
}
