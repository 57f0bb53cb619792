/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdio.h>
#include <string.h>
#include "attach.h"

#define POINT(e, n, prog, ptype, atype) [e] = { n, prog, ptype, atype }

const struct entitle_attach_s entitle_attach_points[] = {
  POINT (ATTACH_SOCK_CREATE, "sock_create", "entitle_sock_create", BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET_SOCK_CREATE),
  POINT (ATTACH_CONNECT4, "connect4", "entitle_connect4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_CONNECT),
  POINT (ATTACH_CONNECT6, "connect6", "entitle_connect6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_CONNECT),
  POINT (ATTACH_SENDMSG4, "sendmsg4", "entitle_sendmsg4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP4_SENDMSG),
  POINT (ATTACH_SENDMSG6, "sendmsg6", "entitle_sendmsg6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP6_SENDMSG),
  POINT (ATTACH_BIND4, "bind4", "entitle_bind4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_BIND),
  POINT (ATTACH_BIND6, "bind6", "entitle_bind6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_BIND),
  POINT (ATTACH_SYSCTL, "sysctl", "entitle_sysctl", BPF_PROG_TYPE_CGROUP_SYSCTL, BPF_CGROUP_SYSCTL),
  POINT (ATTACH_SKB_EGRESS, "skb_egress", "entitle_skb_egress", BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_EGRESS),
  POINT (ATTACH_SKB_INGRESS, "skb_ingress", "entitle_skb_ingress", BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_INGRESS),
  POINT (ATTACH_DEVICE, "device", NULL, BPF_PROG_TYPE_CGROUP_DEVICE, BPF_CGROUP_DEVICE),
};

/* A row left out at the end would make the table short (a unit test
   checks that no row in the middle is left empty).  */
_Static_assert(sizeof (entitle_attach_points) / sizeof (entitle_attach_points[0]) == ATTACH_COUNT,
               "one row per attach point");
_Static_assert(ATTACH_COUNT <= 32, "attach masks are unsigned");

int
entitle_attach_find (const char *name)
{
  int i;
  for (i = 0; i < ATTACH_COUNT; i++)
    if (entitle_attach_points[i].name && strcmp (entitle_attach_points[i].name, name) == 0)
      return i;
  return -1;
}

char *
entitle_attach_names (unsigned mask, char *buf, size_t size)
{
  size_t len = 0;
  int i;

  buf[0] = '\0';
  for (i = 0; i < ATTACH_COUNT && len < size; i++)
    if (mask & ATTACH_BIT (i))
      len += (size_t)snprintf (buf + len, size - len, "%s%s", len ? ", " : "", entitle_attach_points[i].name);
  return buf;
}
