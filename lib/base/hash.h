/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_HASH_H
#define ENTITLE_HASH_H

#include <stdint.h>

/* FNV-1a, 64 bits: names of files and keys that must stay the same
   across versions (what a hash names on disk is an interface).  */
#define ENTITLE_FNV_OFFSET 14695981039346656037ull

/** @h folded with the bytes of the string @s (no terminator).  */
static inline uint64_t
entitle_fnv_str (uint64_t h, const char *s)
{
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

#endif
