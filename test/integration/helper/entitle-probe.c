/* SPDX-License-Identifier: GPL-2.0-or-later */
/* entitle-probe: a static helper copied into test containers as /probe.

   Each subcommand tries one thing and prints "ok" (exit 0) or the name
   of the errno that stopped it (exit 1), so that bats tests can compare
   words instead of parsing messages.  Exit 2 is a usage error.

     socket inet|inet6|unix|packet|raw|netlink [stream|dgram]
     caps                 the Cap* lines of /proc/self/status
     nnp                  the NoNewPrivs value of /proc/self/status
     write PATH           open PATH for writing
     connect ADDR PORT    TCP connect (ECONNREFUSED means the packet got there)
     sendto ADDR PORT     send one UDP datagram
     bind PORT            bind a TCP socket to the port on every address
     sleep N              sleep N seconds
     mount [DIR]          mount a tmpfs on DIR (default /tmp)
     move-mount [DIR]     the new mount API: a clone of / (open_tree) put on DIR
                          (default /tmp) with move_mount
     unshare NS           unshare NS: user|net|mnt|pid|uts|ipc|cgroup|none
     clone NS             clone(2) a child into a new NS (as unshare)
     setns NS             setns to the probe's own NS (user: EINVAL if allowed)
     ptrace               a child asks to be traced (PTRACE_TRACEME)
     setuid UID           setuid(UID)
     chown PATH UID       chown PATH to UID
     truncate PATH        truncate(2) PATH, by name, to 0 bytes
     mknod-dev PATH [MAJ MIN]  a character device node (default 1:3)
     mkfifo PATH          a FIFO through the same mknod(2)
     sysctl KEY VALUE     write VALUE to /proc/sys/KEY (dots for slashes)
     bpf                  create a one-entry BPF array map
     perf                 open a software counter on the probe itself
     io_uring             io_uring_setup with one entry
     keyctl               look the session keyring up (KEYCTL_GET_KEYRING_ID)
     userfaultfd          userfaultfd(UFFD_USER_MODE_ONLY)
     personality HEX      personality(HEX), e.g. 6 (PER_BSD)
     mempolicy            set_mempolicy(MPOL_DEFAULT)
     kcmp                 kcmp of the probe's VM with itself
     mlock                mlock one page
     netadmin             set lo's MTU to its current value (SIOCSIFMTU)
     kexec                kexec_load that the kernel refuses after its checks
     module [init|finit|delete]  a module call that can load nothing
     reboot               reboot(2) with a bad magic number
     read PATH            open PATH and read 1 byte ("empty" at end of file)
     connect-fd FD ADDR PORT  TCP connect of the socket FD the probe was given
                          (made outside the container, passed in)
     close FD             close(FD) of a descriptor that is not open (EBADF
                          when nothing but the kernel answers)
     sched_yield          sched_yield(2)

   The attacks of a container with admin capabilities on entitle's BPF
   enforcement (issue 23) are in probe-admin.c, which lists them.

   Attacks (issue 10).  FAMILY is one of the socket families above, or
   vsock.  Attempts that seccomp may answer by killing run in a child:
   "SIGSYS" means the child was killed by it.

     int80 socketcall FAMILY [TYPE]  32-bit socketcall(SYS_SOCKET) through
                          int $0x80 (x86-64 only; args in a static array)
     int80 socket FAMILY [TYPE]      the direct 32-bit socket(2), i386 nr 359
     int80 srcroute6 FIRSTHOP FINAL PORT  as srcroute6, with setsockopt and
                          sendto through int $0x80
     int80 lsrr FIRSTHOP FINAL PORT  as lsrr, through int $0x80
     uring-socket FAMILY [TYPE]  IORING_OP_SOCKET: "ok" when the CQE holds an
                          fd, else the errno of io_uring_setup or of the CQE
     uring-connect ADDR PORT  IORING_OP_CONNECT of a TCP socket (as connect)
     uring-sendto ADDR PORT   IORING_OP_SENDMSG of one UDP datagram
     rawsend ADDR         AF_INET SOCK_RAW IPPROTO_RAW (IP_HDRINCL): one UDP
                          datagram to ADDR:9, built by hand
     packetsend IFNAME DSTMAC ADDR  AF_PACKET SOCK_RAW: one Ethernet/IPv4/UDP
                          frame to ADDR:9 (source ADDR) on IFNAME
     ping ADDR            unconnected sendto of an ICMP (ICMPv6) echo request
                          on a ping socket (SOCK_DGRAM/IPPROTO_ICMP[V6])
     srcroute6 FIRSTHOP FINAL PORT  UDP to [FINAL]:PORT with a type 4 (segment
                          routing) IPV6_RTHDR whose first segment is FIRSTHOP
     lsrr FIRSTHOP FINAL PORT  UDP to FINAL:PORT with an IPv4 loose source
                          route (IP_OPTIONS) through FIRSTHOP
     connect ADDR PORT SECS  TCP connect that gives up after SECS (ETIMEDOUT)
     from SRC connect|sendto ...  the same from the source address SRC
     listen0 [SECS [inet6]]  TCP bind(port 0) and listen (IPv4, or IPv6 with
                          inet6): print the port, then "accepted" if a client
                          connects within SECS, else "none" (the client is
                          sent "hello")
     listen-auto [SECS [inet6]]  the same, listen() without bind (autobind)
     accept-once PORT [SECS [inet6]]  the same on PORT (every address)
     udp-auto ADDR PORT [SECS [connect]]  unbound UDP sendto ADDR:PORT
                          (autobind): print the local port, then "got" if a
                          datagram arrives within SECS, else "none"; with
                          connect, the socket is connected to ADDR:PORT first
                          (and an ICMP error from there is not an answer)
     fetch ADDR PORT SECS connect (SECS timeout) and read: "got" if the server
                          sent something within SECS, else "none"
     chain6 SRC DST PORT HEADERS udp|syn [SECS [SPORT]]  one IPv6 packet
                          from SRC to DST:PORT, written whole on a raw socket,
                          with the extension headers HEADERS (comma-separated:
                          "dst", a Destination Options header of padding;
                          "rt=ADDR", a segment routing header that sends it on
                          to ADDR; "ah", an Authentication Header no receiver
                          has the key of; "frag", an atomic Fragment header)
                          before a UDP datagram ("ok" once sent) or a TCP SYN:
                          "synack" if the listener answered within SECS
                          (default 2), "rst" if none listens, else "none".
                          From port SPORT (default: one of the probe's pid)
     process-vm           process_vm_readv of a child's memory
     abstract-connect NAME  connect to the abstract unix socket "\0NAME"
     abstract-listen NAME [SECS]  listen there: print "listening", then
                          "accepted" or "none"

   Servers print the port (or "listening") as soon as they listen, one
   line, flushed: a test waits for it before it tries a client.

   Where "allowed" is itself an error (kexec, module, reboot, setns user)
   the errno name is printed all the same: EPERM means seccomp or a
   missing capability stopped the call; any other errno (EINVAL, EBADF,
   ENOEXEC, ENOSYS from a kernel built without the feature) means the
   call got past both into the kernel's own argument checks.  */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <arpa/inet.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/io_uring.h>
#include <linux/kcmp.h>
#include <linux/kexec.h>
#include <linux/keyctl.h>
#include <linux/mempolicy.h>
#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <linux/reboot.h>
#include <linux/userfaultfd.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "probe-admin.h"

#define EXIT_DENIED 1
#define EXIT_USAGE  2

static int
report (int ret)
{
  const char *name;

  if (ret >= 0)
    {
      puts ("ok");
      return EXIT_SUCCESS;
    }
  name = strerrorname_np (errno);
  if (name != NULL)
    puts (name);
  else
    printf ("errno %d\n", errno);
  return EXIT_DENIED;
}

