/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "custom-progs.h"
#include "entitle-data.h"
#include "install.h"
#include "seed-load.h"
#include "utils.h"

#define DATA_MAP "entitle_data"

static void
cleanup_objectp (struct bpf_object **obj)
{
  bpf_object__close (*obj);
}
#define cleanup_object __attribute__ ((cleanup (cleanup_objectp)))

/* The object at @path, opened (not loaded).  libbpf stays quiet: the
   error is entitle's one line.  */
static int
open_object (const char *path, struct bpf_object **out, entitle_error_t *err)
{
  struct bpf_object *obj;

  libbpf_set_print (NULL);
  if (access (path, R_OK) < 0)
    return entitle_make_sys_error (err, "BPF object `%s`", path);
  obj = bpf_object__open_file (path, NULL);
  if (obj == NULL)
    return entitle_make_error (err, errno, "BPF object `%s`: not an ELF BPF object libbpf can open (%s)", path,
                               strerror (errno));
  *out = obj;
  return 0;
}

static const char *
type_name (enum bpf_prog_type t)
{
  const char *s = libbpf_bpf_prog_type_str (t);
  return s ? s : "unknown";
}

/* Does @prog have what @p's point takes: the program type of a cgroup
   point (and its attach type, which the kernel holds a program to; a
   cgroup_skb, device or sysctl program may come from a section that names
   none), or the section of a seed interface (libbpf knows neither
   `seccomp` nor `checmate`: their type is the ELF section's name).  */
static int
check_type (const struct entitle_prog_s *p, struct bpf_program *prog, entitle_error_t *err)
{
  const char *sec = bpf_program__section_name (prog);
  enum bpf_prog_type type = bpf_program__type (prog);
  enum bpf_attach_type exp = bpf_program__expected_attach_type (prog);

  if (p->point < ATTACH_COUNT)
    {
      const struct entitle_attach_s *a = &entitle_attach_points[p->point];
      bool loose = type == BPF_PROG_TYPE_CGROUP_SKB || type == BPF_PROG_TYPE_CGROUP_DEVICE
                   || type == BPF_PROG_TYPE_CGROUP_SYSCTL;
      if (type == a->prog_type && (exp == a->type || loose))
        return 0;
      return entitle_make_error (err, EINVAL, "program `%s` (section `%s`, type %s) cannot attach at %s, which takes %s programs of section `%s`",
                                 p->program, sec, type_name (type), p->attach, type_name (a->prog_type),
                                 libbpf_bpf_attach_type_str (a->type));
    }
  if (p->point == ENTITLE_POINT_SECCOMP ? strcmp (sec, "seccomp") == 0
                                        : strcmp (sec, "checmate") == 0 || strcmp (sec, p->attach) == 0)
    return 0;
  return entitle_make_error (err, EINVAL, "program `%s` (section `%s`) cannot attach at %s: its section must be `%s`",
                             p->program, sec, p->attach, p->point == ENTITLE_POINT_SECCOMP ? "seccomp" : "checmate");
}

/* A map `entitle_data` is the layout of entitle-data.h: the cgroup's
   storage at a cgroup point, a hash by cgroup id at a seed interface.  A
   row that gives `data` needs one.  */
static int
check_data_map (const struct entitle_entry_s *e, const struct entitle_prog_s *p, struct bpf_object *obj,
                entitle_error_t *err)
{
  const struct bpf_map *m = bpf_object__find_map_by_name (obj, DATA_MAP);

  /* An eBPF seccomp filter is the container's own, installed on its
     process: what it needs is in its instructions, and it is loaded
     without libbpf (entitle_bpf_custom_seccomp_load), which would make
     its maps.  */
  if (p->point == ENTITLE_POINT_SECCOMP && bpf_object__next_map (obj, NULL) != NULL)
    return entitle_make_error (err, EINVAL, "program `%s` at seccomp: `%s` has a map (`%s`), and a filter takes none",
                               p->program, p->object, bpf_map__name (bpf_object__next_map (obj, NULL)));
  /* At a Checmate hook, entitle makes the one map the program may name
     (bpf/custom-checmate.c).  */
  for (const struct bpf_map *o = bpf_object__next_map (obj, NULL); p->point == ENTITLE_POINT_CHECMATE && o;
       o = bpf_object__next_map (obj, o))
    if (strcmp (bpf_map__name (o), DATA_MAP) != 0)
      return entitle_make_error (err, EINVAL, "program `%s` at %s: `%s` has a map `%s`; only `" DATA_MAP "` is made for it",
                                 p->program, p->attach, p->object, bpf_map__name (o));
  enum bpf_map_type want = p->point < ATTACH_COUNT ? BPF_MAP_TYPE_CGROUP_STORAGE : BPF_MAP_TYPE_HASH;

  if (m == NULL)
    return e->n_data ? entitle_make_error (err, EINVAL, "`data` is given, but `%s` has no map `" DATA_MAP "` to read it from",
                                           p->object)
                     : 0;
  if (bpf_map__type (m) != want || bpf_map__key_size (m) != sizeof (__u64)
      || bpf_map__value_size (m) != sizeof (struct entitle_data))
    return entitle_make_error (err, EINVAL, "map `" DATA_MAP "` of `%s` is not entitle-data.h's: %s, a __u64 key, a struct entitle_data value",
                               p->object, libbpf_bpf_map_type_str (want));
  return 0;
}

