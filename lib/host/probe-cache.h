/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PROBE_CACHE_H
#define ENTITLE_PROBE_CACHE_H

#include "probe.h"

/* The probe of this boot, kept in the state directory by boot id.  */

/**
 * The probe of this boot kept in @state_dir (NULL: the default), if there
 * is one of this format: 0, else -1.
 */
int entitle_probe_cached (const char *state_dir, struct entitle_probe_s *probe);

/** Keep @probe_json (entitle_probe_to_json) as the probe of this boot.  */
void entitle_probe_cache (const char *state_dir, const char *probe_json);

#endif
