/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seed layers (DESIGN §4): Checmate and eBPF seccomp, which mainline
   never merged, through the FAKE kernel of fake-kernel.h (tests named
   `fake_kernel`), and everything of them this kernel can run for real:
   the maps, the verifier's verdict on every program, the eBPF seccomp
   filter's decisions (BPF_PROG_TEST_RUN), the Checmate entries and their
   sweep over real cgroups, the offsets from this kernel's BTF, and
   mainline's own answers.  Needs root (bpf(2)).  */
#include <config.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <linux/audit.h>
#include <linux/bpf.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "unit.h"
#include "cgroup.h"
#include "checmate.h"
#include "entitlements.h"
#include "custom-checmate.h"
#include "custom-progs.h"
#include "entitle-data.h"
#include "fake-kernel.h"
#include "file.h"
#include "init.h"
#include "layers.h"
#include "lsm.h"
#include "probe-run.h"
#include "seccomp-ebpf.h"
#include "seccomp-filter.h"
#include "seed-attach.h"
#include "seed-load.h"
#include "utils.h"

static int
setup (void **state)
{
  (void)state;
  fake_kernel_reset (FAKE_CHECMATE | FAKE_SECCOMP_EXTENDED);
  return 0;
}

static void
load_checmate (struct entitle_checmate_s *c)
{
  entitle_error_t err = NULL;
  if (entitle_checmate_load (&fake_kernel, c, &err) < 0)
    fail_msg ("entitle_checmate_load: %s", err->msg);
}

static void
install (const struct entitle_checmate_s *c, unsigned policy, bool lock)
{
  entitle_error_t err = NULL;
  if (entitle_checmate_install (&fake_kernel, c, policy, lock, NULL, &err) < 0)
    fail_msg ("entitle_checmate_install: %s", err->msg);
}

static void
assert_call (size_t i, unsigned long op, const char *hook, int fd, int error)
{
  const struct fake_call_s *c = &fake.calls[i];

  assert_true (i < fake.n_calls);
  assert_int_equal (c->option, PR_CHECMATE);
  assert_int_equal (c->op, op);
  assert_int_equal (c->hook, (unsigned long)entitle_checmate_hook_find (hook));
  if (fd >= 0)
    assert_int_equal (fake_prog_id (c->fd), fake_prog_id (fd));
  assert_int_equal (c->error, error);
}

/* Each Checmate program is loaded as BPF_PROG_TYPE_CHECMATE for the
   running kernel's version (seed 006), and this kernel's verifier accepts
   it (the fake loads it for real as a kprobe program); installing the
   layer for a policy with every bit calls INSTALL_HOOK once a program, in
   the table's order, at its hook, with its fd.  */
static void
test_checmate_load_and_install_fake_kernel (void **state)
{
  struct entitle_checmate_s c;

  (void)state;
  load_checmate (&c);
  assert_int_equal (fake.n_loads, ENTITLE_CHECMATE_PROGS);
  for (size_t i = 0; i < fake.n_loads; i++)
    {
      assert_int_equal (fake.loads[i].type, ENTITLE_BPF_PROG_TYPE_CHECMATE);
      assert_int_equal (fake.loads[i].kern_version, entitle_seed_kernel_version ());
      assert_int_equal (fake.loads[i].insn_cnt, entitle_seed_prog (entitle_checmate_progs[i].program)->n);
    }
  install (&c, POL_EGRESS | POL_CONFINED, false);
  assert_int_equal (fake.n_calls, 2);
  assert_call (0, CHECMATE_INSTALL_HOOK, "socket_connect", c.prog[0], 0);
  assert_call (1, CHECMATE_INSTALL_HOOK, "task_create", c.prog[1], 0);
  assert_int_equal (fake.n_installed[entitle_checmate_hook_find ("socket_connect")], 1);
  assert_int_equal (fake.n_installed[entitle_checmate_hook_find ("task_create")], 1);
  entitle_checmate_close (&c);
}

/* A second container: the kernel says the program is there (EEXIST) and
   nothing is installed twice; a policy no program reads installs
   nothing, one that only socket_connect reads installs that one.  */
static void
test_checmate_install_idempotent_fake_kernel (void **state)
{
  struct entitle_checmate_s c;

  (void)state;
  load_checmate (&c);
  install (&c, POL_SOCK_UNIX_ONLY, false);
  install (&c, POL_EGRESS, false);
  install (&c, POL_BIND | POL_SYSCTL_RO, false);
  assert_int_equal (fake.n_calls, 2);
  assert_call (0, CHECMATE_INSTALL_HOOK, "socket_connect", c.prog[0], 0);
  assert_call (1, CHECMATE_INSTALL_HOOK, "socket_connect", c.prog[0], EEXIST);
  assert_int_equal (fake.n_installed[entitle_checmate_hook_find ("socket_connect")], 1);
  assert_int_equal (fake.n_installed[entitle_checmate_hook_find ("task_create")], 0);
  entitle_checmate_close (&c);
}

/* "lock": each hook installed is locked right after (DENY_RESET); a
   second container finds it locked (EALREADY, fine); reset is then
   refused, with the reason, and the programs stay.  Without lock, reset
   takes them off.  */
static void
test_checmate_lock_refuses_reset_fake_kernel (void **state)
{
  struct entitle_checmate_s c;
  entitle_error_t err = NULL;

  (void)state;
  load_checmate (&c);
  install (&c, POL_EGRESS, false);
  assert_int_equal (entitle_checmate_prctl (&fake_kernel, CHECMATE_RESET, "socket_connect", -1, &err), 0);
  assert_int_equal (fake.n_installed[entitle_checmate_hook_find ("socket_connect")], 0);
  fake.n_calls = 0;
  install (&c, POL_EGRESS | POL_CONFINED, true);
  install (&c, POL_EGRESS | POL_CONFINED, true);
  assert_int_equal (fake.n_calls, 8);
  assert_call (0, CHECMATE_INSTALL_HOOK, "socket_connect", c.prog[0], 0);
  assert_call (1, CHECMATE_DENY_RESET, "socket_connect", -1, 0);
  assert_call (2, CHECMATE_INSTALL_HOOK, "task_create", c.prog[1], 0);
  assert_call (3, CHECMATE_DENY_RESET, "task_create", -1, 0);
  assert_call (4, CHECMATE_INSTALL_HOOK, "socket_connect", c.prog[0], EEXIST);
  assert_call (5, CHECMATE_DENY_RESET, "socket_connect", -1, EALREADY);
  assert_true (entitle_checmate_prctl (&fake_kernel, CHECMATE_RESET, "socket_connect", -1, &err) < 0);
  assert_int_equal (err->status, EPERM);
  assert_contains (err->msg, "hook `socket_connect` is locked");
  entitle_error_release (&err);
  assert_int_equal (fake.n_installed[entitle_checmate_hook_find ("socket_connect")], 1);
  entitle_checmate_close (&c);
}

/* A hook the seed numbers but never runs (socket_bind) refuses, named.  */
static void
test_checmate_hook_not_run_fake_kernel (void **state)
{
  entitle_error_t err = NULL;

  (void)state;
  assert_true (entitle_checmate_prctl (&fake_kernel, CHECMATE_DENY_RESET, "socket_bind", -1, &err) < 0);
  assert_contains (err->msg, "runs no programs at hook `socket_bind`");
  entitle_error_release (&err);
  assert_true (entitle_checmate_prctl (&fake_kernel, CHECMATE_RESET, "no_such_hook", -1, &err) < 0);
  assert_contains (err->msg, "unknown hook `no_such_hook`");
  entitle_error_release (&err);
}

/* This kernel, for real: no Checmate, and `checmate reset` says so (the
   seed kernel has it: the tests `fake_vs_real` below run there).  */