static int
usage (void)
{
  fputs ("usage: probe COMMAND ARGS... (see the comment at the top of entitle-probe.c)\n", stderr);
  return EXIT_USAGE;
}

int
probe_report (int ret)
{
  return report (ret);
}

int
probe_word (const char *word)
{
  puts (word);
  return EXIT_SUCCESS;
}

int
probe_usage (void)
{
  return usage ();
}

/* Map the family name and optional type name to socket() arguments.  */
static int
socket_args (const char *family, const char *type, int *domain, int *stype, int *proto)
{
  *proto = 0;
  *stype = SOCK_STREAM;
  if (strcmp (family, "inet") == 0)
    *domain = AF_INET;
  else if (strcmp (family, "inet6") == 0)
    *domain = AF_INET6;
  else if (strcmp (family, "unix") == 0)
    *domain = AF_UNIX;
  else if (strcmp (family, "packet") == 0)
    {
      *domain = AF_PACKET;
      *stype = SOCK_RAW;
      *proto = htons (ETH_P_ALL);
    }
  else if (strcmp (family, "raw") == 0)
    {
      *domain = AF_INET;
      *stype = SOCK_RAW;
      *proto = IPPROTO_ICMP;
    }
  else if (strcmp (family, "netlink") == 0)
    {
      *domain = AF_NETLINK;
      *stype = SOCK_RAW;
      *proto = NETLINK_ROUTE;
    }
  else if (strcmp (family, "vsock") == 0)
    *domain = AF_VSOCK;
  else
    return -1;

  if (type == NULL)
    return 0;
  if (strcmp (type, "stream") == 0)
    *stype = SOCK_STREAM;
  else if (strcmp (type, "dgram") == 0)
    *stype = SOCK_DGRAM;
  else
    return -1;
  return 0;
}

static int
do_socket (int argc, char **argv)
{
  int domain, type, proto;

  if (argc < 1 || socket_args (argv[0], argc > 1 ? argv[1] : NULL, &domain, &type, &proto) < 0)
    return usage ();
  return report (socket (domain, type, proto));
}

/* Print the lines of /proc/self/status that start with PREFIX; with
   VALUE_ONLY, print only what follows the tab.  */
static int
print_status (const char *prefix, int value_only)
{
  char line[256];
  size_t len = strlen (prefix);
  FILE *f = fopen ("/proc/self/status", "re");

  if (f == NULL)
    return report (-1);
  while (fgets (line, sizeof (line), f) != NULL)
    {
      char *tab = strchr (line, '\t');

      if (strncmp (line, prefix, len) != 0)
        continue;
      fputs (value_only && tab != NULL ? tab + 1 : line, stdout);
    }
  fclose (f);
  return EXIT_SUCCESS;
}

static int
do_write (int argc, char **argv)
{
  int fd;

  if (argc != 1)
    return usage ();
  fd = open (argv[0], O_WRONLY | O_CLOEXEC);
  if (fd >= 0)
    close (fd);
  return report (fd);
}

/* Fill SA with ADDR (v4 or v6) and PORT; return its length, or 0.  */
static socklen_t
make_addr (const char *addr, const char *port, struct sockaddr_storage *sa)
{
  struct sockaddr_in *in4 = (struct sockaddr_in *)sa;
  struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)sa;

  memset (sa, 0, sizeof (*sa));
  if (inet_pton (AF_INET, addr, &in4->sin_addr) == 1)
    {
      in4->sin_family = AF_INET;
      in4->sin_port = htons (atoi (port));
      return sizeof (*in4);
    }
  if (inet_pton (AF_INET6, addr, &in6->sin6_addr) == 1)
    {
      in6->sin6_family = AF_INET6;
      in6->sin6_port = htons (atoi (port));
      return sizeof (*in6);
    }
  return 0;
}

/* A socket of @type for @sa, bound to the source address @src first when
   there is one (the `from SRC` prefix), or -1.  */
static int
socket_from (const char *src, int type, const struct sockaddr_storage *sa)
{
  struct sockaddr_storage from;
  socklen_t len;
  int fd = socket (sa->ss_family, type | SOCK_CLOEXEC, 0);

  if (fd < 0 || src == NULL)
    return fd;
  if ((len = make_addr (src, "0", &from)) == 0)
    {
      usage ();
      exit (EXIT_USAGE);
    }
  if (bind (fd, (struct sockaddr *)&from, len) < 0)
    {
      close (fd);
      return -1;
    }
  return fd;
}

static int
do_net (const char *src, int type, int argc, char **argv)
{
  struct sockaddr_storage sa;
  socklen_t len;
  int fd, ret;

  if (argc != 2 || (len = make_addr (argv[0], argv[1], &sa)) == 0)
    return usage ();
  fd = socket_from (src, type, &sa);
  if (fd < 0)
    return report (fd);
  if (type == SOCK_STREAM)
    ret = connect (fd, (struct sockaddr *)&sa, len);
  else
    ret = sendto (fd, "x", 1, 0, (struct sockaddr *)&sa, len);
  return report (ret);
}

static int
do_bind (int argc, char **argv)
{
  struct sockaddr_in sa = { .sin_family = AF_INET };
  int fd;

  if (argc != 1)
    return usage ();
  sa.sin_addr.s_addr = htonl (INADDR_ANY);
  sa.sin_port = htons (atoi (argv[0]));
  fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return report (fd);
  return report (bind (fd, (struct sockaddr *)&sa, sizeof (sa)));
}

/* Namespace names as /proc/self/ns spells them; "none" is no flag.  */
static const struct
{
  const char *name;
  int flag;
} namespaces[] = {
  { "none", 0 },
  { "user", CLONE_NEWUSER },
  { "net", CLONE_NEWNET },
  { "mnt", CLONE_NEWNS },
  { "pid", CLONE_NEWPID },
  { "uts", CLONE_NEWUTS },
  { "ipc", CLONE_NEWIPC },
  { "cgroup", CLONE_NEWCGROUP },
};

static int
ns_index (int argc, char **argv)
{
  size_t i;

  if (argc != 1)
    return -1;
  for (i = 0; i < sizeof (namespaces) / sizeof (namespaces[0]); i++)
    if (strcmp (argv[0], namespaces[i].name) == 0)
      return i;
  return -1;
}

/* Wait for CHILD, which exits with 0 or the errno of what it tried, and
   report it; a child killed by seccomp's SIGSYS prints "SIGSYS".  */
static int
report_child (pid_t child)
{
  int status;

  if (child < 0)
    return report (-1);
  if (waitpid (child, &status, 0) < 0)
    return report (-1);
  /* Killed by seccomp (an architecture the filter does not list).  */
  if (WIFSIGNALED (status) && WTERMSIG (status) == SIGSYS)
    {
      puts ("SIGSYS");
      return EXIT_DENIED;
    }
  if (!WIFEXITED (status))
    {
      printf ("child died of signal %d\n", WTERMSIG (status));
      return EXIT_DENIED;
    }
  errno = WEXITSTATUS (status);
  return report (errno == 0 ? 0 : -1);
}

static int
do_mount (int argc, char **argv)
{
  if (argc > 1)
    return usage ();
  return report (mount ("probe", argc == 1 ? argv[0] : "/tmp", "tmpfs", 0, "size=64k"));
}

/* open_tree and move_mount by number: glibc 2.36 has no wrappers.  */
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#define PROBE_OPEN_TREE_CLONE         1
#define PROBE_MOVE_MOUNT_F_EMPTY_PATH 0x4

