/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "compile.h"
#include "log.h"
#include "file.h"
#include "json.h"
#include "probe.h"
#include "utils.h"

/* Host facts for the shim.  Probing loads BPF programs, which needs libbpf:
   entitle-hook does it (`entitle-hook probe --json`), and the answer is
   kept in state_dir for the rest of this boot, so that the shim itself
   never links libbpf.  */

#define DEFAULT_STATE_DIR "/run/entitle"

static void
boot_id (char *buf, size_t len)
{
  FILE *f = fopen ("/proc/sys/kernel/random/boot_id", "re");
  buf[0] = '\0';
  if (f && fgets (buf, (int)len, f))
    buf[strcspn (buf, "\n")] = '\0';
  if (f)
    fclose (f);
}

static char *
cache_path (struct entitle_ctx_s *ctx)
{
  const char *dir = ctx->config->state_dir ? ctx->config->state_dir : DEFAULT_STATE_DIR;
  char *p;
  if (asprintf (&p, "%s/probe.json", dir) < 0)
    abort ();
  return p;
}

/* {"boot_id": ID, "probe": {...}} of this boot, if there is one.  */
static int
from_cache (const char *path, const char *boot, struct entitle_probe_s *probe)
{
  cleanup_free char *raw = NULL;
  cleanup_json json_t *doc = NULL;
  entitle_error_t err = NULL;
  const char *id;
  size_t len;
  int ret = -1;

  if (entitle_file_read (path, 1 << 20, &raw, &len, &err) == 0 && json_parse (raw, len, &doc, &err) == 0
      && (id = json_string (json_get (doc, "boot_id"))) != NULL && strcmp (id, boot) == 0)
    ret = entitle_probe_from_json (probe, json_get (doc, "probe"), &err);
  entitle_error_release (&err);
  return ret;
}

static void
to_cache (const char *path, const char *boot, const char *probe_json)
{
  cleanup_free char *doc = NULL, *dir = strdup (path);
  entitle_error_t err = NULL;
  char *slash = dir ? strrchr (dir, '/') : NULL;

  if (slash == NULL || asprintf (&doc, "{\"boot_id\":\"%s\",\"probe\":%s}\n", boot, probe_json) < 0)
    return;
  *slash = '\0';
  mkdir (dir, 0700);
  /* write_atomic replaces a file; the first time there is none.  */
  close (open (path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  /* A cache that cannot be written only costs the next call a probe.  */
  entitle_file_write_atomic (path, doc, strlen (doc), &err);
  entitle_error_release (&err);
}

int
shim_probe (struct entitle_ctx_s *ctx, struct entitle_probe_s *probe, entitle_error_t *err)
{
  const char *hook = entitle_config_hook (ctx->config);
  char *argv[] = { (char *)hook, (char *)"probe", (char *)"--json", NULL };
  cleanup_free char *path = cache_path (ctx), *out = NULL;
  cleanup_json json_t *doc = NULL;
  char boot[64];
  size_t len;
  int status;

  boot_id (boot, sizeof (boot));
  if (boot[0] && from_cache (path, boot, probe) == 0)
    return 0;
  if (access (hook, X_OK) < 0)
    return entitle_make_sys_error (err, "`%s`", hook);
  status = shim_capture (hook, argv, &out, &len, err);
  if (status < 0)
    return entitle_error_wrap (err, "run `%s probe`", hook);
  if (status != 0)
    return entitle_make_error (err, EIO, "`%s probe` exited with %d", hook, status);
  if (json_parse (out, len, &doc, err) < 0 || entitle_probe_from_json (probe, doc, err) < 0)
    return entitle_error_wrap (err, "`%s probe`", hook);
  if (boot[0])
    to_cache (path, boot, out);
  return 0;
}

static char **
split_applied (const char *list)
{
  size_t n = 1, i = 0;
  const char *p;
  char **v, *copy = strdup (list), *tok, *save = NULL;

  for (p = list; *p; p++)
    n += *p == ',';
  if (copy == NULL || (v = calloc (n + 1, sizeof (char *))) == NULL)
    abort ();
  for (tok = strtok_r (copy, ",", &save); tok; tok = strtok_r (NULL, ",", &save))
    if ((v[i++] = strdup (tok)) == NULL)
      abort ();
  free (copy);
  return v;
}

int
shim_check_bpf (struct entitle_ctx_s *ctx, const json_t *spec, entitle_error_t *err)
{
  const char *list = json_string (json_get (json_get (spec, "annotations"), ENTITLE_ANNOTATION_APPLIED));
  cleanup_strv char **applied = NULL;
  cleanup_free char *names = NULL;
  struct entitle_probe_s probe;
  entitle_error_t why = NULL;
  unsigned needed, missing;
  char reason[256];

  if (list == NULL)
    return 0;
  applied = split_applied (list);
  needed = entitle_probe_cg_needed ((const char *const *)applied);
  if (needed == 0)
    return 0;
  if (shim_probe (ctx, &probe, &why) < 0)
    {
      missing = needed;
      snprintf (reason, sizeof (reason), "entitle-hook cannot probe this host: %s", why->msg);
      entitle_error_release (&why);
    }
  else if (probe.cgroup2[0] == '\0')
    {
      missing = needed;
      snprintf (reason, sizeof (reason), "no cgroup v2 hierarchy is mounted");
    }
  else if ((missing = needed & ~probe.cgroup_bpf) != 0)
    snprintf (reason, sizeof (reason), "the kernel refuses cgroup BPF %s programs",
              entitle_probe_cg_name (missing & -missing));
  if (missing == 0)
    return 0;
  names = entitle_bpf_quote (applied, missing);
  if (ctx->config->warn_unenforceable)
    {
      entitle_log_warning (ctx->log, "%s not enforced: %s", names, reason);
      return 0;
    }
  return entitle_make_error (err, ENOSYS, "%s cannot be enforced here: %s", names, reason);
}

/* entitle probe [--json]: always fresh, straight from the hook.  */
int
shim_probe_command (struct shim_s *s, entitle_error_t *err)
{
  const char *hook = entitle_config_hook (s->ctx->config);
  bool json = s->args.command_index + 1 < s->argc && strcmp (s->argv[s->args.command_index + 1], "--json") == 0;
  char *argv[] = { (char *)hook, (char *)"probe", json ? (char *)"--json" : NULL, NULL };

  fflush (stdout);
  execv (hook, argv);
  return entitle_make_sys_error (err, "exec `%s`", hook);
}
