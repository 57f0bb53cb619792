/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_HOOK_H
#define ENTITLE_HOOK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "context.h"
#include "json.h"
#include "probe.h"

/* entitle-hook: the OCI hook that gives each container its cgroup BPF
   policy (createRuntime) and takes it away again (poststop).  */

struct hook_state_s
{
  const char *id;
  pid_t pid;
  const char *bundle;
  const char *root;                  /**< --root of the runtime, "" when not given */
  const char *profile;               /**< --profile: the profile create ran under, or NULL */
  bool from_hooksd;                  /**< run from hooks.d (no stage given): entitle may not be the runtime */
  bool learn;                        /**< --learn: entitle learn's run, observed, not enforced */
  const char *sysctls;               /**< --sysctls: the config's linux.sysctl keys, comma-separated, or NULL */
  json_t *doc;                       /**< the state on stdin */
  const json_t *spec;                /**< the config, where entitle-full attaches after the runtime's create
                                          (full/attach-after.c): no state, no file read */
  const struct entitle_set_s *final; /**< with @spec: the set create decided, not decided again */
  struct entitle_log_s log;          /**< stderr, and the runtime's --log file if given */
};

int hook_create_runtime (struct entitle_ctx_s *ctx, const struct hook_state_s *st, entitle_error_t *err);
int hook_poststop (struct entitle_ctx_s *ctx, const struct hook_state_s *st);
/* entitle-hook probe [--json] and entitle probe [--json]: probed afresh,
   printed (oci-hooks/probe.c).  */
int hook_probe (bool json, entitle_error_t *err);

struct entitle_bpf_plan_s;
/* The admin's programs of @plan's custom rows, to the cgroup @cgfd, and
   at Checmate's hooks where the kernel has it (@mnt: the cgroup2 root)
   (oci-hooks/custom.c).  */
int hook_attach_custom (struct entitle_ctx_s *ctx, const struct entitle_bpf_plan_s *plan, int cgfd, uint64_t cgroup_id,
                        const char *mnt, entitle_error_t *err);

/* The Checmate layer (oci-hooks/checmate.c): installed and given the
   container's @policy at createRuntime, where the entries of the cgroups
   that are gone are dropped; at a poststop (where the hook made the
   cgroup) too.  */
/* Keep the kernel's attach points warm (oci-hooks/warm.c): every program
   of @b attached once to entitle's own empty cgroup under @mnt.  */
struct entitle_bpf_s;
void hook_keep_warm (struct entitle_bpf_s *b, const char *mnt);

struct entitle_policy;
int hook_checmate (struct entitle_ctx_s *ctx, const struct entitle_policy *policy, uint64_t cgroup_id, const char *mnt,
                   entitle_error_t *err);
void hook_checmate_sweep (void);

/* Records of the cgroups the hook made (oci-hooks/made.c).  The lock is
   held (an fd to close) while a cgroup is made and filled, and while the
   records are collected.  */
int hook_made_lock (const char *state_dir, entitle_error_t *err);
int hook_made_record (const char *state_dir, const char *root, const char *id, const char *rel,
                      uint64_t cgroup_id, entitle_error_t *err);
void hook_made_remove (const char *state_dir, const char *root, const char *id, const struct entitle_log_s *log);
void hook_made_collect (const char *state_dir);
/* Records that entitle 0.1.0 kept in its pinned BPF map, carried over.  */
void hook_made_migrate (const char *state_dir);
/* The same, under the lock, before a load that may replace those pins.  */
void hook_made_carry_over (const char *state_dir);

#endif
