/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <stdbool.h>
#include "catalogue.h"
#include "devices.h"
#include "utils.h"

/* The device cgroup: linux.resources.devices, a list the runtime applies
   in order, a later rule overriding an earlier one.  Only that list is
   edited; the other resources are the engine's.  */

struct dev_rule
{
  const char *type;
  long major, minor; /* -1: any */
};

/* The default devices of the runtime spec (config-linux.md): null, zero,
   full, random, urandom, tty, console, ptmx and the pts it opens.  */
static const struct dev_rule default_devices[] = {
  { "c", 1, 3 },
  { "c", 1, 5 },
  { "c", 1, 7 },
  { "c", 1, 8 },
  { "c", 1, 9 },
  { "c", 5, 0 },
  { "c", 5, 1 },
  { "c", 5, 2 },
  { "c", 136, -1 },
};

static json_t *
rule (bool allow, const struct dev_rule *d)
{
  json_t *r = json_new (JSON_OBJECT);

  json_set (r, "allow", json_new_bool (allow));
  if (d && d->type)
    json_set (r, "type", json_new_string (d->type));
  if (d && d->major >= 0)
    json_set (r, "major", json_new_uint ((unsigned long long)d->major));
  if (d && d->minor >= 0)
    json_set (r, "minor", json_new_uint ((unsigned long long)d->minor));
  json_set (r, "access", json_new_string ("rwm"));
  return r;
}

static json_t *
devices_of (json_t *linux_)
{
  return json_get_or_add (json_get_or_add (linux_, "resources", JSON_OBJECT), "devices", JSON_ARRAY);
}

bool
entitle_devices_is_default (const json_t *r)
{
  size_t i;
  for (i = 0; i < sizeof (default_devices) / sizeof (default_devices[0]); i++)
    {
      cleanup_json json_t *d = rule (true, &default_devices[i]);
      if (json_equal (r, d))
        return true;
    }
  return false;
}

void
entitle_devices_apply (json_t *linux_, unsigned fx)
{
  size_t i;

  /* Only the default devices: deny everything, then allow them.  */
  if (fx & FX_DEV_DEFAULT)
    {
      json_t *devices = devices_of (linux_);
      while (devices->n > 0)
        json_remove_at (devices, devices->n - 1);
      json_push (devices, rule (false, NULL));
      for (i = 0; i < sizeof (default_devices) / sizeof (default_devices[0]); i++)
        json_push (devices, rule (true, &default_devices[i]));
    }
  /* Every device: a last rule that allows all of them (once).  */
  else if (fx & FX_DEV_ALL)
    {
      json_t *devices = devices_of (linux_), *all = rule (true, NULL);
      if (devices->n > 0 && json_equal (devices->items[devices->n - 1], all))
        json_free (all);
      else
        json_push (devices, all);
    }
}
