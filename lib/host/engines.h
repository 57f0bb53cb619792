/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_ENGINES_H
#define ENTITLE_ENGINES_H

#include <stdbool.h>
#include <stddef.h>
#include "error.h"

/* The engines `entitle configure ENGINE` registers entitle with (DESIGN
   §7, docs/integration.md), one row each: where the engine's config is,
   how a profile becomes a runtime of its own, and the editor that writes
   the runtimes into that config.  */

/* A runtime entitle registers: entitle itself, or one per profile.  */
struct entitle_engine_runtime_s
{
  char *name;          /**< "entitle", or "entitle-PROFILE" */
  char *binary;        /**< what the engine runs: entitle, or the symlink entitle-PROFILE beside it */
  const char *profile; /**< NULL for entitle itself */
};

struct entitle_engine_s
{
  const char *name;    /**< as `entitle configure` takes it */
  const char *config;  /**< the file it edits by default */
  const char *restart; /**< what makes the engine read it, for the user */
  /** true: a profile is the symlink entitle-PROFILE (the engine passes no
      arguments); false: entitle with --entitle-profile=PROFILE (Docker's
      runtimeArgs) */
  bool symlinks;
  /** Edit the config @text (@len bytes, read from @path; "" for a new
      file) to register @runtimes; the new text in @out.  */
  int (*edit) (const char *path, const char *text, size_t len, const struct entitle_engine_runtime_s *runtimes,
               size_t n, char **out, size_t *out_len, entitle_error_t *err);
};

/** The engine called @name, or NULL.  */
const struct entitle_engine_s *entitle_engine_find (const char *name);

/** The engines' names, "containerd, docker, ...", into @buf.  */
void entitle_engine_names (char *buf, size_t size);

/**
 * The runtimes to register with @engine for entitle at @binary and the
 * NULL-terminated @profiles: entitle, then one per profile (@n of them,
 * malloc'd; entitle_engine_runtimes_free).
 */
struct entitle_engine_runtime_s *entitle_engine_runtimes (const struct entitle_engine_s *engine, const char *binary,
                                                          char *const *profiles, size_t *n);

void entitle_engine_runtimes_free (struct entitle_engine_runtime_s *runtimes, size_t n);

#endif
