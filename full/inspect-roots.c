/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "inspect-roots.h"
#include "runtime-roots.h"
#include "utils.h"

/* `entitle inspect ID` of a container an engine made: containerd, Docker,
   Podman and CRI-O each give runc (or crun) a --root of their own, which
   the user does not know.  Looked up only when no --root is given and the
   runtime's default root has no such container.  */

pid_t
shim_container_pid (struct shim_s *s, const char *root, const char *id)
{
  char *argv[6];
  cleanup_free char *out = NULL;
  cleanup_json json_t *doc = NULL;
  entitle_error_t err = NULL;
  const json_t *pid;
  size_t len, n = 0;

  argv[n++] = (char *)s->runtime;
  if (root)
    {
      argv[n++] = (char *)"--root";
      argv[n++] = (char *)root;
    }
  argv[n++] = (char *)"state";
  argv[n++] = (char *)id;
  argv[n] = NULL;
  if (shim_capture (s->runtime, argv, &out, &len, &err) != 0 || json_parse (out, len, &doc, &err) < 0)
    {
      entitle_error_release (&err);
      return 0;
    }
  pid = json_get (doc, "pid");
  return pid && pid->type == JSON_NUMBER ? (pid_t)atol (pid->text) : 0;
}

/* A container id names a directory of its root: nothing else is looked
   for.  */
static bool
plain_name (const char *id)
{
  return *id && strchr (id, '/') == NULL && strcmp (id, ".") != 0 && strcmp (id, "..") != 0;
}

int
shim_engine_container (struct shim_s *s, const char *id, pid_t *pid, char **root, char **searched,
                       entitle_error_t *err)
{
  cleanup_strv char **roots = entitle_runtime_roots (entitle_runtime_roots_base ());
  cleanup_strv char **holding = NULL;

  *pid = 0;
  *root = *searched = NULL;
  if (!plain_name (id))
    return 0;
  holding = entitle_runtime_roots_holding (roots, id);
  if (holding[0] == NULL)
    {
      *searched = entitle_runtime_roots_join (roots);
      return 0;
    }
  if (holding[1] != NULL)
    {
      cleanup_free char *all = entitle_runtime_roots_join (holding);
      return entitle_make_error (err, EEXIST, "container `%s` is in %s: say which with --root", id, all);
    }
  if ((*pid = shim_container_pid (s, holding[0], id)) <= 0)
    return entitle_make_error (err, ESRCH,
                               "container `%s` is in %s, where `%s --root %s state %s` does not find it "
                               "(the root of another runtime, or a container that is gone?)",
                               id, holding[0], s->runtime, holding[0], id);
  *root = get_and_reset (&holding[0]);
  return 0;
}
