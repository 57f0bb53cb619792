/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "commands.h"
#include "compile.h"
#include "hook.h"
#include "json.h"
#include "probe.h"
#include "probe-cache.h"
#include "bpf-plan.h"
#include "hooks.h"
#include "outcome.h"
#include "utils.h"

/* Whether this host can run the BPF parts a create asks for: the probe
   of this boot (bpf/probe-cache.c: cached, else probed in this process,
   which links libbpf), against the final set's plan.  */

/* create attaches in this process (full/attach-after.c); the runtime runs
   entitle-hook only for `run` (createRuntime) and where no cgroup manager
   runs (poststop removes the cgroup the hook made): there it must be
   there, or the runtime fails after entitle said yes.  */
static int
hook_usable (struct entitle_ctx_s *ctx, entitle_error_t *err)
{
  char buf[PATH_MAX];
  const char *hook;

  if (ctx->attach_after && !ctx->cgroup_unmanaged)
    return 0;
  hook = entitle_config_hook (ctx->config, buf, sizeof (buf));
  if (access (hook, X_OK) < 0)
    return entitle_make_sys_error (err, "the runtime runs entitle-hook for this container: `%s`", hook);
  return 0;
}

/* Is one of @e's programs at a seed interface used on this host?  */
static bool
seed_used (const struct entitle_probe_s *probe, const struct entitle_entry_s *e)
{
  for (size_t k = 0; k < e->n_progs; k++)
    if (entitle_probe_seed_lacks (probe, e->progs[k].point) == NULL)
      return true;
  return false;
}

/* A custom row enforced by nothing but admin programs at seed interfaces
   (Checmate, eBPF seccomp), which this host does not use (@probe NULL:
   not probed, @reason why), cannot be enforced.  A row with another part
   is enforced by that part, its seed programs skipped.  */
static int
check_seed_only (struct entitle_ctx_s *ctx, const struct entitle_set_s *set, const struct entitle_probe_s *probe,
                 const char *reason, entitle_error_t *err)
{
  size_t i;

  for (i = 0; i < set->n; i++)
    {
      const struct entitle_entry_s *e = set->items[i].entry;
      char what[256];
      int ret;

      if (e->n_progs == 0 || entitle_bpf_beyond_seed (e) || (probe && seed_used (probe, e)))
        continue;
      snprintf (what, sizeof (what), "entitlement `%s`", e->name);
      ret = entitle_unenforceable (ctx->config, ctx->log, what, probe ? entitle_probe_seed_lacks (probe, e->progs[0].point) : reason, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  return 0;
}

int
shim_check_bpf (struct entitle_ctx_s *ctx, const struct entitle_set_s *set, const json_t *spec,
                entitle_error_t *err)
{
  struct entitle_bpf_plan_s plan;
  cleanup_free char *names = NULL;
  cleanup_strv char **keys = NULL;
  struct entitle_probe_s probe;
  entitle_error_t why = NULL;
  unsigned missing;
  char reason[256];
  bool probed;
  int ret;

  /* Beyond what the programs hold is bad input, refused whatever
     on_unenforceable says (the hook would refuse it too, later).  */
  keys = entitle_sysctl_keys (spec);
  ret = entitle_bpf_plan (&plan, set, keys, err);
  if (ret < 0 || (ret == 0 && !entitle_needs_bpf (set)))
    return ret;
  probed = hook_usable (ctx, &why) == 0 && entitle_probe_host (ctx->config->state_dir, &probe, &why) == 0;
  if (!probed)
    {
      missing = plan.attach | plan.custom;
      snprintf (reason, sizeof (reason), "%s", why->msg);
      entitle_error_release (&why);
    }
  else
    missing = entitle_probe_missing (&probe, plan.attach | plan.custom, reason, sizeof (reason));
  if (missing)
    {
      names = entitle_bpf_quote (set, missing);
      ret = entitle_unenforceable (ctx->config, ctx->log, names, reason, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  return check_seed_only (ctx, set, probed ? &probe : NULL, reason, err);
}

static int
take_opt (struct shim_s *s, void *data, enum shim_key key, const char *value, entitle_error_t *err)
{
  (void)err;
  if (key == KEY_ARG)
    shim_usage_error (s, "probe: unexpected argument `%s`", value);
  *(bool *)data = key == KEY_JSON;
  return 0;
}

/* entitle probe [--json]: always fresh, printed as entitle-hook probe
   prints it (the same function, oci-hooks/probe.c).  */
int
shim_probe_command (struct shim_s *s, entitle_error_t *err)
{
  bool json = false;
  int ret = shim_parse (s, &json, take_opt, err);

  if (UNLIKELY (ret < 0))
    return ret;
  return hook_probe (json, err);
}
