/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <string.h>
#include "catalogue.h"
#include "layers.h"
#include "seccomp-ebpf.h"
#include "utils.h"

/* The seccomp effects the filter judges by argument, and its flag.  */
static const struct
{
  unsigned fx, flag;
} by_argument[] = {
  { FX_SOCK_UNIX, SECCOMP_POL_UNIX_ONLY },
  { FX_SOCK_USER, SECCOMP_POL_NO_PACKET },
  { FX_NO_DEV_MKNOD, SECCOMP_POL_NO_DEV_NODE },
  { FX_PERSONALITY, SECCOMP_POL_PERSONALITY },
};

static bool
has_syscall_rules (const struct entitle_set_s *set)
{
  for (size_t i = 0; i < set->n; i++)
    if (set->items[i].entry->sys_deny || (set->items[i].entry->fx & FX_SECCOMP))
      return true;
  return false;
}

/* Memoized in @ctx: one prctl per call at most.  */
static bool
kernel_has_ebpf_seccomp (struct entitle_ctx_s *ctx)
{
  if (ctx->seccomp_ebpf < 0)
    ctx->seccomp_ebpf = entitle_seed_seccomp_extended (&entitle_kernel);
  return ctx->seccomp_ebpf;
}

bool
entitle_layers_seccomp (struct entitle_ctx_s *ctx, const struct entitle_set_s *set)
{
  return has_syscall_rules (set) && kernel_has_ebpf_seccomp (ctx);
}

size_t
entitle_layers_seccomp_custom (const struct entitle_set_s *set, struct entitle_seccomp_custom_s *out, size_t max)
{
  size_t i, k, n = 0;

  for (i = 0; i < set->n; i++)
    {
      const struct entitle_entry_s *e = set->items[i].entry;

      /* A row with several values comes once (the set is sorted).  */
      if (i > 0 && set->items[i - 1].entry == e)
        continue;
      for (k = 0; k < e->n_progs; k++)
        {
          if (e->progs[k].point != ENTITLE_POINT_SECCOMP)
            continue;
          if (out && n < max)
            out[n] = (struct entitle_seccomp_custom_s){ e, &e->progs[k] };
          n++;
        }
    }
  return n;
}

size_t
entitle_layers_seccomp_filters (struct entitle_ctx_s *ctx, const struct entitle_set_s *set)
{
  size_t custom = entitle_layers_seccomp_custom (set, NULL, 0);
  size_t own = entitle_layers_seccomp (ctx, set) ? 1 : 0;

  /* The kernel is asked only for a set with a filter to give it.  */
  if (custom == 0)
    return own;
  return kernel_has_ebpf_seccomp (ctx) ? own + custom : 0;
}

/* Another row of @set allows @name: a rung's "still deny" yields to it,
   as in the classic profile.  */
static bool
allowed_by (const struct entitle_set_s *set, const char *name)
{
  for (size_t i = 0; i < set->n; i++)
    if (entitle_strv_has ((char *const *)set->items[i].entry->sys_allow, name))
      return true;
  return false;
}

static __u32
native_nr (const char *name)
{
  int nr = seccomp_syscall_resolve_name (name);
  return nr < 0 ? ~0u : (__u32)nr;
}

void
entitle_layers_seccomp_policy (const struct entitle_set_s *set, struct entitle_seccomp_policy *p)
{
  memset (p, 0, sizeof (*p));
  /* libseccomp's SCMP_ARCH_* are the kernel's AUDIT_ARCH_*.  */
  p->arch = seccomp_arch_native ();
  p->errno_ret = SECCOMP_RET_ERRNO | EPERM;
  p->nr_socket = native_nr ("socket");
  p->nr_socketpair = native_nr ("socketpair");
  p->nr_mknod = native_nr ("mknod");
  p->nr_mknodat = native_nr ("mknodat");
  p->nr_personality = native_nr ("personality");
  for (size_t i = 0; i < set->n; i++)
    {
      const struct entitle_entry_s *e = set->items[i].entry;

      for (size_t k = 0; k < sizeof (by_argument) / sizeof (by_argument[0]); k++)
        if (e->fx & by_argument[k].fx)
          p->flags |= by_argument[k].flag;
      for (const char *const *s = e->sys_deny; s && *s; s++)
        {
          __u32 nr = native_nr (*s);
          if (nr < ENTITLE_SECCOMP_NR && !allowed_by (set, *s))
            p->deny[nr / 8] |= (__u8)(1u << (nr % 8));
        }
    }
}
