/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_VALUES_H
#define ENTITLE_VALUES_H

/**
 * Check the value of the modifier @name: NULL when it is well formed, else
 * the form it should have ("CIDR[:PORT[-PORT]]"), for the message.
 */
const char *entitle_value_check (const char *name, const char *value);

#endif
