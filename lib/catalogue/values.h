/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_VALUES_H
#define ENTITLE_VALUES_H

#include <stdbool.h>

/**
 * Check the value of the modifier @name: NULL when it is well formed, else
 * the form it should have ("CIDR[:PORT[-PORT]]"), for the message.
 */
const char *entitle_value_check (const char *name, const char *value);

/** Is the modifier @name an allowlist that a required rule floors?  */
bool entitle_value_has_floor (const char *name);

/** Does the value @outer of the modifier @name allow all that @inner does?  */
bool entitle_value_covers (const char *name, const char *outer, const char *inner);

/* A parsed `network.egress` value: the CIDR and the port range (0-65535
   when none is given).  The address is in network byte order.  */
struct entitle_cidr_s
{
  int family; /**< AF_INET or AF_INET6 */
  unsigned char addr[16];
  unsigned len;
  unsigned short lo, hi;
};

bool entitle_parse_egress (const char *s, struct entitle_cidr_s *out);

/** PORT or PORT-PORT (1-65535, low to high).  */
bool entitle_parse_ports (const char *s, unsigned short *lo, unsigned short *hi);

/** FROM:TO.  */
bool entitle_parse_port_map (const char *s, unsigned short *from, unsigned short *to);

#endif
