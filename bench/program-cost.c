/* SPDX-License-Identifier: GPL-2.0-or-later */
/* program-cost OBJECT CGROUP PINDIR: load entitle's BPF object OBJECT
   (its maps pinned under PINDIR), attach its sock_create and connect4
   programs to the cgroup directory CGROUP and give that cgroup a policy
   that lists 127.0.0.1:1 (network.egress) with denial records on; print
   the two programs' ids.  The attachments go with the cgroup.
   bench/program-cost.sh runs the connect loop there.  */
#include <arpa/inet.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "policy.h"

/* Room for the policy of another build, should its layout be longer.  */
static union
{
  struct entitle_policy p;
  char room[256 * 1024];
} value;

int
main (int argc, char **argv)
{
  static const char *const names[] = { "entitle_sock_create", "entitle_connect4" };
  static const enum bpf_attach_type types[] = { BPF_CGROUP_INET_SOCK_CREATE, BPF_CGROUP_INET4_CONNECT };
  struct bpf_object *obj;
  struct stat st;
  __u64 key;
  int cg, i;

  if (argc != 4)
    return 2;
  LIBBPF_OPTS (bpf_object_open_opts, opts, .pin_root_path = argv[3]);
  obj = bpf_object__open_file (argv[1], &opts);
  if (obj == NULL || bpf_object__load (obj) != 0)
    return 1;
  cg = open (argv[2], O_RDONLY | O_DIRECTORY);
  if (cg < 0 || fstat (cg, &st) < 0)
    return 1;
  for (i = 0; i < 2; i++)
    {
      struct bpf_program *p = bpf_object__find_program_by_name (obj, names[i]);
      struct bpf_prog_info info = { 0 };
      __u32 len = sizeof (info);

      if (p == NULL || bpf_prog_attach (bpf_program__fd (p), cg, types[i], BPF_F_ALLOW_MULTI) != 0
          || bpf_obj_get_info_by_fd (bpf_program__fd (p), &info, &len) != 0)
        return 1;
      printf ("%u ", info.id);
    }
  value.p.flags = POL_EGRESS | POL_SOCK_NO_RAW | POL_REPORT;
  value.p.n_egress = 1;
  value.p.egress[0].family = AF_INET;
  inet_pton (AF_INET, "127.0.0.1", value.p.egress[0].net);
  value.p.egress[0].mask[0] = 0xffffffff;
  value.p.egress[0].lo = value.p.egress[0].hi = 1;
  value.p.cgroup = key = st.st_ino;
  if (bpf_map_update_elem (bpf_object__find_map_fd_by_name (obj, "entitle_policy"), &key, &value, 0) != 0)
    return 1;
  printf ("\n");
  return 0;
}
