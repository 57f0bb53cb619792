/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bpf-plan.h"
#include "cgroup.h"
#include "compile.h"
#include "file.h"
#include "hook.h"
#include "loader.h"
#include "probe.h"
#include "utils.h"

/* createRuntime: the runtime has put the container's init in its final
   cgroup and waits for us before pivot_root; attach there, so the policy
   binds the container from its first exec on.  poststop: forget it.  */

/* The final set, as strings ("network.egress=10.0.0.0/8:443").  */
static int
applied (struct entitle_ctx_s *ctx, const json_t *spec, char ***out, entitle_error_t *err)
{
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  size_t i;

  if (entitle_final_set (ctx, spec, &final, err) < 0)
    return -1;
  *out = calloc (final.n + 1, sizeof (char *));
  if (*out == NULL)
    return entitle_make_error (err, ENOMEM, "out of memory");
  for (i = 0; i < final.n; i++)
    if (((*out)[i] = entitle_request_format (&final.items[i])) == NULL)
      return entitle_make_error (err, ENOMEM, "out of memory");
  return 0;
}

static int
load_plan (struct entitle_ctx_s *ctx, const struct hook_state_s *st, struct entitle_bpf_plan_s *plan,
           entitle_error_t *err)
{
  cleanup_free char *path = NULL, *raw = NULL;
  cleanup_json json_t *spec = NULL;
  cleanup_strv char **list = NULL;
  size_t len;

  if (asprintf (&path, "%s/config.json", st->bundle) < 0)
    return entitle_make_error (err, ENOMEM, "out of memory");
  if (entitle_file_read (path, ENTITLE_MAX_CONFIG_SIZE, &raw, &len, err) < 0)
    return -1;
  if (json_parse (raw, len, &spec, err) < 0)
    return entitle_error_wrap (err, "load `%s`", path);
  if (applied (ctx, spec, &list, err) < 0)
    return -1;
  return entitle_bpf_plan (plan, list, spec, err);
}

/* The container's own cgroup: a child of the one it shares, if it does
   (recorded in @made, so that poststop removes it).  */
static int
own_cgroup (const struct hook_state_s *st, const char *mnt, char *dir, size_t len, char *made,
            entitle_error_t *err)
{
  char rel[PATH_MAX], child[PATH_MAX];
  int shared, n;

  if (entitle_cgroup_of_pid (st->pid, rel, sizeof (rel), err) < 0)
    return -1;
  n = snprintf (dir, len, "%s%s", mnt, strcmp (rel, "/") == 0 ? "" : rel);
  if (n < 0 || (size_t)n >= len)
    return entitle_make_error (err, ENAMETOOLONG, "cgroup path too long");
  if ((shared = entitle_cgroup_shared (dir, st->pid, err)) <= 0)
    return shared;
  if (strchr (st->id, '/') || strcmp (st->id, "..") == 0 || strcmp (st->id, ".") == 0)
    return entitle_make_error (err, EINVAL, "container id `%s` cannot name a cgroup", st->id);
  n = snprintf (child, sizeof (child), "%s/entitle-%s", dir, st->id);
  if (n < 0 || (size_t)n >= sizeof (child) || (size_t)n >= ENTITLE_OWNER_NAME || (size_t)n >= len)
    return entitle_make_error (err, ENAMETOOLONG, "cgroup path too long");
  if (mkdir (child, 0755) < 0 && errno != EEXIST)
    return entitle_make_sys_error (err, "the container shares cgroup `%s`; mkdir `%s`", dir, child);
  if (entitle_cgroup_move (child, st->pid, err) < 0)
    {
      rmdir (child);
      return -1;
    }
  strcpy (made, child);
  strcpy (dir, child);
  return 0;
}

/* Programs look for a policy ENTITLE_MAX_LEVELS deep at most.  */
static int
check_depth (const char *mnt, const char *dir, entitle_error_t *err)
{
  const char *p = dir + strlen (mnt);
  int depth = 0;

  for (; *p; p++)
    depth += *p == '/';
  if (depth > ENTITLE_MAX_LEVELS)
    return entitle_make_error (err, ELOOP, "cgroup `%s` is %d levels deep; the programs look %d deep",
                               dir, depth, ENTITLE_MAX_LEVELS);
  return 0;
}

