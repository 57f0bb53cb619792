/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/utsname.h>
#include <unistd.h>
#ifdef ENTITLE_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "probe.skel.h"
#endif
#include "cgroup.h"
#include "probe-run.h"
#include "checmate-prctl.h"
#include "seccomp-ebpf.h"
#include "utils.h"

/* Every answer comes from asking the kernel to do the thing (DESIGN §4):
   load a program, attach it, trigger it; call the prctl and read the
   errno.  Nothing here changes the host but a cgroup made and removed.  */

#ifndef __NR_lsm_list_modules
#define __NR_lsm_list_modules 461
#endif
#define LSM_ID_BPF 109

static void
read_line (const char *path, char *buf, size_t len)
{
  cleanup_file FILE *f = fopen (path, "re");
  buf[0] = '\0';
  if (f && fgets (buf, (int)len, f))
    buf[strcspn (buf, "\n")] = '\0';
}

/* Known filter flags are checked before the (NULL) filter is read:
   EFAULT means known, EINVAL unknown.  */
static void
probe_seccomp (struct entitle_probe_s *p)
{
  static const unsigned flags[] = { SECCOMP_FILTER_FLAG_TSYNC, SECCOMP_FILTER_FLAG_LOG,
                                    SECCOMP_FILTER_FLAG_SPEC_ALLOW, SECCOMP_FILTER_FLAG_NEW_LISTENER,
                                    SECCOMP_FILTER_FLAG_TSYNC_ESRCH, 1u << 5 /* WAIT_KILLABLE_RECV */ };
  unsigned action = SECCOMP_RET_ERRNO;
  size_t i;

  p->seccomp = syscall (SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
  for (i = 0; p->seccomp && i < sizeof (flags) / sizeof (flags[0]); i++)
    {
      unsigned f = flags[i] == (1u << 5) ? flags[i] | SECCOMP_FILTER_FLAG_NEW_LISTENER : flags[i];
      if (syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, f, NULL) < 0 && errno == EFAULT)
        p->seccomp_flags |= flags[i];
    }
}

static void
probe_lsm_list (struct entitle_probe_s *p)
{
  char buf[512];
  uint64_t ids[32];
  uint32_t size = sizeof (ids);
  long n, i;

  read_line ("/sys/kernel/security/lsm", buf, sizeof (buf));
  if (buf[0])
    {
      char *tok, *save = NULL;
      for (tok = strtok_r (buf, ",", &save); tok; tok = strtok_r (NULL, ",", &save))
        p->bpf_lsm_listed |= strcmp (tok, "bpf") == 0;
      return;
    }
  /* securityfs not mounted: ask the syscall (6.8+).  */
  n = syscall (__NR_lsm_list_modules, ids, &size, 0);
  for (i = 0; i < n; i++)
    p->bpf_lsm_listed |= ids[i] == LSM_ID_BPF;
}

static void
probe_lockdown (struct entitle_probe_s *p)
{
  char buf[128], *a, *b;

  read_line ("/sys/kernel/security/lockdown", buf, sizeof (buf));
  a = strchr (buf, '[');
  b = a ? strchr (a, ']') : NULL;
  if (a && b && (size_t)(b - a - 1) < sizeof (p->lockdown))
    {
      memcpy (p->lockdown, a + 1, (size_t)(b - a - 1));
      p->lockdown[b - a - 1] = '\0';
    }
}

#ifdef ENTITLE_HAVE_BPF
int
entitle_libbpf_silent (enum libbpf_print_level level, const char *fmt, va_list ap)
{
  (void)level;
  (void)fmt;
  (void)ap;
  return 0;
}

