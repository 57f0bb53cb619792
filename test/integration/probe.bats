#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `entitle probe` against checks this test makes itself, with other tools
# (bpftool, clang, a few lines of C), so that it holds on any kernel.

load helpers

setup() {
  common_setup
  require_cc
  PROBE_JSON="$BATS_TEST_TMPDIR/probe.json"
  "$ENTITLE" probe --json >"$PROBE_JSON"
}

# cc_run NAME SOURCE: compile SOURCE and run it.
cc_run() {
  printf '%s\n' "$2" >"$BATS_TEST_TMPDIR/$1.c"
  cc -o "$BATS_TEST_TMPDIR/$1" "$BATS_TEST_TMPDIR/$1.c"
  "$BATS_TEST_TMPDIR/$1"
}

@test "probe: the text and JSON forms name every fact" {
  run "$ENTITLE" probe
  [ "$status" -eq 0 ]
  for k in kernel seccomp Checmate "BPF LSM" BPF_LSM_CGROUP lockdown "cgroup BPF" Landlock SELinux AppArmor; do
    [[ "$output" == *"$k"* ]]
  done
  [ "$(jq -r .kernel "$PROBE_JSON")" = "$(uname -r)" ]
}

@test "probe: Checmate and eBPF seccomp agree with a trial prctl" {
  run cc_run prctl '#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>
int main (void) {
  int fd = -1;
  int a = prctl (0x43484543, 1, 6, -1, 0) < 0 && errno != EINVAL;
  int b = prctl (PR_SET_SECCOMP, 3, &fd, 0, 0) < 0 && errno != EINVAL;
  printf ("%s %s\n", a ? "true" : "false", b ? "true" : "false");
  return 0;
}'
  [ "$output" = "$(jq -r '"\(.checmate) \(.seccomp_filter_extended)"' "$PROBE_JSON")" ]
}

@test "probe: the Landlock ABI agrees with landlock_create_ruleset(VERSION)" {
  run cc_run landlock '#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
int main (void) {
  long v = syscall (444, NULL, 0, 1);
  printf ("%ld\n", v < 0 ? 0 : v);
  return 0;
}'
  [ "$output" = "$(jq -r .landlock_abi "$PROBE_JSON")" ]
}

# lsm_runs: a BPF LSM program (lsm/file_open) and an lsm_cgroup program
# (lsm_cgroup/socket_bind, attached to a cgroup made here), each loaded
# and attached with libbpf by a few lines of C, then triggered: a file
# opened, a socket bound by a child in that cgroup.  Prints "LSM CGROUP",
# each "ran", "silent" (attached, never ran) or "refused" (no load or
# attach).  A load proves nothing: where the bpf LSM is built but not in
# lsm=, both load and attach and neither runs.
lsm_runs() {
  printf '%s\n' '#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
char LICENSE[] SEC ("license") = "GPL";
__u32 opens = 0, binds = 0;
SEC ("lsm/file_open") int o (unsigned long long *ctx) { __sync_fetch_and_add (&opens, 1); return 0; }
SEC ("lsm_cgroup/socket_bind") int b (unsigned long long *ctx) { __sync_fetch_and_add (&binds, 1); return 1; }' \
    >"$BATS_TEST_TMPDIR/lsm.bpf.c"
  clang -O2 -g -target bpf -I"/usr/include/$(cc -print-multiarch)" -c "$BATS_TEST_TMPDIR/lsm.bpf.c" \
    -o "$BATS_TEST_TMPDIR/lsm.bpf.o"
  printf '%s\n' '#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
static int silent (enum libbpf_print_level l, const char *f, va_list a) { return 0; }
static unsigned bss (struct bpf_object *o, int i) {
  unsigned v[2] = { 0, 0 }; int k = 0;
  bpf_map_lookup_elem (bpf_map__fd (bpf_object__find_map_by_name (o, ".bss")), &k, v);
  return v[i];
}
int main (int argc, char **argv) {
  struct bpf_object *o = bpf_object__open_file (argv[1], NULL);
  struct bpf_link *l; int cg = open (argv[2], O_RDONLY | O_DIRECTORY), st;
  libbpf_set_print (silent);
  if (!o || bpf_object__load (o)) { puts ("refused refused"); return 0; }
  l = bpf_program__attach (bpf_object__find_program_by_name (o, "o"));
  close (open ("/proc/self/stat", O_RDONLY));
  printf ("%s ", !l ? "refused" : bss (o, 0) ? "ran" : "silent");
  if (bpf_prog_attach (bpf_program__fd (bpf_object__find_program_by_name (o, "b")), cg, BPF_LSM_CGROUP, 0) < 0) {
    puts ("refused"); return 0; }
  if (fork () == 0) {
    int p = open (argv[3], O_WRONLY), s; struct sockaddr_un { short f; char p[8]; } a = { AF_UNIX, "\0lsmrun" };
    if (write (p, "0", 1) != 1) _exit (1);
    s = socket (AF_UNIX, SOCK_STREAM, 0);
    _exit (bind (s, (void *)&a, sizeof (a)) != 0);
  }
  wait (&st);
  puts (bss (o, 1) ? "ran" : "silent");
  return 0;
}' >"$BATS_TEST_TMPDIR/lsm-runs.c"
  cc -o "$BATS_TEST_TMPDIR/lsm-runs" "$BATS_TEST_TMPDIR/lsm-runs.c" -lbpf
  local cg
  cg="$(jq -r .cgroup2 "$PROBE_JSON")/entitle-test-lsm-$$"
  mkdir "$cg"
  "$BATS_TEST_TMPDIR/lsm-runs" "$BATS_TEST_TMPDIR/lsm.bpf.o" "$cg" "$cg/cgroup.procs"
  rmdir "$cg"
}

