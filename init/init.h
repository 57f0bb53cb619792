/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_INIT_H
#define ENTITLE_INIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "seed-kernel.h"

/* entitle-init, the in-container helper (entitle-init(8)): libc only, it
   runs inside the container, so it links nothing of entitle's but the
   seed kernel table (lib/kernel/seed-kernel.c, libc only too), through
   which the tests give it a fake kernel with eBPF seccomp; the filter's
   install (lib/kernel/seccomp-ebpf.h) is inline for it.  */

/* Exit statuses, as a shell's: the command could not be found or a rule
   could not be applied (nothing ran), or it was found but not run.  */
#define INIT_EXIT_FAILED 127
#define INIT_EXIT_NOEXEC 126

/* One rule of the command line, in the order given.  */
enum rule_kind
{
  RULE_FS_WRITE,    /* --fs.write PATH */
  RULE_FS_READ,     /* --fs.read PATH */
  RULE_TCP_CONNECT, /* --tcp-connect PORT[-PORT] */
  RULE_TCP_BIND,    /* --tcp-bind PORT[-PORT] */
  RULE_SECCOMP_FD,  /* --seccomp-fd FD: an eBPF seccomp filter to install */
};

struct rule
{
  enum rule_kind kind;
  const char *value;
};

/* What main parsed, and the command's file as execve will take it.  */
struct plan
{
  struct rule *rules;
  size_t n_rules;
  char **command;                        /* argv after "--" */
  char *path;                            /* command[0] resolved through $PATH */
  const struct entitle_kernel_s *kernel; /* the kernel's seed interfaces, or a test's fake */
};

/** One line "entitle-init: ..." on stderr, then exit with @status.  */
_Noreturn void init_fail (int status, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

/** Does @p hold a rule of @kind?  */
bool plan_has (const struct plan *p, enum rule_kind kind);

/** Apply the layers to this process, in order (init/layers.c).  */
void init_apply (const struct plan *p);

/** The Landlock layer: fs.write, fs.read and the TCP port rules.  */
void init_landlock (const struct plan *p);

/** The eBPF seccomp layer: the filter at --seccomp-fd.  */
void init_seccomp (const struct plan *p);

/** What the command needs to start, as init_run_needs finds it.  */
enum need
{
  NEED_COMMAND, /* the command's own file (it must exist) */
  NEED_INTERP,  /* a script's or an ELF program's interpreter */
  NEED_LOADER,  /* a standard library directory, or the loader's cache */
};

/**
 * Call @add for each file the kernel and the dynamic loader open to run
 * @path: @path itself, a script's interpreter (#!), an ELF program's
 * interpreter (PT_INTERP) and, for a dynamic one, the standard library
 * directories and /etc/ld.so.cache.  Paths that do not exist are passed
 * too: @add decides.  The command and its interpreters are found as
 * execve(2) finds them, through links; the loader's paths are not
 * (init/landlock.c).
 */
void init_run_needs (const char *path, void (*add) (const char *path, enum need need, void *data), void *data);

/**
 * Open @path (absolute, else from the working directory) O_PATH without
 * following a symbolic link in any of its components (init/find.c).
 * Returns the descriptor, or -1 with errno: ELOOP when a component is a
 * link, and then the prefix of @path that names it in @link (@len
 * bytes, NUL included; @link may be NULL).
 */
int init_open_nofollow (const char *path, char *link, size_t len);

#endif
