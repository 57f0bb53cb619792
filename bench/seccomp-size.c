/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seccomp-size: compile the linux.seccomp section of an OCI config.json
 * with libseccomp as runc does (rules with distinct argument indexes are
 * one rule, otherwise one rule per condition; unknown names are skipped),
 * with the binary-tree optimisation (SCMP_FLTATR_CTL_OPTIMIZE=2), and
 * print:
 *   INSNS CACHEABLE HOT
 * INSNS: instructions of the exported BPF program; CACHEABLE: how many of
 * the HOT syscalls below the kernel can cache as always-allowed on x86_64,
 * decided as the kernel's seccomp_cache_prepare does (emulate the program
 * with only nr and arch known; any load of an argument makes it
 * uncacheable).  With -v, the uncacheable hot syscalls go to stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "file.h"
#include "json.h"

/* Hot syscalls of servers and runtimes (see bench/README.md).  */
static const char *const hot[] = {
  "read",
  "write",
  "readv",
  "writev",
  "pread64",
  "pwrite64",
  "openat",
  "close",
  "newfstatat",
  "lseek",
  "mmap",
  "munmap",
  "mprotect",
  "madvise",
  "brk",
  "futex",
  "epoll_wait",
  "epoll_pwait",
  "epoll_ctl",
  "recvfrom",
  "sendto",
  "recvmsg",
  "sendmsg",
  "rt_sigprocmask",
  "getpid",
};

static uint32_t
action (const char *a, uint32_t errno_ret)
{
  if (a == NULL || strcmp (a, "SCMP_ACT_ALLOW") == 0)
    return SCMP_ACT_ALLOW;
  if (strcmp (a, "SCMP_ACT_ERRNO") == 0)
    return SCMP_ACT_ERRNO (errno_ret);
  if (strcmp (a, "SCMP_ACT_KILL") == 0 || strcmp (a, "SCMP_ACT_KILL_THREAD") == 0)
    return SCMP_ACT_KILL;
  if (strcmp (a, "SCMP_ACT_KILL_PROCESS") == 0)
    return SCMP_ACT_KILL_PROCESS;
  if (strcmp (a, "SCMP_ACT_TRAP") == 0)
    return SCMP_ACT_TRAP;
  if (strcmp (a, "SCMP_ACT_TRACE") == 0)
    return SCMP_ACT_TRACE (errno_ret);
  if (strcmp (a, "SCMP_ACT_LOG") == 0)
    return SCMP_ACT_LOG;
  fprintf (stderr, "seccomp-size: unknown action %s\n", a);
  exit (1);
}

static enum scmp_compare
op (const char *o)
{
  static const struct
  {
    const char *name;
    enum scmp_compare op;
  } ops[] = { { "SCMP_CMP_NE", SCMP_CMP_NE }, { "SCMP_CMP_LT", SCMP_CMP_LT }, { "SCMP_CMP_LE", SCMP_CMP_LE }, { "SCMP_CMP_EQ", SCMP_CMP_EQ }, { "SCMP_CMP_GE", SCMP_CMP_GE }, { "SCMP_CMP_GT", SCMP_CMP_GT }, { "SCMP_CMP_MASKED_EQ", SCMP_CMP_MASKED_EQ } };
  size_t i;
  for (i = 0; o && i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp (o, ops[i].name) == 0)
      return ops[i].op;
  fprintf (stderr, "seccomp-size: unknown op %s\n", o ? o : "(none)");
  exit (1);
}

static uint64_t
num (const json_t *v)
{
  return v && v->type == JSON_NUMBER ? strtoull (v->text, NULL, 10) : 0;
}

static uint32_t
arch (const char *a)
{
  static const char *const names[] = { "SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32" };
  static const uint32_t tokens[] = { SCMP_ARCH_X86_64, SCMP_ARCH_X86, SCMP_ARCH_X32 };
  size_t i;
  for (i = 0; i < 3; i++)
    if (strcmp (a, names[i]) == 0)
      return tokens[i];
  return 0;
}

/* The kernel's seccomp_is_const_allow (kernel/seccomp.c).  */
static int
const_allow (const struct sock_filter *f, size_t len, uint32_t nr, uint32_t audit_arch)
{
  uint32_t reg = 0;
  size_t pc;

  for (pc = 0; pc < len; pc++)
    {
      const struct sock_filter *in = &f[pc];
      int res;
      switch (in->code)
        {
        case BPF_LD | BPF_W | BPF_ABS:
          if (in->k == offsetof (struct seccomp_data, nr))
            reg = nr;
          else if (in->k == offsetof (struct seccomp_data, arch))
            reg = audit_arch;
          else
            return 0;
          break;
        case BPF_RET | BPF_K:
          return in->k == SECCOMP_RET_ALLOW;
        case BPF_JMP | BPF_JA:
          pc += in->k;
          break;
        case BPF_JMP | BPF_JEQ | BPF_K:
        case BPF_JMP | BPF_JGE | BPF_K:
        case BPF_JMP | BPF_JGT | BPF_K:
        case BPF_JMP | BPF_JSET | BPF_K:
          switch (BPF_OP (in->code))
            {
            case BPF_JEQ:
              res = reg == in->k;
              break;
            case BPF_JGE:
              res = reg >= in->k;
              break;
            case BPF_JGT:
              res = reg > in->k;
              break;
            default:
              res = !!(reg & in->k);
            }
          pc += res ? in->jt : in->jf;
          break;
        case BPF_ALU | BPF_AND | BPF_K:
          reg &= in->k;
          break;
        default:
          return 0;
        }
    }
  return 0;
}

