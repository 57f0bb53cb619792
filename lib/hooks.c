/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <string.h>
#include "catalogue.h"
#include "hooks.h"

/* The OCI hooks that attach entitle's cgroup programs (DESIGN §4).  The
   hook gets the runtime root (containers are keyed by root and id), the
   admin config (the runtime gives hooks an empty environment) and the
   runtime's log file, if there is one.  */

bool
entitle_needs_bpf (const struct entitle_set_s *set)
{
  size_t i;
  for (i = 0; i < set->n; i++)
    if (set->items[i].entry->attach)
      return true;
  return false;
}

static bool
has_hook (const json_t *list, const char *path, const char *stage)
{
  size_t i;
  for (i = 0; list && list->type == JSON_ARRAY && i < list->n; i++)
    {
      const char *p = json_string (json_get (list->items[i], "path"));
      const json_t *args = json_get (list->items[i], "args");
      const char *s = args && args->type == JSON_ARRAY && args->n > 1 ? json_string (args->items[1]) : NULL;
      if (p && s && strcmp (p, path) == 0 && strcmp (s, stage) == 0)
        return true;
    }
  return false;
}

static void
add_hook (struct entitle_ctx_s *ctx, json_t *hooks, const char *stage)
{
  const char *path = entitle_config_hook (ctx->config);
  json_t *list = json_get_or_add (hooks, stage, JSON_ARRAY);
  json_t *hook, *args;

  if (has_hook (list, path, stage))
    return;
  hook = json_new (JSON_OBJECT);
  args = json_new (JSON_ARRAY);
  json_push (args, json_new_string ("entitle-hook"));
  json_push (args, json_new_string (stage));
  json_push (args, json_new_string ("--root"));
  json_push (args, json_new_string (ctx->root ? ctx->root : ""));
  json_push (args, json_new_string ("--config"));
  json_push (args, json_new_string (ctx->config->path ? ctx->config->path : entitle_config_path ()));
  /* crun keeps a hook's stderr to itself: the runtime's log file is where
     the engine looks.  */
  if (ctx->log && ctx->log->path)
    {
      json_push (args, json_new_string ("--log"));
      json_push (args, json_new_string (ctx->log->path));
      json_push (args, json_new_string ("--log-format"));
      json_push (args, json_new_string (ctx->log->json ? "json" : "text"));
    }
  json_set (hook, "path", json_new_string (path));
  json_set (hook, "args", args);
  json_push (list, hook);
}

int
entitle_add_hooks (struct entitle_ctx_s *ctx, json_t *spec, const struct entitle_set_s *set,
                   entitle_error_t *err)
{
  json_t *hooks;

  (void)err;
  if (!entitle_needs_bpf (set))
    return 0;
  hooks = json_get_or_add (spec, "hooks", JSON_OBJECT);
  add_hook (ctx, hooks, "createRuntime");
  add_hook (ctx, hooks, "poststop");
  return 0;
}
