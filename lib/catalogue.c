/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include "catalogue.h"

#define L(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* What security.confined and security.view take away from a
   Docker-default-level profile: debugging, kernel-wide state, namespaces
   and mounts, and the big attack surfaces (bpf, io_uring, userfaultfd).  */
#define CONFINED_SYSCALLS                                                     \
  "ptrace", "userfaultfd", "bpf", "perf_event_open", "keyctl", "add_key",     \
      "request_key", "io_uring_setup", "io_uring_enter", "io_uring_register", \
      "unshare", "setns", "mount", "umount", "umount2", "fsopen", "fsmount",  \
      "fsconfig", "fspick", "move_mount", "open_tree", "mount_setattr",       \
      "kexec_load", "kexec_file_load", "init_module", "finit_module",         \
      "delete_module", "create_module", "reboot"

#define CONFINED_CAPS                                                     \
  "CAP_MAC_ADMIN", "CAP_MAC_OVERRIDE", "CAP_DAC_OVERRIDE", "CAP_SETPCAP", \
      "CAP_SETFCAP", "CAP_SETUID", "CAP_SETGID", "CAP_SYS_PTRACE",        \
      "CAP_FSETID", "CAP_SYS_MODULE", "CAP_SYSLOG", "CAP_SYS_RAWIO",      \
      "CAP_SYS_ADMIN", "CAP_LINUX_IMMUTABLE", "CAP_SYS_RESOURCE"

/* libentitlement's 25 admin capabilities but CAP_SYS_MODULE, which only
   host.modules.admin gives.  */
#define SECURITY_ADMIN_CAPS                                                    \
  "CAP_MAC_ADMIN", "CAP_MAC_OVERRIDE", "CAP_DAC_OVERRIDE",                     \
      "CAP_DAC_READ_SEARCH", "CAP_SETPCAP", "CAP_SETFCAP", "CAP_SETUID",       \
      "CAP_SETGID", "CAP_SYS_PTRACE", "CAP_FSETID", "CAP_SYSLOG",              \
      "CAP_SYS_RAWIO", "CAP_SYS_ADMIN", "CAP_LINUX_IMMUTABLE", "CAP_SYS_BOOT", \
      "CAP_SYS_NICE", "CAP_SYS_PACCT", "CAP_SYS_TTY_CONFIG", "CAP_SYS_TIME",   \
      "CAP_WAKE_ALARM", "CAP_AUDIT_READ", "CAP_AUDIT_WRITE",                   \
      "CAP_AUDIT_CONTROL", "CAP_SYS_RESOURCE"

#define NETWORK_ADMIN_CAPS \
  "CAP_NET_ADMIN", "CAP_NET_RAW", "CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST"

#define MODULE_SYSCALLS "init_module", "finit_module", "delete_module"
/* Docker allows the keyring to no one; security.admin is the one that
   needs it (DESIGN §3).  */
#define KEYRING_SYSCALLS "keyctl", "add_key", "request_key"
#define KEXEC_SYSCALLS   "kexec_load", "kexec_file_load"

/* Sorted by name: entitle_catalogue_find () searches it in halves, and a
   unit test checks the order.  The ladders read narrow to wide.  */
