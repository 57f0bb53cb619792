/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_LANDLOCK_H
#define ENTITLE_LANDLOCK_H

#include <stdbool.h>
#include "context.h"
#include "entitlements.h"
#include "json.h"

/* Per-process enforcement through the in-container helper, entitle-init
   (entitle-init(8)): Landlock restricts only the process that applies it
   and its children, so the container's own process must apply it.
   create bind-mounts the helper read-only at ENTITLE_INIT_DEST and puts it
   with its rules in front of process.args; exec does the same to the
   exec'd process.  */

/* In the container's /dev: every engine mounts a tmpfs there that is the
   container's own, so the mount point is made in it, never in the image
   (a read-only rootfs works, and nothing is left in the image); the bind
   mount's own flags apply, not those of the tmpfs (Podman's is noexec).  */
#define ENTITLE_INIT_DEST "/dev/entitle-init"

/* The most TCP ports one Landlock net rule kind takes (one rule a port):
   beyond, that kind is left to the cgroup programs alone.  */
#define ENTITLE_LANDLOCK_MAX_PORTS 1024

/** Does @set hold an entitlement that Landlock enforces (FX_LANDLOCK)?  */
bool entitle_landlock_needed (const struct entitle_set_s *set);

/** The kernel's Landlock ABI, 0 when it has none; asked once per @ctx.  */
int entitle_landlock_abi (struct entitle_ctx_s *ctx);

/**
 * Is Landlock here: the one test of whether this host can enforce the
 * FX_LANDLOCK entitlements (the refuse-or-warn decision asks it).
 */
bool entitle_landlock_available (struct entitle_ctx_s *ctx);

/**
 * Does a container with @set run its processes through the helper: for
 * Landlock, or for the eBPF seccomp layer (lib/compile/layers.h)?
 */
bool entitle_landlock_wraps (struct entitle_ctx_s *ctx, const struct entitle_set_s *set);

/** The fd the helper finds its eBPF seccomp filter at: the one after the
    runtime's --preserve-fds.  */
int entitle_helper_seccomp_fd (const struct entitle_ctx_s *ctx);

/**
 * The helper's command line for @set, from ENTITLE_INIT_DEST to "--"
 * included: where the kernel has Landlock, --fs.write and --fs.read with
 * the paths, and the TCP ports of the second network layer
 * (--tcp-connect, --tcp-bind) where Landlock can hold them without
 * denying what the cgroup programs allow; where the set takes the eBPF
 * seccomp layer, --seccomp-fd FD.  NULL-terminated, malloc'd; free with
 * cleanup_strv.
 */
char **entitle_landlock_argv (struct entitle_ctx_s *ctx, const struct entitle_set_s *set);

/**
 * Put the helper for @set in front of @process's args.  A prefix that an
 * earlier compile put there is replaced, so that a rewritten config
 * compiles to the same bytes.  A process without args runs nothing (the
 * runtimes refuse it) and is left alone.
 */
void entitle_landlock_wrap (struct entitle_ctx_s *ctx, json_t *process, const struct entitle_set_s *set);

/**
 * create: where @set needs the helper and Landlock is here, mount the
 * helper (last, so that no mount hides it; /dev must be a tmpfs) and wrap
 * process.args.  Without Landlock the set was refused, or warned about
 * under on_unenforceable "warn": nothing is added.
 */
int entitle_landlock_apply (struct entitle_ctx_s *ctx, json_t *spec, const struct entitle_set_s *set,
                            entitle_error_t *err);

#endif
