/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_DIFF_H
#define ENTITLE_DIFF_H

#include <stddef.h>

/**
 * The unified diff (`--- @name`, `+++ @name`, hunks with three lines of
 * context) that turns the @alen bytes of @a into the @blen bytes of @b,
 * malloc'd; "" when they are equal.  A file that is not there is "" on
 * its side.  Meant for files of a few thousand lines: a longer middle
 * that differs is shown as one hunk.
 */
char *entitle_unified_diff (const char *name, const char *a, size_t alen, const char *b, size_t blen);

#endif
