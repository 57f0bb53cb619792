/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_COMPILE_DIFF_H
#define ENTITLE_COMPILE_DIFF_H

#include "json.h"

/**
 * `entitle compile --diff` without --full: every array of @before and
 * @after (objects, the config and its rewrite) whose difference would
 * take more than a screen of diff lines is made equal again in @after
 * (the diff shows the rest as it is) and told in a line of the text
 * returned (malloc'd; NULL when no array was):
 * "linux.seccomp.syscalls: +12 rules (412 names: a, b, ... and 406
 * more)", its items only in @before (-) and only in @after (+), as jq's
 * `$after - $before` counts them.
 */
char *shim_diff_summary (const json_t *before, json_t *after);

#endif
