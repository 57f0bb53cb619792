/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SOURCE_H
#define ENTITLE_SOURCE_H

#include <stddef.h>

/* Where an entitlement of a set came from (DESIGN §2, §8): a request of
   the container (the annotation, process.env) or the admin's own choice
   (defaults, require, a profile).  A request needs the admin's grant to
   widen; the admin's choices do not.  Each source has a short key, which
   the cgroup records and `why --json` carry, and the words messages use.
   To add one, add a row to the table in source.c.  */
enum entitle_source
{
  ENTITLE_SOURCE_NONE = 0, /**< not known: a list parsed on its own (compile -e, a record) */
  ENTITLE_SOURCE_ANNOTATION,
  ENTITLE_SOURCE_ENV,
  ENTITLE_SOURCE_DEFAULTS,
  ENTITLE_SOURCE_REQUIRE,
  ENTITLE_SOURCE_PROFILE,
  ENTITLE_SOURCE_IMAGE, /**< the image's label, as the engine's record or an admission step gives it */
};

/* The variable of process.env that asks for entitlements, in the form
   of the annotation's value.  */
#define ENTITLE_ENV_REQUEST "ENTITLE_ENTITLEMENTS"

/** The short key of @s ("annotation", "env", "defaults", "require",
    "profile", "image"), or NULL for ENTITLE_SOURCE_NONE.  */
const char *entitle_source_key (enum entitle_source s);

/** The source whose key is the @len bytes at @key; NONE when none is.  */
enum entitle_source entitle_source_from_key (const char *key, size_t len);

/** @s for people: "annotation `io.entitle.entitlements`", "process.env
    `ENTITLE_ENTITLEMENTS`", "the admin config's `defaults`"...; NULL for
    NONE.  */
const char *entitle_source_name (enum entitle_source s);

/**
 * How a refusal of a request says where it came from, after "requested by
 * the container": "" for the annotation (the message DESIGN §2 gives),
 * " through process.env `ENTITLE_ENTITLEMENTS`" for the others.
 */
const char *entitle_source_through (enum entitle_source s);

#endif
