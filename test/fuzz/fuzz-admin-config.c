/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include "entitlements.h"
#include "fuzz.h"
#include "resolve.h"
#include "utils.h"

/* The admin config (/etc/entitle/entitle.json, entitle_config_parse), and
   the resolver run under whatever it accepted.  A failed parse leaves a
   config entitle_config_free can release; one that parsed has non-NULL
   lists.  */

static const char *const requests[] = {
  "",
  "network.none",
  "network.user,security.view",
  "network.egress=10.0.0.0/8:443,network.bind=8080,fs.read=/data",
  "security.admin,host.processes.admin,host.devices.admin,host.modules.admin",
};

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  struct entitle_config_s cfg;
  entitle_error_t err = NULL;
  size_t i;

  memset (&cfg, 0, sizeof (cfg));
  if (entitle_config_parse (&cfg, "/etc/entitle/entitle.json", (const char *)data, size, &err) < 0)
    {
      FUZZ_ASSERT (err != NULL && err->msg != NULL && strchr (err->msg, '\n') == NULL);
      entitle_error_release (&err);
      entitle_config_free (&cfg);
      return 0;
    }
  FUZZ_ASSERT (cfg.present && cfg.defaults && cfg.grant && cfg.require);
  char buf[4096];
  (void)entitle_config_hook (&cfg, buf, sizeof (buf));

  for (i = 0; i < sizeof (requests) / sizeof (requests[0]); i++)
    {
      cleanup_entitle_set struct entitle_set_s requested = { 0 }, final = { 0 };
      size_t j;

      if (entitle_parse_list (&cfg.catalogue, requests[i], "fuzz", &requested, &err) < 0)
        abort ();
      if (entitle_resolve (&cfg, &requested, &final, &err) < 0)
        {
          FUZZ_ASSERT (err != NULL && err->msg != NULL);
          entitle_error_release (&err);
          continue;
        }
      for (j = 0; j < final.n; j++)
        {
          free (entitle_request_format (&final.items[j]));
          (void)entitle_granted (&cfg, &final.items[j]);
        }
    }
  entitle_config_free (&cfg);
  return 0;
}
