/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CAPTURE_H
#define ENTITLE_CAPTURE_H

#include <stddef.h>
#include "error.h"

/**
 * Run @path with @argv (argv[0] is replaced by @path), with what it
 * writes to @fd (STDOUT_FILENO or STDERR_FILENO) collected into a
 * malloc'd, NUL-terminated buffer and its other output discarded.
 * Returns its exit status (128 + the signal when it was killed), or a
 * negative error when it could not be run or waited for.
 */
int entitle_capture (const char *path, char *const *argv, int fd, char **out, size_t *len, entitle_error_t *err);

#endif
