/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_TEST_UNIT_H
#define ENTITLE_TEST_UNIT_H

/* Fixtures shared by the unit tests; include after <cmocka.h>.  */

#include <string.h>
#include "admin-config.h"
#include "json.h"

#define CONFIG_PATH "/etc/entitle/entitle.json"

/* JSON text that must parse.  */
static inline json_t *
parse_ok (const char *s)
{
  entitle_error_t err = NULL;
  json_t *v = NULL;

  if (json_parse (s, strlen (s), &v, &err) < 0)
    fail_msg ("json_parse: %s", err->msg);
  return v;
}

/* An admin config from JSON text, as entitle_config_load reads it.  */
static inline void
config_from (struct entitle_config_s *cfg, const char *json)
{
  entitle_error_t err = NULL;

  memset (cfg, 0, sizeof (*cfg));
  if (entitle_config_parse (cfg, CONFIG_PATH, json, strlen (json), &err) < 0)
    fail_msg ("entitle_config_parse: %s", err->msg);
}

#ifdef ENTITLE_TEST_DATADIR
#include <stdio.h>
#include <stdlib.h>
#include "file.h"
#include "utils.h"

/* The JSON file @name of test/data (found through $ENTITLE_SRCDIR, which
   distcheck points at the unpacked tarball, else where it was built).  */
static inline json_t *
load_test_data (const char *name)
{
  const char *srcdir = getenv ("ENTITLE_SRCDIR");
  cleanup_free char *path = NULL, *buf = NULL;
  entitle_error_t err = NULL;
  json_t *spec = NULL;
  size_t len;

  if (srcdir && *srcdir)
    assert_true (asprintf (&path, "%s/test/data/%s", srcdir, name) > 0);
  else
    assert_true (asprintf (&path, "%s/%s", ENTITLE_TEST_DATADIR, name) > 0);
  if (entitle_file_read (path, 16 << 20, &buf, &len, &err) < 0)
    fail_msg ("%s: %s", path, err->msg);
  if (json_parse (buf, len, &spec, &err) < 0)
    fail_msg ("%s: %s", path, err->msg);
  return spec;
}
#endif

/* @haystack is not NULL and contains @needle.  */
static inline void
assert_contains (const char *haystack, const char *needle)
{
  if (haystack == NULL || strstr (haystack, needle) == NULL)
    fail_msg ("`%s` does not contain `%s`", haystack ? haystack : "(null)", needle);
}

#endif
