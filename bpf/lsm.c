/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "lsm.h"
#include "utils.h"
#ifdef ENTITLE_HAVE_BPF_LSM
#include "lsm.skel.h"
#endif

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* The pin of the runtime's-setup marks (bpf/progs/lsm.bpf.c), beside the
   programs'.  */
#define SETUP_PIN "entitle_setup"

static void
init_fds (struct entitle_lsm_s *l)
{
  for (size_t i = 0; i < ENTITLE_LSM_PROGS; i++)
    l->prog[i] = -1;
  l->setup = -1;
}

void
entitle_lsm_close (struct entitle_lsm_s *l)
{
  for (size_t i = 0; i < ENTITLE_LSM_PROGS; i++)
    if (l->prog[i] >= 0)
      close (l->prog[i]);
  if (l->setup >= 0)
    close (l->setup);
  init_fds (l);
}

#ifdef ENTITLE_HAVE_BPF_LSM
/* Each program's fd and the marks', kept past the skeleton.  */
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
  if ((l->setup = dup (bpf_map__fd (skel->maps.entitle_setup))) < 0)
    {
      entitle_lsm_close (l);
      return entitle_make_sys_error (err, "BPF LSM: keep the map `%s`", SETUP_PIN);
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
  /* The storage is the one the caller names, and nothing else: the map is
     declared pinned by name (bpf/progs/storage.h, for the cgroup
     programs' object), and libbpf would otherwise pin it at the bpffs
     root, and at a later load take whatever map of that name is pinned
     there instead of @policy_fd (a test's, an older build's): programs
     that read a storage no hook writes, and refuse nothing.  */
  ret = bpf_map__set_pin_path (skel->maps.entitle_policy, NULL);
  if (ret == 0)
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
  snprintf (buf, len, "%s/%s", dir, i < ENTITLE_LSM_PROGS ? entitle_lsm_progs[i].program : SETUP_PIN);
}

int
entitle_lsm_pin (const struct entitle_lsm_s *l, const char *dir, entitle_error_t *err)
{
  char path[256];

  for (size_t i = 0; i <= ENTITLE_LSM_PROGS; i++)
    {
      pin_path (path, sizeof (path), dir, i);
      if (bpf_obj_pin (i < ENTITLE_LSM_PROGS ? l->prog[i] : l->setup, path) < 0)
        {
          int ret = entitle_make_sys_error (err, "BPF LSM: pin `%s`", path);
          entitle_lsm_unpin (dir);
          return ret;
        }
    }
  return 0;
}

void
entitle_lsm_unpin (const char *dir)
{
  char path[256];

  for (size_t i = 0; i <= ENTITLE_LSM_PROGS; i++)
    {
      pin_path (path, sizeof (path), dir, i);
      unlink (path);
    }
}

int
entitle_lsm_open (const char *dir, struct entitle_lsm_s *l)
{
  char path[256];

  init_fds (l);
  /* The first pin says whether they loaded here: one lookup on a host
     whose kernel refused them.  */
  for (size_t i = 0; i <= ENTITLE_LSM_PROGS; i++)
    {
      int *fd = i < ENTITLE_LSM_PROGS ? &l->prog[i] : &l->setup;
      pin_path (path, sizeof (path), dir, i);
      if ((*fd = bpf_obj_get (path)) < 0)
        {
          entitle_lsm_close (l);
          return 0;
        }
    }
  return 1;
}

int
entitle_lsm_mark_setup (const struct entitle_lsm_s *l, pid_t pid, entitle_error_t *err)
{
  cleanup_close int pidfd = (int)syscall (SYS_pidfd_open, pid, 0);
  uint32_t mark = 1;

  if (pidfd < 0)
    return entitle_make_sys_error (err, "BPF LSM: open the runtime's process %d", (int)pid);
  if (bpf_map_update_elem (l->setup, &pidfd, &mark, BPF_ANY) < 0)
    return entitle_make_sys_error (err, "BPF LSM: mark the runtime's process %d as in its setup", (int)pid);
  return 0;
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
