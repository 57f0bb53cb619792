/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_STRSET_H
#define ENTITLE_STRSET_H

#include <stdbool.h>
#include <stddef.h>

/* A set of strings by pointer and length (the strings are not copied: they
   must outlive the set), for the compiler's and the trust rule's "is this
   syscall name among those" over a profile's few hundred names.  Open
   addressing, at most half full (it grows).  */
struct entitle_strset_s
{
  const char **key;
  size_t *len;
  size_t mask, count;
};

/** An empty set with room for @n strings before it grows.  */
void entitle_strset_init (struct entitle_strset_s *s, size_t n);

/** Add @str (@len bytes) unless it is there; returns true when it was not.  */
bool entitle_strset_add (struct entitle_strset_s *s, const char *str, size_t len);

bool entitle_strset_has (const struct entitle_strset_s *s, const char *str, size_t len);

void entitle_strset_free (struct entitle_strset_s *s);
#define cleanup_strset __attribute__ ((cleanup (entitle_strset_free)))

#endif
