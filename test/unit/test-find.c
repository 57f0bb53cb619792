/* SPDX-License-Identifier: GPL-2.0-or-later */
/* init_open_nofollow (init/find.c), the open entitle-init gives its
   Landlock rules to: a tree of directories, files and links in a
   temporary directory, opened relative to it as the helper opens the
   container's absolute paths from its root.  No root needed.  */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "init.h"

static char tree[] = "/tmp/test-find.XXXXXX";

/* tree/: usr/lib/f, data -> / , lib -> usr/lib, dangling -> nowhere.  */
static int
setup (void **state)
{
  (void)state;
  if (mkdtemp (tree) == NULL || chdir (tree) < 0 || mkdir ("usr", 0755) < 0 || mkdir ("usr/lib", 0755) < 0
      || close (open ("usr/lib/f", O_CREAT | O_WRONLY | O_CLOEXEC, 0644)) < 0 || symlink ("/", "data") < 0
      || symlink ("usr/lib", "lib") < 0 || symlink ("nowhere", "dangling") < 0)
    return -1;
  return 0;
}

static int
teardown (void **state)
{
  char cmd[64];

  (void)state;
  snprintf (cmd, sizeof (cmd), "rm -rf %s", tree);
  return system (cmd) == 0 ? 0 : -1;
}

/* @path opens, and names what stat(2) of it names.  */
static void
opens (const char *path)
{
  struct stat a, b;
  int fd = init_open_nofollow (path, NULL, 0);

  assert_true (fd >= 0);
  assert_int_equal (fstat (fd, &a), 0);
  assert_int_equal (stat (path, &b), 0);
  assert_true (a.st_dev == b.st_dev && a.st_ino == b.st_ino);
  close (fd);
}

/* @path fails with ELOOP, naming @link.  */
static void
loops_at (const char *path, const char *link)
{
  char got[PATH_MAX] = "unset";

  assert_int_equal (init_open_nofollow (path, got, sizeof (got)), -1);
  assert_int_equal (errno, ELOOP);
  assert_string_equal (got, link);
}

static void
test_open_nofollow_directories_and_files (void **state)
{
  (void)state;
  opens ("usr");
  opens ("usr/lib");
  opens ("usr//lib/");
  opens ("usr/lib/f");
  opens ("/");
}

static void
test_open_nofollow_link_itself (void **state)
{
  (void)state;
  loops_at ("data", "data");
  loops_at ("lib", "lib");
  loops_at ("dangling", "dangling");
}

static void
test_open_nofollow_link_on_the_way (void **state)
{
  (void)state;
  loops_at ("data/etc", "data");
  loops_at ("lib/f", "lib");
  loops_at ("./lib/f", "./lib");
}

static void
test_open_nofollow_link_prefix_cut (void **state)
{
  char got[4];

  (void)state;
  assert_int_equal (init_open_nofollow ("data/etc", got, sizeof (got)), -1);
  assert_int_equal (errno, ELOOP);
  assert_string_equal (got, "dat");
  assert_int_equal (init_open_nofollow ("data", NULL, 0), -1);
  assert_int_equal (errno, ELOOP);
}

static void
test_open_nofollow_errors (void **state)
{
  char name[NAME_MAX + 2];

  (void)state;
  assert_int_equal (init_open_nofollow ("missing", NULL, 0), -1);
  assert_int_equal (errno, ENOENT);
  assert_int_equal (init_open_nofollow ("usr/lib/f/x", NULL, 0), -1);
  assert_int_equal (errno, ENOTDIR);
  memset (name, 'n', sizeof (name) - 1);
  name[sizeof (name) - 1] = '\0';
  assert_int_equal (init_open_nofollow (name, NULL, 0), -1);
  assert_int_equal (errno, ENAMETOOLONG);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_open_nofollow_directories_and_files),
    cmocka_unit_test (test_open_nofollow_link_itself),
    cmocka_unit_test (test_open_nofollow_link_on_the_way),
    cmocka_unit_test (test_open_nofollow_link_prefix_cut),
    cmocka_unit_test (test_open_nofollow_errors),
  };

  return cmocka_run_group_tests (tests, setup, teardown);
}
