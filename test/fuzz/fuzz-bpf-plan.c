/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <sys/socket.h>
#include "bpf-plan.h"
#include "fuzz.h"
#include "json.h"
#include "utils.h"

/* The BPF plan builder (lib/bpf-plan.c) the hook runs at createRuntime:
   the input is the applied entitlements, one a line, then a NUL byte,
   then the container's config.json (its linux.sysctl).  Without a NUL the
   spec is {}.

   Properties: the plan never holds more ranges than the maps take, egress
   rules are unique and their prefixes in range, and every need is one of
   the applied entitlements.  */

#define MAX_APPLIED 256

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cleanup_free char *text = fuzz_strndup (data, size);
  cleanup_json json_t *spec = NULL;
  struct entitle_bpf_plan_s plan;
  entitle_error_t err = NULL;
  char *applied[MAX_APPLIED + 1], *p;
  const uint8_t *nul = memchr (data, 0, size);
  size_t n = 0, i, j;
  int ret;

  if (nul)
    {
      if (json_parse ((const char *)nul + 1, size - (size_t)(nul + 1 - data), &spec, &err) < 0)
        {
          entitle_error_release (&err);
          return 0;
        }
    }
  else
    spec = json_new (JSON_OBJECT);
  for (p = text; n < MAX_APPLIED; n++)
    {
      applied[n] = p;
      p = strchr (p, '\n');
      if (p == NULL)
        {
          n++;
          break;
        }
      *p++ = '\0';
    }
  applied[n] = NULL;

  ret = entitle_bpf_plan (&plan, applied, spec, &err);
  if (ret < 0)
    {
      FUZZ_ASSERT (err != NULL && err->msg != NULL && strchr (err->msg, '\n') == NULL);
      entitle_error_release (&err);
    }
  else
    {
      FUZZ_ASSERT (err == NULL);
      FUZZ_ASSERT (plan.policy.n_bind <= ENTITLE_MAX_RANGES && plan.policy.n_map <= ENTITLE_MAX_RANGES);
      for (i = 0; i < plan.n_egress; i++)
        {
          const struct entitle_egress_rule_s *r = &plan.egress[i];
          FUZZ_ASSERT (r->family == AF_INET || r->family == AF_INET6);
          FUZZ_ASSERT (r->len <= (r->family == AF_INET ? 32u : 128u));
          FUZZ_ASSERT (r->ports.n >= 1 && r->ports.n <= ENTITLE_MAX_RANGES);
          for (j = 0; j < i; j++)
            FUZZ_ASSERT (!(plan.egress[j].family == r->family && plan.egress[j].len == r->len
                           && memcmp (plan.egress[j].addr, r->addr, sizeof (r->addr)) == 0));
        }
      for (i = 0; plan.needs && plan.needs[i]; i++)
        {
          bool found = false;
          for (j = 0; j < n; j++)
            found |= strcmp (plan.needs[i], applied[j]) == 0;
          FUZZ_ASSERT (found);
        }
      FUZZ_ASSERT (ret == 0 || plan.attach != 0);
    }
  entitle_bpf_plan_free (&plan);
  return 0;
}
