/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <cmocka.h>
#include "unit.h"
#include "seccomp-load.h"
#include "compile.h"
#include "rewrite.h"
#include "probe.h"
#include "context.h"
#include "file.h"
#include "json.h"
#include "scmp.h"
#include "seccomp-rules.h"
#include "utils.h"

/* Every entitlement of the catalogue (but fs.*, which needs the Landlock
   helper) against three configs, with the exact result written out from
   DESIGN §3 -- never computed by the code under test:

   - runc-spec.json: what `runc spec` writes (runc 1.1): three
     capabilities in four sets (no inheritable), noNewPrivileges, a network
     namespace, /proc/sys read-only, and no seccomp section;
   - docker-expanded.json: what Docker hands to runc for `docker run`: its
     14 default capabilities in bounding, effective and permitted only,
     its masked and read-only paths, its device rules and moby's default
     seccomp profile expanded for those capabilities on amd64;
   - no-seccomp.json: the same Docker config as
     `docker run --security-opt seccomp=unconfined --network container:X`
     gives it: no seccomp section, and a network namespace joined by path.
     runc's spec has no seccomp section either: this third config is the
     one that tells "no seccomp" apart from "few capabilities" (a profile
     entitle generates is gated on the capabilities it finds), and it
     holds the namespace path that must never be replaced.

   The fixtures are read from $ENTITLE_SRCDIR/test/data (make check sets
   it, distcheck included), else from the source tree this was built
   from.  */

#ifndef ENTITLE_TEST_DATADIR
#define ENTITLE_TEST_DATADIR "test/data"
#endif

enum fixture
{
  RUNC,
  DOCKER,
  NOSECCOMP,
  N_FIXTURES
};

static const char *const fixture_file[N_FIXTURES] = { "runc-spec.json", "docker-expanded.json",
                                                      "no-seccomp.json" };

static const char *const cap_sets[5] = { "bounding", "effective", "inheritable", "permitted", "ambient" };

/* What the fixtures hold, written out.  */
#define RUNC_CAPS   "CAP_AUDIT_WRITE CAP_KILL CAP_NET_BIND_SERVICE"
#define DOCKER_CAPS "CAP_CHOWN CAP_DAC_OVERRIDE CAP_FSETID CAP_FOWNER CAP_MKNOD CAP_NET_RAW CAP_SETGID " \
                    "CAP_SETUID CAP_SETFCAP CAP_SETPCAP CAP_NET_BIND_SERVICE CAP_SYS_CHROOT CAP_KILL "   \
                    "CAP_AUDIT_WRITE"
#define RUNC_MASKED "/proc/acpi /proc/asound /proc/kcore /proc/keys /proc/latency_stats /proc/timer_list " \
                    "/proc/timer_stats /proc/sched_debug /sys/firmware /proc/scsi"
#define DOCKER_MASKED "/proc/asound /proc/acpi /proc/kcore /proc/keys /proc/latency_stats /proc/timer_list " \
                      "/proc/timer_stats /proc/sched_debug /proc/scsi /sys/firmware /sys/devices/virtual/powercap"
#define READONLY   "/proc/bus /proc/fs /proc/irq /proc/sys /proc/sysrq-trigger"
#define NETNS_PATH "/proc/4242/ns/net"

/* The device rules of the fixtures, and what host.devices.* make of them.  */
#define DENY_ALL       "{\"allow\": false, \"access\": \"rwm\"}"
#define DEV(t, ma, mi) "{\"allow\": true, \"type\": \"" t "\", \"major\": " #ma ", \"minor\": " #mi ", \"access\": \"rwm\"}"
#define RUNC_DEVICES   "[" DENY_ALL "]"
#define DOCKER_DEVICE_RULES                                                                                                                   \
  DENY_ALL ", " DEV ("c", 1, 5) ", " DEV ("c", 1, 3) ", " DEV ("c", 1, 9) ", " DEV ("c", 1, 8) ", " DEV ("c", 5, 0) ", " DEV ("c", 5, 1) ", " \
                                                                                                                                         "{\"allow\": false, \"type\": \"c\", \"major\": 10, \"minor\": 229, \"access\": \"rwm\"}, " DEV ("c", 10, 200)
#define DOCKER_DEVICES "[" DOCKER_DEVICE_RULES "]"
/* host.devices.none: deny all, then the runtime spec's default devices.  */
#define DEFAULT_DEVICES                                                                                                                                                                     \
  "[" DENY_ALL ", " DEV ("c", 1, 3) ", " DEV ("c", 1, 5) ", " DEV ("c", 1, 7) ", " DEV ("c", 1, 8) ", " DEV ("c", 1, 9) ", " DEV ("c", 5, 0) ", " DEV ("c", 5, 1) ", " DEV ("c", 5, 2) ", " \
                                                                                                                                                                                       "{\"allow\": true, \"type\": \"c\", \"major\": 136, \"access\": \"rwm\"}]"
/* host.devices.admin: every device, as the last rule.  */
#define ALLOW_ALL "{\"allow\": true, \"access\": \"rwm\"}"

/* Seccomp: what the rules that name a syscall say, one string per rule,
   " || " between rules (compared in any order): "*" allowed whatever the
   arguments, "a0==1 && a1&0xf==2" allowed under these conditions, "E38"
   an errno rule; "" no rule at all (the default action, ERRNO/EPERM in
   every profile here).  */
struct sc
{
  const char *name, *rules;
};

#define SOCKET_DOCKER      "a0<38 || a0==39 || a0>40"
#define PERSONALITY_DOCKER "a0==0 || a0==8 || a0==131072 || a0==131080 || a0==4294967295"
#define PERSONALITY_LINUX  "a0==0 || a0==4294967295"
#define CLONE_NO_NS        "a0&0x7e020000==0"
#define SOCKET_UNIX        "a0==1"
/* network.user: unix, netlink, and inet/inet6 stream, datagram and
   seqpacket sockets (no SOCK_RAW, no AF_PACKET).  */
#define SOCKET_USER                                                                       \
  "a0==1 || a0==16 || a0==2 && a1&0xf==1 || a0==2 && a1&0xf==2 || a0==2 && a1&0xf==5 || " \
  "a0==10 && a1&0xf==1 || a0==10 && a1&0xf==2 || a0==10 && a1&0xf==5"
/* host.devices.none: no character or block device nodes.  */
#define MKNOD_NO_DEV   "a1&0xf000==0 || a1&0xf000==32768 || a1&0xf000==4096 || a1&0xf000==49152"
#define MKNODAT_NO_DEV "a2&0xf000==0 || a2&0xf000==32768 || a2&0xf000==4096 || a2&0xf000==49152"

/* The syscalls every row checks, and what each profile says of them
   before any entitlement: moby's profile for Docker's 14 capabilities
   (ptrace and process_vm_* from its "minKernel 4.8" rule, chroot for
   CAP_SYS_CHROOT), and the profile entitle generates for the runc spec's
   and Docker's capabilities (x86_64).  */
static const struct sc docker_profile[] = {
  { "read", "*" },
  { "socket", SOCKET_DOCKER },
  { "socketpair", "*" },
  { "socketcall", "*" },
  { "mount", "" },
  { "umount2", "" },
  { "unshare", "" },
  { "setns", "" },
  { "clone", CLONE_NO_NS },
  { "clone3", "E38" },
  { "ptrace", "*" },
  { "process_vm_readv", "*" },
  { "process_vm_writev", "*" },
  { "kcmp", "" },
  { "bpf", "" },
  { "perf_event_open", "" },
  { "keyctl", "" },
  { "add_key", "" },
  { "request_key", "" },
  { "io_uring_setup", "" },
  { "userfaultfd", "" },
  { "kexec_load", "" },
  { "kexec_file_load", "" },
  { "init_module", "" },
  { "finit_module", "" },
  { "delete_module", "" },
  { "reboot", "" },
  { "mknod", "*" },
  { "mknodat", "*" },
  { "personality", PERSONALITY_DOCKER },
  { "mlock", "*" },
  { "mlockall", "*" },
  { "clock_settime", "" },
  { "chroot", "*" },
  { "syslog", "" },
  { "sethostname", "" },
  { "acct", "" },
  { "iopl", "" },
  { "open_by_handle_at", "" },
  { "get_mempolicy", "" },
  { "fsopen", "" },
  { "vhangup", "" },
  { NULL, NULL },
};

/* Generated for Docker's capabilities: as moby's, but socket() for every
   family.  */
static const struct sc generated_docker[] = {
  { "read", "*" },
  { "socket", "*" },
  { "socketpair", "*" },
  { "socketcall", "*" },
  { "mount", "" },
  { "umount2", "" },
  { "unshare", "" },
  { "setns", "" },
  { "clone", CLONE_NO_NS },
  { "clone3", "E38" },
  { "ptrace", "*" },
  { "process_vm_readv", "*" },
  { "process_vm_writev", "*" },
  { "kcmp", "" },
  { "bpf", "" },
  { "perf_event_open", "" },
  { "keyctl", "" },
  { "add_key", "" },
  { "request_key", "" },
  { "io_uring_setup", "" },
  { "userfaultfd", "" },
  { "kexec_load", "" },
  { "kexec_file_load", "" },
  { "init_module", "" },
  { "finit_module", "" },
  { "delete_module", "" },
  { "reboot", "" },
  { "mknod", "*" },
  { "mknodat", "*" },
  { "personality", PERSONALITY_DOCKER },
  { "mlock", "*" },
  { "mlockall", "*" },
  { "clock_settime", "" },
  { "chroot", "*" },
  { "syslog", "" },
  { "sethostname", "" },
  { "acct", "" },
  { "iopl", "" },
  { "open_by_handle_at", "" },
  { "get_mempolicy", "" },
  { "fsopen", "" },
  { "vhangup", "" },
  { NULL, NULL },
};

