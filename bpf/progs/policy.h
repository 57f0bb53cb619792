/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_BPF_POLICY_H
#define ENTITLE_BPF_POLICY_H

/* The policy of one container, shared by bpf/progs/entitle.bpf.c and the loader.

   Where it lives: in cgroup local storage (BPF_MAP_TYPE_CGROUP_STORAGE
   with a __u64 key, so one value is shared by every program attached to
   the same cgroup, Linux 5.9+).  The kernel makes the value when the hook
   attaches the first program to the container's cgroup and frees it with
   the cgroup: nothing per container outlives it, there is nothing to
   delete at poststop and no shared map a tenant could fill.  A program
   always sees the value of the cgroup it was attached to, also when it
   runs for a cgroup made below it (the effective programs of a child
   carry their ancestor's storage), so a container cannot shed its policy
   by making a cgroup.

   Each program keys on the socket's cgroup (the kernel runs cgroup
   programs for the cgroup the socket was created in), so a socket the
   container made stays bound when a kernel thread uses it; a socket made
   outside and passed in is bound by its creator's cgroup instead.  */

/* The LSM programs take the kernel's types from vmlinux.h instead.  */
#ifndef __VMLINUX_H__
#include <linux/bpf.h>
#include <linux/types.h>
#endif

#define ENTITLE_MAX_RANGES  8  /* network.bind and network.bind-map values */
#define ENTITLE_MAX_EGRESS  64 /* network.egress rules */
#define ENTITLE_MAX_INGRESS 64 /* network.ingress rules */
#define ENTITLE_MAX_SYSCTLS 32 /* linux.sysctl keys a confined container may write */
#define ENTITLE_SYSCTL_NAME 64 /* "net/ipv4/ip_forward", NUL padded */

/* policy.flags; 0 (what the kernel zeroes the value to) enforces nothing.  */
#define POL_SOCK_UNIX_ONLY (1u << 0) /* network.none: sockets of AF_UNIX only */
#define POL_SOCK_NO_RAW    (1u << 1) /* network.user, network.egress: no raw inet sockets */
#define POL_EGRESS         (1u << 2) /* network.egress: listed destinations only */
#define POL_BIND           (1u << 3) /* network.bind: listed local ports only */
#define POL_BIND_MAP       (1u << 4) /* network.bind-map: rewrite bind ports */
#define POL_SYSCTL_RO      (1u << 5) /* security.confined: no sysctl writes but listed keys */
#define POL_INGRESS        (1u << 6) /* network.ingress: new contacts from listed sources only */
/* security.confined's process confinement, which only the seed layers
   read (the cgroup programs have no hook for it): no namespace made by
   clone flags (Checmate task_create, clone3 included, whose flags seccomp
   cannot read), no mount (BPF LSM sb_mount, beside seccomp's denial), no
   signal to a task outside the container's cgroup (BPF LSM task_kill).  */
#define POL_CONFINED (1u << 7)
/* Every rule bit above (a unit test checks that a row carries each).  */
#define POL_RULES                                                                              \
  (POL_SOCK_UNIX_ONLY | POL_SOCK_NO_RAW | POL_EGRESS | POL_BIND | POL_BIND_MAP | POL_SYSCTL_RO \
   | POL_INGRESS | POL_CONFINED)
/* Not rules: what the programs write to the store.  */
#define POL_REPORT (1u << 8) /* a record of each denial (the admin config's `denials`) */
#define POL_LEARN  (1u << 9) /* entitle learn: a record of each distinct use, once */

struct entitle_range
{
  __u16 lo, hi; /* host byte order, inclusive */
};

/* One network.egress rule: (addr & mask) == net, port in [lo, hi] (the
   destination's); one network.ingress rule the same for the source's
   address and the container's port it reaches.  IPv4 uses word 0 only;
   addresses and masks are in network byte order, the host bits of net
   are zero.  */
struct entitle_cidr
{
  __u32 net[4];
  __u32 mask[4];
  __u16 lo, hi;
  __u16 family; /* AF_INET or AF_INET6 */
  __u16 pad;
};

