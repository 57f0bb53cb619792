/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include "file.h"
#include "json.h"
#include "log.h"
#include "utils.h"

static const char *const level_names[] = { "error", "warning", "info", "debug" };

/* {"level":"error","msg":"...","time":"2006-01-02T15:04:05Z"}: the shape
   of runc's logrus JSON lines.  */
static int
write_json_line (int fd, enum entitle_log_level level, const char *msg)
{
  cleanup_json json_t *rec = json_new (JSON_OBJECT);
  cleanup_free char *line = NULL;
  char stamp[64];
  time_t now = time (NULL);
  struct tm tm;
  size_t len;

  gmtime_r (&now, &tm);
  strftime (stamp, sizeof (stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
  json_set (rec, "level", json_new_string (level_names[level]));
  json_set (rec, "msg", json_new_string (msg));
  json_set (rec, "time", json_new_string (stamp));
  line = json_generate_record (rec, &len);
  return line ? entitle_write_all (fd, line, len) : -1;
}

/* @c as Go's strconv.Quote writes a byte it escapes into @out: \a \b
   \f \n \r \t \v \" \\ by name, any other as \xNN.  */
static size_t
quote_byte (unsigned char c, char *out)
{
  static const char named[] = "\a\b\f\n\r\t\v\"\\", names[] = "abfnrtv\"\\";
  const char *k = c ? strchr (named, c) : NULL;

  if (k)
    return (size_t)snprintf (out, 4, "\\%c", names[k - named]);
  return (size_t)snprintf (out, 5, "\\x%02x", c);
}

/* time="..." level=error msg="...": logrus's text format, as runc writes
   it, with the message quoted as logrus quotes it (Go's %q: quotes,
   backslashes, control bytes and bytes of ill-formed UTF-8 escaped), so
   that a parser reads the whole line.  */
static int
write_text_line (int fd, enum entitle_log_level level, const char *msg)
{
  const unsigned char *m = (const unsigned char *)msg;
  char line[8192 + 64], stamp[64];
  size_t n, i = 0, len = strlen (msg);
  time_t now = time (NULL);
  struct tm tm;

  gmtime_r (&now, &tm);
  strftime (stamp, sizeof (stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
  n = (size_t)snprintf (line, sizeof (line), "time=\"%s\" level=%s msg=\"", stamp, level_names[level]);
  while (i < len && n < sizeof (line) - 8)
    {
      size_t u = m[i] < 0x80 ? 1 : entitle_utf8_len (m, i, len);

      if (u > 1 || (u == 1 && m[i] >= 0x20 && m[i] != 0x7f && m[i] != '"' && m[i] != '\\'))
        {
          memcpy (line + n, msg + i, u);
          n += u;
          i += u;
          continue;
        }
      n += quote_byte (m[i++], line + n);
    }
  line[n++] = '"';
  line[n++] = '\n';
  return entitle_write_all (fd, line, n);
}

/* crun's journald:ID and syslog:ID targets: entitle has no journal
   client, but journald reads syslog too, so a line sent there is kept
   under ID (or "entitle").  */
static bool
write_syslog (const char *target, enum entitle_log_level level, const char *msg)
{
  static const int priorities[] = { LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG };
  const char *id = strchr (target, ':') + 1;

  openlog (*id ? id : "entitle", LOG_PID, LOG_USER);
  syslog (priorities[level], "%s", msg);
  closelog ();
  return true;
}

/* Append @msg to the --log target in the runtime's format.  Returns false
   when the line could not be written there.  */
static bool
write_log_file (const struct entitle_log_s *log, enum entitle_log_level level, const char *msg)
{
  const char *path = log->path;
  cleanup_close int fd = -1;

  /* crun accepts file:PATH.  */
  if (strncmp (path, "file:", 5) == 0)
    path += 5;
  else if (strncmp (path, "journald:", 9) == 0 || strncmp (path, "syslog:", 7) == 0)
    return write_syslog (path, level, msg);
  fd = open (path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return false;
  return (log->json ? write_json_line (fd, level, msg) : write_text_line (fd, level, msg)) == 0;
}

/* Podman names the runtime before what conmon read from its log or its
   stderr ("Error: OCI runtime error: entitle: MSG"): there entitle's own
   prefix would be a second one.  Podman's conmon gives the runtime the sync pipe
   (_OCI_SYNCPIPE), and Podman marks its environment
   (_CONTAINERS_USERNS_CONFIGURED, containers/storage's re-exec); CRI-O
   runs conmon too but words its errors itself.  */
static const char *
own_prefix (void)
{
  return getenv ("_OCI_SYNCPIPE") && getenv ("_CONTAINERS_USERNS_CONFIGURED") ? "" : "entitle: ";
}

void
entitle_log (const struct entitle_log_s *log, enum entitle_log_level level, const char *fmt, ...)
{
  char msg[4096], line[4200];
  bool logged = false;
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
  if (log->path)
    {
      snprintf (line, sizeof (line), "%s%s", own_prefix (), msg);
      logged = write_log_file (log, level, line);
    }
  /* With a --log file, only errors go to stderr as well.  An engine gives
     `create`, `run` and `exec` the container's own stdio (runc hands its
     fds 0-2 to the container's process), so stderr there is the
     application's log: a warning written to it would be read as the
     application's.  The engine reads the --log file.  */
  if (level == ENTITLE_LOG_DEBUG || (logged && level != ENTITLE_LOG_ERROR))
    return;
  n = snprintf (line, sizeof (line), "%s%s%s\n", own_prefix (), level == ENTITLE_LOG_WARNING ? "warning: " : "",
                msg);
  if (n > 0)
    entitle_write_all (STDERR_FILENO, line, (size_t)n < sizeof (line) ? (size_t)n : sizeof (line) - 1);
}
