/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include "seccomp-ebpf.h"
#include "seccomp-filter.h"
#include "utils.h"

/* Where the chain ends: 0 past the last filter, 1 for a filter read.  */
#define FILTER_END  0
#define FILTER_READ 1

/* Hold @pid stopped as our tracee, without a signal it would see.  */
static int
hold (const struct entitle_kernel_s *k, pid_t pid, entitle_error_t *err)
{
  int status;

  if (k->ptrace (PTRACE_SEIZE, pid, 0, 0) < 0)
    return entitle_make_sys_error (err, "inspect: attach to process %d", (int)pid);
  if (k->ptrace (PTRACE_INTERRUPT, pid, 0, 0) < 0 || waitpid (pid, &status, __WALL) < 0)
    {
      int saved = errno;
      k->ptrace (PTRACE_DETACH, pid, 0, 0);
      errno = saved;
      return entitle_make_sys_error (err, "inspect: stop process %d", (int)pid);
    }
  return 0;
}

/* Filter @index as a classic program into @f.  */
static int
read_classic (const struct entitle_kernel_s *k, pid_t pid, unsigned long index,
              struct entitle_seccomp_filter_s *f, entitle_error_t *err)
{
  long n = k->ptrace (PTRACE_SECCOMP_GET_FILTER, pid, index, 0);

  /* No filter at all (EINVAL at the first), or past the last.  */
  if (n < 0 && ((errno == EINVAL && index == 0) || errno == ENOENT))
    return FILTER_END;
  if (n < 0 && errno == EIO)
    return entitle_make_error (err, EIO, "inspect: this kernel cannot read filters back "
                                         "(PTRACE_SECCOMP_GET_FILTER needs CONFIG_CHECKPOINT_RESTORE)");
  if (n < 0)
    return entitle_make_sys_error (err, "inspect: read filter %lu of process %d", index, (int)pid);
  f->insns = calloc ((size_t)n, sizeof (*f->insns));
  if (f->insns == NULL)
    abort ();
  f->n = (size_t)n;
  if (k->ptrace (PTRACE_SECCOMP_GET_FILTER, pid, index, (unsigned long)f->insns) != n)
    return entitle_make_sys_error (err, "inspect: read filter %lu of process %d", index, (int)pid);
  return FILTER_READ;
}

/* Filter @index: classic, or else (EMEDIUMTYPE: it has no classic
   program) the seed's eBPF filter where the kernel has eBPF seccomp.  */
static int
read_one (const struct entitle_kernel_s *k, pid_t pid, bool extended, unsigned long index,
          struct entitle_seccomp_filter_s *f, entitle_error_t *err)
{
  int ret;

  f->insns = NULL;
  f->n = 0;
  f->ebpf_fd = -1;
  ret = read_classic (k, pid, index, f, err);
  if (ret >= 0 || (*err)->status != EMEDIUMTYPE)
    return ret;
  entitle_error_release (err);
  if (!extended)
    return entitle_make_error (err, EMEDIUMTYPE, "inspect: filter %lu of process %d is not classic, and this kernel has no eBPF seccomp to read it with",
                               index, (int)pid);
  f->ebpf_fd = entitle_seccomp_get_extended (k, pid, index, err);
  return f->ebpf_fd > 0 ? FILTER_READ : f->ebpf_fd;
}

int
entitle_seccomp_filters_read (const struct entitle_kernel_s *k, pid_t pid, bool extended,
                              struct entitle_seccomp_filter_s **out, size_t *n, entitle_error_t *err)
{
  struct entitle_seccomp_filter_s *v = NULL;
  size_t len = 0;
  int ret = hold (k, pid, err);

  if (UNLIKELY (ret < 0))
    return ret;
  do
    {
      v = realloc (v, (len + 1) * sizeof (*v));
      if (v == NULL)
        abort ();
      ret = read_one (k, pid, extended, len, &v[len], err);
      len += ret == FILTER_READ;
    }
  while (ret == FILTER_READ);
  k->ptrace (PTRACE_DETACH, pid, 0, 0);
  if (UNLIKELY (ret < 0))
    {
      entitle_seccomp_filters_free (v, len + (v[len].insns != NULL));
      return ret;
    }
  *out = v;
  *n = len;
  return 0;
}

void
entitle_seccomp_filters_free (struct entitle_seccomp_filter_s *f, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      free (f[i].insns);
      if (f[i].ebpf_fd >= 0)
        close (f[i].ebpf_fd);
    }
  free (f);
}

/* The disassembler.  Classic BPF jumps forward only, so one pass in
   order knows, at each instruction, what every path to it left in the
   accumulator and which architecture it compared: the state an
   instruction starts with is the meet of its predecessors'.  */

