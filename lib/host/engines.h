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
  bool is_default;     /**< the engine's default runtime becomes this one (--set-as-default) */
};

struct entitle_engine_s
{
  const char *name;   /**< as `entitle configure` takes it */
  const char *config; /**< the file it edits by default */
  /** the drop-in entitle writes by default; NULL: the engine has none */
  const char *drop_in;
  /** the drop-in is read only when the main config's top-level `imports`
      lists it (containerd); else the engine reads its directory itself */
  bool imports;
  /** what the engine needs to read the new runtimes: "restart",
      "reload" (dockerd rereads them on SIGHUP) or "nothing" */
  const char *then;
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

/**
 * The plugin in which containerd's CRI keeps its runtimes in a config of
 * @version ("2": containerd 1.x, "3"), as the config writes it; NULL for
 * another.
 */
const char *entitle_engine_cri_plugin (const char *version);

/**
 * Take out of the config @text (@len bytes, read from @path) what
 * entitle_engine_s.edit added: the runtimes entitle and entitle-*, and the
 * default runtime when it is one of them.  @backup (@backup_len bytes,
 * NULL when there is none) is the file before entitle first wrote it:
 * its default runtime comes back, and when the result is the same
 * document, its very bytes.  Docker's daemon.json only, which has no
 * drop-ins: *@out is NULL when nothing of the file is left.
 */
int entitle_engine_docker_remove (const char *path, const char *text, size_t len, const char *backup,
                                  size_t backup_len, char **out, size_t *out_len, entitle_error_t *err);

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
