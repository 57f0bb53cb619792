/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_UTILS_H
#define ENTITLE_UTILS_H

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* glibc's, in string.h; musl has none, and the front, where it is built
   with musl, takes shim/musl-compat.c's (configure.ac).  */
#ifndef __GLIBC__
const char *strerrorname_np (int errnum);
#endif

/* Cleanup helpers, as crun's utils.h.  */

static inline void
cleanup_freep (void *p)
{
  free (*(void **)p);
}

static inline void
cleanup_closep (int *fd)
{
  if (*fd >= 0)
    close (*fd);
}

static inline void
cleanup_filep (FILE **f)
{
  if (*f)
    fclose (*f);
}

static inline void
cleanup_dirp (DIR **d)
{
  if (*d)
    closedir (*d);
}

static inline void
cleanup_strvp (char ***v)
{
  char **p;
  if (*v == NULL)
    return;
  for (p = *v; *p; p++)
    free (*p);
  free (*v);
}

#define cleanup_free  __attribute__ ((cleanup (cleanup_freep)))
#define cleanup_close __attribute__ ((cleanup (cleanup_closep)))
#define cleanup_file  __attribute__ ((cleanup (cleanup_filep)))
#define cleanup_dir   __attribute__ ((cleanup (cleanup_dirp)))
#define cleanup_strv  __attribute__ ((cleanup (cleanup_strvp)))

/* Allocations that abort when memory runs out, as crun's utils.h: out of
   memory is not an error entitle reports.  */

static inline void *
xmalloc (size_t size)
{
  void *p = malloc (size);
  if (p == NULL)
    abort ();
  return p;
}

static inline void *
xcalloc (size_t n, size_t size)
{
  void *p = calloc (n, size);
  if (p == NULL)
    abort ();
  return p;
}

/* realloc (@p, @size); a @size of 0 is one byte, so that NULL is only ever
   out of memory.  */
static inline void *
xrealloc (void *p, size_t size)
{
  p = realloc (p, size ? size : 1);
  if (p == NULL)
    abort ();
  return p;
}

static inline char *
xstrdup (const char *s)
{
  char *d = strdup (s);
  if (d == NULL)
    abort ();
  return d;
}

static inline char *
xstrndup (const char *s, size_t n)
{
  char *d = strndup (s, n);
  if (d == NULL)
    abort ();
  return d;
}

/* vasprintf, returning the string.  */
static inline __attribute__ ((format (printf, 1, 0))) char *
xvasprintf (const char *fmt, va_list ap)
{
  char *s;
  if (vasprintf (&s, fmt, ap) < 0)
    abort ();
  return s;
}

/* asprintf; returns the length.  */
static inline __attribute__ ((format (printf, 2, 3))) int
xasprintf (char **str, const char *fmt, ...)
{
  va_list ap;
  int ret;

  va_start (ap, fmt);
  ret = vasprintf (str, fmt, ap);
  va_end (ap);
  if (ret < 0)
    abort ();
  return ret;
}

/* Is @s in the NULL-terminated @v (which may be NULL)?  */
static inline bool
entitle_strv_has (char *const *v, const char *s)
{
  for (; v && *v; v++)
    if (strcmp (*v, s) == 0)
      return true;
  return false;
}

static inline int
entitle_strcmpp (const void *a, const void *b)
{
  return strcmp (*(char *const *)a, *(char *const *)b);
}

/* Sort the @n malloc'd strings of @v, free duplicates, NULL-terminate
   (@v has room for n + 1).  */
static inline void
entitle_strv_sort_uniq (char **v, size_t n)
{
  size_t i, j = 0;

  qsort (v, n, sizeof (char *), entitle_strcmpp);
  for (i = 0; i < n; i++)
    {
      if (j > 0 && strcmp (v[j - 1], v[i]) == 0)
        free (v[i]);
      else
        v[j++] = v[i];
    }
  v[j] = NULL;
}

/* Hand ownership of *p out of a cleanup scope.  */
static inline void *
get_and_reset (void *p)
{
  void **pp = p, *v = *pp;
  *pp = NULL;
  return v;
}

static inline int
get_and_reset_fd (int *fd)
{
  int v = *fd;
  *fd = -1;
  return v;
}

#endif
