/* SPDX-License-Identifier: GPL-2.0-or-later */
/* seccomp2, the second eBPF seccomp sample of the seed patch set
   (samples/bpf/seccomp2_kern.c): sched_yield() fails with EPERM.  An
   admin program at `seccomp` of the custom entitlement
   example.com.seccomp2 (seccomp2.json), used where a kernel has
   SECCOMP_MODE_FILTER_EXTENDED; elsewhere the entitlement's classic
   seccomp rule does the same.  (The seed's licence string read "aGPL";
   the program uses no GPL-only helper, but a licence the kernel knows is
   asked for.)  */

#include <linux/bpf.h>
#include <linux/seccomp.h>
#include <asm/unistd.h>
#include <bpf/bpf_helpers.h>

#define EPERM 1

SEC ("seccomp")
int
no_sched_yield (struct seccomp_data *ctx)
{
  if (ctx->nr == __NR_sched_yield)
    return SECCOMP_RET_ERRNO | EPERM;
  return SECCOMP_RET_ALLOW;
}

char LICENSE[] SEC ("license") = "GPL";
