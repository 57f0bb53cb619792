/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CAP_USE_H
#define ENTITLE_CAP_USE_H

#include <stdbool.h>
#include <stddef.h>
#include "catalogue.h"

/* A capability check entitle learn saw (bpf/progs/caps.bpf.c), read
   against the catalogue rows only: what takes the capability away
   (cap_drop, or a cap_keep without it), what gives it (cap_add).  No list
   here is keyed by an entitlement's or a capability's name.  */

struct entitle_cap_use_s
{
  int cap;      /**< the capability's number (CAP_NET_ADMIN is 12) */
  bool granted; /**< held: the check let the call go on */
  int syscall;  /**< the native syscall number it came from, -1 when not known */
};

/** "CAP_NET_ADMIN" for @cap into @buf (libcap's names).  */
void entitle_cap_name (int cap, char *buf, size_t len);

/** @c for people into @buf: "CAP_NET_ADMIN used by ioctl()", "CAP_SYS_ADMIN
    asked for by mount(), refused in the run".  */
void entitle_cap_use_describe (const struct entitle_cap_use_s *c, char *buf, size_t len);

/** Does entitle learn propose a rung of @domain (its narrowest rung carries
    POL_* bits: the counting programs watch it)?  */
bool entitle_ladder_proposed (enum entitle_domain domain);

/**
 * The row that gives capability @cap (by name) to a container the engine
 * gave none: of the rows that add it (exact-grant rows left out), a rung
 * of a ladder entitle learn proposes first, then any other, each time the
 * one that adds the fewest capabilities.  NULL where no row adds it.
 */
const struct entitle_entry_s *entitle_cap_giver (const char *cap);

/**
 * Does a row other than a rung of @domain give @cap: one of @chosen (the
 * rows proposed so far) of another ladder adds it, or its giver is a row
 * entitle learn proposes for it alone (a modifier, a rung of a ladder it
 * does not propose)?
 */
bool entitle_cap_given (const char *cap, enum entitle_domain domain, const struct entitle_entry_s *const *chosen,
                        size_t n_chosen);

/**
 * Would the rung @e, in force beside @chosen, make use @c fail: a granted
 * check of a capability @e takes away and nothing else gives, or a
 * refused one where @e is a rung of the giver's ladder that does not add
 * it?  How, for people, into @how.
 */
bool entitle_entry_denies_cap (const struct entitle_entry_s *e, const struct entitle_cap_use_s *c,
                               const struct entitle_entry_s *const *chosen, size_t n_chosen, char *how, size_t len);

/**
 * Does use @c make entitle learn propose @r, the giver of its capability
 * where that is a modifier or a rung of a ladder learn does not propose:
 * refused in the run, or granted and taken away by one of @chosen?  The
 * evidence, for people, into @why.
 */
bool entitle_cap_needs_giver (const struct entitle_cap_use_s *c, const struct entitle_entry_s *r,
                              const struct entitle_entry_s *const *chosen, size_t n_chosen, char *why, size_t len);

#endif
