/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "admin-config.h"
#include "store-read.h"
#include "cap-watch.h"
#include "cgroup.h"
#include "cgroup-record.h"
#include "commands.h"
#include "compile.h"
#include "file.h"
#include "observe.h"
#include "propose.h"
#include "request.h"
#include "resolve.h"
#include "seccomp-notify.h"
#include "seccomp-rules.h"
#include "trust.h"
#include "utils.h"

/* entitle learn -b DIR [--duration S] [--json] [--write]: run the bundle's
   container once through the wrapped runtime, with the engine's config as
   given and only logging added (lib/read/observe.h), then propose the
   narrowest entitlements that let it do what it did, each with a line of
   evidence (lib/read/propose.h); --write puts them in the bundle's
   io.entitle.entitlements, atomically, as create writes config.json.

   The run is `create`, then `start`: the capability programs (bpf/cap-watch.h)
   watch the container's cgroup from between the two, when the runtime has
   set the container up (its mounts, pivot_root and capability sets take
   capabilities the command never asks for) and the command has not run.  */

#define DEFAULT_SECONDS 10
#define KILL_GRACE_MS   10000 /* after the kill, for the runtime to end */
#define CREATE_MS       60000 /* for `create`, before the duration starts */

struct learn_opts
{
  const char *bundle;
  double seconds;
  bool json, write;
};

struct run_s
{
  char dir[64];   /* the scratch directory */
  char id[64];    /* the container's id */
  int status;     /* the container's exit status */
  bool timed_out; /* still running after the duration: killed */
  double seconds; /* how long it ran */
  double end;     /* when the duration is up (CLOCK_MONOTONIC), from `start` on */
};

static int
take_opt (struct shim_s *s, void *data, enum shim_key key, const char *value, entitle_error_t *err)
{
  struct learn_opts *o = data;
  char *end;

  if (key == KEY_JSON)
    o->json = true;
  else if (key == KEY_WRITE)
    o->write = true;
  else if (key == KEY_BUNDLE)
    o->bundle = value;
  else if (key == KEY_DURATION)
    {
      o->seconds = strtod (value, &end);
      if (*end != '\0' || end == value || o->seconds <= 0 || o->seconds > 86400)
        return entitle_make_error (err, EINVAL, "learn: `--duration` needs seconds, more than 0");
    }
  else
    shim_usage_error (s, "learn: unexpected argument `%s`", value);
  return 0;
}

static int
parse_opts (struct shim_s *s, struct learn_opts *o, entitle_error_t *err)
{
  int ret;

  o->seconds = DEFAULT_SECONDS;
  ret = shim_parse (s, o, take_opt, err);
  if (o->bundle == NULL)
    o->bundle = ".";
  return ret;
}

static int
remove_one (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  remove (path);
  return 0;
}

/* The hook that attaches the counting programs: the same admin config,
   so that it records the container where entitle why and learn look.  */
static json_t *
learn_hook (struct shim_s *s, const char *root)
{
  json_t *hook = json_new (JSON_OBJECT), *args = json_new (JSON_ARRAY);
  const char *a[] = { "entitle-hook", "createRuntime", "--learn", "--root", root, "--config",
                      entitle_config_arg (s->ctx->config) };
  char buf[PATH_MAX];
  size_t i;

  for (i = 0; i < sizeof (a) / sizeof (a[0]); i++)
    json_push (args, json_new_string (a[i]));
  json_set (hook, "path", json_new_string (entitle_config_hook (s->ctx->config, buf, sizeof (buf))));
  json_set (hook, "args", args);
  return hook;
}

