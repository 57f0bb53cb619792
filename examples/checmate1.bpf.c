/* SPDX-License-Identifier: GPL-2.0-or-later */
/* checmate1, the Checmate sample of the seed patch set
   (samples/bpf/checmate1_kern.c, "security/checmate: Add Checmate
   sample"): a connect() of an AF_INET socket to port 1 fails with EPERM.
   An admin program at `checmate/socket_connect` of the custom entitlement
   example.com.checmate1 (checmate1.json), used where a kernel has
   PR_CHECMATE; elsewhere checmate1-connect4.bpf.c does the same at
   cgroup/connect4.

   A Checmate hook is global: it runs for every task.  So the port comes
   from the container's entitle_data, found by the task's cgroup id
   (<entitle-data.h>): a task of no container with the entitlement has
   none, and is let through.  The seed's own program, which held the port
   fixed, denied it to the whole host.  */

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "entitle-data.h"

#define AF_INET 2
#define EPERM   1

/* The context of the seed's include/linux/checmate.h, as far as this
   program reads it (the hook's socket_connect member).  */
struct checmate_socket_connect_ctx
{
  void *sock;
  void *address; /* struct sockaddr *, the caller's */
  int addrlen;
};

struct checmate_ctx
{
  int hook;
  union
  {
    struct checmate_socket_connect_ctx socket_connect_ctx;
  };
};

struct sockaddr_in_
{
  __u16 sin_family;
  __u16 sin_port;
  __u32 sin_addr;
};

ENTITLE_DATA_HASH_MAP;

SEC ("checmate/socket_connect")
int
deny_port (struct checmate_ctx *ctx)
{
  __u64 cgroup = bpf_get_current_cgroup_id ();
  struct entitle_data *d = bpf_map_lookup_elem (&entitle_data, &cgroup);
  struct sockaddr_in_ in;

  if (d == NULL || !(d->flags & ENTITLE_DATA_SET) || d->n < 1)
    return 0;
  bpf_probe_read (&in, sizeof (in), ctx->socket_connect_ctx.address);
  if (in.sin_family == AF_INET && bpf_ntohs (in.sin_port) == d->words[0])
    return -EPERM;
  return 0;
}

char LICENSE[] SEC ("license") = "GPL";