/* Generated for the runc spec's capabilities: no CAP_SYS_CHROOT.  */
static const struct sc generated_runc[] = {
  { "read", "*" },
  { "socket", "*" },
  { "socketpair", "*" },
  { "socketcall", "*" },
  { "mount", "" },
  { "umount2", "" },
  { "unshare", "" },
  { "setns", "" },
  { "clone", CLONE_NO_NS },
  { "clone3", "E38" },
  { "ptrace", "*" },
  { "process_vm_readv", "*" },
  { "process_vm_writev", "*" },
  { "kcmp", "" },
  { "bpf", "" },
  { "perf_event_open", "" },
  { "keyctl", "" },
  { "add_key", "" },
  { "request_key", "" },
  { "io_uring_setup", "" },
  { "userfaultfd", "" },
  { "kexec_load", "" },
  { "kexec_file_load", "" },
  { "init_module", "" },
  { "finit_module", "" },
  { "delete_module", "" },
  { "reboot", "" },
  { "mknod", "*" },
  { "mknodat", "*" },
  { "personality", PERSONALITY_DOCKER },
  { "mlock", "*" },
  { "mlockall", "*" },
  { "clock_settime", "" },
  { "chroot", "" },
  { "syslog", "" },
  { "sethostname", "" },
  { "acct", "" },
  { "iopl", "" },
  { "open_by_handle_at", "" },
  { "get_mempolicy", "" },
  { "fsopen", "" },
  { "vhangup", "" },
  { NULL, NULL },
};

enum profile
{
  UNCHANGED, /* linux.seccomp as the fixture has it (or none) */
  EDITED,    /* the fixture's profile, edited */
  GENERATED, /* none in the fixture: generated */
};

/* What one entitlement does to one fixture.  Capability sets are lists
   separated by spaces, NULL when the set is absent; a capability that
   entitle's own bounding set lacks is left out (DESIGN §2), so the test
   drops such an added one from what it expects.  Paths: NULL unchanged,
   else edits of the fixture's list: "+P" appended, "-P" removed, "="
   alone an empty list.  */
struct row
{
  const char *ent;
  enum fixture fixture;
  const char *bounding, *effective, *inheritable, *permitted, *ambient;
  bool nnp;
  bool netns, pidns;
  const char *masked, *readonly;
  const char *devices; /* NULL: unchanged; else the exact JSON array */
  bool lsm_unconfined;
  bool cgroupns; /* a cgroup namespace added where the fixture has none (FX_HOLD) */
  enum profile profile;
  bool native_abi;       /* the profile lists the native architecture only (socket rules) */
  struct sc seccomp[32]; /* differences from the baseline of the profile */
};

/* The same list in bounding, effective and permitted; runc's ambient set
   as the fixture has it (root keeps what it adds through permitted), or
   with what is dropped taken out of it too.  */
#define BEP(l) .bounding = l, .effective = l, .permitted = l

#define RUNC_SETS(l)   BEP (l), .inheritable = NULL, .ambient = RUNC_CAPS
#define RUNC_DROPS(l)  BEP (l), .inheritable = NULL, .ambient = l
#define DOCKER_SETS(l) BEP (l), .inheritable = NULL, .ambient = NULL

/* Docker's capabilities less some, written out.  */
#define DOCKER_NO_NET_RAW_BIND                                                                    \
  "CAP_CHOWN CAP_DAC_OVERRIDE CAP_FSETID CAP_FOWNER CAP_MKNOD CAP_SETGID CAP_SETUID CAP_SETFCAP " \
  "CAP_SETPCAP CAP_SYS_CHROOT CAP_KILL CAP_AUDIT_WRITE"
#define DOCKER_CONFINED \
  "CAP_CHOWN CAP_FOWNER CAP_MKNOD CAP_NET_RAW CAP_NET_BIND_SERVICE CAP_SYS_CHROOT CAP_KILL CAP_AUDIT_WRITE"
#define DOCKER_NO_NET_RAW                                                                         \
  "CAP_CHOWN CAP_DAC_OVERRIDE CAP_FSETID CAP_FOWNER CAP_MKNOD CAP_SETGID CAP_SETUID CAP_SETFCAP " \
  "CAP_SETPCAP CAP_NET_BIND_SERVICE CAP_SYS_CHROOT CAP_KILL CAP_AUDIT_WRITE"
#define DOCKER_NO_MKNOD                                                                             \
  "CAP_CHOWN CAP_DAC_OVERRIDE CAP_FSETID CAP_FOWNER CAP_NET_RAW CAP_SETGID CAP_SETUID CAP_SETFCAP " \
  "CAP_SETPCAP CAP_NET_BIND_SERVICE CAP_SYS_CHROOT CAP_KILL CAP_AUDIT_WRITE"

#define NET_ADMIN_CAPS "CAP_NET_ADMIN CAP_NET_RAW CAP_NET_BIND_SERVICE CAP_NET_BROADCAST"
/* libentitlement's 25 admin capabilities but CAP_SYS_MODULE.  */
#define SECURITY_ADMIN_CAPS                                                                      \
  "CAP_MAC_ADMIN CAP_MAC_OVERRIDE CAP_DAC_OVERRIDE CAP_DAC_READ_SEARCH CAP_SETPCAP CAP_SETFCAP " \
  "CAP_SETUID CAP_SETGID CAP_SYS_PTRACE CAP_FSETID CAP_SYSLOG CAP_SYS_RAWIO CAP_SYS_ADMIN "      \
  "CAP_LINUX_IMMUTABLE CAP_SYS_BOOT CAP_SYS_NICE CAP_SYS_PACCT CAP_SYS_TTY_CONFIG CAP_SYS_TIME " \
  "CAP_WAKE_ALARM CAP_AUDIT_READ CAP_AUDIT_WRITE CAP_AUDIT_CONTROL CAP_SYS_RESOURCE"

/* The paths some rows touch.  */
#define MASK_NET    "+/proc/sys/net +/sys/class/net"
#define UNMASK_RUNC "-/proc/acpi -/proc/asound -/proc/latency_stats -/proc/timer_list -/proc/timer_stats " \
                    "-/proc/sched_debug -/proc/scsi"
#define UNMASK_DOCKER UNMASK_RUNC " -/sys/devices/virtual/powercap"

/* What CAP_SYS_ADMIN gates in moby's profile, allowed once it is added;
   clone with namespace flags, and clone3, with it.  Not bpf: a container
   that holds CAP_SYS_ADMIN is held from entitle's enforcement (FX_HOLD),
   which denies bpf and open_by_handle_at.  */
#define SYS_ADMIN_ALLOWED                                                                       \
  { "mount", "*" }, { "umount2", "*" }, { "unshare", "*" }, { "setns", "*" },                   \
      { "perf_event_open", "*" }, { "syslog", "*" }, { "sethostname", "*" }, { "fsopen", "*" }, \
      { "clone", "*" },                                                                         \
  {                                                                                             \
    "clone3", "*"                                                                               \
  }
/* What the other admin capabilities gate, and the keyrings, which
   security.admin allows.  */
#define SECURITY_ADMIN_ALLOWED                                                                      \
  SYS_ADMIN_ALLOWED, { "kcmp", "*" }, { "reboot", "*" }, { "clock_settime", "*" }, { "acct", "*" }, \
      { "iopl", "*" }, { "get_mempolicy", "*" }, { "vhangup", "*" }, { "keyctl", "*" },             \
      { "add_key", "*" },                                                                           \
  {                                                                                                 \
    "request_key", "*"                                                                              \
  }
/* security.insecure is not held (FX_PRIVILEGED): what its capabilities
   gate, bpf and open_by_handle_at included.  */
#define INSECURE_ALLOWED                  \
  SECURITY_ADMIN_ALLOWED, { "bpf", "*" }, \
  {                                       \
    "open_by_handle_at", "*"              \
  }
#define MODULES_ALLOWED \
  { "init_module", "*" }, { "finit_module", "*" }, { "delete_module", "*" }
/* security.confined and security.view: minus ptrace and its primitives
   process_vm_readv/writev, personality but PER_LINUX, and the rest, which
   no fixture allowed to begin with.  */
#define CONFINED_SECCOMP                                                     \
  { "ptrace", "" }, { "process_vm_readv", "" }, { "process_vm_writev", "" }, \
  {                                                                          \
    "personality", PERSONALITY_LINUX                                         \
  }