/* The scratch bundle: the engine's config, observed.  */
static int
write_bundle (struct shim_s *s, const struct learn_opts *o, const json_t *engine, struct run_s *r,
              entitle_error_t *err)
{
  cleanup_json json_t *spec = json_clone (engine);
  cleanup_free char *bundle = realpath (o->bundle, NULL), *out = NULL, *path = NULL, *sock = NULL, *root = NULL;
  cleanup_close int fd = -1;
  size_t len;
  int ret;

  if (bundle == NULL)
    return entitle_make_sys_error (err, "learn: bundle `%s`", o->bundle);
  xasprintf (&path, "%s/bundle", r->dir);
  xasprintf (&sock, "%s/notify.sock", r->dir);
  xasprintf (&root, "%s/root", r->dir);
  entitle_observe_config (spec, bundle, sock, learn_hook (s, root));
  ret = json_generate_compact (spec, &out, &len, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (mkdir (path, 0700) < 0 || mkdir (root, 0700) < 0)
    return entitle_make_sys_error (err, "learn: mkdir in `%s`", r->dir);
  free (path);
  xasprintf (&path, "%s/bundle/config.json", r->dir);
  fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0 || entitle_write_all (fd, out, len) < 0)
    return entitle_make_sys_error (err, "learn: write `%s`", path);
  return 0;
}

/* runtime --root DIR/root ARGS... in a child; its stdout goes to our
   stderr, so that ours holds only the proposal.  */
static pid_t
spawn_runtime (struct shim_s *s, const struct run_s *r, const char *const *args)
{
  char root[96], bundle[96], pidfile[96];
  const char *argv[12] = { s->runtime, "--root", root };
  size_t n = 3;
  pid_t pid;

  snprintf (root, sizeof (root), "%s/root", r->dir);
  snprintf (bundle, sizeof (bundle), "%s/bundle", r->dir);
  snprintf (pidfile, sizeof (pidfile), "%s/pid", r->dir);
  for (; *args && n < 10; args++)
    argv[n++] = strcmp (*args, "BUNDLE") == 0 ? bundle : strcmp (*args, "PIDFILE") == 0 ? pidfile
                                                                                        : *args;
  argv[n] = NULL;
  if ((pid = fork ()) == 0)
    {
      int null = open ("/dev/null", O_RDONLY | O_CLOEXEC);
      dup2 (null, STDIN_FILENO);
      dup2 (STDERR_FILENO, STDOUT_FILENO);
      execv (s->runtime, (char *const *)argv);
      _exit (127);
    }
  return pid;
}

/* The runtime's exit status, or -1.  */
static int
runtime_wait (struct shim_s *s, const struct run_s *r, const char *const *args)
{
  pid_t pid = spawn_runtime (s, r, args);
  int status = -1;

  if (pid > 0)
    waitpid (pid, &status, 0);
  return status;
}

