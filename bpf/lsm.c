/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "lsm.h"
#ifdef ENTITLE_HAVE_BPF_LSM
#include "lsm.skel.h"
#endif

static void
init_fds (struct entitle_lsm_s *l)
{
  for (size_t i = 0; i < ENTITLE_LSM_PROGS; i++)
    l->prog[i] = -1;
}

void
entitle_lsm_close (struct entitle_lsm_s *l)
{
  for (size_t i = 0; i < ENTITLE_LSM_PROGS; i++)
    if (l->prog[i] >= 0)
      close (l->prog[i]);
  init_fds (l);
}

#ifdef ENTITLE_HAVE_BPF_LSM
/* Each program's fd, kept past the skeleton.  */
static int
keep_fds (struct lsm_bpf *skel, struct entitle_lsm_s *l, entitle_error_t *err)
{
  for (size_t i = 0; i < ENTITLE_LSM_PROGS; i++)
    {
      struct bpf_program *p = bpf_object__find_program_by_name (skel->obj, entitle_lsm_progs[i].program);
      if (p == NULL || (l->prog[i] = dup (bpf_program__fd (p))) < 0)
        {
          entitle_lsm_close (l);
          return entitle_make_error (err, ENOENT, "BPF LSM: no program `%s`", entitle_lsm_progs[i].program);
        }
    }
  return 0;
}

int
entitle_lsm_load (int policy_fd, struct entitle_lsm_s *l, entitle_error_t *err)
{
  struct lsm_bpf *skel = lsm_bpf__open ();
  int ret;

  init_fds (l);
  if (skel == NULL)
    return entitle_make_sys_error (err, "BPF LSM: open the object");
  ret = bpf_map__reuse_fd (skel->maps.entitle_policy, policy_fd);
  if (ret == 0)
    ret = lsm_bpf__load (skel);
  if (ret < 0)
    {
      lsm_bpf__destroy (skel);
      errno = -ret;
      return entitle_make_sys_error (err, "BPF LSM: load the programs (the kernel runs them only with the bpf LSM "
                                          "enabled, lsm=...,bpf)");
    }
  ret = keep_fds (skel, l, err);
  lsm_bpf__destroy (skel);
  return ret;
}
#else
int
entitle_lsm_load (int policy_fd, struct entitle_lsm_s *l, entitle_error_t *err)
{
  (void)policy_fd;
  init_fds (l);
  return entitle_make_error (err, ENOSYS, "BPF LSM: this build left the programs out (no kernel BTF to build them with)");
}
#endif

static void
pin_path (char *buf, size_t len, const char *dir, size_t i)
{
  snprintf (buf, len, "%s/%s", dir, entitle_lsm_progs[i].program);
}

int
entitle_lsm_pin (const struct entitle_lsm_s *l, const char *dir, entitle_error_t *err)
{
  char path[256];

  for (size_t i = 0; i < ENTITLE_LSM_PROGS; i++)
    {
      pin_path (path, sizeof (path), dir, i);
      if (bpf_obj_pin (l->prog[i], path) < 0)
        return entitle_make_sys_error (err, "BPF LSM: pin `%s`", path);
    }
  return 0;
}

int
entitle_lsm_open (const char *dir, struct entitle_lsm_s *l)
{
  char path[256];

  init_fds (l);
  /* The first pin says whether they loaded here: one lookup on a host
     whose kernel refused them.  */
  for (size_t i = 0; i < ENTITLE_LSM_PROGS; i++)
    {
      pin_path (path, sizeof (path), dir, i);
      if ((l->prog[i] = bpf_obj_get (path)) < 0)
        {
          entitle_lsm_close (l);
          return 0;
        }
    }
  return 1;
}

int
entitle_lsm_attach (const struct entitle_lsm_s *l, unsigned policy, int cgfd, entitle_error_t *err)
{
  for (size_t i = 0; i < ENTITLE_LSM_PROGS; i++)
    if ((entitle_lsm_progs[i].policy & policy)
        && bpf_prog_attach (l->prog[i], cgfd, BPF_LSM_CGROUP, BPF_F_ALLOW_MULTI) < 0 && errno != EEXIST)
      return entitle_make_sys_error (err, "attach BPF LSM %s", entitle_lsm_progs[i].hook);
  return 0;
}