/* Load, attach and trigger an LSM program; or say what stopped it.  */
static void
probe_bpf_lsm (struct entitle_probe_s *p)
{
  struct probe_bpf *skel = probe_bpf__open ();
  int ret, fd;

  if (skel == NULL)
    {
      snprintf (p->bpf_lsm_error, sizeof (p->bpf_lsm_error), "open: %s", strerror (errno));
      return;
    }
  bpf_program__set_autoload (skel->progs.probe_socket_bind, false);
  skel->bss->probe_pid = (uint32_t)getpid ();
  if ((ret = probe_bpf__load (skel)) < 0)
    snprintf (p->bpf_lsm_error, sizeof (p->bpf_lsm_error), "load: %s", strerror (-ret));
  else if ((ret = probe_bpf__attach (skel)) < 0)
    snprintf (p->bpf_lsm_error, sizeof (p->bpf_lsm_error), "attach: %s", strerror (-ret));
  else
    {
      if ((fd = open ("/proc/self/stat", O_RDONLY | O_CLOEXEC)) >= 0)
        close (fd);
      p->bpf_lsm = skel->bss->probe_hits > 0;
      if (!p->bpf_lsm)
        snprintf (p->bpf_lsm_error, sizeof (p->bpf_lsm_error), "attached but never ran");
    }
  probe_bpf__destroy (skel);
}

/* The child of entitle_probe_lsm_cgroup: into the cgroup, then a bind
   (of an abstract unix socket: no file, no port, no network needed).  */
static void
bind_in (const char *dir)
{
  struct sockaddr_un sun = { .sun_family = AF_UNIX };
  entitle_error_t err = NULL;
  int fd;

  if (entitle_cgroup_move (dir, getpid (), &err) < 0)
    _exit (2);
  snprintf (sun.sun_path + 1, sizeof (sun.sun_path) - 1, "entitle-probe-%d", (int)getpid ());
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  _exit (fd >= 0 && bind (fd, (struct sockaddr *)&sun, sizeof (sun)) == 0 ? 0 : 3);
}

/* Attach @skel's lsm_cgroup program to a cgroup made for the purpose and
   have a child bind there; the reason into @why where it did not run.  */
