/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <limits.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "init.h"

/* The Landlock layer (entitle-init(8)): the kernel's uapi, spelt out here
   because the build host's headers may be older than the kernel the
   container runs on (Debian 12's know ABI 2).  Rights the kernel does not
   know are masked off by ABI, as Documentation/userspace-api/landlock.rst
   says to do.  */

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule       445
#define __NR_landlock_restrict_self  446
#endif

#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH      1
#define LL_RULE_NET_PORT          2

#define FS_EXECUTE      (1ULL << 0)
#define FS_WRITE_FILE   (1ULL << 1)
#define FS_READ_FILE    (1ULL << 2)
#define FS_READ_DIR     (1ULL << 3)
#define FS_REMOVE_DIR   (1ULL << 4)
#define FS_REMOVE_FILE  (1ULL << 5)
#define FS_MAKE_CHAR    (1ULL << 6)
#define FS_MAKE_DIR     (1ULL << 7)
#define FS_MAKE_REG     (1ULL << 8)
#define FS_MAKE_SOCK    (1ULL << 9)
#define FS_MAKE_FIFO    (1ULL << 10)
#define FS_MAKE_BLOCK   (1ULL << 11)
#define FS_MAKE_SYM     (1ULL << 12)
#define FS_REFER        (1ULL << 13) /* ABI 2 */
#define FS_TRUNCATE     (1ULL << 14) /* ABI 3 */
#define FS_IOCTL_DEV    (1ULL << 15) /* ABI 5 */
#define NET_BIND_TCP    (1ULL << 0)  /* ABI 4 */
#define NET_CONNECT_TCP (1ULL << 1)  /* ABI 4 */

/* What fs.read and fs.write take away.  Execution is not handled: running
   a file needs it readable anyway, and fs.write leaves it alone.  Device
   ioctls are not writes: a terminal keeps working.  */
#define FS_READ  (FS_READ_FILE | FS_READ_DIR)
#define FS_WRITE (FS_WRITE_FILE | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_CHAR | FS_MAKE_DIR | FS_MAKE_REG \
                  | FS_MAKE_SOCK | FS_MAKE_FIFO | FS_MAKE_BLOCK | FS_MAKE_SYM | FS_REFER | FS_TRUNCATE)
/* The rights a rule on a file (not a directory) may hold.  */
#define FS_FILE (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV)

struct ruleset_attr
{
  uint64_t handled_access_fs;
  uint64_t handled_access_net; /* ABI 4 */
};