static void
test_checmate_absent_on_this_kernel (void **state)
{
  entitle_error_t err = NULL;

  (void)state;
  if (entitle_seed_checmate (&entitle_kernel))
    {
      print_message ("# SKIP: this kernel has Checmate (the seed kernel)\n");
      skip ();
    }
  assert_false (entitle_seed_checmate (&entitle_kernel));
  assert_true (entitle_checmate_prctl (&entitle_kernel, CHECMATE_RESET, "socket_connect", -1, &err) < 0);
  assert_int_equal (err->status, EINVAL);
  assert_contains (err->msg, "this kernel has no Checmate");
  entitle_error_release (&err);
}

/* The offsets the programs read the task's cgroup at, from this kernel's
   BTF: inside their structs, and the cgroup's level before its
   ancestors.  */
static void
test_checmate_layout_from_btf (void **state)
{
  struct entitle_checmate_layout l;
  entitle_error_t err = NULL;

  (void)state;
  if (access ("/sys/kernel/btf/vmlinux", R_OK) < 0)
    skip ();
  if (entitle_checmate_layout (&l, &err) < 0)
    fail_msg ("%s", err->msg);
  assert_true (l.task_cgroups > 0 && l.task_cgroups < 16384);
  assert_true (l.cgroup_level < l.cgroup_ancestors);
  assert_true (l.kn_id < 256);
}

static uint64_t
mkcgroup (const char *path)
{
  struct stat st;
  if (mkdir (path, 0755) < 0 || stat (path, &st) < 0)
    fail_msg ("mkdir %s: %s", path, strerror (errno));
  return (uint64_t)st.st_ino;
}

/* The entries by cgroup id, in a real map over real cgroups: written,
   and dropped by the sweep once the cgroup is gone, the live one kept.  */
static void
test_checmate_entries_swept (void **state)
{
  struct entitle_checmate_s c = { .layout = -1, .policy = -1, .prog = { -1, -1 } };
  struct entitle_policy p = { .flags = POL_EGRESS }, q;
  entitle_error_t err = NULL;
  char mnt[256], a[512], b[512];
  cleanup_close int mountfd = -1;
  uint64_t ida, idb;

  (void)state;
  if (entitle_cgroup2_mount (mnt, sizeof (mnt), &err) < 0)
    {
      entitle_error_release (&err);
      skip ();
    }
  snprintf (a, sizeof (a), "%s/entitle-test-seeds-a-%d", mnt, (int)getpid ());
  snprintf (b, sizeof (b), "%s/entitle-test-seeds-b-%d", mnt, (int)getpid ());
  ida = mkcgroup (a);
  idb = mkcgroup (b);
  mountfd = open (mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  c.policy = entitle_seed_map_create (&entitle_kernel, "test_cm_pol", BPF_MAP_TYPE_HASH, 8, sizeof (p), 4,
                                      BPF_F_NO_PREALLOC, &err);
  assert_true (c.policy >= 0);
  assert_int_equal (entitle_checmate_write (&c, ida, &p, &err), 0);
  assert_int_equal (entitle_checmate_write (&c, idb, &p, &err), 0);
  rmdir (b);
  entitle_checmate_sweep (c.policy, mountfd);
  assert_int_equal (bpf_map_lookup_elem (c.policy, &ida, &q), 0);
  assert_int_equal (q.flags, POL_EGRESS);
  assert_true (bpf_map_lookup_elem (c.policy, &idb, &q) < 0);
  rmdir (a);
  close (c.policy);
}

/* The filter of @list, loaded through the kernel @k.  */
static int
load_filter_on (const struct entitle_kernel_s *k, const char *list, struct entitle_seccomp_policy *p)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  entitle_error_t err = NULL;
  int fd;

  if (entitle_parse_list (NULL, list, "test", &set, &err) < 0)
    fail_msg ("%s: %s", list, err->msg);
  entitle_layers_seccomp_policy (&set, p);
  fd = entitle_seccomp_ebpf_load (k, p, &err);
  if (fd < 0)
    fail_msg ("entitle_seccomp_ebpf_load: %s", err->msg);
  return fd;
}

/* The filter of @list, loaded through the fake kernel (for real, as a
   syscall program).  */
static int
load_filter (const char *list, struct entitle_seccomp_policy *p)
{
  return load_filter_on (&fake_kernel, list, p);
}

/* The filter's verdict on one call, run by this kernel.  */
static uint32_t
run (int fd, uint32_t arch, const char *name, uint64_t a0, uint64_t a1, uint64_t a2)
{
  struct seccomp_data d = { .arch = arch, .args = { a0, a1, a2 } };
  union bpf_attr attr;

  d.nr = arch == seccomp_arch_native () ? seccomp_syscall_resolve_name (name)
                                        : seccomp_syscall_resolve_name_arch (arch, name);
  memset (&attr, 0, sizeof (attr));
  attr.test.prog_fd = (__u32)fd;
  attr.test.ctx_in = (__u64)(unsigned long)&d;
  attr.test.ctx_size_in = sizeof (d);
  if (syscall (SYS_bpf, BPF_PROG_TEST_RUN, &attr, sizeof (attr)) < 0)
    fail_msg ("BPF_PROG_TEST_RUN: %s", strerror (errno));
  return attr.test.retval;
}

#define DENY  (SECCOMP_RET_ERRNO | EPERM)
#define ALLOW SECCOMP_RET_ALLOW

/* The eBPF seccomp filter's decisions come from its map and match the
   classic profile's rules: run by this kernel on the calls a container
   would make.  */
static void
test_seccomp_filter_decisions_fake_kernel (void **state)
{
  struct entitle_seccomp_policy p;
  uint32_t native = seccomp_arch_native ();
  int fd;

  (void)state;
  fd = load_filter ("network.none,security.confined,host.devices.none", &p);
  assert_int_equal (fake.n_loads, 1);
  assert_int_equal (fake.loads[0].type, ENTITLE_BPF_PROG_TYPE_SECCOMP);
  assert_int_equal (run (fd, native, "socket", 2 /* AF_INET */, 1, 0), DENY);
  assert_int_equal (run (fd, native, "socket", 1 /* AF_UNIX */, 1, 0), ALLOW);
  assert_int_equal (run (fd, native, "socketpair", 10 /* AF_INET6 */, 1, 0), DENY);
  assert_int_equal (run (fd, native, "mount", 0, 0, 0), DENY);
  assert_int_equal (run (fd, native, "unshare", 0, 0, 0), DENY);
  assert_int_equal (run (fd, native, "io_uring_setup", 0, 0, 0), DENY);
  assert_int_equal (run (fd, native, "getpid", 0, 0, 0), ALLOW);
  assert_int_equal (run (fd, native, "personality", 8, 0, 0), DENY);
  assert_int_equal (run (fd, native, "personality", 0, 0, 0), ALLOW);
  assert_int_equal (run (fd, native, "personality", 0xffffffff, 0, 0), ALLOW);
  assert_int_equal (run (fd, native, "mknodat", 0, 0, 0020000 /* S_IFCHR */), DENY);
  assert_int_equal (run (fd, native, "mknodat", 0, 0, 0010000 /* S_IFIFO */), ALLOW);
  /* Another ABI is the classic profile's, which lists it.  */
  if (native == AUDIT_ARCH_X86_64)
    assert_int_equal (run (fd, AUDIT_ARCH_I386, "mount", 0, 0, 0), ALLOW);
  close (fd);

  /* network.user: packet and raw inet sockets only.  */
  fd = load_filter ("network.user", &p);
  assert_int_equal (run (fd, native, "socket", 17 /* AF_PACKET */, 3, 0), DENY);
  assert_int_equal (run (fd, native, "socket", 2, 3 /* SOCK_RAW */, 0), DENY);
  assert_int_equal (run (fd, native, "socket", 2, 1 /* SOCK_STREAM */, 0), ALLOW);
  assert_int_equal (run (fd, native, "mount", 0, 0, 0), ALLOW);
  close (fd);
}

