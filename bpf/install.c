/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "install.h"
#include "utils.h"

/* Is the program @id of @mine's name and instructions (its tag)?  */
static bool
same_program (__u32 id, const struct bpf_prog_info *mine)
{
  struct bpf_prog_info info = { 0 };
  __u32 len = sizeof (info);
  cleanup_close int fd = bpf_prog_get_fd_by_id (id);

  return fd >= 0 && bpf_obj_get_info_by_fd (fd, &info, &len) == 0
         && memcmp (info.tag, mine->tag, sizeof (info.tag)) == 0 && strcmp (info.name, mine->name) == 0;
}

bool
entitle_bpf_attached (int fd, int cgfd, enum bpf_attach_type type, bool like)
{
  struct bpf_prog_info mine = { 0 };
  __u32 len = sizeof (mine), ids[64], n = 64, i;

  if (bpf_obj_get_info_by_fd (fd, &mine, &len) < 0 || bpf_prog_query (cgfd, type, 0, NULL, ids, &n) < 0)
    return false;
  for (i = 0; i < n; i++)
    if (ids[i] == mine.id || (like && same_program (ids[i], &mine)))
      return true;
  return false;
}

int
entitle_bpf_attach (struct entitle_bpf_s *b, unsigned attach, int cgfd, entitle_error_t *err)
{
  int i;

  /* Attached this way (BPF_F_ALLOW_MULTI, no link), the kernel drops the
     attachment with the cgroup.  A program attached already (the hook ran
     twice: from the shim and from hooks.d) stays: the kernel refuses it a
     second time (EINVAL), and only then is it asked whether that was why,
     not before each attach (two calls a program).  */
  for (i = 0; i < ATTACH_COUNT; i++)
    {
      enum bpf_attach_type type = entitle_attach_points[i].type;
      int saved;

      if (!(attach & ATTACH_BIT (i)) || b->prog[i] < 0 || bpf_prog_attach (b->prog[i], cgfd, type, BPF_F_ALLOW_MULTI) == 0)
        continue;
      saved = errno;
      if ((saved == EINVAL || saved == EEXIST) && entitle_bpf_attached (b->prog[i], cgfd, type, false))
        continue;
      errno = saved;
      return entitle_make_sys_error (err, "attach cgroup BPF %s", entitle_attach_points[i].name);
    }
  return 0;
}

int
entitle_bpf_install (struct entitle_bpf_s *b, const struct entitle_policy *policy, uint64_t cgroup_id,
                     entitle_error_t *err)
{
  __u64 key = cgroup_id;

  if (bpf_map_update_elem (b->policy, &key, policy, BPF_ANY) < 0)
    return entitle_make_sys_error (err, "write the policy of cgroup %llu", (unsigned long long)cgroup_id);
  return 0;
}
