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
#include "alone.h"
#include "bpf-plan.h"
#include "cgroup.h"
#include "cgroup-record.h"
#include "request.h"
#include "file.h"
#include "hook.h"
#include "install.h"
#include "loader.h"
#include "lsm.h"
#include "oci-fields.h"
#include "probe.h"
#include "probe-cache.h"
#include "outcome.h"
#include "propose.h"
#include "utils.h"

/* createRuntime: the runtime has put the container's init in its final
   cgroup and waits for us before pivot_root; attach there and write the
   policy, so that it binds the container from its first exec on.
   poststop: remove a cgroup made here (everything else goes with the
   cgroup).  */

static int
read_config (const struct hook_state_s *st, json_t **spec, entitle_error_t *err)
{
  cleanup_free char *path = NULL, *raw = NULL;
  size_t len;
  int ret;

  xasprintf (&path, "%s/config.json", st->bundle);
  ret = entitle_file_read (path, ENTITLE_MAX_CONFIG_SIZE, &raw, &len, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = json_parse (raw, len, spec, err);
  if (ret == 0)
    ret = entitle_oci_fields_check (*spec, ENTITLE_OCI_CONFIG, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "load `%s`", path);
  return 0;
}

/* The list of the comma-separated @keys (--sysctls, the wire format of
   create's list), malloc'd and NULL-terminated.  */
static char **
split_keys (const char *keys)
{
  cleanup_free char *copy = xstrdup (keys);
  char **out = xcalloc (strlen (keys) / 2 + 2, sizeof (char *));
  char *save = NULL;
  size_t n = 0;

  for (char *k = strtok_r (copy, ",", &save); k; k = strtok_r (NULL, ",", &save))
    if (!entitle_strv_has (out, k))
      out[n++] = xstrdup (k);
  return out;
}

/* The plan for the final set @final of the container: derived from its
   request and the admin config, as create derived it, never from
   io.entitle.applied.  The state on stdin carries the config's
   annotations, and create gives the hook the linux.sysctl keys
   (--sysctls) that security.confined's program lets through: the config
   itself, which can be megabytes, is read only where one of them is
   missing (a container without the annotation, whose process.env may ask;
   the hook from hooks.d).  */
static int
load_plan (struct entitle_ctx_s *ctx, const struct hook_state_s *st, struct entitle_set_s *final,
           struct entitle_bpf_plan_s *plan, entitle_error_t *err)
{
  cleanup_json json_t *spec = NULL;
  cleanup_strv char **keys = NULL;
  int ret = 0;

  /* In entitle-full, after the runtime's create: the set create decided
     and the config it wrote.  */
  if (st->final)
    {
      keys = entitle_sysctl_keys (st->spec);
      return entitle_bpf_plan (plan, st->final, keys, err);
    }
  if (!entitle_request_in_annotations (st->doc))
    ret = read_config (st, &spec, err);
  if (ret == 0)
    ret = entitle_final_set (ctx, spec ? spec : st->doc, final, err);
  if (ret == 0 && spec == NULL && entitle_bpf_reads_sysctls (final))
    {
      if (st->sysctls)
        keys = split_keys (st->sysctls);
      else
        ret = read_config (st, &spec, err);
    }
  if (UNLIKELY (ret < 0))
    return ret;
  if (keys == NULL)
    keys = entitle_sysctl_keys (spec ? spec : st->doc);
  return entitle_bpf_plan (plan, final, keys, err);
}

/* A child cgroup of the one the container shares with its caller: made,
   filled and recorded under the records' lock (the collector of another
   hook must not take it while it is empty).  */
static int
make_child (struct entitle_ctx_s *ctx, const struct hook_state_s *st, const char *mnt, char *dir, size_t len,
            entitle_error_t *err)
{
  char child[PATH_MAX];
  struct stat sb;
  int n, ret;

  if (strchr (st->id, '/') || strcmp (st->id, "..") == 0 || strcmp (st->id, ".") == 0)
    return entitle_make_error (err, EINVAL, "container id `%s` cannot name a cgroup", st->id);
  n = snprintf (child, sizeof (child), "%s/entitle-%s", dir, st->id);
  if (n < 0 || (size_t)n >= sizeof (child) || (size_t)n >= len)
    return entitle_make_error (err, ENAMETOOLONG, "cgroup path too long");
  if (mkdir (child, 0755) < 0 && errno != EEXIST)
    return entitle_make_sys_error (err, "the container shares cgroup `%s`; mkdir `%s`", dir, child);
  if (stat (child, &sb) < 0)
    ret = entitle_make_sys_error (err, "stat `%s`", child);
  else
    ret = entitle_cgroup_move (child, st->pid, err);
  /* Recorded by its place below the cgroup2 root and its id (made.c).  */
  if (ret == 0)
    ret = hook_made_record (ctx->config->state_dir, st->root, st->id, child + strlen (mnt), (uint64_t)sb.st_ino, err);
  if (ret < 0)
    {
      rmdir (child);
      return ret;
    }
  strcpy (dir, child);
  return 0;
}

/* The container's own cgroup into @dir.  Where the runtime manages none
   (crun --cgroup-manager=disabled) the container is in its caller's,
   which is ours too: a child is made for it (@parent, PATH_MAX long,
   receives the caller's; "" when none is made).  A cgroup the runtime chose
   that holds other processes (two containers given one cgroupsPath) is
   refused: no policy there would be the container's alone, and an exec
   into one would land outside the other's.  */
static int
own_cgroup (struct entitle_ctx_s *ctx, const struct hook_state_s *st, const char *mnt, char *dir, size_t len,
            char *parent, entitle_error_t *err)
{
  char rel[PATH_MAX], mine[PATH_MAX];
  cleanup_close int lock = -1;
  int shared, n, ret;

  parent[0] = '\0';
  ret = entitle_cgroup_of_pid (st->pid, rel, sizeof (rel), err);
  if (ret == 0)
    ret = entitle_cgroup_of_pid (getpid (), mine, sizeof (mine), err);
  if (UNLIKELY (ret < 0))
    return ret;
  n = snprintf (dir, len, "%s%s", mnt, strcmp (rel, "/") == 0 ? "" : rel);
  if (n < 0 || (size_t)n >= len)
    return entitle_make_error (err, ENAMETOOLONG, "cgroup path too long");
  if ((shared = entitle_cgroup_shared (dir, st->pid, err)) <= 0)
    return shared;
  if (strcmp (rel, mine) != 0)
    return entitle_make_error (err, EBUSY, "the container's cgroup `%s` holds other processes: no policy there could be its own",
                               dir);
  strcpy (parent, dir);
  /* The records of made cgroups are kept, and collected, only here: a
     runtime that manages cgroups (runc, crun with a manager) never gets
     one, and its containers pay nothing for them.  */
  lock = hook_made_lock (ctx->config->state_dir, err);
  if (UNLIKELY (lock < 0))
    return lock;
  hook_made_collect (ctx->config->state_dir);
  return make_child (ctx, st, mnt, dir, len, err);
}

/* The BPF LSM layer, where the kernel runs it (its programs are pinned
   only then) and the policy has bits its programs read.  The runtime's
   init, @pid, is marked as in its setup first: the runtime mounts the
   container's root after this hook, from inside the cgroup.  After the
   runtime's create (@pid 0) its setup is over: no mark.  */
static int
attach_lsm (const struct entitle_policy *policy, pid_t pid, int cgfd, entitle_error_t *err)
{
  struct entitle_lsm_s l;
  int ret = 0;

  if (!(policy->flags & entitle_layer_bits (entitle_lsm_progs, ENTITLE_LSM_PROGS)) || entitle_lsm_open (ENTITLE_BPF_DIR, &l) == 0)
    return 0;
  if ((policy->flags & POL_CONFINED) && pid > 0)
    ret = entitle_lsm_mark_setup (&l, pid, err);
  if (ret == 0)
    ret = entitle_lsm_attach (&l, policy->flags, cgfd, err);
  entitle_lsm_close (&l);
  return ret;
}

static int
attach_and_write (struct entitle_ctx_s *ctx, struct entitle_bpf_plan_s *plan, pid_t pid, const char *mnt,
                  const char *dir, entitle_error_t *err)
{
  struct entitle_bpf_s b;
  cleanup_close int cgfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int ret;

  if (cgfd < 0)
    return entitle_make_sys_error (err, "open `%s`", dir);
  /* The programs' records name the cgroup by it (they may run where
     another cgroup is current: packets, a cgroup made below).  */
  plan->policy.cgroup = entitle_cgroup_id (cgfd);
  if (plan->custom || plan->checmate)
    {
      ret = hook_attach_custom (ctx, plan, cgfd, plan->policy.cgroup, mnt, err);
      if (UNLIKELY (ret < 0) || plan->attach == 0)
        return ret;
    }
  ret = entitle_bpf_open (&b, true, err);
  if (UNLIKELY (ret < 0))
    return ret;
  hook_keep_warm (&b, mnt);
  /* Attached first: the cgroup's storage exists from the first attach on,
     zeroed (nothing enforced), until the policy is written; the
     container's init waits for this hook meanwhile.  */
  ret = entitle_bpf_attach (&b, plan->attach, cgfd, err);
  if (ret == 0)
    ret = entitle_bpf_install (&b, &plan->policy, plan->policy.cgroup, err);
  entitle_bpf_close (&b);
  if (ret == 0)
    ret = attach_lsm (&plan->policy, pid, cgfd, err);
  /* Beside the cgroup programs: the Checmate layer where the kernel has
     it.  */
  if (ret == 0)
    ret = hook_checmate (ctx, &plan->policy, plan->policy.cgroup, mnt, err);
  return ret;
}

/* Which container the cgroup is, for `entitle why` (lib/host/cgroup-record.h).
   Records of gone cgroups are collected at create, in the record's own
   shard (one in 256, by the cgroup's id), not at poststop, which may not
   run.  A record that cannot be written costs `why` the container's name,
   not the container: a warning.  */
static void
record_owner (struct entitle_ctx_s *ctx, const struct hook_state_s *st, const char *mnt, uint64_t cgroup_id,
              const struct entitle_set_s *final)
{
  static const struct entitle_set_s none = { NULL, 0 };
  cleanup_free char *entitlements = entitle_set_format (final ? final : &none);
  cleanup_free char *sources = entitle_set_format_sources (final ? final : &none);
  struct entitle_cgroup_record_s r = { .cgroup_id = cgroup_id,
                                       .root = st->root,
                                       .id = st->id,
                                       .bundle = st->bundle,
                                       .entitlements = entitlements,
                                       .sources = sources };
  entitle_error_t err = NULL;

  if (entitle_cgroup_record_write (ctx->config->state_dir, &r, &err) < 0)
    {
      entitle_log_warning (ctx->log, "%s", err->msg);
      entitle_error_release (&err);
    }
  entitle_cgroup_record_collect (ctx->config->state_dir, mnt, cgroup_id);
}

/* @final: the set enforced, for the record; NULL for entitle learn's run.  */
static int
enforce (struct entitle_ctx_s *ctx, const struct hook_state_s *st, struct entitle_bpf_plan_s *plan,
         const struct entitle_set_s *final, entitle_error_t *err)
{
  char mnt[256], dir[PATH_MAX], parent[PATH_MAX];
  int ret;

  if (st->pid <= 0)
    return entitle_make_error (err, EINVAL, "the state on stdin has no pid");
  ret = entitle_cgroup2_mount (mnt, sizeof (mnt), err);
  if (UNLIKELY (ret < 0))
    return ret;
  hook_made_carry_over (ctx->config->state_dir);
  ret = own_cgroup (ctx, st, mnt, dir, sizeof (dir), parent, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = attach_and_write (ctx, plan, st->spec ? 0 : st->pid, mnt, dir, err);
  if (ret == 0)
    record_owner (ctx, st, mnt, plan->policy.cgroup, final);
  /* The create fails: a cgroup made for it goes now, not at the next
     hook (the runtime runs no poststop for a container it never made).  */
  if (ret < 0 && parent[0])
    {
      entitle_error_t moved = NULL;
      if (entitle_cgroup_move (parent, st->pid, &moved) == 0)
        hook_made_remove (ctx->config->state_dir, st->root, st->id, ctx->log);
      entitle_error_release (&moved);
    }
  return ret;
}

/* With on_unenforceable "warn": the programs this host lacks (by this
   boot's probe) are left out with a warning; every other restriction
   stays.  Without it the hook does not read the probe: create checked
   it before the runtime started, and an attach this host cannot do fails
   on its own, naming what it could not attach (a host the probe cannot
   read is left to the attach likewise).  */
static int
leave_out_missing (struct entitle_ctx_s *ctx, const struct entitle_set_s *final, struct entitle_bpf_plan_s *plan,
                   entitle_error_t *err)
{
  struct entitle_probe_s probe;
  entitle_error_t why = NULL;
  cleanup_free char *names = NULL;
  char reason[256];
  unsigned missing;
  int ret;

  if (!ctx->config->warn_unenforceable)
    return 0;
  if (entitle_probe_host (ctx->config->state_dir, &probe, &why) < 0)
    {
      entitle_error_release (&why);
      return 0;
    }
  missing = entitle_probe_missing (&probe, plan->attach | plan->custom, reason, sizeof (reason));
  if (missing == 0)
    return 0;
  names = entitle_bpf_quote (final, missing);
  ret = entitle_unenforceable (ctx->config, ctx->log, names, reason, err);
  if (UNLIKELY (ret < 0))
    return ret;
  plan->attach &= ~missing;
  plan->custom &= ~missing;
  return 0;
}

/* Errors end in the hook's main, which writes them to the runtime's log
   too.  */
/* entitle learn's run: the engine's config as given, with the programs
   that observe attached in counting mode (POL_LEARN) and nothing
   enforced.  */
static int
learn (struct entitle_ctx_s *ctx, const struct hook_state_s *st, entitle_error_t *err)
{
  struct entitle_bpf_plan_s plan = { .policy.flags = POL_LEARN, .attach = ENTITLE_LEARN_ATTACH };
  return enforce (ctx, st, &plan, NULL, err);
}

int
hook_create_runtime (struct entitle_ctx_s *ctx, const struct hook_state_s *st, entitle_error_t *err)
{
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  const struct entitle_set_s *set;
  struct entitle_bpf_plan_s plan;
  cleanup_free char *names = NULL;
  int ret;

  if (st->learn)
    return learn (ctx, st, err);
  ret = load_plan (ctx, st, &final, &plan, err);
  set = st->final ? st->final : &final;
  if (ret >= 0 && st->from_hooksd)
    {
      int applied = hook_check_applied (ctx, st->bundle, set, err);
      if (UNLIKELY (applied < 0))
        return applied;
    }
  if (ret <= 0)
    return ret;
  ret = leave_out_missing (ctx, set, &plan, err);
  if (UNLIKELY (ret < 0) || ((plan.attach | plan.custom) == 0 && !plan.checmate))
    return ret;
  /* The admin's choice (entitle.json(5) `denials`): off, the programs
     write no record at all.  */
  if (!ctx->config->denials_off)
    plan.policy.flags |= POL_REPORT;
  ret = enforce (ctx, st, &plan, set, err);
  /* A failure here is a failure, never a warning: only a mechanism the
     host lacks may be left out, and that was decided above.  */
  if (ret < 0 && (names = entitle_bpf_quote (set, plan.attach | plan.custom)) != NULL && *names)
    return entitle_error_wrap (err, "%s cannot be enforced here: cgroup BPF", names);
  return ret;
}

int
hook_poststop (struct entitle_ctx_s *ctx, const struct hook_state_s *st)
{
  entitle_error_t err = NULL;
  int lock = hook_made_lock (ctx->config->state_dir, &err);

  if (lock < 0)
    {
      entitle_log_warning (ctx->log, "%s", err->msg);
      entitle_error_release (&err);
      return 0;
    }
  hook_made_migrate (ctx->config->state_dir);
  hook_made_remove (ctx->config->state_dir, st->root, st->id, ctx->log);
  hook_made_collect (ctx->config->state_dir);
  close (lock);
  hook_checmate_sweep ();
  return 0;
}
