/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PROBE_H
#define ENTITLE_PROBE_H

#include <stdbool.h>
#include "error.h"
#include "json.h"

/* What this kernel offers entitle (DESIGN §4).  The probing itself
   (lib/probe-run.c) needs libbpf and lives with the hook; the shim only
   reads the result as JSON (`entitle-hook probe --json`, cached in
   state_dir by boot id), so the pass-through path loads no libbpf.  */

/* cgroup BPF attach types entitle uses, as bits of cgroup_bpf.  */
enum
{
  PROBE_CG_SOCK_CREATE = 1u << 0,
  PROBE_CG_CONNECT4 = 1u << 1,
  PROBE_CG_CONNECT6 = 1u << 2,
  PROBE_CG_SENDMSG4 = 1u << 3,
  PROBE_CG_SENDMSG6 = 1u << 4,
  PROBE_CG_BIND4 = 1u << 5,
  PROBE_CG_BIND6 = 1u << 6,
  PROBE_CG_SYSCTL = 1u << 7,
  PROBE_CG_DEVICE = 1u << 8,
  PROBE_CG_ALL = (1u << 9) - 1,
};

struct entitle_probe_s
{
  char kernel[65];         /**< uname -r */
  bool seccomp;            /**< seccomp filters available */
  unsigned seccomp_flags;  /**< SECCOMP_FILTER_FLAG_* the kernel accepts */
  bool seccomp_extended;   /**< SECCOMP_MODE_FILTER_EXTENDED (eBPF seccomp patch set) */
  bool checmate;           /**< PR_CHECMATE (Checmate patch set) */
  bool bpf_lsm_listed;     /**< "bpf" in /sys/kernel/security/lsm */
  bool bpf_lsm;            /**< an LSM program loaded, attached and ran */
  char bpf_lsm_error[128]; /**< why not, when it did not */
  bool lsm_cgroup;         /**< BPF_LSM_CGROUP programs load */
  char lockdown[16];       /**< none, integrity, confidentiality or "" */
  unsigned cgroup_bpf;     /**< PROBE_CG_* that load and attach */
  char cgroup2[256];       /**< a cgroup v2 mount, or "" */
  int landlock_abi;        /**< 0 when absent */
  bool selinux;
  bool apparmor;
};

/** prctl(2), or a fake kernel interface in tests.  */
typedef long (*entitle_prctl_fn) (int op, unsigned long a, unsigned long b, unsigned long c,
                                  unsigned long d);

/** The seed patch sets, which mainline lacks: asked through @fn.  */
bool entitle_probe_checmate (entitle_prctl_fn fn);
bool entitle_probe_seccomp_extended (entitle_prctl_fn fn);

/** Probe this host (lib/probe-run.c; links libbpf).  */
int entitle_probe_run (struct entitle_probe_s *p, entitle_error_t *err);

/** The probe as a JSON document (caller frees).  */
char *entitle_probe_to_json (const struct entitle_probe_s *p);

/** Read back what entitle_probe_to_json wrote.  */
int entitle_probe_from_json (struct entitle_probe_s *p, const json_t *doc, entitle_error_t *err);

/** The cgroup attach types a set of entitlements needs (PROBE_CG_*).  */
unsigned entitle_probe_cg_needed (const char *const *applied);

/** The name of one PROBE_CG_* bit as the JSON writes it ("sock_create"), or NULL.  */
const char *entitle_probe_cg_name (unsigned bit);

/**
 * The entitlements of @applied whose cgroup BPF part needs an attach type
 * in @attach (PROBE_CG_*), quoted for a message: "`a`, `b`" (lib/bpf-plan.c).
 */
char *entitle_bpf_quote (char *const *applied, unsigned attach);

#endif
