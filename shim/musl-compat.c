/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the front needs of glibc beyond C when it is linked with musl
 * (configure.ac, "The front with musl").  Debian builds yajl's static
 * archive with _FORTIFY_SOURCE, so it calls glibc's checked memcpy,
 * snprintf and sprintf, which musl has not; lib/model/custom.c names
 * errnos with glibc's strerrorname_np.
 */
/* configure links this file into its test of musl, before config.h
   exists.  */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__memcpy_chk (void *dest, const void *src, size_t n, size_t destlen);
int __snprintf_chk (char *s, size_t n, int flag, size_t slen, const char *fmt, ...)
    __attribute__ ((format (printf, 5, 6)));
int __sprintf_chk (char *s, int flag, size_t slen, const char *fmt, ...) __attribute__ ((format (printf, 4, 5)));
const char *strerrorname_np (int errnum);

/* musl's vsnprintf refuses a size above INT_MAX (EOVERFLOW), which
   glibc takes, and a caller that does not know its buffer's size passes
   SIZE_MAX: no output is that long.  */
static size_t
bounded (size_t n)
{
  return n > INT_MAX ? (size_t)INT_MAX : n;
}

/* Each check as glibc's: the process aborts where the destination is
   smaller than what is written (where its size is known).  */
void *
__memcpy_chk (void *dest, const void *src, size_t n, size_t destlen)
{
  if (n > destlen)
    abort ();
  return memcpy (dest, src, n);
}

int
__snprintf_chk (char *s, size_t n, int flag, size_t slen, const char *fmt, ...)
{
  va_list ap;
  int ret;

  (void)flag;
  if (n > slen)
    abort ();
  va_start (ap, fmt);
  ret = vsnprintf (s, bounded (n), fmt, ap);
  va_end (ap);
  return ret;
}

int
__sprintf_chk (char *s, int flag, size_t slen, const char *fmt, ...)
{
  va_list ap;
  int ret;

  (void)flag;
  va_start (ap, fmt);
  if (slen > INT_MAX)
    ret = vsprintf (s, fmt, ap);
  else
    ret = vsnprintf (s, slen, fmt, ap);
  va_end (ap);
  if (ret >= 0 && slen <= INT_MAX && (size_t)ret >= slen)
    abort ();
  return ret;
}

/* The front reads the admin config lean (shim/front.c): it parses no
   custom row, so it never looks an errno up by name.  NULL is "no such
   name": were it ever asked, the row would be refused, not taken.  */
const char *
strerrorname_np (int errnum)
{
  (void)errnum;
  return NULL;
}
