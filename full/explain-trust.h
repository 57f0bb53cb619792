/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_EXPLAIN_TRUST_H
#define ENTITLE_EXPLAIN_TRUST_H

#include <stdbool.h>
#include "catalogue.h"
#include "commands.h"
#include "json.h"

/* What `entitle explain NAME` says of the trust rule (DESIGN §2): whether
   NAME, asked for by a container (annotation or process.env), would widen
   an engine's config, and so needs the admin's grant; whether this host's
   admin config grants it, by which entry; and where the admin config
   applies it itself (defaults, require, a profile: no grant needed).  */

/* The engine's config NAME is judged against.  */
struct explain_baseline_s
{
  json_t *spec;
  char *name; /**< for people: "Docker 20.10's default config (...)", or the file */
  char *key;  /**< for JSON: "docker-20.10-default", or the file */
};

/** Docker 20.10's default config, or the bundle @bundle's (@config: a
    file instead), as @b.  */
int explain_baseline (const char *bundle, const char *config, struct explain_baseline_s *b, entitle_error_t *err);

void explain_baseline_free (struct explain_baseline_s *b);

/** The trust of row @e (with @value, or its example value when it takes
    one and @value is NULL), printed for people.  */
void explain_trust_text (struct shim_s *s, const struct explain_baseline_s *b, const struct entitle_entry_s *e,
                         const char *value);

/** The same, as JSON.  */
json_t *explain_trust_json (struct shim_s *s, const struct explain_baseline_s *b, const struct entitle_entry_s *e,
                            const char *value);

#endif
