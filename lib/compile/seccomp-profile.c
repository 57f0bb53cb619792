/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include "catalogue.h"
#include "caps.h"
#include "seccomp-rules.h"
#include "seccomp-profile.h"
#include "utils.h"

/* The profile entitle writes when a restriction needs one and the engine
   gave none.  Rather than carry a list of names, it takes every syscall
   libseccomp knows for the host's architectures and leaves out the
   privileged ones; the default action denies whatever is newer.  */

/* Never allowed by name: Docker's default profile leaves these out, or
   allows them only with arguments below, or they are obsolete.  */
static const char *const never[] = {
  "_sysctl",
  "add_key",
  "afs_syscall",
  "bdflush",
  "break",
  "clone",
  "clone3",
  "create_module",
  "ftime",
  "get_kernel_syms",
  "getpmsg",
  "gtty",
  "idle",
  "io_uring_enter",
  "io_uring_register",
  "io_uring_setup",
  "kexec_file_load",
  "kexec_load",
  "keyctl",
  "lock",
  "migrate_pages",
  "move_pages",
  "mpx",
  "nfsservctl",
  "personality",
  "pivot_root",
  "prof",
  "profil",
  "putpmsg",
  "query_module",
  "request_key",
  "security",
  "stty",
  "swapoff",
  "swapon",
  "sysfs",
  "tuxcall",
  "uselib",
  "userfaultfd",
  "ustat",
  "vm86",
  "vm86old",
  "vserver",
};

struct arch_map
{
  uint32_t native;
  const char *const *archs;
};

#define A(...) ((const char *const[]){ __VA_ARGS__, NULL })
static const struct arch_map arch_maps[] = {
  { SCMP_ARCH_X86_64, A ("SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32") },
  { SCMP_ARCH_AARCH64, A ("SCMP_ARCH_AARCH64", "SCMP_ARCH_ARM") },
  { SCMP_ARCH_PPC64LE, A ("SCMP_ARCH_PPC64LE") },
  { SCMP_ARCH_S390X, A ("SCMP_ARCH_S390X", "SCMP_ARCH_S390") },
  { SCMP_ARCH_RISCV64, A ("SCMP_ARCH_RISCV64") },
};

const char *const *
entitle_seccomp_host_archs (void)
{
  uint32_t native = seccomp_arch_native ();
  size_t i;
  for (i = 0; i < sizeof (arch_maps) / sizeof (arch_maps[0]); i++)
    if (arch_maps[i].native == native)
      return arch_maps[i].archs;
  return NULL;
}

/* "SCMP_ARCH_X86_64" -> libseccomp's "x86_64"; 0 when unknown.  */
static uint32_t
arch_token (const char *scmp)
{
  char lower[32];
  size_t i;

  if (strncmp (scmp, "SCMP_ARCH_", 10) != 0)
    return 0;
  for (i = 0; scmp[10 + i] && i < sizeof (lower) - 1; i++)
    lower[i] = (char)(scmp[10 + i] >= 'A' && scmp[10 + i] <= 'Z' ? scmp[10 + i] + 32 : scmp[10 + i]);
  lower[i] = '\0';
  return seccomp_arch_resolve_name (lower);
}

static bool
in (const char *const *list, size_t n, const char *name)
{
  size_t i;
  for (i = 0; i < n; i++)
    if (strcmp (list[i], name) == 0)
      return true;
  return false;
}

/* 0: never; 1: gated and held; -1: gated and not held; 2: not gated.  */
static int
gate (const json_t *process, const char *name)
{
  const struct entitle_cap_syscalls_s *g;
  size_t n, i;
  int r = 2;

  if (entitle_cap_ungated (name))
    return 2;
  g = entitle_cap_gated (&n);
  for (i = 0; i < n; i++)
    {
      const char *const *s;
      for (s = g[i].syscalls; *s; s++)
        if (strcmp (*s, name) == 0)
          {
            if (entitle_caps_bounding_has (process, g[i].cap))
              return 1;
            r = -1;
          }
    }
  return r;
}

/* Syscall numbers are below this on every architecture entitle knows (the
   largest, x86_64's and aarch64's, are in the 400s): the numbers asked of
   libseccomp for each.  */
#define MAX_SYSCALL_NR 1024
/* x32 numbers carry this bit (the kernel's __X32_SYSCALL_BIT, which only
   x86's headers define); libseccomp resolves them with it set.  */
#define X32_SYSCALL_BIT 0x40000000

