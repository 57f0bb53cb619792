/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "bpf-read.h"
#include "utils.h"

/* libbpf's calls return a negative errno and set errno (libbpf 1.0's
   mode), as these promise their callers.  */

int
entitle_bpf_pin_get (const char *name)
{
  char path[256];
  int fd;

  snprintf (path, sizeof (path), "%s/%s", ENTITLE_BPF_PINS, name);
  fd = bpf_obj_get (path);
  return fd < 0 ? -1 : fd;
}

int
entitle_bpf_lookup (int fd, const void *key, void *value)
{
  return bpf_map_lookup_elem (fd, key, value) < 0 ? -1 : 0;
}

int
entitle_bpf_cgroup_progs (int cgfd, enum bpf_attach_type type, uint32_t flags, uint32_t *ids, uint32_t *n)
{
  uint32_t cnt = *n;

  if (bpf_prog_query (cgfd, type, flags, NULL, ids, &cnt) < 0)
    return -1;
  *n = cnt < *n ? cnt : *n;
  return 0;
}

int
entitle_bpf_info (int fd, void *info, uint32_t len)
{
  memset (info, 0, len);
  return bpf_obj_get_info_by_fd (fd, info, &len) < 0 ? -1 : 0;
}

int
entitle_bpf_prog_info_by_id (uint32_t id, struct bpf_prog_info *info)
{
  cleanup_close int fd = bpf_prog_get_fd_by_id (id);

  if (fd < 0)
    return -1;
  return entitle_bpf_info (fd, info, sizeof (*info));
}
