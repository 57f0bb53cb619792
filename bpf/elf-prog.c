/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elf-prog.h"
#include "utils.h"

int
entitle_elf_open (struct entitle_elf_s *e, const char *path, entitle_error_t *err)
{
  Elf_Scn *scn = NULL;

  memset (e, 0, sizeof (*e));
  e->path = path;
  e->fd = open (path, O_RDONLY | O_CLOEXEC);
  if (e->fd < 0)
    return entitle_make_sys_error (err, "BPF object `%s`", path);
  elf_version (EV_CURRENT);
  e->elf = elf_begin (e->fd, ELF_C_READ, NULL);
  if (e->elf == NULL || elf_getshdrstrndx (e->elf, &e->shstrndx) < 0)
    {
      entitle_elf_close (e);
      return entitle_make_error (err, EINVAL, "BPF object `%s`: not an ELF file", path);
    }
  while ((scn = elf_nextscn (e->elf, scn)) != NULL)
    {
      GElf_Shdr sh;
      if (gelf_getshdr (scn, &sh) != NULL && sh.sh_type == SHT_SYMTAB)
        {
          e->syms = elf_getdata (scn, NULL);
          e->strndx = sh.sh_link;
        }
    }
  return 0;
}

void
entitle_elf_close (struct entitle_elf_s *e)
{
  if (e->elf)
    elf_end (e->elf);
  if (e->fd >= 0)
    close (e->fd);
  e->elf = NULL;
  e->fd = -1;
}

const char *
entitle_elf_next_prog_section (const struct entitle_elf_s *e, size_t *at)
{
  Elf_Scn *scn;

  while ((scn = elf_getscn (e->elf, ++*at)) != NULL)
    {
      GElf_Shdr sh;
      if (gelf_getshdr (scn, &sh) != NULL && (sh.sh_flags & SHF_EXECINSTR) && sh.sh_size != 0)
        return elf_strptr (e->elf, e->shstrndx, sh.sh_name);
    }
  return NULL;
}

/* The section named @name that holds data, and its index in @index.  */
static Elf_Data *
find_section (const struct entitle_elf_s *e, const char *name, size_t *index)
{
  Elf_Scn *scn = NULL;

  while ((scn = elf_nextscn (e->elf, scn)) != NULL)
    {
      GElf_Shdr sh;
      const char *n;

      if (gelf_getshdr (scn, &sh) == NULL || sh.sh_type != SHT_PROGBITS)
        continue;
      n = elf_strptr (e->elf, e->shstrndx, sh.sh_name);
      if (n && strcmp (n, name) == 0)
        {
          *index = elf_ndxscn (scn);
          return elf_getdata (scn, NULL);
        }
    }
  return NULL;
}

/* The function symbol @name, or false.  */
static bool
find_func (const struct entitle_elf_s *e, const char *name, GElf_Sym *out)
{
  for (int i = 0; e->syms && gelf_getsym (e->syms, i, out) != NULL; i++)
    {
      const char *n = elf_strptr (e->elf, e->strndx, out->st_name);
      if (GELF_ST_TYPE (out->st_info) == STT_FUNC && n && strcmp (n, name) == 0)
        return true;
    }
  return false;
}

/* The function @func of section @sec (whose data is @text), whole
   instructions inside it, into @fn.  */
static bool
func_in (const struct entitle_elf_s *e, const char *func, size_t sec, const Elf_Data *text, GElf_Sym *fn)
{
  return text && find_func (e, func, fn) && fn->st_shndx == sec && fn->st_value + fn->st_size <= text->d_size
         && fn->st_size % sizeof (struct bpf_insn) == 0;
}

static int
add_reloc (const struct entitle_elf_s *e, const GElf_Rel *rel, size_t start, struct entitle_elf_prog_s *p,
           entitle_error_t *err)
{
  GElf_Sym sym;

  if (e->syms == NULL || gelf_getsym (e->syms, (int)GELF_R_SYM (rel->r_info), &sym) == NULL)
    return entitle_make_error (err, EINVAL, "BPF object `%s`: a relocation names no symbol", e->path);
  p->relocs = xrealloc (p->relocs, (p->n_relocs + 1) * sizeof (*p->relocs));
  p->relocs[p->n_relocs++] = (struct entitle_elf_reloc_s){
    .insn = (size_t)((rel->r_offset - start) / sizeof (struct bpf_insn)),
    .type = (unsigned)GELF_R_TYPE (rel->r_info),
    .sym = elf_strptr (e->elf, e->strndx, sym.st_name),
    .undefined = sym.st_shndx == SHN_UNDEF,
  };
  return 0;
}

/* The relocations of section @sec that fall in [@start, @end).  */
static int
read_relocs (const struct entitle_elf_s *e, size_t sec, size_t start, size_t end, struct entitle_elf_prog_s *p,
             entitle_error_t *err)
{
  Elf_Scn *scn = NULL;

  while ((scn = elf_nextscn (e->elf, scn)) != NULL)
    {
      GElf_Shdr sh;
      Elf_Data *d;
      GElf_Rel rel;

      if (gelf_getshdr (scn, &sh) == NULL || sh.sh_type != SHT_REL || sh.sh_info != sec
          || (d = elf_getdata (scn, NULL)) == NULL)
        continue;
      for (int i = 0; gelf_getrel (d, i, &rel) != NULL; i++)
        {
          int ret;

          if (rel.r_offset < start || rel.r_offset >= end)
            continue;
          ret = add_reloc (e, &rel, start, p, err);
          if (UNLIKELY (ret < 0))
            return ret;
        }
    }
  return 0;
}

int
entitle_elf_prog_read (const struct entitle_elf_s *e, const char *section, const char *func,
                       struct entitle_elf_prog_s *p, entitle_error_t *err)
{
  size_t sec = 0, start = 0, size;
  Elf_Data *text = find_section (e, section, &sec);
  GElf_Sym fn;

  memset (p, 0, sizeof (*p));
  if (func == NULL && text == NULL)
    return entitle_make_error (err, ENOENT, "BPF object `%s` has no section `%s`", e->path, section);
  if (func && !func_in (e, func, sec, text, &fn))
    return entitle_make_error (err, ENOENT, "BPF object `%s` has no program `%s` in section `%s`", e->path, func,
                               section);
  start = func ? (size_t)fn.st_value : 0;
  size = func ? (size_t)fn.st_size : text->d_size;
  p->n = size / sizeof (struct bpf_insn);
  p->insns = xmalloc (size + 1);
  memcpy (p->insns, (const char *)text->d_buf + start, size);
  return read_relocs (e, sec, start, start + size, p, err);
}

void
entitle_elf_prog_free (struct entitle_elf_prog_s *p)
{
  free (p->insns);
  free (p->relocs);
  p->insns = NULL;
  p->relocs = NULL;
}
