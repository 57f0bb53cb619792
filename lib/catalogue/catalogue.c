/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include "attach.h"
#include "catalogue.h"
#include "closest.h"
#include "fill.h"
#include "policy.h"

#define L(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* What security.confined and security.view take away from a
   Docker-default-level profile: debugging (ptrace and its primitives
   process_vm_readv/writev), kernel-wide state, namespaces and mounts, and
   the big attack surfaces (bpf, io_uring, userfaultfd).  */
#define CONFINED_SYSCALLS                                                       \
  "ptrace", "process_vm_readv", "process_vm_writev", "userfaultfd", "bpf",      \
      "perf_event_open", "keyctl", "add_key", "request_key", IO_URING_SYSCALLS, \
      "unshare", "setns", "mount", "umount", "umount2", "fsopen", "fsmount",    \
      "fsconfig", "fspick", "move_mount", "open_tree", "mount_setattr",         \
      "kexec_load", "kexec_file_load", "init_module", "finit_module",           \
      "delete_module", "create_module", "reboot"

/* The most security.confined leaves (DESIGN §7): Docker's default set
   without what confinement takes away.  security.view keeps
   CAP_DAC_READ_SEARCH as well.  */
#define CONFINED_KEEP                                                            \
  "CAP_CHOWN", "CAP_FOWNER", "CAP_MKNOD", "CAP_NET_RAW", "CAP_NET_BIND_SERVICE", \
      "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE"

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
/* IORING_OP_SOCKET makes sockets that no seccomp rule on socket() sees.  */
#define IO_URING_SYSCALLS "io_uring_setup", "io_uring_enter", "io_uring_register"

/* The cgroup programs an egress allowlist needs: the destination of every
   connect and datagram, and of every packet whatever sent it (raw, ping
   and source-routed packets, kernel threads on the container's sockets);
   sock_create refuses raw sockets.  */
#define EGRESS_ATTACH                                                                         \
  (ATTACH_BIT (ATTACH_CONNECT4) | ATTACH_BIT (ATTACH_CONNECT6) | ATTACH_BIT (ATTACH_SENDMSG4) \
   | ATTACH_BIT (ATTACH_SENDMSG6) | ATTACH_BIT (ATTACH_SOCK_CREATE) | ATTACH_BIT (ATTACH_SKB_EGRESS))
#define BIND_ATTACH (ATTACH_BIT (ATTACH_BIND4) | ATTACH_BIT (ATTACH_BIND6))
/* An ingress allowlist: the source of every packet that opens a contact;
   sock_create refuses raw sockets, which would read past it.  */
#define INGRESS_ATTACH (ATTACH_BIT (ATTACH_SKB_INGRESS) | ATTACH_BIT (ATTACH_SOCK_CREATE))

/* What a grant of a rung that adds CAP_SYS_ADMIN voids (entitlements(7),
   LIMITS; DESIGN §8): what the kernel keeps global to that capability in
   the host's user namespace, and that no mechanism of entitle holds.  */
#define VOID_SYS_ADMIN "CAP_SYS_ADMIN in the host's user namespace still reaches what the kernel keeps global, which entitle does not hold: a binfmt_misc interpreter (which the host's own programs then run), kernel.core_pattern and kernel.modprobe in a /proc it mounts, kprobes in a tracefs it mounts; through them the container can run a program as root on the host, outside every namespace and cgroup, so a grant of this rung voids every promise entitle makes to every container against this one, its own included"

/* What the network promises do not cover (entitlements(7), LIMITS).  */
#define PASSED_IN  "a socket made outside the container and passed in (SCM_RIGHTS over a unix socket) is bound by its creator's cgroup, not by this entitlement"
#define UNREAD_OUT "a packet whose IPv6 extension headers the program cannot read to its transport header (more than 8 of them, a fragment after the first, ESP) does not leave, to a listed destination either"
#define UNREAD_IN  "a packet whose IPv6 extension headers the program cannot read to its transport header (more than 8 of them, a header it cannot read past) reaches only a connected socket, from a listed source and to a listed port too"
#define NATIVE_ABI "32-bit x86 programs are killed (SIGSYS): the profile lists the native ABI only, since socketcall hides socket()'s family from seccomp"

/* Sorted by name: entitle_catalogue_find () searches it in halves, and a
   unit test checks the order.  The ladders read narrow to wide.  */
