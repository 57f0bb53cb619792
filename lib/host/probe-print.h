/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PROBE_PRINT_H
#define ENTITLE_PROBE_PRINT_H

#include <stdbool.h>
#include "error.h"
#include "probe.h"

/**
 * Print @p on stdout: as text for people (each fact, then the path each
 * entitlement takes here), or with @json as entitle_probe_to_json writes
 * it, on one line.
 */
int entitle_probe_print (const struct entitle_probe_s *p, bool json, entitle_error_t *err);

#endif
