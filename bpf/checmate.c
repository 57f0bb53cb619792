/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "cgroup.h"
#include "checmate.h"
#include "seed-load.h"
#include "utils.h"

#define LAYOUT_PIN  "entitle_checmate_layout"
#define POLICY_PIN  "entitle_checmate_policy"
#define VERSION_PIN "entitle_checmate_version"

/* The byte offset of member @name of struct @type, looked for through
   anonymous members too; -1 when the kernel has none.  */
static long
member_offset (const struct btf *btf, __u32 type_id, const char *name)
{
  const struct btf_type *t = btf__type_by_id (btf, type_id);
  const struct btf_member *m;

  while (t && btf_is_mod (t))
    t = btf__type_by_id (btf, t->type);
  if (t == NULL || !btf_is_composite (t))
    return -1;
  m = btf_members (t);
  for (__u16 i = 0; i < btf_vlen (t); i++, m++)
    {
      const char *n = btf__name_by_offset (btf, m->name_off);
      long inner;

      if (n && strcmp (n, name) == 0)
        return btf_member_bit_offset (t, i) / 8;
      if ((n == NULL || *n == '\0') && (inner = member_offset (btf, m->type, name)) >= 0)
        return btf_member_bit_offset (t, i) / 8 + inner;
    }
  return -1;
}

static int
offset_of (const struct btf *btf, const char *type, const char *name, __u32 *out, entitle_error_t *err)
{
  __s32 id = btf__find_by_name_kind (btf, type, BTF_KIND_STRUCT);
  long off = id > 0 ? member_offset (btf, (__u32)id, name) : -1;

  if (off < 0)
    return entitle_make_error (err, ENOENT, "checmate: the kernel's BTF has no `struct %s` member `%s`", type, name);
  *out = (__u32)off;
  return 0;
}

int
entitle_checmate_layout (struct entitle_checmate_layout *l, entitle_error_t *err)
{
  struct btf *btf = btf__load_vmlinux_btf ();
  int ret;

  if (btf == NULL)
    return entitle_make_sys_error (err, "checmate: read the kernel's BTF");
  ret = offset_of (btf, "task_struct", "cgroups", &l->task_cgroups, err);
  if (ret == 0)
    ret = offset_of (btf, "css_set", "dfl_cgrp", &l->cset_dfl_cgrp, err);
  if (ret == 0)
    ret = offset_of (btf, "cgroup", "kn", &l->cgroup_kn, err);
  if (ret == 0)
    ret = offset_of (btf, "cgroup", "level", &l->cgroup_level, err);
  if (ret == 0)
    ret = offset_of (btf, "cgroup", "ancestors", &l->cgroup_ancestors, err);
  if (ret == 0)
    ret = offset_of (btf, "kernfs_node", "id", &l->kn_id, err);
  btf__free (btf);
  return ret;
}

static void
init_fds (struct entitle_checmate_s *c)
{
  c->layout = c->policy = -1;
  for (size_t i = 0; i < ENTITLE_CHECMATE_PROGS; i++)
    c->prog[i] = -1;
}

void
entitle_checmate_close (struct entitle_checmate_s *c)
{
  if (c->layout >= 0)
    close (c->layout);
  if (c->policy >= 0)
    close (c->policy);
  for (size_t i = 0; i < ENTITLE_CHECMATE_PROGS; i++)
    if (c->prog[i] >= 0)
      close (c->prog[i]);
  init_fds (c);
}

static int
make_maps (const struct entitle_kernel_s *k, struct entitle_checmate_s *c, entitle_error_t *err)
{
  struct entitle_checmate_layout l;
  __u32 zero = 0;
  int ret = entitle_checmate_layout (&l, err);

  if (UNLIKELY (ret < 0))
    return ret;
  c->layout = entitle_seed_map_create (k, "entitle_cm_lay", BPF_MAP_TYPE_ARRAY, sizeof (__u32), sizeof (l), 1, 0, err);
  if (UNLIKELY (c->layout < 0))
    return c->layout;
  ret = entitle_seed_map_update (k, c->layout, &zero, &l, BPF_ANY, err);
  if (UNLIKELY (ret < 0))
    return ret;
  /* Not preallocated: an entry is 7 KB, most of the map stays empty.  */
  c->policy = entitle_seed_map_create (k, "entitle_cm_pol", BPF_MAP_TYPE_HASH, sizeof (__u64),
                                       sizeof (struct entitle_policy), ENTITLE_CHECMATE_MAX, BPF_F_NO_PREALLOC, err);
  return c->policy < 0 ? c->policy : 0;
}

int
entitle_checmate_load (const struct entitle_kernel_s *k, struct entitle_checmate_s *c, entitle_error_t *err)
{
  unsigned version = entitle_seed_kernel_version ();
  int ret;

  init_fds (c);
  ret = make_maps (k, c, err);
  for (size_t i = 0; ret == 0 && i < ENTITLE_CHECMATE_PROGS; i++)
    {
      const struct entitle_seed_map_s maps[] = {
        { "entitle_checmate_layout", c->layout },
        { "entitle_checmate_policy", c->policy },
        { NULL, -1 },
      };
      const struct entitle_seed_prog *prog = entitle_seed_prog (entitle_checmate_progs[i].program);

      if (prog == NULL)
        ret = entitle_make_error (err, ENOENT, "checmate: no program `%s` in this build",
                                  entitle_checmate_progs[i].program);
      else if ((c->prog[i] = entitle_seed_load (k, prog, ENTITLE_BPF_PROG_TYPE_CHECMATE, version, maps, err)) < 0)
        ret = c->prog[i];
    }
  if (UNLIKELY (ret < 0))
    entitle_checmate_close (c);
  return ret;
}

