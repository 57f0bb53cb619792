/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <fcntl.h>
#include "bpf-read.h"
#include "cgroup.h"
#include "checmate.h"
#include "custom-checmate.h"
#include "hook.h"
#include "utils.h"

/* The Checmate layer at createRuntime (DESIGN §4): where the kernel has
   Checmate and the container's policy has bits a Checmate program reads,
   the programs are loaded once per host, installed (once: the kernel
   tells one installed already), locked where the admin config says
   "lock", and the container's policy is written by its cgroup id, after
   the entries of the cgroups that are gone are dropped.  Here
   rather than in the shim: this hook runs for every container whose
   policy these programs read, links libbpf (the kernel's BTF gives the
   offsets the programs read at), and runs before the container's own
   code, so the front and entitle-full pay nothing for it, and a host
   without Checmate pays one prctl for the containers that could use it.  */

int
hook_checmate (struct entitle_ctx_s *ctx, const struct entitle_policy *policy, uint64_t cgroup_id, const char *mnt,
               entitle_error_t *err)
{
  struct entitle_checmate_s c;
  cleanup_close int mountfd = -1;
  int ret;

  if (!(policy->flags & entitle_layer_bits (entitle_checmate_progs, ENTITLE_CHECMATE_PROGS)) || !entitle_seed_checmate (&entitle_kernel))
    return 0;
  mountfd = open (mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (mountfd < 0)
    return entitle_make_sys_error (err, "open `%s`", mnt);
  ret = entitle_checmate_open (&entitle_kernel, &c, ENTITLE_CHECMATE_DIR, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = entitle_checmate_install (&entitle_kernel, &c, policy->flags, ctx->config->lock, ctx->log, err);
  /* The entries of containers deleted since go first: no poststop hook
     runs for a container whose runtime manages its cgroup (runc's), so
     each create that takes the layer drops them.  */
  if (ret == 0)
    entitle_checmate_sweep (c.policy, mountfd);
  if (ret == 0)
    ret = entitle_checmate_write (&c, cgroup_id, policy, err);
  entitle_checmate_close (&c);
  return ret;
}

/* At the poststop of a container whose cgroup the hook made: its entries
   (entitle's policy, the admin's programs' entitle_data) go now rather
   than at the next create.  One failed open where Checmate never ran.  */
void
hook_checmate_sweep (void)
{
  cleanup_close int dir = open (ENTITLE_CHECMATE_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  cleanup_close int map = -1, mountfd = -1;
  entitle_error_t err = NULL;
  char mnt[256];

  if (dir < 0 || entitle_cgroup2_mount (mnt, sizeof (mnt), &err) < 0
      || (mountfd = open (mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    {
      entitle_error_release (&err);
      return;
    }
  map = entitle_bpf_pin_get ("checmate/entitle_checmate_policy");
  if (map >= 0)
    entitle_checmate_sweep (map, mountfd);
  entitle_custom_checmate_sweep (ENTITLE_CHECMATE_DIR, mountfd);
}
