/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "catalogue.h"
#include "commands.h"
#include "entitlements.h"

/* entitle explain ENT...: what each entitlement changes, for people, read
   from the same table the compiler uses.  */

static const struct
{
  unsigned fx;
  const char *text;
} fx_text[] = {
  { FX_NEW_NETNS, "namespaces: a new network namespace, unless one is given by path" },
  { FX_HOST_NETNS, "namespaces: the host's network namespace (the network namespace is removed)" },
  { FX_NEW_PIDNS, "namespaces: a new pid namespace, unless one is given by path" },
  { FX_HOST_PIDNS, "namespaces: the host's pid namespace (the pid namespace is removed)" },
  { FX_NNP, "process: noNewPrivileges = true" },
  { FX_PROC_SYS_RO, "paths: /proc/sys read-only" },
  { FX_MASK_NET, "paths: /proc/sys/net and /sys/class/net masked" },
  { FX_SYS_RO, "paths: /sys read-only, /proc/kcore masked" },
  { FX_CLEAR_RO, "paths: readonlyPaths cleared" },
  { FX_UNMASK, "paths: maskedPaths cleared but /proc/kcore, /proc/keys, /proc/sysrq-trigger, /sys/firmware" },
  { FX_SOCK_UNIX, "seccomp: socket() and socketpair() for AF_UNIX only; socketcall denied" },
  { FX_SOCK_USER, "seccomp: no AF_PACKET, no raw inet sockets; socketcall denied" },
  { FX_NO_DEV_MKNOD, "seccomp: mknod and mknodat of device nodes denied" },
  { FX_PERSONALITY, "seccomp: personality() for PER_LINUX (and the query) only" },
  { FX_DEV_DEFAULT, "device cgroup: every device denied but the runtime spec's defaults (null, zero, full, random, urandom, tty, console, ptmx, pts)" },
  { FX_DEV_ALL, "device cgroup: every device allowed" },
  { FX_LSM_UNCONFINED, "LSM: AppArmor unconfined, SELinux spc_t (where the host runs them)" },
  { FX_CGROUP_BPF, "cgroup BPF: not built in this version, so refused unless on_unenforceable is \"warn\"" },
  { FX_LANDLOCK, "Landlock: not built in this version, so refused unless on_unenforceable is \"warn\"" },
};

static void
print_list (const char *label, const char *const *list)
{
  if (list == NULL || *list == NULL)
    return;
  printf ("  %s:", label);
  for (; *list; list++)
    printf (" %s", *list);
  putchar ('\n');
}

static void
explain_one (const struct entitle_entry_s *e)
{
  size_t i;

  printf ("%s%s\n  %s\n", e->name, e->value ? "=VALUE" : "", e->summary);
  if (e->rung)
    printf ("  ladder: %s, rung %d (one rung per ladder)\n", entitle_domain_name (e->domain), e->rung);
  else
    printf ("  modifier: combines with any rung%s\n", e->value ? "; may repeat" : "");
  if (e->exact_grant)
    printf ("  grant: by exact name only, never by a glob\n");
  print_list ("capabilities dropped (all five sets)", e->cap_drop);
  print_list ("capabilities added", e->cap_add);
  print_list ("syscalls denied whatever their arguments", e->sys_deny);
  print_list ("syscalls allowed", e->sys_allow);
  for (i = 0; i < sizeof (fx_text) / sizeof (fx_text[0]); i++)
    if (e->fx & fx_text[i].fx)
      printf ("  %s\n", fx_text[i].text);
}

int
shim_explain (struct shim_s *s, entitle_error_t *err)
{
  int i;

  if (s->args.command_index + 1 >= s->argc)
    return entitle_make_error (err, EINVAL, "explain: name at least one entitlement");
  for (i = s->args.command_index + 1; i < s->argc; i++)
    {
      /* A modifier is explained by its name alone; anything else goes
         through the parser, for its error message.  */
      const struct entitle_entry_s *e = entitle_catalogue_find (s->argv[i], strcspn (s->argv[i], "="));
      struct entitle_request_s req;

      if (e == NULL || strchr (s->argv[i], '='))
        {
          int ret = entitle_parse_one (s->argv[i], strlen (s->argv[i]), &req, err);
          if (UNLIKELY (ret < 0))
            return ret;
          free (req.value);
          e = req.entry;
        }
      if (i > s->args.command_index + 1)
        putchar ('\n');
      explain_one (e);
    }
  fflush (stdout);
  exit (EXIT_SUCCESS);
}
