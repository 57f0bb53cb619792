/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CGROUP_H
#define ENTITLE_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "error.h"

/* cgroup v2 for the hook: where a container's cgroup is, whether it holds
   anything else, and a cgroup of its own when it does (crun with
   --cgroup-manager=disabled leaves the container in its caller's).  */

/* ENTITLE_BPF_PINS (config.h, configure --with-bpf-pins) is where
   entitle-hook pins its shared programs and maps (bpf/loader.c); the shim
   looks for it too.  */

/** The cgroup2 mount of this mount namespace into @buf: where runc and
    crun look for it, else the first /proc/self/mountinfo lists.  */
int entitle_cgroup2_mount (char *buf, size_t len, entitle_error_t *err);

/** The cgroup v2 path of @pid ("0::" line), relative to the mount.  */
int entitle_cgroup_of_pid (pid_t pid, char *buf, size_t len, entitle_error_t *err);

/** Does the cgroup directory @dir hold processes other than @pid?  */
int entitle_cgroup_shared (const char *dir, pid_t pid, entitle_error_t *err);

/** Move @pid into the cgroup directory @dir.  */
int entitle_cgroup_move (const char *dir, pid_t pid, entitle_error_t *err);

/** The cgroup id of @dir (its kernfs inode), 0 on error.  */
uint64_t entitle_cgroup_id (int dirfd);

/** Is a cgroup with this id still there (under the mount @mountfd)?  */
bool entitle_cgroup_alive (int mountfd, uint64_t id);

/** The path of the cgroup @id in this mount namespace (under @mountfd).  */
int entitle_cgroup_path_of_id (int mountfd, uint64_t id, char *buf, size_t len);

#endif
