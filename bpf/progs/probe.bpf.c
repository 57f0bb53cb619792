/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Trial programs for `entitle probe`: a BPF LSM program counts the probe's
   own file opens, and an lsm_cgroup program the binds of a child in the
   cgroup it is attached to.  Each is loaded, attached and triggered: a
   kernel that builds the bpf LSM but does not list it (lsm= without bpf)
   loads and attaches both, and runs neither.  */

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC ("license") = "GPL";

__u32 probe_pid = 0;
__u32 probe_hits = 0;
__u32 probe_cgroup_hits = 0;

SEC ("lsm/file_open")
int
probe_file_open (unsigned long long *ctx)
{
  (void)ctx;
  if ((bpf_get_current_pid_tgid () >> 32) == probe_pid)
    __sync_fetch_and_add (&probe_hits, 1);
  return 0;
}

SEC ("lsm_cgroup/socket_bind")
int
probe_socket_bind (unsigned long long *ctx)
{
  (void)ctx;
  __sync_fetch_and_add (&probe_cgroup_hits, 1);
  return 1;
}
