/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "commands.h"
#include "file.h"
#include "json.h"
#include "capture.h"
#include "utils.h"

int
shim_load_json (const char *path, char **raw, size_t *len, json_t **out, entitle_error_t *err)
{
  int ret = entitle_file_read (path, ENTITLE_MAX_CONFIG_SIZE, raw, len, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = json_parse (*raw, *len, out, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "load `%s`", path);
  return 0;
}

int
shim_capture (const char *runtime, char *const *argv, char **out, size_t *len, entitle_error_t *err)
{
  /* The runtime's complaints are entitle's to judge, not the user's.  */
  return entitle_capture (runtime, argv, STDOUT_FILENO, out, len, err);
}

static int
print_json (const json_t *doc, bool line, entitle_error_t *err)
{
  cleanup_free char *text = NULL;
  size_t len;
  int ret = line ? json_generate_compact (doc, &text, &len, err) : json_generate (doc, &text, &len, err);

  if (UNLIKELY (ret < 0))
    return ret;
  fwrite (text, 1, len, stdout);
  fflush (stdout);
  return 0;
}

int
shim_print_json (const json_t *doc, entitle_error_t *err)
{
  return print_json (doc, false, err);
}

int
shim_print_json_line (const json_t *doc, entitle_error_t *err)
{
  return print_json (doc, true, err);
}