static const struct entitle_entry_s catalogue[] = {
  /* fs.*: Landlock, applied by an in-container helper that does not exist
     yet: refused as unenforceable until it does.  */
  { .name = "fs.read", .value = true, .fx = FX_LANDLOCK, .summary = "only these paths (plus what is needed to run) are readable" },
  { .name = "fs.write", .value = true, .fx = FX_LANDLOCK, .summary = "only these paths are writable" },

  /* host.*: the host's devices, processes and kernel.  */
  { .name = "host.devices.admin", .domain = DOMAIN_DEVICES, .rung = 2, .cap_add = L ("CAP_SYS_ADMIN", "CAP_MKNOD"), .fx = FX_UNMASK | FX_DEV_ALL, .summary = "manage host devices: CAP_SYS_ADMIN, CAP_MKNOD, /proc and /sys unmasked" },
  { .name = "host.devices.none", .domain = DOMAIN_DEVICES, .rung = 1, .cap_drop = L ("CAP_SYS_ADMIN", "CAP_MKNOD"), .fx = FX_SYS_RO | FX_NO_DEV_MKNOD | FX_DEV_DEFAULT, .summary = "no device access: no mknod of devices, /sys read-only, /proc/kcore masked" },
  { .name = "host.modules.admin", .domain = DOMAIN_MODULES, .rung = 1, .cap_add = L ("CAP_SYS_MODULE"), .sys_allow = L (MODULE_SYSCALLS), .summary = "load and unload kernel modules" },
  { .name = "host.processes.admin", .domain = DOMAIN_PROCESSES, .rung = 2, .fx = FX_HOST_PIDNS, .summary = "see the host's processes (host pid namespace)" },
  { .name = "host.processes.none", .domain = DOMAIN_PROCESSES, .rung = 1, .fx = FX_NEW_PIDNS, .summary = "see only the container's processes (own pid namespace)" },

  /* network.*: the ladder none < user < proxy < admin < host, and the
     modifiers that the cgroup BPF programs enforce.  */
  { .name = "network.admin", .domain = DOMAIN_NETWORK, .rung = 4, .cap_add = L (NETWORK_ADMIN_CAPS), .summary = "configure the network: CAP_NET_ADMIN, CAP_NET_RAW, low ports" },
  { .name = "network.bind", .value = true, .fx = FX_CGROUP_BPF, .summary = "only these ports may be bound" },
  { .name = "network.bind-map", .value = true, .fx = FX_CGROUP_BPF, .summary = "rewrite the port of a bind (FROM:TO)" },
  { .name = "network.egress", .value = true, .fx = FX_CGROUP_BPF, .summary = "connect and send only to these destinations" },
  { .name = "network.host", .domain = DOMAIN_NETWORK, .rung = 5, .exact_grant = true, .cap_add = L (NETWORK_ADMIN_CAPS), .fx = FX_HOST_NETNS, .summary = "BuildKit's name: the host's network namespace, with network.admin" },
  { .name = "network.none", .domain = DOMAIN_NETWORK, .rung = 1, .cap_drop = L (NETWORK_ADMIN_CAPS), .fx = FX_NEW_NETNS | FX_MASK_NET | FX_SOCK_UNIX | FX_CGROUP_BPF, .summary = "no network: only AF_UNIX sockets, own empty network namespace" },
  { .name = "network.proxy", .domain = DOMAIN_NETWORK, .rung = 3, .cap_add = L ("CAP_NET_BIND_SERVICE", "CAP_NET_RAW", "CAP_NET_BROADCAST"), .cap_drop = L ("CAP_NET_ADMIN"), .fx = FX_NEW_NETNS, .summary = "serve as a proxy: low ports, raw sockets, no network configuration" },
  { .name = "network.user", .domain = DOMAIN_NETWORK, .rung = 2, .cap_drop = L ("CAP_NET_ADMIN", "CAP_NET_BIND_SERVICE", "CAP_NET_RAW"), .fx = FX_NEW_NETNS | FX_SOCK_USER | FX_CGROUP_BPF, .summary = "talk to the network as a user: no raw or packet sockets" },

  /* security.*: the ladder confined < view < admin < insecure.  */
  { .name = "security.admin", .domain = DOMAIN_SECURITY, .rung = 3, .cap_add = L (SECURITY_ADMIN_CAPS), .sys_deny = L (KEXEC_SYSCALLS, MODULE_SYSCALLS), .sys_allow = L (KEYRING_SYSCALLS), .fx = FX_CLEAR_RO | FX_LSM_UNCONFINED, .summary = "administer the system: 24 capabilities, mount, ptrace; still no kexec or modules" },
  { .name = "security.confined", .domain = DOMAIN_SECURITY, .rung = 1, .cap_drop = L (CONFINED_CAPS, "CAP_DAC_READ_SEARCH"), .sys_deny = L (CONFINED_SYSCALLS), .fx = FX_NNP | FX_PROC_SYS_RO | FX_PERSONALITY | FX_CGROUP_BPF, .summary = "least privilege: no privileged capabilities, no new privileges, narrow syscalls" },
  { .name = "security.insecure", .domain = DOMAIN_SECURITY, .rung = 4, .exact_grant = true, .cap_add = L (SECURITY_ADMIN_CAPS, NETWORK_ADMIN_CAPS, "CAP_MKNOD", "CAP_SYS_MODULE"), .sys_allow = L (MODULE_SYSCALLS, KEYRING_SYSCALLS), .fx = FX_CLEAR_RO | FX_UNMASK | FX_DEV_ALL | FX_LSM_UNCONFINED, .summary = "BuildKit's name: every admin rung, as --privileged" },
  { .name = "security.memory-lock", .cap_add = L ("CAP_IPC_LOCK"), .sys_allow = L ("mlock", "mlock2", "mlockall", "munlock", "munlockall"), .summary = "lock memory: CAP_IPC_LOCK and the mlock family" },
  { .name = "security.view", .domain = DOMAIN_SECURITY, .rung = 2, .cap_drop = L (CONFINED_CAPS, "CAP_AUDIT_READ"), .sys_deny = L (CONFINED_SYSCALLS), .fx = FX_NNP | FX_PERSONALITY, .summary = "as confined, but may read any file (keeps CAP_DAC_READ_SEARCH)" },
};

