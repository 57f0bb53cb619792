/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SCORE_H
#define ENTITLE_SCORE_H

#include "entitlements.h"
#include "json.h"

/* How exposed a container is, rated from its config.json as it would run,
   in the spirit of `systemd-analyze security`.  Each check of a fixed table
   costs up to its weight in tenths of a point; the exposure is the sum of
   the costs, capped at 10.0 (100 tenths):

     0.0 - 2.4   OK        what entitle's narrow rungs give
     2.5 - 4.9   MEDIUM    an engine's defaults (root, a default profile)
     5.0 - 7.4   EXPOSED   a privilege that opens a way out
     7.5 - 10.0  UNSAFE    several of them; as good as the host  */

#define ENTITLE_SCORE_MAX 100 /* tenths */

struct entitle_score_item_s
{
  const char *id; /**< the check's name, e.g. "cap-sys-admin" */
  int weight;     /**< the most it costs, in tenths */
  int cost;       /**< what it costs this config, in tenths (0 when it passes) */
  char text[192]; /**< one line: why it costs (what it checks, when it does not) */
  char fix[320];  /**< one line: what would lower it ("" when it costs nothing) */
};

struct entitle_score_s
{
  int total; /**< tenths, 0..ENTITLE_SCORE_MAX */
  size_t n;  /**< number of checks */
  struct entitle_score_item_s items[32];
};

/**
 * Rate @spec (a config.json object).  @applied, the final set of
 * entitlements that made it (or NULL), names those that cause a cost; the
 * fixes offered are the catalogue's entitlements that take it away and
 * widen nothing.
 */
int entitle_score (const json_t *spec, const struct entitle_set_s *applied, struct entitle_score_s *out,
                   entitle_error_t *err);

/** OK, MEDIUM, EXPOSED or UNSAFE for @total tenths.  */
const char *entitle_score_label (int total);

#endif