static int
do_move_mount (int argc, char **argv)
{
  int fd, ret;

  if (argc > 1)
    return usage ();
  fd = (int)syscall (SYS_open_tree, AT_FDCWD, "/", PROBE_OPEN_TREE_CLONE);
  if (fd < 0)
    return report (-1);
  ret = (int)syscall (SYS_move_mount, fd, "", AT_FDCWD, argc == 1 ? argv[0] : "/tmp", PROBE_MOVE_MOUNT_F_EMPTY_PATH);
  close (fd);
  return report (ret);
}

static int
do_unshare (int argc, char **argv)
{
  int i = ns_index (argc, argv);

  if (i < 0)
    return usage ();
  return report (unshare (namespaces[i].flag));
}

/* The raw clone(2) (not glibc's wrapper) with a namespace flag: the
   syscall that engines' profiles filter by its flags argument.  */
static int
do_clone (int argc, char **argv)
{
  int i = ns_index (argc, argv);
  long pid;

  if (i < 0)
    return usage ();
  pid = syscall (SYS_clone, namespaces[i].flag | SIGCHLD, NULL, NULL, NULL, 0);
  if (pid == 0)
    _exit (0);
  return report_child (pid);
}

static int
do_setns (int argc, char **argv)
{
  char path[64];
  int i = ns_index (argc, argv), fd;

  if (i < 0 || namespaces[i].flag == 0)
    return usage ();
  snprintf (path, sizeof (path), "/proc/self/ns/%s", namespaces[i].name);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return report (fd);
  return report (setns (fd, 0));
}

/* PTRACE_TRACEME in a child: needs the ptrace syscall, no capability.  */
static int
do_ptrace (void)
{
  pid_t child = fork ();

  if (child == 0)
    _exit (ptrace (PTRACE_TRACEME, 0, NULL, NULL) == 0 ? 0 : errno);
  return report_child (child);
}

static int
do_mknod (const char *path, mode_t type, int major, int minor)
{
  return report (mknod (path, type | 0600, makedev (major, minor)));
}

