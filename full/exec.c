/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "caps.h"
#include "cgroup.h"
#include "commands.h"
#include "compile.h"
#include "landlock.h"
#include "layers.h"
#include "oci-fields.h"
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
   §7).  Whether it does is decided here, for every exec, from the
   container's own state (`runtime state`, the set derived from it as
   create derived it): never from how --root is spelt or from anything
   entitle keeps, which can be gone (DESIGN §8).  */

/* `runtime [--root R] state ID`: the container's state JSON.  A runtime
   that cannot give it (ESRCH: it exited with its error) cannot exec into
   the container either, and says why itself; one that was killed gave no
   answer, which is no reason to run anything.  */
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
  if (status >= 128)
    return entitle_make_error (err, EIO, "state of container `%s`: %s ended with status %d", s->args.id,
                               s->runtime, status);
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
  int ret;

  if (bundle == NULL)
    return entitle_make_error (err, EINVAL, "the container's state names no bundle");
  xasprintf (&path, "%s/config.json", bundle);
  ret = shim_load_json (path, &raw, &len, spec, err);
  if (ret == 0 && entitle_oci_fields_check (*spec, ENTITLE_OCI_CONFIG, err) < 0)
    return entitle_error_wrap (err, "load `%s`", path);
  return ret;
}

/* A process without a capabilities object (missing or null) gets what
   the container was given from the runtime: write that down, then narrow
   it, or the trust rule would judge the narrowing against nothing.  */
