/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include "catalogue.h"
#include "entitlements.h"
#include "fuzz.h"
#include "resolve.h"
#include "utils.h"
#include "values.h"

/* The entitlement list of the io.entitle.entitlements annotation
   (entitle_parse_list), resolved against each fixed admin config
   (entitle_resolve), and the value parsers of lib/catalogue/values.c on the same
   bytes.

   Properties: a parsed set formats to a list that parses to the same set;
   every failure has a one-line message; the value parsers give in-range
   results.  */

static const char *const names[] = { "network.egress", "network.bind", "network.bind-map", "fs.read",
                                     "fs.write", "network.none", "no.such" };

static void
check_values (const char *s)
{
  struct entitle_cidr_s cidr;
  unsigned short lo, hi;
  size_t i;

  for (i = 0; i < sizeof (names) / sizeof (names[0]); i++)
    (void)entitle_value_check (names[i], s);
  if (entitle_parse_ports (s, &lo, &hi))
    FUZZ_ASSERT (lo <= hi);
  if (entitle_parse_egress (s, &cidr))
    {
      FUZZ_ASSERT (cidr.family == 2 /* AF_INET */ || cidr.family == 10 /* AF_INET6 */);
      FUZZ_ASSERT (cidr.len <= (cidr.family == 2 ? 32u : 128u));
      FUZZ_ASSERT (cidr.lo <= cidr.hi);
    }
  (void)entitle_parse_port_map (s, &lo, &hi);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cleanup_entitle_set struct entitle_set_s set = { 0 }, again = { 0 };
  cleanup_free char *list = NULL, *text = NULL, *text2 = NULL;
  struct entitle_config_s cfg;
  entitle_error_t err = NULL;
  size_t i;

  if (size == 0)
    return 0;
  list = fuzz_strndup (data + 1, size - 1);
  check_values (list);

  if (entitle_parse_list (list, "fuzz", &set, &err) < 0)
    {
      FUZZ_ASSERT (err != NULL && strchr (err->msg, '\n') == NULL);
      entitle_error_release (&err);
      return 0;
    }
  text = entitle_set_format (&set);
  if (entitle_parse_list (text, "fuzz", &again, &err) < 0)
    {
      fprintf (stderr, "`%s` does not parse again: %s\n", text, err->msg);
      abort ();
    }
  text2 = entitle_set_format (&again);
  FUZZ_ASSERT (strcmp (text, text2) == 0);
  for (i = 0; i < set.n; i++)
    {
      cleanup_free char *one = entitle_request_format (&set.items[i]);
      FUZZ_ASSERT (entitle_set_has (&set, set.items[i].entry->name));
      FUZZ_ASSERT (strstr (text, one) != NULL);
    }

  fuzz_admin_config (&cfg, data[0]);
  {
    cleanup_entitle_set struct entitle_set_s final = { 0 };
    if (entitle_resolve (&cfg, &set, &final, &err) < 0)
      {
        FUZZ_ASSERT (err != NULL && strchr (err->msg, '\n') == NULL);
        entitle_error_release (&err);
      }
    else
      for (i = 0; i < final.n; i++)
        (void)entitle_granted (&cfg, &final.items[i]);
  }
  entitle_config_free (&cfg);
  return 0;
}
