/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cgroup.h"
#include "commands.h"
#include "compile.h"
#include "exec-mark.h"
#include "landlock.h"
#include "request.h"
#include "resolve.h"
#include "trust.h"
#include "entitlements.h"
#include "file.h"
#include "json.h"
#include "utils.h"

/* exec --process FILE: engines build FILE from their stored spec, not from
   the config entitle rewrote, so without this every exec would undo the
   entitlements.  What the container got is read back from its bundle.
   In a container whose processes start through the in-container helper
   (Landlock), every exec'd command does too, --process or not (DESIGN
   §7): the helper with the container's rules goes in front of it.  */

/* `runtime [--root R] state ID`: the container's state JSON.  */
static int
container_state (struct shim_s *s, json_t **state, entitle_error_t *err)
{
  cleanup_free char *out = NULL;
  char *argv[6];
  size_t len, n = 0;
  int status;

  argv[n++] = (char *)s->runtime;
  if (s->args.root)
    {
      argv[n++] = (char *)"--root";
      argv[n++] = (char *)s->args.root;
    }
  argv[n++] = (char *)"state";
  argv[n++] = (char *)s->args.id;
  argv[n] = NULL;
  status = shim_capture (s->runtime, argv, &out, &len, err);
  if (UNLIKELY (status < 0))
    return status;
  if (status != 0)
    return entitle_make_error (err, ESRCH, "state of container `%s`: %s exited with %d", s->args.id,
                               s->runtime, status);
  return json_parse (out, len, state, err);
}

/* The container's bundle config, for what entitle gave the container
   (its capabilities).  */
static int
bundle_config (const json_t *state, json_t **spec, entitle_error_t *err)
{
  cleanup_free char *path = NULL, *raw = NULL;
  const char *bundle = json_string (json_get (state, "bundle"));
  size_t len;

  if (bundle == NULL)
    return entitle_make_error (err, EINVAL, "the container's state names no bundle");
  if (asprintf (&path, "%s/config.json", bundle) < 0)
    abort ();
  return shim_load_json (path, &raw, &len, spec, err);
}

/* A process without a capabilities object would keep what the runtime
   has: give it what the container was given instead, then narrow that.  */
static int
container_caps (const json_t *state, json_t *process, entitle_error_t *err)
{
  cleanup_json json_t *spec = NULL;
  const json_t *caps;
  int ret;

  if (json_get (process, "capabilities"))
    return 0;
  ret = bundle_config (state, &spec, err);
  if (UNLIKELY (ret < 0))
    return ret;
  caps = json_get (json_get (spec, "process"), "capabilities");
  if (caps && caps->type == JSON_OBJECT)
    json_set (process, "capabilities", json_clone (caps));
  return 0;
}

/* What the container asks for: its annotation, from the state (runc and
   crun copy the config's annotations there), else its bundle's config,
   whose process.env may ask (DESIGN §8).  Never the exec'd process's own
   environment: a process does not choose its entitlements.  */
static int
requested_of (const struct entitle_catalogue_s *cat, const json_t *state, struct entitle_set_s *requested,
              entitle_error_t *err)
{
  cleanup_json json_t *spec = NULL;
  int ret;

  if (entitle_request_in_annotations (state))
    return entitle_requested (cat, state, requested, err);
  ret = bundle_config (state, &spec, err);
  if (UNLIKELY (ret < 0))
    return ret;
  return entitle_requested (cat, spec, requested, err);
}

/* `exec --cap X` gives the process X in every set: refuse a capability
   the container's entitlements take away.  */
static int
check_caps (struct shim_s *s, const struct entitle_set_s *set, entitle_error_t *err)
{
  int i;

  if (s->args.n_caps > ENTITLE_ARGS_MAX_CAPS)
    return entitle_make_error (err, E2BIG, "exec `%s`: more than %d `--cap` flags", s->args.id,
                               ENTITLE_ARGS_MAX_CAPS);
  for (i = 0; i < s->args.n_caps; i++)
    {
      cleanup_json json_t *process = json_new (JSON_OBJECT);
      json_t *caps = json_new (JSON_OBJECT), *bounding = json_new (JSON_ARRAY);
      const char *cap = s->args.caps[i];
      int ret;

      json_push (bounding, json_new_string (cap));
      json_set (caps, "bounding", bounding);
      json_set (process, "capabilities", caps);
      ret = entitle_compile_process (s->ctx, process, set, NULL, err);
      if (UNLIKELY (ret < 0))
        return ret;
      if (json_array_find_string (json_get (caps, "bounding"), cap) < 0)
        return entitle_make_error (err, EPERM, "exec `%s`: capability `%s` is taken away by the container's entitlements",
                                   s->args.id, cap);
    }
  return 0;
}

/* A container in a cgroup entitle-hook made (the runtime manages none):
   the runtime would leave the new process in ours, outside the container's
   policy, so go there first.  */
