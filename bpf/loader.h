/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_LOADER_H
#define ENTITLE_BPF_LOADER_H

#include <stdbool.h>
#include <stdint.h>
#include "bpf-plan.h"
#include "cgroup.h"
#include "error.h"
#include "policy.h"

/* entitle's shared BPF objects: programs and maps pinned once under
   ENTITLE_BPF_DIR and reused by every container; per container only map
   entries (keyed by cgroup id) and cgroup attachments, which the kernel
   drops with the cgroup.  */

#define ENTITLE_BPF_FS  "/sys/fs/bpf"
#define ENTITLE_BPF_DIR ENTITLE_BPF_PINS

enum
{
  ENTITLE_PROG_SOCK_CREATE,
  ENTITLE_PROG_CONNECT4,
  ENTITLE_PROG_CONNECT6,
  ENTITLE_PROG_SENDMSG4,
  ENTITLE_PROG_SENDMSG6,
  ENTITLE_PROG_BIND4,
  ENTITLE_PROG_BIND6,
  ENTITLE_PROG_SYSCTL,
  ENTITLE_PROG_COUNT,
};

enum
{
  ENTITLE_MAP_POLICY,
  ENTITLE_MAP_EGRESS4,
  ENTITLE_MAP_EGRESS6,
  ENTITLE_MAP_SYSCTLS,
  ENTITLE_MAP_OWNERS,
  ENTITLE_MAP_COUNT,
};

struct entitle_bpf_s
{
  int prog[ENTITLE_PROG_COUNT];
  int map[ENTITLE_MAP_COUNT];
};

/** The program's name (as pinned) and its attach type name ("connect4").  */
const char *entitle_bpf_prog_name (int prog);

/**
 * Open the pinned objects.  With @create, load and pin them first if they
 * are not there (mounting bpffs if needed); without, return 0 when they
 * are not there.  Returns 1 when open.
 */
int entitle_bpf_open (struct entitle_bpf_s *b, bool create, entitle_error_t *err);

void entitle_bpf_close (struct entitle_bpf_s *b);

/** Write @plan for the cgroup @cgroup_id into the maps.  */
int entitle_bpf_install (struct entitle_bpf_s *b, const struct entitle_bpf_plan_s *plan, uint64_t cgroup_id,
                         entitle_error_t *err);

/** Attach the programs of @plan to the cgroup @cgfd (BPF_F_ALLOW_MULTI).  */
int entitle_bpf_attach (struct entitle_bpf_s *b, const struct entitle_bpf_plan_s *plan, int cgfd,
                        entitle_error_t *err);

/** Remove every map entry of @cgroup_id.  */
void entitle_bpf_forget (struct entitle_bpf_s *b, uint64_t cgroup_id);

/** The owner record of "ROOT\nID": 1 found, 0 not, negative error.  */
int entitle_bpf_owner_get (struct entitle_bpf_s *b, const char *root, const char *id,
                           struct entitle_owner *out, entitle_error_t *err);
int entitle_bpf_owner_put (struct entitle_bpf_s *b, const char *root, const char *id,
                           const struct entitle_owner *owner, entitle_error_t *err);
void entitle_bpf_owner_del (struct entitle_bpf_s *b, const char *root, const char *id);

/** Forget every owner whose cgroup is gone (@alive says); returns how many.  */
int entitle_bpf_collect (struct entitle_bpf_s *b, int (*alive) (uint64_t cgroup_id, void *arg), void *arg);

#endif
