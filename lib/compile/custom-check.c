/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <seccomp.h>
#include <string.h>
#include <sys/capability.h>
#include "custom-check.h"

static int
check_caps (const char *const *caps, entitle_error_t *err)
{
  cap_value_t v;

  for (; caps && *caps; caps++)
    if (cap_from_name (*caps, &v) < 0)
      return entitle_make_error (err, EINVAL, "unknown capability `%s`", *caps);
  return 0;
}

/* A name libseccomp cannot resolve would be dropped (allowed) or left
   unenforced (denied) by the runtime: refused here instead.  */
static int
check_syscalls (const char *const *names, entitle_error_t *err)
{
  for (; names && *names; names++)
    if (seccomp_syscall_resolve_name (*names) == __NR_SCMP_ERROR)
      return entitle_make_error (err, EINVAL, "unknown syscall `%s` (libseccomp %u.%u, this architecture)", *names,
                                 seccomp_version ()->major, seccomp_version ()->minor);
  return 0;
}

static int
check_row (const struct entitle_entry_s *e, entitle_error_t *err)
{
  size_t i;
  int ret = check_caps (e->cap_add, err);

  if (ret == 0)
    ret = check_caps (e->cap_drop, err);
  if (ret == 0)
    ret = check_syscalls (e->sys_deny, err);
  if (ret == 0)
    ret = check_syscalls (e->sys_allow, err);
  for (i = 0; ret == 0 && i < e->n_sys_rules; i++)
    ret = check_syscalls (e->sys_rules[i].names, err);
  return ret;
}

int
entitle_custom_check (const struct entitle_catalogue_s *cat, entitle_error_t *err)
{
  size_t i;

  for (i = 0; cat->n_custom && i < cat->n; i++)
    {
      const struct entitle_entry_s *e = &cat->rows[i];
      int ret = e->custom ? check_row (e, err) : 0;
      if (UNLIKELY (ret < 0))
        return entitle_error_wrap (err, "`%s`: entitlement `%s`", e->custom, e->name);
    }
  return 0;
}
