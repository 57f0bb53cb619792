/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include "bpf-plan.h"
#include <fcntl.h>
#include "checmate.h"
#include "custom-checmate.h"
#include "custom-progs.h"
#include "hook.h"
#include "utils.h"

/* The admin's programs of the container's custom entitlements
   (entitle.json(5), `bpf`), attached at createRuntime beside entitle's
   own: each loaded for this container, so that it and its entitle_data
   go with the cgroup.  A program at a Checmate hook is the host's, loaded
   once and installed where the kernel has Checmate, with the container's
   entitle_data written by its cgroup id (bpf/custom-checmate.c); one at
   eBPF seccomp is create's, for the in-container helper (full/seccomp.c).
   Where the kernel lacks the interface, the rest of the entitlement
   enforces it (create refused one that has no other part).  */

/* @p, at a Checmate hook, where the kernel has Checmate (@mnt: the
   cgroup2 root, whose gone cgroups' entries are dropped).  */
static int
attach_checmate (struct entitle_ctx_s *ctx, const struct entitle_entry_s *e, const struct entitle_prog_s *p,
                 uint64_t cgroup_id, const char *mnt, entitle_error_t *err)
{
  struct entitle_custom_checmate_s c;
  cleanup_close int mountfd = -1;
  int ret;

  if (!entitle_seed_checmate (&entitle_kernel))
    {
      entitle_log_debug (ctx->log, "entitlement `%s`: program `%s` at %s not used (no Checmate)", e->name, p->program,
                         p->attach);
      return 0;
    }
  mountfd = open (mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (mountfd < 0)
    return entitle_make_sys_error (err, "open `%s`", mnt);
  ret = entitle_custom_checmate_open (&entitle_kernel, e, p, ENTITLE_CHECMATE_DIR, &c, err);
  if (ret == 0)
    ret = entitle_custom_checmate_enforce (&entitle_kernel, e, p, &c, cgroup_id, ctx->config->lock, mountfd, err);
  entitle_custom_checmate_close (&c);
  return ret;
}

int
hook_attach_custom (struct entitle_ctx_s *ctx, const struct entitle_bpf_plan_s *plan, int cgfd, uint64_t cgroup_id,
                    const char *mnt, entitle_error_t *err)
{
  const struct entitle_set_s *set = plan->set;
  size_t i, k;

  for (i = 0; i < set->n; i++)
    {
      const struct entitle_entry_s *e = set->items[i].entry;

      /* A row with several values comes once (the set is sorted).  */
      if (i > 0 && set->items[i - 1].entry == e)
        continue;
      for (k = 0; k < e->n_progs; k++)
        {
          const struct entitle_prog_s *p = &e->progs[k];
          int ret = 0;

          if (p->point == ENTITLE_POINT_CHECMATE)
            ret = attach_checmate (ctx, e, p, cgroup_id, mnt, err);
          else if (p->point < ATTACH_COUNT && (plan->custom & ATTACH_BIT (p->point))
                   && entitle_bpf_custom_attach (e, p, cgfd, cgroup_id, err) < 0)
            ret = entitle_error_wrap (err, "entitlement `%s`", e->name);
          if (UNLIKELY (ret < 0))
            return ret;
        }
    }
  return 0;
}
