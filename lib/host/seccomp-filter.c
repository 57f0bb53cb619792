/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include "seccomp-filter.h"
#include "utils.h"

void
entitle_seccomp_filters_free (struct entitle_seccomp_filter_s *filters, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    free (filters[i].insns);
  free (filters);
}

/* Filter @index of the stopped tracee @pid; 0 past the last one.  */
static int
read_one (pid_t pid, unsigned long index, struct entitle_seccomp_filter_s *f, entitle_error_t *err)
{
  long n = ptrace (PTRACE_SECCOMP_GET_FILTER, pid, (void *)index, NULL);

  if (n < 0 && errno == ENOENT)
    return 0;
  if (n < 0 && (errno == EINVAL || errno == EMEDIUMTYPE) && index == 0)
    return 0; /* not in filter mode: no filter at all */
  if (n < 0)
    return entitle_make_sys_error (err, "read seccomp filter %lu of process %d (PTRACE_SECCOMP_GET_FILTER)",
                                   index, (int)pid);
  f->kind = ENTITLE_FILTER_CLASSIC;
  f->n = (size_t)n;
  if ((f->insns = calloc (f->n + 1, sizeof (*f->insns))) == NULL)
    abort ();
  if (ptrace (PTRACE_SECCOMP_GET_FILTER, pid, (void *)index, f->insns) < 0)
    {
      free (f->insns);
      return entitle_make_sys_error (err, "read seccomp filter %lu of process %d", index, (int)pid);
    }
  return 1;
}

static int
read_all (pid_t pid, struct entitle_seccomp_filter_s **filters, size_t *n, entitle_error_t *err)
{
  int ret;

  for (;;)
    {
      struct entitle_seccomp_filter_s f = { 0 };

      ret = read_one (pid, *n, &f, err);
      if (ret <= 0)
        return ret;
      if ((*filters = realloc (*filters, (*n + 1) * sizeof (**filters))) == NULL)
        abort ();
      (*filters)[(*n)++] = f;
    }
}

int
entitle_seccomp_read_classic (pid_t pid, struct entitle_seccomp_filter_s **filters, size_t *n,
                              entitle_error_t *err)
{
  int status, ret;

  *filters = NULL;
  *n = 0;
  /* The kernel hands filters only to a tracer that holds the process
     stopped.  */
  if (ptrace (PTRACE_SEIZE, pid, NULL, NULL) < 0)
    return entitle_make_sys_error (err, "trace process %d to read its seccomp filters", (int)pid);
  if (ptrace (PTRACE_INTERRUPT, pid, NULL, NULL) < 0 || waitpid (pid, &status, __WALL) < 0)
    ret = entitle_make_sys_error (err, "stop process %d to read its seccomp filters", (int)pid);
  else if (!WIFSTOPPED (status))
    ret = entitle_make_error (err, ESRCH, "process %d ended while its seccomp filters were read", (int)pid);
  else
    ret = read_all (pid, filters, n, err);
  ptrace (PTRACE_DETACH, pid, NULL, NULL);
  if (UNLIKELY (ret < 0))
    {
      entitle_seccomp_filters_free (*filters, *n);
      *filters = NULL;
      *n = 0;
    }
  return ret < 0 ? ret : 0;
}

