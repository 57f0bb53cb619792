/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "alone.h"
#include "capture.h"
#include "runtime.h"
#include "utils.h"

/* entitle-hook from hooks.d (Podman, CRI-O) runs where entitle may not be
   the runtime: it attaches the cgroup programs, but the other parts of an
   entitlement (capabilities, seccomp, namespaces, paths, devices) only
   entitle's create writes into config.json.  Silently attaching the BPF
   part alone would pass a container as confined that is not, so such a
   container is refused unless its config already holds what create would
   write (entitle was the runtime too, or the engine's config gives no
   more): `entitle-full compile --check`, run only on this path.  */

/* The entitlements of @set with a part the cgroup programs do not apply,
   quoted for a message; "" when there are none.  */
static char *
not_bpf_only (const struct entitle_set_s *set)
{
  size_t i, len = 1;
  char *out;

  for (i = 0; i < set->n; i++)
    len += strlen (set->items[i].entry->name) + 4;
  out = xcalloc (1, len);
  for (i = 0; i < set->n; i++)
    if (!entitle_entry_bpf_only (set->items[i].entry) && (i == 0 || set->items[i - 1].entry != set->items[i].entry))
      {
        strcat (out, *out ? ", `" : "`");
        strcat (out, set->items[i].entry->name);
        strcat (out, "`");
      }
  return out;
}

int
hook_check_applied (struct entitle_ctx_s *ctx, const char *bundle, const struct entitle_set_s *set,
                    entitle_error_t *err)
{
  cleanup_free char *names = not_bpf_only (set), *out = NULL, *config_flag = NULL;
  char full[PATH_MAX];
  const char *path = entitle_config_full (full, sizeof (full));
  char *argv[8];
  size_t len, n = 0;
  int status;

  if (*names == '\0')
    return 0;
  /* The same admin config and profile the hook resolved the set with.  */
  xasprintf (&config_flag, "--entitle-config=%s", ctx->config->present ? ctx->config->path : "");
  argv[n++] = (char *)path;
  if (ctx->config->present)
    argv[n++] = config_flag;
  if (ctx->config->profile)
    {
      argv[n++] = (char *)"--entitle-profile";
      argv[n++] = ctx->config->profile->name;
    }
  argv[n++] = (char *)"compile";
  argv[n++] = (char *)"--check";
  argv[n++] = (char *)"-b";
  argv[n++] = (char *)bundle;
  argv[n] = NULL;
  /* No admin config: the check reads none either.  Where the hook found
     none at the installed path, the check looks there too, and its
     refusal says where an admin would grant (ENTITLE_CONFIG=, which the
     user never set, would be named instead).  */
  if (!ctx->config->present && (ctx->config->path == NULL || *ctx->config->path == '\0'))
    setenv ("ENTITLE_CONFIG", "", 1);
  /* runc gives a hook without an `env` its own environment, and entitle
     marked that as the runtime it ran: this is no exec loop.  */
  unsetenv (ENTITLE_LOOP_ENV);
  status = entitle_capture (path, argv, STDERR_FILENO, &out, &len, err);
  if (UNLIKELY (status < 0))
    return status;
  if (status == 0)
    return 0;
  out[strcspn (out, "\n")] = '\0';
  return entitle_make_error (err, EPERM,
                             "%s not applied: entitle-hook from hooks.d applies only cgroup BPF programs, and this "
                             "config is not as entitle's create writes it (%s); run the container with entitle as "
                             "its OCI runtime (docs/integration.md)",
                             names, strncmp (out, "entitle: ", 9) == 0 ? out + 9 : out);
}
