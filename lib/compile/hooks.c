/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <limits.h>
#include <string.h>
#include "bpf-plan.h"
#include "catalogue.h"
#include "hooks.h"
#include "utils.h"

/* The OCI hooks that attach entitle's cgroup programs (DESIGN §4).  The
   hook gets the runtime root (containers are keyed by root and id), the
   admin config (the runtime gives hooks an empty environment) and the
   runtime's log file, if there is one.  */

bool
entitle_needs_bpf (const struct entitle_set_s *set)
{
  return entitle_bpf_row (set) != NULL;
}

const struct entitle_entry_s *
entitle_bpf_row (const struct entitle_set_s *set)
{
  size_t i;
  for (i = 0; i < set->n; i++)
    if (set->items[i].entry->attach || set->items[i].entry->n_progs)
      return set->items[i].entry;
  return NULL;
}

/* entitle's own hook of @stage in @list, as add_hook writes it (a hooks.d
   entry, args ["entitle-hook"] alone, is the admin's: left as it is).  */
static json_t *
own_hook (const json_t *list, const char *stage)
{
  size_t i;
  for (i = 0; list && list->type == JSON_ARRAY && i < list->n; i++)
    {
      const json_t *args = json_get (list->items[i], "args");
      const char *a0 = args && args->type == JSON_ARRAY && args->n > 1 ? json_string (args->items[0]) : NULL;
      const char *a1 = a0 ? json_string (args->items[1]) : NULL;
      if (a0 && a1 && strcmp (a0, "entitle-hook") == 0 && strcmp (a1, stage) == 0)
        return list->items[i];
    }
  return NULL;
}

/* The config's linux.sysctl keys, comma-separated (malloc'd): what
   security.confined's sysctl program lets the runtime write, as the
   hook's argv carries them (--sysctls: the wire format; the hook splits
   them back into a list).  */
static char *
sysctl_keys (const json_t *spec)
{
  cleanup_strv char **keys = entitle_sysctl_keys (spec);
  size_t i, len = 1;
  char *out;

  for (i = 0; keys[i]; i++)
    len += strlen (keys[i]) + 1;
  out = xcalloc (1, len);
  for (i = 0; keys[i]; i++)
    {
      if (i)
        strcat (out, ",");
      strcat (out, keys[i]);
    }
  return out;
}

static json_t *
hook_args (struct entitle_ctx_s *ctx, const char *stage, const json_t *spec, const struct entitle_set_s *set)
{
  json_t *args = json_new (JSON_ARRAY);

  json_push (args, json_new_string ("entitle-hook"));
  json_push (args, json_new_string (stage));
  json_push (args, json_new_string ("--root"));
  json_push (args, json_new_string (ctx->root ? ctx->root : ""));
  /* "" is no admin config (ENTITLE_CONFIG=), for the hook as for the shim.  */
  json_push (args, json_new_string ("--config"));
  json_push (args, json_new_string (entitle_config_arg (ctx->config)));
  /* The set the hook enforces is the one create applied, profile
     included (DESIGN §7).  */
  if (ctx->config->profile)
    {
      json_push (args, json_new_string ("--profile"));
      json_push (args, json_new_string (ctx->config->profile->name));
    }
  /* The hook reads the container's entitlements from the state on stdin;
     given the sysctl keys, it need not read the config at all.  */
  if (strcmp (stage, "createRuntime") == 0 && entitle_bpf_reads_sysctls (set))
    {
      cleanup_free char *keys = sysctl_keys (spec);
      json_push (args, json_new_string ("--sysctls"));
      json_push (args, json_new_string (keys));
    }
  /* crun keeps a hook's stderr to itself: the runtime's log file is where
     the engine looks.  */
  if (ctx->log && ctx->log->path)
    {
      json_push (args, json_new_string ("--log"));
      json_push (args, json_new_string (ctx->log->path));
      json_push (args, json_new_string ("--log-format"));
      json_push (args, json_new_string (ctx->log->json ? "json" : "text"));
    }
  return args;
}

/* Written anew each time (a bundle compiled again gets this call's hook,
   config and log), in place, so that the same call gives the same bytes.  */
static void
add_hook (struct entitle_ctx_s *ctx, json_t *hooks, const char *stage, const json_t *spec,
          const struct entitle_set_s *set)
{
  json_t *list = json_get_or_add (hooks, stage, JSON_ARRAY);
  json_t *hook = own_hook (list, stage);

  if (hook == NULL)
    {
      hook = json_new (JSON_OBJECT);
      json_push (list, hook);
    }
  char buf[PATH_MAX];

  json_set (hook, "path", json_new_string (entitle_config_hook (ctx->config, buf, sizeof (buf))));
  json_set (hook, "args", hook_args (ctx, stage, spec, set));
}

/* entitle's own hook of @stage, if an earlier compile wrote one.  */
static void
drop_hook (json_t *hooks, const char *stage)
{
  json_t *list = json_get (hooks, stage);
  size_t i;

  for (i = 0; list && list->type == JSON_ARRAY && i < list->n; i++)
    if (list->items[i] == own_hook (list, stage))
      {
        json_remove_at (list, i);
        break;
      }
  if (list && list->type == JSON_ARRAY && list->n == 0)
    json_del (hooks, stage);
}

int
entitle_add_hooks (struct entitle_ctx_s *ctx, json_t *spec, const struct entitle_set_s *set,
                   entitle_error_t *err)
{
  json_t *hooks;
  bool had;

  (void)err;
  if (!entitle_needs_bpf (set))
    return 0;
  had = json_get (spec, "hooks") != NULL;
  hooks = json_get_or_add (spec, "hooks", JSON_OBJECT);
  /* create attaches after the runtime's create returned, in entitle-full
     itself (full/attach-after.c): a hook less for runc to fork and exec.  */
  if (ctx->attach_after)
    drop_hook (hooks, "createRuntime");
  else
    add_hook (ctx, hooks, "createRuntime", spec, set);
  /* The programs and the policy go with the cgroup: poststop has work only
     where the hook may make the cgroup (the runtime manages none), and is
     a fork and exec of the hook per container less where it does not.
     The Checmate layer's entries by cgroup id need none: createRuntime
     sweeps them (oci-hooks/checmate.c).  */
  if (ctx->cgroup_unmanaged)
    add_hook (ctx, hooks, "poststop", spec, set);
  else
    drop_hook (hooks, "poststop");
  if (!had && hooks->n == 0)
    json_del (spec, "hooks");
  return 0;
}
