/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PROBE_H
#define ENTITLE_PROBE_H

#include <stdbool.h>
#include "error.h"
#include "json.h"
#include "attach.h"

struct entitle_entry_s;

/* What this kernel offers entitle (DESIGN §4).  The probing itself
   (bpf/probe-run.c) needs libbpf and runs in entitle-full or entitle-hook,
   which keep the result as JSON in state_dir by boot id
   (bpf/probe-cache.c); the front, whose pass-through path loads no
   libbpf, never probes.  */

/* Bumped whenever the probe asks the kernel something new (an attach
   point added), so that a cache of an older build is probed again.  */
#ifdef ENTITLE_HAVE_BPF
#define ENTITLE_PROBE_FORMAT 3
#else
/* A build without BPF asks the kernel nothing about it: it never reads
   the cache of one that did, nor one that did its.  */
#define ENTITLE_PROBE_FORMAT 1003
#endif

/* Why no BPF program runs in a build configured --disable-bpf (the build
   defines ENTITLE_HAVE_BPF otherwise): the reason every entitlement that
   needs one is refused with, through entitle_probe_missing and
   entitle_probe_seed_lacks, as a kernel's missing feature is.  */
#define ENTITLE_NO_BPF "this entitle was built without BPF (configure --disable-bpf)"

struct entitle_probe_s
{
  char kernel[65];            /**< uname -r */
  bool seccomp;               /**< seccomp filters available */
  unsigned seccomp_flags;     /**< SECCOMP_FILTER_FLAG_* the kernel accepts */
  bool seccomp_extended;      /**< SECCOMP_MODE_FILTER_EXTENDED (eBPF seccomp patch set) */
  bool checmate;              /**< PR_CHECMATE (Checmate patch set) */
  bool bpf_lsm_listed;        /**< "bpf" in /sys/kernel/security/lsm */
  bool bpf_lsm;               /**< an LSM program loaded, attached and ran */
  char bpf_lsm_error[128];    /**< why not, when it did not */
  bool lsm_cgroup;            /**< a BPF_LSM_CGROUP program attached to a cgroup ran */
  char lsm_cgroup_error[128]; /**< why not, when it did not */
  char lockdown[16];          /**< none, integrity, confidentiality or "" */
  unsigned cgroup_bpf;        /**< attach points that load and attach (ATTACH_BIT mask) */
  char cgroup2[256];          /**< a cgroup v2 mount, or "" */
  int landlock_abi;           /**< 0 when absent */
  bool selinux;
  bool apparmor;
};

/**
 * The Landlock ABI of the running kernel, 0 when it has none (or does not
 * let this process ask): the probe's `landlock_abi`, also asked directly
 * by the compiler, whose answer must be the same.  One system call.
 */
int entitle_probe_landlock_abi (void);

/** The probe as a JSON document (caller frees).  */
char *entitle_probe_to_json (const struct entitle_probe_s *p);

/** Read back what entitle_probe_to_json wrote.  */
int entitle_probe_from_json (struct entitle_probe_s *p, const json_t *doc, entitle_error_t *err);

/**
 * Why this host cannot run the cgroup programs of @needed (ATTACH_BIT
 * mask), as a short reason into @why; returns the mask of those it
 * lacks (0: it runs them all).  A build without BPF lacks them all.
 */
unsigned entitle_probe_missing (const struct entitle_probe_s *p, unsigned needed, char *why, size_t len);

/**
 * Why an admin's program at the seed interface @point (ENTITLE_POINT_*
 * of catalogue.h) is not used on this host: the kernel lacks the
 * interface.  NULL where it is used: at `seccomp`, create loads it and the
 * in-container helper installs it; at a Checmate hook, entitle-hook loads
 * and installs it once per host.
 */
const char *entitle_probe_seed_lacks (const struct entitle_probe_s *p, int point);

/**
 * Whether Landlock ABI @abi (0: none) holds the whole promise of @e, a
 * row with FX_LANDLOCK: false, or true with the reason into @why (what an
 * older ABI leaves open, and the ABI it needs).  The one answer compile,
 * `entitle probe`'s paths and explain give.
 */
bool entitle_landlock_lacks (const struct entitle_entry_s *e, int abi, char *why, size_t len);

#endif
