/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <string.h>
#include "attach.h"
#include "checmate-prctl.h"
#include "seccomp-ebpf.h"
#include "seed-attach.h"

#define CHECMATE_PREFIX "checmate/"

int
entitle_seed_point_parse (const char *point, struct entitle_seed_point_s *out, entitle_error_t *err)
{
  size_t len = strlen (CHECMATE_PREFIX);

  if (strcmp (point, "seccomp") == 0)
    {
      out->iface = ENTITLE_SEED_SECCOMP;
      out->hook = NULL;
      return 0;
    }
  if (strncmp (point, CHECMATE_PREFIX, len) != 0)
    return entitle_make_error (err, EINVAL, "attach point `%s` is no seed interface's (checmate/HOOK or seccomp)",
                               point);
  if (entitle_checmate_hook_find (point + len) < 0)
    return entitle_make_error (err, EINVAL, "attach point `%s`: Checmate has no hook `%s`", point, point + len);
  out->iface = ENTITLE_SEED_CHECMATE;
  out->hook = point + len;
  return 0;
}

int
entitle_seed_point_type (const struct entitle_seed_point_s *p)
{
  return p->iface == ENTITLE_SEED_CHECMATE ? ENTITLE_BPF_PROG_TYPE_CHECMATE : ENTITLE_BPF_PROG_TYPE_SECCOMP;
}

bool
entitle_seed_point_here (const struct entitle_kernel_s *k, const struct entitle_seed_point_s *p)
{
  return p->iface == ENTITLE_SEED_CHECMATE ? entitle_seed_checmate (k) : entitle_seed_seccomp_extended (k);
}

int
entitle_seed_attach (const struct entitle_kernel_s *k, const struct entitle_seed_point_s *p, int fd, bool lock,
                     entitle_error_t *err)
{
  if (p->iface == ENTITLE_SEED_CHECMATE)
    return entitle_checmate_attach (k, p->hook, fd, lock, err);
  if (entitle_seed_seccomp_install (k, fd) < 0)
    return entitle_make_sys_error (err, "eBPF seccomp: install the filter");
  return 0;
}