static const struct entitle_entry_s catalogue[] = {
  /* fs.*: Landlock, applied by the in-container helper entitle-init
     (lib/compile/landlock.c); refused where the kernel has no Landlock.  */
  {
      .name = "fs.read",
      .value = &entitle_value_path,
      .fx = FX_LANDLOCK,
      .landlock_abi = 1,
      .landlock_tcp = LANDLOCK_TCP_NONE,
      .custom_key = ENTITLE_NOT_IMPLIED,
      .why_value = WHY_VALUE_NONE,
      .summary = "only these paths (plus what is needed to run) are readable",
  },
  /* XXX ABI 3 made truncate(2) a right: before it, a file outside the
     paths can be truncated by name (Debian 12's 6.1 has ABI 2).  */
  {
      .name = "fs.write",
      .value = &entitle_value_path,
      .fx = FX_LANDLOCK,
      .landlock_abi = 3,
      .landlock_below = "truncate(2) of a file outside the listed paths",
      .landlock_tcp = LANDLOCK_TCP_NONE,
      .custom_key = ENTITLE_NOT_IMPLIED,
      .why_value = WHY_VALUE_NONE,
      .summary = "only these paths are writable",
  },

  /* host.*: the host's devices, processes and kernel.  */
  {
      .name = "host.devices.admin",
      .domain = DOMAIN_DEVICES,
      .rung = 2,
      .cap_add = L ("CAP_SYS_ADMIN", "CAP_MKNOD"),
      .fx = FX_UNMASK | FX_DEV_ALL,
      .limits = L (VOID_SYS_ADMIN, "every device is allowed: the host's disks, which hold entitle, its configuration and every container's files, can be written past every mount"),
      .summary = "manage host devices: CAP_SYS_ADMIN, CAP_MKNOD, /proc and /sys unmasked",
  },
  {
      .name = "host.devices.none",
      .domain = DOMAIN_DEVICES,
      .rung = 1,
      .cap_drop = L ("CAP_SYS_ADMIN", "CAP_MKNOD"),
      .fx = FX_SYS_RO | FX_NO_DEV_MKNOD | FX_DEV_DEFAULT,
      .summary = "no device access: no mknod of devices, /sys read-only, /proc/kcore masked",
  },
  {
      .name = "host.modules.admin",
      .domain = DOMAIN_MODULES,
      .rung = 1,
      .cap_add = L ("CAP_SYS_MODULE"),
      .sys_allow = L (MODULE_SYSCALLS),
      .limits = L ("a module runs in the kernel, where nothing holds it: a grant of this rung voids every promise entitle makes to every container against this one, its own included"),
      .summary = "load and unload kernel modules",
  },
  {
      .name = "host.processes.admin",
      .domain = DOMAIN_PROCESSES,
      .rung = 2,
      .fx = FX_HOST_PIDNS,
      .summary = "see the host's processes (host pid namespace)",
  },
  {
      .name = "host.processes.none",
      .domain = DOMAIN_PROCESSES,
      .rung = 1,
      .fx = FX_NEW_PIDNS,
      .summary = "see only the container's processes (own pid namespace)",
  },

  /* network.*: the ladder none < user < proxy < admin < host, and the
     modifiers that the cgroup BPF programs enforce.  Only network.none
     changes the network namespace the engine chose (DESIGN §7: a
     host-network pod that asks for network.user keeps its network).  */
  {
      .name = "network.admin",
      .domain = DOMAIN_NETWORK,
      .rung = 4,
      .cap_add = L (NETWORK_ADMIN_CAPS),
      .summary = "configure the network: CAP_NET_ADMIN, CAP_NET_RAW, low ports",
  },
  {
      .name = "network.bind",
      .value = &entitle_value_ports,
      .policy = POL_BIND,
      .attach = BIND_ATTACH | ATTACH_BIT (ATTACH_SKB_INGRESS),
      .fill = entitle_bpf_fill_bind,
      .bpf_text = "bind4/6: only these ports may be bound; skb_ingress: no peer opens a connection to, or sends a datagram to an unconnected socket on, another port (ports the kernel chose included); replies to the container's own connections pass",
      .contradicts = L ("network.none"),
      .limits = L (PASSED_IN, "a datagram to an unconnected socket on an unlisted port is dropped, also a reply to what that socket sent: a client that needs replies connects its socket", UNREAD_IN),
      .landlock_tcp = LANDLOCK_TCP_BIND,
      .custom_key = "bind",
      .why_value = WHY_VALUE_PORT,
      .summary = "only these ports may be bound and reached",
  },
  {
      .name = "network.bind-map",
      .value = &entitle_value_port_map,
      .policy = POL_BIND_MAP,
      .attach = BIND_ATTACH,
      .fill = entitle_bpf_fill_bind_map,
      .bpf_text = "bind4/6: the port of a bind is rewritten",
      .contradicts = L ("network.none"),
      .note = "A bind to port FROM binds port TO instead: port mapping without DNAT.",
      .landlock_tcp = LANDLOCK_TCP_BIND_ADDS,
      .custom_key = ENTITLE_NOT_IMPLIED,
      .why_value = WHY_VALUE_NONE,
      .summary = "rewrite the port of a bind (FROM:TO)",
  },
  {
      .name = "network.egress",
      .value = &entitle_value_cidr,
      .cap_drop = L ("CAP_NET_ADMIN", "CAP_NET_RAW"),
      .policy = POL_EGRESS | POL_SOCK_NO_RAW,
      .attach = EGRESS_ATTACH,
      .fill = entitle_bpf_fill_egress,
      .note = "Loopback is not special: list 127.0.0.0/8 to allow it.",
      .bpf_text = "connect4/6 and sendmsg4/6: only these destinations (loopback is not special); skb_egress: every packet too, whatever sent it, no source-routed packet and none it cannot read to its transport header; sock_create: no raw sockets",
      .contradicts = L ("network.none", "network.proxy", "network.admin", "network.host", "security.insecure"),
      .limits = L (PASSED_IN, "a protocol without ports (ICMP) reaches only destinations listed without a port", "an IPv6 ping socket is not told that its packet to an unlisted address was dropped", UNREAD_OUT),
      .landlock_tcp = LANDLOCK_TCP_CONNECT,
      .custom_key = "egress",
      .why_value = WHY_VALUE_ADDRESS,
      .summary = "connect and send only to these destinations; no raw or packet sockets",
  },
  {
      .name = "network.host",
      .domain = DOMAIN_NETWORK,
      .rung = 5,
      .exact_grant = true,
      .cap_add = L (NETWORK_ADMIN_CAPS),
      .fx = FX_HOST_NETNS,
      .summary = "BuildKit's name: the host's network namespace, with network.admin",
  },
  {
      .name = "network.ingress",
      .value = &entitle_value_cidr,
      .cap_drop = L ("CAP_NET_ADMIN", "CAP_NET_RAW"),
      .policy = POL_INGRESS | POL_SOCK_NO_RAW,
      .attach = INGRESS_ATTACH,
      .fill = entitle_bpf_fill_ingress,
      .note = "PORT is the container's port the source may reach. Loopback is not special: list 127.0.0.0/8 to allow it.",
      .bpf_text = "skb_ingress: only these sources open a connection to, or send a datagram to an unconnected socket of, the container (to the listed ports); replies to the container's own connections pass; sock_create: no raw sockets",
      .contradicts = L ("network.none", "network.proxy", "network.admin", "network.host", "security.insecure"),
      .limits = L (PASSED_IN, "a protocol without ports (ICMP) reaches the container from any source: echo replies and errors for its own traffic must", UNREAD_IN),
      .landlock_tcp = LANDLOCK_TCP_NONE,
      .custom_key = "ingress",
      .why_value = WHY_VALUE_ADDRESS,
      .summary = "only these sources may reach the container's listening and unconnected sockets; no raw or packet sockets",
  },
  {
      .name = "network.none",
      .domain = DOMAIN_NETWORK,
      .rung = 1,
      .cap_drop = L (NETWORK_ADMIN_CAPS),
      .sys_deny = L (IO_URING_SYSCALLS),
      .fx = FX_NEW_NETNS | FX_MASK_NET | FX_SOCK_UNIX,
      .policy = POL_SOCK_UNIX_ONLY,
      .attach = ATTACH_BIT (ATTACH_SOCK_CREATE),
      .bpf_text = "sock_create: inet and inet6 sockets denied (the kernel runs it for those families only; seccomp denies the others)",
      .limits = L (PASSED_IN, NATIVE_ABI),
      .summary = "no network: only AF_UNIX sockets, own empty network namespace",
  },
  {
      .name = "network.proxy",
      .domain = DOMAIN_NETWORK,
      .rung = 3,
      .cap_add = L ("CAP_NET_BIND_SERVICE", "CAP_NET_RAW", "CAP_NET_BROADCAST"),
      .cap_drop = L ("CAP_NET_ADMIN"),
      .summary = "serve as a proxy: low ports, raw sockets, no network configuration",
  },
  {
      .name = "network.user",
      .domain = DOMAIN_NETWORK,
      .rung = 2,
      .cap_drop = L ("CAP_NET_ADMIN", "CAP_NET_BIND_SERVICE", "CAP_NET_RAW"),
      .fx = FX_SOCK_USER,
      .policy = POL_SOCK_NO_RAW,
      .attach = ATTACH_BIT (ATTACH_SOCK_CREATE),
      .bpf_text = "sock_create: raw inet sockets denied (packet sockets: seccomp and the dropped CAP_NET_RAW)",
      .limits = L (NATIVE_ABI),
      .summary = "talk to the network as a user: no raw or packet sockets",
  },

  /* security.*: the ladder confined < view < admin < insecure.  */
  {
      .name = "security.admin",
      .domain = DOMAIN_SECURITY,
      .rung = 3,
      .cap_add = L (SECURITY_ADMIN_CAPS),
      .sys_deny = L (KEXEC_SYSCALLS, MODULE_SYSCALLS),
      .sys_allow = L (KEYRING_SYSCALLS),
      .fx = FX_CLEAR_RO | FX_LSM_UNCONFINED,
      .limits = L (VOID_SYS_ADMIN, "with CAP_SYS_RAWIO it reads kernel memory through /proc/kcore in a /proc it mounts, where the kernel has one, every container's policy included"),
      .summary = "administer the system: 24 capabilities, mount, ptrace; still no kexec or modules",
  },
  {
      .name = "security.confined",
      .domain = DOMAIN_SECURITY,
      .rung = 1,
      .cap_keep = L (CONFINED_KEEP),
      .sys_deny = L (CONFINED_SYSCALLS),
      .fx = FX_NNP | FX_PROC_SYS_RO | FX_PERSONALITY,
      .policy = POL_SYSCTL_RO | POL_CONFINED,
      .attach = ATTACH_BIT (ATTACH_SYSCTL),
      .bpf_text = "sysctl: writes denied except to the keys linux.sysctl sets",
      .summary = "least privilege: no privileged capabilities, no new privileges, narrow syscalls",
  },
  {
      .name = "security.insecure",
      .domain = DOMAIN_SECURITY,
      .rung = 4,
      .exact_grant = true,
      .cap_add = L (SECURITY_ADMIN_CAPS, NETWORK_ADMIN_CAPS, "CAP_MKNOD", "CAP_SYS_MODULE"),
      .sys_allow = L (MODULE_SYSCALLS, KEYRING_SYSCALLS),
      .fx = FX_CLEAR_RO | FX_UNMASK | FX_DEV_ALL | FX_LSM_UNCONFINED | FX_PRIVILEGED,
      .summary = "BuildKit's name: every admin rung, as --privileged",
  },
  {
      .name = "security.memory-lock",
      .cap_add = L ("CAP_IPC_LOCK"),
      .sys_allow = L ("mlock", "mlock2", "mlockall", "munlock", "munlockall"),
      .summary = "lock memory: CAP_IPC_LOCK and the mlock family",
  },
  {
      .name = "security.view",
      .domain = DOMAIN_SECURITY,
      .rung = 2,
      .cap_keep = L (CONFINED_KEEP, "CAP_DAC_READ_SEARCH"),
      .sys_deny = L (CONFINED_SYSCALLS),
      .fx = FX_NNP | FX_PERSONALITY,
      .summary = "as confined, but may read any file (keeps CAP_DAC_READ_SEARCH)",
  },
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

/* What reaches entitle's enforcement of every container from inside one
   (DESIGN §8), and so is denied to every container entitle keeps from it
   (FX_HOLD).  bpf(2) reaches every BPF object of the host by id
   (*_GET_FD_BY_ID) and runs programs beside entitle's, which seccomp
   cannot tell apart by their arguments (the program type is in memory);
   a file handle reaches any cgroup, or any file, of a filesystem the
   container has mounted, past the mount's root (the cgroup namespace
   bounds paths, not handles, where cgroup2 is mounted without
   nsdelegate).  */
static const struct entitle_reach_s reach[] = {
  { "CAP_BPF", L ("bpf"), "loads programs that run beside entitle's" },
  { "CAP_DAC_READ_SEARCH", L ("open_by_handle_at"), "opens any cgroup or file by its handle, past its mounts" },
  { "CAP_SYS_ADMIN", L ("bpf"), "reaches every BPF object by id, and every cgroup through a cgroup2 mount" },
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

/* The rows of @cat: the built-in table itself when it adds none, so that
   a call without custom rows searches exactly what it always did.  */
static const struct entitle_entry_s *
rows_of (const struct entitle_catalogue_s *cat, size_t *n)
{
  if (cat && cat->rows)
    {
      *n = cat->n;
      return cat->rows;
    }
  *n = sizeof (catalogue) / sizeof (catalogue[0]);
  return catalogue;
}

const struct entitle_entry_s *
entitle_catalogue_find (const struct entitle_catalogue_s *cat, const char *name, size_t len)
{
  size_t lo = 0, hi;
  const struct entitle_entry_s *rows = rows_of (cat, &hi);

  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      int c = compare_name (name, len, rows[mid].name);
      if (c == 0)
        return &rows[mid];
      if (c < 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  return NULL;
}

const struct entitle_entry_s *
entitle_catalogue_closest (const struct entitle_catalogue_s *cat, const char *name, size_t len)
{
  const struct entitle_entry_s *best = NULL, *rows;
  struct entitle_closest_s c;
  size_t i, n;

  /* The rows are three or more apart.  */
  entitle_closest_init (&c, name, len);
  rows = rows_of (cat, &n);
  for (i = 0; i < n; i++)
    if (entitle_closest_consider (&c, rows[i].name))
      best = &rows[i];
  return best;
}

const struct entitle_entry_s *
entitle_catalogue_rows (const struct entitle_catalogue_s *cat, size_t *n)
{
  return rows_of (cat, n);
}

void
entitle_catalogue_free (struct entitle_catalogue_s *cat)
{
  size_t i;

  for (i = 0; i < cat->n_owned; i++)
    free (cat->owned[i]);
  free (cat->owned);
  free (cat->rows);
  memset (cat, 0, sizeof (*cat));
}

bool
entitle_catalogue_builtin_domain (const char *name, size_t len)
{
  size_t i, first = strcspn (name, ".");

  if (first > len)
    first = len;
  for (i = 0; i < sizeof (catalogue) / sizeof (catalogue[0]); i++)
    if (strncmp (catalogue[i].name, name, first) == 0 && catalogue[i].name[first] == '.')
      return true;
  return false;
}

bool
entitle_entry_bpf_only (const struct entitle_entry_s *e)
{
  return e->cap_add == NULL && e->cap_drop == NULL && e->cap_keep == NULL && e->sys_deny == NULL
         && e->sys_allow == NULL && e->fx == 0 && e->n_sys_rules == 0 && e->masked == NULL && e->readonly == NULL;
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

const struct entitle_reach_s *
entitle_reach (size_t *n)
{
  *n = sizeof (reach) / sizeof (reach[0]);
  return reach;
}

unsigned
entitle_entry_fx (const struct entitle_entry_s *e)
{
  size_t i;

  if (e->fx & FX_PRIVILEGED)
    return e->fx;
  for (i = 0; i < sizeof (reach) / sizeof (reach[0]); i++)
    for (const char *const *c = e->cap_add; c && *c; c++)
      if (strcmp (*c, reach[i].cap) == 0)
        return e->fx | FX_HOLD;
  return e->fx;
}

#define M(x) ENTITLE_MECH_BIT (ENTITLE_MECH_##x)
static const struct entitle_fx_text_s fx_texts[] = {
  { FX_NEW_NETNS, M (NAMESPACES), false, "a new network namespace, unless one is given by path" },
  { FX_HOST_NETNS, M (NAMESPACES), false, "the host's network namespace (the network namespace is removed, and the engine's net.* sysctls with it: in the host's they would change the host)" },
  { FX_NEW_PIDNS, M (NAMESPACES), false, "a new pid namespace, unless one is given by path" },
  { FX_HOST_PIDNS, M (NAMESPACES), false, "the host's pid namespace (the pid namespace is removed)" },
  { FX_NNP, M (PROCESS), false, "noNewPrivileges = true" },
  { FX_PROC_SYS_RO, M (PATHS), false, "/proc/sys read-only" },
  { FX_MASK_NET, M (PATHS), false, "/proc/sys/net and /sys/class/net masked" },
  { FX_SYS_RO, M (PATHS), false, "/sys read-only, /proc/kcore masked" },
  { FX_CLEAR_RO, M (PATHS), false, "readonlyPaths cleared" },
  { FX_UNMASK, M (PATHS), false, "maskedPaths cleared but /proc/kcore, /proc/keys, /proc/sysrq-trigger, /sys/firmware" },
  { FX_SOCK_UNIX, M (SECCOMP), false, "socket() and socketpair() for AF_UNIX only; the native ABI only (a 32-bit call is killed: socketcall hides socket()'s family)" },
  { FX_SOCK_USER, M (SECCOMP), false, "no AF_PACKET, no raw inet sockets; the native ABI only (a 32-bit call is killed: socketcall hides socket()'s family)" },
  { FX_NO_DEV_MKNOD, M (SECCOMP), false, "mknod and mknodat of device nodes denied" },
  { FX_PERSONALITY, M (SECCOMP), false, "personality() for PER_LINUX (and the query) only" },
  { FX_DEV_DEFAULT, M (DEVICE_CGROUP), false, "every device denied but the runtime spec's defaults (null, zero, full, random, urandom, tty, console, ptmx, pts)" },
  { FX_DEV_ALL, M (DEVICE_CGROUP), false, "every device allowed" },
  { FX_LSM_UNCONFINED, M (LSM), false, "AppArmor unconfined, SELinux spc_t (where the host runs them)" },
  { FX_HOLD, M (SECCOMP) | M (NAMESPACES), false, "kept from entitle's enforcement of every container while it holds CAP_SYS_ADMIN, CAP_BPF or CAP_DAC_READ_SEARCH, whoever gave it: bpf(2) denied with either of the first two, open_by_handle_at with the third, a cgroup namespace of its own; with CAP_SYS_ADMIN or CAP_SYS_PTRACE, refused in the host's pid namespace or one given by path, without a mount namespace of its own, with a cgroup namespace given by path or a bind of the host's cgroup tree, and beside cgroup BPF where the runtime manages no cgroup" },
  { FX_PRIVILEGED, M (SECCOMP) | M (NAMESPACES), true, "not kept from entitle's enforcement: bpf(2), open_by_handle_at and the cgroup namespace stay as the engine gave them" },
  { FX_LANDLOCK, M (LANDLOCK), false, "applied by entitle-init, the in-container helper, before the command runs (it sets no_new_privs; exec'd processes too)" },
};
#undef M

static const char *const mech_names[ENTITLE_MECH_COUNT_] = {
  [ENTITLE_MECH_CAPABILITIES] = "capabilities",
  [ENTITLE_MECH_SECCOMP] = "seccomp",
  [ENTITLE_MECH_NAMESPACES] = "namespaces",
  [ENTITLE_MECH_PATHS] = "paths",
  [ENTITLE_MECH_DEVICE_CGROUP] = "device cgroup",
  [ENTITLE_MECH_PROCESS] = "process",
  [ENTITLE_MECH_LSM] = "LSM",
  [ENTITLE_MECH_CGROUP_BPF] = "cgroup BPF",
  [ENTITLE_MECH_LANDLOCK] = "Landlock",
  [ENTITLE_MECH_EBPF_SECCOMP] = "eBPF seccomp",
  [ENTITLE_MECH_CHECMATE] = "Checmate",
};

const char *
entitle_mech_name (enum entitle_mech mech)
{
  return (unsigned)mech < ENTITLE_MECH_COUNT_ ? mech_names[mech] : "?";
}

static const char *
mech_name (unsigned mech)
{
  return mech_names[mech];
}

const char *
entitle_mech_names (unsigned mechs, char *buf, size_t len)
{
  return entitle_bits_names (mechs, ENTITLE_MECH_COUNT_, mech_name, buf, len);
}

const struct entitle_fx_text_s *
entitle_fx_texts (size_t *n)
{
  *n = sizeof (fx_texts) / sizeof (fx_texts[0]);
  return fx_texts;
}

unsigned
entitle_fx_mechs (unsigned fx)
{
  unsigned mechs = 0;
  size_t i;

  for (i = 0; i < sizeof (fx_texts) / sizeof (fx_texts[0]); i++)
    if ((fx & fx_texts[i].fx) && !fx_texts[i].lifts)
      mechs |= fx_texts[i].mechs;
  return mechs;
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
