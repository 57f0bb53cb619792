/* SPDX-License-Identifier: GPL-2.0-or-later */
/* seccomp1, the eBPF seccomp sample of the seed patch set
   (samples/bpf/seccomp1_kern.c, "bpf: Add eBPF seccomp sample programs"):
   close(999) fails with EPERM, every other call runs.  An admin program
   at the attach point `seccomp` of the custom entitlement
   example.com.seccomp1 (seccomp1.json), used where a kernel has
   SECCOMP_MODE_FILTER_EXTENDED; elsewhere the entitlement's classic
   seccomp rule does the same.  */

#include <linux/bpf.h>
#include <linux/seccomp.h>
#include <asm/unistd.h>
#include <bpf/bpf_helpers.h>

#define EPERM 1

SEC ("seccomp")
int
close_999 (struct seccomp_data *ctx)
{
  if (ctx->nr == __NR_close && ctx->args[0] == 999)
    return SECCOMP_RET_ERRNO | EPERM;
  return SECCOMP_RET_ALLOW;
}

char LICENSE[] SEC ("license") = "GPL";
