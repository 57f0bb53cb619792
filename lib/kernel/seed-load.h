/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SEED_LOAD_H
#define ENTITLE_SEED_LOAD_H

#include <linux/bpf.h>
#include <stddef.h>
#include "error.h"
#include "seed-kernel.h"

/* Loading the programs of bpf/progs/seeds.bpf.c (Checmate's and the eBPF
   seccomp filter) without libbpf, which knows neither program type: the
   instructions bpf/gen-insns took from the object at build time, their
   maps' fds put into the instructions that name them, and a raw
   BPF_PROG_LOAD, every call through the kernel table @k.  libbpf makes
   its own bpf(2) calls, which the unit tests' fake kernel (the one mock
   of these interfaces) could not stand in for; on a real seed kernel it
   loads them (test/integration/helper/seed-samples.c).  */

struct entitle_seed_reloc
{
  unsigned insn;   /**< the 64-bit immediate load that names the map */
  const char *map; /**< its name in seeds.bpf.c */
};

struct entitle_seed_prog
{
  const char *section; /**< "seccomp", "checmate/socket_connect" */
  const struct bpf_insn *insns;
  size_t n;
  const struct entitle_seed_reloc *relocs;
  size_t n_relocs;
};

/** A map fd by the name the programs give it.  */
struct entitle_seed_map_s
{
  const char *name;
  int fd;
};

/** The program of @section, or NULL.  */
const struct entitle_seed_prog *entitle_seed_prog (const char *section);

/** Which build the seed programs are: a hash of their instructions.  */
unsigned long long entitle_seed_hash (void);

/** The running kernel's version as the kernel encodes it (KERNEL_VERSION).  */
unsigned entitle_seed_kernel_version (void);

/**
 * Load @prog as a program of @type (kern_version @kern_version, which
 * Checmate requires to be the running kernel's, seed 006), with the maps
 * of @maps (terminated by a NULL name).  Returns the program's fd; on
 * failure the verifier's first lines are in the message.
 */
int entitle_seed_load (const struct entitle_kernel_s *k, const struct entitle_seed_prog *prog, int type,
                       unsigned kern_version, const struct entitle_seed_map_s *maps, entitle_error_t *err);

/** BPF_MAP_CREATE through @k; returns the fd.  */
int entitle_seed_map_create (const struct entitle_kernel_s *k, const char *name, int type, unsigned key_size,
                             unsigned value_size, unsigned max_entries, unsigned flags, entitle_error_t *err);

/** BPF_MAP_UPDATE_ELEM through @k.  */
int entitle_seed_map_update (const struct entitle_kernel_s *k, int fd, const void *key, const void *value,
                             unsigned long long flags, entitle_error_t *err);

#endif