static double
now_s (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int
left_ms (const struct run_s *r)
{
  double left = r->end - now_s ();
  return left > 0 ? (int)(left * 1000) : 0;
}

/* Answer the seccomp listener until @pid ends (1) or @timeout_ms pass
   (0).  */
static int
serve_until (struct entitle_notify_s *l, pid_t pid, int timeout_ms, entitle_error_t *err)
{
  cleanup_close int pidfd = (int)syscall (SYS_pidfd_open, pid, 0);

  if (pidfd < 0)
    return entitle_make_sys_error (err, "learn: pidfd_open");
  return entitle_notify_serve (l, pidfd, timeout_ms, err);
}

/* `create`, answering the listener (the runtime sends it the filter's fd
   meanwhile); the container's init pid from the pid file.  */
static int
create (struct shim_s *s, struct run_s *r, struct entitle_notify_s *l, pid_t *init, entitle_error_t *err)
{
  const char *args[] = { "create", "--pid-file", "PIDFILE", "-b", "BUNDLE", r->id, NULL };
  cleanup_free char *path = NULL, *buf = NULL;
  pid_t pid = spawn_runtime (s, r, args);
  int status = -1, ret;
  size_t len;

  if (pid < 0)
    return entitle_make_sys_error (err, "learn: fork");
  ret = serve_until (l, pid, CREATE_MS, err);
  if (ret == 0)
    kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  if (UNLIKELY (ret < 0))
    return ret;
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return entitle_make_error (err, EIO, "learn: the runtime could not create the container (its message is above)");
  xasprintf (&path, "%s/pid", r->dir);
  ret = entitle_file_read (path, 64, &buf, &len, err);
  if (ret == 0 && (*init = (pid_t)strtol (buf, NULL, 10)) <= 0)
    ret = entitle_make_error (err, EIO, "learn: no pid in `%s`", path);
  return ret;
}

/* Watch the cgroup of @init, where the runtime (and entitle-hook) put the
   container: its id, and its level below the cgroup2 root.  */
static int
arm_caps (struct entitle_cap_watch_s *caps, pid_t init, entitle_error_t *err)
{
  char mnt[256], rel[PATH_MAX], dir[PATH_MAX + 256];
  unsigned level = 0;
  struct stat st;
  int ret;

  if (caps->skel == NULL)
    return 0;
  ret = entitle_cgroup2_mount (mnt, sizeof (mnt), err);
  if (ret == 0)
    ret = entitle_cgroup_of_pid (init, rel, sizeof (rel), err);
  if (UNLIKELY (ret < 0))
    return ret;
  snprintf (dir, sizeof (dir), "%s%s", mnt, rel);
  if (stat (dir, &st) < 0)
    return entitle_make_sys_error (err, "learn: the container's cgroup `%s`", dir);
  for (const char *c = rel; *c; c++)
    level += c[0] == '/' && c[1] != '\0';
  entitle_cap_watch_arm (caps, (uint64_t)st.st_ino, level);
  return 0;
}

/* The container's init ended, or the duration is up: then it is killed.  */
static int
wait_init (struct shim_s *s, struct run_s *r, struct entitle_notify_s *l, pid_t init, entitle_error_t *err)
{
  const char *kill_args[] = { "kill", r->id, "KILL", NULL };
  int ret = serve_until (l, init, left_ms (r), err);

  if (ret == 0)
    {
      r->timed_out = true;
      runtime_wait (s, r, kill_args);
      ret = serve_until (l, init, KILL_GRACE_MS, err);
      if (ret == 0)
        kill (init, SIGKILL);
    }
  /* Ours to reap (the child subreaper) once `create` left it.  */
  waitpid (init, &r->status, 0);
  return ret < 0 ? ret : 0;
}

/* Run the container, answering the seccomp listener, for the duration at
   most; then kill it.  */
static int
run (struct shim_s *s, const struct learn_opts *o, struct run_s *r, struct entitle_notify_s *l,
     struct entitle_cap_watch_s *caps, entitle_error_t *err)
{
  const char *start_args[] = { "start", r->id, NULL };
  const char *delete_args[] = { "delete", "-f", r->id, NULL };
  double begin = now_s ();
  pid_t init = -1;
  int ret;

  prctl (PR_SET_CHILD_SUBREAPER, 1);
  ret = create (s, r, l, &init, err);
  if (ret == 0)
    ret = arm_caps (caps, init, err);
  r->end = now_s () + o->seconds;
  if (ret == 0 && runtime_wait (s, r, start_args) != 0)
    ret = entitle_make_error (err, EIO, "learn: the runtime could not start the container (its message is above)");
  if (ret == 0)
    ret = wait_init (s, r, l, init, err);
  r->seconds = now_s () - begin;
  runtime_wait (s, r, delete_args);
  return ret;
}

/* What the counting programs recorded for the run's cgroup.  */
static int
recorded_uses (struct shim_s *s, const struct run_s *r, struct entitle_event **uses, size_t *n,
               entitle_error_t *err)
{
  char root[96];
  size_t n_rec = 0, n_all = 0, i, k;
  struct entitle_cgroup_record_s *rec;
  struct entitle_event *all = NULL;
  int ret;

  snprintf (root, sizeof (root), "%s/root", r->dir);
  rec = entitle_cgroup_record_find (s->ctx->config->state_dir, root, r->id, &n_rec);
  *uses = NULL;
  *n = 0;
  if (n_rec == 0)
    {
      free (rec);
      return entitle_make_error (err, EIO, "learn: entitle-hook did not record the run (did the container start?)");
    }
  ret = entitle_store_read (&all, &n_all, err);
  for (i = k = 0; ret == 0 && i < n_all; i++)
    if (all[i].cgroup == rec[0].cgroup_id && all[i].rule == 0)
      all[k++] = all[i];
  *uses = all;
  *n = k;
  for (i = 0; i < n_rec; i++)
    entitle_cgroup_record_free (&rec[i]);
  free (rec);
  return ret;
}

static unsigned
unprivileged_port (void)
{
  cleanup_free char *buf = NULL;
  entitle_error_t err = NULL;
  size_t len;

  if (entitle_file_read ("/proc/sys/net/ipv4/ip_unprivileged_port_start", 64, &buf, &len, &err) < 0)
    {
      entitle_error_release (&err);
      return 1024;
    }
  return (unsigned)strtoul (buf, NULL, 10);
}

/* The config's linux.sysctl keys: the runtime writes them, not the
   workload.  */
static char **
sysctl_keys (const json_t *spec)
{
  const json_t *sys = json_get (json_get (spec, "linux"), "sysctl");
  size_t i, n = sys && sys->type == JSON_OBJECT ? sys->n : 0;
  char **keys = xcalloc (n + 1, sizeof (char *));
  for (i = 0; i < n; i++)
    keys[i] = xstrdup (sys->keys[i]);
  return keys;
}

/* The capability programs, by the first way this kernel takes; where none,
   why not, as a note of the proposal, into @why.  */
static void
open_caps (struct entitle_cap_watch_s *caps, char *why, size_t len)
{
  entitle_error_t err = NULL;

  why[0] = '\0';
  if (entitle_cap_watch_open (caps, &err) < 0)
    {
      snprintf (why, len, "capabilities: not observed on this kernel: %s", err->msg);
      entitle_error_release (&err);
    }
}

/* The proposal @p but its item @skip, as an annotation holds it
   (malloc'd).  */
static char *
list_but (const struct entitle_proposal_s *p, size_t skip)
{
  struct entitle_proposal_s rest = *p;
  cleanup_free struct entitle_proposed_s *items = xcalloc (p->n + 1, sizeof (*items));
  size_t i, n = 0;
  for (i = 0; i < p->n; i++)
    if (i != skip)
      items[n++] = p->items[i];
  rest.items = items;
  rest.n = n;
  return entitle_proposal_list (&rest);
}

/* The narrower choice of item @k leaves its ladder to the engine's
   config: check that the rest of the proposal, compiled onto @engine,
   lets the evidence's syscalls through (where the engine gave no profile
   and the rest needs one, entitle writes one that leaves some out), and
   else say that no narrower choice covers them.  */
static int
check_narrower (struct shim_s *s, const json_t *engine, struct entitle_proposal_s *p, size_t k,
                entitle_error_t *err)
{
  struct entitle_proposed_s *it = &p->items[k];
  cleanup_free char *rest = list_but (p, k);
  cleanup_json json_t *copy = json_clone (engine);
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  cleanup_outcome struct entitle_outcome_s out = { 0 };
  const json_t *seccomp;
  char **name;
  int ret;

  ret = entitle_parse_list (NULL, rest, "the proposal", &set, err);
  if (ret == 0)
    ret = entitle_compile (s->ctx, copy, &set, &out, err);
  if (UNLIKELY (ret < 0))
    return ret;
  seccomp = json_get (json_get (copy, "linux"), "seccomp");
  for (name = it->narrower_syscalls; *name; name++)
    if (!entitle_seccomp_lets_through (seccomp, *name))
      {
        free (it->narrower);
        xasprintf (&it->narrower, "none: the rest of the proposal (%s) refuses %s() on the engine's config", rest,
                   *name);
        break;
      }
  return 0;
}

/* Of each rung or giver proposed, whether it widens the engine's config
   @engine (as the trust rule judges what an image asks for) and whether
   the admin config grants it: a proposal that widens needs the admin's
   grant, and says what narrower choice covers its evidence.  */
static int
judge_widening (struct shim_s *s, const json_t *engine, struct entitle_proposal_s *p, entitle_error_t *err)
{
  size_t i;

  for (i = 0; i < p->n; i++)
    {
      struct entitle_proposed_s *it = &p->items[i];
      struct entitle_request_s req = { 0 };
      int ret;

      if (it->narrower == NULL)
        continue;
      ret = entitle_parse_one (NULL, it->entitlement, strlen (it->entitlement), &req, err);
      if (ret == 0)
        ret = entitle_request_widens (s->ctx, engine, &req, &it->widens, err);
      it->granted = ret == 0 && entitle_granted (s->ctx->config, &req);
      free (req.value);
      if (ret == 0 && it->widens && it->narrower_syscalls)
        ret = check_narrower (s, engine, p, i, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  return 0;
}

static const char *
grant_word (const struct entitle_proposed_s *it)
{
  return it->granted ? "granted by the admin config" : "needs the admin's grant";
}

static void
print_text (const struct entitle_proposal_s *p)
{
  cleanup_free char *list = entitle_proposal_list (p);
  size_t i;

  printf ("entitlements: %s\n", list);
  for (i = 0; i < p->n; i++)
    {
      printf ("  %s: %s\n", p->items[i].entitlement, p->items[i].evidence);
      if (p->items[i].widens)
        printf ("    widens the engine's config: %s; narrower: %s\n", grant_word (&p->items[i]),
                p->items[i].narrower);
    }
}

static int
print (const struct entitle_proposal_s *p, const struct run_s *r, const char *caps_way, bool json,
       entitle_error_t *err)
{
  cleanup_free char *list = entitle_proposal_list (p);
  cleanup_json json_t *doc = json_new (JSON_OBJECT);
  json_t *items = json_get_or_add (doc, "proposal", JSON_ARRAY), *notes, *run;
  size_t i;

  if (!json)
    {
      print_text (p);
      printf ("not observed:\n");
      for (i = 0; p->not_observed && p->not_observed[i]; i++)
        printf ("  %s\n", p->not_observed[i]);
      printf ("the run: %.1f s, %s", r->seconds, r->timed_out ? "stopped at the duration" : "ended on its own");
      if (caps_way)
        printf ("; capabilities seen by %s", caps_way);
      printf ("\n");
      return 0;
    }
  json_set (doc, "entitlements", json_new_string (list));
  for (i = 0; i < p->n; i++)
    {
      json_t *o = json_new (JSON_OBJECT);
      json_set (o, "entitlement", json_new_string (p->items[i].entitlement));
      json_set (o, "evidence", json_new_string (p->items[i].evidence));
      json_set (o, "widens", json_new_bool (p->items[i].widens));
      if (p->items[i].widens)
        {
          json_set (o, "grant", json_new_string (p->items[i].granted ? "granted" : "needed"));
          json_set (o, "narrower", json_new_string (p->items[i].narrower));
        }
      json_push (items, o);
    }
  notes = json_get_or_add (doc, "not_observed", JSON_ARRAY);
  for (i = 0; p->not_observed && p->not_observed[i]; i++)
    json_push (notes, json_new_string (p->not_observed[i]));
  run = json_get_or_add (doc, "run", JSON_OBJECT);
  json_set (run, "seconds", json_new_uint ((unsigned long long)(r->seconds + 0.5)));
  json_set (run, "timed_out", json_new_bool (r->timed_out));
  json_set (run, "capabilities", caps_way ? json_new_string (caps_way) : json_new (JSON_NULL));
  return shim_print_json (doc, err);
}

/* --write: the proposal into the bundle's annotation, as create writes
   config.json (atomic; mode and owner kept).  */
static int
write_annotation (const char *path, const struct entitle_proposal_s *p, entitle_error_t *err)
{
  cleanup_free char *raw = NULL, *out = NULL, *list = entitle_proposal_list (p);
  cleanup_json json_t *spec = NULL;
  size_t len;
  int ret = shim_load_json (path, &raw, &len, &spec, err);

  if (ret == 0 && spec->type != JSON_OBJECT)
    ret = entitle_make_error (err, EINVAL, "`%s`: config is not a JSON object", path);
  if (UNLIKELY (ret < 0))
    return ret;
  json_set (json_get_or_add (spec, "annotations", JSON_OBJECT), ENTITLE_ANNOTATION, json_new_string (list));
  ret = json_generate_compact (spec, &out, &len, err);
  if (ret == 0)
    ret = entitle_file_write_atomic (path, out, len, err);
  return ret;
}

static int
learn (struct shim_s *s, const struct learn_opts *o, const char *path, const json_t *engine, struct run_s *r,
       entitle_error_t *err)
{
  struct entitle_notify_s l = { .sock = -1 };
  struct entitle_cap_watch_s caps = { 0 };
  struct entitle_cap_use_s cap_uses[ENTITLE_CAP_WATCH_USES];
  cleanup_free struct entitle_event *uses = NULL;
  cleanup_strv char **keys = sysctl_keys (engine);
  struct entitle_proposal_s p;
  char sock[96], caps_why[512] = "";
  size_t n_uses = 0, n_caps = 0;
  int ret;

  snprintf (sock, sizeof (sock), "%s/notify.sock", r->dir);
  ret = write_bundle (s, o, engine, r, err);
  if (ret == 0)
    ret = entitle_notify_listen (&l, sock, err);
  if (ret == 0)
    open_caps (&caps, caps_why, sizeof (caps_why));
  if (ret == 0)
    ret = run (s, o, r, &l, &caps, err);
  if (ret == 0 && caps.skel)
    n_caps = entitle_cap_watch_read (&caps, cap_uses, sizeof (cap_uses) / sizeof (cap_uses[0]));
  if (ret == 0)
    ret = recorded_uses (s, r, &uses, &n_uses, err);
  if (ret == 0)
    {
      struct entitle_observed_s obs = { .events = uses,
                                        .n_events = n_uses,
                                        .syscalls = l.uses,
                                        .n_syscalls = l.n_uses,
                                        .syscalls_seen = l.connected,
                                        .caps = cap_uses,
                                        .n_caps = n_caps,
                                        .caps_seen = caps.skel != NULL,
                                        .sysctl_keys = keys,
                                        .unprivileged_port = unprivileged_port () };
      entitle_propose (&obs, &p);
      if (caps_why[0])
        entitle_proposal_note (&p, caps_why);
      ret = judge_widening (s, engine, &p, err);
      if (ret == 0)
        ret = print (&p, r, caps.way, o->json, err);
      if (ret == 0 && o->write)
        ret = write_annotation (path, &p, err);
      entitle_proposal_free (&p);
    }
  entitle_notify_close (&l);
  if (caps.skel)
    entitle_cap_watch_close (&caps);
  return ret;
}

int
shim_learn (struct shim_s *s, entitle_error_t *err)
{
  struct learn_opts o = { 0 };
  struct run_s r = { 0 };
  cleanup_free char *runtime = NULL, *path = NULL, *raw = NULL;
  cleanup_json json_t *engine = NULL;
  size_t len;
  int ret;

  ret = parse_opts (s, &o, err);
  if (ret == 0)
    ret = shim_find_runtime (s, &runtime, err);
  if (UNLIKELY (ret < 0))
    return ret;
  xasprintf (&path, "%s/config.json", o.bundle);
  ret = shim_load_json (path, &raw, &len, &engine, err);
  if (ret == 0 && engine->type != JSON_OBJECT)
    ret = entitle_make_error (err, EINVAL, "`%s`: config is not a JSON object", path);
  if (UNLIKELY (ret < 0))
    return ret;
  snprintf (r.dir, sizeof (r.dir), "/tmp/entitle-learn-XXXXXX");
  if (mkdtemp (r.dir) == NULL)
    return entitle_make_sys_error (err, "learn: mkdtemp");
  snprintf (r.id, sizeof (r.id), "entitle-learn-%d", (int)getpid ());
  ret = learn (s, &o, path, engine, &r, err);
  nftw (r.dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  if (UNLIKELY (ret < 0))
    return ret;
  exit (EXIT_SUCCESS);
}