struct path_beneath_attr
{
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__ ((packed));

struct net_port_attr
{
  uint64_t allowed_access;
  uint64_t port;
};

/* Device nodes that hold no file of the container's: writing and reading
   them stays allowed under fs.write and fs.read (`2>/dev/null`, a
   terminal, random numbers).  Each is given its rule only where it is
   that device, found without following a link: the container may write
   /dev under fs.read alone, and a /dev/null -> / or a disk's node made
   at /dev/null would hold more.  A link there gets none (runc and crun
   make /dev/ptmx one, to pts/ptmx, which the /dev/pts rule holds),
   neither does a missing entry.  */
enum device_kind
{
  DEV_CHAR,    /* the character device major:minor */
  DEV_CONSOLE, /* that, or the terminal a runtime binds there (devpts) */
  DEV_PTS,     /* a devpts file system */
};

static const struct device
{
  const char *path;
  enum device_kind kind;
  unsigned major, minor;
} devices[] = {
  { "/dev/null", DEV_CHAR, 1, 3 },
  { "/dev/zero", DEV_CHAR, 1, 5 },
  { "/dev/full", DEV_CHAR, 1, 7 },
  { "/dev/random", DEV_CHAR, 1, 8 },
  { "/dev/urandom", DEV_CHAR, 1, 9 },
  { "/dev/tty", DEV_CHAR, 5, 0 },
  { "/dev/console", DEV_CONSOLE, 5, 1 },
  { "/dev/ptmx", DEV_CHAR, 5, 2 },
  { "/dev/pts", DEV_PTS, 0, 0 },
};

struct ruleset
{
  int fd;
  uint64_t handled_fs;
};

static uint64_t
fs_rights_of (int abi)
{
  uint64_t r = (1ULL << 13) - 1;
  if (abi >= 2)
    r |= FS_REFER;
  if (abi >= 3)
    r |= FS_TRUNCATE;
  if (abi >= 5)
    r |= FS_IOCTL_DEV;
  return r;
}

static int
landlock_abi (bool needed)
{
  long abi = syscall (__NR_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
  int saved = errno;

  if (abi > 0 || !needed)
    return abi > 0 ? (int)abi : 0;
  if (saved == ENOSYS)
    init_fail (INIT_EXIT_FAILED, "this kernel has no Landlock (landlock_create_ruleset: %s)", strerror (saved));
  if (saved == EOPNOTSUPP)
    init_fail (INIT_EXIT_FAILED, "Landlock is disabled on this kernel (it is not in the lsm= boot parameter)");
  init_fail (INIT_EXIT_FAILED, "landlock_create_ruleset: %s (does the container's seccomp profile deny it?)", strerror (saved));
}

/* A rule on @fd, the open of @path (closed here), for @allowed (masked
   to what the ruleset handles, and to a file's rights on a file).  */
static void
add_rule (const struct ruleset *rs, int fd, const char *what, const char *path, uint64_t allowed)
{
  struct path_beneath_attr attr;
  struct stat st;

  if (fd < 0 || fstat (fd, &st) < 0)
    init_fail (INIT_EXIT_FAILED, "%s `%s`: %s", what, path, strerror (errno));
  allowed &= rs->handled_fs;
  if (!S_ISDIR (st.st_mode))
    allowed &= FS_FILE;
  attr.allowed_access = allowed;
  attr.parent_fd = fd;
  if (allowed && syscall (__NR_landlock_add_rule, rs->fd, LL_RULE_PATH_BENEATH, &attr, 0) < 0)
    init_fail (INIT_EXIT_FAILED, "%s `%s`: landlock_add_rule: %s", what, path, strerror (errno));
  close (fd);
}

/* A path of fs.read or fs.write (@what), as listed: never through a
   link, which the image or the container could point anywhere (an
   image's /data -> / would make fs.write=/data the whole file system's).
   A link, or a path missing, ends the helper naming the entitlement.  */
static void
add_listed (const struct ruleset *rs, const char *what, const char *path, uint64_t allowed)
{
  char link[PATH_MAX], to[PATH_MAX];
  int fd = init_open_nofollow (path, link, sizeof (link));
  ssize_t n;

  if (fd < 0 && errno == ELOOP)
    {
      n = readlink (link, to, sizeof (to) - 1);
      to[n < 0 ? 0 : n] = '\0';
      init_fail (INIT_EXIT_FAILED, "%s `%s`: `%s` is a symbolic link (to `%s`), which a rule never follows: list the path it leads to",
                 what, path, link, to);
    }
  if (fd < 0)
    init_fail (INIT_EXIT_FAILED, "%s `%s`: %s", what, path, strerror (errno));
  add_rule (rs, fd, what, path, allowed);
}

/* Is @fd the device @d names?  */
static bool
is_device (int fd, const struct device *d)
{
  struct stat st;
  struct statfs fs;

  if (fstat (fd, &st) < 0 || fstatfs (fd, &fs) < 0)
    return false;
  if (d->kind == DEV_PTS)
    return S_ISDIR (st.st_mode) && fs.f_type == DEVPTS_SUPER_MAGIC;
  if (!S_ISCHR (st.st_mode))
    return false;
  if (d->kind == DEV_CONSOLE && fs.f_type == DEVPTS_SUPER_MAGIC)
    return true;
  return major (st.st_rdev) == d->major && minor (st.st_rdev) == d->minor;
}

static void
add_device (const struct ruleset *rs, const struct device *d)
{
  int fd = init_open_nofollow (d->path, NULL, 0);

  if (fd >= 0 && is_device (fd, d))
    add_rule (rs, fd, "device", d->path, FS_READ_FILE | FS_WRITE_FILE | FS_TRUNCATE);
  else if (fd >= 0)
    close (fd);
}

/* Does @fd name what a rule for @need may hold?  A loader's directory or
   file; an executable file for the command and its interpreters: one
   file, never a directory, and only one the kernel could run.  */
static bool
fits_need (int fd, enum need need)
{
  struct stat st;

  if (fstat (fd, &st) < 0)
    return false;
  if (need == NEED_LOADER)
    return S_ISDIR (st.st_mode) || S_ISREG (st.st_mode);
  return S_ISREG (st.st_mode) && (st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH));
}

/* What the command needs to start (init/run-needs.c), readable.  Its file
   and its interpreters as execve(2) finds them, links followed (see
   fits_need); the loader's directories and cache never through a link:
   a link gets no rule, and what it leads to is readable only where
   another rule holds it.  */
static void
add_run_need (const char *path, enum need need, void *data)
{
  int fd = need == NEED_LOADER ? init_open_nofollow (path, NULL, 0) : open (path, O_PATH | O_CLOEXEC);

  if (fd < 0 && need == NEED_COMMAND)
    init_fail (INIT_EXIT_FAILED, "run `%s`: %s", path, strerror (errno));
  if (fd >= 0 && fits_need (fd, need))
    add_rule (data, fd, "run", path, FS_READ_FILE);
  else if (fd >= 0)
    close (fd);
}

/* PORT or LO-HI, 0 to 65535: entitle passes 0 for bind(0), the port the
   kernel chooses.  */
static void
parse_ports (const char *s, unsigned long *lo, unsigned long *hi)
{
  char *end;

  errno = 0;
  *lo = strtoul (s, &end, 10);
  *hi = *lo;
  if (*end == '-' && end > s)
    *hi = strtoul (end + 1, &end, 10);
  if (errno || *end || *s < '0' || *s > '9' || *lo > *hi || *hi > 65535)
    init_fail (INIT_EXIT_FAILED, "`%s` is not a port or a port range", s);
}

static void
add_ports (int fd, const char *value, uint64_t access)
{
  unsigned long lo, hi, port;

  parse_ports (value, &lo, &hi);
  for (port = lo; port <= hi; port++)
    {
      struct net_port_attr attr = { .allowed_access = access, .port = port };
      if (syscall (__NR_landlock_add_rule, fd, LL_RULE_NET_PORT, &attr, 0) < 0)
        init_fail (INIT_EXIT_FAILED, "port %lu: landlock_add_rule: %s", port, strerror (errno));
    }
}

/* fs.write: everything handled beneath its paths.  fs.read: reading its
   paths and what the command needs to run.  Reparenting (REFER) is denied
   by every ruleset of ABI 2 on unless a rule allows it: without fs.write,
   it is allowed everywhere (the kernel still refuses a move that would
   make a file readable).  */
static void
add_fs_rules (const struct ruleset *rs, const struct plan *p)
{
  bool writes = plan_has (p, RULE_FS_WRITE), reads = plan_has (p, RULE_FS_READ);

  for (size_t i = 0; i < p->n_rules; i++)
    {
      if (p->rules[i].kind == RULE_FS_WRITE)
        add_listed (rs, "fs.write", p->rules[i].value, rs->handled_fs);
      if (p->rules[i].kind == RULE_FS_READ)
        add_listed (rs, "fs.read", p->rules[i].value, FS_READ);
    }
  for (size_t i = 0; i < sizeof (devices) / sizeof (devices[0]); i++)
    add_device (rs, &devices[i]);
  if (!writes)
    add_rule (rs, open ("/", O_PATH | O_CLOEXEC), "reparenting", "/", FS_REFER);
  if (reads)
    init_run_needs (p->path, add_run_need, (void *)rs);
}

static void
add_net_rules (int fd, const struct plan *p)
{
  for (size_t i = 0; i < p->n_rules; i++)
    {
      if (p->rules[i].kind == RULE_TCP_CONNECT)
        add_ports (fd, p->rules[i].value, NET_CONNECT_TCP);
      if (p->rules[i].kind == RULE_TCP_BIND)
        add_ports (fd, p->rules[i].value, NET_BIND_TCP);
    }
}

void
init_landlock (const struct plan *p)
{
  bool fs = plan_has (p, RULE_FS_WRITE) || plan_has (p, RULE_FS_READ);
  struct ruleset_attr attr = { 0 };
  struct ruleset rs;
  int abi = landlock_abi (fs);

  /* The TCP rules are a second layer under entitle's cgroup programs:
     a kernel before ABI 4 has none, and they are left out there.  */
  if (abi >= 4)
    attr.handled_access_net = (plan_has (p, RULE_TCP_CONNECT) ? NET_CONNECT_TCP : 0)
                              | (plan_has (p, RULE_TCP_BIND) ? NET_BIND_TCP : 0);
  if (plan_has (p, RULE_FS_WRITE))
    attr.handled_access_fs |= FS_WRITE;
  if (plan_has (p, RULE_FS_READ))
    attr.handled_access_fs |= FS_READ | FS_REFER;
  attr.handled_access_fs &= fs_rights_of (abi);
  if (attr.handled_access_fs == 0 && attr.handled_access_net == 0)
    return;
  /* The size says which fields the kernel reads: one of ABI 1 to 3 knows
     only the first.  */
  rs.fd = (int)syscall (__NR_landlock_create_ruleset, &attr,
                        attr.handled_access_net ? sizeof (attr) : sizeof (attr.handled_access_fs), 0);
  if (rs.fd < 0)
    init_fail (INIT_EXIT_FAILED, "landlock_create_ruleset: %s", strerror (errno));
  rs.handled_fs = attr.handled_access_fs;
  if (fs)
    add_fs_rules (&rs, p);
  if (attr.handled_access_net)
    add_net_rules (rs.fd, p);
  if (syscall (__NR_landlock_restrict_self, rs.fd, 0) < 0)
    init_fail (INIT_EXIT_FAILED, "landlock_restrict_self: %s", strerror (errno));
  close (rs.fd);
}
