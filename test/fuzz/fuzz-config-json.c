/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include "compile.h"
#include "rewrite.h"
#include "context.h"
#include "fuzz.h"
#include "json.h"
#include "utils.h"

/* config.json as the shim loads it (json_parse), rewritten under a fixed
   admin config (entitle_rewrite) and written back (json_generate).

   Properties: json_generate of anything json_parse accepted parses again
   to an equal document, and generating that again gives the same bytes;
   the same holds after a rewrite; a rewrite never fails without a one-line
   message, and rewriting the result again is accepted.  */

static char *
generate (const json_t *v, size_t *len)
{
  entitle_error_t err = NULL;
  char *out = NULL;

  if (json_generate (v, &out, len, &err) < 0)
    {
      fprintf (stderr, "json_generate: %s\n", err->msg);
      abort ();
    }
  return out;
}

/* @v generates text that parses back to an equal document whose own
   text is identical.  */
static void
check_round_trip (const json_t *v)
{
  cleanup_free char *t1 = NULL, *t2 = NULL;
  cleanup_json json_t *v2 = NULL;
  entitle_error_t err = NULL;
  size_t l1, l2;

  t1 = generate (v, &l1);
  if (json_parse (t1, l1, &v2, &err) < 0)
    {
      fprintf (stderr, "json_parse of generated text: %s\n", err->msg);
      abort ();
    }
  FUZZ_ASSERT (json_equal (v, v2));
  t2 = generate (v2, &l2);
  FUZZ_ASSERT (l1 == l2 && memcmp (t1, t2, l1) == 0);
}

static int
rewrite (const struct entitle_config_s *cfg, json_t *spec)
{
  struct entitle_ctx_s ctx;
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  entitle_error_t err = NULL;
  int ret;

  entitle_ctx_init (&ctx, NULL, cfg);
  ret = entitle_rewrite (&ctx, spec, &final, &err);
  entitle_ctx_release (&ctx);
  if (getenv ("FUZZ_VERBOSE"))
    fprintf (stderr, "rewrite under config %s: %d %s\n", cfg->present ? "present" : "none", ret,
             ret < 0 ? err->msg : "");
  if (ret < 0)
    {
      FUZZ_ASSERT (err != NULL && err->msg != NULL);
      FUZZ_ASSERT (strchr (err->msg, '\n') == NULL);
      entitle_error_release (&err);
    }
  else
    FUZZ_ASSERT (err == NULL);
  return ret;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cleanup_json json_t *spec = NULL;
  entitle_error_t err = NULL;
  size_t i;

  if (json_parse ((const char *)data, size, &spec, &err) < 0)
    {
      FUZZ_ASSERT (spec == NULL && err != NULL);
      entitle_error_release (&err);
      return 0;
    }
  check_round_trip (spec);

  for (i = 0; i < FUZZ_N_ADMIN_CONFIGS; i++)
    {
      struct entitle_config_s cfg;
      cleanup_json json_t *copy = json_clone (spec);

      FUZZ_ASSERT (json_equal (copy, spec));
      fuzz_admin_config (&cfg, i);
      if (rewrite (&cfg, copy) > 0)
        {
          check_round_trip (copy);
          /* create is idempotent: what entitle wrote is accepted again.  */
          FUZZ_ASSERT (rewrite (&cfg, copy) >= 0);
        }
      entitle_config_free (&cfg);
    }
  return 0;
}
