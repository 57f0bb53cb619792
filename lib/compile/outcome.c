/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "outcome.h"
#include "utils.h"

/* Grow @array of @n items of @size by one; returns the new item, zeroed.  */
static void *
push (void *array_p, size_t *n, size_t size)
{
  void **array = array_p;
  char *a = xrealloc (*array, (*n + 1) * size);
  *array = a;
  return memset (a + (*n)++ * size, 0, size);
}

void
entitle_outcome_note (struct entitle_outcome_s *out, enum entitle_log_level level, const char *fmt, ...)
{
  struct entitle_note_s *n;
  va_list ap;

  if (out == NULL)
    return;
  n = push (&out->notes, &out->n_notes, sizeof (*n));
  n->level = level;
  va_start (ap, fmt);
  n->text = xvasprintf (fmt, ap);
  va_end (ap);
}

void
entitle_outcome_lack (struct entitle_outcome_s *out, const char *what, const char *fmt, ...)
{
  struct entitle_lack_s *l;
  va_list ap;

  if (out == NULL)
    return;
  l = push (&out->lacks, &out->n_lacks, sizeof (*l));
  l->what = xstrdup (what);
  va_start (ap, fmt);
  l->why = xvasprintf (fmt, ap);
  va_end (ap);
}

int
entitle_unenforceable (const struct entitle_config_s *cfg, const struct entitle_log_s *log, const char *what,
                       const char *why, entitle_error_t *err)
{
  if (!cfg->warn_unenforceable)
    return entitle_make_error (err, ENOSYS, "%s cannot be enforced here: %s", what, why);
  entitle_log_warning (log, "%s not enforced: %s", what, why);
  return 0;
}

int
entitle_outcome_settle (const struct entitle_config_s *cfg, const struct entitle_log_s *log,
                        const struct entitle_outcome_s *out, entitle_error_t *err)
{
  size_t i;

  for (i = 0; i < out->n_lacks; i++)
    {
      int ret = entitle_unenforceable (cfg, log, out->lacks[i].what, out->lacks[i].why, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  for (i = 0; i < out->n_notes; i++)
    entitle_log (log, out->notes[i].level, "%s", out->notes[i].text);
  return 0;
}

void
entitle_outcome_free (struct entitle_outcome_s *out)
{
  size_t i;

  for (i = 0; i < out->n_notes; i++)
    free (out->notes[i].text);
  for (i = 0; i < out->n_lacks; i++)
    {
      free (out->lacks[i].what);
      free (out->lacks[i].why);
    }
  free (out->notes);
  free (out->lacks);
  memset (out, 0, sizeof (*out));
}
