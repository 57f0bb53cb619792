/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probes of the two seed interfaces mainline never merged
   (PR_CHECMATE and SECCOMP_MODE_FILTER_EXTENDED), against a FAKE kernel
   interface: a prctl that answers as a patched kernel would.  Mainline's
   answer is checked for real in test/integration/probe.bats.  */
#include <config.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <cmocka.h>
#include "probe-run.h"

#define PR_CHECMATE 0x43484543

/* A Checmate kernel: INSTALL_HOOK with a bad fd fails in bpf_prog_get_type.  */
static long
fake_checmate_kernel (int op, unsigned long a, unsigned long b, unsigned long c, unsigned long d)
{
  (void)b;
  (void)d;
  if (op == PR_CHECMATE && a == 1 && (long)c == -1)
    {
      errno = EBADF;
      return -1;
    }
  errno = EINVAL;
  return -1;
}

/* A kernel with the eBPF seccomp patch: mode 3 reads the fd and fails on it.  */
static long
fake_seccomp_extended_kernel (int op, unsigned long a, unsigned long b, unsigned long c, unsigned long d)
{
  (void)c;
  (void)d;
  if (op == PR_SET_SECCOMP && a == 3 && *(const int *)b == -1)
    {
      errno = EBADF;
      return -1;
    }
  errno = EINVAL;
  return -1;
}

/* Mainline as it is: unknown option or mode.  */
static long
fake_mainline_kernel (int op, unsigned long a, unsigned long b, unsigned long c, unsigned long d)
{
  (void)op;
  (void)a;
  (void)b;
  (void)c;
  (void)d;
  errno = EINVAL;
  return -1;
}

static void
test_checmate_present_on_fake_checmate_kernel (void **state)
{
  (void)state;
  assert_true (entitle_probe_checmate (fake_checmate_kernel));
  assert_false (entitle_probe_seccomp_extended (fake_checmate_kernel));
}

static void
test_seccomp_extended_present_on_fake_patched_kernel (void **state)
{
  (void)state;
  assert_true (entitle_probe_seccomp_extended (fake_seccomp_extended_kernel));
  assert_false (entitle_probe_checmate (fake_seccomp_extended_kernel));
}

static void
test_both_absent_on_fake_mainline_kernel (void **state)
{
  (void)state;
  assert_false (entitle_probe_checmate (fake_mainline_kernel));
  assert_false (entitle_probe_seccomp_extended (fake_mainline_kernel));
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_checmate_present_on_fake_checmate_kernel),
    cmocka_unit_test (test_seccomp_extended_present_on_fake_patched_kernel),
    cmocka_unit_test (test_both_absent_on_fake_mainline_kernel),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
