/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>
#include "file.h"
#include "log.h"
#include "utils.h"

static const char *const level_names[] = { "error", "warning", "info", "debug" };

/* {"level":"error","msg":"...","time":"2006-01-02T15:04:05Z"}: the shape
   of runc's logrus JSON lines.  */
static void
write_json_line (int fd, enum entitle_log_level level, const char *msg)
{
  char stamp[64];
  time_t now = time (NULL);
  struct tm tm;
  const unsigned char *buf;
  size_t len;
  yajl_gen g = yajl_gen_alloc (NULL);

  if (g == NULL)
    return;
  gmtime_r (&now, &tm);
  strftime (stamp, sizeof (stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
  yajl_gen_map_open (g);
  yajl_gen_string (g, (const unsigned char *)"level", 5);
  yajl_gen_string (g, (const unsigned char *)level_names[level], strlen (level_names[level]));
  yajl_gen_string (g, (const unsigned char *)"msg", 3);
  yajl_gen_string (g, (const unsigned char *)msg, strlen (msg));
  yajl_gen_string (g, (const unsigned char *)"time", 4);
  yajl_gen_string (g, (const unsigned char *)stamp, strlen (stamp));
  yajl_gen_map_close (g);
  if (yajl_gen_get_buf (g, &buf, &len) == yajl_gen_status_ok)
    {
      entitle_write_all (fd, (const char *)buf, len);
      entitle_write_all (fd, "\n", 1);
    }
  yajl_gen_free (g);
}

/* time="..." level=error msg="...": logrus's text format, as runc writes
   it, with the message quoted as logrus quotes it (Go's %q: a quote or a
   backslash in it is escaped), so that a parser reads the whole line.  */
static void
write_text_line (int fd, enum entitle_log_level level, const char *msg)
{
  char line[8192 + 64], stamp[64];
  time_t now = time (NULL);
  struct tm tm;
  size_t n;

  gmtime_r (&now, &tm);
  strftime (stamp, sizeof (stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
  n = (size_t)snprintf (line, sizeof (line), "time=\"%s\" level=%s msg=\"", stamp, level_names[level]);
  for (; *msg && n < sizeof (line) - 4; msg++)
    {
      if (*msg == '"' || *msg == '\\')
        line[n++] = '\\';
      line[n++] = *msg;
    }
  line[n++] = '"';
  line[n++] = '\n';
  entitle_write_all (fd, line, n);
}

static void
write_log_file (const struct entitle_log_s *log, enum entitle_log_level level, const char *msg)
{
  const char *path = log->path;
  cleanup_close int fd = -1;

  /* crun accepts file:PATH; journald: and syslog: are crun's business.  */
  if (strncmp (path, "file:", 5) == 0)
    path += 5;
  else if (strncmp (path, "journald:", 9) == 0 || strncmp (path, "syslog:", 7) == 0)
    return;
  fd = open (path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  if (log->json)
    write_json_line (fd, level, msg);
  else
    write_text_line (fd, level, msg);
}

void
entitle_log (const struct entitle_log_s *log, enum entitle_log_level level, const char *fmt, ...)
{
  char msg[4096], line[4200];
  va_list ap;
  int n;

  /* No log: silent.  */
  if (log == NULL || (level == ENTITLE_LOG_DEBUG && !log->debug))
    return;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof (msg), fmt, ap);
  va_end (ap);
  /* One line per message, whatever the input held.  */
  for (char *p = msg; *p; p++)
    if (*p == '\n')
      *p = ' ';
  n = snprintf (line, sizeof (line), "entitle: %s%s\n",
                level == ENTITLE_LOG_WARNING ? "warning: " : "", msg);
  if (n > 0 && level != ENTITLE_LOG_DEBUG)
    entitle_write_all (STDERR_FILENO, line, (size_t)n < sizeof (line) ? (size_t)n : sizeof (line) - 1);
  if (log && log->path)
    {
      snprintf (line, sizeof (line), "entitle: %s", msg);
      write_log_file (log, level, line);
    }
}