static const struct row rows[] = {
  /* network.none */
  { "network.none", RUNC, RUNC_DROPS ("CAP_AUDIT_WRITE CAP_KILL"),
    .nnp = true, .netns = true, .pidns = true, .masked = MASK_NET, .profile = GENERATED, .native_abi = true,
    .seccomp = { { "socket", SOCKET_UNIX }, { "socketpair", SOCKET_UNIX }, { "socketcall", "" } } },
  { "network.none", DOCKER, DOCKER_SETS (DOCKER_NO_NET_RAW_BIND), .netns = true, .pidns = true,
    .masked = MASK_NET, .profile = EDITED, .native_abi = true,
    .seccomp = { { "socket", SOCKET_UNIX }, { "socketpair", SOCKET_UNIX }, { "socketcall", "" } } },
  { "network.none", NOSECCOMP, DOCKER_SETS (DOCKER_NO_NET_RAW_BIND), .netns = true, .pidns = true,
    .masked = MASK_NET, .profile = GENERATED, .native_abi = true,
    .seccomp = { { "socket", SOCKET_UNIX }, { "socketpair", SOCKET_UNIX }, { "socketcall", "" } } },

  /* network.user */
  { "network.user", RUNC, RUNC_DROPS ("CAP_AUDIT_WRITE CAP_KILL"),
    .nnp = true, .netns = true, .pidns = true, .profile = GENERATED, .native_abi = true,
    .seccomp = { { "socket", SOCKET_USER }, { "socketcall", "" } } },
  { "network.user", DOCKER, DOCKER_SETS (DOCKER_NO_NET_RAW_BIND), .netns = true, .pidns = true, .profile = EDITED, .native_abi = true,
    .seccomp = { { "socket", SOCKET_USER }, { "socketcall", "" } } },
  { "network.user", NOSECCOMP, DOCKER_SETS (DOCKER_NO_NET_RAW_BIND), .netns = true, .pidns = true,
    .profile = GENERATED, .native_abi = true, .seccomp = { { "socket", SOCKET_USER }, { "socketcall", "" } } },

  /* network.egress: no raw sockets, so no CAP_NET_RAW (nor CAP_NET_ADMIN,
     which no fixture has); nothing either gates in a profile.  */
  { "network.egress=10.0.0.0/8:443", RUNC, RUNC_SETS (RUNC_CAPS), .nnp = true, .netns = true, .pidns = true,
    .profile = UNCHANGED },
  { "network.egress=10.0.0.0/8:443", DOCKER, DOCKER_SETS (DOCKER_NO_NET_RAW), .netns = true, .pidns = true,
    .profile = UNCHANGED },
  { "network.egress=10.0.0.0/8:443", NOSECCOMP, DOCKER_SETS (DOCKER_NO_NET_RAW), .netns = true, .pidns = true,
    .profile = UNCHANGED },

  /* network.ingress: the same, for the sources that reach the container
     (raw and packet sockets would read past the programs).  */
  { "network.ingress=10.0.0.0/8:8080", RUNC, RUNC_SETS (RUNC_CAPS), .nnp = true, .netns = true, .pidns = true,
    .profile = UNCHANGED },
  { "network.ingress=10.0.0.0/8:8080", DOCKER, DOCKER_SETS (DOCKER_NO_NET_RAW), .netns = true, .pidns = true,
    .profile = UNCHANGED },
  { "network.ingress=10.0.0.0/8:8080", NOSECCOMP, DOCKER_SETS (DOCKER_NO_NET_RAW), .netns = true, .pidns = true,
    .profile = UNCHANGED },

  /* network.proxy: nothing its capabilities gate; no restriction, so no
     profile where there was none.  */
  { "network.proxy", RUNC, RUNC_SETS (RUNC_CAPS " CAP_NET_RAW CAP_NET_BROADCAST"), .nnp = true, .netns = true,
    .pidns = true, .profile = UNCHANGED },
  { "network.proxy", DOCKER, DOCKER_SETS (DOCKER_CAPS " CAP_NET_BROADCAST"), .netns = true, .pidns = true,
    .profile = UNCHANGED },
  { "network.proxy", NOSECCOMP, DOCKER_SETS (DOCKER_CAPS " CAP_NET_BROADCAST"), .netns = true, .pidns = true,
    .profile = UNCHANGED },

  /* network.admin */
  { "network.admin", RUNC, RUNC_SETS (RUNC_CAPS " CAP_NET_ADMIN CAP_NET_RAW CAP_NET_BROADCAST"), .nnp = true,
    .netns = true, .pidns = true, .profile = UNCHANGED },
  { "network.admin", DOCKER, DOCKER_SETS (DOCKER_CAPS " CAP_NET_ADMIN CAP_NET_BROADCAST"), .netns = true,
    .pidns = true, .profile = UNCHANGED },
  { "network.admin", NOSECCOMP, DOCKER_SETS (DOCKER_CAPS " CAP_NET_ADMIN CAP_NET_BROADCAST"), .netns = true,
    .pidns = true, .profile = UNCHANGED },

  /* network.host: as network.admin, without the network namespace (even
     one given by path).  */
  { "network.host", RUNC, RUNC_SETS (RUNC_CAPS " CAP_NET_ADMIN CAP_NET_RAW CAP_NET_BROADCAST"), .nnp = true,
    .netns = false, .pidns = true, .profile = UNCHANGED },
  { "network.host", DOCKER, DOCKER_SETS (DOCKER_CAPS " CAP_NET_ADMIN CAP_NET_BROADCAST"), .netns = false,
    .pidns = true, .profile = UNCHANGED },
  { "network.host", NOSECCOMP, DOCKER_SETS (DOCKER_CAPS " CAP_NET_ADMIN CAP_NET_BROADCAST"), .netns = false,
    .pidns = true, .profile = UNCHANGED },

  /* security.confined: /proc/sys is read-only in every fixture already.  */
  { "security.confined", RUNC, RUNC_SETS (RUNC_CAPS), .nnp = true, .netns = true, .pidns = true,
    .profile = GENERATED, .seccomp = { CONFINED_SECCOMP } },
  { "security.confined", DOCKER, DOCKER_SETS (DOCKER_CONFINED), .nnp = true, .netns = true, .pidns = true,
    .profile = EDITED, .seccomp = { CONFINED_SECCOMP } },
  { "security.confined", NOSECCOMP, DOCKER_SETS (DOCKER_CONFINED), .nnp = true, .netns = true, .pidns = true,
    .profile = GENERATED, .seccomp = { CONFINED_SECCOMP } },

  /* security.view: as confined (Docker has neither CAP_DAC_READ_SEARCH
     nor CAP_AUDIT_READ).  */
  { "security.view", RUNC, RUNC_SETS (RUNC_CAPS), .nnp = true, .netns = true, .pidns = true,
    .profile = GENERATED, .seccomp = { CONFINED_SECCOMP } },
  { "security.view", DOCKER, DOCKER_SETS (DOCKER_CONFINED), .nnp = true, .netns = true, .pidns = true,
    .profile = EDITED, .seccomp = { CONFINED_SECCOMP } },
  { "security.view", NOSECCOMP, DOCKER_SETS (DOCKER_CONFINED), .nnp = true, .netns = true, .pidns = true,
    .profile = GENERATED, .seccomp = { CONFINED_SECCOMP } },

  /* security.admin: kexec and modules still denied, which makes a
     profile where there was none; held (bpf and open_by_handle_at
     denied, a cgroup namespace of its own).  */
  { "security.admin", RUNC, RUNC_SETS (RUNC_CAPS " " SECURITY_ADMIN_CAPS), .nnp = true, .netns = true,
    .pidns = true, .readonly = "=", .lsm_unconfined = true, .cgroupns = true, .profile = GENERATED,
    .seccomp = { SECURITY_ADMIN_ALLOWED } },
  { "security.admin", DOCKER, DOCKER_SETS (DOCKER_CAPS " " SECURITY_ADMIN_CAPS), .netns = true, .pidns = true,
    .readonly = "=", .lsm_unconfined = true, .cgroupns = true, .profile = EDITED, .seccomp = { SECURITY_ADMIN_ALLOWED } },
  { "security.admin", NOSECCOMP, DOCKER_SETS (DOCKER_CAPS " " SECURITY_ADMIN_CAPS), .netns = true, .pidns = true,
    .readonly = "=", .lsm_unconfined = true, .cgroupns = true, .profile = GENERATED, .seccomp = { SECURITY_ADMIN_ALLOWED } },

  /* security.memory-lock: the mlock family is allowed everywhere here
     already.  */
  { "security.memory-lock", RUNC, RUNC_SETS (RUNC_CAPS " CAP_IPC_LOCK"), .nnp = true, .netns = true,
    .pidns = true, .profile = UNCHANGED },
  { "security.memory-lock", DOCKER, DOCKER_SETS (DOCKER_CAPS " CAP_IPC_LOCK"), .netns = true, .pidns = true,
    .profile = UNCHANGED },
  { "security.memory-lock", NOSECCOMP, DOCKER_SETS (DOCKER_CAPS " CAP_IPC_LOCK"), .netns = true, .pidns = true,
    .profile = UNCHANGED },

  /* security.insecure: every admin rung.  */
  { "security.insecure", RUNC,
    RUNC_SETS (RUNC_CAPS " " SECURITY_ADMIN_CAPS " " NET_ADMIN_CAPS " CAP_MKNOD CAP_SYS_MODULE"), .nnp = true,
    .netns = true, .pidns = true, .masked = UNMASK_RUNC, .readonly = "=", .devices = "[" DENY_ALL ", " ALLOW_ALL "]",
    .lsm_unconfined = true, .profile = UNCHANGED },
  { "security.insecure", DOCKER,
    DOCKER_SETS (DOCKER_CAPS " " SECURITY_ADMIN_CAPS " " NET_ADMIN_CAPS " CAP_SYS_MODULE"), .netns = true,
    .pidns = true, .masked = UNMASK_DOCKER, .readonly = "=", .devices = "[" DOCKER_DEVICE_RULES ", " ALLOW_ALL "]",
    .lsm_unconfined = true, .profile = EDITED, .seccomp = { INSECURE_ALLOWED, MODULES_ALLOWED } },
  { "security.insecure", NOSECCOMP,
    DOCKER_SETS (DOCKER_CAPS " " SECURITY_ADMIN_CAPS " " NET_ADMIN_CAPS " CAP_SYS_MODULE"), .netns = true,
    .pidns = true, .masked = UNMASK_DOCKER, .readonly = "=", .devices = "[" DOCKER_DEVICE_RULES ", " ALLOW_ALL "]",
    .lsm_unconfined = true, .profile = UNCHANGED },

  /* host.devices.none: /sys read-only, /proc/kcore masked already.  */
  { "host.devices.none", RUNC, RUNC_SETS (RUNC_CAPS), .nnp = true, .netns = true, .pidns = true,
    .readonly = "+/sys", .devices = DEFAULT_DEVICES, .profile = GENERATED,
    .seccomp = { { "mknod", MKNOD_NO_DEV }, { "mknodat", MKNODAT_NO_DEV } } },
  { "host.devices.none", DOCKER, DOCKER_SETS (DOCKER_NO_MKNOD), .netns = true, .pidns = true, .readonly = "+/sys",
    .devices = DEFAULT_DEVICES, .profile = EDITED,
    .seccomp = { { "mknod", MKNOD_NO_DEV }, { "mknodat", MKNODAT_NO_DEV } } },
  { "host.devices.none", NOSECCOMP, DOCKER_SETS (DOCKER_NO_MKNOD), .netns = true, .pidns = true,
    .readonly = "+/sys", .devices = DEFAULT_DEVICES, .profile = GENERATED,
    .seccomp = { { "mknod", MKNOD_NO_DEV }, { "mknodat", MKNODAT_NO_DEV } } },

  /* host.devices.admin: kernel memory and firmware stay masked; held, as
     security.admin, which makes a profile where there was none.  */
  { "host.devices.admin", RUNC, RUNC_SETS (RUNC_CAPS " CAP_SYS_ADMIN CAP_MKNOD"), .nnp = true, .netns = true,
    .pidns = true, .masked = UNMASK_RUNC, .devices = "[" DENY_ALL ", " ALLOW_ALL "]", .cgroupns = true,
    .profile = GENERATED, .seccomp = { SYS_ADMIN_ALLOWED } },
  { "host.devices.admin", DOCKER, DOCKER_SETS (DOCKER_CAPS " CAP_SYS_ADMIN"), .netns = true, .pidns = true,
    .masked = UNMASK_DOCKER, .devices = "[" DOCKER_DEVICE_RULES ", " ALLOW_ALL "]", .cgroupns = true,
    .profile = EDITED, .seccomp = { SYS_ADMIN_ALLOWED } },
  { "host.devices.admin", NOSECCOMP, DOCKER_SETS (DOCKER_CAPS " CAP_SYS_ADMIN"), .netns = true, .pidns = true,
    .masked = UNMASK_DOCKER, .devices = "[" DOCKER_DEVICE_RULES ", " ALLOW_ALL "]", .cgroupns = true,
    .profile = GENERATED, .seccomp = { SYS_ADMIN_ALLOWED } },

  /* host.modules.admin */
  { "host.modules.admin", RUNC, RUNC_SETS (RUNC_CAPS " CAP_SYS_MODULE"), .nnp = true, .netns = true, .pidns = true,
    .profile = UNCHANGED },
  { "host.modules.admin", DOCKER, DOCKER_SETS (DOCKER_CAPS " CAP_SYS_MODULE"), .netns = true, .pidns = true,
    .profile = EDITED, .seccomp = { MODULES_ALLOWED } },
  { "host.modules.admin", NOSECCOMP, DOCKER_SETS (DOCKER_CAPS " CAP_SYS_MODULE"), .netns = true, .pidns = true,
    .profile = UNCHANGED },

  /* host.processes.none: every fixture has a pid namespace already.  */
  { "host.processes.none", RUNC, RUNC_SETS (RUNC_CAPS), .nnp = true, .netns = true, .pidns = true,
    .profile = UNCHANGED },
  { "host.processes.none", DOCKER, DOCKER_SETS (DOCKER_CAPS), .netns = true, .pidns = true, .profile = UNCHANGED },
  { "host.processes.none", NOSECCOMP, DOCKER_SETS (DOCKER_CAPS), .netns = true, .pidns = true, .profile = UNCHANGED },

  /* host.processes.admin */
  { "host.processes.admin", RUNC, RUNC_SETS (RUNC_CAPS), .nnp = true, .netns = true, .pidns = false,
    .profile = UNCHANGED },
  { "host.processes.admin", DOCKER, DOCKER_SETS (DOCKER_CAPS), .netns = true, .pidns = false, .profile = UNCHANGED },
  { "host.processes.admin", NOSECCOMP, DOCKER_SETS (DOCKER_CAPS), .netns = true, .pidns = false,
    .profile = UNCHANGED },
};

