/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CATALOGUE_H
#define ENTITLE_CATALOGUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "attach.h"
#include "error.h"
#include "values.h"
#include "scmp.h"

/* The entitlement catalogue, version 1 (DESIGN §3): one table, one row per
   entitlement, readable like the design's table.  */

#define ENTITLE_CATALOGUE_VERSION 1

/* Effects that are not capabilities or syscalls.  */
enum
{
  FX_NEW_NETNS = 1u << 0,       /* add a network namespace when none is given */
  FX_HOST_NETNS = 1u << 1,      /* remove the network namespace */
  FX_NEW_PIDNS = 1u << 2,       /* add a pid namespace when none is given */
  FX_HOST_PIDNS = 1u << 3,      /* remove the pid namespace */
  FX_NNP = 1u << 4,             /* noNewPrivileges = true */
  FX_PROC_SYS_RO = 1u << 5,     /* /proc/sys read-only */
  FX_MASK_NET = 1u << 6,        /* mask /proc/sys/net and /sys/class/net */
  FX_SYS_RO = 1u << 7,          /* /sys read-only, /proc/kcore masked */
  FX_CLEAR_RO = 1u << 8,        /* readonlyPaths cleared */
  FX_UNMASK = 1u << 9,          /* maskedPaths cleared but kernel memory and firmware */
  FX_SOCK_UNIX = 1u << 10,      /* socket(), socketpair(): AF_UNIX only */
  FX_SOCK_USER = 1u << 11,      /* socket(): no AF_PACKET, no raw inet sockets */
  FX_NO_DEV_MKNOD = 1u << 12,   /* mknod of device nodes denied */
  FX_PERSONALITY = 1u << 13,    /* personality(): PER_LINUX (and the query) only */
  FX_LSM_UNCONFINED = 1u << 14, /* AppArmor unconfined, SELinux spc_t */
  FX_LANDLOCK = 1u << 16,       /* Landlock, through the in-container helper */
  FX_DEV_DEFAULT = 1u << 17,    /* device cgroup: only the default devices */
  FX_DEV_ALL = 1u << 18,        /* device cgroup: every device */
  FX_HOLD = 1u << 19,           /* kept from entitle's enforcement (entitle_reach) */
  FX_PRIVILEGED = 1u << 20,     /* not kept from it: security.insecure */
};

/* Every FX_* bit: each has its row in entitle_fx_texts (a unit test checks).  */
#define FX_ALL                                                                                                     \
  (FX_NEW_NETNS | FX_HOST_NETNS | FX_NEW_PIDNS | FX_HOST_PIDNS | FX_NNP | FX_PROC_SYS_RO | FX_MASK_NET | FX_SYS_RO \
   | FX_CLEAR_RO | FX_UNMASK | FX_SOCK_UNIX | FX_SOCK_USER | FX_NO_DEV_MKNOD | FX_PERSONALITY | FX_LSM_UNCONFINED  \
   | FX_LANDLOCK | FX_DEV_DEFAULT | FX_DEV_ALL | FX_HOLD | FX_PRIVILEGED)

/* The effects seccomp applies by a syscall's arguments.  */
#define FX_SECCOMP (FX_SOCK_UNIX | FX_SOCK_USER | FX_NO_DEV_MKNOD | FX_PERSONALITY)

enum entitle_domain
{
  DOMAIN_NONE, /* modifiers */
  DOMAIN_NETWORK,
  DOMAIN_SECURITY,
  DOMAIN_DEVICES,
  DOMAIN_PROCESSES,
  DOMAIN_MODULES,
};

struct entitle_policy;
struct entitle_entry_s;
union entitle_value_u;

/** Put @v, a value of row @e, into the cgroup programs' policy (the table of
    bpf/progs/policy.h that its program reads); an error when the table is
    full.  */
typedef int (*entitle_bpf_fill_fn) (struct entitle_policy *policy, const struct entitle_entry_s *e,
                                    const union entitle_value_u *v, entitle_error_t *err);

