/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <seccomp.h>
#include <cmocka.h>
#include "unit.h"
#include "cap-use.h"
#include "catalogue.h"
#include "kallsyms.h"
#include "propose.h"
#include "utils.h"

/* What entitle learn proposes from the capability checks it saw
   (lib/read/cap-use.c, propose.c), and where the kernel's functions
   lie for the tracepoint's program (lib/kernel/kallsyms.c).  The expected
   words are written out here, never computed by the code under test; the
   capabilities by number as the kernel gives them, the syscalls by the
   native numbers of their names.  */

enum
{
  CHOWN = 0,
  DAC_OVERRIDE = 1,
  KILL = 5,
  NET_BIND_SERVICE = 10,
  NET_ADMIN = 12,
  NET_RAW = 13,
  IPC_LOCK = 14,
  SYS_ADMIN = 21,
  MKNOD = 27,
};

static struct entitle_cap_use_s
use (int cap, bool granted, const char *syscall)
{
  return (struct entitle_cap_use_s){ .cap = cap,
                                     .granted = granted,
                                     .syscall = syscall ? seccomp_syscall_resolve_name (syscall) : -1 };
}

/* The proposal for the checks @caps (the run saw nothing else): its list,
   the evidence of @name into @ev and every note into @notes.  */
static char *
proposed (const struct entitle_cap_use_s *caps, size_t n, const char *name, char *ev, size_t len, char *notes,
          size_t notes_len)
{
  struct entitle_observed_s o = { .syscalls_seen = true, .caps = caps, .n_caps = n, .unprivileged_port = 1024 };
  struct entitle_proposal_s p;
  char *list;
  size_t i, at = 0;

  entitle_propose (&o, &p);
  list = entitle_proposal_list (&p);
  if (ev)
    ev[0] = '\0';
  for (i = 0; ev && name && i < p.n; i++)
    if (strcmp (p.items[i].entitlement, name) == 0)
      snprintf (ev, len, "%s", p.items[i].evidence);
  for (i = 0; notes && p.not_observed && p.not_observed[i] && at < notes_len; i++)
    at += (size_t)snprintf (notes + at, notes_len - at, "%s\n", p.not_observed[i]);
  entitle_proposal_free (&p);
  return list;
}

/* The proposal's list for @caps is @want, and the evidence of @name is
   @evidence.  */
static void
expect (const struct entitle_cap_use_s *caps, size_t n, const char *want, const char *name, const char *evidence)
{
  char ev[512];
  cleanup_free char *list = proposed (caps, n, name, ev, sizeof (ev), NULL, 0);

  assert_string_equal (list, want);
  if (name)
    assert_string_equal (ev, evidence);
}

static void
test_names (void **state)
{
  struct entitle_cap_use_s c = use (NET_ADMIN, true, "ioctl");
  char buf[160];

  (void)state;
  entitle_cap_name (NET_ADMIN, buf, sizeof (buf));
  assert_string_equal (buf, "CAP_NET_ADMIN");
  entitle_cap_name (99, buf, sizeof (buf));
  assert_string_equal (buf, "capability 99");
  entitle_cap_use_describe (&c, buf, sizeof (buf));
  assert_string_equal (buf, "CAP_NET_ADMIN used by ioctl()");
  c = use (SYS_ADMIN, false, "mount");
  entitle_cap_use_describe (&c, buf, sizeof (buf));
  assert_string_equal (buf, "CAP_SYS_ADMIN asked for by mount(), refused in the run");
  c = use (SYS_ADMIN, false, NULL);
  entitle_cap_use_describe (&c, buf, sizeof (buf));
  assert_string_equal (buf, "CAP_SYS_ADMIN asked for, refused in the run");
}

/* Every capability a row adds has a giver that adds it, never a name
   granted only by itself (security.insecure, network.host).  */
static void
test_every_added_cap_has_a_giver (void **state)
{
  size_t n, i;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (NULL, &n);

  (void)state;
  for (i = 0; i < n; i++)
    for (const char *const *c = rows[i].cap_add; c && *c; c++)
      {
        const struct entitle_entry_s *g = entitle_cap_giver (*c);
        assert_non_null (g);
        assert_true (entitle_strv_has ((char *const *)g->cap_add, *c));
        assert_false (g->exact_grant);
      }
  assert_null (entitle_cap_giver ("CAP_KILL"));
  /* A rung of a ladder learn proposes before a narrower row elsewhere.  */
  assert_string_equal (entitle_cap_giver ("CAP_SYS_ADMIN")->name, "security.admin");
  assert_string_equal (entitle_cap_giver ("CAP_NET_ADMIN")->name, "network.admin");
  assert_string_equal (entitle_cap_giver ("CAP_NET_BIND_SERVICE")->name, "network.proxy");
  assert_string_equal (entitle_cap_giver ("CAP_MKNOD")->name, "host.devices.admin");
  assert_string_equal (entitle_cap_giver ("CAP_IPC_LOCK")->name, "security.memory-lock");
}