/* The modifiers that only change the hooks (tested on their own below).  */
static const char *const modifiers[] = { "network.bind=8080", "network.bind-map=80:8080" };

/* Is the entitlement @name tested here: in the table above, or among the
   modifiers?  */
static bool
covered (const char *name)
{
  size_t i, len = strlen (name);

  for (i = 0; i < sizeof (rows) / sizeof (rows[0]); i++)
    if (strncmp (rows[i].ent, name, len) == 0 && (rows[i].ent[len] == '\0' || rows[i].ent[len] == '='))
      return true;
  for (i = 0; i < sizeof (modifiers) / sizeof (modifiers[0]); i++)
    if (strncmp (modifiers[i], name, len) == 0 && modifiers[i][len] == '=')
      return true;
  return false;
}

static struct entitle_log_s test_log = { .path = NULL };

/* Helpers.  */

static json_t *
load_fixture (enum fixture f)
{
  return load_test_data (fixture_file[f]);
}

static bool
entitle_holds (const char *name)
{
  cap_value_t v;
  return cap_from_name (name, &v) == 0 && prctl (PR_CAPBSET_READ, v, 0, 0, 0) == 1;
}

/* The words of @s (space-separated), sorted and unique.  */
static char **
words (const char *s)
{
  size_t n = 0, cap = 8;
  char **v = calloc (cap, sizeof (char *));
  const char *p = s;

  while (p && *p)
    {
      size_t k = strcspn (p, " ");
      if (k > 0)
        {
          if (n + 2 >= cap)
            v = realloc (v, (cap *= 2) * sizeof (char *));
          v[n++] = strndup (p, k);
        }
      p += k;
      p += strspn (p, " ");
    }
  entitle_strv_sort_uniq (v, n);
  return v;
}

static char *
join (char **v, const char *sep)
{
  size_t len = 1;
  char *out;

  for (char **p = v; *p; p++)
    len += strlen (*p) + strlen (sep);
  out = calloc (1, len);
  for (char **p = v; *p; p++)
    {
      if (p != v)
        strcat (out, sep);
      strcat (out, *p);
    }
  return out;
}

/* The strings of array @a, sorted and joined by spaces; NULL when @a is
   absent.  */
static char *
array_words (const json_t *a)
{
  size_t n = 0;
  char **v;
  char *out;

  if (a == NULL)
    return NULL;
  v = calloc (a->n + 1, sizeof (char *));
  for (size_t i = 0; i < a->n; i++)
    if (json_string (a->items[i]))
      v[n++] = strdup (json_string (a->items[i]));
  entitle_strv_sort_uniq (v, n);
  out = join (v, " ");
  cleanup_strvp (&v);
  return out;
}

/* The capability set @set as expected: the list written in the table,
   less the capabilities entitle cannot give (not in the fixture's own
   @base set, not in entitle's bounding set).  */
static char *
expected_caps (const char *list, const char *base)
{
  cleanup_strv char **v = NULL, **b = NULL;
  size_t i, j = 0;

  if (list == NULL)
    return NULL;
  v = words (list);
  b = words (base);
  for (i = 0; v[i]; i++)
    if (entitle_strv_has (b, v[i]) || entitle_holds (v[i]))
      v[j++] = v[i];
    else
      free (v[i]);
  v[j] = NULL;
  return join (v, " ");
}

static const char *
row_set (const struct row *r, size_t i)
{
  const char *const s[5] = { r->bounding, r->effective, r->inheritable, r->permitted, r->ambient };
  return s[i];
}

static void
assert_caps (const struct row *r, const json_t *orig, const json_t *spec)
{
  const json_t *ob = json_get (json_get (orig, "process"), "capabilities");
  const json_t *caps = json_get (json_get (spec, "process"), "capabilities");
  size_t i;

  for (i = 0; i < 5; i++)
    {
      cleanup_free char *base = array_words (json_get (ob, cap_sets[i]));
      cleanup_free char *want = expected_caps (row_set (r, i), base);
      cleanup_free char *got = array_words (json_get (caps, cap_sets[i]));

      if ((want == NULL) != (got == NULL) || (want && strcmp (want, got) != 0))
        fail_msg ("%s on %s: %s: expected `%s`, got `%s`", r->ent, fixture_file[r->fixture], cap_sets[i],
                  want ? want : "(absent)", got ? got : "(absent)");
    }
}

/* Apply the edits @edits ("+P", "-P", "=") to the strings of @base, in
   order.  */
static json_t *
edited_paths (const json_t *base, const char *edits)
{
  json_t *out = base ? json_clone (base) : json_new (JSON_ARRAY);
  cleanup_strv char **v = NULL;
  const char *p = edits;

  if (edits == NULL)
    return out;
  while (*p)
    {
      size_t k = strcspn (p, " ");
      cleanup_free char *w = strndup (p, k);
      if (strcmp (w, "=") == 0)
        while (out->n)
          json_remove_at (out, 0);
      else if (w[0] == '+')
        json_push (out, json_new_string (w + 1));
      else if (w[0] == '-')
        {
          long at = json_array_find_string (out, w + 1);
          if (at < 0)
            fail_msg ("test table: `%s` is not in the fixture", w + 1);
          json_remove_at (out, (size_t)at);
        }
      p += k;
      p += strspn (p, " ");
    }
  return out;
}

static void
assert_paths (const struct row *r, const json_t *orig, const json_t *spec, const char *key, const char *edits)
{
  cleanup_json json_t *want = edited_paths (json_get (json_get (orig, "linux"), key), edits);
  const json_t *got = json_get (json_get (spec, "linux"), key);

  if (!json_equal (want, got))
    {
      cleanup_free char *w = array_words (want), *g = array_words (got);
      fail_msg ("%s on %s: %s: expected `%s`, got `%s`", r->ent, fixture_file[r->fixture], key, w,
                g ? g : "(absent)");
    }
}

static const json_t *
namespace_of (const json_t *spec, const char *type, size_t *count)
{
  const json_t *ns = json_get (json_get (spec, "linux"), "namespaces"), *found = NULL;
  size_t i;

  *count = 0;
  for (i = 0; ns && i < ns->n; i++)
    {
      const char *t = json_string (json_get (ns->items[i], "type"));
      if (t && strcmp (t, type) == 0)
        {
          found = ns->items[i];
          (*count)++;
        }
    }
  return found;
}

static void
assert_namespace (const struct row *r, const json_t *orig, const json_t *spec, const char *type, bool present)
{
  size_t n_orig, n;
  const json_t *before = namespace_of (orig, type, &n_orig);
  const json_t *after = namespace_of (spec, type, &n);

  if (!present)
    {
      if (n != 0)
        fail_msg ("%s on %s: the %s namespace is still there", r->ent, fixture_file[r->fixture], type);
      return;
    }
  if (n != 1)
    fail_msg ("%s on %s: %zu %s namespaces", r->ent, fixture_file[r->fixture], n, type);
  /* The fixture's own, path and all, is never replaced.  */
  if (before && !json_equal (before, after))
    fail_msg ("%s on %s: the %s namespace was replaced", r->ent, fixture_file[r->fixture], type);
}

static bool
is_true (const json_t *v)
{
  return v && v->type == JSON_TRUE;
}

/* One argument condition as "a1&0xf==2".  */
static void
render_cond (const json_t *a, char *buf, size_t size)
{
  const char *op = json_string (json_get (a, "op"));
  const json_t *index = json_get (a, "index"), *value = json_get (a, "value"), *two = json_get (a, "valueTwo");
  const char *i = index ? index->text : "?", *v = value ? value->text : "0", *v2 = two ? two->text : "0";

  if (op == NULL)
    snprintf (buf, size, "a%s??", i);
  else if (strcmp (op, "SCMP_CMP_MASKED_EQ") == 0)
    snprintf (buf, size, "a%s&0x%llx==%s", i, strtoull (v, NULL, 10), v2);
  else
    {
      static const char *const ops[][2] = { { "SCMP_CMP_EQ", "==" }, { "SCMP_CMP_NE", "!=" }, { "SCMP_CMP_LT", "<" }, { "SCMP_CMP_LE", "<=" }, { "SCMP_CMP_GT", ">" }, { "SCMP_CMP_GE", ">=" } };
      const char *sym = op;
      for (size_t k = 0; k < sizeof (ops) / sizeof (ops[0]); k++)
        if (strcmp (op, ops[k][0]) == 0)
          sym = ops[k][1];
      snprintf (buf, size, "a%s%s%s", i, sym, v);
    }
}