@test "probe: BPF LSM and lsm_cgroup agree with programs seen to run" {
  require_bpf_build
  [ "$(jq -r .cgroup2 "$PROBE_JSON")" != "" ] || skip "no cgroup v2 mount"
  read -r lsm cgroup < <(lsm_runs)
  echo "file_open: $lsm, lsm_cgroup socket_bind: $cgroup"
  [ "$(jq -r .bpf_lsm.works "$PROBE_JSON")" = "$([ "$lsm" = ran ] && echo true || echo false)" ]
  [ "$(jq -r .lsm_cgroup "$PROBE_JSON")" = "$([ "$cgroup" = ran ] && echo true || echo false)" ]
  # A program that loaded and attached but never ran is named so.
  if [ "$lsm" = silent ]; then
    [ "$(jq -r .bpf_lsm.error "$PROBE_JSON")" = "attached but never ran" ]
  fi
  if [ "$cgroup" = silent ]; then
    [ "$(jq -r .lsm_cgroup_error "$PROBE_JSON")" = "attached but never ran" ]
  fi
  # "listed" is what the kernel says of its active LSMs, whether or not
  # a program may load.
  if [ -r /sys/kernel/security/lsm ]; then
    listed=$(tr ',' '\n' </sys/kernel/security/lsm | grep -qx bpf && echo true || echo false)
    [ "$(jq -r .bpf_lsm.listed "$PROBE_JSON")" = "$listed" ]
  fi
}