/* The records one cgroup may write: ENTITLE_REPORT_BURST denials (or
   ENTITLE_LEARN_BURST uses under entitle learn) per window; beyond that
   they are only counted, and the count rides on the cgroup's next record.
   A tight loop of denials thus cannot flood the store that every
   container shares.  Updated by the programs without a lock: a race lets
   a record more through, never fewer.  */
#define ENTITLE_REPORT_BURST     16
#define ENTITLE_LEARN_BURST      512
#define ENTITLE_REPORT_WINDOW_NS (60ull * 1000000000ull)
#define ENTITLE_LEARN_SEEN       32 /* uses remembered, so that a loop is recorded once */

struct entitle_budget
{
  __u64 window; /* CLOCK_BOOTTIME ns when the window began */
  __u32 used, dropped;
  __u32 seen[ENTITLE_LEARN_SEEN]; /* hashes of uses recorded (entitle learn) */
};

struct entitle_policy
{
  __u32 flags;
  __u16 n_bind, n_map, n_egress, n_sysctl, n_ingress, pad[3];
  struct entitle_range bind[ENTITLE_MAX_RANGES];
  struct entitle_range map[ENTITLE_MAX_RANGES]; /* lo = FROM, hi = TO */
  struct entitle_cidr egress[ENTITLE_MAX_EGRESS];
  struct entitle_cidr ingress[ENTITLE_MAX_INGRESS];
  char sysctl[ENTITLE_MAX_SYSCTLS][ENTITLE_SYSCTL_NAME];
  __u64 cgroup;                 /* the id of the cgroup this is the storage of, for records */
  struct entitle_budget budget; /* the programs', zero when written */
};

/* The store of denials: one array that every container's programs write
   to, in turn (a ring: the newest record replaces the oldest), pinned
   beside the programs, so that it outlives the containers and needs no
   daemon: `entitle why` reads it, and maps each cgroup id to its
   container through the record entitle-hook keeps in state_dir.  At the
   burst above, ENTITLE_EVENTS records hold at least an hour of
   ENTITLE_EVENTS / 16 / 60 (8) containers denying without pause; a quiet
   host keeps them much longer.  */
#define ENTITLE_EVENTS 8192

#define ENTITLE_EV_SOURCE_ROUTED (1u << 0) /* a packet that picks its own route */
#define ENTITLE_EV_UNREADABLE    (1u << 1) /* a packet the program could not parse */

struct entitle_event
{
  __u64 seq;                      /* 1 + the number of records before it; 0 while written */
  __u64 time;                     /* CLOCK_BOOTTIME ns */
  __u64 cgroup;                   /* the container's cgroup (its policy's) */
  __u32 rule;                     /* the POL_* bit that denied it; 0: a use entitle learn records */
  __u32 dropped;                  /* this cgroup's records the budget dropped just before this one */
  __u32 hook;                     /* the program's attach type (enum bpf_attach_type) */
  __u32 info;                     /* ENTITLE_EV_* */
  __u16 family;                   /* AF_INET, AF_INET6, ... */
  __u16 type;                     /* socket type (sock_create, connect, bind, sendmsg), IP protocol (packets) */
  __u16 port;                     /* host order: the peer's (connect, sendmsg, packets out), the container's (bind, packets in) */
  __u16 protocol;                 /* socket protocol (sock_create) */
  __u32 addr[4];                  /* network order: the peer's address (the source of a packet in) */
  char name[ENTITLE_SYSCTL_NAME]; /* the sysctl written, "net/ipv4/ip_forward" */
};

/* The store's next sequence number, taken under its lock.  */
struct entitle_store_head
{
  struct bpf_spin_lock lock;
  __u32 pad;
  __u64 next;
};

/* The seed layers (DESIGN §4): what Checmate's global hooks and the eBPF
   seccomp filter read.

   Checmate runs its programs for every task of the host and gives them no
   cgroup: no cgroup storage and no helper that names the task's cgroup
   (the seed's helpers are the map operations, probe_read,
   get_current_task, get_current_pid_tgid, get_current_uid_gid,
   get_current_comm, tail_call and trace_printk).  So its programs read the
   current task's cgroup out of the kernel's structures with probe_read, at
   the offsets the loader takes from the running kernel's BTF (the one
   entry of entitle_checmate_layout), and look its id and its ancestors'
   up in a pinned hash map, entitle_checmate_policy, that entitle-hook
   fills beside the cgroup storage at createRuntime.  The ancestors are
   looked up too, so a cgroup made inside the container is held to the
   container's entry, as a cgroup program would hold it.  Entries are
   removed at poststop for every cgroup that is gone, and whenever the map
   is full; cgroup ids are never reused, so an entry left behind matches
   no other container.  */
