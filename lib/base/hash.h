/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_HASH_H
#define ENTITLE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a, 64 bits, the one definition in the tree: names of files and
   keys that must stay the same across versions (what a hash names on
   disk is an interface: pending marks, made marks, custom definitions'
   digests, custom Checmate pins, the seed build) and the slots of the
   in-memory string sets.  No BPF program hashes this way, so no kernel
   side copy exists.  */
#define ENTITLE_FNV_OFFSET 14695981039346656037ull
#define ENTITLE_FNV_PRIME  1099511628211ull

/** @h folded with the @len bytes at @p.  */
static inline uint64_t
entitle_fnv_bytes (uint64_t h, const void *p, size_t len)
{
  const unsigned char *c = p;
  size_t i;

  for (i = 0; i < len; i++)
    h = (h ^ c[i]) * ENTITLE_FNV_PRIME;
  return h;
}

/** @h folded with the bytes of the string @s (no terminator).  */
static inline uint64_t
entitle_fnv_str (uint64_t h, const char *s)
{
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * ENTITLE_FNV_PRIME;
  return h;
}

#endif
