/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "values.h"

/* The values of modifiers (DESIGN §3), checked when they are parsed so that
   a typo fails create instead of widening or narrowing by surprise.  */

/* A decimal number in [lo, hi], all of @s.  */
static bool
number (const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
{
  char *end;
  unsigned long v;

  if (*s < '0' || *s > '9')
    return false;
  errno = 0;
  v = strtoul (s, &end, 10);
  if (errno || *end || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

/* PORT or PORT-PORT, low to high.  */
bool
entitle_parse_ports (const char *s, unsigned short *lo, unsigned short *hi)
{
  char buf[16];
  const char *dash = strchr (s, '-');
  unsigned long a, b;

  if (dash == NULL)
    {
      if (!number (s, 1, 65535, &a))
        return false;
      *lo = *hi = (unsigned short)a;
      return true;
    }
  if ((size_t)(dash - s) >= sizeof (buf))
    return false;
  memcpy (buf, s, (size_t)(dash - s));
  buf[dash - s] = '\0';
  if (!number (buf, 1, 65535, &a) || !number (dash + 1, 1, 65535, &b) || a > b)
    return false;
  *lo = (unsigned short)a;
  *hi = (unsigned short)b;
  return true;
}

static bool
port_range (const char *s)
{
  unsigned short lo, hi;
  return entitle_parse_ports (s, &lo, &hi);
}

/* ADDR/LEN[:PORT[-PORT]], IPv4 or IPv6: the port follows the prefix
   length, so IPv6's colons are not ambiguous.  */
bool
entitle_parse_egress (const char *s, struct entitle_cidr_s *out)
{
  char addr[INET6_ADDRSTRLEN], len[4];
  const char *slash = strchr (s, '/'), *colon, *end;
  unsigned long l;
  bool v6;

  memset (out, 0, sizeof (*out));
  if (slash == NULL || (size_t)(slash - s) >= sizeof (addr))
    return false;
  memcpy (addr, s, (size_t)(slash - s));
  addr[slash - s] = '\0';
  v6 = strchr (addr, ':') != NULL;
  out->family = v6 ? AF_INET6 : AF_INET;
  if (inet_pton (out->family, addr, out->addr) != 1)
    return false;
  colon = strchr (slash, ':');
  end = colon ? colon : slash + strlen (slash);
  if ((size_t)(end - slash - 1) >= sizeof (len))
    return false;
  memcpy (len, slash + 1, (size_t)(end - slash - 1));
  len[end - slash - 1] = '\0';
  if (!number (len, 0, v6 ? 128 : 32, &l))
    return false;
  out->len = (unsigned)l;
  out->lo = 0;
  out->hi = 65535;
  return colon == NULL || entitle_parse_ports (colon + 1, &out->lo, &out->hi);
}

static bool
egress (const char *s)
{
  struct entitle_cidr_s c;
  return entitle_parse_egress (s, &c);
}

/* FROM:TO, two ports.  */
bool
entitle_parse_port_map (const char *s, unsigned short *from, unsigned short *to)
{
  char buf[8];
  const char *colon = strchr (s, ':');
  unsigned long a, b;

  if (colon == NULL || (size_t)(colon - s) >= sizeof (buf))
    return false;
  memcpy (buf, s, (size_t)(colon - s));
  buf[colon - s] = '\0';
  if (!number (buf, 1, 65535, &a) || !number (colon + 1, 1, 65535, &b))
    return false;
  *from = (unsigned short)a;
  *to = (unsigned short)b;
  return true;
}

static bool
port_map (const char *s)
{
  unsigned short a, b;
  return entitle_parse_port_map (s, &a, &b);
}

/* An absolute path without `.` or `..` components.  */
static bool
path (const char *s)
{
  const char *p = s;

  if (*s != '/')
    return false;
  while ((p = strchr (p, '/')))
    {
      p++;
      if ((p[0] == '.' && (p[1] == '/' || p[1] == '\0'))
          || (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0')))
        return false;
    }
  return true;
}

/* Is every address of @inner in @outer, and every port of @inner?  */
static bool
egress_covers (const char *outer, const char *inner)
{
  struct entitle_cidr_s o, i;
  unsigned b;

  if (!entitle_parse_egress (outer, &o) || !entitle_parse_egress (inner, &i) || o.family != i.family
      || o.len > i.len || i.lo < o.lo || i.hi > o.hi)
    return false;
  for (b = 0; b < o.len; b++)
    if (((o.addr[b / 8] ^ i.addr[b / 8]) >> (7 - b % 8)) & 1)
      return false;
  return true;
}

static bool
ports_cover (const char *outer, const char *inner)
{
  unsigned short olo, ohi, ilo, ihi;
  return entitle_parse_ports (outer, &olo, &ohi) && entitle_parse_ports (inner, &ilo, &ihi) && ilo >= olo
         && ihi <= ohi;
}

/* covers: the modifier is an allowlist, which a required rule floors
   (lib/model/resolve.c); NULL for the others.  */
static const struct
{
  const char *name;
  bool (*check) (const char *);
  const char *form;
  bool (*covers) (const char *outer, const char *inner);
} checks[] = {
  { "fs.read", path, "PATH (absolute, without . or ..)", NULL },
  { "fs.write", path, "PATH (absolute, without . or ..)", NULL },
  { "network.bind", port_range, "PORT[-PORT]", ports_cover },
  { "network.bind-map", port_map, "FROM:TO", NULL },
  { "network.egress", egress, "CIDR[:PORT[-PORT]]", egress_covers },
};

static int
find (const char *name)
{
  size_t i;
  for (i = 0; i < sizeof (checks) / sizeof (checks[0]); i++)
    if (strcmp (checks[i].name, name) == 0)
      return (int)i;
  return -1;
}

const char *
entitle_value_check (const char *name, const char *value)
{
  int i = find (name);
  if (i < 0)
    return NULL;
  return checks[i].check (value) ? NULL : checks[i].form;
}

bool
entitle_value_has_floor (const char *name)
{
  int i = find (name);
  return i >= 0 && checks[i].covers != NULL;
}

bool
entitle_value_covers (const char *name, const char *outer, const char *inner)
{
  int i = find (name);
  return i >= 0 && checks[i].covers && outer && inner && checks[i].covers (outer, inner);
}
