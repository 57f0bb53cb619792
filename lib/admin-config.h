/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_ADMIN_CONFIG_H
#define ENTITLE_ADMIN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include "error.h"

/* The admin's configuration, /etc/entitle/entitle.json (DESIGN §2).  */
struct entitle_config_s
{
  char *path;      /**< where it was looked for */
  bool present;    /**< false: no file, nothing widening is granted */
  char *runtime;   /**< wrapped runtime, or NULL */
  char **defaults; /**< NULL-terminated lists, never NULL */
  char **grant;
  char **require;
  bool warn_unenforceable; /**< "on_unenforceable": "warn" */
  bool lock;
  char *state_dir;
  char *hook; /**< entitle-hook, or NULL for the built-in path */
};

/** The entitle-hook binary: $ENTITLE_HOOK, else the config's `hook`, else
    the installed one.  */
const char *entitle_config_hook (const struct entitle_config_s *cfg);

/* A config.json entitle may have to rewrite names this; one that does not
   is passed through untouched unless the admin sets a policy.  */
#define ENTITLE_MARK "io.entitle."

/** Does the admin set defaults or a floor, which apply to every container?  */
static inline bool
entitle_config_sets_policy (const struct entitle_config_s *cfg)
{
  return cfg->defaults[0] || cfg->require[0];
}

/** The config path: $ENTITLE_CONFIG, else the built-in default. */
const char *entitle_config_path (void);

/**
 * Load the admin config.  A missing file is not an error (present = false);
 * a malformed one, an unknown key or a wrong type is.
 */
int entitle_config_load (struct entitle_config_s *cfg, entitle_error_t *err);

/** Parse @len bytes of admin config JSON read from @path. */
int entitle_config_parse (struct entitle_config_s *cfg, const char *path, const char *buf,
                          size_t len, entitle_error_t *err);

void entitle_config_free (struct entitle_config_s *cfg);

#endif