/* A capability the run held and used rules out the rungs that take it
   away, unless a rung chosen in another ladder adds it back.  */
static void
test_used (void **state)
{
  struct entitle_cap_use_s c[2];

  (void)state;
  expect (NULL, 0, "network.none,security.confined", "network.none", "nothing the run used is denied by it");
  c[0] = use (NET_ADMIN, true, "ioctl");
  /* security.confined keeps at most its list, and network.admin adds
     CAP_NET_ADMIN after the bound: confined stays.  */
  expect (c, 1, "network.admin,security.confined", "network.admin",
          "CAP_NET_ADMIN used by ioctl(): denied by network.none and network.user and network.proxy (it takes "
          "CAP_NET_ADMIN away)");
  c[0] = use (NET_BIND_SERVICE, true, "bind");
  expect (c, 1, "network.proxy,security.confined", "network.proxy",
          "CAP_NET_BIND_SERVICE used by bind(): denied by network.none and network.user (it takes "
          "CAP_NET_BIND_SERVICE away)");
  c[0] = use (DAC_OVERRIDE, true, "openat");
  expect (c, 1, "network.none,security.admin", "security.admin",
          "CAP_DAC_OVERRIDE used by openat(): denied by security.confined and security.view (it takes "
          "CAP_DAC_OVERRIDE away)");
  /* security.confined keeps CAP_CHOWN: nothing to say.  */
  c[0] = use (CHOWN, true, "fchownat");
  expect (c, 1, "network.none,security.confined", "network.none", "nothing the run used is denied by it");
  /* Held, and taken away by the rung chosen: the modifier that gives it.  */
  c[0] = use (IPC_LOCK, true, "mlock");
  expect (c, 1, "network.none,security.confined,security.memory-lock", "security.memory-lock",
          "CAP_IPC_LOCK used by mlock(): security.confined takes it away, security.memory-lock gives it");
  /* Where the rung chosen keeps it, no modifier is needed.  */
  c[1] = use (DAC_OVERRIDE, true, "openat");
  expect (c, 2, "network.none,security.admin", NULL, NULL);
  /* The syscall is not always known (a check outside one).  */
  c[0] = use (NET_ADMIN, true, NULL);
  expect (c, 1, "network.admin,security.confined", "network.admin",
          "CAP_NET_ADMIN used: denied by network.none and network.user and network.proxy (it takes CAP_NET_ADMIN "
          "away)");
}

/* A capability the run asked for and was refused (the engine did not
   give it): the rung of a ladder learn proposes that gives it, else the
   row that gives it on its own, else a note.  */
static void
test_refused (void **state)
{
  struct entitle_cap_use_s c[2];
  char notes[2048];
  cleanup_free char *list = NULL;

  (void)state;
  c[0] = use (NET_ADMIN, false, "ioctl");
  expect (c, 1, "network.admin,security.confined", "network.admin",
          "CAP_NET_ADMIN asked for by ioctl(), refused in the run: denied by network.none and network.user and "
          "network.proxy (it does not give CAP_NET_ADMIN)");
  /* security.admin, not host.devices.admin, which adds fewer but is a
     rung of a ladder learn does not propose.  */
  c[0] = use (SYS_ADMIN, false, "mount");
  expect (c, 1, "network.none,security.admin", "security.admin",
          "CAP_SYS_ADMIN asked for by mount(), refused in the run: denied by security.confined and security.view "
          "(it does not give CAP_SYS_ADMIN)");
  c[0] = use (MKNOD, false, "mknodat");
  expect (c, 1, "network.none,security.confined,host.devices.admin", "host.devices.admin",
          "CAP_MKNOD asked for by mknodat(), refused in the run: host.devices.admin gives it");
  c[0] = use (IPC_LOCK, false, "mlock");
  expect (c, 1, "network.none,security.confined,security.memory-lock", "security.memory-lock",
          "CAP_IPC_LOCK asked for by mlock(), refused in the run: security.memory-lock gives it");
  /* Granted and refused are two uses: both count.  */
  c[0] = use (NET_BIND_SERVICE, true, "bind");
  c[1] = use (NET_ADMIN, false, "ioctl");
  expect (c, 2, "network.admin,security.confined", NULL, NULL);
  c[0] = use (KILL, false, "kill");
  list = proposed (c, 1, NULL, NULL, 0, notes, sizeof (notes));
  assert_string_equal (list, "network.none,security.confined");
  assert_contains (notes, "CAP_KILL asked for by kill(), refused in the run: not proposed: no entitlement gives it\n");
}

static void
test_kallsyms (void **state)
{
  static const char *const names[] = { "cap_capable", "entitle_no_such_function" };
  static const char *const none[] = { "entitle_no_such_function" };
  uint64_t r[2][2];
  entitle_error_t err = NULL;

  (void)state;
  if (geteuid () != 0)
    skip (); /* the kernel shows its addresses to root only */
  assert_int_equal (entitle_kallsyms_ranges (names, 2, r, &err), 0);
  assert_true (r[0][0] != 0 && r[0][0] < r[0][1]);
  assert_true (r[1][0] == 0 && r[1][1] == 0);
  assert_true (entitle_kallsyms_ranges (none, 1, r, &err) < 0);
  assert_int_equal (err->status, ENOENT);
  entitle_error_release (&err);
}

