/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_PROTOBUF_H
#define ENTITLE_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The little of the protocol buffers wire format that entitle reads and
   writes (containerd's API: lib/host/image-containerd.c): fields of
   varints and of bytes (strings, messages, map entries).  */

struct entitle_pb_field_s
{
  uint32_t number;
  uint32_t wire; /**< 0 varint, 1 64-bit, 2 bytes, 5 32-bit */
  uint64_t varint;
  const unsigned char *data; /**< wire 2: the bytes */
  size_t len;
};

/**
 * The next field of the message @buf of @len bytes at *@pos into @f,
 * advancing *@pos: 1, 0 at the end, -1 on a malformed message.
 */
int entitle_pb_next (const unsigned char *buf, size_t len, size_t *pos, struct entitle_pb_field_s *f);

/** Append field @number as bytes @data of @len to @out (at most @cap
    bytes, written so far *@n); false when it does not fit.  */
bool entitle_pb_put_bytes (unsigned char *out, size_t cap, size_t *n, uint32_t number, const void *data, size_t len);

#endif