/* What the accumulator holds, as far as seccomp goes.  */
enum loaded
{
  LOADED_OTHER,
  LOADED_NR,
  LOADED_ARCH,
};

struct state
{
  bool reached;
  enum loaded a;
  uint32_t arch; /* the architecture every path here checked, or 0 */
};

static const struct
{
  uint32_t token;
  const char *name;
} archs[] = {
  { SCMP_ARCH_X86_64, "x86_64" },
  { SCMP_ARCH_X86, "x86" },
  { SCMP_ARCH_AARCH64, "aarch64" },
  { SCMP_ARCH_ARM, "arm" },
  { SCMP_ARCH_PPC64LE, "ppc64le" },
  { SCMP_ARCH_PPC64, "ppc64" },
  { SCMP_ARCH_S390X, "s390x" },
  { SCMP_ARCH_S390, "s390" },
  { SCMP_ARCH_RISCV64, "riscv64" },
};

static const char *
arch_name (uint32_t token)
{
  for (size_t i = 0; i < sizeof (archs) / sizeof (archs[0]); i++)
    if (archs[i].token == token)
      return archs[i].name;
  return NULL;
}

/* Flow @from into instruction @to (past the end: nowhere).  */
static void
flow (struct state *st, size_t n, size_t to, struct state from)
{
  if (to >= n)
    return;
  if (!st[to].reached)
    {
      st[to] = from;
      return;
    }
  if (st[to].a != from.a)
    st[to].a = LOADED_OTHER;
  if (st[to].arch != from.arch)
    st[to].arch = 0;
}

/* A load from struct seccomp_data at @off, in words.  */
static enum loaded
field_name (uint32_t off, char *buf, size_t len)
{
  buf[0] = '\0';
  if (off == 0)
    snprintf (buf, len, "nr");
  else if (off == 4)
    snprintf (buf, len, "arch");
  else if (off == 8 || off == 12)
    snprintf (buf, len, "instruction_pointer (%s 32 bits)", off == 8 ? "low" : "high");
  else if (off >= 16 && off < 64)
    snprintf (buf, len, "args[%u] (%s 32 bits)", (off - 16) / 8, off % 8 ? "high" : "low");
  return off == 0 ? LOADED_NR : off == 4 ? LOADED_ARCH
                                         : LOADED_OTHER;
}

/* The constant @k of a comparison in state @in, named: an architecture,
   or a syscall of the architecture checked.  */
static void
constant_name (uint32_t op, uint32_t k, const struct state *in, char *buf, size_t len)
{
  const char *arch;

  buf[0] = '\0';
  if (in->a == LOADED_ARCH && (arch = arch_name (k)) != NULL)
    snprintf (buf, len, "%s", arch);
  else if (in->a == LOADED_NR && op == BPF_JEQ && in->arch)
    {
      /* x32's numbers carry their bit under the x86_64 architecture.  */
      uint32_t arch_of = in->arch == SCMP_ARCH_X86_64 && (k & 0x40000000u) ? SCMP_ARCH_X32 : in->arch;
      cleanup_free char *name = seccomp_syscall_resolve_num_arch (arch_of, (int)k);
      if (name)
        snprintf (buf, len, "%s", name);
    }
}

static void
action_name (uint32_t k, char *buf, size_t len)
{
  static const struct
  {
    uint32_t action;
    const char *name;
  } actions[] = {
    { SECCOMP_RET_KILL_PROCESS, "KILL_PROCESS" },
    { SECCOMP_RET_KILL_THREAD, "KILL_THREAD" },
    { SECCOMP_RET_TRAP, "TRAP" },
    { SECCOMP_RET_ERRNO, "ERRNO" },
    { SECCOMP_RET_USER_NOTIF, "USER_NOTIF" },
    { SECCOMP_RET_TRACE, "TRACE" },
    { SECCOMP_RET_LOG, "LOG" },
    { SECCOMP_RET_ALLOW, "ALLOW" },
  };

  for (size_t i = 0; i < sizeof (actions) / sizeof (actions[0]); i++)
    if ((k & SECCOMP_RET_ACTION_FULL) == actions[i].action)
      {
        if (actions[i].action == SECCOMP_RET_ERRNO || actions[i].action == SECCOMP_RET_TRAP
            || actions[i].action == SECCOMP_RET_TRACE)
          snprintf (buf, len, "%s(%u)", actions[i].name, k & SECCOMP_RET_DATA);
        else
          snprintf (buf, len, "%s", actions[i].name);
        return;
      }
  snprintf (buf, len, "action %#x", k);
}

