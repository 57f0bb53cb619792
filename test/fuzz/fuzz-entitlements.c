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

/* Every value kind the catalogue's rows name, on the same bytes.  */
static void
check_values (const char *s)
{
  size_t i, n;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (NULL, &n);

  for (i = 0; i < n; i++)
    {
      union entitle_value_u v;
      const struct entitle_value_kind_s *k = rows[i].value;
      if (k == NULL || !k->parse (s, &v))
        continue;
      if (k == &entitle_value_cidr)
        {
          FUZZ_ASSERT (v.cidr.family == 2 /* AF_INET */ || v.cidr.family == 10 /* AF_INET6 */);
          FUZZ_ASSERT (v.cidr.len <= (v.cidr.family == 2 ? 32u : 128u));
          FUZZ_ASSERT (v.cidr.lo <= v.cidr.hi);
        }
      if (k == &entitle_value_ports)
        FUZZ_ASSERT (v.ports.lo <= v.ports.hi && v.ports.lo > 0);
      /* A value covers itself, where the kind is an allowlist.  */
      if (k->covers)
        FUZZ_ASSERT (k->covers (&v, &v));
    }
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

  if (entitle_parse_list (NULL, list, "fuzz", &set, &err) < 0)
    {
      FUZZ_ASSERT (err != NULL && strchr (err->msg, '\n') == NULL);
      entitle_error_release (&err);
      return 0;
    }
  text = entitle_set_format (&set);
  if (entitle_parse_list (NULL, text, "fuzz", &again, &err) < 0)
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
