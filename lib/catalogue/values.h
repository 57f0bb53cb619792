/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_VALUES_H
#define ENTITLE_VALUES_H

#include <stdbool.h>

/* The values of modifiers (`network.egress=CIDR[:PORT[-PORT]]`, DESIGN §3):
   each catalogue row that takes one names its kind, which says how it is
   written, parses it once (when the entitlement is parsed: a typo fails
   create instead of widening or narrowing by surprise) and, for an
   allowlist, whether one value covers another (the admin's floor).  The
   parsed value travels with the request; nothing parses its text again.  */

/* CIDR[:PORT[-PORT]]: the prefix and the port range (0-65535 when none is
   given).  The address is in network byte order.  */
struct entitle_cidr_s
{
  int family; /**< AF_INET or AF_INET6 */
  unsigned char addr[16];
  unsigned len;
  unsigned short lo, hi;
};

/* PORT[-PORT] (lo to hi), or FROM:TO (lo is FROM, hi is TO).  */
struct entitle_ports_s
{
  unsigned short lo, hi;
};

union entitle_value_u
{
  struct entitle_cidr_s cidr;
  struct entitle_ports_s ports;
};

struct entitle_value_kind_s
{
  const char *form;    /**< how it is written: "CIDR[:PORT[-PORT]]" (upper case: what to fill in) */
  const char *hint;    /**< more on the form for messages and man pages, or NULL */
  const char *example; /**< a well-formed value, for tests and help ("10.0.0.0/8:443") */
  bool (*parse) (const char *text, union entitle_value_u *out);
  /** Does @outer allow all that @inner does?  NULL: not an allowlist, so
      the admin's `require` does not floor it.  */
  bool (*covers) (const union entitle_value_u *outer, const union entitle_value_u *inner);
  /** The ports @v names, as a socket call asks for them (a FROM:TO map's
      FROM: the bind asks for FROM), into @lo and @hi.  NULL: it names
      none.  */
  void (*ports) (const union entitle_value_u *v, unsigned *lo, unsigned *hi);
};

/* The kinds the catalogue's rows name.  */
extern const struct entitle_value_kind_s entitle_value_path;     /* PATH */
extern const struct entitle_value_kind_s entitle_value_ports;    /* PORT[-PORT] */
extern const struct entitle_value_kind_s entitle_value_port_map; /* FROM:TO */
extern const struct entitle_value_kind_s entitle_value_cidr;     /* CIDR[:PORT[-PORT]] */

#endif
