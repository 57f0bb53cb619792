/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PROPOSE_H
#define ENTITLE_PROPOSE_H

#include <stdbool.h>
#include <stddef.h>
#include "attach.h"
#include "cap-use.h"
#include "denial.h"
#include "error.h"

/* entitle learn's proposal: from what a run of the workload used, the
   narrowest rung of each ladder that allows all of it and the allowlist
   values that list it, each with one line of evidence, read from the
   catalogue rows (lib/read/denial.h says how a row judges a use,
   lib/read/cap-use.h a capability check).  A capability the run held
   and used rules out the rungs that take it away; one it asked for and
   was refused (the engine did not give it) rules out the rungs of its
   giver's ladder that do not add it, or proposes the giver itself where
   that is a modifier or a rung of a ladder learn does not propose.  */

/* The programs entitle learn attaches in counting mode (POL_LEARN): those
   that see a use from the calling task (the packet programs see traffic,
   not what the workload asked for).  */
#define ENTITLE_LEARN_ATTACH                                                                                             \
  (ATTACH_BIT (ATTACH_SOCK_CREATE) | ATTACH_BIT (ATTACH_CONNECT4) | ATTACH_BIT (ATTACH_CONNECT6)                         \
   | ATTACH_BIT (ATTACH_SENDMSG4) | ATTACH_BIT (ATTACH_SENDMSG6) | ATTACH_BIT (ATTACH_BIND4) | ATTACH_BIT (ATTACH_BIND6) \
   | ATTACH_BIT (ATTACH_SYSCTL))

/* What the run used.  */
struct entitle_observed_s
{
  const struct entitle_event *events; /**< the programs' records of uses (rule 0) */
  size_t n_events;
  const struct entitle_syscall_use_s *syscalls; /**< the watched syscalls seen, each once per arguments */
  size_t n_syscalls;
  bool syscalls_seen;                   /**< the seccomp listener ran (else syscalls are not observed) */
  const struct entitle_cap_use_s *caps; /**< the capability checks seen, each (capability, result) once */
  size_t n_caps;
  bool caps_seen;             /**< capability checks were watched (else whether a call was refused one is not known) */
  char *const *sysctl_keys;   /**< the config's linux.sysctl keys, which the runtime writes */
  unsigned unprivileged_port; /**< net.ipv4.ip_unprivileged_port_start */
};

struct entitle_proposed_s
{
  char *entitlement;        /**< "network.user", "network.bind=8080" */
  char *evidence;           /**< one line: what was used that needs it */
  char *narrower;           /**< for a rung or a giver of a capability: the narrower choice that covers the
                                 evidence (leaving its ladder to the engine's config, which needs no grant),
                                 or why none does; NULL for a value, which only narrows */
  char **narrower_syscalls; /**< where the narrower choice leaves the ladder to the engine's config: the
                                 syscalls of the evidence the rest of the proposal must let through,
                                 which the caller checks by compiling it (NULL-terminated), or NULL */
  bool widens;              /**< set by the caller (entitle learn): it widens the engine's config */
  bool granted;             /**< set by the caller: the admin config grants it */
};

struct entitle_proposal_s
{
  struct entitle_proposed_s *items;
  size_t n;
  char **not_observed; /**< what the run could not see, a sentence each (NULL-terminated) */
};

/** Propose the narrowest set for @o into @p.  */
void entitle_propose (const struct entitle_observed_s *o, struct entitle_proposal_s *p);

/** Add @sentence to what the run could not see.  */
void entitle_proposal_note (struct entitle_proposal_s *p, const char *sentence);

/** "a,b,c": the proposed entitlements as an annotation holds them (malloc'd). */
char *entitle_proposal_list (const struct entitle_proposal_s *p);

void entitle_proposal_free (struct entitle_proposal_s *p);

#endif
