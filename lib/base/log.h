/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_LOG_H
#define ENTITLE_LOG_H

#include <stdbool.h>

/* Messages go to stderr and, when the engine gave `--log`, to that file in
   the runtime's own format: containerd shows the last "level":"error" line
   of log.json to the user (DESIGN §5).  With a `--log`, only errors go to
   stderr too: an engine runs create, run and exec with the container's own
   stdio, so anything else on stderr would be read as the application's.  */

enum entitle_log_level
{
  ENTITLE_LOG_ERROR,
  ENTITLE_LOG_WARNING,
  ENTITLE_LOG_INFO,
  ENTITLE_LOG_DEBUG,
};

struct entitle_log_s
{
  const char *path; /**< --log PATH, or NULL */
  bool json;        /**< --log-format json */
  bool debug;       /**< --debug: debug lines are written too */
};

/** Write one line at @level; "entitle: " is prepended.  */
void entitle_log (const struct entitle_log_s *log, enum entitle_log_level level,
                  const char *fmt, ...) __attribute__ ((format (printf, 3, 4)));

#define entitle_log_error(l, ...)   entitle_log ((l), ENTITLE_LOG_ERROR, __VA_ARGS__)
#define entitle_log_warning(l, ...) entitle_log ((l), ENTITLE_LOG_WARNING, __VA_ARGS__)
#define entitle_log_debug(l, ...)   entitle_log ((l), ENTITLE_LOG_DEBUG, __VA_ARGS__)

#endif