/* Every syscall libseccomp knows for the host's architectures, sorted and
   unique.  Resolving numbers is the costly part of a profile: it is done
   once per call and kept in the context.  */
static char **
host_syscalls (struct entitle_ctx_s *ctx)
{
  const char *const *a = entitle_seccomp_host_archs ();
  /* Room for every number of the (at most three) architectures.  */
  size_t n = 0, cap = 3 * MAX_SYSCALL_NR;
  char **names;

  if (ctx->syscall_names)
    return ctx->syscall_names;
  names = xmalloc (cap * sizeof (char *));
  for (; (a == NULL || *a); a = a ? a + 1 : NULL)
    {
      /* An architecture entitle has no map for: its native names only.  */
      uint32_t token = a ? arch_token (*a) : seccomp_arch_native ();
      int base = token == SCMP_ARCH_X32 ? X32_SYSCALL_BIT : 0, nr;
      for (nr = 0; token && nr < MAX_SYSCALL_NR && n + 1 < cap; nr++)
        {
          char *name = seccomp_syscall_resolve_num_arch (token, base + nr);
          if (name)
            names[n++] = name;
        }
      if (a == NULL)
        break;
    }
  entitle_strv_sort_uniq (names, n);
  ctx->syscall_names = names;
  return names;
}

static json_t *
rule (const char *name, const char *action, json_t *args)
{
  json_t *r = json_new (JSON_OBJECT), *names = json_new (JSON_ARRAY);
  json_push (names, json_new_string (name));
  json_set (r, "names", names);
  json_set (r, "action", json_new_string (action));
  if (args)
    json_set (r, "args", args);
  return r;
}

static json_t *
arg (unsigned index, const char *op, unsigned long long value)
{
  json_t *args = json_new (JSON_ARRAY), *c = json_new (JSON_OBJECT);
  json_set (c, "index", json_new_uint (index));
  json_set (c, "value", json_new_uint (value));
  json_set (c, "op", json_new_string (op));
  json_push (args, c);
  return args;
}

static void
add_special (json_t *syscalls, const json_t *process)
{
  /* The personas Docker lets any container choose.  */
  static const unsigned long long personas[] = { 0, 8, 0x20000, 0x20008, 0xffffffffULL };
  size_t i;

  for (i = 0; i < sizeof (personas) / sizeof (personas[0]); i++)
    json_push (syscalls, rule ("personality", "SCMP_ACT_ALLOW", arg (0, "SCMP_CMP_EQ", personas[i])));
  if (entitle_caps_bounding_has (process, "CAP_SYS_ADMIN"))
    {
      json_push (syscalls, rule ("clone", "SCMP_ACT_ALLOW", NULL));
      json_push (syscalls, rule ("clone3", "SCMP_ACT_ALLOW", NULL));
      return;
    }
  json_t *c = arg (0, "SCMP_CMP_MASKED_EQ", ENTITLE_CLONE_NS_FLAGS);
  json_set (c->items[0], "valueTwo", json_new_uint (0));
  json_push (syscalls, rule ("clone", "SCMP_ACT_ALLOW", c));
  json_t *c3 = rule ("clone3", "SCMP_ACT_ERRNO", NULL);
  json_set (c3, "errnoRet", json_new_uint (ENOSYS));
  json_push (syscalls, c3);
}

json_t *
entitle_seccomp_generate (struct entitle_ctx_s *ctx, const json_t *process)
{
  json_t *s = json_new (JSON_OBJECT), *archs = json_new (JSON_ARRAY);
  json_t *syscalls = json_new (JSON_ARRAY), *names = json_new (JSON_ARRAY), *allow;
  const char *const *a = entitle_seccomp_host_archs ();
  char **n;

  json_set (s, "defaultAction", json_new_string ("SCMP_ACT_ERRNO"));
  json_set (s, "defaultErrnoRet", json_new_uint (1));
  for (; a && *a; a++)
    json_push (archs, json_new_string (*a));
  for (n = host_syscalls (ctx); *n; n++)
    if (!in (never, sizeof (never) / sizeof (never[0]), *n) && gate (process, *n) > 0)
      json_push (names, json_new_string (*n));
  json_set (s, "architectures", archs);
  allow = json_new (JSON_OBJECT);
  json_set (allow, "names", names);
  json_set (allow, "action", json_new_string ("SCMP_ACT_ALLOW"));
  json_push (syscalls, allow);
  add_special (syscalls, process);
  json_set (s, "syscalls", syscalls);
  return s;
}