/* Docker's profile gates these on capabilities (clone and clone3 are
   handled with CAP_SYS_ADMIN in seccomp.c: they are allowed with
   arguments, not by name).  */
static const struct entitle_cap_syscalls_s cap_gated[] = {
  { "CAP_BPF", L ("bpf") },
  { "CAP_DAC_READ_SEARCH", L ("open_by_handle_at") },
  { "CAP_PERFMON", L ("perf_event_open") },
  { "CAP_SYSLOG", L ("syslog") },
  { "CAP_SYS_ADMIN", L ("bpf", "fanotify_init", "fsconfig", "fsmount", "fsopen", "fspick",
                        "lookup_dcookie", "mount", "mount_setattr", "move_mount", "open_tree",
                        "perf_event_open", "quotactl", "quotactl_fd", "setdomainname",
                        "sethostname", "setns", "syslog", "umount", "umount2", "unshare") },
  { "CAP_SYS_BOOT", L ("reboot") },
  { "CAP_SYS_CHROOT", L ("chroot") },
  { "CAP_SYS_MODULE", L ("delete_module", "init_module", "finit_module") },
  { "CAP_SYS_NICE", L ("get_mempolicy", "mbind", "set_mempolicy", "set_mempolicy_home_node") },
  { "CAP_SYS_PACCT", L ("acct") },
  { "CAP_SYS_PTRACE", L ("kcmp", "pidfd_getfd", "process_madvise", "process_vm_readv",
                         "process_vm_writev", "ptrace") },
  { "CAP_SYS_RAWIO", L ("iopl", "ioperm") },
  { "CAP_SYS_TIME", L ("settimeofday", "stime", "clock_settime", "clock_settime64") },
  { "CAP_SYS_TTY_CONFIG", L ("vhangup") },
};

/* Gated on CAP_SYS_PTRACE above, and allowed to all from Linux 4.8 on
   (Docker's "minKernel": "4.8" rule).  */
static const char *const ungated_since_4_8[] = { "process_vm_readv", "process_vm_writev", "ptrace" };

static int
compare_name (const char *name, size_t len, const char *row)
{
  int c = strncmp (name, row, len);
  if (c == 0 && row[len] != '\0')
    return -1;
  return c;
}

