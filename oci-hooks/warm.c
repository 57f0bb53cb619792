/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "hook.h"
#include "install.h"
#include "lsm.h"
#include "utils.h"

/* The kernel turns an attach type's static key on at its first attachment
   anywhere on the host and off at its last (and makes a BPF LSM hook's
   trampoline at the first lsm_cgroup attachment): both patch kernel text
   with an interrupt on every CPU, 3-7 ms on a create where no other
   container has entitle's programs, and again at delete in a kworker.
   One attachment of each of entitle's programs on a cgroup of its own,
   which no process ever enters, keeps them in place: a create then pays
   one stat.  The cgroup's child `ready` is made last: it says every
   attachment is there (a hook killed half way leaves it to the next).
   Speed only: a failure here changes nothing the container gets.  */

#define WARM_CGROUP "entitle-warm"

void
hook_keep_warm (struct entitle_bpf_s *b, const char *mnt)
{
  char dir[PATH_MAX], ready[PATH_MAX + 8];
  struct entitle_lsm_s l;
  entitle_error_t err = NULL;
  cleanup_close int fd = -1;
  struct stat sb;
  int ret;

  if ((size_t)snprintf (dir, sizeof (dir), "%s/" WARM_CGROUP, mnt) >= sizeof (dir))
    return;
  snprintf (ready, sizeof (ready), "%s/ready", dir);
  if (stat (ready, &sb) == 0)
    return;
  if (mkdir (dir, 0755) < 0 && errno != EEXIST)
    return;
  fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return;
  ret = entitle_bpf_attach (b, ~0u, fd, &err);
  if (ret == 0 && entitle_lsm_open (ENTITLE_BPF_DIR, &l) > 0)
    {
      ret = entitle_lsm_attach (&l, ~0u, fd, &err);
      entitle_lsm_close (&l);
    }
  entitle_error_release (&err);
  if (ret == 0)
    mkdir (ready, 0755);
}