#define ENTITLE_CHECMATE_MAX  4096 /* containers with Checmate entries at once */
#define ENTITLE_CGROUP_LEVELS 16   /* cgroup levels looked up, nearest first */

struct entitle_checmate_layout
{
  __u32 task_cgroups;     /* offsetof (struct task_struct, cgroups) */
  __u32 cset_dfl_cgrp;    /* offsetof (struct css_set, dfl_cgrp) */
  __u32 cgroup_kn;        /* offsetof (struct cgroup, kn) */
  __u32 cgroup_level;     /* offsetof (struct cgroup, level) */
  __u32 cgroup_ancestors; /* offsetof (struct cgroup, ancestors): struct cgroup *[] */
  __u32 kn_id;            /* offsetof (struct kernfs_node, id) */
};

/* struct checmate_ctx of the seed (include/linux/checmate.h) as the
   programs read it: `int hook`, then the union, pointers 64 bits wide.  */
struct entitle_checmate_ctx
{
  __s32 hook;
  __u32 pad;
  union
  {
    struct
    {
      __u64 file, cred;
    } file_open;
    struct
    {
      __u64 clone_flags;
    } task_create;
    struct
    {
      __u64 task;
    } task_free;
    struct
    {
      __u64 sock, address;
      __s32 addrlen;
    } socket_connect;
  };
};

/* The eBPF seccomp filter of one process (entitle-init installs it): its
   decisions, the one entry of its own array map.  Syscalls of another ABI
   than @arch pass to the classic profile, which lists them.  */
#define ENTITLE_SECCOMP_NR 1024 /* syscall numbers of the native ABI the map holds */

#define SECCOMP_POL_UNIX_ONLY   (1u << 0) /* socket(), socketpair(): AF_UNIX only */
#define SECCOMP_POL_NO_PACKET   (1u << 1) /* socket(): no AF_PACKET, no raw inet socket */
#define SECCOMP_POL_NO_DEV_NODE (1u << 2) /* mknod(), mknodat(): no device node */
#define SECCOMP_POL_PERSONALITY (1u << 3) /* personality(): PER_LINUX and the query only */

struct entitle_seccomp_policy
{
  __u32 arch;      /* AUDIT_ARCH_* of the native ABI */
  __u32 flags;     /* SECCOMP_POL_* */
  __u32 errno_ret; /* SECCOMP_RET_ERRNO | EPERM */
  /* The native numbers of the syscalls the flags judge by argument; ~0u
     where the ABI has none (aarch64 has no mknod).  */
  __u32 nr_socket, nr_socketpair, nr_mknod, nr_mknodat, nr_personality;
  __u8 deny[ENTITLE_SECCOMP_NR / 8]; /* bit nr: denied with errno_ret, whatever the arguments */
};

/* A syscall seccomp refused, as bpf/progs/seccomp-denials.bpf.c reads it
   off the task at the exit of __secure_computing (`entitle why --follow`,
   docs/denials.md), into a ring buffer that only the follower reads.  */
#define ENTITLE_SECCOMP_COMPAT (1u << 0) /* a 32-bit call (x86: int 0x80, TS_COMPAT) */

struct entitle_seccomp_denial
{
  __u64 time;                             /* CLOCK_BOOTTIME ns */
  __u64 cgroup;                           /* the task's cgroup2 id */
  __u64 ancestors[ENTITLE_CGROUP_LEVELS]; /* its ancestors' at levels 1.., 0 below its own level */
  __u64 args[6];                          /* the syscall's arguments, as the ABI passes them */
  __s64 ret;                              /* what the task gets: -errno; the number, for a trap (SIGSYS) */
  __u32 nr;                               /* the syscall's number in its ABI */
  __u32 flags;                            /* ENTITLE_SECCOMP_* */
  __u32 pid, tid;
  char comm[16];
};

#endif
