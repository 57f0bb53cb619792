/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_TEST_FUZZ_H
#define ENTITLE_TEST_FUZZ_H

/* Shared by the fuzz targets (test/fuzz/fuzz-*.c).  Each target defines
   LLVMFuzzerTestOneInput; it is linked either with libFuzzer (make fuzz)
   or with test/fuzz/replay.c, which replays the checked-in corpora and
   regressions under make check.  A broken property calls abort(), which
   both report as a crash.  */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "admin-config.h"
#include "error.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond)                                                              \
  do                                                                                   \
    {                                                                                  \
      if (!(cond))                                                                     \
        {                                                                              \
          fprintf (stderr, "%s:%d: property broken: %s\n", __FILE__, __LINE__, #cond); \
          abort ();                                                                    \
        }                                                                              \
    }                                                                                  \
  while (0)

/* @data as a NUL-terminated string (cut at its first NUL).  */
static inline char *
fuzz_strndup (const uint8_t *data, size_t size)
{
  char *s = malloc (size + 1);
  if (s == NULL)
    abort ();
  memcpy (s, data, size);
  s[size] = '\0';
  return s;
}

/* Admin configs the targets resolve against: none at all, the example in
   docs/, one that grants everything, and one with a floor and defaults.  */
static const char *const fuzz_admin_configs[] = {
  NULL,
  "{\"runtime\": \"/usr/sbin/runc\","
  " \"defaults\": [\"network.user\", \"security.confined\"],"
  " \"grant\": [\"network.*\", \"security.confined\", \"security.view\", \"host.processes.none\"],"
  " \"require\": [\"security.confined\"], \"on_unenforceable\": \"refuse\", \"lock\": false,"
  " \"state_dir\": \"/run/entitle\"}",
  "{\"grant\": [\"network.*\", \"security.*\", \"host.*\", \"fs.*\"], \"on_unenforceable\": \"warn\"}",
  "{\"defaults\": [\"network.none\", \"security.confined\", \"host.devices.none\"],"
  " \"grant\": [\"network.egress\", \"network.bind\", \"fs.read\", \"fs.write\", \"security.view\"],"
  " \"require\": [\"security.confined\", \"host.devices.none\"], \"lock\": true}",
};
#define FUZZ_N_ADMIN_CONFIGS (sizeof (fuzz_admin_configs) / sizeof (fuzz_admin_configs[0]))

/* Admin config @i, as entitle_config_load would give it.  */
static inline void
fuzz_admin_config (struct entitle_config_s *cfg, size_t i)
{
  entitle_error_t err = NULL;
  const char *text = fuzz_admin_configs[i % FUZZ_N_ADMIN_CONFIGS];

  memset (cfg, 0, sizeof (*cfg));
  if (text == NULL)
    text = "{}";
  if (entitle_config_parse (cfg, "/etc/entitle/entitle.json", text, strlen (text), &err) < 0)
    {
      fprintf (stderr, "fuzz admin config %zu: %s\n", i, err->msg);
      abort ();
    }
  if (fuzz_admin_configs[i % FUZZ_N_ADMIN_CONFIGS] == NULL)
    cfg->present = false;
}

#endif
