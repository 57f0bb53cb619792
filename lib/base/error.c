/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "utils.h"

/* A message is one line (docs/error-handling.md), even when it quotes
   input: a config key, a sysctl name, a path from config.json may hold
   newlines or terminal escapes, once JSON escapes are undone.  Control
   bytes become `?`, as in the messages of lib/entitlements.c.  */
static char *
one_line (char *s)
{
  for (char *p = s; p && *p; p++)
    if ((unsigned char)*p < ' ' || *p == 0x7f)
      *p = '?';
  return s;
}

int
entitle_make_error (entitle_error_t *err, int status, const char *fmt, ...)
{
  va_list ap;
  entitle_error_t e = xcalloc (1, sizeof (*e));
  va_start (ap, fmt);
  e->msg = one_line (xvasprintf (fmt, ap));
  va_end (ap);
  e->status = status;
  /* Keep the first error: it is the cause.  */
  if (*err == NULL)
    *err = e;
  else
    {
      free (e->msg);
      free (e);
    }
  return -(*err)->status - 1;
}

int
entitle_make_sys_error (entitle_error_t *err, const char *fmt, ...)
{
  int saved = errno;
  va_list ap;
  char *what;

  va_start (ap, fmt);
  what = xvasprintf (fmt, ap);
  va_end (ap);
  entitle_make_error (err, saved, "%s: %s", what, strerror (saved));
  free (what);
  return -(*err)->status - 1;
}

int
entitle_error_wrap (entitle_error_t *err, const char *fmt, ...)
{
  va_list ap;
  char *prefix, *msg;

  va_start (ap, fmt);
  prefix = xvasprintf (fmt, ap);
  va_end (ap);
  xasprintf (&msg, "%s: %s", prefix, (*err)->msg);
  free (prefix);
  free ((*err)->msg);
  (*err)->msg = one_line (msg);
  return -(*err)->status - 1;
}

void
entitle_error_release (entitle_error_t *err)
{
  if (*err == NULL)
    return;
  free ((*err)->msg);
  free (*err);
  *err = NULL;
}
