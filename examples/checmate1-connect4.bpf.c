/* SPDX-License-Identifier: GPL-2.0-or-later */
/* checmate1 on a mainline kernel: what the seed's Checmate sample does
   (checmate1.bpf.c), as a cgroup/connect4 program that entitle-hook
   attaches to the container's cgroup.  A connect() (or a datagram's
   sendto: connect4 sees only connect) of an AF_INET socket to the port
   of the entitlement's `data` fails with EPERM.  The port is read from
   the cgroup's entitle_data (<entitle-data.h>), which the hook writes
   after the attach: until then (flags 0) every connect passes, and
   nothing in the container runs yet.  */

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "entitle-data.h"

ENTITLE_DATA_MAP;

SEC ("cgroup/connect4")
int
deny_port (struct bpf_sock_addr *ctx)
{
  struct entitle_data *d = bpf_get_local_storage (&entitle_data, 0);

  /* 0 refuses the call with EPERM, 1 lets it through.  */
  if ((d->flags & ENTITLE_DATA_SET) && d->n >= 1 && bpf_ntohs ((__u16)ctx->user_port) == d->words[0])
    return 0;
  return 1;
}

char LICENSE[] SEC ("license") = "GPL";
