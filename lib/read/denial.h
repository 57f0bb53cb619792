/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_DENIAL_H
#define ENTITLE_DENIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "entitlements.h"
#include "policy.h"

/* What a use or a denial means in entitle's words: a record of the cgroup
   programs (`entitle why`, `entitle learn`) or a syscall entitle learn saw,
   read against the catalogue rows only: their POL_* bits, ladders, value
   kinds, denied syscalls, seccomp effects and capabilities.  No list here
   is keyed by an entitlement's name.  */

/** The attach point (enum entitle_attach_point) whose program wrote @ev, or -1. */
int entitle_event_point (const struct entitle_event *ev);

/** @ev for people ("connect to 10.0.0.1:443 (tcp)") into @buf. */
void entitle_event_describe (const struct entitle_event *ev, char *buf, size_t len);

/**
 * Would the programs deny @ev under the POL_* bits @policy, as far as the
 * bits alone say (a rung's: POL_SOCK_UNIX_ONLY, POL_SOCK_NO_RAW,
 * POL_SYSCTL_RO; an allowlist's bit denies what its values do not list,
 * which the bits cannot tell)?
 */
bool entitle_policy_denies (unsigned policy, const struct entitle_event *ev);

/** The request of @set whose row carries @ev's rule: the entitlement that denied it, or NULL. */
const struct entitle_request_s *entitle_event_denier (const struct entitle_set_s *set, const struct entitle_event *ev);

/**
 * @denier (of @set) as `why` names it (malloc'd): a rule a custom row
 * implies (its `egress`, `ingress`, `bind`) is that row's,
 * "example.com.web (network.egress=10.0.0.0/8:443)"; any other is the
 * request itself.
 */
char *entitle_denier_name (const struct entitle_set_s *set, const struct entitle_request_s *denier);

/** The rows that carry @rule, "a, b or c" (malloc'd, "" for none). */
char *entitle_rule_rows (unsigned rule);

/**
 * What would allow @ev that @denier's rule denied (malloc'd): for a rung,
 * the narrowest wider rung of its ladder whose programs let @ev through;
 * for an allowlist modifier, the modifier with the narrowest value that
 * lists @ev ("network.egress=10.0.0.1/32:443").  NULL: no entitlement
 * allows it.
 */
char *entitle_event_allower (const struct entitle_entry_s *denier, const struct entitle_event *ev);

/**
 * The narrowest value of the allowlist modifier @e that lists @ev
 * ("10.0.0.1/32:443", "8080") into @buf; false when its kind cannot name
 * @ev (a socket, a sysctl, a packet that chose its own route).
 */
bool entitle_event_value (const struct entitle_entry_s *e, const struct entitle_event *ev, char *buf, size_t len);

/* A syscall entitle learn saw (seccomp user notification).  */
struct entitle_syscall_use_s
{
  const char *name; /**< as libseccomp names it */
  uint64_t args[6];
};

/** Keep of @s's arguments only those the rows judge (socket's family and
    type, mknod's mode, personality's persona, clone's namespace flags),
    so that one use is recorded once.  */
void entitle_syscall_normalize (struct entitle_syscall_use_s *s);

/** @s for people ("socket(AF_INET, SOCK_STREAM)", "mount()") into @buf. */
void entitle_syscall_describe (const struct entitle_syscall_use_s *s, char *buf, size_t len);

/** The capability a use of the network needs beyond the defaults, or NULL:
    a port below @unprivileged_port (CAP_NET_BIND_SERVICE), a raw socket
    (CAP_NET_RAW).  */
const char *entitle_event_needs_cap (const struct entitle_event *ev, unsigned unprivileged_port);

/** Does the row @e take the capability @cap away (drop it, or keep at most
    others), without adding it back?  */
bool entitle_entry_removes_cap (const struct entitle_entry_s *e, const char *cap);

/**
 * Does the row @e deny the syscall @s: listed in its denials, refused by
 * one of its seccomp effects for these arguments, or gated only on
 * capabilities it takes away?  How, for people ("seccomp", "it takes
 * CAP_SYS_ADMIN, which mount() needs"), into @why.
 */
bool entitle_entry_denies_syscall (const struct entitle_entry_s *e, const struct entitle_syscall_use_s *s, char *why,
                                   size_t len);

/**
 * Does the row @e's seccomp part refuse the syscall @s: listed in its
 * denials, or refused by one of its seccomp effects for these arguments?
 * How, for people ("seccomp", "seccomp: socket() and socketpair() for
 * AF_UNIX only"), into @why.
 */
bool entitle_entry_seccomp_denies (const struct entitle_entry_s *e, const struct entitle_syscall_use_s *s, char *why,
                                   size_t len);

/**
 * The request of @set whose row's seccomp part refuses @s (`entitle why
 * --follow`: a syscall seccomp denied), and how into @why; NULL when no
 * row's does (the engine's own profile denied it).
 */
const struct entitle_request_s *entitle_syscall_denier (const struct entitle_set_s *set,
                                                        const struct entitle_syscall_use_s *s, char *why, size_t len);

/**
 * What would allow @s that @denier's seccomp part refuses (malloc'd): for a
 * rung, the narrowest wider rung of its ladder that denies it in no way
 * (seccomp, or a capability it needs taken away): network.none, then
 * network.user for socket(AF_INET, SOCK_STREAM).  NULL: none does.
 */
char *entitle_syscall_allower (const struct entitle_entry_s *denier, const struct entitle_syscall_use_s *s);

/** The syscalls that some row denies, or that a row's seccomp effect or a
    capability a row takes away may refuse: what entitle learn watches.
    Sorted, unique, NULL-terminated; the array is malloc'd, the strings
    are the rows'.  */
const char **entitle_syscalls_watched (size_t *n);

#endif
