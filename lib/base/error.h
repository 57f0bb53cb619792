/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_ERROR_H
#define ENTITLE_ERROR_H

/* The error contract (docs/error-handling.md), after crun's: a function
   that can fail takes `entitle_error_t *err` last and returns a negative
   value made by entitle_make_error; on success *err is left alone.  */

struct entitle_error_s
{
  int status; /**< errno, or 0 */
  char *msg;  /**< one line, lowercase, no "entitle: " prefix */
};
typedef struct entitle_error_s *entitle_error_t;

#ifndef UNLIKELY
#define UNLIKELY(x) __builtin_expect (!!(x), 0)
#endif

/**
 * Record an error in @err.
 * @status: errno value (0 when no errno applies).
 * Returns -status - 1, always negative.
 */
int entitle_make_error (entitle_error_t *err, int status, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

/** entitle_make_error with errno: "WHAT: strerror(errno)".  */
int entitle_make_sys_error (entitle_error_t *err, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

/**
 * Prefix the message of @err with more context ("load `x`: <old msg>").
 * Returns the same negative value entitle_make_error gave.
 */
int entitle_error_wrap (entitle_error_t *err, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));

/** Free @err and set it to NULL. */
void entitle_error_release (entitle_error_t *err);

#endif
