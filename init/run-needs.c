/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "init.h"

/* What fs.read leaves readable so that the command starts at all
   (entitle-init(8)): the kernel reads the file it runs and a script's
   interpreter; a dynamic program's loader reads its libraries from the
   standard directories (glibc's and musl's defaults; the multiarch ones
   are beneath them) after /etc/ld.so.cache.  Libraries elsewhere (an
   RPATH, LD_LIBRARY_PATH) and whatever the command runs later are the
   container's to list with fs.read.  These paths are found without
   following a link (NEED_LOADER): a merged-/usr image's /lib -> usr/lib,
   /lib64 -> usr/lib64, /lib32 and /libx32 get no rule of their own, and
   the loader reads through them what the rules of their targets, which
   are in this list too, hold; a link to anywhere else holds nothing.  */
static const char *const loader_paths[] = {
  "/lib",
  "/lib64",
  "/lib32",
  "/libx32",
  "/usr/lib",
  "/usr/lib64",
  "/usr/lib32",
  "/usr/libx32",
  "/usr/local/lib",
  "/etc/ld.so.cache",
  "/etc/ld.so.preload",
};

/* The kernel follows at most this many interpreters (BINPRM_MAX_RECURSION).  */
#define MAX_DEPTH 4

static bool
read_at (int fd, void *buf, size_t len, uint64_t off)
{
  return pread (fd, buf, len, (off_t)off) == (ssize_t)len;
}

/* Program header @i of the ELF file @fd: its type, offset and size.  */
static bool
program_header (int fd, int class, const void *ehdr, unsigned i, uint32_t *type, uint64_t *off, uint64_t *size)
{
  if (class == ELFCLASS64)
    {
      const Elf64_Ehdr *h = ehdr;
      Elf64_Phdr ph;
      if (!read_at (fd, &ph, sizeof (ph), h->e_phoff + (uint64_t)i * h->e_phentsize))
        return false;
      *type = ph.p_type, *off = ph.p_offset, *size = ph.p_filesz;
      return true;
    }
  const Elf32_Ehdr *h = ehdr;
  Elf32_Phdr ph;
  if (!read_at (fd, &ph, sizeof (ph), h->e_phoff + (uint64_t)i * h->e_phentsize))
    return false;
  *type = ph.p_type, *off = ph.p_offset, *size = ph.p_filesz;
  return true;
}

/* The PT_INTERP of the ELF file @fd into @interp: false for a static
   program (or one the kernel would not run either).  */
static bool
elf_interp (int fd, int class, char *interp, size_t len)
{
  union
  {
    Elf64_Ehdr h64;
    Elf32_Ehdr h32;
  } h;
  unsigned phnum;

  if (!read_at (fd, &h, class == ELFCLASS64 ? sizeof (h.h64) : sizeof (h.h32), 0))
    return false;
  phnum = class == ELFCLASS64 ? h.h64.e_phnum : h.h32.e_phnum;
  for (unsigned i = 0; i < phnum; i++)
    {
      uint32_t type;
      uint64_t off, size;
      if (!program_header (fd, class, &h, i, &type, &off, &size))
        return false;
      if (type != PT_INTERP)
        continue;
      if (size < 2 || size > len || !read_at (fd, interp, size, off))
        return false;
      interp[size - 1] = '\0';
      return true;
    }
  return false;
}

/* "#!INTERP [ARG]": INTERP into @interp.  */
static bool
script_interp (const char *buf, char *interp, size_t len)
{
  const char *p = buf + 2, *end;

  p += strspn (p, " \t");
  end = p + strcspn (p, " \t\n");
  if (end == p || (size_t)(end - p) >= len)
    return false;
  memcpy (interp, p, (size_t)(end - p));
  interp[end - p] = '\0';
  return true;
}

static void
needs (const char *path, enum need need, int depth, void (*add) (const char *, enum need, void *), void *data)
{
  char buf[256] = { 0 }, interp[4096];
  ssize_t n;
  int fd;

  add (path, need, data);
  if (depth >= MAX_DEPTH || (fd = open (path, O_RDONLY | O_CLOEXEC)) < 0)
    return;
  n = read (fd, buf, sizeof (buf) - 1);
  if (n >= 2 && buf[0] == '#' && buf[1] == '!' && script_interp (buf, interp, sizeof (interp)))
    needs (interp, NEED_INTERP, depth + 1, add, data);
  else if (n >= EI_NIDENT && memcmp (buf, ELFMAG, SELFMAG) == 0
           && (buf[EI_CLASS] == ELFCLASS64 || buf[EI_CLASS] == ELFCLASS32)
           && elf_interp (fd, buf[EI_CLASS], interp, sizeof (interp)))
    {
      needs (interp, NEED_INTERP, depth + 1, add, data);
      for (size_t i = 0; i < sizeof (loader_paths) / sizeof (loader_paths[0]); i++)
        add (loader_paths[i], NEED_LOADER, data);
    }
  close (fd);
}

void
init_run_needs (const char *path, void (*add) (const char *path, enum need need, void *data), void *data)
{
  needs (path, NEED_COMMAND, 0, add, data);
}
