/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_PLAN_H
#define ENTITLE_BPF_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include "error.h"
#include "json.h"
#include "policy.h"

/* What the cgroup programs must enforce for one container, computed from
   its applied entitlements and its config (no libbpf here: the hook writes
   the plan into the maps).  */

struct entitle_egress_rule_s
{
  int family; /**< AF_INET or AF_INET6 */
  unsigned char addr[16];
  unsigned len;
  struct entitle_ports ports; /**< its own ports and those of every covering rule */
};

struct entitle_bpf_plan_s
{
  struct entitle_policy policy; /**< cgroup_id is set by the hook */
  struct entitle_egress_rule_s *egress;
  size_t n_egress;
  char **sysctls;  /**< keys the config sets, as "net/ipv4/ip_forward" */
  char **needs;    /**< the applied entitlements that need cgroup BPF */
  unsigned attach; /**< PROBE_CG_* programs to attach */
};

/**
 * Build the plan for @applied (NULL-terminated, as io.entitle.applied
 * lists it) and @spec (the config.json, for linux.sysctl).  Returns 1 when
 * there is something to enforce, 0 when not, or a negative error.
 */
int entitle_bpf_plan (struct entitle_bpf_plan_s *plan, char *const *applied, const json_t *spec,
                      entitle_error_t *err);

void entitle_bpf_plan_free (struct entitle_bpf_plan_s *plan);

#endif
