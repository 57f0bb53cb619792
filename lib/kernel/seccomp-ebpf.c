/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "seccomp-ebpf.h"
#include "seed-load.h"
#include "utils.h"

/* The map's name: how entitle_seccomp_ext_describe knows entitle's.  */
#define MAP_NAME "entitle_sc_pol"

int
entitle_seccomp_ebpf_load (const struct entitle_kernel_s *k, const struct entitle_seccomp_policy *policy,
                           entitle_error_t *err)
{
  const struct entitle_seed_prog *prog = entitle_seed_prog ("seccomp");
  cleanup_close int map = -1;
  __u32 zero = 0;
  int fd, ret;

  if (prog == NULL)
    return entitle_make_error (err, ENOENT, "eBPF seccomp: no program in this build");
  map = entitle_seed_map_create (k, MAP_NAME, BPF_MAP_TYPE_ARRAY, sizeof (zero), sizeof (*policy), 1, 0, err);
  if (UNLIKELY (map < 0))
    return map;
  ret = entitle_seed_map_update (k, map, &zero, policy, BPF_ANY, err);
  if (UNLIKELY (ret < 0))
    return ret;
  {
    const struct entitle_seed_map_s maps[] = { { "entitle_seccomp_policy", map }, { NULL, -1 } };
    fd = entitle_seed_load (k, prog, ENTITLE_BPF_PROG_TYPE_SECCOMP, 0, maps, err);
  }
  if (fd >= 0 && fcntl (fd, F_SETFD, FD_CLOEXEC) < 0)
    {
      close (fd);
      return entitle_make_sys_error (err, "eBPF seccomp: close-on-exec");
    }
  return fd;
}

int
entitle_seccomp_get_extended (const struct entitle_kernel_s *k, pid_t pid, unsigned long index, entitle_error_t *err)
{
  long fd;

  /* A request mainline does not know, whose seed number (0x420e) it gave
     PTRACE_GET_SYSCALL_INFO: ask only a kernel with the patch set.  */
  if (!entitle_seed_seccomp_extended (k))
    return entitle_make_error (err, EIO, "eBPF seccomp: this kernel cannot read filters back (no PTRACE_SECCOMP_GET_FILTER_EXTENDED)");
  fd = k->ptrace (PTRACE_SECCOMP_GET_FILTER_EXTENDED, pid, index, 0);
  if (fd >= 0)
    return (int)fd;
  if (errno == ENOENT)
    return 0;
  return entitle_make_sys_error (err, "eBPF seccomp: read filter %lu of process %d", index, (int)pid);
}

static int
info_by_fd (const struct entitle_kernel_s *k, int fd, void *info, __u32 len)
{
  union bpf_attr attr;

  memset (&attr, 0, sizeof (attr));
  attr.info.bpf_fd = (__u32)fd;
  attr.info.info_len = len;
  attr.info.info = (__u64)(unsigned long)info;
  return (int)k->bpf (BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof (attr));
}

/* Is map @id entitle's decisions?  Then read them into @out.  */
static void
read_decisions (const struct entitle_kernel_s *k, __u32 id, struct entitle_seccomp_ext_s *out)
{
  struct bpf_map_info info = { 0 };
  union bpf_attr attr;
  cleanup_close int map = -1;
  __u32 zero = 0;

  memset (&attr, 0, sizeof (attr));
  attr.map_id = id;
  if ((map = (int)k->bpf (BPF_MAP_GET_FD_BY_ID, &attr, sizeof (attr))) < 0
      || info_by_fd (k, map, &info, sizeof (info)) < 0 || strcmp (info.name, MAP_NAME) != 0
      || info.value_size != sizeof (out->policy) || info.max_entries != 1)
    return;
  memset (&attr, 0, sizeof (attr));
  attr.map_fd = (__u32)map;
  attr.key = (__u64)(unsigned long)&zero;
  attr.value = (__u64)(unsigned long)&out->policy;
  out->entitle = k->bpf (BPF_MAP_LOOKUP_ELEM, &attr, sizeof (attr)) == 0;
}

int
entitle_seccomp_ext_describe (const struct entitle_kernel_s *k, int fd, struct entitle_seccomp_ext_s *out,
                              entitle_error_t *err)
{
  struct bpf_prog_info info = { 0 };
  __u32 map_ids[4] = { 0 };

  memset (out, 0, sizeof (*out));
  info.nr_map_ids = 4;
  info.map_ids = (__u64)(unsigned long)map_ids;
  if (info_by_fd (k, fd, &info, sizeof (info)) < 0)
    return entitle_make_sys_error (err, "eBPF seccomp: describe the filter");
  out->id = info.id;
  out->type = info.type;
  out->n_insns = info.xlated_prog_len / sizeof (struct bpf_insn);
  for (size_t i = 0; i < sizeof (info.tag); i++)
    snprintf (out->tag + 2 * i, 3, "%02x", info.tag[i]);
  if (info.nr_map_ids == 1)
    read_decisions (k, map_ids[0], out);
  return 0;
}

static size_t
append (char *buf, size_t len, size_t at, const char *sep, const char *text)
{
  if (at < len)
    at += (size_t)snprintf (buf + at, len - at, "%s%s", sep, text);
  return at;
}

void
entitle_seccomp_ext_format (const struct entitle_seccomp_policy *p, char *buf, size_t len)
{
  static const struct
  {
    unsigned flag;
    const char *text;
  } by_argument[] = {
    { SECCOMP_POL_UNIX_ONLY, "socket and socketpair of AF_UNIX only" },
    { SECCOMP_POL_NO_PACKET, "no AF_PACKET or raw inet socket" },
    { SECCOMP_POL_NO_DEV_NODE, "no mknod of a device node" },
    { SECCOMP_POL_PERSONALITY, "personality PER_LINUX only" },
  };
  size_t at = append (buf, len, 0, "", "denied:");
  const char *sep = " ";

  for (unsigned nr = 0; nr < ENTITLE_SECCOMP_NR; nr++)
    if (p->deny[nr / 8] & (1u << (nr % 8)))
      {
        cleanup_free char *name = seccomp_syscall_resolve_num_arch (p->arch, (int)nr);
        char num[16];
        snprintf (num, sizeof (num), "%u", nr);
        at = append (buf, len, at, sep, name ? name : num);
        sep = ", ";
      }
  if (*sep == ' ')
    at = append (buf, len, at, " ", "none");
  sep = "; by argument: ";
  for (size_t i = 0; i < sizeof (by_argument) / sizeof (by_argument[0]); i++)
    if (p->flags & by_argument[i].flag)
      {
        at = append (buf, len, at, sep, by_argument[i].text);
        sep = ", ";
      }
}
