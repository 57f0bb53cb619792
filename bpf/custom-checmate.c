/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "checmate.h"
#include "custom-checmate.h"
#include "elf-prog.h"
#include "entitle-data.h"
#include "hash.h"
#include "seed-attach.h"
#include "seed-load.h"
#include "utils.h"

/* An admin's program at a Checmate hook (entitle.json(5), `checmate/HOOK`).
   A Checmate hook is global, so the program is loaded and installed once
   per host, as entitle's own Checmate programs are, and finds the
   container by the current task's cgroup id in its `entitle_data` map
   (entitle-data.h's hash), which entitle-hook fills at each create.
   libbpf knows no Checmate program type, so the program's instructions and
   its references to that map are read from the ELF object by the one ELF
   reader (bpf/elf-prog.h; the rule that the map be entitle_data is this
   file's) and loaded through the kernel table (lib/kernel/seed-load.h),
   which the tests' fake kernel can stand in for.  Program and map are pinned under
   ENTITLE_CHECMATE_DIR by a hash of the instructions: a second container
   finds them, and a changed object is loaded anew.  */

#define DATA_MAP "entitle_data"

struct elf_prog_s
{
  struct bpf_insn *insns;
  size_t n;
  struct entitle_seed_reloc *relocs;
  size_t n_relocs;
};

static void
elf_prog_free (struct elf_prog_s *p)
{
  free (p->insns);
  free (p->relocs);
}

/* The relocations of @in, each to the map entitle_data; any other is
   refused.  */
static int
take_relocs (const struct entitle_elf_prog_s *in, const char *object, struct elf_prog_s *p, entitle_error_t *err)
{
  p->relocs = xcalloc (in->n_relocs + 1, sizeof (*p->relocs));
  for (size_t i = 0; i < in->n_relocs; i++)
    {
      const struct entitle_elf_reloc_s *r = &in->relocs[i];

      if (r->type != ENTITLE_R_BPF_64_64 || r->sym == NULL || strcmp (r->sym, DATA_MAP) != 0)
        return entitle_make_error (err, EINVAL,
                                   "BPF object `%s`: a program at a Checmate hook may name the map `" DATA_MAP
                                   "` only, not `%s`",
                                   object, r->sym ? r->sym : "?");
      p->relocs[p->n_relocs++] = (struct entitle_seed_reloc){ .insn = (unsigned)r->insn, .map = DATA_MAP };
    }
  return 0;
}

/* The instructions of program @prog (a function of section @section) in
   the ELF object @object (bpf/elf-prog.h), and its map references.  */
static int
read_prog (const char *object, const char *section, const char *prog, struct elf_prog_s *p, entitle_error_t *err)
{
  struct entitle_elf_s e;
  struct entitle_elf_prog_s in;
  int ret = entitle_elf_open (&e, object, err);

  if (UNLIKELY (ret < 0))
    return ret;
  ret = entitle_elf_prog_read (&e, section, prog, &in, err);
  if (ret == 0)
    ret = take_relocs (&in, object, p, err);
  p->insns = in.insns;
  p->n = in.n;
  free (in.relocs);
  entitle_elf_close (&e);
  return ret;
}

static unsigned long long
hash_of (const struct elf_prog_s *p, const char *hook)
{
  return entitle_fnv_str (entitle_fnv_bytes (ENTITLE_FNV_OFFSET, p->insns, p->n * sizeof (*p->insns)), hook);
}

static void
pin_name (char *buf, size_t len, const char *dir, unsigned long long h, const char *what)
{
  snprintf (buf, len, "%s/custom-%016llx%s", dir, h, what);
}

/* The map the loaded program @prog names (its entitle_data), or -1 when
   it names none: taken from the program itself, so that entitle writes
   the very map the installed program reads.  */
static int
map_of (int prog)
{
  struct bpf_prog_info info = { 0 };
  __u32 len = sizeof (info), id = 0;

  info.nr_map_ids = 1;
  info.map_ids = (__u64)(unsigned long)&id;
  if (bpf_obj_get_info_by_fd (prog, &info, &len) < 0 || info.nr_map_ids == 0)
    return -1;
  return bpf_map_get_fd_by_id (id);
}

/* The program pinned by an earlier load of the same one, and its map.  */
static bool
get_pins (const char *dir, unsigned long long h, bool data, struct entitle_custom_checmate_s *c)
{
  char path[512];

  pin_name (path, sizeof (path), dir, h, "");
  c->prog = bpf_obj_get (path);
  c->data = c->prog >= 0 && data ? map_of (c->prog) : -1;
  if (c->prog >= 0 && (c->data >= 0 || !data))
    return true;
  entitle_custom_checmate_close (c);
  return false;
}

