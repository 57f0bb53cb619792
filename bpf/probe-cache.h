/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PROBE_CACHE_H
#define ENTITLE_PROBE_CACHE_H

#include "error.h"
#include "probe.h"

/* The probe of this boot, kept in the state directory by boot id.  */

/**
 * The probe of this boot into @probe: the one kept in @state_dir (NULL:
 * the default) if there is one of this format, else probed now in this
 * process (entitle_probe_run) and kept there.  A cache that cannot be
 * written only costs the next call a probe.
 */
int entitle_probe_host (const char *state_dir, struct entitle_probe_s *probe, entitle_error_t *err);

#endif