/* Write VALUE to /proc/sys/KEY, KEY in sysctl(8)'s dotted form.  */
static int
do_sysctl (int argc, char **argv)
{
  char path[256];
  ssize_t n;
  int fd;

  if (argc != 2 || strlen (argv[0]) > sizeof (path) - sizeof ("/proc/sys/"))
    return usage ();
  snprintf (path, sizeof (path), "/proc/sys/%s", argv[0]);
  for (char *c = path + sizeof ("/proc/sys/") - 1; *c != '\0'; c++)
    if (*c == '.')
      *c = '/';
  fd = open (path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return report (fd);
  n = write (fd, argv[1], strlen (argv[1]));
  close (fd);
  return report (n < 0 ? -1 : 0);
}

static int
do_bpf (void)
{
  union bpf_attr attr;

  memset (&attr, 0, sizeof (attr));
  attr.map_type = BPF_MAP_TYPE_ARRAY;
  attr.key_size = 4;
  attr.value_size = 4;
  attr.max_entries = 1;
  return report (syscall (SYS_bpf, BPF_MAP_CREATE, &attr, sizeof (attr)));
}

/* A user-space-only software counter on the probe itself: what
   perf_event_paranoid 2 still allows without CAP_PERFMON.  */
static int
do_perf (void)
{
  struct perf_event_attr attr;

  memset (&attr, 0, sizeof (attr));
  attr.size = sizeof (attr);
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  return report (syscall (SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

static int
do_io_uring (void)
{
  struct io_uring_params params;

  memset (&params, 0, sizeof (params));
  return report (syscall (SYS_io_uring_setup, 1, &params));
}

static int
do_keyctl (void)
{
  return report (syscall (SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0));
}

/* User-mode-only, which vm.unprivileged_userfaultfd=0 still allows.  */
static int
do_userfaultfd (void)
{
  return report (syscall (SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY));
}

static int
do_personality (int argc, char **argv)
{
  if (argc != 1)
    return usage ();
  return report (syscall (SYS_personality, strtoul (argv[0], NULL, 16)));
}

/* The raw call: libc's close() must not decide anything.  */
static int
do_close (const char *fd)
{
  return report (syscall (SYS_close, strtol (fd, NULL, 10)));
}

static int
do_sched_yield (void)
{
  return report (syscall (SYS_sched_yield));
}

static int
do_mempolicy (void)
{
  return report (syscall (SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0));
}

static int
do_kcmp (void)
{
  pid_t self = getpid ();

  return report (syscall (SYS_kcmp, self, self, KCMP_VM, 0, 0));
}

static int
do_mlock (void)
{
  long size = sysconf (_SC_PAGESIZE);
  void *page = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  if (page == MAP_FAILED)
    return report (-1);
  return report (mlock (page, size));
}

/* Setting lo's MTU to the value it has needs CAP_NET_ADMIN and changes
   nothing.  An AF_UNIX socket carries the ioctl, so that network.none
   can be asked too.  */
static int
do_netadmin (void)
{
  struct ifreq ifr;
  int fd = socket (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

  if (fd < 0)
    return report (fd);
  memset (&ifr, 0, sizeof (ifr));
  strcpy (ifr.ifr_name, "lo");
  if (ioctl (fd, SIOCGIFMTU, &ifr) < 0)
    return report (-1);
  return report (ioctl (fd, SIOCSIFMTU, &ifr));
}

/* One segment more than the kernel accepts: kexec_load checks
   CAP_SYS_BOOT first (EPERM), then refuses the count (EINVAL), so it
   never loads, nor unloads (0 segments would unload), a kernel.  */
static int
do_kexec (void)
{
  return report (syscall (SYS_kexec_load, 0UL, (unsigned long)KEXEC_SEGMENT_MAX + 1, NULL,
                          (unsigned long)KEXEC_ARCH_DEFAULT));
}

/* Module calls that cannot load or remove anything: after the
   CAP_SYS_MODULE check, an empty image is ENOEXEC, fd -1 is EBADF and
   an unknown name is ENOENT.  */
static int
do_module (int argc, char **argv)
{
  const char *how = argc > 0 ? argv[0] : "finit";

  if (argc > 1)
    return usage ();
  if (strcmp (how, "init") == 0)
    return report (syscall (SYS_init_module, NULL, 0UL, ""));
  if (strcmp (how, "finit") == 0)
    return report (syscall (SYS_finit_module, -1, "", 0));
  if (strcmp (how, "delete") == 0)
    return report (syscall (SYS_delete_module, "entitle_probe_none", O_NONBLOCK));
  return usage ();
}

/* A bad second magic number: reboot(2) checks CAP_SYS_BOOT first
   (EPERM), then the magic (EINVAL), and so never does anything, even in
   the host's pid namespace.  */
static int
do_reboot (void)
{
  return report (syscall (SYS_reboot, LINUX_REBOOT_MAGIC1, 0, LINUX_REBOOT_CMD_CAD_OFF, NULL));
}

/* Masked paths are /dev/null (or an empty tmpfs): "empty" tells them
   apart from a file that has content.  */
static int
do_read (int argc, char **argv)
{
  char c;
  ssize_t n;
  int fd;

  if (argc != 1)
    return usage ();
  fd = open (argv[0], O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return report (fd);
  n = read (fd, &c, 1);
  close (fd);
  if (n == 0)
    {
      puts ("empty");
      return EXIT_DENIED;
    }
  return report (n < 0 ? -1 : 0);
}

/* ---- Attacks (issue 10) ---- */

/* The errno of a call that returned RET (0 if it succeeded).  */
static int
errno_of (long ret)
{
  return ret < 0 ? errno : 0;
}

/* Fill SA with ADDR, v4 or v6, and PORT; exit with a usage error if ADDR
   is no address.  */
static socklen_t
need_addr (const char *addr, const char *port, struct sockaddr_storage *sa)
{
  socklen_t len = make_addr (addr, port, sa);

  if (len == 0)
    {
      usage ();
      exit (EXIT_USAGE);
    }
  return len;
}

/* SUM plus the 16-bit words of LEN bytes (RFC 1071), not yet folded.  */
static uint32_t
sum16 (uint32_t sum, const void *data, size_t len)
{
  const uint8_t *p = data;

  for (; len > 1; p += 2, len -= 2)
    sum += (p[0] << 8) | p[1];
  if (len == 1)
    sum += p[0] << 8;
  return sum;
}

/* The one's complement checksum of a SUM of sum16.  */
static uint16_t
fold (uint32_t sum)
{
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return htons (~sum & 0xffff);
}

/* The one's complement sum of RFC 1071 over LEN bytes.  */
static uint16_t
ip_checksum (const void *data, size_t len)
{
  return fold (sum16 (0, data, len));
}

/* A UDP datagram to DST:9 from SRC:40000 with its IPv4 header, at BUF;
   return its length.  The checksums are left to the kernel where it
   fills them (raw sockets); ip_checksum covers the IP header for frames
   sent below IP.  */
static size_t
build_udp4 (uint8_t *buf, struct in_addr src, struct in_addr dst)
{
  static const char payload[] = "entitle-probe";
  struct iphdr *ip = (struct iphdr *)buf;
  uint8_t *udp = buf + sizeof (*ip);
  size_t len = sizeof (*ip) + 8 + sizeof (payload);

  memset (buf, 0, len);
  ip->version = 4;
  ip->ihl = 5;
  ip->tot_len = htons (len);
  ip->ttl = 64;
  ip->protocol = IPPROTO_UDP;
  ip->saddr = src.s_addr;
  ip->daddr = dst.s_addr;
  ip->check = ip_checksum (ip, sizeof (*ip));
  udp[0] = 40000 >> 8;
  udp[1] = 40000 & 0xff;
  udp[3] = 9;
  udp[4] = (8 + sizeof (payload)) >> 8;
  udp[5] = (8 + sizeof (payload)) & 0xff;
  memcpy (udp + 8, payload, sizeof (payload));
  return len;
}

static int
do_rawsend (int argc, char **argv)
{
  struct sockaddr_in sa = { .sin_family = AF_INET };
  struct in_addr any = { 0 };
  uint8_t buf[128];
  size_t len;
  int fd;

  if (argc != 1 || inet_pton (AF_INET, argv[0], &sa.sin_addr) != 1)
    return usage ();
  /* IPPROTO_RAW implies IP_HDRINCL; saddr 0 is filled in by the kernel.  */
  fd = socket (AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
  if (fd < 0)
    return report (fd);
  len = build_udp4 (buf, any, sa.sin_addr);
  return report (sendto (fd, buf, len, 0, (struct sockaddr *)&sa, sizeof (sa)));
}

static int
do_packetsend (int argc, char **argv)
{
  struct sockaddr_ll ll = { .sll_family = AF_PACKET, .sll_halen = ETH_ALEN };
  unsigned int mac[ETH_ALEN];
  struct in_addr dst;
  uint8_t frame[ETH_HLEN + 128];
  size_t len;
  int fd, i;

  if (argc != 3 || inet_pton (AF_INET, argv[2], &dst) != 1
      || sscanf (argv[1], "%x:%x:%x:%x:%x:%x", &mac[0], &mac[1], &mac[2], &mac[3], &mac[4], &mac[5]) != 6)
    return usage ();
  ll.sll_ifindex = if_nametoindex (argv[0]);
  if (ll.sll_ifindex == 0)
    return report (-1);
  ll.sll_protocol = htons (ETH_P_IP);
  memset (frame, 0, ETH_HLEN);
  for (i = 0; i < ETH_ALEN; i++)
    frame[i] = ll.sll_addr[i] = mac[i];
  frame[12] = ETH_P_IP >> 8;
  frame[13] = ETH_P_IP & 0xff;
  len = ETH_HLEN + build_udp4 (frame + ETH_HLEN, dst, dst);
  fd = socket (AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return report (fd);
  return report (sendto (fd, frame, len, 0, (struct sockaddr *)&ll, sizeof (ll)));
}

static int
do_ping (int argc, char **argv)
{
  struct sockaddr_storage sa;
  uint8_t echo[16] = { 0 };
  socklen_t len;
  int fd;

  if (argc != 1)
    return usage ();
  len = need_addr (argv[0], "0", &sa);
  /* Type 8 (128 for ICMPv6), code 0; the kernel sets the id and the
     checksum of a ping socket's messages.  */
  echo[0] = sa.ss_family == AF_INET ? 8 : 128;
  echo[7] = 1;
  memcpy (echo + 8, "entitle", 7);
  fd = socket (sa.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, sa.ss_family == AF_INET ? IPPROTO_ICMP : IPPROTO_ICMPV6);
  if (fd < 0)
    return report (fd);
  return report (sendto (fd, echo, sizeof (echo), 0, (struct sockaddr *)&sa, len));
}

/* Source routes, in static storage so that the 32-bit calls (which take
   32-bit pointers) can name them too: the probe is a static non-PIE
   binary, whose data lives below 4 GiB.  */
static uint8_t srh[8 + 2 * 16];
static uint8_t lsrr_opt[8];
static struct sockaddr_storage final_sa;
static const char datagram[] = "entitle-probe";

/* A segment routing header (type 4) of two segments: segments[1], the
   first hop, is where the packet goes first; segments[0], the final
   destination, is the sockaddr's (the kernel writes it there).  */
static int
build_srh (const char *firsthop)
{
  memset (srh, 0, sizeof (srh));
  srh[1] = (sizeof (srh) - 8) / 8; /* hdrlen */
  srh[2] = 4;                      /* type: IPV6_SRCRT_TYPE_4 */
  srh[3] = 1;                      /* segments_left */
  srh[4] = 1;                      /* first_segment */
  memcpy (srh + 8, &((struct sockaddr_in6 *)&final_sa)->sin6_addr, 16);
  return inet_pton (AF_INET6, firsthop, srh + 24) == 1 ? 0 : -1;
}

/* NOP, then LSRR (length 7, pointer 4) through FIRSTHOP: for an option
   given to setsockopt the kernel takes the first address as the next hop
   and writes the final destination (the sockaddr's) in its place.  */
static int
build_lsrr (const char *firsthop)
{
  memset (lsrr_opt, 0, sizeof (lsrr_opt));
  lsrr_opt[0] = IPOPT_NOP;
  lsrr_opt[1] = IPOPT_LSRR;
  lsrr_opt[2] = 7;
  lsrr_opt[3] = 4;
  return inet_pton (AF_INET, firsthop, lsrr_opt + 4) == 1 ? 0 : -1;
}

/* Parse FIRSTHOP FINAL PORT of srcroute6 (V6) or lsrr into the static
   route and final_sa.  */
static int
source_route_args (int v6, int argc, char **argv)
{
  if (argc != 3 || make_addr (argv[1], argv[2], &final_sa) == 0
      || final_sa.ss_family != (v6 ? AF_INET6 : AF_INET))
    return -1;
  return v6 ? build_srh (argv[0]) : build_lsrr (argv[0]);
}

static int
do_source_route (int v6, int argc, char **argv)
{
  socklen_t len = v6 ? sizeof (struct sockaddr_in6) : sizeof (struct sockaddr_in);
  int fd;

  if (source_route_args (v6, argc, argv) < 0)
    return usage ();
  fd = socket (final_sa.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return report (fd);
  if ((v6 ? setsockopt (fd, IPPROTO_IPV6, IPV6_RTHDR, srh, sizeof (srh))
          : setsockopt (fd, IPPROTO_IP, IP_OPTIONS, lsrr_opt, sizeof (lsrr_opt)))
      < 0)
    return report (-1);
  return report (sendto (fd, datagram, sizeof (datagram), 0, (struct sockaddr *)&final_sa, len));
}

#if defined(__x86_64__)
#define HAVE_INT80        1
#define I386_SOCKETCALL   102
#define I386_SOCKET       359
#define I386_SETSOCKOPT   366
#define SOCKETCALL_SOCKET 1
#define SOCKETCALL_SENDTO 11

/* socketcall's arguments: 32-bit words, below 4 GiB.  */
static uint32_t socketcall_args[6];

/* A system call through the 32-bit compat entry.  */
static int
int80 (long nr, long a, long b, long c, long d, long e)
{
  long ret;

  __asm__ volatile("int $0x80"
                   : "=a"(ret)
                   : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
                   : "memory", "r8", "r9", "r10", "r11");
  if ((int)ret < 0 && (int)ret > -4096)
    {
      errno = -(int)ret;
      return -1;
    }
  return (int)ret;
}

static long
low (const void *p)
{
  return (long)(uintptr_t)p;
}

static int
int80_socket (int socketcall, int domain, int type, int proto)
{
  if (!socketcall)
    return int80 (I386_SOCKET, domain, type, proto, 0, 0);
  socketcall_args[0] = domain;
  socketcall_args[1] = type;
  socketcall_args[2] = proto;
  return int80 (I386_SOCKETCALL, SOCKETCALL_SOCKET, low (socketcall_args), 0, 0, 0);
}

/* The source route set and the datagram sent through the 32-bit entry:
   the kernel runs no cgroup setsockopt program for a compat setsockopt.  */
static int
int80_source_route (int v6)
{
  socklen_t len = v6 ? sizeof (struct sockaddr_in6) : sizeof (struct sockaddr_in);
  int fd = socket (final_sa.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

  if (fd < 0)
    return errno;
  if ((v6 ? int80 (I386_SETSOCKOPT, fd, IPPROTO_IPV6, IPV6_RTHDR, low (srh), sizeof (srh))
          : int80 (I386_SETSOCKOPT, fd, IPPROTO_IP, IP_OPTIONS, low (lsrr_opt), sizeof (lsrr_opt)))
      < 0)
    return errno;
  socketcall_args[0] = fd;
  socketcall_args[1] = low (datagram);
  socketcall_args[2] = sizeof (datagram);
  socketcall_args[3] = 0;
  socketcall_args[4] = low (&final_sa);
  socketcall_args[5] = len;
  return errno_of (int80 (I386_SOCKETCALL, SOCKETCALL_SENDTO, low (socketcall_args), 0, 0, 0));
}
#endif

static int
do_int80 (int argc, char **argv)
{
#ifdef HAVE_INT80
  int domain, type, proto, v6;
  pid_t child;

  if (argc < 1)
    return usage ();
  if (low (socketcall_args) > 0xffffffffL)
    {
      puts ("unsupported: the probe's data is above 4 GiB");
      return EXIT_USAGE;
    }
  if (strcmp (argv[0], "socketcall") == 0 || strcmp (argv[0], "socket") == 0)
    {
      int sc = strcmp (argv[0], "socketcall") == 0;

      if (argc < 2 || argc > 3 || socket_args (argv[1], argc > 2 ? argv[2] : NULL, &domain, &type, &proto) < 0)
        return usage ();
      fflush (stdout);
      child = fork ();
      if (child == 0)
        _exit (errno_of (int80_socket (sc, domain, type, proto)));
      return report_child (child);
    }
  v6 = strcmp (argv[0], "srcroute6") == 0;
  if ((v6 || strcmp (argv[0], "lsrr") == 0) && source_route_args (v6, argc - 1, argv + 1) == 0)
    {
      fflush (stdout);
      child = fork ();
      if (child == 0)
        _exit (int80_source_route (v6));
      return report_child (child);
    }
  return usage ();
#else
  (void)argc;
  (void)argv;
  puts ("unsupported: int $0x80 exists on x86-64 only");
  return EXIT_USAGE;
#endif
}

/* Submit the one request SQE through raw io_uring calls (no liburing in
   a static probe) and wait for it: return 0 if its CQE succeeded, else
   the errno of io_uring_setup or of the CQE.  */
static int
uring_one (const struct io_uring_sqe *sqe)
{
  struct io_uring_params p;
  struct io_uring_sqe *sqes;
  struct io_uring_cqe *cqe;
  size_t sq_size, cq_size;
  unsigned *tail, idx;
  char *sq, *cq;
  int fd, res;

  memset (&p, 0, sizeof (p));
  fd = syscall (SYS_io_uring_setup, 4, &p);
  if (fd < 0)
    return errno;
  sq_size = p.sq_off.array + p.sq_entries * sizeof (unsigned);
  cq_size = p.cq_off.cqes + p.cq_entries * sizeof (struct io_uring_cqe);
  if (p.features & IORING_FEAT_SINGLE_MMAP)
    sq_size = cq_size = sq_size > cq_size ? sq_size : cq_size;
  sq = mmap (NULL, sq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
  if (sq == MAP_FAILED)
    return errno;
  cq = sq;
  if (!(p.features & IORING_FEAT_SINGLE_MMAP))
    {
      cq = mmap (NULL, cq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_CQ_RING);
      if (cq == MAP_FAILED)
        return errno;
    }
  sqes = mmap (NULL, p.sq_entries * sizeof (*sqes), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
               IORING_OFF_SQES);
  if (sqes == MAP_FAILED)
    return errno;

  tail = (unsigned *)(sq + p.sq_off.tail);
  idx = *tail & *(unsigned *)(sq + p.sq_off.ring_mask);
  sqes[idx] = *sqe;
  ((unsigned *)(sq + p.sq_off.array))[idx] = idx;
  __atomic_store_n (tail, *tail + 1, __ATOMIC_RELEASE);
  if (syscall (SYS_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
    return errno;

  cqe = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
  cqe += __atomic_load_n ((unsigned *)(cq + p.cq_off.head), __ATOMIC_ACQUIRE)
         & *(unsigned *)(cq + p.cq_off.ring_mask);
  res = cqe->res;
  return res >= 0 ? 0 : -res;
}

/* uring-socket FAMILY [TYPE] (IORING_OP_SOCKET), uring-connect ADDR
   PORT (IORING_OP_CONNECT of a TCP socket) and uring-sendto ADDR PORT
   (IORING_OP_SENDMSG of one UDP datagram), in a child.  */
static int
do_uring (const char *op, int argc, char **argv)
{
  static struct sockaddr_storage sa;
  static struct iovec iov = { .iov_base = (void *)datagram, .iov_len = sizeof (datagram) };
  static struct msghdr msg = { .msg_name = &sa, .msg_iov = &iov, .msg_iovlen = 1 };
  struct io_uring_sqe sqe;
  int domain, type, proto;
  socklen_t len;
  pid_t child;

  memset (&sqe, 0, sizeof (sqe));
  if (strcmp (op, "socket") == 0)
    {
      if (argc < 1 || argc > 2 || socket_args (argv[0], argc > 1 ? argv[1] : NULL, &domain, &type, &proto) < 0)
        return usage ();
      sqe.opcode = IORING_OP_SOCKET;
      sqe.fd = domain;
      sqe.off = type;
      sqe.len = proto;
    }
  else
    {
      int stream = strcmp (op, "connect") == 0;

      if (argc != 2 || (len = make_addr (argv[0], argv[1], &sa)) == 0)
        return usage ();
      sqe.fd = socket (sa.ss_family, (stream ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
      if (sqe.fd < 0)
        return report (-1);
      sqe.opcode = stream ? IORING_OP_CONNECT : IORING_OP_SENDMSG;
      if (stream)
        {
          sqe.addr = (uintptr_t)&sa;
          sqe.off = len;
        }
      else
        {
          msg.msg_namelen = len;
          sqe.addr = (uintptr_t)&msg;
          sqe.len = 1;
        }
    }
  fflush (stdout);
  child = fork ();
  if (child == 0)
    _exit (uring_one (&sqe));
  return report_child (child);
}

/* Wait up to SECS for FD to become readable: 1 if it did, 0 if not.  */
static int
wait_readable (int fd, int secs)
{
  struct pollfd pfd = { .fd = fd, .events = POLLIN };

  return poll (&pfd, 1, secs * 1000) > 0;
}

/* TCP connect to SA that gives up after SECS; return connect's result
   (errno ETIMEDOUT when it gave up).  */
static int
connect_within (int fd, struct sockaddr_storage *sa, socklen_t len, int secs)
{
  struct pollfd pfd = { .fd = fd, .events = POLLOUT };
  socklen_t elen = sizeof (int);
  int err = 0, flags = fcntl (fd, F_GETFL);

  fcntl (fd, F_SETFL, flags | O_NONBLOCK);
  if (connect (fd, (struct sockaddr *)sa, len) == 0)
    goto done;
  if (errno != EINPROGRESS)
    return -1;
  if (poll (&pfd, 1, secs * 1000) <= 0)
    {
      errno = ETIMEDOUT;
      return -1;
    }
  if (getsockopt (fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0)
    return -1;
  if (err != 0)
    {
      errno = err;
      return -1;
    }
done:
  fcntl (fd, F_SETFL, flags);
  return 0;
}

static int
do_connect (const char *src, int argc, char **argv)
{
  struct sockaddr_storage sa;
  socklen_t len;
  int fd;

  if (argc != 3)
    return do_net (src, SOCK_STREAM, argc, argv);
  len = need_addr (argv[0], argv[1], &sa);
  fd = socket_from (src, SOCK_STREAM, &sa);
  if (fd < 0)
    return report (fd);
  return report (connect_within (fd, &sa, len, atoi (argv[2])));
}

/* connect-fd FD ADDR PORT: the socket FD, made by whoever started the
   probe (outside the container), connected from inside.  */
static int
do_connect_fd (int argc, char **argv)
{
  struct sockaddr_storage sa;
  socklen_t len;

  if (argc != 3)
    return usage ();
  len = need_addr (argv[1], argv[2], &sa);
  return report (connect (atoi (argv[0]), (struct sockaddr *)&sa, len));
}

static int
do_fetch (int argc, char **argv)
{
  struct sockaddr_storage sa;
  socklen_t len;
  char buf[64];
  int fd;

  if (argc != 3)
    return usage ();
  len = need_addr (argv[0], argv[1], &sa);
  fd = socket (sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return report (fd);
  if (connect_within (fd, &sa, len, atoi (argv[2])) < 0)
    return report (-1);
  if (wait_readable (fd, atoi (argv[2])) && read (fd, buf, sizeof (buf)) > 0)
    {
      puts ("got");
      return EXIT_SUCCESS;
    }
  puts ("none");
  return EXIT_DENIED;
}

/* Print the local port of FD (a listener or a bound socket).  */
static int
print_port (int fd)
{
  struct sockaddr_storage sa;
  socklen_t len = sizeof (sa);

  if (getsockname (fd, (struct sockaddr *)&sa, &len) < 0)
    return -1;
  printf ("%d\n", ntohs (((struct sockaddr_in *)&sa)->sin_port));
  fflush (stdout);
  return 0;
}

/* FD listens: wait up to SECS for one client, greet it, and say whether
   it came.  */
static int
serve_once (int fd, int secs)
{
  int client;

  if (!wait_readable (fd, secs))
    {
      puts ("none");
      return EXIT_DENIED;
    }
  client = accept (fd, NULL, NULL);
  if (client < 0)
    return report (-1);
  /* The client may be gone already (a bare connect): no SIGPIPE.  */
  send (client, "hello\n", 6, MSG_NOSIGNAL);
  puts ("accepted");
  return EXIT_SUCCESS;
}

/* listen0 (BIND_PORT "0"), listen-auto (BIND_PORT NULL: no bind at all)
   and accept-once PORT, then [SECS [inet6]]: IPv4 unless inet6 is named
   (an IPv6 socket bound to :: takes IPv4 too, unless IPV6_V6ONLY).  */
static int
do_listen (const char *bind_port, int argc, char **argv)
{
  struct sockaddr_storage ss;
  int v6 = argc == 2 && strcmp (argv[1], "inet6") == 0, fd, one = 1;

  if (argc > 2 || (argc == 2 && !v6))
    return usage ();
  fd = socket (v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return report (fd);
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof (one));
  if (bind_port != NULL)
    {
      socklen_t len = make_addr (v6 ? "::" : "0.0.0.0", bind_port, &ss);

      if (bind (fd, (struct sockaddr *)&ss, len) < 0)
        return report (-1);
    }
  if (listen (fd, 1) < 0 || print_port (fd) < 0)
    return report (-1);
  return serve_once (fd, argc >= 1 ? atoi (argv[0]) : 0);
}

/* Wait up to SECS for a datagram on FD: whether one came.  The error an
   ICMP message left on a connected socket (ECONNREFUSED) is skipped.  */
static int
datagram_within (int fd, int secs)
{
  char buf[64];

  while (wait_readable (fd, secs))
    if (recv (fd, buf, sizeof (buf), 0) >= 0)
      return 1;
    else if (errno != ECONNREFUSED)
      return 0;
  return 0;
}

static int
do_udp_auto (int argc, char **argv)
{
  struct sockaddr_storage sa;
  socklen_t len;
  int fd, conn = argc == 4 && strcmp (argv[3], "connect") == 0;

  if (argc < 2 || argc > 4 || (argc == 4 && !conn))
    return usage ();
  len = need_addr (argv[0], argv[1], &sa);
  fd = socket (sa.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return report (fd);
  if (conn && connect (fd, (struct sockaddr *)&sa, len) < 0)
    return report (-1);
  if (sendto (fd, "x", 1, 0, conn ? NULL : (struct sockaddr *)&sa, conn ? 0 : len) < 0 || print_port (fd) < 0)
    return report (-1);
  if (datagram_within (fd, argc >= 3 ? atoi (argv[2]) : 0))
    {
      puts ("got");
      return EXIT_SUCCESS;
    }
  puts ("none");
  return EXIT_DENIED;
}

/* ---- IPv6 extension-header chains (issue 23) ---- */

/* An IPv6 packet built by hand: the fixed header, the extension headers
   in order, then the transport header.  */
struct chain6
{
  uint8_t buf[2048];
  size_t len;               /* bytes written so far */
  size_t next;              /* where the last header names the one after it */
  struct in6_addr src, dst; /* the fixed header's */
  struct in6_addr final;    /* the destination the transport's checksum names */
};

/* Append a header of type TYPE whose LEN bytes (a multiple of 8, next
   header and length bytes included) are BODY.  The length byte of an
   extension header counts 8-byte units beyond the first, AH's 4-byte
   words beyond the second (RFC 4302); a Fragment header's is reserved.  */
static void
chain_add (struct chain6 *c, uint8_t type, const uint8_t *body, size_t len)
{
  c->buf[c->next] = type;
  c->next = c->len;
  memcpy (c->buf + c->len, body, len);
  if (type == IPPROTO_AH)
    c->buf[c->len + 1] = len / 4 - 2;
  else if (type != IPPROTO_TCP && type != IPPROTO_UDP && type != IPPROTO_FRAGMENT)
    c->buf[c->len + 1] = len / 8 - 1;
  c->len += len;
}

/* An Authentication Header with a 96-bit ICV (as HMAC-SHA1-96 makes),
   SPI 256, sequence number 1: 24 bytes, 4 in AH's own count.  */
static void
chain_ah (struct chain6 *c)
{
  static const uint8_t ah[24] = { 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };

  chain_add (c, IPPROTO_AH, ah, sizeof (ah));
}

/* An atomic Fragment header (RFC 6946): offset 0, no more fragments.  */
static void
chain_frag (struct chain6 *c)
{
  static const uint8_t frag[8] = { 0, 0, 0, 0, 0, 0, 0x12, 0x34 };

  chain_add (c, IPPROTO_FRAGMENT, frag, sizeof (frag));
}

/* A Destination Options header that holds padding only (PadN).  */
static void
chain_dstopts (struct chain6 *c)
{
  static const uint8_t padn[8] = { 0, 0, 1, 4 };

  chain_add (c, IPPROTO_DSTOPTS, padn, sizeof (padn));
}

/* A segment routing header (type 4) of two segments: the packet goes to
   the fixed header's destination first, then to SEGMENT, where it ends.  */
static int
chain_srh (struct chain6 *c, const char *segment)
{
  uint8_t rt[8 + 2 * 16] = { 0, 0, 4, 1, 1 }; /* type 4, segments_left 1, last_entry 1 */

  if (inet_pton (AF_INET6, segment, &c->final) != 1)
    return -1;
  memcpy (rt + 8, &c->final, 16);
  memcpy (rt + 24, &c->dst, 16);
  chain_add (c, IPPROTO_ROUTING, rt, sizeof (rt));
  return 0;
}

/* The headers named in LIST, separated by commas: "dst" (a Destination
   Options header), "rt=ADDR" (chain_srh), "ah" or "frag".  */
static int
chain_headers (struct chain6 *c, char *list)
{
  char *save = NULL;

  for (char *h = strtok_r (list, ",", &save); h != NULL; h = strtok_r (NULL, ",", &save))
    if (c->len + 40 + 20 + 14 > sizeof (c->buf))
      return -1; /* no room for one more header and the transport's */
    else if (strcmp (h, "dst") == 0)
      chain_dstopts (c);
    else if (strcmp (h, "ah") == 0)
      chain_ah (c);
    else if (strcmp (h, "frag") == 0)
      chain_frag (c);
    else if (strncmp (h, "rt=", 3) != 0 || chain_srh (c, h + 3) < 0)
      return -1;
  return 0;
}

/* The transport header: a UDP datagram or a bare TCP SYN from SPORT to
   PORT, its checksum over the IPv6 pseudo-header of RFC 8200 8.1.  */
static void
chain_transport (struct chain6 *c, int syn, uint16_t sport, uint16_t port)
{
  static const char payload[] = "entitle-probe";
  uint8_t t[20 + sizeof (payload)] = { sport >> 8, sport & 0xff, port >> 8, port & 0xff };
  size_t len = syn ? 20 : 8 + sizeof (payload);
  uint8_t proto = syn ? IPPROTO_TCP : IPPROTO_UDP;
  uint32_t sum, ulen = htonl (len), nh = htonl (proto);
  uint16_t check;

  if (syn)
    {
      t[7] = 1;       /* sequence number */
      t[12] = 5 << 4; /* data offset: no options */
      t[13] = 0x02;   /* SYN */
      t[14] = t[15] = 0xff;
    }
  else
    {
      t[4] = len >> 8;
      t[5] = len & 0xff;
      memcpy (t + 8, payload, sizeof (payload));
    }
  sum = sum16 (sum16 (0, &c->src, 16), &c->final, 16);
  sum = sum16 (sum16 (sum, &ulen, 4), &nh, 4);
  check = fold (sum16 (sum, t, len));
  memcpy (t + (syn ? 16 : 6), &check, 2);
  chain_add (c, proto, t, len);
}

/* Wait up to SECS for the answer to a SYN sent from SPORT to FROM:PORT
   on FD, a raw TCP socket: "synack" (the listener took it), "rst" (no
   listener) or "none".  */
static const char *
syn_answer (int fd, const struct in6_addr *from, uint16_t port, uint16_t sport, int secs)
{
  struct sockaddr_in6 sa;
  socklen_t len;
  uint8_t th[64];
  ssize_t n;

  while (wait_readable (fd, secs))
    {
      len = sizeof (sa);
      n = recvfrom (fd, th, sizeof (th), 0, (struct sockaddr *)&sa, &len);
      if (n < 20 || memcmp (&sa.sin6_addr, from, 16) != 0 || ((th[0] << 8) | th[1]) != port
          || ((th[2] << 8) | th[3]) != sport)
        continue;
      if (th[13] & 0x04)
        return "rst";
      if ((th[13] & 0x12) == 0x12)
        return "synack";
    }
  return "none";
}

/* chain6 SRC DST PORT HEADERS udp|syn [SECS [SPORT]]: one packet through
   a raw IPPROTO_RAW socket (the probe writes the IPv6 header).  */
static int
do_chain6 (int argc, char **argv)
{
  static struct chain6 c;
  struct sockaddr_in6 sa = { .sin6_family = AF_INET6 };
  uint16_t port = argc > 2 ? atoi (argv[2]) : 0, sport = argc == 7 ? atoi (argv[6]) : 40000 + getpid () % 20000;
  int syn = argc > 4 && strcmp (argv[4], "syn") == 0, fd, answers = -1;

  if (argc < 5 || argc > 7 || (!syn && strcmp (argv[4], "udp") != 0) || inet_pton (AF_INET6, argv[0], &c.src) != 1
      || inet_pton (AF_INET6, argv[1], &c.dst) != 1)
    return usage ();
  c.final = sa.sin6_addr = c.dst;
  c.buf[0] = 6 << 4;
  c.buf[7] = 64; /* hop limit */
  memcpy (c.buf + 8, &c.src, 16);
  memcpy (c.buf + 24, &c.dst, 16);
  c.len = 40;
  c.next = 6;
  if (chain_headers (&c, argv[3]) < 0)
    return usage ();
  chain_transport (&c, syn, sport, port);
  c.buf[4] = (c.len - 40) >> 8;
  c.buf[5] = (c.len - 40) & 0xff;
  if (syn && (answers = socket (AF_INET6, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_TCP)) < 0)
    return report (-1);
  fd = socket (AF_INET6, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
  if (fd < 0 || sendto (fd, c.buf, c.len, 0, (struct sockaddr *)&sa, sizeof (sa)) < 0)
    return report (-1);
  if (!syn)
    return report (0);
  puts (syn_answer (answers, &c.dst, port, sport, argc >= 6 ? atoi (argv[5]) : 2));
  return EXIT_SUCCESS;
}

/* The target of process-vm: a child reads it out of its own child.  */
static volatile int process_vm_word = 0x656e74;

static int
process_vm_attempt (void)
{
  struct iovec local, remote;
  pid_t target;
  int word = 0, ret;

  target = fork ();
  if (target == 0)
    {
      pause ();
      _exit (0);
    }
  if (target < 0)
    return errno;
  local.iov_base = &word;
  local.iov_len = sizeof (word);
  remote.iov_base = (void *)&process_vm_word;
  remote.iov_len = sizeof (word);
  ret = errno_of (process_vm_readv (target, &local, 1, &remote, 1, 0));
  kill (target, SIGKILL);
  waitpid (target, NULL, 0);
  if (ret == 0 && word != process_vm_word)
    return EIO;
  return ret;
}

static int
do_process_vm (void)
{
  pid_t child;

  fflush (stdout);
  child = fork ();
  if (child == 0)
    _exit (process_vm_attempt ());
  return report_child (child);
}

/* The abstract unix address "\0NAME"; return its length, or 0.  */
static socklen_t
abstract_addr (const char *name, struct sockaddr_un *sun)
{
  size_t n = strlen (name);

  memset (sun, 0, sizeof (*sun));
  sun->sun_family = AF_UNIX;
  if (n + 1 > sizeof (sun->sun_path))
    return 0;
  memcpy (sun->sun_path + 1, name, n);
  return offsetof (struct sockaddr_un, sun_path) + 1 + n;
}

static int
do_abstract (int listening, int argc, char **argv)
{
  struct sockaddr_un sun;
  socklen_t len;
  int fd;

  if (argc < 1 || argc > (listening ? 2 : 1) || (len = abstract_addr (argv[0], &sun)) == 0)
    return usage ();
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return report (fd);
  if (!listening)
    return report (connect (fd, (struct sockaddr *)&sun, len));
  if (bind (fd, (struct sockaddr *)&sun, len) < 0 || listen (fd, 1) < 0)
    return report (-1);
  puts ("listening");
  fflush (stdout);
  return serve_once (fd, argc == 2 ? atoi (argv[1]) : 0);
}

int
main (int argc, char **argv)
{
  const char *cmd, *src = NULL;
  int ret;

  if (argc < 2)
    return usage ();
  cmd = argv[1];
  argc -= 2;
  argv += 2;
  /* from SRC connect|sendto ...: the same from the source address SRC.  */
  if (strcmp (cmd, "from") == 0 && argc >= 2)
    {
      src = argv[0];
      cmd = argv[1];
      argc -= 2;
      argv += 2;
      if (strcmp (cmd, "connect") != 0 && strcmp (cmd, "sendto") != 0)
        return usage ();
    }

  if (strcmp (cmd, "socket") == 0)
    return do_socket (argc, argv);
  if (strcmp (cmd, "caps") == 0)
    return print_status ("Cap", 0);
  if (strcmp (cmd, "nnp") == 0)
    return print_status ("NoNewPrivs:", 1);
  if (strcmp (cmd, "write") == 0)
    return do_write (argc, argv);
  if (strcmp (cmd, "connect") == 0)
    return do_connect (src, argc, argv);
  if (strcmp (cmd, "sendto") == 0)
    return do_net (src, SOCK_DGRAM, argc, argv);
  if (strcmp (cmd, "bind") == 0)
    return do_bind (argc, argv);
  if (strcmp (cmd, "mount") == 0)
    return do_mount (argc, argv);
  if (strcmp (cmd, "move-mount") == 0)
    return do_move_mount (argc, argv);
  if (strcmp (cmd, "unshare") == 0)
    return do_unshare (argc, argv);
  if (strcmp (cmd, "clone") == 0)
    return do_clone (argc, argv);
  if (strcmp (cmd, "setns") == 0)
    return do_setns (argc, argv);
  if (strcmp (cmd, "ptrace") == 0)
    return do_ptrace ();
  if (strcmp (cmd, "setuid") == 0 && argc == 1)
    return report (setuid (atoi (argv[0])));
  if (strcmp (cmd, "truncate") == 0 && argc == 1)
    return report (truncate (argv[0], 0));
  if (strcmp (cmd, "chown") == 0 && argc == 2)
    return report (chown (argv[0], atoi (argv[1]), -1));
  if (strcmp (cmd, "mknod-dev") == 0 && (argc == 1 || argc == 3))
    return do_mknod (argv[0], S_IFCHR, argc == 3 ? atoi (argv[1]) : 1, argc == 3 ? atoi (argv[2]) : 3);
  if (strcmp (cmd, "mkfifo") == 0 && argc == 1)
    return do_mknod (argv[0], S_IFIFO, 0, 0);
  if (strcmp (cmd, "sysctl") == 0 && argc == 2)
    return do_sysctl (argc, argv);
  if (strcmp (cmd, "bpf") == 0)
    return do_bpf ();
  if (strcmp (cmd, "perf") == 0)
    return do_perf ();
  if (strcmp (cmd, "io_uring") == 0)
    return do_io_uring ();
  if (strcmp (cmd, "keyctl") == 0)
    return do_keyctl ();
  if (strcmp (cmd, "userfaultfd") == 0)
    return do_userfaultfd ();
  if (strcmp (cmd, "personality") == 0)
    return do_personality (argc, argv);
  if (strcmp (cmd, "close") == 0 && argc == 1)
    return do_close (argv[0]);
  if (strcmp (cmd, "connect-fd") == 0)
    return do_connect_fd (argc, argv);
  if (strcmp (cmd, "sched_yield") == 0)
    return do_sched_yield ();
  if (strcmp (cmd, "mempolicy") == 0)
    return do_mempolicy ();
  if (strcmp (cmd, "kcmp") == 0)
    return do_kcmp ();
  if (strcmp (cmd, "mlock") == 0)
    return do_mlock ();
  if (strcmp (cmd, "netadmin") == 0)
    return do_netadmin ();
  if (strcmp (cmd, "kexec") == 0)
    return do_kexec ();
  if (strcmp (cmd, "module") == 0)
    return do_module (argc, argv);
  if (strcmp (cmd, "reboot") == 0)
    return do_reboot ();
  if (strcmp (cmd, "read") == 0)
    return do_read (argc, argv);
  if (strcmp (cmd, "int80") == 0)
    return do_int80 (argc, argv);
  if (strncmp (cmd, "uring-", 6) == 0
      && (strcmp (cmd + 6, "socket") == 0 || strcmp (cmd + 6, "connect") == 0 || strcmp (cmd + 6, "sendto") == 0))
    return do_uring (cmd + 6, argc, argv);
  if (strcmp (cmd, "rawsend") == 0)
    return do_rawsend (argc, argv);
  if (strcmp (cmd, "packetsend") == 0)
    return do_packetsend (argc, argv);
  if (strcmp (cmd, "ping") == 0)
    return do_ping (argc, argv);
  if (strcmp (cmd, "srcroute6") == 0)
    return do_source_route (1, argc, argv);
  if (strcmp (cmd, "lsrr") == 0)
    return do_source_route (0, argc, argv);
  if (strcmp (cmd, "listen0") == 0)
    return do_listen ("0", argc, argv);
  if (strcmp (cmd, "listen-auto") == 0)
    return do_listen (NULL, argc, argv);
  if (strcmp (cmd, "accept-once") == 0 && argc >= 1)
    return do_listen (argv[0], argc - 1, argv + 1);
  if (strcmp (cmd, "udp-auto") == 0)
    return do_udp_auto (argc, argv);
  if (strcmp (cmd, "fetch") == 0)
    return do_fetch (argc, argv);
  if (strcmp (cmd, "chain6") == 0)
    return do_chain6 (argc, argv);
  if (strcmp (cmd, "process-vm") == 0)
    return do_process_vm ();
  if (strcmp (cmd, "abstract-connect") == 0)
    return do_abstract (0, argc, argv);
  if (strcmp (cmd, "abstract-listen") == 0)
    return do_abstract (1, argc, argv);
  if ((ret = probe_admin (cmd, argc, argv)) >= 0)
    return ret;
  if (strcmp (cmd, "sleep") == 0 && argc == 1)
    {
      sleep (atoi (argv[0]));
      return EXIT_SUCCESS;
    }
  return usage ();
}