/* A row's "still deny" yields to another row's allowance, as in the
   classic profile: security.admin denies the module syscalls,
   host.modules.admin allows them.  */
static void
test_seccomp_filter_allowance_wins_fake_kernel (void **state)
{
  struct entitle_seccomp_policy p;
  int fd;

  (void)state;
  fd = load_filter ("security.admin,host.modules.admin", &p);
  assert_int_equal (run (fd, seccomp_arch_native (), "init_module", 0, 0, 0), ALLOW);
  assert_int_equal (run (fd, seccomp_arch_native (), "kexec_load", 0, 0, 0), DENY);
  close (fd);
}

/* What `entitle inspect` reads back (the seed's second sample): the
   filter the helper installed, by PTRACE_SECCOMP_GET_FILTER_EXTENDED, is
   the program loaded (same id), entitle's, with its map's decisions.  */
static void
test_seccomp_read_back_fake_kernel (void **state)
{
  struct entitle_seccomp_policy p;
  struct entitle_seccomp_ext_s ext;
  struct rule rule = { RULE_SECCOMP_FD, NULL };
  struct plan plan = { .rules = &rule, .n_rules = 1, .kernel = &fake_kernel };
  entitle_error_t err = NULL;
  char fdtext[16], text[4096];
  int fd, back, loaded_id;

  (void)state;
  fd = load_filter ("security.confined", &p);
  loaded_id = (int)fake_prog_id (fd);
  snprintf (fdtext, sizeof (fdtext), "%d", dup (fd));
  rule.value = fdtext;
  init_seccomp (&plan);
  assert_int_equal (fake.calls[0].option, PR_SET_SECCOMP);
  assert_int_equal (fake.calls[0].op, SECCOMP_MODE_FILTER_EXTENDED);
  assert_int_equal (fake_prog_id (fake.filter_fd), loaded_id);
  /* The helper closed its fd: the filter stays with the process.  */
  assert_int_equal (fcntl (atoi (fdtext), F_GETFD), -1);
  back = entitle_seccomp_get_extended (&fake_kernel, getpid (), 0, &err);
  assert_true (back > 0);
  assert_int_equal (entitle_seccomp_ext_describe (&fake_kernel, back, &ext, &err), 0);
  assert_int_equal ((int)ext.id, loaded_id);
  assert_true (ext.entitle);
  assert_memory_equal (&ext.policy, &p, sizeof (p));
  entitle_seccomp_ext_format (&ext.policy, text, sizeof (text));
  assert_contains (text, "denied: ");
  assert_contains (text, "mount");
  assert_contains (text, "by argument: personality PER_LINUX only");
  assert_int_equal (entitle_seccomp_get_extended (&fake_kernel, getpid (), 1, &err), 0);
  close (back);
  close (fd);
  /* Mainline: no such ptrace request.  */
  fake_kernel_reset (0);
  assert_true (entitle_seccomp_get_extended (&fake_kernel, getpid (), 0, &err) < 0);
  assert_contains (err->msg, "cannot read filters back");
  entitle_error_release (&err);
}

/* The admin's programs at `seccomp` (examples/seccomp1.json and
   seccomp2.json), loaded as create loads them, through the fake kernel
   (for real, as a syscall program, so this kernel's verifier judges
   them), and their decisions run by this kernel: close(999) is EPERM
   while close(998) runs on to EBADF; sched_yield is EPERM.  */
static void
test_custom_seccomp_programs_fake_kernel (void **state)
{
  static const struct entitle_prog_s progs[] = {
    { .object = ENTITLE_EXAMPLES "/seccomp1.bpf.o", .program = "close_999", .attach = "seccomp", .point = ENTITLE_POINT_SECCOMP },
    { .object = ENTITLE_EXAMPLES "/seccomp2.bpf.o", .program = "no_sched_yield", .attach = "seccomp", .point = ENTITLE_POINT_SECCOMP },
    { .object = ENTITLE_EXAMPLES "/seccomp2.bpf.o", .program = "nope", .attach = "seccomp", .point = ENTITLE_POINT_SECCOMP },
  };
  struct entitle_entry_s e = { .name = "example.com.seccomp1", .progs = progs, .n_progs = 3, .custom = "t.json" };
  uint32_t native = seccomp_arch_native ();
  entitle_error_t err = NULL;
  int one, two;

  (void)state;
  one = entitle_bpf_custom_seccomp_load (&fake_kernel, &e, &progs[0], &err);
  if (one < 0)
    fail_msg ("seccomp1: %s", err->msg);
  two = entitle_bpf_custom_seccomp_load (&fake_kernel, &e, &progs[1], &err);
  if (two < 0)
    fail_msg ("seccomp2: %s", err->msg);
  assert_int_equal (fake.n_loads, 2);
  assert_int_equal (fake.loads[0].type, ENTITLE_BPF_PROG_TYPE_SECCOMP);
  assert_int_equal (fake.loads[1].type, ENTITLE_BPF_PROG_TYPE_SECCOMP);
  assert_int_equal (run (one, native, "close", 999, 0, 0), DENY);
  assert_int_equal (run (one, native, "close", 998, 0, 0), ALLOW);
  assert_int_equal (run (one, native, "sched_yield", 0, 0, 0), ALLOW);
  assert_int_equal (run (two, native, "sched_yield", 0, 0, 0), DENY);
  assert_int_equal (run (two, native, "close", 999, 0, 0), ALLOW);
  close (one);
  close (two);
  /* A program the object lacks: one line naming it, nothing loaded.  */
  assert_true (entitle_bpf_custom_seccomp_load (&fake_kernel, &e, &progs[2], &err) < 0);
  assert_contains (err->msg, "has no program `nope`");
  assert_null (strchr (err->msg, '\n'));
  entitle_error_release (&err);
  assert_int_equal (fake.n_loads, 2);
}

/* A copy at @dst of the object @src whose program in @section starts
   with an opcode no kernel knows: a program that fails to load, as this
   kernel's verifier (behind the fake kernel) tells.  */
static void
copy_broken (const char *src, const char *section, const char *dst)
{
  cleanup_free char *buf = NULL;
  size_t len = 0, shstrndx;
  Elf_Scn *scn = NULL;
  Elf *elf;
  FILE *f;
  entitle_error_t err = NULL;

  if (entitle_file_read (src, 1 << 20, &buf, &len, &err) < 0)
    fail_msg ("%s", err->msg);
  elf_version (EV_CURRENT);
  elf = elf_memory (buf, len);
  assert_non_null (elf);
  assert_int_equal (elf_getshdrstrndx (elf, &shstrndx), 0);
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr sh;
      if (gelf_getshdr (scn, &sh) != NULL && strcmp (elf_strptr (elf, shstrndx, sh.sh_name), section) == 0)
        {
          buf[sh.sh_offset] = (char)0xff; /* BPF_ALU64 | 0xf0 | BPF_X: no such operation */
          break;
        }
    }
  assert_non_null (scn);
  elf_end (elf);
  f = fopen (dst, "w");
  assert_non_null (f);
  assert_int_equal (fwrite (buf, 1, len, f), len);
  assert_int_equal (fclose (f), 0);
}

/* An admin's program at `seccomp` that this kernel's verifier refuses:
   one line naming the entitlement, the program and the reason.  */
