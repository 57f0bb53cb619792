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
#include <unistd.h>
#include "seccomp-ebpf.h"
#include "seccomp-filter.h"
#include "utils.h"

void
entitle_seccomp_filters_free (struct entitle_seccomp_filter_s *filters, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    {
      free (filters[i].insns);
      if (filters[i].ebpf_fd >= 0)
        close (filters[i].ebpf_fd);
    }
  free (filters);
}

/* Filter @index of the stopped tracee @pid; 0 past the last one.  */
static int
read_one (const struct entitle_kernel_s *k, pid_t pid, bool extended, unsigned long index,
          struct entitle_seccomp_filter_s *f, entitle_error_t *err)
{
  long n = k->ptrace (PTRACE_SECCOMP_GET_FILTER, pid, index, 0);
  int fd;

  f->ebpf_fd = -1;
  if (n < 0 && errno == ENOENT)
    return 0;
  if (n < 0 && errno == EINVAL && index == 0)
    return 0; /* not in filter mode: no filter at all */
  if (n < 0 && errno == EMEDIUMTYPE)
    {
      /* No classic program: the seed's eBPF filter.  */
      f->kind = ENTITLE_FILTER_EBPF;
      if (!extended)
        return 1;
      fd = entitle_seccomp_get_extended (k, pid, index, err);
      if (UNLIKELY (fd < 0))
        return fd;
      f->ebpf_fd = fd > 0 ? fd : -1;
      return 1;
    }
  if (n < 0)
    return entitle_make_sys_error (err, "read seccomp filter %lu of process %d (PTRACE_SECCOMP_GET_FILTER)",
                                   index, (int)pid);
  f->kind = ENTITLE_FILTER_CLASSIC;
  f->n = (size_t)n;
  f->insns = xcalloc (f->n + 1, sizeof (*f->insns));
  if (k->ptrace (PTRACE_SECCOMP_GET_FILTER, pid, index, (unsigned long)f->insns) < 0)
    {
      free (f->insns);
      return entitle_make_sys_error (err, "read seccomp filter %lu of process %d", index, (int)pid);
    }
  return 1;
}

static int
read_all (const struct entitle_kernel_s *k, pid_t pid, bool extended, struct entitle_seccomp_filter_s **filters,
          size_t *n, entitle_error_t *err)
{
  int ret;

  for (;;)
    {
      struct entitle_seccomp_filter_s f = { 0 };

      ret = read_one (k, pid, extended, *n, &f, err);
      if (ret <= 0)
        return ret;
      *filters = xrealloc (*filters, (*n + 1) * sizeof (**filters));
      (*filters)[(*n)++] = f;
    }
}

int
entitle_seccomp_read_filters (const struct entitle_kernel_s *k, pid_t pid, bool extended,
                              struct entitle_seccomp_filter_s **filters, size_t *n, entitle_error_t *err)
{
  int status, ret;

