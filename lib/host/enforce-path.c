/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdio.h>
#include <string.h>
#include "attach.h"
#include "enforce-path.h"

#define M(x) ENTITLE_MECH_BIT (ENTITLE_MECH_##x)

static const char *const names[] = { "Checmate", "eBPF seccomp", "BPF LSM", "cgroup BPF", "seccomp", "Landlock" };

static struct entitle_path_s *
add (struct entitle_path_s *out, size_t *n, enum entitle_path_kind kind, bool layer, bool taken)
{
  struct entitle_path_s *p = &out[(*n)++];

  memset (p, 0, sizeof (*p));
  p->kind = kind;
  p->name = names[kind];
  p->layer = layer;
  p->taken = taken;
  return p;
}

static void
layers (const struct entitle_entry_s *e, const struct entitle_probe_s *p, struct entitle_path_s *out, size_t *n)
{
  struct entitle_path_s *q;

  if (e->policy & entitle_layer_bits (entitle_checmate_progs, ENTITLE_CHECMATE_PROGS))
    {
      const char *lacks = entitle_probe_seed_lacks (p, ENTITLE_POINT_CHECMATE);
      q = add (out, n, ENTITLE_PATH_CHECMATE, true, lacks == NULL);
      entitle_layer_names (entitle_checmate_progs, ENTITLE_CHECMATE_PROGS, e->policy, q->detail, sizeof (q->detail));
      snprintf (q->reason, sizeof (q->reason), "%s",
                q->taken ? "global hooks, by the task's cgroup; installed by entitle-hook" : lacks);
    }
  /* The eBPF seccomp layer denies (lib/compile/layers.c): a row that only
     allows, or judges by argument (a custom row's rules), gives it
     nothing to do; the classic filter below holds those.  */
  if (e->sys_deny || (entitle_fx_mechs (e->fx) & M (SECCOMP)))
    {
      const char *lacks = entitle_probe_seed_lacks (p, ENTITLE_POINT_SECCOMP);
      q = add (out, n, ENTITLE_PATH_SECCOMP_EBPF, true, lacks == NULL);
      snprintf (q->reason, sizeof (q->reason), "%s",
                q->taken ? "the container's process, installed by the in-container helper entitle-init" : lacks);
    }
  if (e->policy & entitle_layer_bits (entitle_lsm_progs, ENTITLE_LSM_PROGS))
    {
      q = add (out, n, ENTITLE_PATH_BPF_LSM, true, p->lsm_cgroup);
      entitle_layer_names (entitle_lsm_progs, ENTITLE_LSM_PROGS, e->policy, q->detail, sizeof (q->detail));
#ifdef ENTITLE_HAVE_BPF_LSM
      if (q->taken)
        snprintf (q->reason, sizeof (q->reason), "lsm_cgroup programs on the container's cgroup");
      else if (!p->bpf_lsm)
        snprintf (q->reason, sizeof (q->reason), "this kernel does not run BPF LSM programs: %s", p->bpf_lsm_error);
      else
        snprintf (q->reason, sizeof (q->reason), "this kernel does not run lsm_cgroup programs: %s",
                  p->lsm_cgroup_error);
#elif defined ENTITLE_HAVE_BPF
      q->taken = false;
      snprintf (q->reason, sizeof (q->reason), "this build has no BPF LSM programs (no kernel BTF to build them with)");
#else
      q->taken = false;
      snprintf (q->reason, sizeof (q->reason), "%s", ENTITLE_NO_BPF);
#endif
    }
}

size_t
entitle_paths (const struct entitle_entry_s *e, const struct entitle_probe_s *p, struct entitle_path_s *out)
{
  struct entitle_path_s *q;
  size_t n = 0;

  layers (e, p, out, &n);
  if (e->attach)
    {
      char missing[160];
      unsigned lacking = entitle_probe_missing (p, e->attach, missing, sizeof (missing));
      q = add (out, &n, ENTITLE_PATH_CGROUP_BPF, false, lacking == 0);
      entitle_attach_names (e->attach, q->detail, sizeof (q->detail));
      snprintf (q->reason, sizeof (q->reason), "%s", q->taken ? "programs on the container's cgroup" : missing);
    }
  if (e->sys_deny || e->sys_allow || e->n_sys_rules || (entitle_fx_mechs (e->fx) & M (SECCOMP)))
    {
      q = add (out, &n, ENTITLE_PATH_SECCOMP, false, p->seccomp);
      snprintf (q->reason, sizeof (q->reason), "%s",
                q->taken ? "linux.seccomp, loaded by the runtime" : "this kernel has no seccomp filters");
    }
  if (entitle_fx_mechs (e->fx) & M (LANDLOCK))
    {
      char why[sizeof (q->reason)];
      q = add (out, &n, ENTITLE_PATH_LANDLOCK, false, !entitle_landlock_lacks (e, p->landlock_abi, why, sizeof (why)));
      if (q->taken)
        snprintf (q->reason, sizeof (q->reason), "the in-container helper entitle-init, ABI %d", p->landlock_abi);
      else
        snprintf (q->reason, sizeof (q->reason), "%s", why);
    }
  return n;
}

static size_t
put (char *buf, size_t len, size_t at, const char *sep, const struct entitle_path_s *q, bool reason)
{
  if (at < len)
    at += (size_t)snprintf (buf + at, len - at, "%s%s%s%s%s%s%s", sep, q->name, q->detail[0] ? " (" : "", q->detail,
                            q->detail[0] ? ")" : "", reason ? ": " : "", reason ? q->reason : "");
  return at;
}

void
entitle_paths_format (const struct entitle_entry_s *e, const struct entitle_probe_s *p, char *buf, size_t len)
{
  struct entitle_path_s paths[ENTITLE_PATH_KINDS];
  size_t k, m = entitle_paths (e, p, paths), at = 0;
  const char *sep = "";

  buf[0] = '\0';
  for (k = 0; k < m; k++)
    if (paths[k].taken)
      {
        at = put (buf, len, at, sep, &paths[k], false);
        sep = ", ";
      }
  for (k = 0; k < m; k++)
    if (!paths[k].taken)
      at = put (buf, len, at, at ? "; not " : "not ", &paths[k], true);
}
