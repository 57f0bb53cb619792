/* SPDX-License-Identifier: GPL-2.0-or-later */
/* seed-samples: the user-space halves of the seed patch sets' samples
   (samples/bpf/seccomp1_user.c, seccomp2_user.c and checmate1_user.c of
   seeds 001 and 005), run as the seeds meant them, with the programs of
   examples/ (EXAMPLES, the directory of the built *.bpf.o):

     seed-samples seccomp1 EXAMPLES   the filter installed on this process
                                      (root, no no_new_privs), then
                                      close(999) and close(998)
     seed-samples seccomp2 EXAMPLES   a child installs the filter under
                                      no_new_privs, calls sched_yield() and
                                      stops traced; the parent reads the
                                      filter back with ptrace
     seed-samples checmate1 EXAMPLES  the program installed at
                                      socket_connect, a connect() to port 1,
                                      the hook reset, the connect() again

   Each step prints one line, "STEP: ok" or "STEP: ERRNAME" (or what it
   read), so that bats compares words.  Exit 0 when every step ran, 1 when
   one could not, 2 on a usage error.  A kernel without the interface
   answers the install with EINVAL, which is printed like any errno.  */
#include <config.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/seccomp.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "cgroup.h"
#include "entitle-data.h"
#include "seed-kernel.h"
#include "seed-load.h"

static const char *
err_name (int e)
{
  const char *n = strerrorname_np (e);
  return n ? n : "E?";
}

static void
step (const char *what, long ret)
{
  printf ("%s: %s\n", what, ret < 0 ? err_name (errno) : "ok");
  fflush (stdout);
}

/* The program @name of EXAMPLES/@file loaded as @type: its fd, or -1 with
   a line saying why.  Checmate's carries the running kernel's version
   (seed 006).  */
static int
load (const char *dir, const char *file, const char *name, int type, struct bpf_object **obj)
{
  char path[4096];
  struct bpf_program *p;

  snprintf (path, sizeof (path), "%s/%s", dir, file);
  *obj = bpf_object__open_file (path, NULL);
  if (*obj == NULL || (p = bpf_object__find_program_by_name (*obj, name)) == NULL)
    {
      printf ("load: no program %s in %s\n", name, path);
      return -1;
    }
  bpf_program__set_type (p, (enum bpf_prog_type)type);
  if (type == ENTITLE_BPF_PROG_TYPE_CHECMATE)
    bpf_object__set_kversion (*obj, entitle_seed_kernel_version ());
  if (bpf_object__load (*obj) < 0)
    {
      step ("load", -1);
      return -1;
    }
  step ("load", 0);
  return bpf_program__fd (p);
}

static int
seccomp1 (const char *dir)
{
  struct bpf_object *obj;
  int fd = load (dir, "seccomp1.bpf.o", "close_999", ENTITLE_BPF_PROG_TYPE_SECCOMP, &obj);
  long r;

  if (fd < 0)
    return 1;
  r = prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER_EXTENDED, &fd, 0, 0);
  step ("install", r);
  if (r < 0)
    return 1;
  step ("close 999", close (999));
  step ("close 998", close (998));
  return 0;
}

/* The child of seccomp2: the filter, a sched_yield() it refuses, then
   stopped for the tracer.  */
static void
tracee (int fd)
{
  long r;

  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER_EXTENDED, &fd, 0, 0) < 0)
    {
      step ("install", -1);
      _exit (1);
    }
  step ("install", 0);
  r = syscall (SYS_sched_yield);
  step ("sched_yield", r);
  if (ptrace (PTRACE_TRACEME, 0, NULL, NULL) < 0)
    _exit (1);
  kill (getpid (), SIGSTOP);
  _exit (0);
}

static unsigned
prog_id (int fd)
{
  struct bpf_prog_info info;
  __u32 len = sizeof (info);

  memset (&info, 0, sizeof (info));
  return bpf_obj_get_info_by_fd (fd, &info, &len) == 0 ? info.id : 0;
}

