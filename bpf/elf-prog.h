/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_ELF_PROG_H
#define ENTITLE_ELF_PROG_H

#include <gelf.h>
#include <libelf.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include "error.h"

/* The one reader of BPF programs in ELF objects (libelf), for the
   programs libbpf cannot load since it knows neither seed program type:
   a program's instructions and the symbols its relocations name, of a
   whole section (bpf/gen-insns, at build time, for seeds.bpf.o) or of
   one function of a section (an admin's program at a Checmate hook,
   bpf/custom-checmate.c).  Which relocations are allowed is the caller's
   policy; the reader only reads.  Libelf and libc only: gen-insns, built
   before libentitle.a, compiles this file (and lib/base/error.c) in.  */

/** The ELF relocation type of a 64-bit immediate load (a map's address).  */
#define ENTITLE_R_BPF_64_64 1

/** An object open for reading.  */
struct entitle_elf_s
{
  const char *path; /**< for the messages */
  int fd;
  Elf *elf;
  size_t shstrndx;
  Elf_Data *syms; /**< its symbol table, or NULL */
  size_t strndx;  /**< the symbol names' section */
};

/** One relocation of a program.  */
struct entitle_elf_reloc_s
{
  size_t insn;     /**< the instruction it patches, counted from the program's first */
  unsigned type;   /**< ENTITLE_R_BPF_64_64 for a map */
  const char *sym; /**< the symbol's name (valid while the object is open), or NULL */
  bool undefined;  /**< the symbol is undefined (SHN_UNDEF): a map the loader gives */
};

/** A program read from an object.  */
struct entitle_elf_prog_s
{
  struct bpf_insn *insns;
  size_t n;
  struct entitle_elf_reloc_s *relocs;
  size_t n_relocs;
};

/** Open the ELF object @path into @e.  */
int entitle_elf_open (struct entitle_elf_s *e, const char *path, entitle_error_t *err);

void entitle_elf_close (struct entitle_elf_s *e);

/**
 * The name of the next section of @e from *@at (start at 0) that holds
 * instructions, in the object's order; *@at moves past it.  NULL after
 * the last.
 */
const char *entitle_elf_next_prog_section (const struct entitle_elf_s *e, size_t *at);

/**
 * Read into @p the program of section @section of @e: the whole section
 * when @func is NULL, else its function @func.  Not there (ENOENT) and a
 * relocation that names no symbol (EINVAL) are errors naming the object.
 */
int entitle_elf_prog_read (const struct entitle_elf_s *e, const char *section, const char *func,
                           struct entitle_elf_prog_s *p, entitle_error_t *err);

void entitle_elf_prog_free (struct entitle_elf_prog_s *p);

#endif
