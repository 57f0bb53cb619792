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
     unshare NS           unshare NS: user|net|mnt|pid|uts|ipc|cgroup|none
     clone NS             clone(2) a child into a new NS (as unshare)
     setns NS             setns to the probe's own NS (user: EINVAL if allowed)
     ptrace               a child asks to be traced (PTRACE_TRACEME)
     setuid UID           setuid(UID)
     chown PATH UID       chown PATH to UID
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

   Where "allowed" is itself an error (kexec, module, reboot, setns user)
   the errno name is printed all the same: EPERM means seccomp or a
   missing capability stopped the call; any other errno (EINVAL, EBADF,
   ENOEXEC, ENOSYS from a kernel built without the feature) means the
   call got past both into the kernel's own argument checks.  */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
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
#include <sys/wait.h>
#include <unistd.h>

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

static int
do_net (int type, int argc, char **argv)
{
  struct sockaddr_storage sa;
  socklen_t len;
  int fd, ret;

  if (argc != 2 || (len = make_addr (argv[0], argv[1], &sa)) == 0)
    return usage ();
  fd = socket (sa.ss_family, type | SOCK_CLOEXEC, 0);
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

/* Wait for CHILD, which exits with 0 or the errno of what it tried.  */
static int
report_child (pid_t child)
{
  int status;

  if (child < 0)
    return report (-1);
  if (waitpid (child, &status, 0) < 0)
    return report (-1);
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

int
main (int argc, char **argv)
{
  const char *cmd;

  if (argc < 2)
    return usage ();
  cmd = argv[1];
  argc -= 2;
  argv += 2;

  if (strcmp (cmd, "socket") == 0)
    return do_socket (argc, argv);
  if (strcmp (cmd, "caps") == 0)
    return print_status ("Cap", 0);
  if (strcmp (cmd, "nnp") == 0)
    return print_status ("NoNewPrivs:", 1);
  if (strcmp (cmd, "write") == 0)
    return do_write (argc, argv);
  if (strcmp (cmd, "connect") == 0)
    return do_net (SOCK_STREAM, argc, argv);
  if (strcmp (cmd, "sendto") == 0)
    return do_net (SOCK_DGRAM, argc, argv);
  if (strcmp (cmd, "bind") == 0)
    return do_bind (argc, argv);
  if (strcmp (cmd, "mount") == 0)
    return do_mount (argc, argv);
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
  if (strcmp (cmd, "sleep") == 0 && argc == 1)
    {
      sleep (atoi (argv[0]));
      return EXIT_SUCCESS;
    }
  return usage ();
}
