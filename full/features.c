/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include "caps.h"
#include "catalogue.h"
#include "commands.h"
#include "probe.h"
#include "probe-cache.h"
#include "json.h"
#include "utils.h"

/* `features` is the runtime's, with entitle's facts under annotations
   (DESIGN §1).  Runtimes without it (crun before 1.8.6) get one written
   from what entitle knows, so engines can still ask.  */

static json_t *
string_array (const char *const *v)
{
  json_t *a = json_new (JSON_ARRAY);
  for (; *v; v++)
    json_push (a, json_new_string (*v));
  return a;
}

/* The spec version the runtime states in `--version` ("spec: 1.0.2-dev").  */
static char *
spec_version (struct shim_s *s)
{
  char *argv[] = { NULL, (char *)"--version", NULL };
  cleanup_free char *out = NULL;
  entitle_error_t err = NULL;
  size_t len;
  char *p, *end;

  if (shim_capture (s->runtime, argv, &out, &len, &err) != 0 || (p = strstr (out, "spec: ")) == NULL)
    {
      entitle_error_release (&err);
      return strdup ("1.0.0");
    }
  p += 6;
  end = p + strcspn (p, " \n");
  return strndup (p, (size_t)(end - p));
}

static json_t *
synthesise (struct shim_s *s)
{
  static const char *const hooks[] = { "prestart", "createRuntime", "createContainer",
                                       "startContainer", "poststart", "poststop", NULL };
  static const char *const namespaces[] = { "cgroup", "ipc", "mount", "network", "pid",
                                            "user", "uts", NULL };
  json_t *f = json_new (JSON_OBJECT), *linux_ = json_new (JSON_OBJECT);
  json_t *seccomp = json_new (JSON_OBJECT);
  char *max = spec_version (s);

  json_set (f, "ociVersionMin", json_new_string ("1.0.0"));
  json_set (f, "ociVersionMax", json_new_string (max));
  free (max);
  json_set (f, "hooks", string_array (hooks));
  json_set (linux_, "namespaces", string_array (namespaces));
  json_set (linux_, "capabilities", entitle_caps_names (NULL));
  json_set (seccomp, "enabled", json_new_bool (true));
  json_set (linux_, "seccomp", seccomp);
  json_set (f, "linux", linux_);
  return f;
}

/* The mechanisms entitle uses that this host runs: the runtime's own,
   cgroup BPF when the probe says every attach type loads, Landlock
   (through the in-container helper) when the probe found it, and the
   layers the probe found (DESIGN §4).  */
static const char *
mechanisms (struct shim_s *s, char *buf, size_t len)
{
  struct entitle_probe_s probe;
  entitle_error_t err = NULL;
  unsigned used = 0;
  char why[256];
  bool probed, bpf;
  int i;

  for (i = 0; i < ATTACH_COUNT; i++)
    if (entitle_attach_points[i].program)
      used |= ATTACH_BIT (i);
  probed = entitle_probe_host (s->ctx->config->state_dir, &probe, &err) == 0;
  bpf = probed && entitle_probe_missing (&probe, used, why, sizeof (why)) == 0;
  entitle_error_release (&err);
  snprintf (buf, len, "seccomp,capabilities,namespaces,paths,device-cgroup%s%s%s%s%s", bpf ? ",cgroup-bpf" : "",
            probed && probe.landlock_abi > 0 ? ",landlock" : "", probed && !entitle_probe_seed_lacks (&probe, ENTITLE_POINT_CHECMATE) ? ",checmate" : "",
            probed && !entitle_probe_seed_lacks (&probe, ENTITLE_POINT_SECCOMP) ? ",seccomp-ebpf" : "", probed && probe.lsm_cgroup ? ",bpf-lsm" : "");
  return buf;
}

static void
add_annotations (struct shim_s *s, json_t *features)
{
  json_t *a = json_get_or_add (features, "annotations", JSON_OBJECT);
  const struct entitle_entry_s *rows;
  cleanup_free char *names = NULL, *custom = NULL;
  char buf[16], mech[160];
  size_t n, i, len = 1;

  rows = entitle_catalogue_rows (&s->ctx->config->catalogue, &n);
  for (i = 0; i < n; i++)
    len += strlen (rows[i].name) + 1 + (rows[i].digest ? strlen (rows[i].digest) + 2 : 0);
  names = xcalloc (1, len);
  custom = xcalloc (1, len);
  for (i = 0; i < n; i++)
    {
      if (i)
        strcat (names, ",");
      strcat (names, rows[i].name);
      /* The admin config versions its own rows (entitle.json(5)).  */
      if (rows[i].digest)
        sprintf (custom + strlen (custom), "%s%s@%s", *custom ? "," : "", rows[i].name, rows[i].digest);
    }
  snprintf (buf, sizeof (buf), "%d", ENTITLE_CATALOGUE_VERSION);
  json_set (a, "io.entitle.version", json_new_string (PACKAGE_VERSION));
  json_set (a, "io.entitle.catalogue", json_new_string (buf));
  json_set (a, "io.entitle.entitlements", json_new_string (names));
  if (*custom)
    json_set (a, "io.entitle.custom", json_new_string (custom));
  json_set (a, "io.entitle.mechanisms", json_new_string (mechanisms (s, mech, sizeof (mech))));
  /* Whether this build has its BPF programs (configure --disable-bpf):
     without, what needs one is refused (lib/host/probe.c).  */
#ifdef ENTITLE_HAVE_BPF
  json_set (a, "io.entitle.bpf", json_new_string ("true"));
#else
  json_set (a, "io.entitle.bpf", json_new_string ("false"));
#endif
}

int
shim_features (struct shim_s *s, entitle_error_t *err)
{
  cleanup_free char *out = NULL, *text = NULL;
  cleanup_json json_t *features = NULL;
  size_t len, text_len;
  int status, ret;

  status = shim_capture (s->runtime, s->argv, &out, &len, err);
  if (UNLIKELY (status < 0))
    return status;
  if (status != 0 || json_parse (out, len, &features, err) < 0 || features->type != JSON_OBJECT)
    {
      entitle_error_release (err);
      json_free (features);
      features = synthesise (s);
    }
  add_annotations (s, features);
  ret = json_generate (features, &text, &text_len, err);
  if (UNLIKELY (ret < 0))
    return ret;
  fwrite (text, 1, text_len, stdout);
  fflush (stdout);
  exit (EXIT_SUCCESS);
}