void
entitle_seccomp_action_name (uint32_t ret, char *buf, size_t len)
{
  uint32_t data = ret & SECCOMP_RET_DATA;

  switch (ret & SECCOMP_RET_ACTION_FULL)
    {
    case SECCOMP_RET_ALLOW:
      snprintf (buf, len, "ALLOW");
      return;
    case SECCOMP_RET_ERRNO:
      {
        const char *name = strerrorname_np ((int)data);
        if (name)
          snprintf (buf, len, "ERRNO(%s)", name);
        else
          snprintf (buf, len, "ERRNO(%u)", data);
        return;
      }
    case SECCOMP_RET_KILL_PROCESS:
      snprintf (buf, len, "KILL_PROCESS");
      return;
    case SECCOMP_RET_KILL_THREAD:
      snprintf (buf, len, "KILL_THREAD");
      return;
    case SECCOMP_RET_TRAP:
      snprintf (buf, len, "TRAP(%u)", data);
      return;
    case SECCOMP_RET_USER_NOTIF:
      snprintf (buf, len, "USER_NOTIF");
      return;
    case SECCOMP_RET_TRACE:
      snprintf (buf, len, "TRACE(%u)", data);
      return;
    case SECCOMP_RET_LOG:
      snprintf (buf, len, "LOG");
      return;
    default:
      snprintf (buf, len, "0x%08x", ret);
    }
}

/* The names of the architectures entitle's profiles list (DESIGN §3).  */
static const char *
arch_name (uint32_t arch)
{
  static const struct
  {
    uint32_t arch;
    const char *name;
  } arches[] = {
    { AUDIT_ARCH_X86_64, "x86_64" },
    { AUDIT_ARCH_I386, "x86" },
    { AUDIT_ARCH_AARCH64, "aarch64" },
    { AUDIT_ARCH_ARM, "arm" },
    { AUDIT_ARCH_PPC64LE, "ppc64le" },
    { AUDIT_ARCH_S390X, "s390x" },
    { AUDIT_ARCH_S390, "s390" },
    { AUDIT_ARCH_RISCV64, "riscv64" },
  };
  size_t i;
  for (i = 0; i < sizeof (arches) / sizeof (arches[0]); i++)
    if (arches[i].arch == arch)
      return arches[i].name;
  return NULL;
}

/* What a load from seccomp_data at @k reads.  */
static void
field_name (uint32_t k, char *buf, size_t len)
{
  if (k == 0)
    snprintf (buf, len, "nr");
  else if (k == 4)
    snprintf (buf, len, "arch");
  else if (k == 8 || k == 12)
    snprintf (buf, len, "instruction_pointer %s", k == 8 ? "lo" : "hi");
  else if (k >= 16 && k < 64)
    snprintf (buf, len, "args[%u] %s", (k - 16) / 8, (k - 16) % 8 ? "hi" : "lo");
  else
    buf[0] = '\0';
}

/* The comment of a comparison with @k: a syscall's name, an arch's.  */
static void
compared (const struct entitle_disasm_s *d, uint32_t k, char *buf, size_t len)
{
  char *name = NULL;
  const char *arch;

  buf[0] = '\0';
  if (d->loaded == 4 && (arch = arch_name (k)) != NULL)
    snprintf (buf, len, "%s", arch);
  else if (d->loaded == 0 && d->arch)
    {
      uint32_t arch_token = d->arch == AUDIT_ARCH_X86_64 && (k & 0x40000000u) ? SCMP_ARCH_X32 : d->arch;
      if ((name = seccomp_syscall_resolve_num_arch (arch_token, (int)k)) != NULL)
        snprintf (buf, len, "%s", name);
      free (name);
    }
}

static const char *
alu_name (uint16_t op)
{
  switch (op)
    {
    case BPF_ADD:
      return "add";
    case BPF_SUB:
      return "sub";
    case BPF_MUL:
      return "mul";
    case BPF_DIV:
      return "div";
    case BPF_OR:
      return "or";
    case BPF_AND:
      return "and";
    case BPF_LSH:
      return "lsh";
    case BPF_RSH:
      return "rsh";
    case BPF_NEG:
      return "neg";
    case BPF_MOD:
      return "mod";
    case BPF_XOR:
      return "xor";
    default:
      return "alu?";
    }
}

static const char *
jump_name (uint16_t op)
{
  switch (op)
    {
    case BPF_JEQ:
      return "jeq";
    case BPF_JGT:
      return "jgt";
    case BPF_JGE:
      return "jge";
    case BPF_JSET:
      return "jset";
    default:
      return "j?";
    }
}