/* One seccomp rule of a custom row (entitle.json(5)) that the plain
   lists cannot say: argument conditions (ANDed, on distinct argument
   indexes, so that runc and crun read them alike), an action other than
   EPERM.  A rule without either is a name in sys_deny or sys_allow.  */
#define ENTITLE_SYS_RULE_ARGS 6

struct entitle_sys_arg_s
{
  unsigned index;
  enum scmp_compare op; /**< SCMP_CMP_EQ, ... (scmp.h names them as the OCI spec does) */
  uint64_t value, value_two;
};

/* A built-in modifier a custom row implies (its `egress`, `ingress`,
   `bind`: "network.egress=10.0.0.0/8"), parsed once, when the admin config
   is loaded, as a request would be.  */
struct entitle_implied_s
{
  const struct entitle_entry_s *entry; /**< the built-in row (entitle_catalogue_find (NULL, ...)) */
  const char *value;                   /**< as written */
  union entitle_value_u v;             /**< parsed by the row's value kind */
};

struct entitle_sys_rule_s
{
  const char *const *names;
  enum entitle_scmp_act action; /**< ERRNO, KILL_PROCESS, LOG or ALLOW */
  unsigned errno_ret;           /**< for SCMP_ACT_ERRNO */
  unsigned n_args;
  struct entitle_sys_arg_s args[ENTITLE_SYS_RULE_ARGS];
};

/* Where an admin's program attaches besides the cgroup points of
   attach.c: the seed interfaces (DESIGN §4), used only where the probe
   finds them.  */
enum
{
  ENTITLE_POINT_SECCOMP = ATTACH_COUNT, /**< SECCOMP_MODE_FILTER_EXTENDED */
  ENTITLE_POINT_CHECMATE,               /**< PR_CHECMATE, one hook */
};

/* A BPF program of a custom row, checked when the admin config is loaded
   (bpf/custom-progs.c) and attached by entitle-hook beside entitle's own.  */
struct entitle_prog_s
{
  const char *object;  /**< the ELF object (written relative to the admin config's directory) */
  const char *program; /**< the program's name in it */
  const char *attach;  /**< as written: "connect4", "seccomp", "checmate/socket_connect" */
  int point;           /**< enum entitle_attach_point, or ENTITLE_POINT_* */
  int hook;            /**< for ENTITLE_POINT_CHECMATE: the seed's enum checmate_hook */
};

/* One entitlement: everything about it is here, and everything else (the
   resolver, the compiler, the BPF plan, explain, entitlements(7), the
   tests' coverage lists) is derived from the rows.  A unit test checks
   that no row lacks a part another part needs.  */
/* What a row's ports are to the Landlock layer's TCP rules
   (lib/compile/landlock.c), which name ports, never addresses.  */
enum entitle_landlock_tcp
{
  LANDLOCK_TCP_UNSAID = 0, /**< a row with a value that forgot: a unit test fails it */
  LANDLOCK_TCP_NONE,       /**< nothing */
  LANDLOCK_TCP_CONNECT,    /**< the only ports connect may reach: a layer where every rule names its ports */
  LANDLOCK_TCP_BIND,       /**< the only ports bind may take: a bind layer */
  LANDLOCK_TCP_BIND_ADDS,  /**< adds its ports to the bind layer a LANDLOCK_TCP_BIND row makes */
};

/* The value `entitle why` proposes, beside a denial of a row's programs,
   for the denied event to go through (lib/read/denial.c).  */
enum entitle_why_value
{
  WHY_VALUE_UNSAID = 0, /**< a row with a value that forgot: a unit test fails it */
  WHY_VALUE_NONE,       /**< none */
  WHY_VALUE_PORT,       /**< the event's port: "8080" */
  WHY_VALUE_ADDRESS,    /**< the event's address, and port where it has one: "10.0.0.1/32:443" */
};

/* custom_key of a row that a custom row may not imply.  */
#define ENTITLE_NOT_IMPLIED ""

