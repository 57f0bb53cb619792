/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_ATTACH_H
#define ENTITLE_ATTACH_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>

/* The cgroup BPF attach points entitle probes and uses: one table
   (lib/catalogue/attach.c) that the probe, its JSON, the loader, the hook, explain
   and features all read.  The order is the program order in the loader
   and the bit order of every mask below; adding a point is one row here
   and one enumerator, and a _Static_assert in attach.c catches a row
   missing.  */

enum entitle_attach_point
{
  ATTACH_SOCK_CREATE,
  ATTACH_CONNECT4,
  ATTACH_CONNECT6,
  ATTACH_SENDMSG4,
  ATTACH_SENDMSG6,
  ATTACH_BIND4,
  ATTACH_BIND6,
  ATTACH_SYSCTL,
  ATTACH_SKB_EGRESS,  /* every packet the container's sockets send */
  ATTACH_SKB_INGRESS, /* every packet they receive */
  ATTACH_DEVICE,      /* probed only: the runtimes apply device rules themselves */
  ATTACH_COUNT,
};

#define ATTACH_BIT(a) (1u << (a))
#define ATTACH_ALL    ((1u << ATTACH_COUNT) - 1)

struct entitle_attach_s
{
  const char *name;    /**< "connect4": the probe's JSON, messages, explain */
  const char *program; /**< its program in bpf/progs/entitle.bpf.c, or NULL (probed only) */
  enum bpf_prog_type prog_type;
  enum bpf_attach_type type;
};

/** The table, indexed by enum entitle_attach_point. */
extern const struct entitle_attach_s entitle_attach_points[ATTACH_COUNT];

/** The point named @name ("sysctl"), or -1. */
int entitle_attach_find (const char *name);

/**
 * The names of the points in @mask, ", "-separated, into @buf (always
 * NUL-terminated); returns @buf.
 */
char *entitle_attach_names (unsigned mask, char *buf, size_t size);

/**
 * The names (@name of each bit) of the bits below @count set in @mask,
 * ", "-separated in bit order, into @buf (always NUL-terminated); returns
 * @buf.
 */
char *entitle_bits_names (unsigned mask, unsigned count, const char *(*name) (unsigned bit), char *buf, size_t size);

/* The hooks of the Checmate patch set (the seed's enum checmate_hook, in
   its order): `checmate/HOOK` names one as an admin program's attach
   point.  */
extern const char *const entitle_checmate_hooks[];

/** The seed's number of the Checmate hook @name ("socket_connect"), or -1. */
int entitle_checmate_hook_find (const char *name);

/* The programs of the layers that are not cgroup BPF (DESIGN §4):
   Checmate's global hooks (bpf/progs/seeds.bpf.c) and BPF LSM's
   per-cgroup hooks (bpf/progs/lsm.bpf.c).  Each reads the POL_* bits
   @policy of the container's policy; a row of the catalogue takes a
   program's path where its own policy bits meet them (explain, probe).
   Both are layers beside the cgroup programs and seccomp, which hold
   every promise on their own: where the kernel has neither, nothing is
   refused.  */
struct entitle_entry_s;

struct entitle_layer_prog_s
{
  const char *hook;    /**< "socket_connect": the LSM hook, Checmate's by its name */
  const char *program; /**< the section (Checmate) or program (LSM) that runs there */
  unsigned policy;     /**< the POL_* bits it reads */
  const char *text;    /**< what it does, for people; NULL: no rule (never named) */
};

#define ENTITLE_CHECMATE_PROGS 2
#define ENTITLE_LSM_PROGS      6
extern const struct entitle_layer_prog_s entitle_checmate_progs[ENTITLE_CHECMATE_PROGS];
extern const struct entitle_layer_prog_s entitle_lsm_progs[ENTITLE_LSM_PROGS];

/**
 * The seed and LSM layers' words for @e (a catalogue row), one at a time (@i from 0): the
 * layer ("Checmate", "BPF LSM", "eBPF seccomp") and what it does.  Returns
 * false past the last.  What explain and entitlements(7) print.
 */
bool entitle_layer_text (const struct entitle_entry_s *e, size_t *i, const char **layer, const char **text);

/** The POL_* bits the @n programs at @progs read.  */
unsigned entitle_layer_bits (const struct entitle_layer_prog_s *progs, size_t n);

/**
 * The hooks of the @n programs at @progs whose bits meet @policy,
 * ", "-separated, into @buf (always NUL-terminated); returns @buf.
 */
char *entitle_layer_names (const struct entitle_layer_prog_s *progs, size_t n, unsigned policy, char *buf,
                           size_t size);

#endif
