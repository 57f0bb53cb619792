/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <string.h>
#include "scmp.h"

/* The one table of the spec's action names, indexed by the enum.  */
static const char *const act_names[ENTITLE_ACT_COUNT_] = {
  [ENTITLE_ACT_KILL] = "SCMP_ACT_KILL",
  [ENTITLE_ACT_KILL_PROCESS] = "SCMP_ACT_KILL_PROCESS",
  [ENTITLE_ACT_KILL_THREAD] = "SCMP_ACT_KILL_THREAD",
  [ENTITLE_ACT_TRAP] = "SCMP_ACT_TRAP",
  [ENTITLE_ACT_ERRNO] = "SCMP_ACT_ERRNO",
  [ENTITLE_ACT_TRACE] = "SCMP_ACT_TRACE",
  [ENTITLE_ACT_ALLOW] = "SCMP_ACT_ALLOW",
  [ENTITLE_ACT_LOG] = "SCMP_ACT_LOG",
  [ENTITLE_ACT_NOTIFY] = "SCMP_ACT_NOTIFY",
};

/* The one table of the spec's operator names, indexed by libseccomp's enum.  */
static const char *const op_names[_SCMP_CMP_MAX] = {
  [SCMP_CMP_NE] = "SCMP_CMP_NE",
  [SCMP_CMP_LT] = "SCMP_CMP_LT",
  [SCMP_CMP_LE] = "SCMP_CMP_LE",
  [SCMP_CMP_EQ] = "SCMP_CMP_EQ",
  [SCMP_CMP_GE] = "SCMP_CMP_GE",
  [SCMP_CMP_GT] = "SCMP_CMP_GT",
  [SCMP_CMP_MASKED_EQ] = "SCMP_CMP_MASKED_EQ",
};

/* The index of @name in @table of @n (entry 0 unused), or 0.  */
static unsigned
lookup (const char *const *table, unsigned n, const char *name)
{
  unsigned i;

  for (i = 1; name && i < n; i++)
    if (table[i] && strcmp (table[i], name) == 0)
      return i;
  return 0;
}

enum entitle_scmp_act
entitle_scmp_act_parse (const char *name)
{
  return (enum entitle_scmp_act)lookup (act_names, ENTITLE_ACT_COUNT_, name);
}

enum entitle_scmp_act
entitle_scmp_act_of (const json_t *obj, const char *key)
{
  return entitle_scmp_act_parse (json_string (json_get (obj, key)));
}

const char *
entitle_scmp_act_name (enum entitle_scmp_act act)
{
  return (unsigned)act < ENTITLE_ACT_COUNT_ ? act_names[act] : NULL;
}

bool
entitle_scmp_act_allows (enum entitle_scmp_act act)
{
  return act == ENTITLE_ACT_ALLOW || act == ENTITLE_ACT_LOG || act == ENTITLE_ACT_TRACE || act == ENTITLE_ACT_NOTIFY;
}

enum scmp_compare
entitle_scmp_op_parse (const char *name)
{
  return (enum scmp_compare)lookup (op_names, _SCMP_CMP_MAX, name);
}

const char *
entitle_scmp_op_name (enum scmp_compare op)
{
  return (unsigned)op < _SCMP_CMP_MAX ? op_names[op] : NULL;
}
