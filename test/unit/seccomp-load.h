/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_TEST_SECCOMP_LOAD_H
#define ENTITLE_TEST_SECCOMP_LOAD_H

/* Load an OCI linux.seccomp object into a libseccomp filter exactly as
   runc 1.1.5 (libcontainer/seccomp/seccomp_linux.go) and crun 1.8.1
   (src/libcrun/seccomp.c) do, so that a unit test sees the error the
   runtime would fail the container with ("error adding seccomp rule for
   syscall socket: file exists"):
   - the default action, then every listed architecture;
   - a rule whose action equals the default action is skipped;
   - names libseccomp cannot resolve for the native architecture are
     skipped (both runtimes log and go on);
   - a rule without arguments is seccomp_rule_add; with arguments, one
     seccomp_rule_add_array of all of them, unless an argument index
     repeats: then one rule per condition (an OR);
   - any other failure of libseccomp fails the load.
   Nothing is loaded into the kernel.  Returns 0, or a negative errno
   with a message in @why.  */

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"

static inline int
seccomp_load_op (const char *op, enum scmp_compare *out)
{
  static const struct
  {
    const char *name;
    enum scmp_compare op;
  } ops[] = {
    { "SCMP_CMP_NE", SCMP_CMP_NE },
    { "SCMP_CMP_LT", SCMP_CMP_LT },
    { "SCMP_CMP_LE", SCMP_CMP_LE },
    { "SCMP_CMP_EQ", SCMP_CMP_EQ },
    { "SCMP_CMP_GE", SCMP_CMP_GE },
    { "SCMP_CMP_GT", SCMP_CMP_GT },
    { "SCMP_CMP_MASKED_EQ", SCMP_CMP_MASKED_EQ },
  };
  size_t i;
  for (i = 0; op && i < sizeof (ops) / sizeof (ops[0]); i++)
    if (strcmp (op, ops[i].name) == 0)
      {
        *out = ops[i].op;
        return 0;
      }
  return -EINVAL;
}

static inline int
seccomp_load_action (const json_t *rule, const char *action_key, const char *errno_key, uint32_t *out)
{
  const char *a = json_string (json_get (rule, action_key));
  const json_t *e = json_get (rule, errno_key);
  unsigned long ret = e && e->type == JSON_NUMBER ? strtoul (e->text, NULL, 10) : EPERM;

  if (a == NULL)
    return -EINVAL;
  if (strcmp (a, "SCMP_ACT_ALLOW") == 0)
    *out = SCMP_ACT_ALLOW;
  else if (strcmp (a, "SCMP_ACT_ERRNO") == 0)
    *out = SCMP_ACT_ERRNO (ret);
  else if (strcmp (a, "SCMP_ACT_TRACE") == 0)
    *out = SCMP_ACT_TRACE (ret);
  else if (strcmp (a, "SCMP_ACT_KILL") == 0 || strcmp (a, "SCMP_ACT_KILL_THREAD") == 0)
    *out = SCMP_ACT_KILL_THREAD;
  else if (strcmp (a, "SCMP_ACT_KILL_PROCESS") == 0)
    *out = SCMP_ACT_KILL_PROCESS;
  else if (strcmp (a, "SCMP_ACT_TRAP") == 0)
    *out = SCMP_ACT_TRAP;
  else if (strcmp (a, "SCMP_ACT_LOG") == 0)
    *out = SCMP_ACT_LOG;
  else if (strcmp (a, "SCMP_ACT_NOTIFY") == 0)
    *out = SCMP_ACT_NOTIFY;
  else
    return -EINVAL;
  return 0;
}

static inline int
seccomp_load_conds (const json_t *args, struct scmp_arg_cmp *c, unsigned *n, bool *repeated)
{
  unsigned seen = 0, i;

  *n = 0;
  *repeated = false;
  for (i = 0; args && args->type == JSON_ARRAY && i < args->n && i < 6; i++)
    {
      const json_t *a = args->items[i];
      const json_t *v = json_get (a, "value"), *v2 = json_get (a, "valueTwo");
      unsigned long index = strtoul (json_get (a, "index") ? json_get (a, "index")->text : "9", NULL, 10);
      enum scmp_compare op;

      if (index > 5 || seccomp_load_op (json_string (json_get (a, "op")), &op) < 0)
        return -EINVAL;
      *repeated |= (seen & (1u << index)) != 0;
      seen |= 1u << index;
      c[*n].arg = (unsigned)index;
      c[*n].op = op;
      c[*n].datum_a = v ? strtoull (v->text, NULL, 10) : 0;
      c[*n].datum_b = v2 ? strtoull (v2->text, NULL, 10) : 0;
      ++*n;
    }
  return 0;
}

