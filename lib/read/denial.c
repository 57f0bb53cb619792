/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include "attach.h"
#include "catalogue.h"
#include "denial.h"
#include "seccomp-rules.h"
#include "utils.h"

#define L(...) ((const char *const[]){ __VA_ARGS__, NULL })

int
entitle_event_point (const struct entitle_event *ev)
{
  int i;
  for (i = 0; i < ATTACH_COUNT; i++)
    if (entitle_attach_points[i].program && (__u32)entitle_attach_points[i].type == ev->hook)
      return i;
  return -1;
}

static const char *
family_name (unsigned family)
{
  switch (family)
    {
    case AF_UNIX:
      return "AF_UNIX";
    case AF_INET:
      return "AF_INET";
    case AF_INET6:
      return "AF_INET6";
    case AF_NETLINK:
      return "AF_NETLINK";
    case AF_PACKET:
      return "AF_PACKET";
    default:
      return NULL;
    }
}

static const char *
type_name (unsigned type)
{
  static const char *const names[] = { [SOCK_STREAM] = "SOCK_STREAM", [SOCK_DGRAM] = "SOCK_DGRAM", [SOCK_RAW] = "SOCK_RAW", [SOCK_SEQPACKET] = "SOCK_SEQPACKET" };
  type &= 0xf;
  return type < sizeof (names) / sizeof (names[0]) && names[type] ? names[type] : "SOCK_?";
}

/* "tcp", "udp", "icmp": the transport of a socket type or IP protocol.  */
static const char *
transport (const struct entitle_event *ev)
{
  bool packet = ev->hook == BPF_CGROUP_INET_EGRESS || ev->hook == BPF_CGROUP_INET_INGRESS;

  if (packet)
    switch (ev->type)
      {
      case 6:
        return "tcp";
      case 17:
        return "udp";
      case 1:
      case 58:
        return "icmp";
      default:
        return "ip";
      }
  return (ev->type & 0xf) == SOCK_STREAM ? "tcp" : (ev->type & 0xf) == SOCK_DGRAM ? "udp"
                                                                                  : "ip";
}

/* The peer's address, with its port when it has one: "10.0.0.1:443",
   "[2001:db8::1]:443".  */
static void
peer (const struct entitle_event *ev, char *buf, size_t len)
{
  char a[INET6_ADDRSTRLEN] = "?";
  bool v6 = ev->family == AF_INET6;

  inet_ntop (v6 ? AF_INET6 : AF_INET, ev->addr, a, sizeof (a));
  if (ev->port)
    snprintf (buf, len, v6 ? "[%s]:%u" : "%s:%u", a, ev->port);
  else
    snprintf (buf, len, "%s", a);
}

void
entitle_event_describe (const struct entitle_event *ev, char *buf, size_t len)
{
  char p[INET6_ADDRSTRLEN + 16];
  const char *fam = family_name (ev->family);

  peer (ev, p, sizeof (p));
  switch (ev->hook)
    {
    case BPF_CGROUP_INET_SOCK_CREATE:
      if (fam)
        snprintf (buf, len, "socket(%s, %s)", fam, type_name (ev->type));
      else
        snprintf (buf, len, "socket(%u, %s)", ev->family, type_name (ev->type));
      return;
    case BPF_CGROUP_INET4_CONNECT:
    case BPF_CGROUP_INET6_CONNECT:
      snprintf (buf, len, "connect to %s (%s)", p, transport (ev));
      return;
    case BPF_CGROUP_UDP4_SENDMSG:
    case BPF_CGROUP_UDP6_SENDMSG:
      snprintf (buf, len, "send to %s (%s)", p, transport (ev));
      return;
    case BPF_CGROUP_INET4_BIND:
    case BPF_CGROUP_INET6_BIND:
      snprintf (buf, len, "bind to port %u (%s)", ev->port, transport (ev));
      return;
    case BPF_CGROUP_SYSCTL:
      {
        char name[ENTITLE_SYSCTL_NAME + 1] = { 0 };
        memcpy (name, ev->name, ENTITLE_SYSCTL_NAME);
        for (char *c = name; *c; c++)
          if (*c == '/')
            *c = '.';
        snprintf (buf, len, "write to sysctl %s", name);
        return;
      }
    case BPF_CGROUP_INET_EGRESS:
      if (ev->info & ENTITLE_EV_UNREADABLE)
        snprintf (buf, len, "a packet out that the program could not read");
      else
        snprintf (buf, len, "%spacket (%s) to %s", ev->info & ENTITLE_EV_SOURCE_ROUTED ? "source-routed " : "",
                  transport (ev), p);
      return;
    case BPF_CGROUP_INET_INGRESS:
      if (ev->info & ENTITLE_EV_UNREADABLE)
        snprintf (buf, len, "a packet in that the program could not read");
      else
        {
          char a[INET6_ADDRSTRLEN] = "?";
          inet_ntop (ev->family == AF_INET6 ? AF_INET6 : AF_INET, ev->addr, a, sizeof (a));
          snprintf (buf, len, "packet (%s) from %s to port %u", transport (ev), a, ev->port);
        }
      return;
    default:
      snprintf (buf, len, "attach type %u", ev->hook);
    }
}

