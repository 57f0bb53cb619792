/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "admin-config.h"
#include "landlock.h"
#include "layers.h"
#include "policy.h"
#include "probe.h"
#include "utils.h"
#include "values.h"

/* fs.read and fs.write, and the second network layer (DESIGN §4,
   entitle-init(8)): from a final set to the helper's command line, its
   mount, and process.args.  */

struct argv_s
{
  char **v;
  size_t n;
};

static void
push (struct argv_s *a, char *s)
{
  a->v = xrealloc (a->v, (a->n + 2) * sizeof (char *));
  a->v[a->n++] = s;
  a->v[a->n] = NULL;
}

/* OPTION VALUE, once: two rules of one port range say the same.  */
static void
push_option (struct argv_s *a, const char *option, const char *value)
{
  for (size_t i = 0; i + 1 < a->n; i++)
    if (strcmp (a->v[i], option) == 0 && strcmp (a->v[i + 1], value) == 0)
      return;
  push (a, xstrdup (option));
  push (a, xstrdup (value));
}

static void
push_ports (struct argv_s *a, const char *option, unsigned lo, unsigned hi)
{
  char buf[16];

  if (lo == hi)
    snprintf (buf, sizeof (buf), "%u", lo);
  else
    snprintf (buf, sizeof (buf), "%u-%u", lo, hi);
  push_option (a, option, buf);
}

bool
entitle_landlock_needed (const struct entitle_set_s *set)
{
  for (size_t i = 0; i < set->n; i++)
    if (set->items[i].entry->fx & FX_LANDLOCK)
      return true;
  return false;
}

int
entitle_landlock_abi (struct entitle_ctx_s *ctx)
{
  if (ctx->landlock_abi < 0)
    ctx->landlock_abi = entitle_probe_landlock_abi ();
  return ctx->landlock_abi;
}

bool
entitle_landlock_available (struct entitle_ctx_s *ctx)
{
  return entitle_landlock_abi (ctx) > 0;
}

bool
entitle_landlock_wraps (struct entitle_ctx_s *ctx, const struct entitle_set_s *set)
{
  return (entitle_landlock_needed (set) && entitle_landlock_available (ctx))
         || entitle_layers_seccomp_filters (ctx, set) > 0;
}

int
entitle_helper_seccomp_fd (const struct entitle_ctx_s *ctx)
{
  return 3 + ctx->preserve_fds;
}

#define TCP(role) (1u << (role))

/* Does @req's row play one of the @roles (TCP bits of its landlock_tcp)?  */
static bool
plays (const struct entitle_request_s *req, unsigned roles)
{
  return (TCP (req->entry->landlock_tcp) & roles) != 0;
}

/* The ports of @req's value, as its value kind names them: an egress
   rule's range (0-65535 without a port), a bind range, a bind-map's FROM
   (the cgroup program maps a bind after Landlock saw its port).  */
static bool
ports_of (const struct entitle_request_s *req, unsigned *lo, unsigned *hi)
{
  if (req->value == NULL || req->entry->value == NULL || req->entry->value->ports == NULL)
    return false;
  req->entry->value->ports (&req->v, lo, hi);
  return true;
}

static bool
has_role (const struct entitle_set_s *set, unsigned roles)
{
  for (size_t i = 0; i < set->n; i++)
    if (plays (&set->items[i], roles))
      return true;
  return false;
}

/* OPTION PORTS for each value of the rows that play one of @roles, into
   @a; false when a value allows every port or the ports add up to more
   than ENTITLE_LANDLOCK_MAX_PORTS.  */
static bool
rows_ports (const struct entitle_set_s *set, unsigned roles, const char *option, struct argv_s *a)
{
  unsigned lo, hi, total = 0;

  for (size_t i = 0; i < set->n; i++)
    {
      if (!plays (&set->items[i], roles) || !ports_of (&set->items[i], &lo, &hi))
        continue;
      total += hi - lo + 1;
      if ((lo == 0 && hi == 65535) || total > ENTITLE_LANDLOCK_MAX_PORTS)
        return false;
      push_ports (a, option, lo, hi);
    }
  return true;
}

static void
reset (struct argv_s *a)
{
  cleanup_strvp (&a->v);
  a->v = NULL;
  a->n = 0;
}

static void
append (struct argv_s *to, struct argv_s *from)
{
  for (size_t i = 0; i + 1 < from->n; i += 2)
    push_option (to, from->v[i], from->v[i + 1]);
  reset (from);
}

/* Landlock's TCP rules name a port, never an address: they may only add a
   layer where every port the cgroup programs allow is listed.  So connect
   rules only when every rule of a LANDLOCK_TCP_CONNECT row (network.egress)
   names its ports, bind rules only under a LANDLOCK_TCP_BIND row
   (network.bind), and neither beyond ENTITLE_LANDLOCK_MAX_PORTS ports.  */
static void
tcp_layer (const struct entitle_set_s *set, struct argv_s *out)
{
  struct argv_s a = { 0 };

  if (has_role (set, TCP (LANDLOCK_TCP_CONNECT)) && rows_ports (set, TCP (LANDLOCK_TCP_CONNECT), "--tcp-connect", &a))
    append (out, &a);
  reset (&a);
  if (!has_role (set, TCP (LANDLOCK_TCP_BIND)))
    return;
  /* bind(0) passes the bind program (the kernel chooses the port; the
     ingress program holds it to the list), and a bind-map's FROM is what
     Landlock sees: the program maps the port after it.  */
  push_ports (&a, "--tcp-bind", 0, 0);
  if (rows_ports (set, TCP (LANDLOCK_TCP_BIND) | TCP (LANDLOCK_TCP_BIND_ADDS), "--tcp-bind", &a))
    append (out, &a);
  reset (&a);
}