static const char *
op_name (uint16_t code)
{
  static const char *const jmp[] = { "ja", "jeq", "jgt", "jge", "jset" };
  static const char *const alu[] = { "add", "sub", "mul", "div", "or", "and", "lsh", "rsh", "neg", "mod", "xor" };
  unsigned op = BPF_OP (code) >> 4;

  if (BPF_CLASS (code) == BPF_JMP)
    return op < sizeof (jmp) / sizeof (jmp[0]) ? jmp[op] : "j?";
  return op < sizeof (alu) / sizeof (alu[0]) ? alu[op] : "alu?";
}

/* A conditional jump, @i of @n: printed, and its two successors told
   what it learnt (the architecture, on the path where it is equal).  */
static void
format_jump (const struct sock_filter *f, size_t i, struct state *st, size_t n, char *ins, size_t ilen, char *note,
             size_t nlen)
{
  struct state in = st[i], t = in;

  if (BPF_SRC (f->code) == BPF_X)
    snprintf (ins, ilen, "%s x, %zu, %zu", op_name (f->code), i + 1 + f->jt, i + 1 + f->jf);
  else
    {
      snprintf (ins, ilen, "%s #%#x, %zu, %zu", op_name (f->code), f->k, i + 1 + f->jt, i + 1 + f->jf);
      constant_name (BPF_OP (f->code), f->k, &in, note, nlen);
      if (in.a == LOADED_ARCH && BPF_OP (f->code) == BPF_JEQ && arch_name (f->k))
        t.arch = f->k;
    }
  flow (st, n, i + 1 + f->jt, t);
  flow (st, n, i + 1 + f->jf, in);
}

/* Instruction @i of @n into @ins and @note (what it means), and its
   state flowed on.  */
static void
format_insn (const struct sock_filter *insns, size_t i, struct state *st, size_t n, char *ins, size_t ilen,
             char *note, size_t nlen)
{
  const struct sock_filter *f = &insns[i];
  struct state out = st[i];
  uint16_t code = f->code, mode = BPF_MODE (code);

  note[0] = '\0';
  switch (BPF_CLASS (code))
    {
    case BPF_LD:
      if (mode == BPF_ABS && BPF_SIZE (code) == BPF_W)
        {
          snprintf (ins, ilen, "ld [%u]", f->k);
          out.a = field_name (f->k, note, nlen);
        }
      else
        {
          snprintf (ins, ilen, "%s %#x", mode == BPF_MEM ? "ld M" : mode == BPF_IMM ? "ld #"
                                                                                    : "ld ?",
                    f->k);
          out.a = LOADED_OTHER;
        }
      break;
    case BPF_LDX:
      snprintf (ins, ilen, "%s %#x", mode == BPF_MEM ? "ldx M" : "ldx #", f->k);
      break;
    case BPF_ST:
    case BPF_STX:
      snprintf (ins, ilen, "%s M %#x", BPF_CLASS (code) == BPF_ST ? "st" : "stx", f->k);
      break;
    case BPF_ALU:
      if (BPF_SRC (code) == BPF_X)
        snprintf (ins, ilen, "%s x", op_name (code));
      else
        snprintf (ins, ilen, "%s #%#x", op_name (code), f->k);
      out.a = LOADED_OTHER;
      break;
    case BPF_JMP:
      if (BPF_OP (code) != BPF_JA)
        return format_jump (f, i, st, n, ins, ilen, note, nlen);
      snprintf (ins, ilen, "ja %zu", i + 1 + f->k);
      flow (st, n, i + 1 + f->k, out);
      return;
    case BPF_RET:
      snprintf (ins, ilen, BPF_RVAL (code) == BPF_A ? "ret a" : "ret #%#x", f->k);
      if (BPF_RVAL (code) != BPF_A)
        action_name (f->k, note, nlen);
      return;
    default:
      snprintf (ins, ilen, BPF_MISCOP (code) == BPF_TAX ? "tax" : "txa");
      if (BPF_MISCOP (code) != BPF_TAX)
        out.a = LOADED_OTHER;
      break;
    }
  flow (st, n, i + 1, out);
}

void
entitle_seccomp_disassemble (FILE *out, const struct sock_filter *insns, size_t n)
{
  cleanup_free struct state *st = calloc (n ? n : 1, sizeof (*st));
  char ins[64], note[128];

  if (st == NULL)
    abort ();
  if (n)
    st[0].reached = true;
  for (size_t i = 0; i < n; i++)
    {
      format_insn (insns, i, st, n, ins, sizeof (ins), note, sizeof (note));
      if (note[0])
        fprintf (out, "  %4zu  %-32s %s\n", i, ins, note);
      else
        fprintf (out, "  %4zu  %s\n", i, ins);
    }
}
