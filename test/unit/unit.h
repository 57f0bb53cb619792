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

/* @haystack is not NULL and contains @needle.  */
static inline void
assert_contains (const char *haystack, const char *needle)
{
  if (haystack == NULL || strstr (haystack, needle) == NULL)
    fail_msg ("`%s` does not contain `%s`", haystack ? haystack : "(null)", needle);
}

#endif
