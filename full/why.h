/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_WHY_H
#define ENTITLE_WHY_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "cgroup-record.h"
#include "commands.h"
#include "policy.h"

/* What full/why.c (the denials recorded) and full/why-follow.c (the
   denials as they happen, `--follow`) share.  */

struct why_opts
{
  const char *id;
  bool json;
  bool follow;
  double since; /* seconds, 0: all */
};

/** The wall-clock time of a CLOCK_BOOTTIME stamp.  */
time_t why_wall_time (uint64_t boot_ns);

/** The container's set, from the hook's record of the cgroup (empty when
    it does not parse: a custom row the admin config no longer defines).  */
void why_record_set (const struct entitle_catalogue_s *cat, const struct entitle_cgroup_record_s *r,
                     struct entitle_set_s *set);

/** Where the record @r says @denier (an item of its set) came from:
    ENTITLE_SOURCE_NONE when it does not say.  */
enum entitle_source why_denier_source (const struct entitle_cgroup_record_s *r,
                                       const struct entitle_request_s *denier);

/**
 * Print one record of the store: into @arr (JSON, `why`), or as a line of
 * text or of JSON (`why --follow`).
 */
int why_show_event (struct shim_s *s, const struct why_opts *o, const struct entitle_event *ev, json_t *arr,
                    entitle_error_t *err);

/** entitle why --follow: print the denials as they happen, until interrupted.  */
int why_follow (struct shim_s *s, const struct why_opts *o, entitle_error_t *err);

#endif
