/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include "bpf-plan.h"
#include "custom-progs.h"
#include "hook.h"
#include "utils.h"

/* The admin's programs of the container's custom entitlements
   (entitle.json(5), `bpf`), attached at createRuntime beside entitle's
   own: each loaded for this container, so that it and its entitle_data
   go with the cgroup.  Programs at a seed interface are not the hook's:
   create loads those at eBPF seccomp for the in-container helper
   (full/seccomp.c), and this version loads none at Checmate's hooks:
   the rest of their entitlement enforces it (create refused one that
   has no other part).  */

int
hook_attach_custom (struct entitle_ctx_s *ctx, const struct entitle_bpf_plan_s *plan, int cgfd, uint64_t cgroup_id,
                    entitle_error_t *err)
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
          int ret;

          if (p->point >= ATTACH_COUNT)
            {
              entitle_log_debug (ctx->log, "entitlement `%s`: program `%s` at %s not loaded (seed interface)", e->name,
                                 p->program, p->attach);
              continue;
            }
          if (!(plan->custom & ATTACH_BIT (p->point)))
            continue;
          ret = entitle_bpf_custom_attach (e, p, cgfd, cgroup_id, err);
          if (UNLIKELY (ret < 0))
            return entitle_error_wrap (err, "entitlement `%s`", e->name);
        }
    }
  return 0;
}
