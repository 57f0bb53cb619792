/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_NAMESPACES_H
#define ENTITLE_NAMESPACES_H

#include <stdbool.h>
#include "json.h"

/* linux.namespaces as the compiler edits it (DESIGN §3, §7).  */

/**
 * Apply the namespace effects of @fx (FX_NEW_NETNS, FX_HOST_NETNS,
 * FX_NEW_PIDNS, FX_HOST_PIDNS) to @linux_.  A namespace the engine gave
 * by path (a Kubernetes pod's) is kept, except that FX_NEW_NETNS never
 * leaves the container in the host's network namespace, however the
 * engine named it (Docker's host mode names it by path): that one is
 * replaced by a new, empty namespace.  FX_HOST_NETNS drops the net.*
 * keys of linux.sysctl with the namespace.  FX_HOLD adds a cgroup
 * namespace where there is none.
 */
void entitle_namespaces_apply (json_t *linux_, unsigned fx);

/** Does @linux_ list a namespace of @type ("mount", "network")?  */
bool entitle_namespaces_has (const json_t *linux_, const char *type);

#endif
