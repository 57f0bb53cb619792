/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <string.h>
#include "request.h"
#include "source.h"

static const struct
{
  const char *key;
  const char *name;
  const char *through;
} sources[] = {
  [ENTITLE_SOURCE_NONE] = { NULL, NULL, "" },
  [ENTITLE_SOURCE_ANNOTATION] = { "annotation", "annotation `" ENTITLE_ANNOTATION "`", "" },
  [ENTITLE_SOURCE_ENV] = { "env", "process.env `" ENTITLE_ENV_REQUEST "`", " through process.env `" ENTITLE_ENV_REQUEST "`" },
  [ENTITLE_SOURCE_DEFAULTS] = { "defaults", "the admin config's `defaults`", "" },
  [ENTITLE_SOURCE_REQUIRE] = { "require", "the admin config's `require`", "" },
  [ENTITLE_SOURCE_PROFILE] = { "profile", "the admin config's profile", "" },
  [ENTITLE_SOURCE_IMAGE] = { "image", "the image's label `" ENTITLE_ANNOTATION "`",
                             " through the image's label `" ENTITLE_ANNOTATION "`" },
};

#define N_SOURCES (sizeof (sources) / sizeof (sources[0]))

static size_t
index_of (enum entitle_source s)
{
  return (size_t)s < N_SOURCES ? (size_t)s : ENTITLE_SOURCE_NONE;
}

const char *
entitle_source_key (enum entitle_source s)
{
  return sources[index_of (s)].key;
}

enum entitle_source
entitle_source_from_key (const char *key, size_t len)
{
  size_t i;
  for (i = 1; i < N_SOURCES; i++)
    if (strlen (sources[i].key) == len && memcmp (sources[i].key, key, len) == 0)
      return (enum entitle_source)i;
  return ENTITLE_SOURCE_NONE;
}

const char *
entitle_source_name (enum entitle_source s)
{
  return sources[index_of (s)].name;
}

const char *
entitle_source_through (enum entitle_source s)
{
  return sources[index_of (s)].through;
}
