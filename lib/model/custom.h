/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CUSTOM_H
#define ENTITLE_CUSTOM_H

#include "catalogue.h"
#include "error.h"
#include "json.h"

/* Custom entitlements (entitle.json(5), `entitlements`): the admin's own
   rows, built when the admin config is loaded, of the same kind as the
   built-in ones, so that the resolver, the trust rule, the compiler, the
   BPF plan and explain treat them alike.  This part needs libc only;
   what needs libseccomp and libcap (lib/compile/custom-check.c) or libbpf
   (bpf/custom-progs.c) is checked by entitle-full.  The front leaves the
   rows unbuilt (it resolves no entitlement).  */

/* A custom entitlement's name has a vendor: at least three components,
   the first two the vendor's domain (`example.com.no-debug`).  */
#define ENTITLE_CUSTOM_MIN_COMPONENTS 3
/* Words of per-container data a row may give its programs
   (bpf/progs/entitle-data.h).  */
#define ENTITLE_CUSTOM_DATA_MAX 16
/* Custom rows one config may define, and programs one row may attach.  */
#define ENTITLE_CUSTOM_MAX       64
#define ENTITLE_CUSTOM_MAX_PROGS 8

/**
 * Build the custom rows of @v (the `entitlements` object of the admin
 * config at @path) into @cat, merged with the built-in ones.  A name
 * without a vendor, one in a built-in domain, an unknown field, a value of
 * the wrong form: one line naming the entitlement and the problem.
 */
int entitle_custom_parse (struct entitle_catalogue_s *cat, const char *path, const json_t *v, entitle_error_t *err);

/** Is @e a custom row?  */
static inline bool
entitle_entry_custom (const struct entitle_entry_s *e)
{
  return e->custom != NULL;
}

#endif
