/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include "cap-watch.h"
#include "checmate.h"
#include "custom-checmate.h"
#include "custom-progs.h"
#include "install.h"
#include "loader.h"
#include "lsm.h"
#include "probe.h"

/* configure --disable-bpf (as systemd's stubs without its BPF framework):
   the calls of bpf/ with no program behind them.  Create refuses every
   entitlement that needs one first (lib/host/probe.c), so these only
   answer a caller that asks anyway, with the same reason; what releases
   or sweeps has nothing to do.  */

static int
no_bpf (entitle_error_t *err)
{
  return entitle_make_error (err, ENOTSUP, "%s", ENTITLE_NO_BPF);
}

int
entitle_bpf_open (struct entitle_bpf_s *b, bool create, entitle_error_t *err)
{
  (void)b;
  (void)create;
  return no_bpf (err);
}

void
entitle_bpf_close (struct entitle_bpf_s *b)
{
  (void)b;
}

int
entitle_bpf_attach (struct entitle_bpf_s *b, unsigned attach, int cgfd, entitle_error_t *err)
{
  (void)b;
  (void)attach;
  (void)cgfd;
  return no_bpf (err);
}

int
entitle_bpf_install (struct entitle_bpf_s *b, const struct entitle_policy *policy, uint64_t cgroup_id,
                     entitle_error_t *err)
{
  (void)b;
  (void)policy;
  (void)cgroup_id;
  return no_bpf (err);
}

/* Nothing to check in the admin's objects: create refuses the
   entitlements that name them.  */
int
entitle_bpf_custom_check (const struct entitle_catalogue_s *cat, entitle_error_t *err)
{
  (void)cat;
  (void)err;
  return 0;
}

int
entitle_bpf_custom_attach (const struct entitle_entry_s *e, const struct entitle_prog_s *p, int cgfd,
                           uint64_t cgroup_id, entitle_error_t *err)
{
  (void)e;
  (void)p;
  (void)cgfd;
  (void)cgroup_id;
  return no_bpf (err);
}

int
entitle_bpf_custom_seccomp_load (const struct entitle_kernel_s *k, const struct entitle_entry_s *e,
                                 const struct entitle_prog_s *p, entitle_error_t *err)
{
  (void)k;
  (void)e;
  (void)p;
  return no_bpf (err);
}

int
entitle_checmate_layout (struct entitle_checmate_layout *l, entitle_error_t *err)
{
  (void)l;
  return no_bpf (err);
}

int
entitle_checmate_load (const struct entitle_kernel_s *k, struct entitle_checmate_s *c, entitle_error_t *err)
{
  (void)k;
  (void)c;
  return no_bpf (err);
}

int
entitle_checmate_open (const struct entitle_kernel_s *k, struct entitle_checmate_s *c, const char *dir,
                       entitle_error_t *err)
{
  (void)k;
  (void)c;
  (void)dir;
  return no_bpf (err);
}

void
entitle_checmate_close (struct entitle_checmate_s *c)
{
  (void)c;
}

int
entitle_checmate_install (const struct entitle_kernel_s *k, const struct entitle_checmate_s *c, unsigned policy,
                          bool lock, const struct entitle_log_s *log, entitle_error_t *err)
{
  (void)k;
  (void)c;
  (void)policy;
  (void)lock;
  (void)log;
  return no_bpf (err);
}

int
entitle_checmate_write (const struct entitle_checmate_s *c, uint64_t id, const struct entitle_policy *policy,
                        entitle_error_t *err)
{
  (void)c;
  (void)id;
  (void)policy;
  return no_bpf (err);
}

void
entitle_checmate_sweep (int policy_map, int mountfd)
{
  (void)policy_map;
  (void)mountfd;
}

int
entitle_custom_checmate_open (const struct entitle_kernel_s *k, const struct entitle_entry_s *e,
                              const struct entitle_prog_s *p, const char *dir, struct entitle_custom_checmate_s *c,
                              entitle_error_t *err)
{
  (void)k;
  (void)e;
  (void)p;
  (void)dir;
  (void)c;
  return no_bpf (err);
}

