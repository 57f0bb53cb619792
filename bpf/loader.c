/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "entitle-hash.h"
#include "cgroup.h"
#include "entitle.skel.h"
#include "loader.h"
#include "lsm.h"
#include "probe-run.h"
#include "utils.h"

#define POLICY_MAP  "entitle_policy"
#define VERSION_PIN ENTITLE_BPF_DIR "/entitle_version"

/* libbpf's own messages: warnings only (a verifier log, say), on stderr,
   where the runtime shows a failed hook's output.  libbpf's print callback
   takes no argument to reach the runtime's log with: entitle's own error
   for the same failure goes there from the hook's main.  */
static int
print_libbpf (enum libbpf_print_level level, const char *fmt, va_list ap)
{
  if (level != LIBBPF_WARN)
    return 0;
  fputs ("entitle: libbpf: ", stderr);
  return vfprintf (stderr, fmt, ap);
}

static int
ensure_bpffs (entitle_error_t *err)
{
  struct statfs st;

  if (statfs (ENTITLE_BPF_FS, &st) == 0 && st.f_type == BPF_FS_MAGIC)
    return 0;
  /* What systemd does at boot; a host without it gets it here.  */
  if (mkdir (ENTITLE_BPF_FS, 0700) < 0 && errno != EEXIST)
    return entitle_make_sys_error (err, "mkdir `%s`", ENTITLE_BPF_FS);
  if (mount ("bpf", ENTITLE_BPF_FS, "bpf", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0700") < 0)
    return entitle_make_sys_error (err, "mount bpffs on `%s`", ENTITLE_BPF_FS);
  return 0;
}

static void
pin_path (char *buf, size_t len, const char *name)
{
  snprintf (buf, len, "%s/%s", ENTITLE_BPF_DIR, name);
}

static int
get_pins (struct entitle_bpf_s *b)
{
  char path[256];
  int i;

  for (i = 0; i < ATTACH_COUNT; i++)
    {
      if (entitle_attach_points[i].program == NULL)
        continue;
      pin_path (path, sizeof (path), entitle_attach_points[i].program);
      if ((b->prog[i] = bpf_obj_get (path)) < 0)
        return -errno;
    }
  pin_path (path, sizeof (path), POLICY_MAP);
  if ((b->policy = bpf_obj_get (path)) < 0)
    return -errno;
  return 0;
}

/* The BPF LSM programs, on the same storage, where the kernel runs them
   (an lsm_cgroup program was seen to run, as the probe reports): pinned
   beside the others, or not at all, and the hook attaches none.  A
   kernel that loads them without running them (the bpf LSM built but not
   in lsm=) gets none: they would promise what nothing enforces.  */
static void
load_lsm (int policy_fd)
{
  struct entitle_lsm_s l;
  entitle_error_t err = NULL;
  char mnt[256], why[128];

  if (entitle_cgroup2_mount (mnt, sizeof (mnt), &err) < 0 || !entitle_probe_lsm_cgroup (mnt, why, sizeof (why)))
    {
      entitle_error_release (&err);
      return;
    }
  if (entitle_lsm_load (policy_fd, &l, &err) == 0)
    entitle_lsm_pin (&l, ENTITLE_BPF_DIR, &err);
  entitle_lsm_close (&l);
  entitle_error_release (&err);
}

/* Load the object once: the map pins itself by name, programs are pinned
   here.  */
static int
load_and_pin (entitle_error_t *err)
{
  LIBBPF_OPTS (bpf_object_open_opts, opts, .pin_root_path = ENTITLE_BPF_DIR);
  struct entitle_bpf *skel;
  char path[256];
  int i, ret = 0;

  libbpf_set_print (print_libbpf);
  skel = entitle_bpf__open_opts (&opts);
  if (skel == NULL)
    return entitle_make_sys_error (err, "open the BPF object");
  if ((ret = entitle_bpf__load (skel)) < 0)
    {
      entitle_bpf__destroy (skel);
      errno = -ret;
      return entitle_make_sys_error (err, "load the BPF programs");
    }
  for (i = 0; i < ATTACH_COUNT && ret == 0; i++)
    {
      const char *name = entitle_attach_points[i].program;
      struct bpf_program *p = name ? bpf_object__find_program_by_name (skel->obj, name) : NULL;

      if (name == NULL)
        continue;
      pin_path (path, sizeof (path), name);
      if (p == NULL || (ret = bpf_program__pin (p, path)) < 0)
        {
          errno = p ? -ret : ENOENT;
          ret = entitle_make_sys_error (err, "pin `%s`", path);
        }
    }
  if (ret == 0)
    load_lsm (bpf_map__fd (skel->maps.entitle_policy));
  entitle_bpf__destroy (skel);
  return ret;
}

/* Which build of the programs is pinned: a hash of the embedded object
   (bpf/entitle-hash.h, taken at build time), kept in a one-entry map next
   to them.  After an upgrade the old pins are replaced, not reused
   (containers started before keep the programs they were attached with,
   and their policy, until their cgroup goes).  */
static uint64_t
object_hash (void)
{
  return ENTITLE_BPF_HASH;
}

static bool
pinned_is_ours (void)
{
  uint64_t v = 0;
  uint32_t key = 0;
  int fd = bpf_obj_get (VERSION_PIN);
  bool ours = fd >= 0 && bpf_map_lookup_elem (fd, &key, &v) == 0 && v == object_hash ();
  if (fd >= 0)
    close (fd);
  return ours;
}

static int
pin_version (entitle_error_t *err)
{
  uint64_t v = object_hash ();
  uint32_t key = 0;
  int fd = bpf_map_create (BPF_MAP_TYPE_ARRAY, "entitle_version", sizeof (key), sizeof (v), 1, NULL);

  if (fd < 0 || bpf_map_update_elem (fd, &key, &v, BPF_ANY) < 0 || bpf_obj_pin (fd, VERSION_PIN) < 0)
    {
      if (fd >= 0)
        close (fd);
      return entitle_make_sys_error (err, "pin `%s`", VERSION_PIN);
    }
  close (fd);
  return 0;
}

/* Unpin whatever another build left in the directory, whatever it named
   it (attached programs stay where they are).  */
static void
unpin_all (int dir)
{
  cleanup_dir DIR *d = fdopendir (dup (dir));
  struct dirent *e;

  while (d && (e = readdir (d)) != NULL)
    if (e->d_name[0] != '.')
      unlinkat (dir, e->d_name, 0);
}

static void
close_all (struct entitle_bpf_s *b)
{
  int i;
  for (i = 0; i < ATTACH_COUNT; i++)
    if (b->prog[i] >= 0)
      close (get_and_reset_fd (&b->prog[i]));
  if (b->policy >= 0)
    close (get_and_reset_fd (&b->policy));
}

void
entitle_bpf_close (struct entitle_bpf_s *b)
{
  close_all (b);
}

int
entitle_bpf_open (struct entitle_bpf_s *b, bool create, entitle_error_t *err)
{
  cleanup_close int dir = -1;
  int i, ret;

  for (i = 0; i < ATTACH_COUNT; i++)
    b->prog[i] = -1;
  b->policy = -1;
  if (!create)
    return get_pins (b) == 0 ? 1 : (close_all (b), 0);
  ret = ensure_bpffs (err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (mkdir (ENTITLE_BPF_DIR, 0700) < 0 && errno != EEXIST)
    return entitle_make_sys_error (err, "mkdir `%s`", ENTITLE_BPF_DIR);
  dir = open (ENTITLE_BPF_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  /* One loader at a time; the others wait and then reuse the pins.  */
  if (dir < 0 || flock (dir, LOCK_EX) < 0)
    return entitle_make_sys_error (err, "lock `%s`", ENTITLE_BPF_DIR);
  if (pinned_is_ours () && get_pins (b) == 0)
    return 1;
  close_all (b);
  unpin_all (dir);
  ret = load_and_pin (err);
  if (ret == 0)
    ret = pin_version (err);
  if (UNLIKELY (ret < 0))
    return ret;
  if ((ret = get_pins (b)) < 0)
    {
      close_all (b);
      errno = -ret;
      return entitle_make_sys_error (err, "open the pinned programs under `%s`", ENTITLE_BPF_DIR);
    }
  return 1;
}
