/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "loader.h"
#include "probe.h"

/* Per-container entries of the shared maps, and their removal.  */

static void
put_egress (struct entitle_bpf_s *b, const struct entitle_egress_rule_s *r, uint64_t cg, int *ret)
{
  if (r->family == AF_INET)
    {
      struct entitle_egress4_key k = { .prefixlen = 64 + r->len, .cgroup_lo = (__u32)cg, .cgroup_hi = (__u32)(cg >> 32) };
      memcpy (&k.addr, r->addr, 4);
      if (bpf_map_update_elem (b->map[ENTITLE_MAP_EGRESS4], &k, &r->ports, BPF_ANY) < 0)
        *ret = -errno;
      return;
    }
  struct entitle_egress6_key k = { .prefixlen = 64 + r->len, .cgroup_lo = (__u32)cg, .cgroup_hi = (__u32)(cg >> 32) };
  memcpy (k.addr, r->addr, 16);
  if (bpf_map_update_elem (b->map[ENTITLE_MAP_EGRESS6], &k, &r->ports, BPF_ANY) < 0)
    *ret = -errno;
}

int
entitle_bpf_install (struct entitle_bpf_s *b, const struct entitle_bpf_plan_s *plan, uint64_t cg,
                     entitle_error_t *err)
{
  struct entitle_policy pol = plan->policy;
  int ret = 0;
  size_t i;

  for (i = 0; i < plan->n_egress; i++)
    put_egress (b, &plan->egress[i], cg, &ret);
  for (i = 0; plan->sysctls && plan->sysctls[i] && ret == 0; i++)
    {
      struct entitle_sysctl_key k = { .cgroup_id = cg };
      __u8 one = 1;
      strncpy (k.name, plan->sysctls[i], sizeof (k.name) - 1);
      if (bpf_map_update_elem (b->map[ENTITLE_MAP_SYSCTLS], &k, &one, BPF_ANY) < 0)
        ret = -errno;
    }
  /* The policy last: it is what turns the checks on.  */
  pol.cgroup_id = cg;
  if (ret == 0 && bpf_map_update_elem (b->map[ENTITLE_MAP_POLICY], &cg, &pol, BPF_ANY) < 0)
    ret = -errno;
  if (ret < 0)
    {
      entitle_bpf_forget (b, cg);
      errno = -ret;
      return entitle_make_sys_error (err, "write the policy maps");
    }
  return 0;
}

/* Is @prog attached to the cgroup @cgfd for @type?  */
static bool
attached (int prog, int cgfd, enum bpf_attach_type type)
{
  struct bpf_prog_info info = { 0 };
  __u32 len = sizeof (info), ids[64], n = 64, i;

  if (bpf_obj_get_info_by_fd (prog, &info, &len) < 0 || bpf_prog_query (cgfd, type, 0, NULL, ids, &n) < 0)
    return false;
  for (i = 0; i < n; i++)
    if (ids[i] == info.id)
      return true;
  return false;
}

int
entitle_bpf_attach (struct entitle_bpf_s *b, const struct entitle_bpf_plan_s *plan, int cgfd,
                    entitle_error_t *err)
{
  static const enum bpf_attach_type types[ENTITLE_PROG_COUNT] = {
    BPF_CGROUP_INET_SOCK_CREATE,
    BPF_CGROUP_INET4_CONNECT,
    BPF_CGROUP_INET6_CONNECT,
    BPF_CGROUP_UDP4_SENDMSG,
    BPF_CGROUP_UDP6_SENDMSG,
    BPF_CGROUP_INET4_BIND,
    BPF_CGROUP_INET6_BIND,
    BPF_CGROUP_SYSCTL,
  };
  int i;

  /* PROBE_CG_* bits follow the program order.  Attached this way, the
     kernel drops the attachment with the cgroup.  A program attached
     already (the hook ran twice: from the shim and from hooks.d) stays;
     the kernel would refuse it a second time with EINVAL.  */
  for (i = 0; i < ENTITLE_PROG_COUNT; i++)
    if ((plan->attach & (1u << i)) && !attached (b->prog[i], cgfd, types[i])
        && bpf_prog_attach (b->prog[i], cgfd, types[i], BPF_F_ALLOW_MULTI) < 0)
      return entitle_make_sys_error (err, "attach cgroup BPF %s", entitle_bpf_prog_name (i));
  return 0;
}

