/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "bpf-read.h"
#include "store-read.h"
#include "utils.h"

/* The store of denials and the policies, read through their pins
   (bpf-read.h): in both builds, since in one without BPF the pins are
   simply absent.  */

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
