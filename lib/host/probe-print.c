/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "catalogue.h"
#include "enforce-path.h"
#include "probe-print.h"
#include "utils.h"

/* `entitle probe` and `entitle-hook probe`: what this kernel offers, as
   text for people or as the JSON the probe cache keeps.  */

static const char *
yes (bool b)
{
  return b ? "yes" : "no";
}

/* The ABI, and what it means for the entitlements Landlock enforces:
   those it holds, then those it does not, with the ABI they need.  */
static void
print_landlock (int abi)
{
  const struct entitle_entry_s *rows;
  const char *sep = "";
  char why[256];
  size_t i, n;

  printf ("Landlock ABI: %d (", abi);
  rows = entitle_catalogue_rows (NULL, &n);
  for (i = 0; i < n; i++)
    if ((rows[i].fx & FX_LANDLOCK) && !entitle_landlock_lacks (&rows[i], abi, why, sizeof (why)))
      {
        printf ("%s%s", sep, rows[i].name);
        sep = ", ";
      }
  if (*sep)
    printf (": in-container helper entitle-init");
  for (i = 0; i < n; i++)
    if ((rows[i].fx & FX_LANDLOCK) && entitle_landlock_lacks (&rows[i], abi, why, sizeof (why)))
      {
        printf ("%s%s: not held", *sep ? "; " : "", rows[i].name);
        if (abi > 0)
          printf (", it needs ABI %d", rows[i].landlock_abi);
        sep = ", ";
      }
  printf (")\n");
}

/* Which path each entitlement takes here, from its row and this probe.  */
static void
print_paths (const struct entitle_probe_s *p)
{
  const struct entitle_entry_s *rows;
  char line[1024];
  size_t i, n;

  printf ("paths (entitle prefers Checmate, eBPF seccomp, BPF LSM, cgroup BPF, seccomp, Landlock, in this order):\n");
  rows = entitle_catalogue_rows (NULL, &n);
  for (i = 0; i < n; i++)
    {
      entitle_paths_format (&rows[i], p, line, sizeof (line));
      if (line[0])
        printf ("  %s: %s\n", rows[i].name, line);
    }
}

static void
print_text (const struct entitle_probe_s *p)
{
  static const char *const flags[] = { "tsync", "log", "spec_allow", "new_listener", "tsync_esrch", "wait_killable_recv" };
  size_t i;

  printf ("kernel: %s\n", p->kernel);
  printf ("seccomp: %s; filter flags:", yes (p->seccomp));
  for (i = 0; i < sizeof (flags) / sizeof (flags[0]); i++)
    if (p->seccomp_flags & (1u << i))
      printf (" %s", flags[i]);
  printf ("\nseccomp eBPF filters (SECCOMP_MODE_FILTER_EXTENDED): %s\n", yes (p->seccomp_extended));
  printf ("Checmate (PR_CHECMATE): %s\n", yes (p->checmate));
  printf ("BPF LSM: listed %s, works %s%s%s\n", yes (p->bpf_lsm_listed), yes (p->bpf_lsm),
          p->bpf_lsm ? "" : " - ", p->bpf_lsm ? "" : p->bpf_lsm_error);
  printf ("BPF_LSM_CGROUP: %s\n", yes (p->lsm_cgroup));
  printf ("lockdown: %s\n", p->lockdown[0] ? p->lockdown : "unknown (securityfs not mounted)");
  printf ("cgroup v2: %s\ncgroup BPF:", p->cgroup2[0] ? p->cgroup2 : "not mounted");
  for (i = 0; i < ATTACH_COUNT; i++)
    printf (" %s=%s", entitle_attach_points[i].name, yes (p->cgroup_bpf & ATTACH_BIT (i)));
  printf ("\n");
  print_landlock (p->landlock_abi);
  printf ("SELinux: %s\nAppArmor: %s\n", yes (p->selinux), yes (p->apparmor));
  print_paths (p);
}

int
entitle_probe_print (const struct entitle_probe_s *p, bool json, entitle_error_t *err)
{
  cleanup_free char *s = NULL;

  if (!json)
    {
      print_text (p);
      return 0;
    }
  s = entitle_probe_to_json (p);
  if (s == NULL)
    return entitle_make_error (err, EIO, "probe: cannot write the JSON");
  puts (s);
  return 0;
}