static void
test_custom_seccomp_load_error_fake_kernel (void **state)
{
  char path[128];
  const struct entitle_prog_s prog = { .object = path, .program = "close_999", .attach = "seccomp", .point = ENTITLE_POINT_SECCOMP };
  struct entitle_entry_s e = { .name = "example.com.broken", .progs = &prog, .n_progs = 1, .custom = "t.json" };
  entitle_error_t err = NULL;

  (void)state;
  snprintf (path, sizeof (path), "/tmp/entitle-test-seeds-%d.bpf.o", (int)getpid ());
  copy_broken (ENTITLE_EXAMPLES "/seccomp1.bpf.o", "seccomp", path);
  assert_true (entitle_bpf_custom_seccomp_load (&fake_kernel, &e, &prog, &err) < 0);
  unlink (path);
  assert_contains (err->msg, "entitlement `example.com.broken`: program `close_999` of `");
  assert_contains (err->msg, "load the seccomp program: Invalid argument");
  assert_null (strchr (err->msg, '\n'));
  assert_int_equal (fake.n_calls, 0);
  entitle_error_release (&err);
}

/* Open and enforce @p of @e for the cgroup @id as entitle-hook does at a
   container's createRuntime (oci-hooks/custom.c).  */
static void
custom_checmate_create (const struct entitle_entry_s *e, const struct entitle_prog_s *p, const char *dir, uint64_t id,
                        int mountfd)
{
  struct entitle_custom_checmate_s c;
  entitle_error_t err = NULL;

  if (entitle_custom_checmate_open (&fake_kernel, e, p, dir, &c, &err) < 0
      || entitle_custom_checmate_enforce (&fake_kernel, e, p, &c, id, false, mountfd, &err) < 0)
    fail_msg ("%s", err->msg);
  entitle_custom_checmate_close (&c);
}

/* The entitle_data entry of the cgroup @id in the map pinned at @pin:
   the row's one word, or -1 when there is none.  */
static long long
custom_checmate_word (const char *pin, uint64_t id)
{
  cleanup_close int map = bpf_obj_get (pin);
  struct entitle_data d;
  __u64 key = id;

  assert_true (map >= 0);
  if (bpf_map_lookup_elem (map, &key, &d) < 0)
    return -1;
  assert_int_equal (d.cgroup_id, id);
  assert_int_equal (d.flags, ENTITLE_DATA_SET);
  assert_int_equal (d.n, 1);
  return (long long)d.words[0];
}

/* An admin's program at checmate/socket_connect (examples/checmate1.json):
   loaded once per host through the fake kernel (for real, as a kprobe
   program, so this kernel's verifier judges it, with its entitle_data map
   made and named in its instructions), pinned, installed once for two
   containers (two real cgroups), and each container's data written by its
   cgroup id; a gone container's entry is dropped at poststop, or at the
   next create where no poststop runs.  */