static int
container_caps (const json_t *state, json_t *process, entitle_error_t *err)
{
  cleanup_json json_t *spec = NULL;
  const json_t *caps;
  int ret;

  if (entitle_caps_object (process))
    return 0;
  ret = bundle_config (state, &spec, err);
  if (UNLIKELY (ret < 0))
    return ret;
  caps = entitle_caps_object (json_get (spec, "process"));
  if (caps)
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

/* FILE as runc reads it: opened as given (a FIFO waits for its writer,
   as runc waits), read until the JSON object in it is closed (runc's
   decoder stops there and never reads the rest: a writer may keep the
   pipe open), and never more than a config (runc has no bound).  */
static int
read_process (const char *path, char **buf, size_t *len, entitle_error_t *err)
{
  cleanup_close int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  cleanup_free char *data = NULL;
  struct json_scan_s scan = { 0 };
  const size_t max = ENTITLE_MAX_CONFIG_SIZE;
  size_t n = 0, cap = 0;
  long end = 0;

  if (fd < 0)
    return entitle_make_sys_error (err, "open `%s`", path);
  /* One byte past the bound tells a larger file.  */
  while (end == 0 && n <= max)
    {
      ssize_t r;
      if (n == cap)
        {
          cap = cap == 0 ? 65536 : cap * 2;
          if (cap > max + 1)
            cap = max + 1;
          data = xrealloc (get_and_reset (&data), cap + 1);
        }
      r = read (fd, data + n, cap - n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        return entitle_make_sys_error (err, "read `%s`", path);
      if (r == 0)
        break;
      n += (size_t)r;
      end = json_scan (&scan, data, n);
    }
  *len = end > 0 ? (size_t)end : n;
  if (*len > max)
    return entitle_make_error (err, EFBIG, "`%s` is larger than %zu MiB", path, max >> 20);
  data[*len] = '\0';
  *buf = get_and_reset (&data);
  return 0;
}

/* The process of `exec --process FILE` with the container's effects, as
   compact JSON in @out.  */
static int
exec_process (struct shim_s *s, const json_t *state, const struct entitle_set_s *requested,
              const struct entitle_set_s *final, bool wraps, char **out, size_t *out_len, entitle_error_t *err)
{
  cleanup_free char *raw = NULL;
  cleanup_json json_t *process = NULL;
  cleanup_outcome struct entitle_outcome_s outcome = { 0 };
  size_t len = 0;
  int ret;

  ret = read_process (s->args.process, &raw, &len, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = json_parse (raw, len, &process, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "load `%s`", s->args.process);
  if (process->type != JSON_OBJECT)
    return entitle_make_error (err, EINVAL, "`%s`: a process must be a JSON object", s->args.process);
  /* runc reads FILE with Go: a key it reads as a field under another
     spelling must not pass unjudged.  */
  ret = entitle_oci_fields_check (process, ENTITLE_OCI_PROCESS, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "load `%s`", s->args.process);
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
    ret = json_generate_compact (process, out, out_len, err);
  return ret;
}

/* The runtime reads the process entitle judged, never FILE again (a pipe
   is read once, and FILE is the engine's: it is left as given): a copy in
   memory at /proc/self/fd/N, N past every fd the runtime passes the
   container (@final's eBPF seccomp filters are the last), so the runtime
   closes it there.  */
static int
hand_process (struct shim_s *s, const struct entitle_set_s *final, const char *text, size_t len,
              entitle_error_t *err)
{
  cleanup_close int mem = memfd_create ("entitle-process", MFD_CLOEXEC);
  cleanup_free char *path = NULL;
  int past = entitle_helper_seccomp_fd (s->ctx) + (int)entitle_layers_seccomp_filters (s->ctx, final), fd;

  if (mem < 0 || entitle_write_all (mem, text, len) < 0)
    return entitle_make_sys_error (err, "exec `%s`: the process for the runtime", s->args.id);
  /* Not close-on-exec: the runtime opens it.  */
  fd = fcntl (mem, F_DUPFD, past);
  if (fd < 0)
    return entitle_make_sys_error (err, "exec `%s`: the process for the runtime", s->args.id);
  xasprintf (&path, "/proc/self/fd/%d", fd);
  entitle_args_set_process (s->argc, s->argv, &s->args, path);
  return 0;
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
  argv = xcalloc ((size_t)s->argc + n + 1, sizeof (char *));
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

/* The set of the container @state describes, derived as create and the
   hook derive it (its annotations are the config's, in the state): never
   the record io.entitle.applied, which an image can write.  */
static int
container_set (struct shim_s *s, const json_t *state, struct entitle_set_s *requested,
               struct entitle_set_s *final, entitle_error_t *err)
{
  int ret = requested_of (&s->ctx->config->catalogue, state, requested, err);

  if (ret == 0)
    ret = entitle_resolve (s->ctx->config, requested, final, err);
  return ret;
}

int
shim_exec (struct shim_s *s, entitle_error_t *err)
{
  cleanup_entitle_set struct entitle_set_s requested = { 0 }, final = { 0 };
  cleanup_json json_t *state = NULL;
  cleanup_free char *process = NULL;
  /* crun --cgroup-manager=disabled is the only way a container's cgroup is
     one entitle-hook made (every other runtime and manager gives it its
     own, and joins it on exec).  */
  bool bpf = s->args.no_cgroup_manager && access (ENTITLE_BPF_PINS, F_OK) == 0, wraps;
  size_t process_len = 0;
  int ret;

  if (s->args.id == NULL)
    return shim_exec_runtime (s, err);
  ret = container_state (s, &state, err);
  /* A container the runtime cannot find is the runtime's error to report.  */
  if (ret < 0 && (*err)->status == ESRCH)
    {
      entitle_error_release (err);
      return shim_exec_runtime (s, err);
    }
  if (ret == 0 && bpf)
    ret = join_cgroup (state, err);
  if (ret == 0)
    ret = container_set (s, state, &requested, &final, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "exec `%s`", s->args.id);
  if (final.n == 0)
    return shim_exec_runtime (s, err);
  wraps = entitle_landlock_wraps (s->ctx, &final);
  ret = check_caps (s, &final, err);
  if (ret == 0 && s->args.process)
    ret = exec_process (s, state, &requested, &final, wraps, &process, &process_len, err);
  if (ret == 0 && wraps)
    ret = shim_seccomp_layer (s, &final, err);
  if (ret == 0 && process)
    ret = hand_process (s, &final, process, process_len, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (wraps && s->args.process == NULL)
    return exec_wrapped (s, &final, err);
  return shim_exec_runtime (s, err);
}
