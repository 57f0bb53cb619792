/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "bpf-read.h"
#include "utils.h"

static int
sys_bpf (enum bpf_cmd cmd, union bpf_attr *attr)
{
  return (int)syscall (__NR_bpf, cmd, attr, sizeof (*attr));
}

int
entitle_bpf_pin_get (const char *name)
{
  union bpf_attr attr;
  char path[256];

  snprintf (path, sizeof (path), "%s/%s", ENTITLE_BPF_PINS, name);
  memset (&attr, 0, sizeof (attr));
  attr.pathname = (uintptr_t)path;
  return sys_bpf (BPF_OBJ_GET, &attr);
}

int
entitle_bpf_lookup (int fd, const void *key, void *value)
{
  union bpf_attr attr;

  memset (&attr, 0, sizeof (attr));
  attr.map_fd = (uint32_t)fd;
  attr.key = (uintptr_t)key;
  attr.value = (uintptr_t)value;
  return sys_bpf (BPF_MAP_LOOKUP_ELEM, &attr);
}

int
entitle_bpf_cgroup_progs (int cgfd, enum bpf_attach_type type, uint32_t flags, uint32_t *ids, uint32_t *n)
{
  union bpf_attr attr;
  int ret;

  memset (&attr, 0, sizeof (attr));
  attr.query.target_fd = (uint32_t)cgfd;
  attr.query.attach_type = type;
  attr.query.query_flags = flags;
  attr.query.prog_ids = (uintptr_t)ids;
  attr.query.prog_cnt = *n;
  ret = sys_bpf (BPF_PROG_QUERY, &attr);
  if (ret == 0)
    *n = attr.query.prog_cnt < *n ? attr.query.prog_cnt : *n;
  return ret;
}

int
entitle_bpf_info (int fd, void *info, uint32_t len)
{
  union bpf_attr attr;

  memset (info, 0, len);
  memset (&attr, 0, sizeof (attr));
  attr.info.bpf_fd = (uint32_t)fd;
  attr.info.info_len = len;
  attr.info.info = (uintptr_t)info;
  return sys_bpf (BPF_OBJ_GET_INFO_BY_FD, &attr);
}

int
entitle_bpf_prog_info_by_id (uint32_t id, struct bpf_prog_info *info)
{
  union bpf_attr attr;
  int fd, ret;

  memset (&attr, 0, sizeof (attr));
  attr.prog_id = id;
  if ((fd = sys_bpf (BPF_PROG_GET_FD_BY_ID, &attr)) < 0)
    return -1;
  ret = entitle_bpf_info (fd, info, sizeof (*info));
  close (fd);
  return ret;
}

static int
by_seq (const void *a, const void *b)
{
  const struct entitle_event *x = a, *y = b;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

int
entitle_store_read (struct entitle_event **events, size_t *n, entitle_error_t *err)
{
  cleanup_close int fd = entitle_bpf_pin_get ("entitle_events");
  struct entitle_event *ev;
  uint32_t i;

  *events = NULL;
  *n = 0;
  if (fd < 0)
    return entitle_make_sys_error (err, "open the store `%s/entitle_events`", ENTITLE_BPF_PINS);
  ev = xcalloc (ENTITLE_EVENTS, sizeof (*ev));
  /* Slots never written hold 0; one being written holds 0 until done.  */
  for (i = 0; i < ENTITLE_EVENTS; i++)
    if (entitle_bpf_lookup (fd, &i, &ev[*n]) == 0 && ev[*n].seq != 0)
      (*n)++;
  qsort (ev, *n, sizeof (*ev), by_seq);
  *events = ev;
  return 0;
}

int
entitle_policy_read (uint64_t cgroup_id, struct entitle_policy *policy, entitle_error_t *err)
{
  cleanup_close int fd = entitle_bpf_pin_get ("entitle_policy");

  if (fd < 0)
    return errno == ENOENT ? 0 : entitle_make_sys_error (err, "open `%s/entitle_policy`", ENTITLE_BPF_PINS);
  if (entitle_bpf_lookup (fd, &cgroup_id, policy) == 0)
    return 1;
  return errno == ENOENT ? 0 : entitle_make_sys_error (err, "read the policy of cgroup %llu", (unsigned long long)cgroup_id);
}

int
entitle_store_last (uint64_t *seq, entitle_error_t *err)
{
  cleanup_close int fd = entitle_bpf_pin_get ("entitle_events_head");
  struct entitle_store_head head;
  uint32_t zero = 0;

  *seq = 0;
  if (fd < 0)
    return entitle_make_sys_error (err, "open the store's head `%s/entitle_events_head`", ENTITLE_BPF_PINS);
  if (entitle_bpf_lookup (fd, &zero, &head) < 0)
    return entitle_make_sys_error (err, "read the store's head");
  *seq = head.next;
  return 0;
}

int
entitle_store_get (uint64_t seq, struct entitle_event *ev, entitle_error_t *err)
{
  cleanup_close int fd = entitle_bpf_pin_get ("entitle_events");
  uint32_t idx = (uint32_t)(seq % ENTITLE_EVENTS);

  if (fd < 0)
    return entitle_make_sys_error (err, "open the store `%s/entitle_events`", ENTITLE_BPF_PINS);
  if (entitle_bpf_lookup (fd, &idx, ev) < 0)
    return entitle_make_sys_error (err, "read record %llu of the store", (unsigned long long)seq);
  return ev->seq == seq;
}