bool
entitle_policy_denies (unsigned policy, const struct entitle_event *ev)
{
  bool inet = ev->family == AF_INET || ev->family == AF_INET6;

  switch (ev->hook)
    {
    case BPF_CGROUP_INET_SOCK_CREATE:
      return ((policy & POL_SOCK_UNIX_ONLY) && ev->family != AF_UNIX)
             || ((policy & POL_SOCK_NO_RAW) && inet && ev->type == SOCK_RAW);
    case BPF_CGROUP_SYSCTL:
      return (policy & POL_SYSCTL_RO) != 0;
    default:
      return false;
    }
}

const struct entitle_request_s *
entitle_event_denier (const struct entitle_set_s *set, const struct entitle_event *ev)
{
  size_t i;
  for (i = 0; set && i < set->n; i++)
    if (set->items[i].entry->policy & ev->rule)
      return &set->items[i];
  return NULL;
}

char *
entitle_denier_name (const struct entitle_set_s *set, const struct entitle_request_s *denier)
{
  cleanup_free char *rule = entitle_request_format (denier);
  char *out;
  size_t i, k;

  for (i = 0; i < set->n; i++)
    {
      const struct entitle_entry_s *e = set->items[i].entry;
      for (k = 0; e->custom && k < e->n_implies; k++)
        if (entitle_implied_is (&e->implies[k], denier))
          {
            xasprintf (&out, "%s (%s)", e->name, rule);
            return out;
          }
    }
  return get_and_reset (&rule);
}

char *
entitle_rule_rows (unsigned rule)
{
  size_t n, i, len = 1, k = 0, count = 0;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (NULL, &n);
  char *out;

  for (i = 0; i < n; i++)
    if (rows[i].policy & rule)
      len += strlen (rows[i].name) + 4, count++;
  out = xcalloc (1, len);
  for (i = 0; i < n; i++)
    if (rows[i].policy & rule)
      {
        if (k++)
          strcat (out, k == count ? " or " : ", ");
        strcat (out, rows[i].name);
      }
  return out;
}

/* The narrowest rung of @denier's ladder, wider than it, that lets @what
   through.  */
static const struct entitle_entry_s *
wider_rung (const struct entitle_entry_s *denier, bool (*lets_through) (const struct entitle_entry_s *, const void *),
            const void *what)
{
  const struct entitle_entry_s *rows, *best = NULL;
  size_t n, i;

  rows = entitle_catalogue_rows (NULL, &n);
  for (i = 0; i < n; i++)
    if (rows[i].domain == denier->domain && rows[i].rung > denier->rung && lets_through (&rows[i], what)
        && (best == NULL || rows[i].rung < best->rung))
      best = &rows[i];
  return best;
}

/* Do @row's programs let the record @what through?  */
static bool
programs_allow (const struct entitle_entry_s *row, const void *what)
{
  return !entitle_policy_denies (row->policy, what);
}

bool
entitle_event_value (const struct entitle_entry_s *e, const struct entitle_event *ev, char *buf, size_t len)
{
  bool has_addr = ev->hook != BPF_CGROUP_INET_SOCK_CREATE && ev->hook != BPF_CGROUP_SYSCTL
                  && ev->hook != BPF_CGROUP_INET4_BIND && ev->hook != BPF_CGROUP_INET6_BIND;
  char a[INET6_ADDRSTRLEN];

  if (ev->info & (ENTITLE_EV_UNREADABLE | ENTITLE_EV_SOURCE_ROUTED))
    return false;
  if (e->why_value == WHY_VALUE_PORT && ev->port)
    return snprintf (buf, len, "%u", ev->port) > 0;
  if (e->why_value != WHY_VALUE_ADDRESS || !has_addr
      || inet_ntop (ev->family == AF_INET6 ? AF_INET6 : AF_INET, ev->addr, a, sizeof (a)) == NULL)
    return false;
  if (ev->port)
    snprintf (buf, len, "%s/%d:%u", a, ev->family == AF_INET6 ? 128 : 32, ev->port);
  else
    snprintf (buf, len, "%s/%d", a, ev->family == AF_INET6 ? 128 : 32);
  return true;
}

char *
entitle_event_allower (const struct entitle_entry_s *denier, const struct entitle_event *ev)
{
  char value[INET6_ADDRSTRLEN + 16], *out = NULL;
  const struct entitle_entry_s *wider;

  if (denier->rung > 0)
    return (wider = wider_rung (denier, programs_allow, ev)) ? strdup (wider->name) : NULL;
  if (!entitle_event_value (denier, ev, value, sizeof (value)))
    return NULL;
  xasprintf (&out, "%s=%s", denier->name, value);
  return out;
}

