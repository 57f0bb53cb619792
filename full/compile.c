/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "commands.h"
#include "compile-diff.h"
#include "compile.h"
#include "rewrite.h"
#include "json.h"
#include "utils.h"

/* entitle compile [-b DIR] [--config FILE] [--entitlements LIST] [--diff]:
   the rewrite create would make, printed; the bundle is not touched.  */

struct compile_opts
{
  const char *bundle, *config, *entitlements;
  bool diff, check, full;
};

static int
take_opt (struct shim_s *s, void *data, enum shim_key key, const char *value, entitle_error_t *err)
{
  struct compile_opts *o = data;

  (void)err;
  if (key == KEY_DIFF)
    o->diff = true;
  else if (key == KEY_CHECK)
    o->check = true;
  else if (key == KEY_FULL)
    o->full = true;
  else if (key == KEY_BUNDLE)
    o->bundle = value;
  else if (key == KEY_CONFIG)
    o->config = value;
  else if (key == KEY_ENTITLEMENTS)
    o->entitlements = value;
  else
    shim_usage_error (s, "compile: unexpected argument `%s`", value);
  return 0;
}

static int
parse_opts (struct shim_s *s, struct compile_opts *o, entitle_error_t *err)
{
  return shim_parse (s, o, take_opt, err);
}

static int
write_temp (const char *text, size_t len, char *tmpl, entitle_error_t *err)
{
  cleanup_close int fd = mkostemp (tmpl, O_CLOEXEC);
  if (fd < 0 || write (fd, text, len) != (ssize_t)len)
    return entitle_make_sys_error (err, "write `%s`", tmpl);
  return 0;
}

/* diff -u of the two pretty-printed documents, so that only content
   differences show.  */
static int
print_diff (const char *before, size_t blen, const char *after, size_t alen, entitle_error_t *err)
{
  char a[] = "/tmp/entitle-before-XXXXXX", b[] = "/tmp/entitle-after-XXXXXX";
  int status = -1, ret;
  pid_t pid;

  ret = write_temp (before, blen, a, err);
  if (ret == 0)
    ret = write_temp (after, alen, b, err);
  if (ret == 0 && (pid = fork ()) == 0)
    {
      execlp ("diff", "diff", "-u", "--label", "config.json", "--label", "config.json (entitle)", a, b,
              (char *)NULL);
      _exit (127);
    }
  if (ret == 0)
    waitpid (pid, &status, 0);
  unlink (a);
  unlink (b);
  if (ret == 0 && (!WIFEXITED (status) || WEXITSTATUS (status) > 1))
    ret = entitle_make_error (err, 0, "compile: diff failed (is diffutils installed?)");
  return ret;
}

/* The parts of a config entitle writes, first to last: the hooks and the
   record annotations aside, which a compile writes anew each time.  */
static const char *
first_difference (const json_t *a, const json_t *b)
{
  static const char *const process[] = { "capabilities", "noNewPrivileges", "apparmorProfile", "selinuxLabel", "args" };
  static const char *const linux_[] = { "namespaces", "maskedPaths", "readonlyPaths", "seccomp", "resources", "sysctl" };
  const json_t *pa = json_get (a, "process"), *pb = json_get (b, "process");
  const json_t *la = json_get (a, "linux"), *lb = json_get (b, "linux");
  size_t i;

  for (i = 0; i < sizeof (process) / sizeof (process[0]); i++)
    if (!json_equal (json_get (pa, process[i]), json_get (pb, process[i])))
      return process[i];
  for (i = 0; i < sizeof (linux_) / sizeof (linux_[0]); i++)
    if (!json_equal (json_get (la, linux_[i]), json_get (lb, linux_[i])))
      return linux_[i];
  return "the rest of the config";
}

/* --check: is @before what create would write for it already?  */
static int
check_compiled (const char *path, json_t *before, json_t *after, entitle_error_t *err)
{
  const char *differs;

  json_del (before, "hooks");
  json_del (after, "hooks");
  json_del (json_get (before, "annotations"), ENTITLE_ANNOTATION_APPLIED);
  json_del (json_get (before, "annotations"), ENTITLE_ANNOTATION_VERSION);
  json_del (json_get (after, "annotations"), ENTITLE_ANNOTATION_APPLIED);
  json_del (json_get (after, "annotations"), ENTITLE_ANNOTATION_VERSION);
  if (json_equal (before, after))
    return 0;
  differs = first_difference (before, after);
  return entitle_make_error (err, EAGAIN, "`%s` is not as entitle writes it: %s%s differ", path,
                             strcmp (differs, "the rest of the config") ? "its " : "", differs);
}

int
shim_compile (struct shim_s *s, entitle_error_t *err)
{
  struct compile_opts o = { 0 };
  cleanup_free char *path = NULL, *raw = NULL, *before = NULL, *after = NULL, *lines = NULL;
  cleanup_json json_t *spec = NULL, *pristine = NULL;
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  size_t len, blen, alen;
  int ret;

  ret = parse_opts (s, &o, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (o.config)
    path = strdup (o.config);
  else
    xasprintf (&path, "%s/config.json", o.bundle ? o.bundle : ".");
  ret = shim_load_json (path, &raw, &len, &spec, err);
  if (UNLIKELY (ret < 0))
    return ret;
  free (get_and_reset (&raw));
  if (spec->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "`%s`: config is not a JSON object", path);
  if (o.entitlements)
    json_set (json_get_or_add (spec, "annotations", JSON_OBJECT), ENTITLE_ANNOTATION,
              json_new_string (o.entitlements));
  if (o.check)
    {
      cleanup_json json_t *orig = json_clone (spec);
      ret = entitle_rewrite (s->ctx, spec, &final, err);
      if (ret > 0)
        ret = check_compiled (path, orig, spec, err);
      if (UNLIKELY (ret < 0))
        return ret;
      exit (EXIT_SUCCESS);
    }
  /* The tree before, for --diff's summary only: a clone doubles the peak
     of a large config (attacks-limits.bats).  */
  if (o.diff && !o.full)
    pristine = json_clone (spec);
  ret = json_generate (spec, &before, &blen, err);
  if (ret == 0)
    ret = entitle_rewrite (s->ctx, spec, &final, err);
  /* Plain output is the bytes create would write; a diff is for people,
     its long lists told in a line each unless --full.  */
  if (ret >= 0 && o.diff && !o.full)
    lines = shim_diff_summary (pristine, spec);
  if (ret >= 0)
    ret = o.diff ? json_generate (spec, &after, &alen, err) : json_generate_compact (spec, &after, &alen, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (o.diff)
    ret = print_diff (before, blen, after, alen, err);
  else
    fwrite (after, 1, alen, stdout);
  if (UNLIKELY (ret < 0))
    return ret;
  if (lines)
    fputs (lines, stdout);
  exit (EXIT_SUCCESS);
}
