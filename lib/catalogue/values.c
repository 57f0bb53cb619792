/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "values.h"

/* The value kinds of modifiers (values.h).  */

#define PORT_MAX 65535

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
static bool
parse_ports (const char *s, union entitle_value_u *out)
{
  char buf[16];
  const char *dash = strchr (s, '-');
  unsigned long a, b;

  if (dash == NULL)
    {
      if (!number (s, 1, PORT_MAX, &a))
        return false;
      out->ports.lo = out->ports.hi = (unsigned short)a;
      return true;
    }
  if ((size_t)(dash - s) >= sizeof (buf))
    return false;
  memcpy (buf, s, (size_t)(dash - s));
  buf[dash - s] = '\0';
  if (!number (buf, 1, PORT_MAX, &a) || !number (dash + 1, 1, PORT_MAX, &b) || a > b)
    return false;
  out->ports.lo = (unsigned short)a;
  out->ports.hi = (unsigned short)b;
  return true;
}

/* ADDR/LEN[:PORT[-PORT]], IPv4 or IPv6: the port follows the prefix
   length, so IPv6's colons are not ambiguous.  */
static bool
parse_cidr (const char *s, union entitle_value_u *out)
{
  struct entitle_cidr_s *c = &out->cidr;
  union entitle_value_u ports;
  char addr[INET6_ADDRSTRLEN], len[4];
  const char *slash = strchr (s, '/'), *colon, *end;
  unsigned long l;
  bool v6;

  memset (c, 0, sizeof (*c));
  if (slash == NULL || (size_t)(slash - s) >= sizeof (addr))
    return false;
  memcpy (addr, s, (size_t)(slash - s));
  addr[slash - s] = '\0';
  v6 = strchr (addr, ':') != NULL;
  c->family = v6 ? AF_INET6 : AF_INET;
  if (inet_pton (c->family, addr, c->addr) != 1)
    return false;
  colon = strchr (slash, ':');
  end = colon ? colon : slash + strlen (slash);
  if ((size_t)(end - slash - 1) >= sizeof (len))
    return false;
  memcpy (len, slash + 1, (size_t)(end - slash - 1));
  len[end - slash - 1] = '\0';
  if (!number (len, 0, v6 ? 128 : 32, &l))
    return false;
  c->len = (unsigned)l;
  c->lo = 0;
  c->hi = PORT_MAX;
  if (colon == NULL)
    return true;
  if (!parse_ports (colon + 1, &ports))
    return false;
  c->lo = ports.ports.lo;
  c->hi = ports.ports.hi;
  return true;
}

/* FROM:TO, two ports.  */
static bool
parse_port_map (const char *s, union entitle_value_u *out)
{
  char buf[8];
  const char *colon = strchr (s, ':');
  unsigned long a, b;

  if (colon == NULL || (size_t)(colon - s) >= sizeof (buf))
    return false;
  memcpy (buf, s, (size_t)(colon - s));
  buf[colon - s] = '\0';
  if (!number (buf, 1, PORT_MAX, &a) || !number (colon + 1, 1, PORT_MAX, &b))
    return false;
  out->ports.lo = (unsigned short)a;
  out->ports.hi = (unsigned short)b;
  return true;
}

/* An absolute path without `.` or `..` components (the text is the value).  */
static bool
parse_path (const char *s, union entitle_value_u *out)
{
  const char *p = s;

  memset (out, 0, sizeof (*out));
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
cidr_covers (const union entitle_value_u *outer, const union entitle_value_u *inner)
{
  const struct entitle_cidr_s *o = &outer->cidr, *i = &inner->cidr;
  unsigned b;

  if (o->family != i->family || o->len > i->len || i->lo < o->lo || i->hi > o->hi)
    return false;
  for (b = 0; b < o->len; b++)
    if (((o->addr[b / 8] ^ i->addr[b / 8]) >> (7 - b % 8)) & 1)
      return false;
  return true;
}

static bool
ports_cover (const union entitle_value_u *outer, const union entitle_value_u *inner)
{
  return inner->ports.lo >= outer->ports.lo && inner->ports.hi <= outer->ports.hi;
}

static void
cidr_ports (const union entitle_value_u *v, unsigned *lo, unsigned *hi)
{
  *lo = v->cidr.lo;
  *hi = v->cidr.hi;
}

static void
range_ports (const union entitle_value_u *v, unsigned *lo, unsigned *hi)
{
  *lo = v->ports.lo;
  *hi = v->ports.hi;
}

static void
map_from_port (const union entitle_value_u *v, unsigned *lo, unsigned *hi)
{
  *lo = *hi = v->ports.lo;
}

const struct entitle_value_kind_s entitle_value_path = {
  "PATH", "an absolute path without . or .. components", "/data", parse_path, NULL, NULL
};
const struct entitle_value_kind_s entitle_value_ports = { "PORT[-PORT]", NULL, "8080", parse_ports, ports_cover, range_ports };
const struct entitle_value_kind_s entitle_value_port_map = { "FROM:TO", NULL, "80:8080", parse_port_map, NULL, map_from_port };
const struct entitle_value_kind_s entitle_value_cidr = {
  "CIDR[:PORT[-PORT]]", "an IPv4 or IPv6 prefix, with an optional port or port range", "10.0.0.0/8:443", parse_cidr,
  cidr_covers, cidr_ports
};