static bool
lsm_cgroup_ran (struct probe_bpf *skel, const char *cgroup2, char *why, size_t len)
{
  char dir[PATH_MAX];
  cleanup_close int cg = -1;
  int status = -1;
  pid_t pid;

  snprintf (dir, sizeof (dir), "%s/entitle-probe-lsm-%d", cgroup2, (int)getpid ());
  if (mkdir (dir, 0700) < 0 || (cg = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    snprintf (why, len, "make a cgroup: %s", strerror (errno));
  else if (bpf_prog_attach (bpf_program__fd (skel->progs.probe_socket_bind), cg, BPF_LSM_CGROUP, BPF_F_ALLOW_MULTI)
           < 0)
    snprintf (why, len, "attach: %s", strerror (errno));
  else if ((pid = fork ()) == 0)
    bind_in (dir);
  else if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    snprintf (why, len, "the trial bind in the cgroup failed");
  else if (skel->bss->probe_cgroup_hits == 0)
    snprintf (why, len, "attached but never ran");
  rmdir (dir);
  return why[0] == '\0';
}

static bool
lsm_cgroup_probe (const char *cgroup2, char *why, size_t len)
{
  struct probe_bpf *skel;
  int ret;

  why[0] = '\0';
  if (cgroup2 == NULL || cgroup2[0] == '\0')
    {
      snprintf (why, len, "no cgroup v2 mount");
      return false;
    }
  if ((skel = probe_bpf__open ()) == NULL)
    {
      snprintf (why, len, "open: %s", strerror (errno));
      return false;
    }
  bpf_program__set_autoload (skel->progs.probe_file_open, false);
  if ((ret = probe_bpf__load (skel)) < 0)
    snprintf (why, len, "load: %s", strerror (-ret));
  else
    lsm_cgroup_ran (skel, cgroup2, why, len);
  probe_bpf__destroy (skel);
  return why[0] == '\0';
}

/* A refusal is this probe's answer (in @why), not a warning for the
   user: libbpf says nothing meanwhile, whoever set its printer (the
   loader asks this before it loads the LSM programs).  */
bool
entitle_probe_lsm_cgroup (const char *cgroup2, char *why, size_t len)
{
  libbpf_print_fn_t old = libbpf_set_print (entitle_libbpf_silent);
  bool ran = lsm_cgroup_probe (cgroup2, why, len);

  libbpf_set_print (old);
  return ran;
}

/* "return 1" of each type, attached to a cgroup made for the purpose
   (removing the cgroup detaches them).  */
static void
probe_cgroup_bpf (struct entitle_probe_s *p)
{
  const struct bpf_insn ret1[] = {
    { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 1 },
    { .code = BPF_JMP | BPF_EXIT },
  };
  char dir[512];
  cleanup_close int cg = -1;
  int i;

  if (p->cgroup2[0] == '\0')
    return;
  snprintf (dir, sizeof (dir), "%s/entitle-probe-%d", p->cgroup2, (int)getpid ());
  if (mkdir (dir, 0700) < 0 || (cg = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    {
      rmdir (dir);
      return;
    }
  for (i = 0; i < ATTACH_COUNT; i++)
    {
      const struct entitle_attach_s *a = &entitle_attach_points[i];
      LIBBPF_OPTS (bpf_prog_load_opts, opts, .expected_attach_type = a->type);
      int fd = bpf_prog_load (a->prog_type, NULL, "GPL", ret1, 2, &opts);
      if (fd < 0)
        continue;
      if (bpf_prog_attach (fd, cg, a->type, BPF_F_ALLOW_MULTI) == 0)
        p->cgroup_bpf |= ATTACH_BIT (i);
      close (fd);
    }
  close (get_and_reset_fd (&cg));
  rmdir (dir);
}

#else
/* configure --disable-bpf: no program to try, and the reason where the
   probe tells why one did not run.  */
static void
probe_bpf_lsm (struct entitle_probe_s *p)
{
  snprintf (p->bpf_lsm_error, sizeof (p->bpf_lsm_error), "%s", ENTITLE_NO_BPF);
}

bool
entitle_probe_lsm_cgroup (const char *cgroup2, char *why, size_t len)
{
  (void)cgroup2;
  snprintf (why, len, "%s", ENTITLE_NO_BPF);
  return false;
}

static void
probe_cgroup_bpf (struct entitle_probe_s *p)
{
  (void)p;
}
#endif

int
entitle_probe_run (struct entitle_probe_s *p, entitle_error_t *err)
{
  entitle_error_t ignored = NULL;
  struct utsname u;
  char buf[8];

  (void)err;
  memset (p, 0, sizeof (*p));
  if (uname (&u) == 0)
    snprintf (p->kernel, sizeof (p->kernel), "%s", u.release);
  probe_seccomp (p);
  p->seccomp_extended = entitle_seed_seccomp_extended (&entitle_kernel);
  p->checmate = entitle_seed_checmate (&entitle_kernel);
#ifdef ENTITLE_HAVE_BPF
  libbpf_set_print (entitle_libbpf_silent);
#endif
  probe_lsm_list (p);
  probe_bpf_lsm (p);
  probe_lockdown (p);
  if (entitle_cgroup2_mount (p->cgroup2, sizeof (p->cgroup2), &ignored) < 0)
    p->cgroup2[0] = '\0';
  entitle_error_release (&ignored);
  p->lsm_cgroup = entitle_probe_lsm_cgroup (p->cgroup2, p->lsm_cgroup_error, sizeof (p->lsm_cgroup_error));
  probe_cgroup_bpf (p);
  p->landlock_abi = entitle_probe_landlock_abi ();
  /* What is_selinux_enabled() looks at, without linking libselinux into
     the hook: selinuxfs is mounted where the kernel runs SELinux.  */
  p->selinux = access ("/sys/fs/selinux/enforce", F_OK) == 0;
  read_line ("/sys/module/apparmor/parameters/enabled", buf, sizeof (buf));
  p->apparmor = buf[0] == 'Y';
  return 0;
}
