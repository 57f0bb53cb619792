/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rewrite: entitle's config rewrite alone, in-process, linked with
 * lib/libentitle.a.  Each iteration does what `entitle create` does to a
 * config something applies to: parse config.json, entitle_rewrite with a
 * fresh context (nothing memoized across iterations, as in a new process),
 * generate the JSON.  Prints "parse+rewrite+generate rewrite-alone" in
 * microseconds per config (CPU time, median of ITER/10 batches of 10).
 *
 *   rewrite CONFIG.JSON [ITER]     (admin config from $ENTITLE_CONFIG)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "compile.h"
#include "rewrite.h"
#include "context.h"
#include "file.h"
#include "json.h"

static double
cpu_us (void)
{
  struct timespec t;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void
fail (entitle_error_t *err)
{
  fprintf (stderr, "rewrite: %s\n", (*err)->msg);
  exit (1);
}

int
main (int argc, char **argv)
{
  struct entitle_config_s cfg = { 0 };
  struct entitle_log_s log = { 0 };
  entitle_error_t err = NULL;
  char *raw = NULL;
  size_t len;
  int iter = argc > 2 ? atoi (argv[2]) : 1000, batches, b, i, pass;
  double *full, *alone;

  if (argc < 2 || iter < 10)
    {
      fprintf (stderr, "usage: rewrite CONFIG.JSON [ITER>=10]\n");
      return 2;
    }
  if (entitle_config_load (&cfg, &err) < 0 || entitle_file_read (argv[1], ENTITLE_MAX_CONFIG_SIZE, &raw, &len, &err) < 0)
    fail (&err);
  batches = iter / 10;
  full = calloc (batches, sizeof (double));
  alone = calloc (batches, sizeof (double));
  for (pass = 0; pass < 2; pass++)
    for (b = 0; b < batches; b++)
      {
        double t0 = cpu_us (), spent = 0;
        for (i = 0; i < 10; i++)
          {
            struct entitle_ctx_s ctx;
            struct entitle_set_s final = { 0 };
            json_t *spec = NULL;
            char *out = NULL;
            size_t out_len;
            double r0, r1;

            entitle_ctx_init (&ctx, &log, &cfg);
            if (json_parse (raw, len, &spec, &err) < 0)
              fail (&err);
            r0 = cpu_us ();
            if (entitle_rewrite (&ctx, spec, &final, &err) <= 0)
              {
                if (err)
                  fail (&err);
                fprintf (stderr, "rewrite: nothing applies to %s\n", argv[1]);
                return 1;
              }
            r1 = cpu_us ();
            spent += r1 - r0;
            if (pass == 1 && b == 0 && i == 0 && getenv ("REWRITE_OUT"))
              {
                FILE *f = fopen (getenv ("REWRITE_OUT"), "w");
                if (json_generate (spec, &out, &out_len, &err) < 0)
                  fail (&err);
                fwrite (out, 1, out_len, f);
                fclose (f);
                free (out);
                out = NULL;
              }
            /* What create writes back.  */
            if (json_generate_compact (spec, &out, &out_len, &err) < 0)
              fail (&err);
            free (out);
            entitle_set_free (&final);
            json_free (spec);
            entitle_ctx_release (&ctx);
          }
        /* The first pass warms caches and the allocator.  */
        full[b] = (cpu_us () - t0) / 10;
        alone[b] = spent / 10;
      }
  qsort (full, batches, sizeof (double), cmp);
  qsort (alone, batches, sizeof (double), cmp);
  printf ("%.1f %.1f\n", full[batches / 2], alone[batches / 2]);
  entitle_config_free (&cfg);
  free (raw);
  return 0;
}
