/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_SHA256_H
#define ENTITLE_SHA256_H

#include <stddef.h>

/* SHA-256 (FIPS 180-4) of a buffer, for content-addressed files: an
   engine's image config is named by the digest of its bytes, and entitle
   reads one only after checking that (lib/host/image-record.c).  */

#define ENTITLE_SHA256_HEX_LEN 64

/** The digest of the @len bytes at @data, as 64 lower-case hex digits
    and a NUL in @hex.  */
void entitle_sha256_hex (const void *data, size_t len, char hex[ENTITLE_SHA256_HEX_LEN + 1]);

#endif