int
main (int argc, char **argv)
{
  int verbose = argc > 1 && strcmp (argv[1], "-v") == 0;
  const char *path = argv[1 + verbose];
  entitle_error_t err = NULL;
  json_t *spec = NULL;
  const json_t *sc, *archs, *calls;
  char *raw = NULL;
  size_t len, i, j, k;
  uint32_t def_errno;
  scmp_filter_ctx ctx;
  int fd, cacheable = 0;
  off_t size;
  struct sock_filter *prog;

  if (path == NULL)
    {
      fprintf (stderr, "usage: seccomp-size [-v] CONFIG.JSON\n");
      return 2;
    }
  if (entitle_file_read (path, ENTITLE_MAX_CONFIG_SIZE, &raw, &len, &err) < 0 || json_parse (raw, len, &spec, &err) < 0)
    {
      fprintf (stderr, "seccomp-size: %s\n", err->msg);
      return 1;
    }
  sc = json_get (json_get (spec, "linux"), "seccomp");
  if (sc == NULL)
    {
      fprintf (stderr, "seccomp-size: %s has no linux.seccomp\n", path);
      return 1;
    }
  def_errno = json_get (sc, "defaultErrnoRet") ? num (json_get (sc, "defaultErrnoRet")) : EPERM;
  ctx = seccomp_init (action (json_string (json_get (sc, "defaultAction")), def_errno));
  if (ctx == NULL)
    return 1;
  archs = json_get (sc, "architectures");
  for (i = 0; archs && i < archs->n; i++)
    {
      uint32_t a = arch (json_string (archs->items[i]));
      if (a && a != seccomp_arch_native ())
        seccomp_arch_add (ctx, a);
    }
  seccomp_attr_set (ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
  seccomp_attr_set (ctx, SCMP_FLTATR_CTL_NNP, 0);
  calls = json_get (sc, "syscalls");
  for (i = 0; calls && i < calls->n; i++)
    {
      const json_t *r = calls->items[i], *names = json_get (r, "names"), *args = json_get (r, "args");
      uint32_t act = action (json_string (json_get (r, "action")),
                             json_get (r, "errnoRet") ? num (json_get (r, "errnoRet")) : def_errno);
      struct scmp_arg_cmp cmps[6];
      size_t n = 0;
      int distinct = 1;

      for (k = 0; args && k < args->n && n < 6; k++, n++)
        {
          cmps[n].arg = num (json_get (args->items[k], "index"));
          cmps[n].op = op (json_string (json_get (args->items[k], "op")));
          cmps[n].datum_a = num (json_get (args->items[k], "value"));
          cmps[n].datum_b = num (json_get (args->items[k], "valueTwo"));
        }
      for (k = 0; k < n; k++)
        for (j = 0; j < k; j++)
          if (cmps[j].arg == cmps[k].arg)
            distinct = 0;
      for (j = 0; names && j < names->n; j++)
        {
          int nr = seccomp_syscall_resolve_name (json_string (names->items[j]));
          if (nr == __NR_SCMP_ERROR)
            continue;
          if (distinct)
            seccomp_rule_add_array (ctx, act, nr, n, n ? cmps : NULL);
          else
            for (k = 0; k < n; k++)
              seccomp_rule_add_array (ctx, act, nr, 1, &cmps[k]);
        }
    }
  fd = memfd_create ("bpf", 0);
  if (fd < 0 || seccomp_export_bpf (ctx, fd) < 0)
    return 1;
  size = lseek (fd, 0, SEEK_END);
  prog = malloc (size);
  if (prog == NULL || pread (fd, prog, size, 0) != size)
    return 1;
  for (i = 0; i < sizeof hot / sizeof hot[0]; i++)
    {
      int nr = seccomp_syscall_resolve_name_arch (SCMP_ARCH_X86_64, hot[i]);
      if (nr >= 0 && const_allow (prog, size / sizeof (struct sock_filter), nr, AUDIT_ARCH_X86_64))
        cacheable++;
      else if (verbose)
        fprintf (stderr, "not cacheable: %s\n", hot[i]);
    }
  printf ("%ld %d %zu\n", (long)(size / sizeof (struct sock_filter)), cacheable, sizeof hot / sizeof hot[0]);
  seccomp_release (ctx);
  json_free (spec);
  free (raw);
  free (prog);
  return 0;
}