static int
load_and_pin (const struct entitle_kernel_s *k, const struct elf_prog_s *ep, const char *section, const char *dir,
              unsigned long long h, struct entitle_custom_checmate_s *c, entitle_error_t *err)
{
  struct entitle_seed_prog sp = { .section = section, .insns = ep->insns, .n = ep->n, .relocs = ep->relocs, .n_relocs = ep->n_relocs };
  struct entitle_seed_map_s maps[] = { { DATA_MAP, -1 }, { NULL, -1 } };
  char path[512];

  if (ep->n_relocs)
    {
      c->data = entitle_seed_map_create (k, DATA_MAP, BPF_MAP_TYPE_HASH, sizeof (__u64), sizeof (struct entitle_data),
                                         ENTITLE_CHECMATE_MAX, 0, err);
      if (UNLIKELY (c->data < 0))
        return c->data;
      maps[0].fd = c->data;
    }
  c->prog = entitle_seed_load (k, &sp, ENTITLE_BPF_PROG_TYPE_CHECMATE, entitle_seed_kernel_version (), maps, err);
  if (UNLIKELY (c->prog < 0))
    return c->prog;
  /* The program first, then the map it reads: two hooks at once, the
     second finds the first's program (EEXIST) and takes its map.  The
     map's pin is for poststop's sweep (entitle_custom_checmate_sweep).  */
  mkdir (dir, 0700);
  pin_name (path, sizeof (path), dir, h, "");
  if (bpf_obj_pin (c->prog, path) < 0 && errno != EEXIST)
    return entitle_make_sys_error (err, "pin `%s`", path);
  entitle_custom_checmate_close (c);
  if (!get_pins (dir, h, ep->n_relocs > 0, c))
    return entitle_make_sys_error (err, "open the pin `%s`", path);
  pin_name (path, sizeof (path), dir, h, "-data");
  if (c->data >= 0 && bpf_obj_pin (c->data, path) < 0 && errno != EEXIST)
    return entitle_make_sys_error (err, "pin `%s`", path);
  return 0;
}

int
entitle_custom_checmate_open (const struct entitle_kernel_s *k, const struct entitle_entry_s *e,
                              const struct entitle_prog_s *p, const char *dir, struct entitle_custom_checmate_s *c,
                              entitle_error_t *err)
{
  struct elf_prog_s ep = { 0 };
  unsigned long long h;
  int ret;

  c->prog = c->data = -1;
  ret = read_prog (p->object, p->attach, p->program, &ep, err);
  if (ret == 0)
    {
      h = hash_of (&ep, p->attach);
      if (!get_pins (dir, h, ep.n_relocs > 0, c))
        ret = load_and_pin (k, &ep, p->attach, dir, h, c, err);
    }
  elf_prog_free (&ep);
  if (UNLIKELY (ret < 0))
    {
      entitle_custom_checmate_close (c);
      return entitle_error_wrap (err, "entitlement `%s`: program `%s` at %s", e->name, p->program, p->attach);
    }
  return 0;
}

int
entitle_custom_checmate_enforce (const struct entitle_kernel_s *k, const struct entitle_entry_s *e,
                                 const struct entitle_prog_s *p, const struct entitle_custom_checmate_s *c,
                                 uint64_t cgroup_id, bool lock, int mountfd, entitle_error_t *err)
{
  struct entitle_seed_point_s point;
  struct entitle_data d = { .cgroup_id = cgroup_id, .flags = ENTITLE_DATA_SET, .n = (__u32)e->n_data };
  __u64 key = cgroup_id;
  int ret = entitle_seed_point_parse (p->attach, &point, err);

  /* 1: installed already, by an earlier container's hook.  */
  if (ret == 0)
    ret = entitle_seed_attach (k, &point, c->prog, lock, err);
  if (ret >= 0 && c->data >= 0)
    {
      /* No poststop runs where the runtime manages the cgroup: each create
         drops the entries of gone cgroups, as the Checmate layer's.  */
      entitle_checmate_sweep (c->data, mountfd);
      memcpy (d.words, e->data, e->n_data * sizeof (d.words[0]));
      ret = entitle_seed_map_update (k, c->data, &key, &d, BPF_ANY, err);
    }
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "entitlement `%s`: program `%s` at %s", e->name, p->program, p->attach);
  return 0;
}

/* Pins of the form custom-HASH-data: the entitle_data of each program
   loaded here, the current object's and any earlier one's (a changed
   object's programs stay installed until a reset or a reboot, and read
   their own map).  */
static bool
is_data_pin (const char *name)
{
  size_t n = strlen (name);

  return strncmp (name, "custom-", 7) == 0 && n > 12 && strcmp (name + n - 5, "-data") == 0;
}

void
entitle_custom_checmate_sweep (const char *dir, int mountfd)
{
  cleanup_dir DIR *d = opendir (dir);
  struct dirent *de;

  while (d && (de = readdir (d)) != NULL)
    {
      char path[512];
      cleanup_close int map = -1;

      if (!is_data_pin (de->d_name))
        continue;
      snprintf (path, sizeof (path), "%s/%s", dir, de->d_name);
      map = bpf_obj_get (path);
      if (map >= 0)
        entitle_checmate_sweep (map, mountfd);
    }
}

void
entitle_custom_checmate_close (struct entitle_custom_checmate_s *c)
{
  if (c->prog >= 0)
    close (c->prog);
  if (c->data >= 0)
    close (c->data);
  c->prog = c->data = -1;
}
