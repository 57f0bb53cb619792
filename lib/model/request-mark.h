/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_REQUEST_MARK_H
#define ENTITLE_REQUEST_MARK_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "admin-config.h"
#include "file.h"
#include "source.h"

/* Could a config.json ask for anything?  Only then is it parsed (unless
   the admin sets a policy): the front (shim/front.c) asks before it runs
   entitle-full, create (full/create.c) again.  A config that asks names an
   entitle annotation or holds the environment variable; one that merely
   holds these bytes elsewhere is parsed, asks nothing, and is passed
   through untouched.  */
#define ENTITLE_MARK     "io.entitle."
#define ENTITLE_ENV_MARK ENTITLE_ENV_REQUEST "="

static inline bool
entitle_config_may_ask (const char *raw, size_t len)
{
  return memmem (raw, len, ENTITLE_MARK, strlen (ENTITLE_MARK)) != NULL
         || memmem (raw, len, ENTITLE_ENV_MARK, strlen (ENTITLE_ENV_MARK)) != NULL;
}

/* The same of a file too large to parse: 1 or 0, -1 when it cannot be
   read.  */
static inline int
entitle_config_file_may_ask (const char *path)
{
  int ret = entitle_file_contains (path, ENTITLE_MARK);
  return ret != 0 ? ret : entitle_file_contains (path, ENTITLE_ENV_MARK);
}

/* Could anything of entitle's apply to a create of the config at @path,
   read into @raw (@status: 0, or the errno its read failed with)?  The one
   rule the front (shim/front.c, before it runs entitle-full) and create
   (full/create.c) both follow: not for a missing config (the runtime's to
   report), nor for one that asks nothing where the admin sets no policy
   and the engine's record cannot hold the image's label (@image); yes for
   anything unusual, to be reported in entitle's words.  */
static inline bool
entitle_create_may_apply (const struct entitle_config_s *cfg, bool image, const char *path, const char *raw, size_t len,
                          int status)
{
  bool admin = entitle_config_sets_policy (cfg) || image;

  if (status == ENOENT)
    return false;
  if (status == EFBIG)
    return admin || entitle_config_file_may_ask (path) != 0;
  if (status != 0)
    return true;
  return admin || entitle_config_may_ask (raw, len);
}

#endif