static void
test_custom_checmate_program_fake_kernel (void **state)
{
  static const struct entitle_prog_s prog
      = { .object = ENTITLE_EXAMPLES "/checmate1.bpf.o", .program = "deny_port", .attach = "checmate/socket_connect", .point = ENTITLE_POINT_CHECMATE };
  static const uint64_t data[] = { 1 };
  static const struct entitle_entry_s e = { .name = "example.com.checmate1", .progs = &prog, .n_progs = 1, .data = data, .n_data = 1, .custom = "t.json" };
  entitle_error_t err = NULL;
  char dir[64], mnt[256], a[512], b[512], pin[512] = "", cmd[128];
  cleanup_dir DIR *d = NULL;
  struct dirent *de;
  uint64_t ida, idb, root;
  int mountfd, hook;

  (void)state;
  if (entitle_cgroup2_mount (mnt, sizeof (mnt), &err) < 0)
    {
      entitle_error_release (&err);
      skip ();
    }
  snprintf (dir, sizeof (dir), "/sys/fs/bpf/entitle-test-custom-%d", (int)getpid ());
  snprintf (a, sizeof (a), "%s/entitle-test-custom-a-%d", mnt, (int)getpid ());
  snprintf (b, sizeof (b), "%s/entitle-test-custom-b-%d", mnt, (int)getpid ());
  ida = mkcgroup (a);
  idb = mkcgroup (b);
  mountfd = open (mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  assert_true (mountfd >= 0);
  root = entitle_cgroup_id (mountfd);

  custom_checmate_create (&e, &prog, dir, ida, mountfd);
  assert_int_equal (fake.n_loads, 1);
  assert_int_equal (fake.loads[0].type, ENTITLE_BPF_PROG_TYPE_CHECMATE);
  assert_int_equal (fake.loads[0].kern_version, entitle_seed_kernel_version ());
  /* The second container's hook finds the pins: nothing loaded again,
     and the kernel tells the program installed already.  */
  custom_checmate_create (&e, &prog, dir, idb, mountfd);
  assert_int_equal (fake.n_loads, 1);
  assert_int_equal (fake.n_calls, 2);
  assert_call (0, CHECMATE_INSTALL_HOOK, "socket_connect", -1, 0);
  assert_call (1, CHECMATE_INSTALL_HOOK, "socket_connect", -1, EEXIST);
  hook = entitle_checmate_hook_find ("socket_connect");
  assert_int_equal (fake.n_installed[hook], 1);
  assert_int_equal (fake.installed[hook][0], fake_prog_id (fake.loads[0].fd));
  d = opendir (dir);
  assert_non_null (d);
  while ((de = readdir (d)) != NULL)
    if (strstr (de->d_name, "-data") != NULL)
      snprintf (pin, sizeof (pin), "%s/%s", dir, de->d_name);
  assert_int_equal (custom_checmate_word (pin, ida), 1);
  assert_int_equal (custom_checmate_word (pin, idb), 1);

  /* b is deleted: its poststop drops its entry, a's stays.  */
  rmdir (b);
  entitle_custom_checmate_sweep (dir, mountfd);
  assert_int_equal (custom_checmate_word (pin, ida), 1);
  assert_int_equal (custom_checmate_word (pin, idb), -1);
  /* a is deleted where no poststop runs (runc's cgroup): the next
     container's create drops it.  */
  rmdir (a);
  custom_checmate_create (&e, &prog, dir, root, mountfd);
  assert_int_equal (custom_checmate_word (pin, ida), -1);
  assert_int_equal (custom_checmate_word (pin, root), 1);
  close (mountfd);
  snprintf (cmd, sizeof (cmd), "rm -rf %s", dir);
  assert_int_equal (system (cmd), 0);
}

/* An admin's program at a Checmate hook that fails: one the object lacks,
   one this kernel's verifier refuses; each one line naming the
   entitlement, nothing installed.  */
static void
test_custom_checmate_load_errors_fake_kernel (void **state)
{
  char path[128], dir[64], cmd[128];
  const struct entitle_prog_s progs[] = {
    { .object = ENTITLE_EXAMPLES "/checmate1.bpf.o", .program = "nope", .attach = "checmate/socket_connect", .point = ENTITLE_POINT_CHECMATE },
    { .object = path, .program = "deny_port", .attach = "checmate/socket_connect", .point = ENTITLE_POINT_CHECMATE },
  };
  struct entitle_entry_s e = { .name = "example.com.broken", .progs = progs, .n_progs = 2, .custom = "t.json" };
  struct entitle_custom_checmate_s c;
  entitle_error_t err = NULL;

  (void)state;
  snprintf (dir, sizeof (dir), "/sys/fs/bpf/entitle-test-custom-%d", (int)getpid ());
  snprintf (path, sizeof (path), "/tmp/entitle-test-seeds-%d.bpf.o", (int)getpid ());
  assert_true (entitle_custom_checmate_open (&fake_kernel, &e, &progs[0], dir, &c, &err) < 0);
  assert_contains (err->msg, "entitlement `example.com.broken`: program `nope` at checmate/socket_connect: ");
  assert_contains (err->msg, "has no program `nope`");
  assert_null (strchr (err->msg, '\n'));
  entitle_error_release (&err);

  copy_broken (ENTITLE_EXAMPLES "/checmate1.bpf.o", "checmate/socket_connect", path);
  assert_true (entitle_custom_checmate_open (&fake_kernel, &e, &progs[1], dir, &c, &err) < 0);
  unlink (path);
  assert_contains (err->msg, "entitlement `example.com.broken`: program `deny_port` at checmate/socket_connect: ");
  assert_contains (err->msg, "load the checmate/socket_connect program: Invalid argument");
  assert_null (strchr (err->msg, '\n'));
  entitle_error_release (&err);
  assert_int_equal (c.prog, -1);
  assert_int_equal (fake.n_calls, 0);
  snprintf (cmd, sizeof (cmd), "rm -rf %s", dir);
  assert_int_equal (system (cmd), 0);
}

static char outside[256];
static int outside_errno;

/* Where the filter is installed, Landlock must already hold: try a write
   that fs.write does not allow.  */
static long
prctl_after_landlock (int option, unsigned long a, unsigned long b, unsigned long c, unsigned long d)
{
  if (option == PR_SET_SECCOMP && a == SECCOMP_MODE_FILTER_EXTENDED)
    {
      int fd = open (outside, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
      outside_errno = fd < 0 ? errno : 0;
      if (fd >= 0)
        close (fd);
    }
  return fake_kernel.prctl (option, a, b, c, d);
}

/* The helper's layers in order: Landlock (for real), then the filter
   (through the fake); a kernel that refuses the filter ends the helper
   with status 127 before anything runs.  In a child, since Landlock
   binds the process.  */
static void
test_init_layers_in_order_fake_kernel (void **state)
{
  char dir[] = "/tmp/entitle-test-seeds-XXXXXX", fdtext[16];
  struct entitle_seccomp_policy p;
  struct entitle_kernel_s k = fake_kernel;
  int fd, status;
  pid_t pid;

  (void)state;
  if (syscall (SYS_landlock_create_ruleset, NULL, 0, 1) <= 0)
    skip ();
  assert_non_null (mkdtemp (dir));
  snprintf (outside, sizeof (outside), "/tmp/entitle-test-seeds-outside-%d", (int)getpid ());
  fd = load_filter ("security.confined", &p);
  snprintf (fdtext, sizeof (fdtext), "%d", fd);
  k.prctl = prctl_after_landlock;
  pid = fork ();
  if (pid == 0)
    {
      struct rule rules[] = { { RULE_FS_WRITE, dir }, { RULE_SECCOMP_FD, fdtext } };
      struct plan plan = { .rules = rules, .n_rules = 2, .kernel = &k };
      init_apply (&plan);
      _exit (outside_errno == EACCES && fake.n_calls == 1 && fake.calls[0].error == 0 ? 0 : 1);
    }
  assert_int_equal (waitpid (pid, &status, 0), pid);
  assert_int_equal (WEXITSTATUS (status), 0);
  fake_kernel_reset (0);
  pid = fork ();
  if (pid == 0)
    {
      struct rule rules[] = { { RULE_SECCOMP_FD, fdtext } };
      struct plan plan = { .rules = rules, .n_rules = 1, .kernel = &fake_kernel };
      init_apply (&plan);
      _exit (0);
    }
  assert_int_equal (waitpid (pid, &status, 0), pid);
  assert_int_equal (WEXITSTATUS (status), INIT_EXIT_FAILED);
  unlink (outside);
  rmdir (dir);
  close (fd);
}

/* The seed interfaces as attach points, as a custom entitlement names
   them: `checmate/HOOK` installs at that hook (and locks it under
   "lock"), `seccomp` installs the filter on the calling task; each
   program of the point's type, in the right order of calls.  */
static void
test_seed_attach_points_fake_kernel (void **state)
{
  struct entitle_seed_point_s cm, sc;
  struct entitle_checmate_s c;
  struct entitle_seccomp_policy p;
  entitle_error_t err = NULL;
  int fd;

  (void)state;
  assert_int_equal (entitle_seed_point_parse ("checmate/task_create", &cm, &err), 0);
  assert_int_equal (cm.iface, ENTITLE_SEED_CHECMATE);
  assert_string_equal (cm.hook, "task_create");
  assert_int_equal (entitle_seed_point_type (&cm), ENTITLE_BPF_PROG_TYPE_CHECMATE);
  assert_int_equal (entitle_seed_point_parse ("seccomp", &sc, &err), 0);
  assert_int_equal (entitle_seed_point_type (&sc), ENTITLE_BPF_PROG_TYPE_SECCOMP);
  assert_true (entitle_seed_point_here (&fake_kernel, &cm) && entitle_seed_point_here (&fake_kernel, &sc));
  /* This kernel: mainline, but the seed kernel in its row.  */
  assert_int_equal (entitle_seed_point_here (&entitle_kernel, &cm), fake_kernel_running_is_seed ());
  assert_int_equal (entitle_seed_point_here (&entitle_kernel, &sc), fake_kernel_running_is_seed ());
  load_checmate (&c);
  fake.n_calls = 0;
  assert_int_equal (entitle_seed_attach (&fake_kernel, &cm, c.prog[1], true, &err), 0);
  assert_int_equal (entitle_seed_attach (&fake_kernel, &cm, c.prog[1], true, &err), 1);
  assert_int_equal (fake.n_calls, 4);
  assert_call (0, CHECMATE_INSTALL_HOOK, "task_create", c.prog[1], 0);
  assert_call (1, CHECMATE_DENY_RESET, "task_create", -1, 0);
  assert_call (2, CHECMATE_INSTALL_HOOK, "task_create", c.prog[1], EEXIST);
  /* A program of the other type is the kernel's to refuse.  */
  fd = load_filter ("security.confined", &p);
  assert_true (entitle_seed_attach (&fake_kernel, &cm, fd, false, &err) < 0);
  assert_contains (err->msg, "hook `task_create` refuses program fd");
  entitle_error_release (&err);
  entitle_checmate_close (&c);
  /* In a child: the filter binds the task that installs it.  */
  if (fork () == 0)
    _exit (entitle_seed_attach (&fake_kernel, &sc, fd, false, &err) == 0 && fake.filter_fd >= 0
                   && fake_prog_id (fake.filter_fd) == fake_prog_id (fd)
               ? 0
               : 1);
  {
    int status;
    assert_true (wait (&status) > 0);
    assert_int_equal (WEXITSTATUS (status), 0);
  }
  close (fd);
  assert_true (entitle_seed_point_parse ("checmate/no_such_hook", &cm, &err) < 0);
  assert_string_equal (err->msg, "attach point `checmate/no_such_hook`: Checmate has no hook `no_such_hook`");
  entitle_error_release (&err);
  assert_true (entitle_seed_point_parse ("lsm/file_open", &cm, &err) < 0);
  assert_contains (err->msg, "is no seed interface's");
  entitle_error_release (&err);
}

/* A child under the classic filters @n_rules rules make, one filter a
   rule (ERRNO(EPERM) for its syscall, on the native ABI and x86 where the
   host is x86_64), each exported into @bpf[i] as libseccomp loads it;
   the child waits for SIGKILL.  */
struct classic_rule
{
  const char *syscall;
  size_t len;              /* the exported filter's bytes */
  struct sock_filter *bpf; /* malloc'd */
};

static pid_t
filtered_child (struct classic_rule *rules, size_t n_rules)
{
  int ready[2];
  char c;
  pid_t pid;

  for (size_t i = 0; i < n_rules; i++)
    {
      scmp_filter_ctx ctx = seccomp_init (SCMP_ACT_ALLOW);
      int fd = memfd_create ("filter", 0);
      struct stat st;

      if (seccomp_arch_native () == SCMP_ARCH_X86_64)
        assert_int_equal (seccomp_arch_add (ctx, SCMP_ARCH_X86), 0);
      assert_int_equal (seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM), seccomp_syscall_resolve_name (rules[i].syscall), 0), 0);
      assert_int_equal (seccomp_export_bpf (ctx, fd), 0);
      assert_int_equal (fstat (fd, &st), 0);
      rules[i].len = (size_t)st.st_size;
      rules[i].bpf = malloc (rules[i].len);
      assert_int_equal (pread (fd, rules[i].bpf, rules[i].len, 0), (ssize_t)rules[i].len);
      close (fd);
      seccomp_release (ctx);
    }
  assert_int_equal (pipe (ready), 0);
  pid = fork ();
  if (pid == 0)
    {
      /* Gone with the test, also one that fails.  */
      prctl (PR_SET_PDEATHSIG, SIGKILL);
      for (size_t i = 0; i < n_rules; i++)
        {
          struct sock_fprog prog = { .len = (unsigned short)(rules[i].len / sizeof (struct sock_filter)),
                                     .filter = rules[i].bpf };
          if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
            _exit (1);
        }
      if (write (ready[1], "x", 1) != 1)
        _exit (1);
      for (;;)
        pause ();
    }
  close (ready[1]);
  assert_int_equal (read (ready[0], &c, 1), 1);
  close (ready[0]);
  return pid;
}