/* Every rule of @seccomp that names @name, rendered, sorted, joined by
   " || ".  */
static char *
render_syscall (const json_t *seccomp, const char *name)
{
  const json_t *syscalls = json_get (seccomp, "syscalls");
  char **v = calloc (syscalls ? syscalls->n + 1 : 1, sizeof (char *));
  size_t i, n = 0;
  char *out;

  for (i = 0; syscalls && i < syscalls->n; i++)
    {
      const json_t *r = syscalls->items[i], *args = json_get (r, "args");
      char text[512] = "";
      size_t k;

      if (json_array_find_string (json_get (r, "names"), name) < 0)
        continue;
      if (!entitle_scmp_act_allows (entitle_scmp_act_of (r, "action")))
        {
          const json_t *e = json_get (r, "errnoRet");
          snprintf (text, sizeof (text), "E%s", e ? e->text : "");
        }
      else if (args == NULL || args->n == 0)
        strcpy (text, "*");
      for (k = 0; args && k < args->n; k++)
        {
          char c[128];
          render_cond (args->items[k], c, sizeof (c));
          if (text[0])
            strncat (text, text[0] == 'E' && k == 0 ? ":" : " && ", sizeof (text) - strlen (text) - 1);
          strncat (text, c, sizeof (text) - strlen (text) - 1);
        }
      v[n++] = strdup (text);
    }
  entitle_strv_sort_uniq (v, n);
  out = join (v, " || ");
  cleanup_strvp (&v);
  return out;
}

/* @rules ("r || r"), sorted the same way.  */
static char *
normalize_rules (const char *rules)
{
  char **v = calloc (strlen (rules) + 2, sizeof (char *));
  const char *p = rules;
  size_t n = 0;
  char *out;

  while (*p)
    {
      const char *end = strstr (p, " || ");
      size_t k = end ? (size_t)(end - p) : strlen (p);
      v[n++] = strndup (p, k);
      p += k;
      if (end)
        p += 4;
    }
  entitle_strv_sort_uniq (v, n);
  out = join (v, " || ");
  cleanup_strvp (&v);
  return out;
}

static const char *
expected_rules (const struct row *r, const struct sc *baseline, const char *name)
{
  size_t i;
  for (i = 0; i < sizeof (r->seccomp) / sizeof (r->seccomp[0]) && r->seccomp[i].name; i++)
    if (strcmp (r->seccomp[i].name, name) == 0)
      return r->seccomp[i].rules;
  for (i = 0; baseline[i].name; i++)
    if (strcmp (baseline[i].name, name) == 0)
      return baseline[i].rules;
  fail_msg ("test table: no baseline for `%s`", name);
  return NULL;
}

static void
assert_syscalls (const char *what, const json_t *seccomp, const struct row *r, const struct sc *baseline)
{
  size_t i;

  /* Every name the row mentions is one the baseline checks.  */
  for (i = 0; i < sizeof (r->seccomp) / sizeof (r->seccomp[0]) && r->seccomp[i].name; i++)
    {
      bool known = false;
      for (size_t k = 0; baseline[k].name; k++)
        known |= strcmp (baseline[k].name, r->seccomp[i].name) == 0;
      if (!known)
        fail_msg ("test table: no baseline for `%s`", r->seccomp[i].name);
    }
  for (i = 0; baseline[i].name; i++)
    {
      cleanup_free char *want = normalize_rules (expected_rules (r, baseline, baseline[i].name));
      cleanup_free char *got = render_syscall (seccomp, baseline[i].name);
      if (strcmp (want, got) != 0)
        fail_msg ("%s: %s: expected `%s`, got `%s`", what, baseline[i].name, want, got);
    }
}

static bool
host_is_x86_64 (void)
{
#if defined(__x86_64__)
  return true;
#else
  return false;
#endif
}

static void
assert_seccomp (const struct row *r, const json_t *orig, const json_t *spec)
{
  const json_t *before = json_get (json_get (orig, "linux"), "seccomp");
  const json_t *after = json_get (json_get (spec, "linux"), "seccomp");
  char what[128];

  snprintf (what, sizeof (what), "%s on %s", r->ent, fixture_file[r->fixture]);
  switch (r->profile)
    {
    case UNCHANGED:
      if (!json_equal (before, after))
        fail_msg ("%s: linux.seccomp changed", what);
      return;
    case EDITED:
      assert_non_null (before);
      assert_non_null (after);
      assert_string_equal (json_string (json_get (after, "defaultAction")), "SCMP_ACT_ERRNO");
      assert_string_equal (json_get (after, "defaultErrnoRet")->text, "1");
      if (r->native_abi && host_is_x86_64 ())
        {
          cleanup_json json_t *native = parse_ok ("[\"SCMP_ARCH_X86_64\"]");
          assert_true (json_equal (native, json_get (after, "architectures")));
        }
      else if (!r->native_abi)
        assert_true (json_equal (json_get (before, "architectures"), json_get (after, "architectures")));
      assert_syscalls (what, after, r, docker_profile);
      return;
    case GENERATED:
      assert_null (before);
      if (after == NULL)
        fail_msg ("%s: no profile generated", what);
      assert_string_equal (json_string (json_get (after, "defaultAction")), "SCMP_ACT_ERRNO");
      assert_string_equal (json_get (after, "defaultErrnoRet")->text, "1");
      if (!host_is_x86_64 ())
        return; /* the baselines below are x86_64's */
      {
        cleanup_json json_t *archs
            = parse_ok (r->native_abi ? "[\"SCMP_ARCH_X86_64\"]"
                                      : "[\"SCMP_ARCH_X86_64\", \"SCMP_ARCH_X86\", \"SCMP_ARCH_X32\"]");
        assert_true (json_equal (archs, json_get (after, "architectures")));
      }
      assert_syscalls (what, after, r, r->fixture == RUNC ? generated_runc : generated_docker);
      return;
    }
}

/* The profile loads as runc and crun load it (seccomp-load.h).  */
static void
assert_runtimes_load (const char *ent, const char *fixture, const json_t *spec)
{
  const json_t *seccomp = json_get (json_get (spec, "linux"), "seccomp");
  char why[256];

  if (seccomp && seccomp_load_like_runc (seccomp, why, sizeof (why)) < 0)
    fail_msg ("%s on %s: the runtimes would refuse the profile: %s", ent, fixture, why);
}

static bool
apparmor_enabled (void)
{
  cleanup_file FILE *f = fopen ("/sys/module/apparmor/parameters/enabled", "re");
  return f && fgetc (f) == 'Y';
}

static void
assert_lsm (const struct row *r, const json_t *orig, const json_t *spec)
{
  const json_t *before = json_get (json_get (orig, "process"), "apparmorProfile");
  const json_t *after = json_get (json_get (spec, "process"), "apparmorProfile");

  if (r->lsm_unconfined && apparmor_enabled ())
    assert_string_equal (json_string (after), "unconfined");
  else if (!apparmor_enabled ())
    {
      /* A profile the host cannot apply is not kept in a rewrite.  */
      if (after != NULL)
        fail_msg ("%s on %s: apparmorProfile kept without AppArmor", r->ent, fixture_file[r->fixture]);
    }
  else if (!json_equal (before, after))
    fail_msg ("%s on %s: apparmorProfile changed", r->ent, fixture_file[r->fixture]);
}

static void
assert_devices (const struct row *r, const json_t *orig, const json_t *spec)
{
  const json_t *rb = json_get (json_get (orig, "linux"), "resources");
  const json_t *ra = json_get (json_get (spec, "linux"), "resources");
  cleanup_json json_t *want = r->devices ? parse_ok (r->devices) : json_clone (json_get (rb, "devices"));
  cleanup_json json_t *others_before = json_clone (rb), *others_after = json_clone (ra);

  if (!json_equal (want, json_get (ra, "devices")))
    {
      cleanup_free char *text = NULL;
      size_t len;
      entitle_error_t err = NULL;
      json_generate (json_get (ra, "devices"), &text, &len, &err);
      fail_msg ("%s on %s: devices: expected %s, got %s", r->ent, fixture_file[r->fixture], r->devices, text);
    }
  /* Never another resource.  */
  json_del (others_before, "devices");
  json_del (others_after, "devices");
  if (!json_equal (others_before, others_after))
    fail_msg ("%s on %s: linux.resources changed beyond devices", r->ent, fixture_file[r->fixture]);
}

/* The admin config that grants everything, by name where globs cannot.  */
static void
grant_all (struct entitle_config_s *cfg, bool warn)
{
  config_from (cfg, warn ? "{\"grant\": [\"*\", \"network.host\", \"security.insecure\"], "
                           "\"on_unenforceable\": \"warn\"}"
                         : "{\"grant\": [\"*\", \"network.host\", \"security.insecure\"]}");
}

static void
request (json_t *spec, const char *list)
{
  json_set (json_get_or_add (spec, "annotations", JSON_OBJECT), ENTITLE_ANNOTATION, json_new_string (list));
}

/* Rewrite @spec for the entitlements @list requests (NULL: as it
   requests them already), under @cfg.  */
static int
rewrite (const struct entitle_config_s *cfg, json_t *spec, const char *list, char **msg)
{
  struct entitle_ctx_s ctx;
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  entitle_error_t err = NULL;
  int ret;

  if (list)
    request (spec, list);
  entitle_ctx_init (&ctx, &test_log, cfg);
  ret = entitle_rewrite (&ctx, spec, &final, &err);
  entitle_ctx_release (&ctx);
  if (ret < 0)
    {
      if (msg == NULL)
        fail_msg ("%s: %s", list ? list : "(as requested)", err->msg);
      *msg = strdup (err->msg);
      entitle_error_release (&err);
    }
  return ret;
}

/* The fixture @f with @list compiled in, granted.  */
static json_t *
compiled (enum fixture f, const char *list)
{
  struct entitle_config_s cfg;
  json_t *spec = load_fixture (f);

  grant_all (&cfg, false);
  assert_int_equal (rewrite (&cfg, spec, list, NULL), 1);
  entitle_config_free (&cfg);
  return spec;
}

static char *
generate (const json_t *spec)
{
  char *text = NULL;
  size_t len;
  entitle_error_t err = NULL;

  assert_int_equal (json_generate (spec, &text, &len, &err), 0);
  return text;
}

