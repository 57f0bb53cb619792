/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <string.h>
#include <sys/stat.h>
#include "catalogue.h"
#include "namespaces.h"

static long
find (const json_t *ns, const char *type)
{
  size_t i;
  for (i = 0; ns && ns->type == JSON_ARRAY && i < ns->n; i++)
    {
      const char *t = json_string (json_get (ns->items[i], "type"));
      if (t && strcmp (t, type) == 0)
        return (long)i;
    }
  return -1;
}

bool
entitle_namespaces_has (const json_t *linux_, const char *type)
{
  return find (json_get (linux_, "namespaces"), type) >= 0;
}

static bool
same_file (const struct stat *a, const char *path)
{
  struct stat b;
  return stat (path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

/* Is the namespace file @path the network namespace of this host: the
   one entitle runs in, or the one of pid 1 (nsfs files compare by inode)?  */
static bool
is_host_netns (const char *path)
{
  struct stat st;
  return path && stat (path, &st) == 0
         && (same_file (&st, "/proc/self/ns/net") || same_file (&st, "/proc/1/ns/net"));
}

static void
add (json_t *ns, const char *type)
{
  json_t *n = json_new (JSON_OBJECT);
  json_set (n, "type", json_new_string (type));
  json_push (ns, n);
}

/* The runtimes refuse a net.* sysctl outside a network namespace of the
   container's own: written in the host's, it would change the host.  */
static void
drop_net_sysctls (json_t *linux_)
{
  json_t *sysctl = json_get (linux_, "sysctl");
  size_t i;

  for (i = 0; sysctl && sysctl->type == JSON_OBJECT && i < sysctl->n;)
    if (strncmp (sysctl->keys[i], "net.", 4) == 0)
      json_remove_at (sysctl, i);
    else
      i++;
}

void
entitle_namespaces_apply (json_t *linux_, unsigned fx)
{
  json_t *ns = json_get_or_add (linux_, "namespaces", JSON_ARRAY);
  long net = find (ns, "network"), pid;

  if ((fx & FX_HOST_NETNS) && net >= 0)
    {
      json_remove_at (ns, (size_t)net);
      drop_net_sysctls (linux_);
    }
  else if ((fx & FX_NEW_NETNS) && net < 0)
    add (ns, "network");
  else if ((fx & FX_NEW_NETNS) && is_host_netns (json_string (json_get (ns->items[net], "path"))))
    json_del (ns->items[net], "path");
  pid = find (ns, "pid");
  if ((fx & FX_HOST_PIDNS) && pid >= 0)
    json_remove_at (ns, (size_t)pid);
  else if ((fx & FX_NEW_PIDNS) && pid < 0)
    add (ns, "pid");
  /* One given by path stays: entitle_hold_check refuses it.  */
  if ((fx & FX_HOLD) && find (ns, "cgroup") < 0)
    add (ns, "cgroup");
}