static void
end_child (pid_t pid, struct classic_rule *rules, size_t n_rules)
{
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
  for (size_t i = 0; i < n_rules; i++)
    free (rules[i].bpf);
}

/* The pid of @pid's tracer, from /proc (0: none).  */
static int
tracer_of (pid_t pid)
{
  char path[64], line[256];
  int tracer = -1;
  FILE *f;

  snprintf (path, sizeof (path), "/proc/%d/status", (int)pid);
  f = fopen (path, "r");
  while (f && fgets (line, sizeof (line), f))
    if (sscanf (line, "TracerPid: %d", &tracer) == 1)
      break;
  if (f)
    fclose (f);
  return tracer;
}

/* What `entitle inspect PID` reads, for real (mainline's
   PTRACE_SECCOMP_GET_FILTER): a process's classic filters, the oldest
   first, each as libseccomp made it; the process is let go
   after.  The disassembly names the syscalls for the architecture each
   path checked: on x86_64, 26 is ptrace under x86 (msync under x86_64).  */
static void
test_inspect_classic_filters (void **state)
{
  struct classic_rule rules[] = { { "ptrace", 0, NULL }, { "socket", 0, NULL } };
  struct entitle_seccomp_filter_s *f = NULL;
  entitle_error_t err = NULL;
  struct entitle_disasm_s d;
  cleanup_free char *text = NULL;
  size_t n = 0, len = 0;
  FILE *out;
  pid_t pid;

  (void)state;
  pid = filtered_child (rules, 2);
  if (entitle_seccomp_read_filters (&entitle_kernel, pid, false, &f, &n, &err) < 0)
    fail_msg ("%s", err->msg);
  assert_int_equal (n, 2);
  for (size_t i = 0; i < n; i++)
    {
      const struct classic_rule *r = &rules[i];
      assert_int_equal (f[i].n * sizeof (struct sock_filter), r->len);
      assert_int_equal (f[i].kind, ENTITLE_FILTER_CLASSIC);
      assert_memory_equal (f[i].insns, r->bpf, r->len);
    }
  assert_int_equal (tracer_of (pid), 0);
  out = open_memstream (&text, &len);
  entitle_disasm_start (&d, f[0].insns, f[0].n);
  for (size_t i = 0; i < f[0].n; i++)
    {
      char line[160];
      entitle_disasm (&d, i, line, sizeof (line));
      fprintf (out, "%zu: %s\n", i, line);
    }
  entitle_disasm_end (&d);
  fclose (out);
  assert_contains (text, "0: ld [4] ; arch\n");
  assert_contains (text, ": ld [0] ; nr\n");
  assert_contains (text, " ; ERRNO(EPERM)\n");
  assert_contains (text, " ; ALLOW\n");
  if (seccomp_arch_native () == SCMP_ARCH_X86_64)
    {
      assert_contains (text, "1: jeq #0xc000003e, 2, ");
      assert_contains (text, " ; x86_64\n");
      assert_contains (text, " ; x86\n");
      assert_contains (text, "jeq #0x65, "); /* 101, x86_64's ptrace */
      assert_contains (text, "jeq #0x1a, "); /* 26, x86's */
      assert_null (strstr (text, "msync"));
    }
  {
    /* Every syscall named is the filter's own.  */
    const char *p = text;
    size_t named = 0;
    while ((p = strstr (p, "; ptrace\n")) != NULL)
      named++, p++;
    assert_int_equal (named, seccomp_arch_native () == SCMP_ARCH_X86_64 ? 2 : 1);
    assert_null (strstr (text, "; socket\n"));
  }
  entitle_seccomp_filters_free (f, n);
  end_child (pid, rules, 2);
}

/* A process under no filter has none to print; one that is gone is a
   one-line error.  */
static void
test_inspect_no_filter_and_no_process (void **state)
{
  struct entitle_seccomp_filter_s *f = NULL;
  entitle_error_t err = NULL;
  size_t n = 7;
  pid_t pid;

  (void)state;
  pid = filtered_child (NULL, 0);
  assert_int_equal (entitle_seccomp_read_filters (&entitle_kernel, pid, false, &f, &n, &err), 0);
  assert_int_equal (n, 0);
  entitle_seccomp_filters_free (f, n);
  end_child (pid, NULL, 0);
  assert_true (entitle_seccomp_read_filters (&entitle_kernel, pid, false, &f, &n, &err) < 0);
  assert_int_equal (err->status, ESRCH);
  assert_null (strchr (err->msg, '\n'));
  assert_contains (err->msg, "trace process");
  entitle_error_release (&err);
}

/* On a kernel with eBPF seccomp, the chain holds the helper's eBPF filter
   (the most recent) after the process's classic ones: read back with
   the seed's request, as entitle's, with its decisions.  Where the
   kernel has no eBPF seccomp, such a filter is there, unread.  */
static void
test_inspect_ebpf_filter_fake_kernel (void **state)
{
  struct classic_rule rules[] = { { "ptrace", 0, NULL } };
  struct rule rule = { RULE_SECCOMP_FD, NULL };
  struct plan plan = { .rules = &rule, .n_rules = 1, .kernel = &fake_kernel };
  struct entitle_seccomp_filter_s *f = NULL;
  struct entitle_seccomp_policy p;
  struct entitle_seccomp_ext_s ext;
  entitle_error_t err = NULL;
  char fdtext[16];
  size_t n = 0;
  int fd;
  pid_t pid;

  (void)state;
  fd = load_filter ("network.none", &p);
  snprintf (fdtext, sizeof (fdtext), "%d", dup (fd));
  rule.value = fdtext;
  init_seccomp (&plan);
  pid = filtered_child (rules, 1);
  if (entitle_seccomp_read_filters (&fake_kernel, pid, true, &f, &n, &err) < 0)
    fail_msg ("%s", err->msg);
  assert_int_equal (n, 2);
  assert_int_equal (f[1].kind, ENTITLE_FILTER_EBPF);
  assert_null (f[1].insns);
  assert_int_equal (entitle_seccomp_ext_describe (&fake_kernel, f[1].ebpf_fd, &ext, &err), 0);
  assert_int_equal (ext.id, fake_prog_id (fd));
  assert_true (ext.entitle);
  assert_memory_equal (&ext.policy, &p, sizeof (p));
  assert_int_equal (f[0].kind, ENTITLE_FILTER_CLASSIC);
  assert_int_equal (f[0].n * sizeof (struct sock_filter), rules[0].len);
  entitle_seccomp_filters_free (f, n);
  assert_int_equal (entitle_seccomp_read_filters (&fake_kernel, pid, false, &f, &n, &err), 0);
  assert_int_equal (n, 2);
  assert_int_equal (f[1].kind, ENTITLE_FILTER_EBPF);
  assert_int_equal (f[1].ebpf_fd, -1);
  entitle_seccomp_filters_free (f, n);
  assert_int_equal (tracer_of (pid), 0);
  end_child (pid, rules, 1);
  close (fd);
}