@test "probe: each cgroup attach type agrees with bpftool loading and attaching it" {
  require_bpf_build
  local cg mnt
  mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
  cg="$mnt/entitle-test-probe-$$"
  mkdir "$cg"
  for t in sock_create connect4 connect6 sendmsg4 sendmsg6 bind4 bind6 sysctl; do
    case $t in
    sock_create) sec=cgroup/sock_create ctx=bpf_sock ;;
    sysctl) sec=cgroup/sysctl ctx=bpf_sysctl ;;
    *) sec=cgroup/$t ctx=bpf_sock_addr ;;
    esac
    printf '#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\nchar LICENSE[] SEC ("license") = "GPL";\nSEC ("%s") int t (struct %s *c) { return 1; }\n' \
      "$sec" "$ctx" >"$BATS_TEST_TMPDIR/$t.bpf.c"
    clang -O2 -target bpf -I"/usr/include/$(cc -print-multiarch)" -c "$BATS_TEST_TMPDIR/$t.bpf.c" -o "$BATS_TEST_TMPDIR/$t.bpf.o"
    pin="/sys/fs/bpf/entitle-test-$t-$$"
    want=false
    if bpftool prog load "$BATS_TEST_TMPDIR/$t.bpf.o" "$pin" 2>/dev/null; then
      bpftool cgroup attach "$cg" "$t" pinned "$pin" multi 2>/dev/null && want=true
      rm -f "$pin"
    fi
    got=$(jq -r --arg t "$t" '.cgroup_bpf | index($t) != null' "$PROBE_JSON")
    [ "$got" = "$want" ] || { echo "$t: probe $got, bpftool $want" >&2; rmdir "$cg"; return 1; }
  done
  rmdir "$cg"
}

# paths_of ENT: the line `entitle probe` prints for ENT under "paths".
paths_of() {
  "$ENTITLE" probe | sed -n '/^paths/,$p' | sed -n "s/^  $1: //p"
}

@test "probe: which path each entitlement takes, from the rows and what the probe found" {
  require_bpf_build
  run "$ENTITLE" probe
  [ "$status" -eq 0 ]
  [[ "$output" == *"paths (entitle prefers Checmate, eBPF seccomp, BPF LSM, cgroup BPF, seccomp, Landlock, in this order):"* ]]
  egress=$(paths_of network.egress)
  confined=$(paths_of security.confined)
  bind=$(paths_of network.bind)
  # cgroup BPF, with the attach points the row names.
  if [ "$(jq -r '.cgroup_bpf | index("connect4") != null' "$PROBE_JSON")" = true ]; then
    [[ "$egress" == "cgroup BPF (sock_create, connect4, connect6, sendmsg4, sendmsg6, skb_egress)"* ]]
  fi
  # The seed layers as the probe found them, each named with its hooks.
  if [ "$(jq -r .checmate "$PROBE_JSON")" = true ]; then
    [[ "$egress" == "Checmate (socket_connect), "* ]]
  else
    [[ "$egress" == *"; not Checmate (socket_connect): this kernel has no Checmate"* ]]
    [[ "$confined" == *"; not Checmate (task_create): this kernel has no Checmate"* ]]
  fi
  if [ "$(jq -r .seccomp_filter_extended "$PROBE_JSON")" = true ]; then
    [[ "$confined" == *"eBPF seccomp, "* ]]
  else
    [[ "$confined" == *"; not eBPF seccomp: this kernel has no eBPF seccomp (SECCOMP_MODE_FILTER_EXTENDED)"* ]]
  fi
  if [ "$(jq -r .lsm_cgroup "$PROBE_JSON")" = true ]; then
    [[ "$bind" == *"BPF LSM (socket_listen)"* && "$bind" != *"not BPF LSM"* ]]
  else
    [[ "$bind" == *"; not BPF LSM (socket_listen): "* ]]
    [[ "$confined" == *"; not BPF LSM (file_open, sb_mount, move_mount, task_kill): "* ]]
  fi
  # fs.* takes Landlock, or says why not: fs.write needs ABI 3 (truncate);
  # a row of capabilities only has no line.
  abi=$(jq -r .landlock_abi "$PROBE_JSON")
  if [ "$abi" -ge 3 ]; then
    [ "$(paths_of fs.write)" = Landlock ]
  elif [ "$abi" -gt 0 ]; then
    [ "$(paths_of fs.write)" = "not Landlock: it needs Landlock ABI 3, and this kernel has ABI $abi: truncate(2) of a file outside the listed paths would stay allowed" ]
  else
    [ "$(paths_of fs.write)" = "not Landlock: it needs Landlock, which this kernel lacks" ]
  fi
  if [ "$abi" -gt 0 ]; then
    [ "$(paths_of fs.read)" = Landlock ]
  fi
  [ -z "$(paths_of network.proxy)" ]
}
