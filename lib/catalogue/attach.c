/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdio.h>
#include <string.h>
#include "attach.h"
#include "catalogue.h"
#include "policy.h"

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
entitle_bits_names (unsigned mask, unsigned count, const char *(*name) (unsigned bit), char *buf, size_t size)
{
  size_t len = 0;
  unsigned i;

  buf[0] = '\0';
  for (i = 0; i < count && len < size; i++)
    if (mask & (1u << i))
      len += (size_t)snprintf (buf + len, size - len, "%s%s", len ? ", " : "", name (i));
  return buf;
}

static const char *
point_name (unsigned point)
{
  return entitle_attach_points[point].name;
}

char *
entitle_attach_names (unsigned mask, char *buf, size_t size)
{
  return entitle_bits_names (mask, ATTACH_COUNT, point_name, buf, size);
}

/* CHECMATE_HOOK_* of the seed's include/uapi/linux/checmate.h, lower
   case, numbered from 1 (0 is CHECMATE_HOOK_UNSPEC).  */
const char *const entitle_checmate_hooks[] = {
  "", "unix_stream_connect", "unix_may_send", "socket_create", "socket_post_create", "socket_bind",
  "socket_connect", "socket_listen", "socket_accept", "socket_sendmsg", "socket_recvmsg", "socket_getsockname",
  "socket_getpeername", "socket_getsockopt", "socket_setsockopt", "socket_shutdown", "socket_sock_rcv_skb",
  "socket_getpeersec_stream", "socket_getpeersec_dgram", "sk_alloc_security", "sk_free_security",
  "sk_clone_security", "sk_getsecid", "sock_graft", "inet_conn_request", "inet_csk_clone",
  "inet_conn_established", "secmark_relabel_packet", "secmark_refcount_inc", "secmark_refcount_dec",
  "req_classify_flow", "tun_dev_alloc_security", "tun_dev_free_security", "tun_dev_create",
  "tun_dev_attach_queue", "tun_dev_attach", "tun_dev_open", "path_unlink", "path_mkdir", "path_rmdir",
  "path_mknod", "path_truncate", "path_symlink", "path_link", "path_rename", "path_chmod", "path_chown",
  "path_chroot", "file_open", "task_create", "task_free", NULL
};

int
entitle_checmate_hook_find (const char *name)
{
  int i;
  for (i = 1; entitle_checmate_hooks[i]; i++)
    if (strcmp (entitle_checmate_hooks[i], name) == 0)
      return i;
  return -1;
}

/* Of the hooks the seed runs programs at (file_open, task_create,
   task_free, socket_connect), the two where a rule of the catalogue is
   decided.  Its socket_bind is numbered but never run, and its contexts
   are read-only, so the bind-port rewrite its cover letter prototyped
   (network.bind-map) needs more than the seed and stays cgroup BPF's.  */
const struct entitle_layer_prog_s entitle_checmate_progs[ENTITLE_CHECMATE_PROGS] = {
  { "socket_connect", "checmate/socket_connect", POL_EGRESS | POL_SOCK_UNIX_ONLY,
    "socket_connect: held by the calling task's cgroup, also on a socket made outside the container and passed in" },
  { "task_create", "checmate/task_create", POL_CONFINED,
    "task_create: no namespace made by clone flags, clone3's included (seccomp cannot read them)" },
};

/* lsm_cgroup programs, attached to the container's cgroup like the cgroup
   programs and reading the same storage (the kernel's budget is ten
   hooks).  */
const struct entitle_layer_prog_s entitle_lsm_progs[ENTITLE_LSM_PROGS] = {
  { "socket_listen", "entitle_lsm_socket_listen", POL_BIND,
    "socket_listen: listen() refused on a port the list does not name, also one the kernel chose for an unbound socket" },
  { "file_open", "entitle_lsm_file_open", POL_SYSCTL_RO,
    "file_open: a file under /proc/sys opened for writing is refused, but the keys linux.sysctl sets" },
  { "sb_mount", "entitle_lsm_sb_mount", POL_CONFINED,
    "sb_mount: no mount by the container's process, from its first instruction, or by any process that enters it (the "
    "runtime's own setup, until it execs the container's process, mounts)" },
  { "move_mount", "entitle_lsm_move_mount", POL_CONFINED,
    "move_mount: no mount put in place with the new mount API (open_tree, fsmount), held as sb_mount" },
  /* Not a rule: where the runtime's setup ends (no text, so never named
     as a path of its own).  */
  { "bprm_committed_creds", "entitle_lsm_exec", POL_CONFINED, NULL },
  { "task_kill", "entitle_lsm_task_kill", POL_CONFINED,
    "task_kill: no signal to a task outside the container's cgroup" },
};

unsigned
entitle_layer_bits (const struct entitle_layer_prog_s *progs, size_t n)
{
  unsigned bits = 0;
  for (size_t i = 0; i < n; i++)
    bits |= progs[i].policy;
  return bits;
}

char *
entitle_layer_names (const struct entitle_layer_prog_s *progs, size_t n, unsigned policy, char *buf, size_t size)
{
  size_t len = 0;

  buf[0] = '\0';
  for (size_t i = 0; i < n && len < size; i++)
    if ((progs[i].policy & policy) && progs[i].text != NULL)
      len += (size_t)snprintf (buf + len, size - len, "%s%s", len ? ", " : "", progs[i].hook);
  return buf;
}

bool
entitle_layer_text (const struct entitle_entry_s *e, size_t *i, const char **layer, const char **text)
{
  /* Position 0 is the eBPF seccomp filter, then each Checmate program,
     then each LSM program.  */
  for (size_t k = *i; k < 1 + ENTITLE_CHECMATE_PROGS + ENTITLE_LSM_PROGS; k++)
    {
      bool checmate = k - 1 < ENTITLE_CHECMATE_PROGS;
      const struct entitle_layer_prog_s *prog
          = k == 0 ? NULL : checmate ? &entitle_checmate_progs[k - 1]
                                     : &entitle_lsm_progs[k - 1 - ENTITLE_CHECMATE_PROGS];

      if (k == 0 ? !(e->sys_deny || (e->fx & FX_SECCOMP)) : !(prog->policy & e->policy) || prog->text == NULL)
        continue;
      *i = k + 1;
      *layer = k == 0 ? "eBPF seccomp" : checmate ? "Checmate"
                                                  : "BPF LSM";
      *text = k == 0 ? "the same syscall rules, as a filter whose decisions are in a map, installed on the "
                       "container's process by the in-container helper"
                     : prog->text;
      return true;
    }
  return false;
}