static inline int
seccomp_load_rule (scmp_filter_ctx ctx, uint32_t def, const json_t *rule, char *why, size_t len)
{
  const json_t *names = json_get (rule, "names"), *args = json_get (rule, "args");
  struct scmp_arg_cmp c[6];
  uint32_t action;
  unsigned n, i, k;
  bool repeated;
  int ret;

  if (seccomp_load_action (rule, "action", "errnoRet", &action) < 0
      || seccomp_load_conds (args, c, &n, &repeated) < 0)
    {
      snprintf (why, len, "invalid rule");
      return -EINVAL;
    }
  if (action == def)
    return 0;
  for (i = 0; names && names->type == JSON_ARRAY && i < names->n; i++)
    {
      const char *name = json_string (names->items[i]);
      int nr = name ? seccomp_syscall_resolve_name (name) : __NR_SCMP_ERROR;

      if (nr == __NR_SCMP_ERROR)
        continue;
      if (n == 0)
        ret = seccomp_rule_add (ctx, action, nr, 0);
      else if (!repeated)
        ret = seccomp_rule_add_array (ctx, action, nr, n, c);
      else
        for (k = 0, ret = 0; k < n && ret == 0; k++)
          ret = seccomp_rule_add_array (ctx, action, nr, 1, &c[k]);
      if (ret < 0)
        {
          snprintf (why, len, "error adding seccomp rule for syscall %s: %s", name, strerror (-ret));
          return ret;
        }
    }
  return 0;
}

/* As the runtimes build it, into @out (seccomp_release it) on success.  */
static inline int
seccomp_build_like_runc (const json_t *seccomp, scmp_filter_ctx *out, char *why, size_t len)
{
  const json_t *archs = json_get (seccomp, "architectures"), *rules = json_get (seccomp, "syscalls");
  scmp_filter_ctx ctx;
  uint32_t def;
  size_t i;
  int ret = 0;

  why[0] = '\0';
  if (seccomp_load_action (seccomp, "defaultAction", "defaultErrnoRet", &def) < 0)
    {
      snprintf (why, len, "invalid default action");
      return -EINVAL;
    }
  if ((ctx = seccomp_init (def)) == NULL)
    return -ENOMEM;
  for (i = 0; archs && archs->type == JSON_ARRAY && i < archs->n && ret == 0; i++)
    {
      const char *a = json_string (archs->items[i]);
      char lower[32];
      size_t k;
      for (k = 0; a && a[10 + k] && k < sizeof (lower) - 1; k++)
        lower[k] = (char)(a[10 + k] >= 'A' && a[10 + k] <= 'Z' ? a[10 + k] + 32 : a[10 + k]);
      lower[k] = '\0';
      ret = seccomp_arch_add (ctx, a && strlen (a) > 10 ? seccomp_arch_resolve_name (lower) : 0);
      if (ret == -EEXIST)
        ret = 0;
      if (ret < 0)
        snprintf (why, len, "error adding architecture %s: %s", a ? a : "?", strerror (-ret));
    }
  for (i = 0; rules && rules->type == JSON_ARRAY && i < rules->n && ret == 0; i++)
    ret = seccomp_load_rule (ctx, def, rules->items[i], why, len);
  if (ret < 0)
    seccomp_release (ctx);
  else
    *out = ctx;
  return ret;
}

/* As the runtimes: the filter is built, never loaded.  */
static inline int
seccomp_load_like_runc (const json_t *seccomp, char *why, size_t len)
{
  scmp_filter_ctx ctx;
  int ret = seccomp_build_like_runc (seccomp, &ctx, why, len);

  if (ret == 0)
    seccomp_release (ctx);
  return ret;
}

#endif