struct entitle_entry_s
{
  const char *name;
  enum entitle_domain domain;
  int rung;                                 /**< position in the domain's ladder, narrow to wide; 0 for a modifier */
  const struct entitle_value_kind_s *value; /**< takes `=VALUE` of this kind (and may repeat), or NULL */
  bool exact_grant;                         /**< granted by exact name only, never by a glob */
  const char *const *cap_add;
  const char *const *cap_drop;  /**< taken away, even where another row adds them */
  const char *const *cap_keep;  /**< an upper bound: every other capability goes, but
                                     what another row adds (cap_add) is added after it */
  const char *const *sys_deny;  /**< blocked whatever the arguments */
  const char *const *sys_allow; /**< allowed (beyond what added capabilities gate) */
  unsigned fx;
  int landlock_abi;               /**< FX_LANDLOCK: the Landlock ABI that holds all of it */
  const char *landlock_below;     /**< what an older ABI leaves open */
  unsigned policy;                /**< POL_* bits for the cgroup programs (bpf/progs/policy.h) */
  unsigned attach;                /**< the cgroup programs it needs (ATTACH_BIT mask) */
  entitle_bpf_fill_fn fill;       /**< puts each value into the policy, for a modifier the programs read */
  const char *bpf_text;           /**< what those programs do, for people */
  const char *const *contradicts; /**< rows that cannot be in force with this one */
  const char *const *limits;      /**< what its promise does not cover, a sentence each */
  const char *note;               /**< more about it for people (entitlements(7), explain), or NULL */
  const char *summary;

  /* What a row that takes a value says to the code that reads values:
     each is a decision a new modifier makes in its row (a unit test fails
     a row with a value that leaves one unsaid).  */
  enum entitle_landlock_tcp landlock_tcp; /**< what its value's ports are to Landlock */
  const char *custom_key;                 /**< the entitle.json(5) key by which a custom row implies it
                                               ("egress"), or ENTITLE_NOT_IMPLIED */
  enum entitle_why_value why_value;       /**< what `why` proposes for an event it denied */

  /* What only custom rows (the admin's, lib/model/custom.c) say so far.  */
  const struct entitle_sys_rule_s *sys_rules; /**< seccomp rules with conditions or another action */
  size_t n_sys_rules;
  const char *const *masked;               /**< paths masked */
  const char *const *readonly;             /**< paths made read-only */
  const struct entitle_implied_s *implies; /**< built-in modifiers with their values, asked for with it by
                                                the same source */
  size_t n_implies;
  const struct entitle_prog_s *progs; /**< the admin's BPF programs */
  size_t n_progs;
  const uint64_t *data; /**< the words the programs find in their entitle_data map */
  size_t n_data;
  const char *custom; /**< the admin config that defines it, or NULL for a built-in row */
  const char *digest; /**< of its definition there (the admin config versions it) */
};

/* The rows one call knows: the built-in ones, and the admin config's
   custom ones (lib/model/custom.c) merged in.  NULL everywhere means the
   built-in table alone, which is searched as it is.  */
struct entitle_catalogue_s
{
  struct entitle_entry_s *rows; /**< built-in and custom, sorted by name */
  size_t n;
  size_t n_custom;
  void **owned; /**< what the custom rows point to */
  size_t n_owned;
};

/** The row named @name (without any `=VALUE`) in @cat (NULL: the built-in
    rows), or NULL. */
const struct entitle_entry_s *entitle_catalogue_find (const struct entitle_catalogue_s *cat, const char *name,
                                                      size_t len);

/**
 * The row whose name is closest to @name (@len bytes, without any
 * `=VALUE`), for a "did you mean" hint: a few typing mistakes away (an
 * extra, missing, wrong or swapped letter), else NULL.  For the error path
 * only.
 */
const struct entitle_entry_s *entitle_catalogue_closest (const struct entitle_catalogue_s *cat, const char *name,
                                                         size_t len);

/** All rows of @cat (NULL: the built-in ones), sorted by name; @n
    receives the count. */
const struct entitle_entry_s *entitle_catalogue_rows (const struct entitle_catalogue_s *cat, size_t *n);

/** Free what @cat holds (the built-in rows are never freed).  */
void entitle_catalogue_free (struct entitle_catalogue_s *cat);

/** Is @name's first component the domain of a built-in row ("network",
    "host", ...)?  No custom entitlement may live there.  */