/* Delete every key of @map that @mine says belongs to the cgroup.  */
static void
forget_keys (int map, size_t key_size, uint64_t cg, bool (*mine) (const void *key, uint64_t cg))
{
  unsigned char *keys = NULL, *cur = NULL, *next = malloc (key_size);
  size_t n = 0, i;

  while (next && bpf_map_get_next_key (map, cur, next) == 0)
    {
      unsigned char *nk;
      if (mine (next, cg) && (nk = realloc (keys, (n + 1) * key_size)) != NULL)
        {
          keys = nk;
          memcpy (keys + n++ * key_size, next, key_size);
        }
      if (cur == NULL && (cur = malloc (key_size)) == NULL)
        break;
      memcpy (cur, next, key_size);
    }
  for (i = 0; i < n; i++)
    bpf_map_delete_elem (map, keys + i * key_size);
  free (keys);
  free (cur);
  free (next);
}

static bool
mine4 (const void *key, uint64_t cg)
{
  const struct entitle_egress4_key *k = key;
  return k->cgroup_lo == (__u32)cg && k->cgroup_hi == (__u32)(cg >> 32);
}

static bool
mine6 (const void *key, uint64_t cg)
{
  const struct entitle_egress6_key *k = key;
  return k->cgroup_lo == (__u32)cg && k->cgroup_hi == (__u32)(cg >> 32);
}

static bool
mine_sysctl (const void *key, uint64_t cg)
{
  return ((const struct entitle_sysctl_key *)key)->cgroup_id == cg;
}

void
entitle_bpf_forget (struct entitle_bpf_s *b, uint64_t cg)
{
  bpf_map_delete_elem (b->map[ENTITLE_MAP_POLICY], &cg);
  forget_keys (b->map[ENTITLE_MAP_EGRESS4], sizeof (struct entitle_egress4_key), cg, mine4);
  forget_keys (b->map[ENTITLE_MAP_EGRESS6], sizeof (struct entitle_egress6_key), cg, mine6);
  forget_keys (b->map[ENTITLE_MAP_SYSCTLS], sizeof (struct entitle_sysctl_key), cg, mine_sysctl);
}

static int
owner_key (struct entitle_owner_key *k, const char *root, const char *id, entitle_error_t *err)
{
  int n;
  memset (k, 0, sizeof (*k));
  n = snprintf (k->name, sizeof (k->name), "%s\n%s", root ? root : "", id);
  if (n < 0 || (size_t)n >= sizeof (k->name))
    return entitle_make_error (err, ENAMETOOLONG, "runtime root and container id are longer than %d bytes",
                               ENTITLE_OWNER_NAME - 1);
  return 0;
}

int
entitle_bpf_owner_get (struct entitle_bpf_s *b, const char *root, const char *id, struct entitle_owner *out,
                       entitle_error_t *err)
{
  struct entitle_owner_key k;
  if (owner_key (&k, root, id, err) < 0)
    return -1;
  return bpf_map_lookup_elem (b->map[ENTITLE_MAP_OWNERS], &k, out) == 0 ? 1 : 0;
}

int
entitle_bpf_owner_put (struct entitle_bpf_s *b, const char *root, const char *id,
                       const struct entitle_owner *owner, entitle_error_t *err)
{
  struct entitle_owner_key k;
  if (owner_key (&k, root, id, err) < 0)
    return -1;
  if (bpf_map_update_elem (b->map[ENTITLE_MAP_OWNERS], &k, owner, BPF_ANY) < 0)
    return entitle_make_sys_error (err, "record the container in `%s`", ENTITLE_BPF_DIR);
  return 0;
}

void
entitle_bpf_owner_del (struct entitle_bpf_s *b, const char *root, const char *id)
{
  struct entitle_owner_key k;
  entitle_error_t err = NULL;
  if (owner_key (&k, root, id, &err) == 0)
    bpf_map_delete_elem (b->map[ENTITLE_MAP_OWNERS], &k);
  entitle_error_release (&err);
}

/* Containers whose poststop never ran (the runtime was killed, the host
   engine lost track): their cgroup is gone, so is their claim.  */
int
entitle_bpf_collect (struct entitle_bpf_s *b, int (*alive) (uint64_t cg, void *arg), void *arg)
{
  int map = b->map[ENTITLE_MAP_OWNERS], count = 0;
  struct entitle_owner_key cur, next, *pcur = NULL;
  struct entitle_owner o;

  while (bpf_map_get_next_key (map, pcur, &next) == 0)
    {
      cur = next;
      pcur = &cur;
      if (bpf_map_lookup_elem (map, &cur, &o) < 0 || alive (o.cgroup_id, arg))
        continue;
      entitle_bpf_forget (b, o.cgroup_id);
      if (o.made[0])
        rmdir (o.made);
      bpf_map_delete_elem (map, &cur);
      pcur = NULL; /* the walk restarts: the deleted key cannot lead on */
      count++;
    }
  return count;
}
