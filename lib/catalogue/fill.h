/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_FILL_H
#define ENTITLE_FILL_H

#include "catalogue.h"
#include "error.h"
#include "policy.h"

/* The fill functions of the catalogue's rows (entitle_bpf_fill_fn): each
   puts a row's parsed value into the table of the policy its
   program reads, once; a table that is full is an error (E2BIG) naming
   the entitlement and the limit.  */
int entitle_bpf_fill_egress (struct entitle_policy *policy, const struct entitle_entry_s *e, const union entitle_value_u *v, entitle_error_t *err);
int entitle_bpf_fill_ingress (struct entitle_policy *policy, const struct entitle_entry_s *e, const union entitle_value_u *v,
                              entitle_error_t *err);
int entitle_bpf_fill_bind (struct entitle_policy *policy, const struct entitle_entry_s *e, const union entitle_value_u *v, entitle_error_t *err);
int entitle_bpf_fill_bind_map (struct entitle_policy *policy, const struct entitle_entry_s *e, const union entitle_value_u *v,
                               entitle_error_t *err);

#endif
