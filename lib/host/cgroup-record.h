/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CGROUP_RECORD_H
#define ENTITLE_CGROUP_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "error.h"
#include "source.h"

/* Which container a cgroup was: the store of denials names a cgroup by its
   id, and `entitle why` must name the container, also after it was
   deleted.  entitle-hook writes one small file per container it attaches
   to, at createRuntime, in STATE_DIR/containers/XX/ (named by the cgroup
   id, holding "ROOT\nID\nBUNDLE\nENTITLEMENTS\nSOURCES\n", SOURCES as
   entitle_set_format_sources writes them, a line older records lack;
   XX, one of 256 shards,
   is a hash of the id).  No poststop is needed: each create collects its
   record's shard, removing the records whose cgroup is gone and that are
   older than ENTITLE_RECORD_KEEP, and keeps no more than ENTITLE_RECORD_MAX
   over all shards.  */

#define ENTITLE_RECORD_KEEP (2 * 3600) /* seconds: `why` answers for an hour at least */
#define ENTITLE_RECORD_MAX  16384      /* twice the records the store holds */

struct entitle_cgroup_record_s
{
  uint64_t cgroup_id;
  time_t time;              /**< when it was written (the container's createRuntime) */
  char *raw;                /**< the file; the strings below point into it */
  const char *root;         /**< the runtime's --root, "" when none was given */
  const char *id;           /**< the container's id */
  const char *bundle;       /**< its bundle */
  const char *entitlements; /**< the set the hook enforced, as entitle_set_format writes it */
  const char *sources;      /**< where each came from, as entitle_set_format_sources writes it ("": not recorded) */
};

/** Write the record of @r->cgroup_id (the strings of @r) under @state_dir. */
int entitle_cgroup_record_write (const char *state_dir, const struct entitle_cgroup_record_s *r,
                                 entitle_error_t *err);

/** Read the record of @cgroup_id into @r; false when there is none. */
bool entitle_cgroup_record_read (const char *state_dir, uint64_t cgroup_id, struct entitle_cgroup_record_s *r);

/**
 * The records of container @id (of runtime root @root, or of any root when
 * @root is NULL), newest first, into a malloc'd array of @n (free each
 * with entitle_cgroup_record_free, then the array).
 */
struct entitle_cgroup_record_s *entitle_cgroup_record_find (const char *state_dir, const char *root, const char *id,
                                                            size_t *n);

void entitle_cgroup_record_free (struct entitle_cgroup_record_s *r);

/** Where the entitlement @name ("a" or "a=v", as entitle_request_format
    writes it) of @r's set came from; ENTITLE_SOURCE_NONE when the record
    does not say.  */
enum entitle_source entitle_cgroup_record_source (const struct entitle_cgroup_record_s *r, const char *name);

/** Remove the records of container @id of runtime root @root written at
    @since or later: those of a create that failed after the hook's step
    (full/attach-after.c); older ones are earlier containers'.  */
void entitle_cgroup_record_forget (const char *state_dir, const char *root, const char *id, time_t since);

/** In the shard of @cgroup_id's record, remove the records whose cgroup is
    gone (looked up in the cgroup2 hierarchy mounted at @cgroup2) and that
    are older than ENTITLE_RECORD_KEEP, and the oldest such ones beyond the
    shard's part of ENTITLE_RECORD_MAX.  */
void entitle_cgroup_record_collect (const char *state_dir, const char *cgroup2, uint64_t cgroup_id);

#endif
