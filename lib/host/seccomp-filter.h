/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SECCOMP_FILTER_H
#define ENTITLE_SECCOMP_FILTER_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "error.h"

/* The seccomp filters a running process is held to, read from the kernel
   (`entitle inspect`), not from a config: for each kind of filter, a
   reader.  Classic filters (cBPF, what runc and crun install) come back
   through ptrace's PTRACE_SECCOMP_GET_FILTER (mainline, CAP_SYS_ADMIN);
   the eBPF seccomp patch set's filters would come back through
   PTRACE_SECCOMP_GET_FILTER_EXTENDED, which that patch set adds: its
   reader belongs beside entitle_seccomp_read_classic, as a second kind in
   struct entitle_seccomp_filter_s.  */

enum entitle_filter_kind
{
  ENTITLE_FILTER_CLASSIC, /* struct sock_filter instructions */
};

struct entitle_seccomp_filter_s
{
  enum entitle_filter_kind kind;
  struct sock_filter *insns; /**< malloc'd */
  size_t n;
};

/**
 * The classic filters of @pid, the most recently installed first (as the
 * kernel numbers them), into a malloc'd array of @n.  The process is
 * stopped (PTRACE_SEIZE, PTRACE_INTERRUPT) while they are read and runs
 * on afterwards as before.
 */
int entitle_seccomp_read_classic (pid_t pid, struct entitle_seccomp_filter_s **filters, size_t *n,
                                  entitle_error_t *err);

void entitle_seccomp_filters_free (struct entitle_seccomp_filter_s *filters, size_t n);

/* A disassembler that follows which architecture the filter has checked,
   to name syscall numbers.  */
struct entitle_disasm_s
{
  uint32_t arch; /**< the AUDIT_ARCH_* last compared with seccomp_data.arch */
  int loaded;    /**< the seccomp_data offset last loaded into A, or -1 */
};

/** Instruction @i of @insns as text ("ld [0] ; nr", "jeq #41, 3, 4 ; socket"), into @buf. */
void entitle_disasm (struct entitle_disasm_s *d, const struct sock_filter *insns, size_t i, char *buf, size_t len);

/** A seccomp return value for people: "ALLOW", "ERRNO(EPERM)", into @buf. */
void entitle_seccomp_action_name (uint32_t ret, char *buf, size_t len);

#endif
