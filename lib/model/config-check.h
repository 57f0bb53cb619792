/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_CONFIG_CHECK_H
#define ENTITLE_CONFIG_CHECK_H

#include <stddef.h>
#include "admin-config.h"

/**
 * Check the admin config @path (@len bytes at @buf) as `entitle config
 * check` does, into @cfg (initialized: zero, or a config to reuse) and
 * @issues, one message per error: every key, in the parser's strict mode;
 * every name of `grant` (a glob must cover a row), `defaults`, `require`
 * and each profile, against the catalogue with the admin's custom rows;
 * then, where every name parses, the lists resolved as create resolves
 * them, under no profile and under each.  What only entitle-full can
 * check (a custom row's syscalls, capabilities and BPF objects) is the
 * caller's.
 */
void entitle_config_check (struct entitle_config_s *cfg, const char *path, const char *buf, size_t len,
                           struct entitle_config_issues_s *issues);

#endif
