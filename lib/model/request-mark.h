/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_REQUEST_MARK_H
#define ENTITLE_REQUEST_MARK_H

#include <stdbool.h>
#include <string.h>
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

#endif
