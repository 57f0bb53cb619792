/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_ADMIN_CONFIG_H
#define ENTITLE_ADMIN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include "catalogue.h"
#include "error.h"

/* A named set of entitlements the admin gives to every container of the
   runtime entitle runs as (entitle-NAME, or --entitle-profile=NAME): the
   RuntimeClass way (DESIGN §7).  */
struct entitle_profile_s
{
  char *name;
  char **entitlements; /**< NULL-terminated */
};

/* The admin's configuration (DESIGN §2, §7): the file named by
   --entitle-config, else by $ENTITLE_CONFIG, else /etc/entitle/entitle.json.  */
struct entitle_config_s
{
  char *path;      /**< where it was looked for; "" when ENTITLE_CONFIG= (set
                        and empty) says there is none */
  bool present;    /**< false: no admin config, nothing widening is granted */
  char *runtime;   /**< wrapped runtime, or NULL */
  char **defaults; /**< NULL-terminated lists, never NULL */
  char **grant;
  char **require;
  bool warn_unenforceable; /**< "on_unenforceable": "warn" */
  bool lock;
  bool denials_off; /**< "denials": false: the cgroup programs write no records of denials */
  char *state_dir;
  char *hook; /**< entitle-hook, or NULL for the built-in path */
  /* "image_labels": the engines' data roots where create looks up the
     label of the image a container runs (docs/image-labels.md); NULL when
     off, the default.  */
  char **image_docker;     /**< Docker's data roots */
  char **image_storage;    /**< containers/storage graph roots (Podman, CRI-O) */
  char **image_containerd; /**< containerd's gRPC sockets */
  bool image_defaults;     /**< the three are `true`'s shared defaults */
  struct entitle_profile_s *profiles;
  size_t n_profiles;
  struct entitle_catalogue_s catalogue;    /**< the built-in rows and `entitlements`, the custom ones */
  bool lean;                               /**< set before loading: leave `entitlements` unbuilt (the front resolves no
                                                entitlement: a runtime call does not pay for the admin's rows) */
  const struct entitle_profile_s *profile; /**< the one this call runs under, or NULL */
};

/** @name ("probe.json", "cgroups") in the state directory @state_dir
    (NULL: the default, /run/entitle); malloc'd.  */
char *entitle_state_path (const char *state_dir, const char *name);

/** The entitle-hook binary: $ENTITLE_HOOK, else the config's `hook`, else
    the build tree's when the running program is in one (shim/entitle-full
    next to oci-hooks/entitle-hook), else the installed one.  The path may
    be built in @buf (PATH_MAX).  */
const char *entitle_config_hook (const struct entitle_config_s *cfg, char *buf, size_t len);

/** entitle-init, the in-container helper that create bind-mounts into
    containers (entitle-init(8)): $ENTITLE_INIT, else the build tree's when
    the running program is in one, else the installed one.  The path may be
    built in @buf (PATH_MAX).  */
const char *entitle_config_init (char *buf, size_t len);

/** entitle-full, for entitle-hook: the build tree's when the hook runs
    from one, else the installed one; the path may be built in @buf.  */
const char *entitle_config_full (char *buf, size_t len);

/** The `--config` value that makes entitle-hook load the config @cfg was
    loaded from: its path, or "" (no admin config) when there was none.  */
const char *entitle_config_arg (const struct entitle_config_s *cfg);

/**
 * The end of a refusal "entitlement "NAME" requested by the container is
 * ...": "not granted by PATH", or, without an admin config, that there is
 * none (at PATH) and how an admin grants @name (malloc'd).
 */
char *entitle_config_grant_hint (const struct entitle_config_s *cfg, const char *name);

/** How messages name the admin config: its path, or "an admin config"
    when ENTITLE_CONFIG= says there is none.  */
const char *entitle_config_name (const struct entitle_config_s *cfg);

/** Does the admin set defaults or a floor (a profile is one), which apply
    to every container?  */
static inline bool
entitle_config_sets_policy (const struct entitle_config_s *cfg)
{
  return cfg->defaults[0] || cfg->require[0] || (cfg->profile && cfg->profile->entitlements[0]);
}

/** Does the admin config name any engine root where create looks up
    the image's label (`image_labels`)?  */
static inline bool
entitle_config_image_labels (const struct entitle_config_s *cfg)
{
  return (cfg->image_docker && cfg->image_docker[0]) || (cfg->image_storage && cfg->image_storage[0])
         || (cfg->image_containerd && cfg->image_containerd[0]);
}

/**
 * Run under the profile @name (NULL: none).  An unknown name is an error
 * naming the profiles @cfg defines.
 */
int entitle_config_select_profile (struct entitle_config_s *cfg, const char *name, entitle_error_t *err);

void entitle_config_free_profiles (struct entitle_config_s *cfg);

/** The config path from the environment: $ENTITLE_CONFIG when set ("":
    no admin config), else the built-in default. */
const char *entitle_config_path (void);

/**
 * Load the admin config: @file (the --entitle-config flag) if not NULL,
 * else $ENTITLE_CONFIG, else the built-in default.  ENTITLE_CONFIG= (set
 * and empty) means no admin config (present = false, path "").  A missing
 * file is no error at the default path (present = false); a file named
 * otherwise that does not exist is an error, as are a malformed one, an
 * unknown key and a wrong type.  Whatever happens, @cfg is a valid config
 * afterwards (with no admin config when loading failed).
 */
int entitle_config_load_file (struct entitle_config_s *cfg, const char *file, entitle_error_t *err);

/**
 * entitle_config_load_file, then run under @profile (NULL: none).  @cfg
 * must be initialized: its lean flag, which the front sets, is kept (the
 * two loaders above build every row).  On error @cfg is still a valid config: without the
 * admin's when the file failed, without a profile when the profile is
 * unknown.
 */
int entitle_config_open (struct entitle_config_s *cfg, const char *file, const char *profile,
                         entitle_error_t *err);

/** entitle_config_load_file without a flag.  */
int entitle_config_load (struct entitle_config_s *cfg, entitle_error_t *err);

/** Make @cfg "no admin config" (the lists empty, present false).  */
void entitle_config_reset (struct entitle_config_s *cfg);

/** Parse @len bytes of admin config JSON read from @path. */
int entitle_config_parse (struct entitle_config_s *cfg, const char *path, const char *buf,
                          size_t len, entitle_error_t *err);

/* What a check of an admin config found wrong (entitle config check), one
   message each.  */
struct entitle_config_issues_s
{
  char **lines;
  size_t n;
};

/** Add the message of *@err to @issues, and release the error.  */
void entitle_config_issue (struct entitle_config_issues_s *issues, entitle_error_t *err);

void entitle_config_issues_free (struct entitle_config_issues_s *issues);

/**
 * The parser's strict mode: entitle_config_parse, but an error of one key
 * goes to @issues and every other key is parsed all the same (a JSON error
 * ends it, in @issues too).  @cfg holds what parsed.
 */
void entitle_config_parse_all (struct entitle_config_s *cfg, const char *path, const char *buf, size_t len,
                               struct entitle_config_issues_s *issues);

void entitle_config_free (struct entitle_config_s *cfg);

#endif
