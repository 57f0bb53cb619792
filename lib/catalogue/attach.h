/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_ATTACH_H
#define ENTITLE_ATTACH_H

#include <linux/bpf.h>
#include <stdbool.h>

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

/* The hooks of the Checmate patch set (the seed's enum checmate_hook, in
   its order): `checmate/HOOK` names one as an admin program's attach
   point.  */
extern const char *const entitle_checmate_hooks[];

/** The seed's number of the Checmate hook @name ("socket_connect"), or -1. */
int entitle_checmate_hook_find (const char *name);

#endif
