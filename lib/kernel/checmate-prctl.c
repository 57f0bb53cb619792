/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <string.h>
#include "attach.h"
#include "checmate-prctl.h"

bool
entitle_seed_checmate (const struct entitle_kernel_s *k)
{
  /* Checmate answers EBADF for a bad program fd (EPERM without
     CAP_SYS_ADMIN); mainline knows no PR_CHECMATE and answers EINVAL.
     Hook 6 is socket_connect, one the seed runs.  */
  return k->prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 6, (unsigned long)-1, 0) < 0 && errno != EINVAL;
}

static const char *
op_name (int op)
{
  return op == CHECMATE_INSTALL_HOOK ? "install a program at" : op == CHECMATE_DENY_RESET ? "lock"
                                                                                          : "reset";
}

int
entitle_checmate_prctl (const struct entitle_kernel_s *k, int op, const char *hook, int fd, entitle_error_t *err)
{
  int id = entitle_checmate_hook_find (hook);

  if (id < 0)
    return entitle_make_error (err, EINVAL, "checmate: unknown hook `%s`", hook);
  if (k->prctl (PR_CHECMATE, (unsigned long)op, (unsigned long)id, (unsigned long)(op == CHECMATE_INSTALL_HOOK ? fd : 0), 0) == 0)
    return 0;
  if ((op == CHECMATE_INSTALL_HOOK && errno == EEXIST) || (op == CHECMATE_DENY_RESET && errno == EALREADY))
    return 1;
  if (op == CHECMATE_RESET && errno == EPERM)
    return entitle_make_error (err, EPERM, "checmate: hook `%s` is locked (deny_reset, the admin config's \"lock\"): it resets only with a reboot",
                               hook);
  if (errno == ENOENT)
    return entitle_make_error (err, ENOENT, "checmate: this kernel's Checmate runs no programs at hook `%s`", hook);
  /* EINVAL is also Checmate's answer to a program of another type.  */
  if (errno == EINVAL && op == CHECMATE_INSTALL_HOOK && entitle_seed_checmate (k))
    return entitle_make_error (err, EINVAL, "checmate: hook `%s` refuses program fd %d: not a Checmate program", hook, fd);
  if (errno == EINVAL)
    return entitle_make_error (err, EINVAL, "checmate: this kernel has no Checmate (PR_CHECMATE is unknown to it)");
  return entitle_make_sys_error (err, "checmate: %s hook `%s`", op_name (op), hook);
}

int
entitle_checmate_attach (const struct entitle_kernel_s *k, const char *hook, int fd, bool lock, entitle_error_t *err)
{
  int installed = entitle_checmate_prctl (k, CHECMATE_INSTALL_HOOK, hook, fd, err);
  int ret = installed;

  if (installed >= 0 && lock)
    ret = entitle_checmate_prctl (k, CHECMATE_DENY_RESET, hook, -1, err);
  return ret < 0 ? ret : installed;
}