  *filters = NULL;
  *n = 0;
  /* The kernel hands filters only to a tracer that holds the process
     stopped.  */
  if (k->ptrace (PTRACE_SEIZE, pid, 0, 0) < 0)
    return entitle_make_sys_error (err, "trace process %d to read its seccomp filters", (int)pid);
  if (k->ptrace (PTRACE_INTERRUPT, pid, 0, 0) < 0 || waitpid (pid, &status, __WALL) < 0)
    ret = entitle_make_sys_error (err, "stop process %d to read its seccomp filters", (int)pid);
  else if (!WIFSTOPPED (status))
    ret = entitle_make_error (err, ESRCH, "process %d ended while its seccomp filters were read", (int)pid);
  else
    ret = read_all (k, pid, extended, filters, n, err);
  k->ptrace (PTRACE_DETACH, pid, 0, 0);
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

/* What every path to an instruction left: the seccomp_data offset in
   the accumulator (-1: something else) and the architecture they all
   checked (0: not one).  Classic BPF jumps forward only, so one pass in
   order meets every path before the instruction it reaches.  */
struct entitle_disasm_state
{
  bool reached;
  int loaded;
  uint32_t arch;
};

void
entitle_disasm_start (struct entitle_disasm_s *d, const struct sock_filter *insns, size_t n)
{
  d->insns = insns;
  d->n = n;
  d->st = xcalloc (n + 1, sizeof (*d->st));
  d->st[0] = (struct entitle_disasm_state){ true, -1, 0 };
}

void
entitle_disasm_end (struct entitle_disasm_s *d)
{
  free (d->st);
  d->st = NULL;
}

/* Flow @from into instruction @to: where paths meet, what they differ in
   is unknown.  */
static void
flow (struct entitle_disasm_s *d, size_t to, struct entitle_disasm_state from)
{
  struct entitle_disasm_state *s = &d->st[to < d->n ? to : d->n];

  if (to >= d->n)
    return;
  if (!s->reached)
    {
      *s = from;
      return;
    }
  if (s->loaded != from.loaded)
    s->loaded = -1;
  if (s->arch != from.arch)
    s->arch = 0;
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
compared (const struct entitle_disasm_state *d, uint32_t k, char *buf, size_t len)
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
disasm_load (struct entitle_disasm_state *d, const struct sock_filter *f, char *buf, size_t len)
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

/* A conditional jump: its text, and its two successors told what it
   learnt (the architecture, where it is equal).  */
static void
disasm_jump (struct entitle_disasm_s *d, size_t i, char *buf, size_t len)
{
  const struct sock_filter *f = &d->insns[i];
  struct entitle_disasm_state in = d->st[i], t = in;
  char note[96];

  if (BPF_SRC (f->code) == BPF_X)
    snprintf (buf, len, "%s x, %zu, %zu", jump_name (BPF_OP (f->code)), i + 1 + f->jt, i + 1 + f->jf);
  else
    {
      note[0] = '\0';
      /* A bound (jgt, jge) or an equality names a syscall; a jset tests
         bits, such as x32's.  */
      if (BPF_OP (f->code) == BPF_JEQ || (BPF_OP (f->code) != BPF_JSET && f->k < 0x40000000u))
        compared (&in, f->k, note, sizeof (note));
      /* The code a matching arch leads to is that arch's.  */
      if (in.loaded == 4 && BPF_OP (f->code) == BPF_JEQ && arch_name (f->k))
        t.arch = f->k;
      snprintf (buf, len, "%s #0x%x, %zu, %zu%s%s", jump_name (BPF_OP (f->code)), f->k, i + 1 + f->jt,
                i + 1 + f->jf, *note ? " ; " : "", note);
    }
  flow (d, i + 1 + f->jt, t);
  flow (d, i + 1 + f->jf, in);
}

void
entitle_disasm (struct entitle_disasm_s *d, size_t i, char *buf, size_t len)
{
  const struct sock_filter *f = &d->insns[i];
  struct entitle_disasm_state out = d->st[i];
  char action[32];

  if (!out.reached)
    out = (struct entitle_disasm_state){ true, -1, 0 };
  switch (BPF_CLASS (f->code))
    {
    case BPF_LD:
    case BPF_LDX:
      disasm_load (&out, f, buf, len);
      break;
    case BPF_ST:
    case BPF_STX:
      snprintf (buf, len, "%s M[%u]", BPF_CLASS (f->code) == BPF_ST ? "st" : "stx", f->k);
      break;
    case BPF_ALU:
      out.loaded = -1;
      if (BPF_OP (f->code) == BPF_NEG)
        snprintf (buf, len, "neg");
      else if (BPF_SRC (f->code) == BPF_X)
        snprintf (buf, len, "%s x", alu_name (BPF_OP (f->code)));
      else
        snprintf (buf, len, "%s #0x%x", alu_name (BPF_OP (f->code)), f->k);
      break;
    case BPF_JMP:
      d->st[i] = out;
      if (BPF_OP (f->code) != BPF_JA)
        return disasm_jump (d, i, buf, len);
      snprintf (buf, len, "ja %zu", i + 1 + f->k);
      flow (d, i + 1 + f->k, out);
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
      if (BPF_MISCOP (f->code) != BPF_TAX)
        out.loaded = -1;
      snprintf (buf, len, "%s", BPF_MISCOP (f->code) == BPF_TAX ? "tax" : "txa");
      break;
    default:
      snprintf (buf, len, "? (code 0x%02x)", f->code);
    }
  flow (d, i + 1, out);
}