static int
seccomp2 (const char *dir)
{
  struct bpf_object *obj;
  int fd = load (dir, "seccomp2.bpf.o", "no_sched_yield", ENTITLE_BPF_PROG_TYPE_SECCOMP, &obj);
  int status, back;
  pid_t child;
  long r;

  if (fd < 0)
    return 1;
  child = fork ();
  if (child == 0)
    tracee (fd);
  if (child < 0 || waitpid (child, &status, 0) < 0 || !WIFSTOPPED (status))
    {
      printf ("tracee: did not stop\n");
      return 1;
    }
  /* Mainline's request sees a filter with no classic program.  */
  r = ptrace (PTRACE_SECCOMP_GET_FILTER, child, 0, NULL);
  step ("classic read of filter 0", r);
  back = (int)ptrace ((enum __ptrace_request)PTRACE_SECCOMP_GET_FILTER_EXTENDED, child, 0, NULL);
  if (back < 0)
    step ("read back filter 0", -1);
  else
    printf ("read back filter 0: %s\n", prog_id (back) == prog_id (fd) ? "the program loaded" : "another program");
  r = ptrace ((enum __ptrace_request)PTRACE_SECCOMP_GET_FILTER_EXTENDED, child, 1, NULL);
  step ("read back filter 1", r);
  kill (child, SIGKILL);
  waitpid (child, &status, 0);
  return back < 0;
}

static long
connect_port_1 (void)
{
  struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons (1), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  int s = socket (AF_INET, SOCK_STREAM, 0);
  long r = s < 0 ? -1 : connect (s, (const struct sockaddr *)&in, sizeof (in));
  int e = errno;

  if (s >= 0)
    close (s);
  errno = e;
  return r;
}

/* The example reads its port from its entitle_data map, by the caller's
   cgroup: this process's gets port 1, as the seed's sample held it.  */
static int
give_port_1 (struct bpf_object *obj)
{
  struct bpf_map *m = bpf_object__find_map_by_name (obj, "entitle_data");
  struct entitle_data d;
  char path[4200], line[4096] = "";
  FILE *f = fopen ("/proc/self/cgroup", "r");
  int dirfd;

  if (m == NULL || f == NULL)
    return -1;
  /* The cgroup2 line: "0::/PATH".  */
  while (fgets (line, sizeof (line), f) && strncmp (line, "0::", 3) != 0)
    ;
  fclose (f);
  if (strncmp (line, "0::", 3) != 0)
    return -1;
  line[strcspn (line, "\n")] = '\0';
  snprintf (path, sizeof (path), "/sys/fs/cgroup%s", line + 3);
  if ((dirfd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return -1;
  memset (&d, 0, sizeof (d));
  d.cgroup_id = entitle_cgroup_id (dirfd);
  close (dirfd);
  d.flags = ENTITLE_DATA_SET;
  d.n = 1;
  d.words[0] = 1;
  return bpf_map_update_elem (bpf_map__fd (m), &d.cgroup_id, &d, BPF_ANY);
}

static int
checmate1 (const char *dir)
{
  struct bpf_object *obj;
  int fd = load (dir, "checmate1.bpf.o", "deny_port", ENTITLE_BPF_PROG_TYPE_CHECMATE, &obj);
  long r;

  if (fd < 0)
    return 1;
  if (give_port_1 (obj) < 0)
    {
      printf ("entitle_data: %s\n", err_name (errno));
      return 1;
    }
  step ("connect to port 1 before", connect_port_1 ());
  r = prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 6 /* CHECMATE_HOOK_SOCKET_CONNECT */, fd, 0);
  step ("install at socket_connect", r);
  if (r < 0)
    return 1;
  step ("install again", prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 6, fd, 0));
  step ("connect to port 1", connect_port_1 ());
  step ("reset", prctl (PR_CHECMATE, CHECMATE_RESET, 6, 0, 0));
  step ("connect to port 1 after", connect_port_1 ());
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: seed-samples seccomp1|seccomp2|checmate1 EXAMPLES\n");
      return 2;
    }
  libbpf_set_print (NULL);
  if (strcmp (argv[1], "seccomp1") == 0)
    return seccomp1 (argv[2]);
  if (strcmp (argv[1], "seccomp2") == 0)
    return seccomp2 (argv[2]);
  if (strcmp (argv[1], "checmate1") == 0)
    return checmate1 (argv[2]);
  fprintf (stderr, "usage: seed-samples seccomp1|seccomp2|checmate1 EXAMPLES\n");
  return 2;
}
