/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <string.h>
#include "protobuf.h"

static int
varint (const unsigned char *buf, size_t len, size_t *pos, uint64_t *v)
{
  unsigned shift;

  *v = 0;
  for (shift = 0; shift < 64 && *pos < len; shift += 7)
    {
      unsigned char b = buf[(*pos)++];
      *v |= (uint64_t)(b & 0x7f) << shift;
      if (!(b & 0x80))
        return 0;
    }
  return -1;
}

int
entitle_pb_next (const unsigned char *buf, size_t len, size_t *pos, struct entitle_pb_field_s *f)
{
  uint64_t key;

  if (*pos >= len)
    return 0;
  if (varint (buf, len, pos, &key) < 0 || (key >> 3) == 0 || (key >> 3) > UINT32_MAX)
    return -1;
  memset (f, 0, sizeof (*f));
  f->number = (uint32_t)(key >> 3);
  f->wire = (uint32_t)(key & 7);
  switch (f->wire)
    {
    case 0:
      return varint (buf, len, pos, &f->varint) < 0 ? -1 : 1;
    case 1:
    case 5:
      f->len = f->wire == 1 ? 8 : 4;
      break;
    case 2:
      if (varint (buf, len, pos, &f->varint) < 0)
        return -1;
      f->len = (size_t)f->varint;
      break;
    default:
      return -1;
    }
  if (f->len > len - *pos)
    return -1;
  f->data = buf + *pos;
  *pos += f->len;
  return 1;
}

static bool
put_varint (unsigned char *out, size_t cap, size_t *n, uint64_t v)
{
  do
    {
      if (*n >= cap)
        return false;
      out[(*n)++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
      v >>= 7;
    }
  while (v);
  return true;
}

bool
entitle_pb_put_bytes (unsigned char *out, size_t cap, size_t *n, uint32_t number, const void *data, size_t len)
{
  if (!put_varint (out, cap, n, (uint64_t)number << 3 | 2) || !put_varint (out, cap, n, len) || len > cap - *n)
    return false;
  memcpy (out + *n, data, len);
  *n += len;
  return true;
}
