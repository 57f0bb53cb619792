/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CONFIGURE_H
#define ENTITLE_CONFIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include "engines.h"
#include "error.h"

/* `entitle configure` as a plan: the files it would change, each as it
   is and as it would be, and the symlinks it would make or remove;
   printed by --dry-run, carried out otherwise (full/configure-plan.c).  */

/* An engine config is small: containerd's full default is 8 KiB.  */
#define MAX_ENGINE_CONFIG (1024 * 1024)

#define CONFIGURE_BACKUP_SUFFIX ".entitle-backup"

struct configure_file
{
  char *path;
  char *before; /**< "" when the file is not there */
  size_t blen;
  bool existed;
  char *after; /**< NULL: the file is deleted */
  size_t alen;
  bool backup; /**< keep FILE.entitle-backup first (an edit in place) */
};

#define CONFIGURE_MAX_FILES 2
#define CONFIGURE_MAX_LINKS 65

struct configure_plan
{
  struct configure_file files[CONFIGURE_MAX_FILES];
  size_t n_files;
  char *links[CONFIGURE_MAX_LINKS]; /**< entitle-PROFILE symlinks to make (or remove) */
  size_t n_links;
  bool remove;
};

/** Read @path into a new file of @plan (refusing a symbolic link); its
    new text is set by the caller.  */
int configure_plan_read (struct configure_plan *plan, const char *path, struct configure_file **f,
                         entitle_error_t *err);

bool configure_file_changed (const struct configure_file *f);

/** The symlinks entitle-* beside @binary that point at entitle and that
    the text of @f names, to remove with it.  */
void configure_plan_links_named (struct configure_plan *plan, const char *binary, const struct configure_file *f);

/** --dry-run: a unified diff per file, the symlinks, and what @engine
    then needs.  */
void configure_plan_print (const struct configure_plan *plan, const struct entitle_engine_s *engine);

/** Write, delete and link, drop-in before the config that imports it
    (after it when removing).  */
int configure_plan_apply (const struct configure_plan *plan, const char *binary, entitle_error_t *err);

void configure_plan_release (struct configure_plan *plan);

/** containerd: @dropin gets the runtimes (and a copy of @main's CRI
    plugin tables), @main an `imports` entry for it; both read already.  */
int configure_containerd_dropin (const struct entitle_engine_s *engine, struct configure_file *main,
                                 struct configure_file *dropin, const struct entitle_engine_runtime_s *runtimes,
                                 size_t n, entitle_error_t *err);

/** containerd --remove: @dropin deleted, its entry out of @main's imports
    as entitle added it.  */
int configure_containerd_undo (struct configure_file *main, struct configure_file *dropin, entitle_error_t *err);

#endif