/* The Landlock layer's options: each Landlock row's is its name
   (--fs.write PATH), then the TCP ports.  */
static void
landlock_layer (const struct entitle_set_s *set, struct argv_s *a)
{
  for (size_t i = 0; i < set->n; i++)
    {
      const struct entitle_request_s *r = &set->items[i];
      char *option;
      if (!(r->entry->fx & FX_LANDLOCK) || r->value == NULL)
        continue;
      xasprintf (&option, "--%s", r->entry->name);
      push_option (a, option, r->value);
      free (option);
    }
  tcp_layer (set, a);
}

char **
entitle_landlock_argv (struct entitle_ctx_s *ctx, const struct entitle_set_s *set)
{
  struct argv_s a = { 0 };
  size_t i, n = entitle_layers_seccomp_filters (ctx, set);
  char fd[16];

  push (&a, xstrdup (ENTITLE_INIT_DEST));
  if (entitle_landlock_available (ctx))
    landlock_layer (set, &a);
  /* The eBPF seccomp filters create loaded come as more preserved fds
     (full/seccomp.c), entitle's own first, then the admin's.  */
  for (i = 0; i < n; i++)
    {
      snprintf (fd, sizeof (fd), "%d", entitle_helper_seccomp_fd (ctx) + (int)i);
      push_option (&a, "--seccomp-fd", fd);
    }
  push (&a, xstrdup ("--"));
  return a.v;
}

/* Where the command starts in @args: after a helper prefix an earlier
   compile wrote (ENTITLE_INIT_DEST ... --), else at 0.  */
static size_t
command_start (const json_t *args)
{
  const char *a0 = json_string (args->items[0]);

  if (a0 == NULL || strcmp (a0, ENTITLE_INIT_DEST) != 0)
    return 0;
  for (size_t i = 1; i < args->n; i++)
    {
      const char *s = json_string (args->items[i]);
      if (s && strcmp (s, "--") == 0)
        return i + 1;
    }
  return 0;
}

void
entitle_landlock_wrap (struct entitle_ctx_s *ctx, json_t *process, const struct entitle_set_s *set)
{
  const json_t *args = json_get (process, "args");
  cleanup_strv char **prefix = NULL;
  json_t *wrapped;
  size_t start;

  if (args == NULL || args->type != JSON_ARRAY || args->n == 0)
    return;
  start = command_start (args);
  prefix = entitle_landlock_argv (ctx, set);
  wrapped = json_new (JSON_ARRAY);
  for (char **p = prefix; *p; p++)
    json_push (wrapped, json_new_string (*p));
  for (size_t i = start; i < args->n; i++)
    json_push (wrapped, json_clone (args->items[i]));
  json_set (process, "args", wrapped);
}

static bool
is_dev (const char *destination)
{
  size_t n = destination ? strlen (destination) : 0;

  while (n > 1 && destination[n - 1] == '/')
    n--;
  return n == 4 && strncmp (destination, "/dev", 4) == 0;
}

/* The helper's mount, last (no later mount can hide it), in place of any
   mount an earlier compile, or anyone, put on ENTITLE_INIT_DEST.  Only on
   the container's own /dev tmpfs: a /dev bound from the host would get
   the mount point made in the host's /dev.  */
static int
mount_helper (json_t *spec, const char *name, entitle_error_t *err)
{
  json_t *mounts = json_get_or_add (spec, "mounts", JSON_ARRAY), *m, *options;
  const char *dev_type = NULL;
  char buf[PATH_MAX];
  size_t i = 0;

  while (i < mounts->n)
    {
      const char *dest = json_string (json_get (mounts->items[i], "destination"));
      if (is_dev (dest))
        dev_type = json_string (json_get (mounts->items[i], "type"));
      if (dest && strcmp (dest, ENTITLE_INIT_DEST) == 0)
        json_remove_at (mounts, i);
      else
        i++;
    }
  if (dev_type == NULL || strcmp (dev_type, "tmpfs") != 0)
    return entitle_make_error (err, EINVAL, "entitlement `%s`: its helper is mounted at `%s`, and the config's /dev is not a tmpfs of the container",
                               name, ENTITLE_INIT_DEST);
  m = json_new (JSON_OBJECT);
  json_set (m, "destination", json_new_string (ENTITLE_INIT_DEST));
  json_set (m, "type", json_new_string ("bind"));
  json_set (m, "source", json_new_string (entitle_config_init (buf, sizeof (buf))));
  options = json_new (JSON_ARRAY);
  json_push (options, json_new_string ("bind"));
  json_push (options, json_new_string ("ro"));
  json_push (options, json_new_string ("nosuid"));
  json_push (options, json_new_string ("nodev"));
  json_set (m, "options", options);
  json_push (mounts, m);
  return 0;
}

int
entitle_landlock_apply (struct entitle_ctx_s *ctx, json_t *spec, const struct entitle_set_s *set,
                        entitle_error_t *err)
{
  json_t *process = json_get (spec, "process");
  const json_t *args = json_get (process, "args");
  const char *name = NULL;
  int ret;

  if (!entitle_landlock_wraps (ctx, set) || args == NULL || args->type != JSON_ARRAY || args->n == 0)
    return 0;
  for (size_t i = 0; name == NULL && i < set->n; i++)
    if (set->items[i].entry->fx & FX_LANDLOCK || set->items[i].entry->sys_deny)
      name = set->items[i].entry->name;
  ret = mount_helper (spec, name ? name : set->items[0].entry->name, err);
  if (UNLIKELY (ret < 0))
    return ret;
  entitle_landlock_wrap (ctx, process, set);
  return 0;
}