/* The tests.  */

/* Every row that takes a value says what the code reading values does
   with it: Landlock's TCP rules (landlock.c), whether a custom row may
   imply it (custom.c), what `why` proposes (denial.c).  A new modifier
   that leaves one unsaid fails here, not silently there.  */
static void
test_catalogue_rows_say_value_decisions (void **state)
{
  const struct entitle_entry_s *all;
  size_t n, i;

  (void)state;
  all = entitle_catalogue_rows (NULL, &n);
  for (i = 0; i < n; i++)
    {
      const struct entitle_entry_s *e = &all[i];
      if (e->value == NULL)
        continue;
      if (e->landlock_tcp == LANDLOCK_TCP_UNSAID)
        fail_msg ("row `%s` takes a value but says no .landlock_tcp (LANDLOCK_TCP_NONE for none)", e->name);
      if (e->landlock_tcp != LANDLOCK_TCP_NONE && e->value->ports == NULL)
        fail_msg ("row `%s`: .landlock_tcp needs ports, and its value kind names none", e->name);
      if (e->custom_key == NULL)
        fail_msg ("row `%s` takes a value but says no .custom_key (ENTITLE_NOT_IMPLIED for none)", e->name);
      if (e->custom_key[0] && (e->rung != 0 || e->fill == NULL))
        fail_msg ("row `%s`: a custom row may imply a modifier the programs read only", e->name);
      if (e->why_value == WHY_VALUE_UNSAID)
        fail_msg ("row `%s` takes a value but says no .why_value (WHY_VALUE_NONE for none)", e->name);
      if (e->why_value == WHY_VALUE_ADDRESS && e->value != &entitle_value_cidr)
        fail_msg ("row `%s`: WHY_VALUE_ADDRESS proposes a CIDR, and its value is another kind", e->name);
      if (e->why_value == WHY_VALUE_PORT && e->value != &entitle_value_ports)
        fail_msg ("row `%s`: WHY_VALUE_PORT proposes a port range, and its value is another kind", e->name);
    }
}

static void
test_catalogue_rows_covered (void **state)
{
  const struct entitle_entry_s *all;
  size_t n, i, k;

  (void)state;
  all = entitle_catalogue_rows (NULL, &n);
  for (i = 0; i < n; i++)
    {
      bool found = strncmp (all[i].name, "fs.", 3) == 0 || covered (all[i].name);
      if (!found)
        fail_msg ("catalogue row `%s` has no test here", all[i].name);
      /* Three fixtures per rung, in the table.  */
      for (k = 0; !all[i].value && all[i].domain != DOMAIN_NONE && k < N_FIXTURES; k++)
        {
          bool has = false;
          for (size_t j = 0; j < sizeof (rows) / sizeof (rows[0]); j++)
            has |= rows[j].fixture == (enum fixture)k && strcmp (rows[j].ent, all[i].name) == 0;
          if (!has)
            fail_msg ("`%s` on %s: no row", all[i].name, fixture_file[k]);
        }
    }
}

static void
test_catalogue_fixtures (void **state)
{
  cleanup_json json_t *runc = load_fixture (RUNC);
  cleanup_json json_t *docker = load_fixture (DOCKER);
  cleanup_json json_t *nosec = load_fixture (NOSECCOMP);
  size_t n;

  (void)state;
  /* What the baselines above assume.  */
  assert_null (json_get (json_get (runc, "linux"), "seccomp"));
  assert_null (json_get (json_get (nosec, "linux"), "seccomp"));
  assert_non_null (json_get (json_get (docker, "linux"), "seccomp"));
  assert_string_equal (json_string (json_get (namespace_of (nosec, "network", &n), "path")), NETNS_PATH);
  assert_null (json_get (namespace_of (docker, "network", &n), "path"));
  {
    cleanup_json json_t *want = parse_ok (RUNC_DEVICES);
    assert_true (json_equal (want, json_get (json_get (json_get (runc, "linux"), "resources"), "devices")));
  }
  {
    cleanup_json json_t *want = parse_ok (DOCKER_DEVICES);
    assert_true (json_equal (want, json_get (json_get (json_get (docker, "linux"), "resources"), "devices")));
  }
  {
    cleanup_free char *want = NULL, *got = array_words (json_get (json_get (docker, "linux"), "maskedPaths"));
    cleanup_strv char **w = words (DOCKER_MASKED);
    want = join (w, " ");
    assert_string_equal (want, got);
  }
  {
    cleanup_free char *want = NULL, *got = array_words (json_get (json_get (runc, "linux"), "maskedPaths"));
    cleanup_strv char **w = words (RUNC_MASKED);
    want = join (w, " ");
    assert_string_equal (want, got);
  }
  {
    cleanup_free char *want = NULL, *got = array_words (json_get (json_get (runc, "linux"), "readonlyPaths"));
    cleanup_strv char **w = words (READONLY);
    want = join (w, " ");
    assert_string_equal (want, got);
  }
  /* moby's profile as the baseline says (the generated baselines are
     checked through the rows that generate a profile).  */
  {
    struct row none = { .ent = "(nothing)", .fixture = DOCKER };
    assert_syscalls ("docker-expanded.json", json_get (json_get (docker, "linux"), "seccomp"), &none,
                     docker_profile);
  }
}

/* The table: each entitlement alone, granted, on each fixture.  */
/* entitle-hook appended at createRuntime, once, exactly when the
   entitlement has a cgroup BPF part (DESIGN §4; no poststop: the runtime
   manages the cgroup, and the programs and policy go with it); the
   engine's own hooks (Docker's prestart) kept as they were.  Removes
   ours.  */
static void
assert_hooks (const char *ent, const char *fixture, const json_t *orig, json_t *spec)
{
  static const char *const stages[] = { "createRuntime" };
  const char *eq = strchr (ent, '=');
  const struct entitle_entry_s *row = entitle_catalogue_find (NULL, ent, eq ? (size_t)(eq - ent) : strlen (ent));
  bool needed = row && row->attach != 0;
  json_t *hooks = json_get (spec, "hooks");
  size_t i;

  for (i = 0; needed && i < sizeof (stages) / sizeof (stages[0]); i++)
    {
      json_t *l = hooks ? json_get (hooks, stages[i]) : NULL;
      const json_t *args = l && l->n ? json_get (l->items[l->n - 1], "args") : NULL;
      if (args == NULL || args->n < 2 || strcmp (json_string (args->items[1]), stages[i]) != 0)
        fail_msg ("%s on %s: no entitle-hook %s hook", ent, fixture, stages[i]);
      json_remove_at (l, l->n - 1);
      if (l->n == 0 && json_get (json_get (orig, "hooks"), stages[i]) == NULL)
        json_del (hooks, stages[i]);
    }
  if (hooks && hooks->n == 0 && json_get (orig, "hooks") == NULL)
    json_del (spec, "hooks");
  if (!json_equal (json_get (orig, "hooks"), json_get (spec, "hooks")))
    fail_msg ("%s on %s: the hooks changed beyond entitle-hook's", ent, fixture);
}

static void
test_catalogue_table (void **state)
{
  size_t i, n_cgroup;

  (void)state;
  for (i = 0; i < sizeof (rows) / sizeof (rows[0]); i++)
    {
      const struct row *r = &rows[i];
      cleanup_json json_t *orig = load_fixture (r->fixture);
      cleanup_json json_t *spec = compiled (r->fixture, r->ent);

      assert_caps (r, orig, spec);
      if (is_true (json_get (json_get (spec, "process"), "noNewPrivileges")) != r->nnp)
        fail_msg ("%s on %s: noNewPrivileges is not %s", r->ent, fixture_file[r->fixture], r->nnp ? "true" : "false");
      assert_namespace (r, orig, spec, "network", r->netns);
      assert_namespace (r, orig, spec, "pid", r->pidns);
      assert_namespace (r, orig, spec, "cgroup", r->cgroupns || namespace_of (orig, "cgroup", &n_cgroup));
      assert_paths (r, orig, spec, "maskedPaths", r->masked);
      assert_paths (r, orig, spec, "readonlyPaths", r->readonly);
      assert_devices (r, orig, spec);
      assert_lsm (r, orig, spec);
      assert_seccomp (r, orig, spec);
      assert_runtimes_load (r->ent, fixture_file[r->fixture], spec);
      /* Nothing else: the rest of the config is the engine's.  */
      {
        cleanup_json json_t *a = json_clone (orig), *b = json_clone (spec);
        json_del (a, "process");
        json_del (b, "process");
        json_del (json_get (a, "linux"), "namespaces");
        json_del (json_get (b, "linux"), "namespaces");
        json_del (json_get (a, "linux"), "maskedPaths");
        json_del (json_get (b, "linux"), "maskedPaths");
        json_del (json_get (a, "linux"), "readonlyPaths");
        json_del (json_get (b, "linux"), "readonlyPaths");
        json_del (json_get (a, "linux"), "resources");
        json_del (json_get (b, "linux"), "resources");
        json_del (json_get (a, "linux"), "seccomp");
        json_del (json_get (b, "linux"), "seccomp");
        json_del (a, "annotations");
        json_del (b, "annotations");
        /* In the host's network namespace the engine's net.* sysctls go
           with the namespace (the runtimes refuse them there).  */
        if (!r->netns)
          {
            const json_t *sysctl = json_get (json_get (b, "linux"), "sysctl");
            for (size_t k = 0; sysctl && k < sysctl->n; k++)
              if (strncmp (sysctl->keys[k], "net.", 4) == 0)
                fail_msg ("%s on %s: kept sysctl %s", r->ent, fixture_file[r->fixture], sysctl->keys[k]);
            json_del (json_get (a, "linux"), "sysctl");
            json_del (json_get (b, "linux"), "sysctl");
          }
        assert_hooks (r->ent, fixture_file[r->fixture], a, b);
        if (!json_equal (a, b))
          fail_msg ("%s on %s: changed more than its effects", r->ent, fixture_file[r->fixture]);
      }
      assert_string_equal (json_string (json_get (json_get (spec, "annotations"), ENTITLE_ANNOTATION_APPLIED)),
                           r->ent);
    }
}

