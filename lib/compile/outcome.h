/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_OUTCOME_H
#define ENTITLE_OUTCOME_H

#include <stddef.h>
#include "admin-config.h"
#include "error.h"
#include "log.h"

/* What a compile leaves for its caller to judge and to say.  A compile
   never logs and never refuses for want of a mechanism: it notes what it
   would say and what it could not enforce here, and its caller settles
   that in one place (entitle_outcome_settle).  So the trust rule can
   compile an entitlement alone to judge it, with no side effect and no
   context swapped for the time.  */

struct entitle_note_s
{
  enum entitle_log_level level;
  char *text;
};

/* A restriction that no mechanism of this build or host enforces.  */
struct entitle_lack_s
{
  char *what; /**< "entitlement `fs.write`", "`a`, `b`": the subject of the message */
  char *why;  /**< "it needs ...": what is missing */
};

struct entitle_outcome_s
{
  struct entitle_note_s *notes;
  size_t n_notes;
  struct entitle_lack_s *lacks;
  size_t n_lacks;
  /** The compile allowed syscalls in a profile (added or lifted allowances,
      clone with namespaces): only then can its seccomp part widen, and only
      then does the trust rule compare the profiles name by name.  */
  bool syscalls_allowed;
};

/** Note a line to log at @level (a warning, a debug line).  @out may be NULL: nothing kept.  */
void entitle_outcome_note (struct entitle_outcome_s *out, enum entitle_log_level level, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

/** Note that @what cannot be enforced here because of @why (printf-style).  @out may be NULL.  */
void entitle_outcome_lack (struct entitle_outcome_s *out, const char *what, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

/**
 * The one place where a restriction this host cannot enforce becomes a
 * refusal (ENOSYS: "WHAT cannot be enforced here: WHY"), or, where the
 * admin config says `"on_unenforceable": "warn"`, a warning ("WHAT not
 * enforced: WHY") and 0: the container starts without it.
 */
int entitle_unenforceable (const struct entitle_config_s *cfg, const struct entitle_log_s *log, const char *what,
                           const char *why, entitle_error_t *err);

/**
 * Log the notes of @out and judge each of its lacks with
 * entitle_unenforceable: the first refusal is the error.
 */
int entitle_outcome_settle (const struct entitle_config_s *cfg, const struct entitle_log_s *log,
                            const struct entitle_outcome_s *out, entitle_error_t *err);

void entitle_outcome_free (struct entitle_outcome_s *out);
#define cleanup_outcome __attribute__ ((cleanup (entitle_outcome_free)))

#endif