void
entitle_syscall_describe (const struct entitle_syscall_use_s *s, char *buf, size_t len)
{
  const char *fam = family_name ((unsigned)s->args[0]);

  if (strcmp (s->name, "socket") == 0 || strcmp (s->name, "socketpair") == 0)
    {
      if (fam)
        snprintf (buf, len, "%s(%s, %s)", s->name, fam, type_name ((unsigned)s->args[1]));
      else
        snprintf (buf, len, "%s(%llu, %s)", s->name, (unsigned long long)s->args[0], type_name ((unsigned)s->args[1]));
    }
  else
    snprintf (buf, len, "%s()", s->name);
}

const char *
entitle_event_needs_cap (const struct entitle_event *ev, unsigned unprivileged_port)
{
  bool bind = ev->hook == BPF_CGROUP_INET4_BIND || ev->hook == BPF_CGROUP_INET6_BIND;

  if (bind && ev->port != 0 && ev->port < unprivileged_port)
    return "CAP_NET_BIND_SERVICE";
  if (ev->hook == BPF_CGROUP_INET_SOCK_CREATE && ev->type == SOCK_RAW)
    return "CAP_NET_RAW";
  return NULL;
}

bool
entitle_entry_removes_cap (const struct entitle_entry_s *e, const char *cap)
{
  if (entitle_strv_has ((char *const *)e->cap_add, cap))
    return false;
  return entitle_strv_has ((char *const *)e->cap_drop, cap)
         || (e->cap_keep != NULL && !entitle_strv_has ((char *const *)e->cap_keep, cap));
}

/* The seccomp effects of the rows, by the syscalls and arguments they
   refuse (lib/compile/seccomp-rules.c writes them as rules).  */
static bool
not_unix (const struct entitle_syscall_use_s *s)
{
  return s->args[0] != AF_UNIX;
}

static bool
packet_or_raw (const struct entitle_syscall_use_s *s)
{
  return s->args[0] == AF_PACKET || ((s->args[0] == AF_INET || s->args[0] == AF_INET6) && (s->args[1] & 0xf) == SOCK_RAW);
}

static bool
device_node (const struct entitle_syscall_use_s *s)
{
  uint64_t mode = strcmp (s->name, "mknodat") == 0 ? s->args[2] : s->args[1];
  return S_ISCHR (mode) || S_ISBLK (mode);
}

static bool
foreign_persona (const struct entitle_syscall_use_s *s)
{
  uint32_t persona = (uint32_t)s->args[0];
  return persona != 0 && persona != 0xffffffffu;
}

static const struct
{
  unsigned fx;
  const char *const *syscalls;
  bool (*refuses) (const struct entitle_syscall_use_s *);
} fx_rules[] = {
  { FX_SOCK_UNIX, L ("socket", "socketpair"), not_unix },
  { FX_SOCK_USER, L ("socket"), packet_or_raw },
  { FX_NO_DEV_MKNOD, L ("mknod", "mknodat"), device_node },
  { FX_PERSONALITY, L ("personality"), foreign_persona },
};

void
entitle_syscall_normalize (struct entitle_syscall_use_s *s)
{
  uint64_t keep[6] = { 0 };

  if (strcmp (s->name, "socket") == 0 || strcmp (s->name, "socketpair") == 0)
    keep[0] = s->args[0], keep[1] = s->args[1] & 0xf;
  else if (strcmp (s->name, "mknod") == 0)
    keep[1] = s->args[1] & S_IFMT;
  else if (strcmp (s->name, "mknodat") == 0)
    keep[2] = s->args[2] & S_IFMT;
  else if (strcmp (s->name, "personality") == 0)
    keep[0] = (uint32_t)s->args[0];
  else if (strcmp (s->name, "clone") == 0)
    keep[0] = s->args[0] & ENTITLE_CLONE_NS_FLAGS;
  memcpy (s->args, keep, sizeof (keep));
}

static const char *
fx_text (unsigned fx)
{
  size_t n, i;
  const struct entitle_fx_text_s *t = entitle_fx_texts (&n);
  for (i = 0; i < n; i++)
    if (t[i].fx == fx)
      return t[i].text;
  return "a seccomp rule";
}

/* Is @name gated (entitle_cap_gated) only on capabilities @e takes away?  */
static const char *
gated_away (const struct entitle_entry_s *e, const char *name)
{
  size_t n, i;
  const struct entitle_cap_syscalls_s *g = entitle_cap_gated (&n);
  const char *cap = NULL;

  if (entitle_cap_ungated (name) || entitle_strv_has ((char *const *)e->sys_allow, name))
    return NULL;
  for (i = 0; i < n; i++)
    if (entitle_strv_has ((char *const *)g[i].syscalls, name))
      {
        if (!entitle_entry_removes_cap (e, g[i].cap))
          return NULL;
        cap = g[i].cap;
      }
  return cap;
}