/* The narrower choice learn names beside @name of the proposal for
   @syscalls and @caps, into @buf ("" when it names none).  */
static void
narrower_of (const struct entitle_syscall_use_s *syscalls, size_t n_syscalls, const struct entitle_cap_use_s *caps,
             size_t n_caps, bool caps_seen, const char *name, char *buf, size_t len)
{
  struct entitle_observed_s o = { .syscalls = syscalls,
                                  .n_syscalls = n_syscalls,
                                  .syscalls_seen = true,
                                  .caps = caps,
                                  .n_caps = n_caps,
                                  .caps_seen = caps_seen,
                                  .unprivileged_port = 1024 };
  struct entitle_proposal_s p;
  size_t i;

  entitle_propose (&o, &p);
  buf[0] = '\0';
  for (i = 0; i < p.n; i++)
    if (strcmp (p.items[i].entitlement, name) == 0 && p.items[i].narrower)
      snprintf (buf, len, "%s", p.items[i].narrower);
  entitle_proposal_free (&p);
}

/* A rung or giver proposed comes with the narrower choice that covers its
   evidence, or why none does (issue 23: learn proposed security.admin for
   one io_uring_setup, which the engine's own profile let through).  */
static void
test_narrower (void **state)
{
  struct entitle_syscall_use_s ring = { .name = "io_uring_setup" }, mnt = { .name = "mount" };
  struct entitle_syscall_use_s raw = { .name = "socket", .args = { AF_INET, SOCK_RAW } };
  struct entitle_cap_use_s c[1];
  char buf[512];

  (void)state;
  narrower_of (&ring, 1, NULL, 0, true, "security.admin", buf, sizeof (buf));
  assert_string_equal (buf, "no security.* rung: the engine's config let io_uring_setup() through in the run");
  narrower_of (&ring, 1, NULL, 0, false, "security.admin", buf, sizeof (buf));
  assert_string_equal (buf, "none: capability checks were not watched, so whether io_uring_setup() went through is "
                            "not known, and no narrower security.* rung allows it");
  c[0] = use (SYS_ADMIN, false, "mount");
  narrower_of (&mnt, 1, c, 1, true, "security.admin", buf, sizeof (buf));
  assert_string_equal (buf, "none: the engine's config refused mount() a capability, and no narrower security.* rung "
                            "allows it");
  /* A check of another call refused, that another ladder's rung gives,
     says nothing of this one.  */
  c[0] = use (NET_ADMIN, false, "ioctl");
  narrower_of (&ring, 1, c, 1, true, "security.admin", buf, sizeof (buf));
  assert_string_equal (buf, "no security.* rung: the engine's config let io_uring_setup() through in the run");
  c[0] = use (DAC_OVERRIDE, true, "openat");
  narrower_of (NULL, 0, c, 1, true, "security.admin", buf, sizeof (buf));
  assert_string_equal (buf, "no security.* rung: the engine's config let CAP_DAC_OVERRIDE used by openat() through in "
                            "the run");
  c[0] = use (NET_RAW, true, "socket");
  narrower_of (&raw, 1, c, 1, true, "network.proxy", buf, sizeof (buf));
  assert_string_equal (buf, "no network.* rung: the engine's config let socket(AF_INET, SOCK_RAW) through in the run");
  c[0] = use (NET_RAW, false, "socket");
  narrower_of (&raw, 1, c, 1, true, "network.proxy", buf, sizeof (buf));
  assert_string_equal (buf, "none: the engine's config refused socket(AF_INET, SOCK_RAW) a capability, and no "
                            "narrower network.* rung allows it");
  c[0] = use (IPC_LOCK, true, "mlock");
  narrower_of (NULL, 0, c, 1, true, "security.memory-lock", buf, sizeof (buf));
  assert_string_equal (buf, "without security.confined, which takes CAP_IPC_LOCK away, the engine's config gives it");
  c[0] = use (IPC_LOCK, false, "mlock");
  narrower_of (NULL, 0, c, 1, true, "security.memory-lock", buf, sizeof (buf));
  assert_string_equal (buf, "none: the engine's config refused CAP_IPC_LOCK, and security.memory-lock gives it with "
                            "the fewest other capabilities");
  /* A value only narrows: nothing to say.  */
  narrower_of (NULL, 0, NULL, 0, true, "network.none", buf, sizeof (buf));
  assert_string_equal (buf, "no network.* rung: nothing the run used needs it");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_names),
    cmocka_unit_test (test_every_added_cap_has_a_giver),
    cmocka_unit_test (test_used),
    cmocka_unit_test (test_refused),
    cmocka_unit_test (test_narrower),
    cmocka_unit_test (test_kallsyms),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
