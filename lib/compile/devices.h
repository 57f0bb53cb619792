/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_DEVICES_H
#define ENTITLE_DEVICES_H

#include <stdbool.h>
#include "json.h"

/**
 * Edit linux.resources.devices of @linux_ for the effects @fx:
 * FX_DEV_DEFAULT replaces the rules with a deny-all rule followed by the
 * runtime spec's default devices; FX_DEV_ALL appends a rule that allows
 * every device.  Other resources are left alone.
 */
void entitle_devices_apply (json_t *linux_, unsigned fx);

/**
 * Is @rule, as entitle writes it, one that allows a default device?  The
 * runtimes allow those whatever the config says: never a widening.
 */
bool entitle_devices_is_default (const json_t *rule);

#endif