bool
entitle_entry_seccomp_denies (const struct entitle_entry_s *e, const struct entitle_syscall_use_s *s, char *why,
                              size_t len)
{
  size_t i;

  if (entitle_strv_has ((char *const *)e->sys_deny, s->name))
    return snprintf (why, len, "%s", entitle_mech_name (ENTITLE_MECH_SECCOMP)) > 0;
  for (i = 0; i < sizeof (fx_rules) / sizeof (fx_rules[0]); i++)
    if ((e->fx & fx_rules[i].fx) && entitle_strv_has ((char *const *)fx_rules[i].syscalls, s->name)
        && fx_rules[i].refuses (s))
      {
        /* The effect's words up to their first aside.  */
        const char *text = fx_text (fx_rules[i].fx);
        return snprintf (why, len, "%s: %.*s", entitle_mech_name (ENTITLE_MECH_SECCOMP), (int)strcspn (text, ";"), text)
               > 0;
      }
  return false;
}

bool
entitle_entry_denies_syscall (const struct entitle_entry_s *e, const struct entitle_syscall_use_s *s, char *why,
                              size_t len)
{
  const char *cap;

  if (entitle_entry_seccomp_denies (e, s, why, len))
    return true;
  if ((strcmp (s->name, "clone") == 0 && (s->args[0] & ENTITLE_CLONE_NS_FLAGS))
      && entitle_entry_removes_cap (e, "CAP_SYS_ADMIN"))
    return snprintf (why, len, "it takes CAP_SYS_ADMIN, which clone() needs for namespaces") > 0;
  if ((cap = gated_away (e, s->name)) != NULL)
    return snprintf (why, len, "it takes %s, which %s() needs", cap, s->name) > 0;
  return false;
}

const struct entitle_request_s *
entitle_syscall_denier (const struct entitle_set_s *set, const struct entitle_syscall_use_s *s, char *why,
                        size_t len)
{
  size_t i;

  for (i = 0; set && i < set->n; i++)
    if (entitle_entry_seccomp_denies (set->items[i].entry, s, why, len))
      return &set->items[i];
  return NULL;
}

/* Does @row deny the syscall @what in no way?  */
static bool
syscall_allowed (const struct entitle_entry_s *row, const void *what)
{
  char why[256];
  return !entitle_entry_denies_syscall (row, what, why, sizeof (why));
}

char *
entitle_syscall_allower (const struct entitle_entry_s *denier, const struct entitle_syscall_use_s *s)
{
  const struct entitle_entry_s *wider;

  if (denier->rung == 0)
    return NULL;
  return (wider = wider_rung (denier, syscall_allowed, s)) ? xstrdup (wider->name) : NULL;
}

static void
add_names (const char **out, size_t *n, const char *const *names)
{
  for (; names && *names; names++)
    out[(*n)++] = *names;
}

static int
compare_str (const void *a, const void *b)
{
  return strcmp (*(const char *const *)a, *(const char *const *)b);
}

const char **
entitle_syscalls_watched (size_t *count)
{
  size_t n_rows, n_gated, i, n = 0, cap = 8;
  const struct entitle_entry_s *rows = entitle_catalogue_rows (NULL, &n_rows);
  const struct entitle_cap_syscalls_s *g = entitle_cap_gated (&n_gated);
  const char **out;

  for (i = 0; i < n_rows; i++)
    for (const char *const *s = rows[i].sys_deny; s && *s; s++)
      cap++;
  for (i = 0; i < n_gated; i++)
    for (const char *const *s = g[i].syscalls; s && *s; s++)
      cap++;
  for (i = 0; i < sizeof (fx_rules) / sizeof (fx_rules[0]); i++)
    for (const char *const *s = fx_rules[i].syscalls; *s; s++)
      cap++;
  out = xcalloc (cap + 1, sizeof (*out));
  for (i = 0; i < n_rows; i++)
    add_names (out, &n, rows[i].sys_deny);
  for (i = 0; i < n_gated; i++)
    add_names (out, &n, g[i].syscalls);
  for (i = 0; i < sizeof (fx_rules) / sizeof (fx_rules[0]); i++)
    add_names (out, &n, fx_rules[i].syscalls);
  out[n++] = "clone";
  qsort (out, n, sizeof (*out), compare_str);
  for (i = *count = 0; i < n; i++)
    if (*count == 0 || strcmp (out[*count - 1], out[i]) != 0)
      out[(*count)++] = out[i];
  out[*count] = NULL;
  return out;
}
