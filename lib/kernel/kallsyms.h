/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_KALLSYMS_H
#define ENTITLE_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>
#include "error.h"

/* Where the running kernel's functions lie, from /proc/kallsyms: for a BPF
   program that tells a caller by the addresses of its kernel stack.  */

/**
 * The address range [start, end) of each function of @names (@n of them)
 * into @ranges ({0, 0} for a name the kernel does not have: inlined, or
 * another version's); end is the next function's start.  Fails where the
 * kernel hides the addresses (kernel.kptr_restrict, or not root: every one
 * reads 0) or has none of @names.
 */
int entitle_kallsyms_ranges (const char *const *names, size_t n, uint64_t (*ranges)[2], entitle_error_t *err);

#endif