/* The object of @p opened, and its program found and checked.  */
static int
open_checked (const struct entitle_entry_s *e, const struct entitle_prog_s *p, struct bpf_object **obj,
              struct bpf_program **prog, entitle_error_t *err)
{
  int ret = open_object (p->object, obj, err);

  if (UNLIKELY (ret < 0))
    return ret;
  *prog = bpf_object__find_program_by_name (*obj, p->program);
  if (*prog == NULL)
    return entitle_make_error (err, ENOENT, "BPF object `%s` has no program `%s`", p->object, p->program);
  ret = check_type (p, *prog, err);
  if (ret == 0)
    ret = check_data_map (e, p, *obj, err);
  return ret;
}

int
entitle_bpf_custom_check (const struct entitle_catalogue_s *cat, entitle_error_t *err)
{
  size_t i, k;

  for (i = 0; cat->n_custom && i < cat->n; i++)
    for (k = 0; k < cat->rows[i].n_progs; k++)
      {
        const struct entitle_entry_s *e = &cat->rows[i];
        cleanup_object struct bpf_object *obj = NULL;
        struct bpf_program *prog;
        int ret = open_checked (e, &e->progs[k], &obj, &prog, err);

        if (UNLIKELY (ret < 0))
          return entitle_error_wrap (err, "`%s`: entitlement `%s`", e->custom, e->name);
      }
  return 0;
}

int
entitle_bpf_custom_seccomp_load (const struct entitle_kernel_s *k, const struct entitle_entry_s *e,
                                 const struct entitle_prog_s *p, entitle_error_t *err)
{
  static const struct entitle_seed_map_s no_maps[] = { { NULL, -1 } };
  cleanup_object struct bpf_object *obj = NULL;
  struct bpf_program *prog;
  struct entitle_seed_prog sp = { .section = "seccomp" };
  int ret = open_checked (e, p, &obj, &prog, err);

  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "entitlement `%s`", e->name);
  /* Opened, not loaded: the instructions as the object has them, which
     need no relocation (the filter has no map).  */
  sp.insns = bpf_program__insns (prog);
  sp.n = bpf_program__insn_cnt (prog);
  ret = entitle_seed_load (k, &sp, ENTITLE_BPF_PROG_TYPE_SECCOMP, 0, no_maps, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "entitlement `%s`: program `%s` of `%s`", e->name, p->program, p->object);
  return ret;
}

/* The row's data into the cgroup's storage of @obj's entitle_data.  */
static int
write_data (const struct entitle_entry_s *e, const struct entitle_prog_s *p, struct bpf_object *obj, uint64_t cgroup_id,
            entitle_error_t *err)
{
  const struct bpf_map *m = bpf_object__find_map_by_name (obj, DATA_MAP);
  struct entitle_data d = { .cgroup_id = cgroup_id, .flags = ENTITLE_DATA_SET, .n = (__u32)e->n_data };
  __u64 key = cgroup_id;

  if (m == NULL)
    return 0;
  memcpy (d.words, e->data, e->n_data * sizeof (d.words[0]));
  if (bpf_map_update_elem (bpf_map__fd (m), &key, &d, BPF_ANY) < 0)
    return entitle_make_sys_error (err, "write the data of program `%s`", p->program);
  return 0;
}

int
entitle_bpf_custom_attach (const struct entitle_entry_s *e, const struct entitle_prog_s *p, int cgfd,
                           uint64_t cgroup_id, entitle_error_t *err)
{
  cleanup_object struct bpf_object *obj = NULL;
  const struct entitle_attach_s *a = &entitle_attach_points[p->point];
  struct bpf_program *prog, *other;
  int ret;

  if (p->point >= ATTACH_COUNT)
    return entitle_make_error (err, ENOTSUP, "program `%s`: %s is no cgroup attach point", p->program, p->attach);
  ret = open_checked (e, p, &obj, &prog, err);
  if (UNLIKELY (ret < 0))
    return ret;
  /* Only the named program: an object may hold others.  */
  bpf_object__for_each_program (other, obj) bpf_program__set_autoload (other, other == prog);
  if ((ret = bpf_object__load (obj)) < 0)
    {
      errno = -ret;
      return entitle_make_sys_error (err, "load program `%s` of `%s`", p->program, p->object);
    }
  if (entitle_bpf_attached (bpf_program__fd (prog), cgfd, a->type, true))
    return 0;
  if (bpf_prog_attach (bpf_program__fd (prog), cgfd, a->type, BPF_F_ALLOW_MULTI) < 0)
    return entitle_make_sys_error (err, "attach program `%s` at cgroup BPF %s", p->program, p->attach);
  return write_data (e, p, obj, cgroup_id, err);
}