/* A namespace the fixture lacks is added; one given by path is kept.  */
static void
test_catalogue_new_namespaces (void **state)
{
  static const struct
  {
    const char *ent, *type;
  } cases[] = { { "network.none", "network" }, { "host.processes.none", "pid" } };
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    {
      /* Without one: added, with no path.  */
      {
        json_t *ns;
        size_t n;
        cleanup_json json_t *spec = load_fixture (RUNC);
        struct entitle_config_s cfg;
        long at;

        ns = json_get (json_get (spec, "linux"), "namespaces");
        while ((at = -1, namespace_of (spec, cases[i].type, &n)) != NULL)
          {
            for (size_t k = 0; k < ns->n; k++)
              if (strcmp (json_string (json_get (ns->items[k], "type")), cases[i].type) == 0)
                at = (long)k;
            json_remove_at (ns, (size_t)at);
          }
        grant_all (&cfg, false);
        assert_int_equal (rewrite (&cfg, spec, cases[i].ent, NULL), 1);
        entitle_config_free (&cfg);
        assert_non_null (namespace_of (spec, cases[i].type, &n));
        assert_int_equal (n, 1);
        assert_null (json_get (namespace_of (spec, cases[i].type, &n), "path"));
      }
      /* Given by path: kept as it is.  */
      {
        cleanup_json json_t *spec = load_fixture (NOSECCOMP);
        cleanup_json json_t *given = parse_ok ("{\"type\": \"pid\", \"path\": \"/proc/4242/ns/pid\"}");
        struct entitle_config_s cfg;
        json_t *ns = json_get (json_get (spec, "linux"), "namespaces");
        size_t n;

        for (size_t k = 0; k < ns->n; k++)
          if (strcmp (json_string (json_get (ns->items[k], "type")), "pid") == 0)
            {
              json_remove_at (ns, k);
              json_push (ns, json_clone (given));
              break;
            }
        grant_all (&cfg, false);
        assert_int_equal (rewrite (&cfg, spec, cases[i].ent, NULL), 1);
        entitle_config_free (&cfg);
        assert_true (json_equal (namespace_of (spec, "pid", &n), given));
        assert_int_equal (n, 1);
        assert_string_equal (json_string (json_get (namespace_of (spec, "network", &n), "path")), NETNS_PATH);
        assert_int_equal (n, 1);
      }
    }
}

/* DESIGN §7: network.user and network.proxy keep the namespace the engine
   chose, the host's too (no network namespace at all, as a host-network
   pod); network.none gives an empty one instead of the host's, also when
   the engine names the host's by path (Docker's --network host).  */
static void
test_catalogue_network_namespace_kept (void **state)
{
  static const char *const keep[] = { "network.user", "network.proxy" };
  static const char *const host_paths[] = { "/proc/self/ns/net", "/proc/thread-self/ns/net" };
  size_t i, n;

  (void)state;
  for (i = 0; i < 2; i++)
    {
      cleanup_json json_t *spec = load_fixture (DOCKER);
      struct entitle_config_s cfg;
      json_t *ns = json_get (json_get (spec, "linux"), "namespaces");

      for (size_t k = 0; k < ns->n; k++)
        if (strcmp (json_string (json_get (ns->items[k], "type")), "network") == 0)
          json_remove_at (ns, k--);
      grant_all (&cfg, false);
      assert_int_equal (rewrite (&cfg, spec, keep[i], NULL), 1);
      entitle_config_free (&cfg);
      assert_null (namespace_of (spec, "network", &n));
    }
  for (i = 0; i < 2; i++)
    {
      cleanup_json json_t *spec = load_fixture (NOSECCOMP);
      struct entitle_config_s cfg;
      json_t *net = (json_t *)namespace_of (spec, "network", &n);

      json_set (net, "path", json_new_string (host_paths[i]));
      grant_all (&cfg, false);
      assert_int_equal (rewrite (&cfg, spec, "network.user", NULL), 1);
      assert_string_equal (json_string (json_get (namespace_of (spec, "network", &n), "path")), host_paths[i]);
      /* Narrowing: no grant needed for the new namespace.  */
      entitle_config_free (&cfg);
      config_from (&cfg, "{}");
      assert_int_equal (rewrite (&cfg, spec, "network.none", NULL), 1);
      entitle_config_free (&cfg);
      assert_non_null (namespace_of (spec, "network", &n));
      assert_int_equal (n, 1);
      assert_null (json_get (namespace_of (spec, "network", &n), "path"));
    }
}

/* A modifier with a value alone: cgroup BPF only, so nothing changes but
   entitle-hook's two hooks and the record of it (whether this host can
   enforce it is the hook's to say, at createRuntime).  */
static void
test_catalogue_modifiers_alone (void **state)
{
  size_t i, f;

  (void)state;
  for (i = 0; i < sizeof (modifiers) / sizeof (modifiers[0]); i++)
    for (f = 0; f < N_FIXTURES; f++)
      {
        cleanup_json json_t *orig = load_fixture ((enum fixture)f);
        cleanup_json json_t *spec = load_fixture ((enum fixture)f);
        struct entitle_config_s cfg;
        json_t *annotations;

        grant_all (&cfg, false);
        assert_int_equal (rewrite (&cfg, spec, modifiers[i], NULL), 1);
        entitle_config_free (&cfg);
        annotations = json_get_or_add (orig, "annotations", JSON_OBJECT);
        json_set (annotations, ENTITLE_ANNOTATION, json_new_string (modifiers[i]));
        json_set (annotations, ENTITLE_ANNOTATION_APPLIED, json_new_string (modifiers[i]));
        json_set (annotations, ENTITLE_ANNOTATION_VERSION, json_new_string (PACKAGE_VERSION));
        assert_hooks (modifiers[i], fixture_file[f], orig, spec);
        /* A profile the host cannot apply is not kept in a rewrite.  */
        if (!apparmor_enabled ())
          json_del (json_get (orig, "process"), "apparmorProfile");
        if (!json_equal (orig, spec))
          fail_msg ("%s on %s changed more than its annotations and hooks", modifiers[i], fixture_file[f]);
      }
}

static bool
equal_at (const json_t *a, const json_t *b, const char *obj, const char *key)
{
  return json_equal (json_get (json_get (a, obj), key), json_get (json_get (b, obj), key));
}

/* The same five capability sets, in any order.  */
static bool
same_caps (const json_t *a, const json_t *b)
{
  const json_t *ca = json_get (json_get (a, "process"), "capabilities");
  const json_t *cb = json_get (json_get (b, "process"), "capabilities");
  size_t i;

  for (i = 0; i < 5; i++)
    {
      cleanup_free char *wa = array_words (json_get (ca, cap_sets[i]));
      cleanup_free char *wb = array_words (json_get (cb, cap_sets[i]));
      if ((wa == NULL) != (wb == NULL) || (wa && strcmp (wa, wb) != 0))
        return false;
    }
  return true;
}

/* network.host = network.admin's capabilities, seccomp and paths, less
   the network namespace.  */
static void
test_catalogue_network_host_is_admin_without_netns (void **state)
{
  size_t f, n;

  (void)state;
  for (f = 0; f < N_FIXTURES; f++)
    {
      cleanup_json json_t *host = compiled ((enum fixture)f, "network.host");
      cleanup_json json_t *admin = compiled ((enum fixture)f, "network.admin");
      json_t *ns = json_get (json_get (admin, "linux"), "namespaces");

      assert_true (equal_at (host, admin, "process", "capabilities"));
      assert_true (equal_at (host, admin, "linux", "seccomp"));
      assert_true (equal_at (host, admin, "linux", "maskedPaths"));
      assert_true (equal_at (host, admin, "linux", "readonlyPaths"));
      assert_true (equal_at (host, admin, "linux", "resources"));
      assert_null (namespace_of (host, "network", &n));
      assert_non_null (namespace_of (admin, "network", &n));
      for (size_t k = 0; k < ns->n; k++)
        if (strcmp (json_string (json_get (ns->items[k], "type")), "network") == 0)
          json_remove_at (ns, k--);
      assert_true (equal_at (host, admin, "linux", "namespaces"));
    }
}

/* Do @a and @b have the same namespaces, but those of @type?  */
static bool
same_namespaces_but (const json_t *a, const json_t *b, const char *type)
{
  cleanup_json json_t *na = json_clone (json_get (json_get (a, "linux"), "namespaces"));
  cleanup_json json_t *nb = json_clone (json_get (json_get (b, "linux"), "namespaces"));
  json_t *both[2] = { na, nb };

  for (size_t k = 0; k < 2; k++)
    for (size_t i = 0; i < both[k]->n;)
      if (strcmp (json_string (json_get (both[k]->items[i], "type")), type) == 0)
        json_remove_at (both[k], i);
      else
        i++;
  return json_equal (na, nb);
}

/* @v (sorted, unique, malloc'd) with @x and @y added, sorted again.  */
static char **
strv_with (char **v, const char *x, const char *y)
{
  size_t n = 0;

  while (v[n])
    n++;
  v = realloc (v, (n + 3) * sizeof (char *));
  v[n++] = strdup (x);
  v[n++] = strdup (y);
  v[n] = NULL;
  entitle_strv_sort_uniq (v, n);
  return v;
}

/* security.insecure = the union of every admin rung: the capabilities,
   paths, devices and LSM labels of security.admin, network.admin,
   host.devices.admin and host.modules.admin together, and their
   syscalls, kernel modules included (host.modules.admin is how modules
   are loaded, security.admin's "still deny" yields to it).  Unlike
   security.admin it denies nothing, so where the engine gave no profile
   it writes none (as --privileged), and unlike the rungs it unites it is
   not held from entitle's enforcement (FX_PRIVILEGED): no cgroup
   namespace is added, bpf and open_by_handle_at stay allowed.  */