static int
join_cgroup (const json_t *state, entitle_error_t *err)
{
  const json_t *pid = json_get (state, "pid");
  char mnt[256], rel[4096], mine[4096], dir[4352];
  const char *base;
  int ret;

  if (pid == NULL || pid->type != JSON_NUMBER)
    return entitle_make_error (err, ESRCH, "the container's state has no pid");
  ret = entitle_cgroup2_mount (mnt, sizeof (mnt), err);
  if (ret == 0)
    ret = entitle_cgroup_of_pid ((pid_t)atol (pid->text), rel, sizeof (rel), err);
  if (ret == 0)
    ret = entitle_cgroup_of_pid (getpid (), mine, sizeof (mine), err);
  if (UNLIKELY (ret < 0))
    return ret;
  base = strrchr (rel, '/');
  if (base == NULL || strncmp (base + 1, "entitle-", 8) != 0 || strcmp (rel, mine) == 0)
    return 0;
  snprintf (dir, sizeof (dir), "%s%s", mnt, rel);
  return entitle_cgroup_move (dir, getpid (), err);
}

static int
exec_process (struct shim_s *s, const json_t *state, const struct entitle_set_s *requested,
              const struct entitle_set_s *final, bool wraps, entitle_error_t *err)
{
  cleanup_free char *raw = NULL, *out = NULL;
  cleanup_json json_t *process = NULL;
  cleanup_outcome struct entitle_outcome_s outcome = { 0 };
  size_t len, out_len;
  int ret;

  ret = shim_load_json (s->args.process, &raw, &len, &process, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (process->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "`%s`: a process must be a JSON object", s->args.process);
  ret = container_caps (state, process, err);
  if (ret == 0)
    ret = entitle_check_process_grants (s->ctx, process, requested, err);
  if (ret == 0)
    ret = entitle_compile_process (s->ctx, process, final, &outcome, err);
  if (ret == 0)
    ret = entitle_outcome_settle (s->ctx->config, s->ctx->log, &outcome, err);
  if (ret == 0 && wraps)
    entitle_landlock_wrap (s->ctx, process, final);
  if (ret == 0)
    ret = json_generate_compact (process, &out, &out_len, err);
  if (ret == 0)
    ret = entitle_file_write_atomic (s->args.process, out, out_len, err);
  return ret;
}

/* `exec ID COMMAND...`: the helper goes in front of COMMAND.  */
static int
exec_wrapped (struct shim_s *s, const struct entitle_set_s *final, entitle_error_t *err)
{
  cleanup_strv char **prefix = entitle_landlock_argv (s->ctx, final);
  cleanup_free char **argv = NULL;
  char **given = s->argv;
  size_t n = 0, k = 0;
  int id = 0, ret;

  while (id < s->argc && s->argv[id] != s->args.id)
    id++;
  if (id == s->argc)
    return entitle_make_error (err, EINVAL, "exec `%s`: the container id is not in the command line", s->args.id);
  /* No command: the runtime's error to report, in its words.  */
  if (id + 1 == s->argc)
    return shim_exec_runtime (s, err);
  while (prefix[n])
    n++;
  argv = calloc ((size_t)s->argc + n + 1, sizeof (char *));
  if (argv == NULL)
    abort ();
  for (int i = 0; i <= id; i++)
    argv[k++] = s->argv[i];
  for (size_t i = 0; i < n; i++)
    argv[k++] = prefix[i];
  for (int i = id + 1; i < s->argc; i++)
    argv[k++] = s->argv[i];
  s->argv = argv;
  ret = shim_exec_runtime (s, err);
  s->argv = given;
  return ret;
}

int
shim_exec (struct shim_s *s, entitle_error_t *err)
{
  cleanup_entitle_set struct entitle_set_s requested = { 0 }, final = { 0 };
  cleanup_json json_t *state = NULL;
  /* crun --cgroup-manager=disabled is the only way a container's cgroup is
     one entitle-hook made (every other runtime and manager gives it its
     own, and joins it on exec).  */
  bool bpf = s->args.no_cgroup_manager && access (ENTITLE_BPF_PINS, F_OK) == 0;
  const char *state_dir = s->ctx->config->state_dir;
  bool marked = entitle_exec_marked (state_dir, s->args.root, s->args.id), wraps;
  int ret;

  if ((s->args.process == NULL && s->args.n_caps == 0 && !bpf && !marked) || s->args.id == NULL)
    return shim_exec_runtime (s, err);
  ret = container_state (s, &state, err);
  /* A container that does not exist is the runtime's error to report.  */
  if (ret < 0 && (*err)->status == ESRCH)
    {
      entitle_error_release (err);
      return shim_exec_runtime (s, err);
    }
  if (ret == 0 && bpf)
    ret = join_cgroup (state, err);
  /* The container's set, derived as create and the hook derive it (its
     annotations are the config's, in the state): never the record
     io.entitle.applied, which an image can write.  */
  if (ret == 0)
    ret = requested_of (&s->ctx->config->catalogue, state, &requested, err);
  if (ret == 0)
    ret = entitle_resolve (s->ctx->config, &requested, &final, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "exec `%s`", s->args.id);
  wraps = entitle_landlock_wraps (s->ctx, &final);
  /* A mark this container does not need: one a container of the same
     root and id left.  */
  if (marked && !wraps)
    entitle_exec_unmark (state_dir, s->args.root, s->args.id);
  if (final.n == 0)
    return shim_exec_runtime (s, err);
  ret = check_caps (s, &final, err);
  if (ret == 0 && s->args.process)
    ret = exec_process (s, state, &requested, &final, wraps, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (wraps)
    ret = shim_seccomp_layer (s, &final, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (wraps && s->args.process == NULL)
    return exec_wrapped (s, &final, err);
  return shim_exec_runtime (s, err);
}