static void
pin_path (char *buf, size_t len, const char *dir, const char *name)
{
  snprintf (buf, len, "%s/%s", dir, name);
}

static int
get_pins (struct entitle_checmate_s *c, const char *dir)
{
  char path[256];

  pin_path (path, sizeof (path), dir, LAYOUT_PIN);
  c->layout = bpf_obj_get (path);
  pin_path (path, sizeof (path), dir, POLICY_PIN);
  c->policy = bpf_obj_get (path);
  for (size_t i = 0; i < ENTITLE_CHECMATE_PROGS; i++)
    {
      pin_path (path, sizeof (path), dir, entitle_checmate_progs[i].hook);
      c->prog[i] = bpf_obj_get (path);
      if (c->prog[i] < 0)
        return -1;
    }
  return c->layout < 0 || c->policy < 0 ? -1 : 0;
}

/* Which build is pinned: the seed programs' hash in a one-entry map.  */
static bool
pinned_is_ours (const char *dir)
{
  char path[256];
  unsigned long long v = 0;
  __u32 zero = 0;
  cleanup_close int fd = -1;

  pin_path (path, sizeof (path), dir, VERSION_PIN);
  fd = bpf_obj_get (path);
  return fd >= 0 && bpf_map_lookup_elem (fd, &zero, &v) == 0 && v == entitle_seed_hash ();
}

static int
pin_one (int fd, const char *dir, const char *name, entitle_error_t *err)
{
  char path[256];

  pin_path (path, sizeof (path), dir, name);
  unlink (path);
  if (bpf_obj_pin (fd, path) < 0)
    return entitle_make_sys_error (err, "checmate: pin `%s`", path);
  return 0;
}

static int
pin_all (const struct entitle_checmate_s *c, const char *dir, entitle_error_t *err)
{
  unsigned long long v = entitle_seed_hash ();
  __u32 zero = 0;
  cleanup_close int version = bpf_map_create (BPF_MAP_TYPE_ARRAY, "entitle_cm_ver", sizeof (zero), sizeof (v), 1, NULL);
  int ret = pin_one (c->layout, dir, LAYOUT_PIN, err);

  if (ret == 0)
    ret = pin_one (c->policy, dir, POLICY_PIN, err);
  for (size_t i = 0; ret == 0 && i < ENTITLE_CHECMATE_PROGS; i++)
    ret = pin_one (c->prog[i], dir, entitle_checmate_progs[i].hook, err);
  /* The version last: a half-pinned directory is loaded again.  */
  if (ret == 0 && (version < 0 || bpf_map_update_elem (version, &zero, &v, BPF_ANY) < 0))
    return entitle_make_sys_error (err, "checmate: the version map");
  return ret == 0 ? pin_one (version, dir, VERSION_PIN, err) : ret;
}

int
entitle_checmate_open (const struct entitle_kernel_s *k, struct entitle_checmate_s *c, const char *dir,
                       entitle_error_t *err)
{
  cleanup_close int dfd = -1;
  int ret;

  init_fds (c);
  if (mkdir (dir, 0700) < 0 && errno != EEXIST)
    return entitle_make_sys_error (err, "checmate: mkdir `%s`", dir);
  dfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0 || flock (dfd, LOCK_EX) < 0)
    return entitle_make_sys_error (err, "checmate: lock `%s`", dir);
  if (pinned_is_ours (dir) && get_pins (c, dir) == 0)
    return 0;
  /* Programs installed from older pins stay installed (a reset or a
     reboot takes them away); this build's are installed beside them.  */
  entitle_checmate_close (c);
  ret = entitle_checmate_load (k, c, err);
  if (ret == 0)
    ret = pin_all (c, dir, err);
  if (UNLIKELY (ret < 0))
    entitle_checmate_close (c);
  return ret;
}

int
entitle_checmate_install (const struct entitle_kernel_s *k, const struct entitle_checmate_s *c, unsigned policy,
                          bool lock, const struct entitle_log_s *log, entitle_error_t *err)
{
  for (size_t i = 0; i < ENTITLE_CHECMATE_PROGS; i++)
    {
      const char *hook = entitle_checmate_progs[i].hook;
      int ret;

      if (!(entitle_checmate_progs[i].policy & policy))
        continue;
      ret = entitle_checmate_attach (k, hook, c->prog[i], lock, err);
      if (UNLIKELY (ret < 0))
        return ret;
      if (ret == 0)
        entitle_log_debug (log, "checmate: installed `%s` at hook %s", entitle_checmate_progs[i].program, hook);
    }
  return 0;
}

void
entitle_checmate_sweep (int policy_map, int mountfd)
{
  __u64 key, next;
  bool more;

  if (bpf_map_get_next_key (policy_map, NULL, &key) < 0)
    return;
  do
    {
      /* The next key first: deleting this one would restart the walk.  */
      more = bpf_map_get_next_key (policy_map, &key, &next) == 0;
      if (!entitle_cgroup_alive (mountfd, key))
        bpf_map_delete_elem (policy_map, &key);
      key = next;
    }
  while (more);
}

int
entitle_checmate_write (const struct entitle_checmate_s *c, uint64_t id, const struct entitle_policy *policy,
                        entitle_error_t *err)
{
  __u64 key = id;

  if (bpf_map_update_elem (c->policy, &key, policy, BPF_ANY) == 0)
    return 0;
  if (errno == E2BIG)
    return entitle_make_error (err, E2BIG, "checmate: the policy map holds %d running containers already",
                               ENTITLE_CHECMATE_MAX);
  return entitle_make_sys_error (err, "checmate: write the policy of cgroup %llu", (unsigned long long)id);
}
