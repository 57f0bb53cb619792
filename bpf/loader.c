/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
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
#include "entitle.skel.h"
#include "loader.h"
#include "utils.h"

static const struct
{
  const char *name;
  enum bpf_attach_type type;
} progs[ENTITLE_PROG_COUNT] = {
  [ENTITLE_PROG_SOCK_CREATE] = { "entitle_sock_create", BPF_CGROUP_INET_SOCK_CREATE },
  [ENTITLE_PROG_CONNECT4] = { "entitle_connect4", BPF_CGROUP_INET4_CONNECT },
  [ENTITLE_PROG_CONNECT6] = { "entitle_connect6", BPF_CGROUP_INET6_CONNECT },
  [ENTITLE_PROG_SENDMSG4] = { "entitle_sendmsg4", BPF_CGROUP_UDP4_SENDMSG },
  [ENTITLE_PROG_SENDMSG6] = { "entitle_sendmsg6", BPF_CGROUP_UDP6_SENDMSG },
  [ENTITLE_PROG_BIND4] = { "entitle_bind4", BPF_CGROUP_INET4_BIND },
  [ENTITLE_PROG_BIND6] = { "entitle_bind6", BPF_CGROUP_INET6_BIND },
  [ENTITLE_PROG_SYSCTL] = { "entitle_sysctl", BPF_CGROUP_SYSCTL },
};

static const char *const maps[ENTITLE_MAP_COUNT] = {
  [ENTITLE_MAP_POLICY] = "entitle_policy",
  [ENTITLE_MAP_EGRESS4] = "entitle_egress4",
  [ENTITLE_MAP_EGRESS6] = "entitle_egress6",
  [ENTITLE_MAP_SYSCTLS] = "entitle_sysctls",
  [ENTITLE_MAP_OWNERS] = "entitle_owners",
};

const char *
entitle_bpf_prog_name (int prog)
{
  return progs[prog].name + strlen ("entitle_");
}

/* libbpf's own messages: warnings only, on stderr where the runtime
   shows a failed hook's output.  */
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

static int
get_pins (struct entitle_bpf_s *b)
{
  char path[256];
  int i;

  for (i = 0; i < ENTITLE_PROG_COUNT; i++)
    {
      snprintf (path, sizeof (path), "%s/%s", ENTITLE_BPF_DIR, progs[i].name);
      if ((b->prog[i] = bpf_obj_get (path)) < 0)
        return -errno;
    }
  for (i = 0; i < ENTITLE_MAP_COUNT; i++)
    {
      snprintf (path, sizeof (path), "%s/%s", ENTITLE_BPF_DIR, maps[i]);
      if ((b->map[i] = bpf_obj_get (path)) < 0)
        return -errno;
    }
  return 0;
}

/* Load the object once: maps pin themselves by name, programs are pinned
   here (a stale pin of the same name is replaced).  */
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
  for (i = 0; i < ENTITLE_PROG_COUNT && ret == 0; i++)
    {
      struct bpf_program *p = bpf_object__find_program_by_name (skel->obj, progs[i].name);
      snprintf (path, sizeof (path), "%s/%s", ENTITLE_BPF_DIR, progs[i].name);
      unlink (path);
      if (p == NULL || (ret = bpf_program__pin (p, path)) < 0)
        {
          errno = p ? -ret : ENOENT;
          ret = entitle_make_sys_error (err, "pin `%s`", path);
        }
    }
  entitle_bpf__destroy (skel);
  return ret;
}

/* Which build of the programs is pinned: a hash of the embedded object,
   kept in a one-entry map next to them.  After an upgrade the old pins
   are replaced, not reused (containers started before keep the programs
   they were attached with, and their maps, until they go).  */
#define VERSION_PIN ENTITLE_BPF_DIR "/entitle_version"

static uint64_t
object_hash (void)
{
  size_t sz, i;
  const unsigned char *p = entitle_bpf__elf_bytes (&sz);
  uint64_t h = 14695981039346656037ull;
  for (i = 0; i < sz; i++)
    h = (h ^ p[i]) * 1099511628211ull;
  return h;
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

/* Unpin another build's objects (attached programs stay where they are).  */
static void
unpin_all (void)
{
  char path[256];
  int i;

  for (i = 0; i < ENTITLE_PROG_COUNT; i++)
    {
      snprintf (path, sizeof (path), "%s/%s", ENTITLE_BPF_DIR, progs[i].name);
      unlink (path);
    }
  for (i = 0; i < ENTITLE_MAP_COUNT; i++)
    {
      snprintf (path, sizeof (path), "%s/%s", ENTITLE_BPF_DIR, maps[i]);
      unlink (path);
    }
  unlink (VERSION_PIN);
}

static void
close_all (struct entitle_bpf_s *b)
{
  int i;
  for (i = 0; i < ENTITLE_PROG_COUNT; i++)
    if (b->prog[i] >= 0)
      close (get_and_reset_fd (&b->prog[i]));
  for (i = 0; i < ENTITLE_MAP_COUNT; i++)
    if (b->map[i] >= 0)
      close (get_and_reset_fd (&b->map[i]));
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

  for (i = 0; i < ENTITLE_PROG_COUNT; i++)
    b->prog[i] = -1;
  for (i = 0; i < ENTITLE_MAP_COUNT; i++)
    b->map[i] = -1;
  if (!create)
    return get_pins (b) == 0 ? 1 : (close_all (b), 0);
  if (ensure_bpffs (err) < 0)
    return -1;
  if (mkdir (ENTITLE_BPF_DIR, 0700) < 0 && errno != EEXIST)
    return entitle_make_sys_error (err, "mkdir `%s`", ENTITLE_BPF_DIR);
  dir = open (ENTITLE_BPF_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  /* One loader at a time; the others wait and then reuse the pins.  */
  if (dir < 0 || flock (dir, LOCK_EX) < 0)
    return entitle_make_sys_error (err, "lock `%s`", ENTITLE_BPF_DIR);
  if (pinned_is_ours () && get_pins (b) == 0)
    return 1;
  close_all (b);
  unpin_all ();
  if (load_and_pin (err) < 0 || pin_version (err) < 0)
    return -1;
  if ((ret = get_pins (b)) < 0)
    {
      close_all (b);
      errno = -ret;
      return entitle_make_sys_error (err, "open the pinned programs under `%s`", ENTITLE_BPF_DIR);
    }
  return 1;
}