const struct entitle_entry_s *
entitle_catalogue_find (const char *name, size_t len)
{
  size_t lo = 0, hi = sizeof (catalogue) / sizeof (catalogue[0]);

  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      int c = compare_name (name, len, catalogue[mid].name);
      if (c == 0)
        return &catalogue[mid];
      if (c < 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  return NULL;
}

const struct entitle_entry_s *
entitle_catalogue_rows (size_t *n)
{
  *n = sizeof (catalogue) / sizeof (catalogue[0]);
  return catalogue;
}

const char *
entitle_domain_name (enum entitle_domain domain)
{
  static const char *const names[] = { "", "network", "security", "host.devices",
                                       "host.processes", "host.modules" };
  return names[domain];
}

const struct entitle_cap_syscalls_s *
entitle_cap_gated (size_t *n)
{
  *n = sizeof (cap_gated) / sizeof (cap_gated[0]);
  return cap_gated;
}

static const struct entitle_fx_text_s fx_texts[] = {
  { FX_NEW_NETNS, "namespaces", "a new network namespace, unless one is given by path" },
  { FX_HOST_NETNS, "namespaces", "the host's network namespace (the network namespace is removed)" },
  { FX_NEW_PIDNS, "namespaces", "a new pid namespace, unless one is given by path" },
  { FX_HOST_PIDNS, "namespaces", "the host's pid namespace (the pid namespace is removed)" },
  { FX_NNP, "process", "noNewPrivileges = true" },
  { FX_PROC_SYS_RO, "paths", "/proc/sys read-only" },
  { FX_MASK_NET, "paths", "/proc/sys/net and /sys/class/net masked" },
  { FX_SYS_RO, "paths", "/sys read-only, /proc/kcore masked" },
  { FX_CLEAR_RO, "paths", "readonlyPaths cleared" },
  { FX_UNMASK, "paths", "maskedPaths cleared but /proc/kcore, /proc/keys, /proc/sysrq-trigger, /sys/firmware" },
  { FX_SOCK_UNIX, "seccomp", "socket() and socketpair() for AF_UNIX only; socketcall denied" },
  { FX_SOCK_USER, "seccomp", "no AF_PACKET, no raw inet sockets; socketcall denied" },
  { FX_NO_DEV_MKNOD, "seccomp", "mknod and mknodat of device nodes denied" },
  { FX_PERSONALITY, "seccomp", "personality() for PER_LINUX (and the query) only" },
  { FX_DEV_DEFAULT, "device cgroup", "every device denied but the runtime spec's defaults (null, zero, full, random, urandom, tty, console, ptmx, pts)" },
  { FX_DEV_ALL, "device cgroup", "every device allowed" },
  { FX_LSM_UNCONFINED, "LSM", "AppArmor unconfined, SELinux spc_t (where the host runs them)" },
  { FX_LANDLOCK, "Landlock", "applied by a helper inside the container, which this version does not build" },
};

const struct entitle_fx_text_s *
entitle_fx_texts (size_t *n)
{
  *n = sizeof (fx_texts) / sizeof (fx_texts[0]);
  return fx_texts;
}

/* The attach types each needs are in lib/bpf-plan.c
   (entitle_probe_cg_needed).  */
static const struct
{
  const char *name, *text;
} cgroup_bpf_texts[] = {
  { "network.bind", "bind4/6: only these ports may be bound" },
  { "network.bind-map", "bind4/6: the port of a bind is rewritten" },
  { "network.egress", "connect4/6 and sendmsg4/6: only these destinations (loopback is not special)" },
  { "network.none", "sock_create: inet and inet6 sockets denied (the kernel runs it for those families only; seccomp denies the others)" },
  { "network.user", "sock_create: raw inet sockets denied (packet sockets: seccomp)" },
  { "security.confined", "sysctl: writes denied except to the keys linux.sysctl sets" },
};

const char *
entitle_cgroup_bpf_text (const char *name)
{
  size_t i;
  for (i = 0; i < sizeof (cgroup_bpf_texts) / sizeof (cgroup_bpf_texts[0]); i++)
    if (strcmp (cgroup_bpf_texts[i].name, name) == 0)
      return cgroup_bpf_texts[i].text;
  return NULL;
}

static bool
kernel_at_least (unsigned major, unsigned minor)
{
  struct utsname u;
  unsigned ma = 0, mi = 0;

  if (uname (&u) < 0 || sscanf (u.release, "%u.%u", &ma, &mi) != 2)
    return false;
  return ma > major || (ma == major && mi >= minor);
}

bool
entitle_cap_ungated (const char *name)
{
  size_t i;
  for (i = 0; i < sizeof (ungated_since_4_8) / sizeof (ungated_since_4_8[0]); i++)
    if (strcmp (name, ungated_since_4_8[i]) == 0)
      return kernel_at_least (4, 8);
  return false;
}
