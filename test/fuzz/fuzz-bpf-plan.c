/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <sys/socket.h>
#include "bpf-plan.h"
#include "fuzz.h"
#include "json.h"
#include "utils.h"

/* The BPF plan builder (lib/compile/bpf-plan.c) that the shim and the hook run:
   the input is entitlements, one a line, then a NUL byte, then the
   container's config.json (its linux.sysctl).  Without a NUL the spec is
   {}.  Lines that do not parse as a set are not fed to the planner.

   Properties: the plan never holds more than the programs take, egress
   rules are unique with their host bits clear, every program it attaches
   is one a row of the set asks for.  */

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cleanup_free char *text = fuzz_strndup (data, size);
  cleanup_json json_t *spec = NULL;
  cleanup_strv char **keys = NULL;
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  struct entitle_bpf_plan_s plan;
  entitle_error_t err = NULL;
  const uint8_t *nul = memchr (data, 0, size);
  size_t i, j, w;
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
  for (char *c = text; *c; c++)
    if (*c == '\n')
      *c = ',';
  if (entitle_parse_list (NULL, text, "fuzz", &set, &err) < 0)
    {
      entitle_error_release (&err);
      return 0;
    }
  keys = entitle_sysctl_keys (spec);
  ret = entitle_bpf_plan (&plan, &set, keys, &err);
  if (ret < 0)
    {
      FUZZ_ASSERT (err != NULL && err->msg != NULL && strchr (err->msg, '\n') == NULL);
      entitle_error_release (&err);
      return 0;
    }
  FUZZ_ASSERT (err == NULL);
  FUZZ_ASSERT (plan.policy.n_bind <= ENTITLE_MAX_RANGES && plan.policy.n_map <= ENTITLE_MAX_RANGES);
  FUZZ_ASSERT (plan.policy.n_egress <= ENTITLE_MAX_EGRESS && plan.policy.n_sysctl <= ENTITLE_MAX_SYSCTLS);
  FUZZ_ASSERT ((plan.attach & ~entitle_bpf_needed (&set)) == 0 && (ret > 0) == (plan.attach != 0));
  for (i = 0; i < plan.policy.n_egress; i++)
    {
      const struct entitle_cidr *r = &plan.policy.egress[i];
      FUZZ_ASSERT (r->family == AF_INET || r->family == AF_INET6);
      for (w = 0; w < 4; w++)
        FUZZ_ASSERT ((r->net[w] & r->mask[w]) == r->net[w]);
      for (j = 0; j < i; j++)
        FUZZ_ASSERT (memcmp (&plan.policy.egress[j], r, sizeof (*r)) != 0);
    }
  for (i = 0; i < plan.policy.n_sysctl; i++)
    FUZZ_ASSERT (memchr (plan.policy.sysctl[i], '\0', ENTITLE_SYSCTL_NAME) != NULL);
  return 0;
}