bool entitle_catalogue_builtin_domain (const char *name, size_t len);

/** Is all @e does done by the cgroup programs (no capability, seccomp,
    namespace, path or device effect)?  entitle-hook alone, from hooks.d,
    applies only those.  */
bool entitle_entry_bpf_only (const struct entitle_entry_s *e);

/** The ladder name of @domain ("network", ...). */
const char *entitle_domain_name (enum entitle_domain domain);

/* The mechanisms that enforce a part of an entitlement, in the order
   `entitle explain` lists them; entitle_mech_name gives each its one
   name for people.  */
enum entitle_mech
{
  ENTITLE_MECH_CAPABILITIES,
  ENTITLE_MECH_SECCOMP,
  ENTITLE_MECH_NAMESPACES,
  ENTITLE_MECH_PATHS,
  ENTITLE_MECH_DEVICE_CGROUP,
  ENTITLE_MECH_PROCESS,
  ENTITLE_MECH_LSM,
  ENTITLE_MECH_CGROUP_BPF,
  ENTITLE_MECH_LANDLOCK,
  ENTITLE_MECH_EBPF_SECCOMP,
  ENTITLE_MECH_CHECMATE,
  ENTITLE_MECH_COUNT_,
};

#define ENTITLE_MECH_BIT(m) (1u << (m))

/** People's name of @mech ("seccomp", "device cgroup", ...). */
const char *entitle_mech_name (enum entitle_mech mech);

/** The names of the mechanisms of the set @mechs (ENTITLE_MECH_BIT), in
    the enum's order, joined with ", " into @buf; @buf is returned.  */
const char *entitle_mech_names (unsigned mechs, char *buf, size_t len);

/* The one model of which mechanism enforces each FX_* effect, with
   people's words for it: what `entitle explain` (its effects and its
   enforcement parts), entitle_paths and entitlements(7) read.  The cgroup
   programs are described by each row's bpf_text.  */
struct entitle_fx_text_s
{
  unsigned fx;
  unsigned mechs; /**< ENTITLE_MECH_BIT of each mechanism that applies it */
  bool lifts;     /**< it lifts what @mechs enforce rather than applying it: no part of its own */
  const char *text;
};

/** The FX_* texts, in the order they read best; @n receives the count. */
const struct entitle_fx_text_s *entitle_fx_texts (size_t *n);

/** The mechanisms (ENTITLE_MECH_BIT) that enforce the FX_* bits @fx, by
    the table of entitle_fx_texts; a bit that lifts enforcement adds none. */
unsigned entitle_fx_mechs (unsigned fx);

/* Capability-gated syscalls, as engines expand Docker's profile: a
   syscall is allowed when any capability listed for it is held.  */
struct entitle_cap_syscalls_s
{
  const char *cap;
  const char *const *syscalls;
};

/** The gating table; @n receives the count. */
const struct entitle_cap_syscalls_s *entitle_cap_gated (size_t *n);

/* The capabilities that reach entitle's enforcement of every container
   (DESIGN §8), with the syscalls through which they reach it.  A process
   that holds one of them is held (FX_HOLD) unless a row of its set has
   FX_PRIVILEGED: the syscalls of each capability it holds are denied.  */
struct entitle_reach_s
{
  const char *cap;
  const char *const *syscalls; /**< denied under FX_HOLD while the capability is held */
  const char *how;             /**< what the capability reaches, for messages and people */
};

/** The reach table; @n receives the count. */
const struct entitle_reach_s *entitle_reach (size_t *n);

/** The FX_* bits of @e as people read them: its own, and FX_HOLD when it
    adds a capability of the reach table (and has no FX_PRIVILEGED).  */
unsigned entitle_entry_fx (const struct entitle_entry_s *e);

/**
 * Is @name, though listed in the gating table, allowed without its
 * capability on the running kernel?  Docker's profile allows ptrace,
 * process_vm_readv and process_vm_writev to everyone from Linux 4.8 on
 * (the kernel checks ptrace access itself since then).
 */
bool entitle_cap_ungated (const char *name);

#endif
