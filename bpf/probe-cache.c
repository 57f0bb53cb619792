/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "admin-config.h"
#include "file.h"
#include "probe-cache.h"
#include "probe-run.h"
#include "utils.h"

/* The probe of this boot, kept in state_dir: probing loads and attaches
   programs (milliseconds), asking the cache reads one small file.
   entitle-full and entitle-hook both link libbpf and probe in their own
   process (entitle_probe_run) on a miss, then fill the cache.  A cache of
   another boot, or of a build whose probe asked other questions
   (ENTITLE_PROBE_FORMAT), is not used.  */

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

static int
probe_cached (const char *state_dir, struct entitle_probe_s *probe)
{
  cleanup_free char *path = entitle_state_path (state_dir, "probe.json"), *raw = NULL;
  cleanup_json json_t *doc = NULL;
  entitle_error_t err = NULL;
  const json_t *format;
  const char *id;
  char boot[64];
  size_t len;
  int ret = -1;

  boot_id (boot, sizeof (boot));
  if (boot[0] && entitle_file_read (path, 1 << 20, &raw, &len, &err) == 0 && json_parse (raw, len, &doc, &err) == 0
      && (id = json_string (json_get (doc, "boot_id"))) != NULL && strcmp (id, boot) == 0
      && (format = json_get (doc, "format")) != NULL && format->type == JSON_NUMBER
      && atoi (format->text) == ENTITLE_PROBE_FORMAT)
    ret = entitle_probe_from_json (probe, json_get (doc, "probe"), &err);
  entitle_error_release (&err);
  return ret;
}

static void
probe_cache (const char *state_dir, const char *probe_json)
{
  cleanup_free char *path = entitle_state_path (state_dir, "probe.json"), *doc = NULL, *dir = strdup (path);
  entitle_error_t err = NULL;
  char *slash = dir ? strrchr (dir, '/') : NULL;
  char boot[64];

  boot_id (boot, sizeof (boot));
  if (boot[0] == '\0' || slash == NULL
      || asprintf (&doc, "{\"boot_id\":\"%s\",\"format\":%d,\"probe\":%s}\n", boot, ENTITLE_PROBE_FORMAT, probe_json) < 0)
    return;
  *slash = '\0';
  if (entitle_mkdir_state (dir, 0, &err) < 0)
    {
      entitle_error_release (&err);
      return;
    }
  /* write_atomic replaces a file; the first time there is none.  */
  close (open (path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  /* A cache that cannot be written only costs the next call a probe.  */
  entitle_file_write_atomic (path, doc, strlen (doc), &err);
  entitle_error_release (&err);
}

int
entitle_probe_host (const char *state_dir, struct entitle_probe_s *probe, entitle_error_t *err)
{
  cleanup_free char *json = NULL;
  int ret;

  if (probe_cached (state_dir, probe) == 0)
    return 0;
  ret = entitle_probe_run (probe, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if ((json = entitle_probe_to_json (probe)) != NULL)
    probe_cache (state_dir, json);
  return 0;
}
