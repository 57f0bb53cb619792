/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probes of the two seed interfaces mainline never merged
   (PR_CHECMATE and SECCOMP_MODE_FILTER_EXTENDED), against the FAKE kernel
   of fake-kernel.h: a kernel that carries either patch set answers as
   the seeds would.  Mainline's answer is checked for real in
   test/integration/probe.bats.  */
#include <config.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "fake-kernel.h"

static void
test_checmate_present_fake_kernel (void **state)
{
  (void)state;
  fake_kernel_reset (FAKE_CHECMATE);
  assert_true (entitle_seed_checmate (&fake_kernel));
  assert_false (entitle_seed_seccomp_extended (&fake_kernel));
}

static void
test_seccomp_extended_present_fake_kernel (void **state)
{
  (void)state;
  fake_kernel_reset (FAKE_SECCOMP_EXTENDED);
  assert_true (entitle_seed_seccomp_extended (&fake_kernel));
  assert_false (entitle_seed_checmate (&fake_kernel));
}

static void
test_both_absent_mainline_fake_kernel (void **state)
{
  bool seed;

  (void)state;
  fake_kernel_reset (0);
  assert_false (entitle_seed_checmate (&fake_kernel));
  assert_false (entitle_seed_seccomp_extended (&fake_kernel));
  /* And this kernel itself: mainline, but in the seed kernel's row of
     make check-seed-kernel (ENTITLE_KERNEL_ROW seed-6.1), which has both.  */
  seed = fake_kernel_running_is_seed ();
  assert_int_equal (entitle_seed_checmate (&entitle_kernel), seed);
  assert_int_equal (entitle_seed_seccomp_extended (&entitle_kernel), seed);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_checmate_present_fake_kernel),
    cmocka_unit_test (test_seccomp_extended_present_fake_kernel),
    cmocka_unit_test (test_both_absent_mainline_fake_kernel),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
