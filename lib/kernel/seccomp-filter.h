/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SECCOMP_FILTER_H
#define ENTITLE_SECCOMP_FILTER_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "error.h"
#include "seed-kernel.h"

/* The seccomp filters a running process is held to, read from the kernel
   (`entitle inspect`), not from a config: for each kind of filter, a
   reader.  Classic filters (cBPF, what runc and crun install) come back
   through ptrace's PTRACE_SECCOMP_GET_FILTER (mainline, CAP_SYS_ADMIN,
   CONFIG_CHECKPOINT_RESTORE); the eBPF seccomp patch set's filters, which
   have no classic program (EMEDIUMTYPE there), through its
   PTRACE_SECCOMP_GET_FILTER_EXTENDED (lib/kernel/seccomp-ebpf.h), asked only
   where the kernel has the patch set.  Every ptrace call goes through the
   kernel table @k, so that the tests can put one with eBPF seccomp in its
   place.  */

enum entitle_filter_kind
{
  ENTITLE_FILTER_CLASSIC, /* struct sock_filter instructions */
  ENTITLE_FILTER_EBPF,    /* the seed's: a BPF_PROG_TYPE_SECCOMP program */
};

struct entitle_seccomp_filter_s
{
  enum entitle_filter_kind kind;
  struct sock_filter *insns; /**< classic: malloc'd */
  size_t n;
  int ebpf_fd; /**< eBPF: the program, or -1 where this kernel cannot read it back */
};

/**
 * The filters of @pid, the first installed first (as the kernel numbers
 * them), into a malloc'd array of @n; the eBPF ones read back where
 * @extended (the kernel has eBPF seccomp: entitle_seed_seccomp_extended).
 * The process is stopped (PTRACE_SEIZE, PTRACE_INTERRUPT) while they are
 * read and runs on afterwards as before.
 */
int entitle_seccomp_read_filters (const struct entitle_kernel_s *k, pid_t pid, bool extended,
                                  struct entitle_seccomp_filter_s **filters, size_t *n, entitle_error_t *err);

void entitle_seccomp_filters_free (struct entitle_seccomp_filter_s *filters, size_t n);

/* A disassembler that knows, at each instruction, what every path to it
   left in the accumulator and which architecture they all checked, to
   name syscall numbers for the right architecture (a libseccomp filter
   jumps past one architecture's section into the next one's).  */
struct entitle_disasm_state;
struct entitle_disasm_s
{
  const struct sock_filter *insns;
  size_t n;
  struct entitle_disasm_state *st; /**< one per instruction */
};

/** Start disassembling the @n instructions at @insns.  */
void entitle_disasm_start (struct entitle_disasm_s *d, const struct sock_filter *insns, size_t n);

/**
 * Instruction @i as text ("ld [0] ; nr", "jeq #0x29, 3, 4 ; socket"), into
 * @buf; call for each instruction in order.
 */
void entitle_disasm (struct entitle_disasm_s *d, size_t i, char *buf, size_t len);

void entitle_disasm_end (struct entitle_disasm_s *d);

/** A seccomp return value for people: "ALLOW", "ERRNO(EPERM)", into @buf. */
void entitle_seccomp_action_name (uint32_t ret, char *buf, size_t len);

#endif