/* The BPF LSM programs are built (or left out where the build host had no
   BTF); where the kernel refuses them, as this tree's CI host does, the
   loader fails in one line and holds nothing.  A kernel that runs the bpf
   LSM loads them: this path is then not the one taken.  */
static void
test_lsm_loader_error_path (void **state)
{
  struct entitle_lsm_s l;
  entitle_error_t err = NULL;
  cleanup_close int map = -1;
  int ret;

  (void)state;
  libbpf_set_print (entitle_libbpf_silent);
  map = entitle_seed_map_create (&entitle_kernel, "entitle_policy", BPF_MAP_TYPE_CGROUP_STORAGE, sizeof (__u64),
                                 sizeof (struct entitle_policy), 0, 0, &err);
  assert_true (map >= 0);
  ret = entitle_lsm_load (map, &l, &err);
  if (ret == 0)
    {
      entitle_lsm_close (&l);
      print_message ("# SKIP: this kernel loads the BPF LSM programs: their error path is not taken here\n");
      skip ();
    }
  assert_true (err->msg[0] && strchr (err->msg, '\n') == NULL);
  assert_contains (err->msg, "BPF LSM: ");
  for (size_t i = 0; i < ENTITLE_LSM_PROGS; i++)
    assert_int_equal (l.prog[i], -1);
  entitle_error_release (&err);
}

/* The fake kernel checked against the real one (issue 26): where the
   running kernel carries both patch sets (the seed kernel of `make
   check-seed-kernel`), the same calls, with the same inputs, go to the
   fake and to the kernel, and each must give the answer the seeds define
   on both.  They are the program test-seeds-real (this file built with
   ENTITLE_SEEDS_REAL), which skips elsewhere.  What the kernel keeps is
   global and, once locked, stays until a reboot: these run once a boot,
   and lock only Checmate's file_open hook, with a program that lets
   everything through.  */

/* A program of @type whose every run returns @ret, loaded through @k.  */
static int
load_constant (const struct entitle_kernel_s *k, int type, int ret)
{
  struct bpf_insn insns[2] = { { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = ret },
                               { .code = BPF_JMP | BPF_EXIT } };
  union bpf_attr attr;
  int fd;

  memset (&attr, 0, sizeof (attr));
  attr.prog_type = (__u32)type;
  attr.insns = (__u64)(unsigned long)insns;
  attr.insn_cnt = 2;
  attr.license = (__u64)(unsigned long)"GPL";
  attr.kern_version = entitle_seed_kernel_version ();
  fd = (int)k->bpf (BPF_PROG_LOAD, &attr, sizeof (attr));
  if (fd < 0)
    fail_msg ("load a constant program of type %d: %s", type, strerror (errno));
  return fd;
}

static int
answer_of (long r)
{
  return r == 0 ? 0 : r < 0 ? errno
                            : -1;
}

/* Checmate's answers to one sequence of prctl calls at file_open (hook
   48), into @got.  */
#define CHECMATE_STEPS 14
static void
checmate_steps (const struct entitle_kernel_s *k, int got[CHECMATE_STEPS])
{
  int cm = load_constant (k, ENTITLE_BPF_PROG_TYPE_CHECMATE, 0), sc = load_constant (k, ENTITLE_BPF_PROG_TYPE_SECCOMP, 0);
  int i = 0;

  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 6, (unsigned long)-1, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 0, (unsigned long)cm, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 51, (unsigned long)cm, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 5, (unsigned long)cm, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 48, (unsigned long)sc, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 48, (unsigned long)cm, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 48, (unsigned long)cm, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_RESET, 48, 0, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 48, (unsigned long)cm, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, 9, 48, 0, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_DENY_RESET, 48, 0, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_DENY_RESET, 48, 0, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_RESET, 48, 0, 0));
  got[i++] = answer_of (k->prctl (PR_CHECMATE, CHECMATE_INSTALL_HOOK, 48, (unsigned long)cm, 0));
  close (cm);
  close (sc);
}

/* The probe, entitle's Checmate programs (each judged by the real
   verifier as BPF_PROG_TYPE_CHECMATE), and Checmate's answers: a bad fd,
   hooks out of range, a hook it runs nothing at, a program of another
   type, EEXIST, reset, an unknown op, deny_reset twice, reset refused.  */
static void
test_checmate_fake_vs_real (void **state)
{
  static const int want[CHECMATE_STEPS] = { EBADF, EINVAL, EINVAL, ENOENT, EINVAL, 0, EEXIST,
                                            0, 0, EINVAL, 0, EALREADY, EPERM, EEXIST };
  const struct entitle_kernel_s *kernels[2] = { &fake_kernel, &entitle_kernel };
  int got[2][CHECMATE_STEPS];

  (void)state;
  for (int k = 0; k < 2; k++)
    {
      struct entitle_checmate_s c;
      entitle_error_t err = NULL;

      assert_true (entitle_seed_checmate (kernels[k]));
      if (entitle_checmate_load (kernels[k], &c, &err) < 0)
        fail_msg ("%s: entitle_checmate_load: %s", k ? "real" : "fake", err->msg);
      entitle_checmate_close (&c);
      checmate_steps (kernels[k], got[k]);
    }
  for (int i = 0; i < CHECMATE_STEPS; i++)
    if (got[0][i] != want[i] || got[1][i] != want[i])
      fail_msg ("step %d: the fake answers %s, the kernel %s, the seed %s", i, strerrorname_np (got[0][i]) ?: "0",
                strerrorname_np (got[1][i]) ?: "0", strerrorname_np (want[i]) ?: "0");
}

/* The answers of @k to three installs: a bad fd, the program @cm of
   another type, the filter @sc.  */
static void
install_steps (const struct entitle_kernel_s *k, int cm, int sc, int got[3])
{
  int bad = -1;

  got[0] = answer_of (k->prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER_EXTENDED, (unsigned long)&bad, 0, 0));
  got[1] = answer_of (k->prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER_EXTENDED, (unsigned long)&cm, 0, 0));
  got[2] = answer_of (k->prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER_EXTENDED, (unsigned long)&sc, 0, 0));
}

/* A child stopped for its tracer, this process, after the installs of
   @k (none for the fake, whose installs are this process's) with their
   answers on @got; its pid.  */
static pid_t
stopped_child (const struct entitle_kernel_s *k, int cm, int sc, int got[3])
{
  int fds[2], status;
  pid_t child;

  memset (got, 0, 3 * sizeof (int));
  assert_int_equal (pipe (fds), 0);
  child = fork ();
  assert_true (child >= 0);
  if (child == 0)
    {
      if (k)
        install_steps (k, cm, sc, got);
      if (write (fds[1], got, 3 * sizeof (int)) != (ssize_t)(3 * sizeof (int))
          || ptrace (PTRACE_TRACEME, 0, NULL, NULL) < 0)
        _exit (1);
      raise (SIGSTOP);
      _exit (0);
    }
  close (fds[1]);
  assert_int_equal (read (fds[0], got, 3 * sizeof (int)), (ssize_t)(3 * sizeof (int)));
  close (fds[0]);
  assert_int_equal (waitpid (child, &status, 0), child);
  assert_true (WIFSTOPPED (status));
  return child;
}

/* The answers after the installs, about the stopped tracee @pid:
   mainline's read of filter 0 (no classic program), the extended read of
   filter 0 (the program loaded?) and of filter 1 (past the last).  */
