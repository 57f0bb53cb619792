/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_ENTITLEMENTS_H
#define ENTITLE_ENTITLEMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include "catalogue.h"
#include "error.h"
#include "source.h"

/* One entitlement as written: a catalogue row and its value, parsed once
   by the row's value kind.  */
struct entitle_request_s
{
  const struct entitle_entry_s *entry;
  char *value;                /**< after the first `=`, as written, or NULL */
  union entitle_value_u v;    /**< the value parsed (entry->value's kind); zero without one */
  enum entitle_source source; /**< where it came from (entitle_set_stamp); NONE when not said */
};

/* A set of entitlements, kept sorted by name then value.  */
struct entitle_set_s
{
  struct entitle_request_s *items;
  size_t n;
};

/** Is @s (@len bytes) a name: components [a-z0-9]+(-[a-z0-9]+)*, two or
    more, joined by dots?  */
bool entitle_valid_name (const char *s, size_t len);

/**
 * Parse one entitlement of @len bytes at @s: split on the first `=`, then
 * check the name's components and look it up in @cat (NULL: the built-in
 * rows; else the admin config's, custom rows included).
 */
int entitle_parse_one (const struct entitle_catalogue_s *cat, const char *s, size_t len,
                       struct entitle_request_s *out, entitle_error_t *err);

/**
 * Parse the comma-separated @list into @set.  Two rungs of one ladder are an
 * error naming both, @source saying where they came from.  A row that
 * implies built-in modifiers (a custom row's `egress`) brings them along,
 * as asked for by the same source.
 */
int entitle_parse_list (const struct entitle_catalogue_s *cat, const char *list, const char *source,
                        struct entitle_set_s *set, entitle_error_t *err);

/** Parse each string of the NULL-terminated @list (admin config lists). */
int entitle_parse_strv (const struct entitle_catalogue_s *cat, char *const *list, const char *source,
                        struct entitle_set_s *set, entitle_error_t *err);

/** Add a copy of @req unless it is there already. */
void entitle_set_add (struct entitle_set_s *set, const struct entitle_request_s *req);

/** The rung @set holds in @domain, or NULL. */
const struct entitle_request_s *entitle_set_rung (const struct entitle_set_s *set,
                                                  enum entitle_domain domain);

/** True when @set holds the row named @name. */
bool entitle_set_has (const struct entitle_set_s *set, const char *name);

/** Say that every item of @set without a source came from @source. */
void entitle_set_stamp (struct entitle_set_s *set, enum entitle_source source);

/** "KEY:a,KEY:c=v": each item of @set with its source's key (items
    without one left out), in the set's order, malloc'd.  */
char *entitle_set_format_sources (const struct entitle_set_s *set);

/** "a,b,c=v": the sorted list, malloc'd. */
char *entitle_set_format (const struct entitle_set_s *set);

/** "a" or "a=v" for one request, malloc'd. */
char *entitle_request_format (const struct entitle_request_s *req);

/** "a=v" for a modifier a custom row implies, malloc'd. */
char *entitle_implied_format (const struct entitle_implied_s *imp);

/** Is @req the modifier @imp (the same row, the same value as written)? */
bool entitle_implied_is (const struct entitle_implied_s *imp, const struct entitle_request_s *req);

void entitle_set_free (struct entitle_set_s *set);

static inline void
cleanup_entitle_setp (struct entitle_set_s *s)
{
  entitle_set_free (s);
}
#define cleanup_entitle_set __attribute__ ((cleanup (cleanup_entitle_setp)))

#endif
