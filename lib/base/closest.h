/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CLOSEST_H
#define ENTITLE_CLOSEST_H

#include <stdbool.h>
#include <stddef.h>

/* "did you mean": the candidate closest to a name that is none of them,
   when one is close enough to be a typo: two edits, or one in five
   letters of a longer name (`security.confinement`).  Edits are the
   optimal string alignment distance: insert, delete, replace, swap two
   neighbours.  */
struct entitle_closest_s
{
  const char *name;
  size_t len;
  size_t best_d;
  const char *best; /**< the closest candidate so far, or NULL */
};

/** Start looking for the candidate closest to the @len bytes at @name. */
void entitle_closest_init (struct entitle_closest_s *c, const char *name, size_t len);

/** Weigh @candidate: true when it is the closest so far (c->best).  */
bool entitle_closest_consider (struct entitle_closest_s *c, const char *candidate);

#endif
