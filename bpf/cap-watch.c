/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "cap-watch.h"
#include "cap-watch.skel.h"
#include "kallsyms.h"
#include "probe-run.h"
#include "utils.h"

/* The kernel functions that check a capability only to ask (CAP_OPT_NOAUDIT),
   which the tracepoint cannot tell from a use: accounted memory
   (security_vm_enough_memory_mm asks for CAP_SYS_ADMIN at every private
   writable mmap and brk), the *_noaudit helpers, /proc/kallsyms' readers.
   fexit reads the option instead.  */
static const char *const noaudit_fns[] = { "security_vm_enough_memory_mm", "cap_vm_enough_memory",
                                           "ns_capable_noaudit", "has_ns_capability_noaudit",
                                           "has_capability_noaudit", "kallsyms_show_value" };

enum way
{
  WAY_TP_BTF,
  WAY_FEXIT,
  WAY_COUNT,
};

static const char *const way_names[WAY_COUNT] = { "tp_btf/cap_capable", "fexit/cap_capable" };

static struct bpf_program *
way_program (struct cap_watch_bpf *skel, enum way w)
{
  return w == WAY_TP_BTF ? skel->progs.entitle_cap_tp : skel->progs.entitle_cap_fexit;
}

/* What a refusal means, where the errno alone would mislead.  */
static const char *
hint (enum way w, int e)
{
  if (w == WAY_TP_BTF && (e == ESRCH || e == ENOENT))
    return "this kernel has no cap_capable tracepoint";
  if (w == WAY_FEXIT && (e == EPERM || e == ENOTSUP || e == 524 /* ENOTSUPP */))
    return "this kernel refuses fexit programs (no BPF trampolines)";
  return strerror (e);
}

/* The tracepoint's program tells a check that only asks by its caller.  */
static int
noaudit_ranges (struct cap_watch_bpf *skel, entitle_error_t *err)
{
  uint64_t r[ENTITLE_CAP_NOAUDIT][2];
  size_t n = sizeof (noaudit_fns) / sizeof (noaudit_fns[0]);
  int ret = entitle_kallsyms_ranges (noaudit_fns, n, r, err);

  for (size_t k = 0; ret == 0 && k < n; k++)
    {
      skel->rodata->noaudit[k][0] = r[k][0];
      skel->rodata->noaudit[k][1] = r[k][1];
    }
  return ret;
}

static int
prepare (struct cap_watch_bpf *skel, enum way w, entitle_error_t *err)
{
  _Static_assert(sizeof (noaudit_fns) / sizeof (noaudit_fns[0]) <= ENTITLE_CAP_NOAUDIT, "noaudit room");
  for (int o = 0; o < WAY_COUNT; o++)
    bpf_program__set_autoload (way_program (skel, (enum way)o), o == (int)w);
  return w == WAY_TP_BTF ? noaudit_ranges (skel, err) : 0;
}

/* Load and attach way @w; why not into @why.  */
static struct cap_watch_bpf *
try_way (enum way w, char *why, size_t len)
{
  struct cap_watch_bpf *skel = cap_watch_bpf__open ();
  entitle_error_t err = NULL;
  int ret;

  if (skel == NULL)
    {
      snprintf (why, len, "%s: open: %s", way_names[w], strerror (errno));
      return NULL;
    }
  if ((ret = prepare (skel, w, &err)) < 0)
    {
      snprintf (why, len, "%s: %s", way_names[w], err->msg);
      entitle_error_release (&err);
    }
  else if ((ret = cap_watch_bpf__load (skel)) < 0)
    snprintf (why, len, "%s: load: %s", way_names[w], hint (w, -ret));
  else if ((ret = cap_watch_bpf__attach (skel)) < 0)
    snprintf (why, len, "%s: attach: %s", way_names[w], hint (w, -ret));
  if (ret == 0)
    return skel;
  cap_watch_bpf__destroy (skel);
  return NULL;
}

int
entitle_cap_watch_open (struct entitle_cap_watch_s *c, entitle_error_t *err)
{
  libbpf_print_fn_t old = libbpf_set_print (entitle_libbpf_silent);
  char why[WAY_COUNT][256];
  int w;

  c->skel = NULL;
  c->way = NULL;
  for (w = 0; w < WAY_COUNT && c->skel == NULL; w++)
    if ((c->skel = try_way ((enum way)w, why[w], sizeof (why[w]))) != NULL)
      c->way = way_names[w];
  libbpf_set_print (old);
  if (c->skel == NULL)
    return entitle_make_error (err, ENOTSUP, "%s; %s", why[WAY_TP_BTF], why[WAY_FEXIT]);
  return 0;
}

void
entitle_cap_watch_arm (struct entitle_cap_watch_s *c, uint64_t cgroup, unsigned level)
{
  c->skel->bss->watch_level = level;
  __atomic_store_n (&c->skel->bss->watch_cgroup, cgroup, __ATOMIC_RELEASE);
}

size_t
entitle_cap_watch_read (const struct entitle_cap_watch_s *c, struct entitle_cap_use_s *out, size_t room)
{
  size_t n = 0;

  for (int cap = 0; cap < ENTITLE_CAP_SLOTS; cap++)
    for (int granted = 0; granted < 2; granted++)
      {
        const struct entitle_cap_seen *s = &c->skel->bss->seen[granted][cap];
        if (s->seen && n < room)
          out[n++] = (struct entitle_cap_use_s){ .cap = cap, .granted = granted, .syscall = s->syscall };
      }
  return n;
}

void
entitle_cap_watch_close (struct entitle_cap_watch_s *c)
{
  cap_watch_bpf__destroy (c->skel);
  c->skel = NULL;
  c->way = NULL;
}