static void
read_back_steps (const struct entitle_kernel_s *k, pid_t pid, int sc, int got[3])
{
  entitle_error_t err = NULL;
  int back, status;

  got[0] = answer_of (k->ptrace (PTRACE_SECCOMP_GET_FILTER, pid, 0, 0));
  back = entitle_seccomp_get_extended (k, pid, 0, &err);
  got[1] = back > 0 && fake_prog_id (back) == fake_prog_id (sc) ? 0 : -1;
  if (back > 0)
    close (back);
  got[2] = entitle_seccomp_get_extended (k, pid, 1, &err);
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
}

/* eBPF seccomp's answers: a bad fd, a program of another type, a filter
   installed, then read back from a stopped tracee.  The kernel's installs
   are the tracee's own; the fake's are this process's, which the fake
   stands for the tracee (it installs nothing there).  */
static void
test_seccomp_fake_vs_real (void **state)
{
  static const int want[6] = { EBADF, EINVAL, 0, EMEDIUMTYPE, 0, 0 };
  const struct entitle_kernel_s *kernels[2] = { &fake_kernel, &entitle_kernel };
  int got[2][6];

  (void)state;
  for (int k = 0; k < 2; k++)
    {
      int cm = load_constant (kernels[k], ENTITLE_BPF_PROG_TYPE_CHECMATE, 0);
      int sc = load_constant (kernels[k], ENTITLE_BPF_PROG_TYPE_SECCOMP, (int)SECCOMP_RET_ALLOW);
      pid_t child = stopped_child (k ? kernels[k] : NULL, cm, sc, got[k]);

      if (k == 0)
        install_steps (kernels[k], cm, sc, got[k]);
      read_back_steps (kernels[k], child, sc, &got[k][3]);
      close (cm);
      close (sc);
    }
  for (int i = 0; i < 6; i++)
    if (got[0][i] != want[i] || got[1][i] != want[i])
      fail_msg ("step %d: the fake answers %d, the kernel %d, the seed %d", i, got[0][i], got[1][i], want[i]);
}

/* The filters' decisions: entitle's for the same entitlements, and the
   examples' (custom entitlements), run by BPF_PROG_TEST_RUN on both, the
   fake's as a syscall program, the kernel's as BPF_PROG_TYPE_SECCOMP.  */
static void
test_seccomp_decisions_fake_vs_real (void **state)
{
  static const struct entitle_prog_s progs[] = {
    { .object = ENTITLE_EXAMPLES "/seccomp1.bpf.o", .program = "close_999", .attach = "seccomp", .point = ENTITLE_POINT_SECCOMP },
    { .object = ENTITLE_EXAMPLES "/seccomp2.bpf.o", .program = "no_sched_yield", .attach = "seccomp", .point = ENTITLE_POINT_SECCOMP },
  };
  static const struct
  {
    const char *name;
    uint64_t a0, a1, a2;
  } calls[] = { { "socket", 2, 1, 0 }, { "socket", 1, 1, 0 }, { "socketpair", 10, 1, 0 }, { "mount", 0, 0, 0 }, { "unshare", 0, 0, 0 }, { "getpid", 0, 0, 0 }, { "personality", 8, 0, 0 }, { "personality", 0xffffffff, 0, 0 }, { "mknodat", 0, 0, 0020000 }, { "mknodat", 0, 0, 0010000 }, { "close", 999, 0, 0 }, { "close", 998, 0, 0 }, { "sched_yield", 0, 0, 0 } };
  struct entitle_entry_s e = { .name = "example.com.seccomp1", .progs = progs, .n_progs = 2, .custom = "t.json" };
  const struct entitle_kernel_s *kernels[2] = { &fake_kernel, &entitle_kernel };
  uint32_t native = seccomp_arch_native ();
  uint32_t got[2][3][sizeof (calls) / sizeof (calls[0])];

  (void)state;
  for (int k = 0; k < 2; k++)
    {
      struct entitle_seccomp_policy p;
      entitle_error_t err = NULL;
      int fd[3];

      fd[0] = load_filter_on (kernels[k], "network.none,security.confined,host.devices.none", &p);
      for (int j = 0; j < 2; j++)
        if ((fd[j + 1] = entitle_bpf_custom_seccomp_load (kernels[k], &e, &progs[j], &err)) < 0)
          fail_msg ("%s: %s", progs[j].program, err->msg);
      for (int j = 0; j < 3; j++)
        {
          for (size_t i = 0; i < sizeof (calls) / sizeof (calls[0]); i++)
            got[k][j][i] = run (fd[j], native, calls[i].name, calls[i].a0, calls[i].a1, calls[i].a2);
          close (fd[j]);
        }
    }
  for (int j = 0; j < 3; j++)
    for (size_t i = 0; i < sizeof (calls) / sizeof (calls[0]); i++)
      if (got[0][j][i] != got[1][j][i])
        fail_msg ("filter %d, %s: the fake's program says %#x, the kernel's %#x", j, calls[i].name, got[0][j][i],
                  got[1][j][i]);
  /* And they decide: network.none's inet socket, seccomp1's close(999).  */
  assert_int_equal (got[1][0][0], DENY);
  assert_int_equal (got[1][0][1], ALLOW);
  assert_int_equal (got[1][1][10], DENY);
  assert_int_equal (got[1][1][11], ALLOW);
  assert_int_equal (got[1][2][12], DENY);
}

int
main (void)
{
  const struct CMUnitTest real_tests[] = {
    cmocka_unit_test_setup (test_checmate_fake_vs_real, setup),
    cmocka_unit_test_setup (test_seccomp_fake_vs_real, setup),
    cmocka_unit_test_setup (test_seccomp_decisions_fake_vs_real, setup),
  };
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup (test_checmate_load_and_install_fake_kernel, setup),
    cmocka_unit_test_setup (test_checmate_install_idempotent_fake_kernel, setup),
    cmocka_unit_test_setup (test_checmate_lock_refuses_reset_fake_kernel, setup),
    cmocka_unit_test_setup (test_checmate_hook_not_run_fake_kernel, setup),
    cmocka_unit_test (test_checmate_absent_on_this_kernel),
    cmocka_unit_test (test_checmate_layout_from_btf),
    cmocka_unit_test (test_checmate_entries_swept),
    cmocka_unit_test_setup (test_seccomp_filter_decisions_fake_kernel, setup),
    cmocka_unit_test_setup (test_seccomp_filter_allowance_wins_fake_kernel, setup),
    cmocka_unit_test_setup (test_seccomp_read_back_fake_kernel, setup),
    cmocka_unit_test_setup (test_init_layers_in_order_fake_kernel, setup),
    cmocka_unit_test (test_lsm_loader_error_path),
    cmocka_unit_test_setup (test_seed_attach_points_fake_kernel, setup),
    cmocka_unit_test_setup (test_custom_seccomp_programs_fake_kernel, setup),
    cmocka_unit_test_setup (test_custom_seccomp_load_error_fake_kernel, setup),
    cmocka_unit_test_setup (test_custom_checmate_program_fake_kernel, setup),
    cmocka_unit_test_setup (test_custom_checmate_load_errors_fake_kernel, setup),
    cmocka_unit_test (test_inspect_classic_filters),
    cmocka_unit_test (test_inspect_no_filter_and_no_process),
    cmocka_unit_test_setup (test_inspect_ebpf_filter_fake_kernel, setup),
  };

  if (geteuid () != 0)
    {
      printf ("1..0 # SKIP bpf(2) needs root\n");
      return 0;
    }
#ifdef ENTITLE_SEEDS_REAL
  (void)tests;
  if (!entitle_seed_checmate (&entitle_kernel) || !entitle_seed_seccomp_extended (&entitle_kernel))
    {
      printf ("1..0 # SKIP this kernel carries neither seed patch set: make check-seed-kernel runs these on one "
              "that does\n");
      return 0;
    }
  return cmocka_run_group_tests (real_tests, NULL, NULL);
#else
  (void)real_tests;
  return cmocka_run_group_tests (tests, NULL, NULL);
#endif
}