static void
disasm_load (struct entitle_disasm_s *d, const struct sock_filter *f, char *buf, size_t len)
{
  const char *reg = BPF_CLASS (f->code) == BPF_LD ? "ld" : "ldx";
  char field[32];

  switch (BPF_MODE (f->code))
    {
    case BPF_ABS:
      field_name (f->k, field, sizeof (field));
      if (BPF_CLASS (f->code) == BPF_LD)
        d->loaded = (int)f->k;
      snprintf (buf, len, "%s [%u]%s%s", reg, f->k, *field ? " ; " : "", field);
      return;
    case BPF_IMM:
      snprintf (buf, len, "%s #0x%x", reg, f->k);
      break;
    case BPF_MEM:
      snprintf (buf, len, "%s M[%u]", reg, f->k);
      break;
    case BPF_LEN:
      snprintf (buf, len, "%s #len", reg);
      break;
    default:
      snprintf (buf, len, "%s ? (code 0x%02x)", reg, f->code);
    }
  if (BPF_CLASS (f->code) == BPF_LD)
    d->loaded = -1;
}

void
entitle_disasm (struct entitle_disasm_s *d, const struct sock_filter *insns, size_t i, char *buf, size_t len)
{
  const struct sock_filter *f = &insns[i];
  char note[96], action[32];

  switch (BPF_CLASS (f->code))
    {
    case BPF_LD:
    case BPF_LDX:
      disasm_load (d, f, buf, len);
      return;
    case BPF_ST:
    case BPF_STX:
      snprintf (buf, len, "%s M[%u]", BPF_CLASS (f->code) == BPF_ST ? "st" : "stx", f->k);
      return;
    case BPF_ALU:
      d->loaded = -1;
      if (BPF_OP (f->code) == BPF_NEG)
        snprintf (buf, len, "neg");
      else if (BPF_SRC (f->code) == BPF_X)
        snprintf (buf, len, "%s x", alu_name (BPF_OP (f->code)));
      else
        snprintf (buf, len, "%s #0x%x", alu_name (BPF_OP (f->code)), f->k);
      return;
    case BPF_JMP:
      if (BPF_OP (f->code) == BPF_JA)
        {
          snprintf (buf, len, "ja %zu", i + 1 + f->k);
          return;
        }
      if (BPF_SRC (f->code) == BPF_X)
        {
          snprintf (buf, len, "%s x, %zu, %zu", jump_name (BPF_OP (f->code)), i + 1 + f->jt, i + 1 + f->jf);
          return;
        }
      note[0] = '\0';
      /* A bound (jgt, jge) or an equality names a syscall; a jset tests
         bits, such as x32's.  */
      if (BPF_OP (f->code) == BPF_JEQ || (BPF_OP (f->code) != BPF_JSET && f->k < 0x40000000u))
        compared (d, f->k, note, sizeof (note));
      /* The code that follows a matching arch is that arch's.  */
      if (d->loaded == 4 && BPF_OP (f->code) == BPF_JEQ && arch_name (f->k))
        d->arch = f->k;
      snprintf (buf, len, "%s #0x%x, %zu, %zu%s%s", jump_name (BPF_OP (f->code)), f->k, i + 1 + f->jt,
                i + 1 + f->jf, *note ? " ; " : "", note);
      return;
    case BPF_RET:
      if (BPF_RVAL (f->code) == BPF_A)
        snprintf (buf, len, "ret a");
      else
        {
          entitle_seccomp_action_name (f->k, action, sizeof (action));
          snprintf (buf, len, "ret #0x%08x ; %s", f->k, action);
        }
      return;
    case BPF_MISC:
      d->loaded = -1;
      snprintf (buf, len, "%s", BPF_MISCOP (f->code) == BPF_TAX ? "tax" : "txa");
      return;
    default:
      snprintf (buf, len, "? (code 0x%02x)", f->code);
    }
}