static int
alive (uint64_t id, void *arg)
{
  return entitle_cgroup_alive (*(int *)arg, id);
}

static int
enforce (const struct hook_state_s *st, const struct entitle_bpf_plan_s *plan, entitle_error_t *err)
{
  struct entitle_owner owner = { 0 }, before;
  struct entitle_bpf_s b;
  bool again;
  char mnt[256], dir[PATH_MAX];
  cleanup_close int cgfd = -1, mntfd = -1;
  int ret;

  if (st->pid <= 0)
    return entitle_make_error (err, EINVAL, "the state on stdin has no pid");
  if (entitle_cgroup2_mount (mnt, sizeof (mnt), err) < 0)
    return -1;
  if (own_cgroup (st, mnt, dir, sizeof (dir), owner.made, err) < 0 || check_depth (mnt, dir, err) < 0)
    return -1;
  cgfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  mntfd = open (mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (cgfd < 0 || mntfd < 0)
    return entitle_make_sys_error (err, "open `%s`", cgfd < 0 ? dir : mnt);
  owner.cgroup_id = entitle_cgroup_id (cgfd);
  if (entitle_bpf_open (&b, true, err) < 0)
    return -1;
  entitle_bpf_collect (&b, alive, &mntfd);
  /* A second run for the same container (shim and hooks.d) must not
     take away what the first one gave if it fails.  */
  again = entitle_bpf_owner_get (&b, st->root, st->id, &before, err) > 0 && before.cgroup_id == owner.cgroup_id;
  /* The owner first: whatever fails later, poststop or the collector finds it.  */
  ret = entitle_bpf_owner_put (&b, st->root, st->id, &owner, err);
  if (ret == 0)
    ret = entitle_bpf_install (&b, plan, owner.cgroup_id, err);
  if (ret == 0)
    ret = entitle_bpf_attach (&b, plan, cgfd, err);
  if (ret < 0 && !again)
    entitle_bpf_forget (&b, owner.cgroup_id);
  entitle_bpf_close (&b);
  return ret;
}

int
hook_create_runtime (struct entitle_ctx_s *ctx, const struct hook_state_s *st)
{
  struct entitle_bpf_plan_s plan = { 0 };
  entitle_error_t err = NULL;
  cleanup_free char *names = NULL;
  int ret = load_plan (ctx, st, &plan, &err);

  if (ret > 0)
    ret = enforce (st, &plan, &err);
  if (ret < 0 && plan.needs && (names = entitle_bpf_quote (plan.needs, PROBE_CG_ALL)) != NULL)
    {
      /* A restriction nothing here can enforce: refuse, unless the admin
         chose to run without it.  */
      if (ctx->config->warn_unenforceable)
        entitle_log_warning (ctx->log, "%s not enforced: cgroup BPF: %s", names, err->msg);
      else
        entitle_log_error (ctx->log, "%s cannot be enforced here: cgroup BPF: %s", names, err->msg);
      if (ctx->config->warn_unenforceable)
        ret = 0;
    }
  else if (ret < 0)
    entitle_log_error (ctx->log, "%s", err->msg);
  entitle_error_release (&err);
  entitle_bpf_plan_free (&plan);
  return ret < 0 ? -1 : 0;
}

int
hook_poststop (struct entitle_ctx_s *ctx, const struct hook_state_s *st)
{
  struct entitle_owner owner;
  struct entitle_bpf_s b;
  entitle_error_t err = NULL;
  char mnt[256];
  cleanup_close int mntfd = -1;

  if (entitle_bpf_open (&b, false, &err) <= 0)
    return 0; /* nothing was ever loaded: nothing to remove */
  if (entitle_bpf_owner_get (&b, st->root, st->id, &owner, &err) > 0)
    {
      entitle_bpf_forget (&b, owner.cgroup_id);
      if (owner.made[0] && rmdir (owner.made) < 0 && errno != ENOENT)
        entitle_log_warning (ctx->log, "rmdir `%s`: %s", owner.made, strerror (errno));
      entitle_bpf_owner_del (&b, st->root, st->id);
    }
  if (entitle_cgroup2_mount (mnt, sizeof (mnt), &err) == 0
      && (mntfd = open (mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
    entitle_bpf_collect (&b, alive, &mntfd);
  entitle_error_release (&err);
  entitle_bpf_close (&b);
  return 0;
}
