/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_PLAN_H
#define ENTITLE_BPF_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include "entitlements.h"
#include "error.h"
#include "json.h"
#include "policy.h"

/* What the cgroup programs must enforce for one container, computed from
   its final set of entitlements and its config (no libbpf here: the hook
   writes the plan into the kernel, the shim checks it before the runtime
   starts anything).  */

struct entitle_bpf_plan_s
{
  struct entitle_policy policy;    /**< the cgroup's storage value */
  unsigned attach;                 /**< the programs to attach (ATTACH_BIT mask) */
  unsigned custom;                 /**< the cgroup points of the admin's programs to attach */
  bool checmate;                   /**< the admin's programs include one at a Checmate hook */
  const struct entitle_set_s *set; /**< the set planned for (its custom rows hold those programs) */
};

/**
 * Build the plan for @set and @sysctls (the config's linux.sysctl keys,
 * NULL-terminated, or NULL: entitle_sysctl_keys).  Returns 1 when there is
 * something to enforce, 0 when not, or a negative error when the request
 * is beyond what the programs hold (more rules, ranges or keys than
 * bpf/progs/policy.h allows): bad input, refused whatever
 * `on_unenforceable` says.
 */
int entitle_bpf_plan (struct entitle_bpf_plan_s *plan, const struct entitle_set_s *set, char *const *sysctls,
                      entitle_error_t *err);

/** The linux.sysctl keys of @spec, in its order (malloc'd, NULL-terminated). */
char **entitle_sysctl_keys (const json_t *spec);

/**
 * The entitlements of @set whose cgroup programs include one of @attach,
 * quoted for a message ("`a`, `b`"; malloc'd).
 */
char *entitle_bpf_quote (const struct entitle_set_s *set, unsigned attach);

/** The programs @set needs (ATTACH_BIT mask).  */
unsigned entitle_bpf_needed (const struct entitle_set_s *set);

/** The cgroup points the admin's programs of @e attach at (ATTACH_BIT
    mask); its seed interface programs are not counted.  */
unsigned entitle_bpf_custom_points (const struct entitle_entry_s *e);

/** Has @e a part that is not an admin program at a seed interface
    (Checmate, eBPF seccomp), which this host may lack?  */
bool entitle_bpf_beyond_seed (const struct entitle_entry_s *e);

/** Does the plan of @set read the config's linux.sysctl keys (the sysctl
    program lets the runtime write those)?  */
bool entitle_bpf_reads_sysctls (const struct entitle_set_s *set);

#endif
