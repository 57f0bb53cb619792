/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "seed-load.h"
#ifdef ENTITLE_HAVE_BPF
#include "seed-insns.h"
#else
/* configure --disable-bpf: no seed program (lib/host/probe.c refuses
   what needs one).  */
#define ENTITLE_SEED_N_PROGS 0
#define ENTITLE_SEED_HASH    0ULL
static const struct entitle_seed_prog entitle_seed_progs[1];
#endif
#include "utils.h"

const struct entitle_seed_prog *
entitle_seed_prog (const char *section)
{
  for (size_t i = 0; i != ENTITLE_SEED_N_PROGS; i++)
    if (strcmp (entitle_seed_progs[i].section, section) == 0)
      return &entitle_seed_progs[i];
  return NULL;
}

unsigned long long
entitle_seed_hash (void)
{
  return ENTITLE_SEED_HASH;
}

unsigned
entitle_seed_kernel_version (void)
{
  struct utsname u;
  unsigned a = 0, b = 0, c = 0;

  if (uname (&u) < 0 || sscanf (u.release, "%u.%u.%u", &a, &b, &c) < 2)
    return 0;
  /* KERNEL_VERSION saturates the sublevel at 255 since 4.9.256.  */
  return (a << 16) + (b << 8) + (c > 255 ? 255 : c);
}

static int
map_fd (const struct entitle_seed_map_s *maps, const char *name)
{
  for (; maps && maps->name; maps++)
    if (strcmp (maps->name, name) == 0)
      return maps->fd;
  return -1;
}

/* The verifier's last words before its statistics: why it refused.  */
static const char *
log_line (char *log)
{
  char *line;

  for (;;)
    {
      size_t len = strlen (log);
      while (len > 0 && log[len - 1] == '\n')
        log[--len] = '\0';
      line = strrchr (log, '\n');
      line = line ? line + 1 : log;
      if (line == log || (strncmp (line, "processed ", 10) != 0 && strncmp (line, "verification time", 17) != 0 && strncmp (line, "stack depth", 11) != 0))
        return line;
      *line = '\0';
    }
}

/* BPF_PROG_LOAD of @insns, with the verifier's log into @log when given.  */
static long
prog_load (const struct entitle_kernel_s *k, const struct entitle_seed_prog *prog, const struct bpf_insn *insns,
           int type, unsigned kern_version, char *log, size_t log_size)
{
  union bpf_attr attr;

  memset (&attr, 0, sizeof (attr));
  attr.prog_type = (__u32)type;
  attr.insns = (__u64)(unsigned long)insns;
  attr.insn_cnt = (__u32)prog->n;
  attr.license = (__u64)(unsigned long)"GPL";
  attr.kern_version = kern_version;
  attr.log_buf = (__u64)(unsigned long)log;
  attr.log_size = (__u32)log_size;
  attr.log_level = log ? 1 : 0;
  return k->bpf (BPF_PROG_LOAD, &attr, sizeof (attr));
}

#define LOG_SIZE (1 << 20)

int
entitle_seed_load (const struct entitle_kernel_s *k, const struct entitle_seed_prog *prog, int type,
                   unsigned kern_version, const struct entitle_seed_map_s *maps, entitle_error_t *err)
{
  cleanup_free struct bpf_insn *insns = malloc (prog->n * sizeof (*insns));
  cleanup_free char *log = NULL;
  long fd;
  int saved;

  if (insns == NULL)
    return entitle_make_error (err, ENOMEM, "out of memory");
  memcpy (insns, prog->insns, prog->n * sizeof (*insns));
  for (size_t i = 0; i < prog->n_relocs; i++)
    {
      int m = map_fd (maps, prog->relocs[i].map);
      if (m < 0 || prog->relocs[i].insn >= prog->n)
        return entitle_make_error (err, EINVAL, "program `%s`: no map `%s`", prog->section, prog->relocs[i].map);
      insns[prog->relocs[i].insn].src_reg = BPF_PSEUDO_MAP_FD;
      insns[prog->relocs[i].insn].imm = m;
    }
  fd = prog_load (k, prog, insns, type, kern_version, NULL, 0);
  if (fd >= 0)
    return (int)fd;
  /* Again with the verifier's log, for the line that says why.  */
  saved = errno;
  if ((log = calloc (1, LOG_SIZE)) != NULL && prog_load (k, prog, insns, type, kern_version, log, LOG_SIZE) >= 0)
    log[0] = '\0';
  return entitle_make_error (err, saved, "load the %s program: %s%s%s", prog->section, strerror (saved),
                             log && log[0] ? ": " : "", log && log[0] ? log_line (log) : "");
}

int
entitle_seed_map_create (const struct entitle_kernel_s *k, const char *name, int type, unsigned key_size,
                         unsigned value_size, unsigned max_entries, unsigned flags, entitle_error_t *err)
{
  union bpf_attr attr;
  long fd;

  memset (&attr, 0, sizeof (attr));
  attr.map_type = (__u32)type;
  attr.key_size = key_size;
  attr.value_size = value_size;
  attr.max_entries = max_entries;
  attr.map_flags = flags;
  snprintf (attr.map_name, sizeof (attr.map_name), "%s", name);
  fd = k->bpf (BPF_MAP_CREATE, &attr, sizeof (attr));
  if (fd < 0)
    return entitle_make_sys_error (err, "create the BPF map `%s`", name);
  return (int)fd;
}

int
entitle_seed_map_update (const struct entitle_kernel_s *k, int fd, const void *key, const void *value,
                         unsigned long long flags, entitle_error_t *err)
{
  union bpf_attr attr;

  memset (&attr, 0, sizeof (attr));
  attr.map_fd = (__u32)fd;
  attr.key = (__u64)(unsigned long)key;
  attr.value = (__u64)(unsigned long)value;
  attr.flags = flags;
  if (k->bpf (BPF_MAP_UPDATE_ELEM, &attr, sizeof (attr)) < 0)
    return entitle_make_sys_error (err, "write a BPF map");
  return 0;
}