static void
test_catalogue_insecure_is_union_of_admin_rungs (void **state)
{
  size_t f, n, n_orig;

  (void)state;
  for (f = 0; f < N_FIXTURES; f++)
    {
      cleanup_json json_t *orig = load_fixture ((enum fixture)f);
      cleanup_json json_t *insecure = compiled ((enum fixture)f, "security.insecure");
      cleanup_json json_t *all
          = compiled ((enum fixture)f, "security.admin,network.admin,host.devices.admin,host.modules.admin");
      const json_t *si = json_get (json_get (insecure, "linux"), "seccomp");
      const json_t *sa = json_get (json_get (all, "linux"), "seccomp");

      assert_true (same_caps (insecure, all));
      assert_true (equal_at (insecure, all, "process", "noNewPrivileges"));
      assert_true (equal_at (insecure, all, "process", "apparmorProfile"));
      assert_true (equal_at (insecure, all, "process", "selinuxLabel"));
      assert_true (same_namespaces_but (insecure, all, "cgroup"));
      assert_true (namespace_of (all, "cgroup", &n) && n == 1);
      namespace_of (insecure, "cgroup", &n);
      namespace_of (orig, "cgroup", &n_orig);
      assert_int_equal (n, n_orig);
      assert_true (equal_at (insecure, all, "linux", "maskedPaths"));
      assert_true (equal_at (insecure, all, "linux", "readonlyPaths"));
      assert_true (equal_at (insecure, all, "linux", "resources"));
      if (f == DOCKER)
        {
          cleanup_strv char **ni = entitle_seccomp_allowed_names (si);
          cleanup_strv char **na = entitle_seccomp_allowed_names (sa);
          cleanup_free char *ti = NULL, *ta = NULL;
          /* The hold's denials are all that tells them apart.  */
          na = strv_with (na, "bpf", "open_by_handle_at");
          ti = join (ni, " ");
          ta = join (na, " ");
          assert_string_equal (ti, ta);
          assert_true (entitle_strv_has (ni, "init_module"));
          assert_false (entitle_strv_has (ni, "kexec_load"));
        }
      else
        {
          cleanup_strv char **na = entitle_seccomp_allowed_names (sa);
          assert_null (si);
          /* Together, security.admin still denies kexec.  */
          assert_non_null (sa);
          assert_true (entitle_strv_has (na, "init_module"));
          assert_false (entitle_strv_has (na, "kexec_load"));
        }
    }
}

/* Compiling twice: the second compile of the rewritten config gives the
   same bytes, and so does a second rewrite.  */
static void
test_catalogue_idempotent (void **state)
{
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (rows) / sizeof (rows[0]); i++)
    {
      const struct row *r = &rows[i];
      cleanup_json json_t *spec = compiled (r->fixture, r->ent);
      cleanup_free char *once = generate (spec), *twice = NULL, *again = NULL;
      cleanup_entitle_set struct entitle_set_s set = { 0 };
      struct entitle_config_s cfg;
      struct entitle_ctx_s ctx;
      entitle_error_t err = NULL;

      grant_all (&cfg, false);
      assert_int_equal (rewrite (&cfg, spec, NULL, NULL), 1);
      again = generate (spec);
      if (strcmp (once, again) != 0)
        fail_msg ("%s on %s: rewriting again changed the config", r->ent, fixture_file[r->fixture]);

      assert_int_equal (entitle_parse_list (NULL, r->ent, "test", &set, &err), 0);
      entitle_ctx_init (&ctx, &test_log, &cfg);
      assert_int_equal (entitle_compile (&ctx, spec, &set, NULL, &err), 0);
      entitle_ctx_release (&ctx);
      entitle_config_free (&cfg);
      twice = generate (spec);
      if (getenv ("DUMP") && strcmp (once, twice) != 0)
        {
          FILE *a = fopen ("/tmp/once.json", "w"), *b = fopen ("/tmp/twice.json", "w");
          fputs (once, a);
          fputs (twice, b);
          fclose (a);
          fclose (b);
        }
      if (strcmp (once, twice) != 0)
        fail_msg ("%s on %s: compiling again changed the config", r->ent, fixture_file[r->fixture]);
    }
}

/* Capability-gated syscalls leave with their capability: Docker's profile
   expanded for security.admin's capabilities (what the engine gives with
   those --cap-add), then each dropping rung compiled onto it.  */
static void
test_catalogue_gated_syscalls_follow_dropped_caps (void **state)
{
  static const struct
  {
    const char *ent;
    struct sc expect[16];
  } cases[] = {
    /* CAP_SYS_ADMIN and CAP_MKNOD dropped: what CAP_SYS_ADMIN gates goes,
       clone loses namespaces, clone3 ENOSYS; CAP_SYS_PTRACE's stay.  */
    { "host.devices.none",
      { { "mount", "" }, { "umount2", "" }, { "unshare", "" }, { "setns", "" }, { "sethostname", "" }, { "fsopen", "" }, { "clone", CLONE_NO_NS }, { "clone3", "E38" }, { "kcmp", "*" }, { "ptrace", "*" }, { "reboot", "*" }, { "syslog", "*" /* CAP_SYSLOG gates it too */ }, { "bpf", "" }, { "perf_event_open", "" }, { "mknod", MKNOD_NO_DEV } } },
    /* An upper bound: every capability but the eight it keeps goes, and
       what each gates (CAP_SYS_TIME's clock_settime too); ptrace and
       process_vm_* by name.  */
    { "security.confined",
      { { "mount", "" }, { "unshare", "" }, { "clone", CLONE_NO_NS }, { "clone3", "E38" }, { "kcmp", "" }, { "ptrace", "" }, { "process_vm_readv", "" }, { "syslog", "" }, { "iopl", "" }, { "open_by_handle_at", "" }, { "keyctl", "" }, { "reboot", "" }, { "clock_settime", "" }, { "personality", PERSONALITY_LINUX } } },
  };
  size_t i, k;

  (void)state;
  for (i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    {
      cleanup_json json_t *spec = compiled (DOCKER, "security.admin");
      const json_t *seccomp = json_get (json_get (spec, "linux"), "seccomp");
      cleanup_entitle_set struct entitle_set_s set = { 0 };
      struct entitle_config_s cfg;
      struct entitle_ctx_s ctx;
      entitle_error_t err = NULL;

      /* The starting point: every admin capability's syscalls allowed.  */
      {
        cleanup_free char *mount = render_syscall (seccomp, "mount"), *clone3 = render_syscall (seccomp, "clone3");
        assert_string_equal (mount, "*");
        assert_string_equal (clone3, "*");
      }
      grant_all (&cfg, false);
      entitle_ctx_init (&ctx, &test_log, &cfg);
      assert_int_equal (entitle_parse_list (NULL, cases[i].ent, "test", &set, &err), 0);
      assert_int_equal (entitle_compile (&ctx, spec, &set, NULL, &err), 0);
      entitle_ctx_release (&ctx);
      entitle_config_free (&cfg);
      seccomp = json_get (json_get (spec, "linux"), "seccomp");
      for (k = 0; k < sizeof (cases[i].expect) / sizeof (cases[i].expect[0]) && cases[i].expect[k].name; k++)
        {
          cleanup_free char *want = normalize_rules (cases[i].expect[k].rules);
          cleanup_free char *got = render_syscall (seccomp, cases[i].expect[k].name);
          if (strcmp (want, got) != 0)
            fail_msg ("security.admin then %s: %s: expected `%s`, got `%s`", cases[i].ent,
                      cases[i].expect[k].name, want, got);
        }
    }
}

/* The device cgroup rules are a widening only beyond the default devices:
   host.devices.none needs no grant, host.devices.admin does.  */
static void
test_catalogue_devices_trust (void **state)
{
  size_t f;

  (void)state;
  for (f = 0; f < N_FIXTURES; f++)
    {
      struct entitle_config_s none;
      cleanup_json json_t *spec = load_fixture ((enum fixture)f);
      cleanup_json json_t *admin = load_fixture ((enum fixture)f);
      json_t *caps;
      char *msg = NULL;

      memset (&none, 0, sizeof (none));
      config_from (&none, "{}");
      assert_int_equal (rewrite (&none, spec, "host.devices.none", NULL), 1);
      /* Even with the capabilities there already, allowing every device
         is more than the engine gave.  */
      caps = json_get (json_get (admin, "process"), "capabilities");
      for (size_t i = 0; i < caps->n; i++)
        {
          json_push (caps->items[i], json_new_string ("CAP_SYS_ADMIN"));
          json_push (caps->items[i], json_new_string ("CAP_MKNOD"));
        }
      json_set (json_get (admin, "linux"), "maskedPaths", parse_ok ("[\"/proc/kcore\"]"));
      json_set (json_get (admin, "linux"), "seccomp",
                parse_ok ("{\"defaultAction\": \"SCMP_ACT_ALLOW\"}"));
      assert_true (rewrite (&none, admin, "host.devices.admin", &msg) < 0);
      assert_contains (msg, "\"host.devices.admin\"");
      free (msg);
      entitle_config_free (&none);
    }
}

/* The one table of which mechanism enforces what: every FX_* bit a row
   uses has its row there, naming at least one mechanism, and a bit that
   applies rather than lifts enforcement gives an enforcement part.  */
static void
test_catalogue_fx_mechanisms (void **state)
{
  const struct entitle_entry_s *cat;
  const struct entitle_fx_text_s *fx;
  size_t i, k, n, n_fx;
  unsigned bit;

  (void)state;
  fx = entitle_fx_texts (&n_fx);
  for (bit = 1; bit != 0; bit <<= 1)
    {
      const struct entitle_fx_text_s *row = NULL;
      if ((FX_ALL & bit) == 0)
        continue;
      for (k = 0; k < n_fx; k++)
        if (fx[k].fx == bit)
          row = &fx[k];
      if (row == NULL || row->mechs == 0)
        fail_msg ("effect bit %#x has no mechanism in the table", bit);
      assert_true (row->lifts || entitle_fx_mechs (bit) == row->mechs);
    }
  cat = entitle_catalogue_rows (NULL, &n);
  for (i = 0; i < n; i++)
    if (cat[i].fx & ~(unsigned)FX_ALL)
      fail_msg ("%s: effect bit %#x is not in FX_ALL", cat[i].name, cat[i].fx & ~(unsigned)FX_ALL);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_catalogue_rows_covered),
    cmocka_unit_test (test_catalogue_rows_say_value_decisions),
    cmocka_unit_test (test_catalogue_fixtures),
    cmocka_unit_test (test_catalogue_table),
    cmocka_unit_test (test_catalogue_new_namespaces),
    cmocka_unit_test (test_catalogue_network_namespace_kept),
    cmocka_unit_test (test_catalogue_modifiers_alone),
    cmocka_unit_test (test_catalogue_network_host_is_admin_without_netns),
    cmocka_unit_test (test_catalogue_insecure_is_union_of_admin_rungs),
    cmocka_unit_test (test_catalogue_idempotent),
    cmocka_unit_test (test_catalogue_gated_syscalls_follow_dropped_caps),
    cmocka_unit_test (test_catalogue_devices_trust),
    cmocka_unit_test (test_catalogue_fx_mechanisms),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