int
entitle_custom_checmate_enforce (const struct entitle_kernel_s *k, const struct entitle_entry_s *e,
                                 const struct entitle_prog_s *p, const struct entitle_custom_checmate_s *c,
                                 uint64_t cgroup_id, bool lock, int mountfd, entitle_error_t *err)
{
  (void)k;
  (void)e;
  (void)p;
  (void)c;
  (void)cgroup_id;
  (void)lock;
  (void)mountfd;
  return no_bpf (err);
}

void
entitle_custom_checmate_close (struct entitle_custom_checmate_s *c)
{
  (void)c;
}

void
entitle_custom_checmate_sweep (const char *dir, int mountfd)
{
  (void)dir;
  (void)mountfd;
}

int
entitle_lsm_load (int policy_fd, struct entitle_lsm_s *l, entitle_error_t *err)
{
  (void)policy_fd;
  (void)l;
  return no_bpf (err);
}

int
entitle_lsm_pin (const struct entitle_lsm_s *l, const char *dir, entitle_error_t *err)
{
  (void)l;
  (void)dir;
  return no_bpf (err);
}

void
entitle_lsm_unpin (const char *dir)
{
  (void)dir;
}

/* No programs pinned, as on a host without the bpf LSM.  */
int
entitle_lsm_open (const char *dir, struct entitle_lsm_s *l)
{
  (void)dir;
  (void)l;
  return -1;
}

void
entitle_lsm_close (struct entitle_lsm_s *l)
{
  (void)l;
}

int
entitle_lsm_mark_setup (const struct entitle_lsm_s *l, pid_t pid, entitle_error_t *err)
{
  (void)l;
  (void)pid;
  return no_bpf (err);
}

int
entitle_lsm_attach (const struct entitle_lsm_s *l, unsigned policy, int cgfd, entitle_error_t *err)
{
  (void)l;
  (void)policy;
  (void)cgfd;
  return no_bpf (err);
}

int
entitle_cap_watch_open (struct entitle_cap_watch_s *c, entitle_error_t *err)
{
  c->skel = NULL;
  c->way = NULL;
  return no_bpf (err);
}

void
entitle_cap_watch_arm (struct entitle_cap_watch_s *c, uint64_t cgroup, unsigned level)
{
  (void)c;
  (void)cgroup;
  (void)level;
}

size_t
entitle_cap_watch_read (const struct entitle_cap_watch_s *c, struct entitle_cap_use_s *out, size_t room)
{
  (void)c;
  (void)out;
  (void)room;
  return 0;
}

void
entitle_cap_watch_close (struct entitle_cap_watch_s *c)
{
  (void)c;
}

/* The readers of bpf-read.h: nothing is pinned in a build without BPF
   (the store and the policies are absent, as before any program of a
   build with BPF was loaded), and the kernel's programs are not asked.  */
#include "bpf-read.h"

int
entitle_bpf_pin_get (const char *name)
{
  (void)name;
  errno = ENOENT;
  return -1;
}

int
entitle_bpf_lookup (int fd, const void *key, void *value)
{
  (void)fd;
  (void)key;
  (void)value;
  errno = ENOENT;
  return -1;
}

int
entitle_bpf_cgroup_progs (int cgfd, enum bpf_attach_type type, uint32_t flags, uint32_t *ids, uint32_t *n)
{
  (void)cgfd;
  (void)type;
  (void)flags;
  (void)ids;
  *n = 0;
  errno = ENOTSUP;
  return -1;
}

int
entitle_bpf_info (int fd, void *info, uint32_t len)
{
  (void)fd;
  (void)info;
  (void)len;
  errno = ENOTSUP;
  return -1;
}

int
entitle_bpf_prog_info_by_id (uint32_t id, struct bpf_prog_info *info)
{
  (void)id;
  return entitle_bpf_info (-1, info, sizeof (*info));
}
