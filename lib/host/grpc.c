/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "file.h"
#include "grpc.h"
#include "utils.h"

/* HTTP/2 (RFC 9113) frame types and flags used here.  */
enum
{
  FRAME_DATA = 0,
  FRAME_HEADERS = 1,
  FRAME_RST_STREAM = 3,
  FRAME_SETTINGS = 4,
  FRAME_PING = 6,
  FRAME_GOAWAY = 7,
  FRAME_WINDOW_UPDATE = 8,
};
#define FLAG_END_STREAM  0x1
#define FLAG_ACK         0x1
#define FLAG_END_HEADERS 0x4
#define FLAG_PADDED      0x8
#define STREAM           1
#define MAX_FRAME        16384

struct conn_s
{
  int fd;
  struct timespec deadline;
};

static int
ms_left (const struct conn_s *c)
{
  struct timespec now;
  long ms;

  clock_gettime (CLOCK_MONOTONIC, &now);
  ms = (c->deadline.tv_sec - now.tv_sec) * 1000 + (c->deadline.tv_nsec - now.tv_nsec) / 1000000;
  return ms > 0 ? (int)ms : 0;
}

static int
read_full (struct conn_s *c, unsigned char *buf, size_t len)
{
  while (len > 0)
    {
      struct pollfd p = { .fd = c->fd, .events = POLLIN };
      ssize_t r;
      int n = poll (&p, 1, ms_left (c));

      if (n == 0)
        return -ETIMEDOUT;
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -errno;
      r = read (c->fd, buf, len);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return r == 0 ? -ECONNRESET : -errno;
      buf += r;
      len -= (size_t)r;
    }
  return 0;
}

static int
send_frame (struct conn_s *c, unsigned type, unsigned flags, uint32_t stream, const void *payload, size_t len)
{
  unsigned char h[9] = { (unsigned char)(len >> 16), (unsigned char)(len >> 8), (unsigned char)len,
                         (unsigned char)type, (unsigned char)flags, (unsigned char)(stream >> 24),
                         (unsigned char)(stream >> 16), (unsigned char)(stream >> 8), (unsigned char)stream };

  if (entitle_write_all (c->fd, (const char *)h, sizeof (h)) < 0
      || (len && entitle_write_all (c->fd, payload, len) < 0))
    return -errno;
  return 0;
}

/* An HPACK integer of @prefix bits (RFC 7541 §5.1), its first byte
   or'ed with @first.  */
static size_t
hpack_int (unsigned char *out, unsigned char first, unsigned prefix, size_t v)
{
  size_t max = (1u << prefix) - 1, n = 0;

  if (v < max)
    {
      out[n++] = (unsigned char)(first | v);
      return n;
    }
  out[n++] = (unsigned char)(first | max);
  for (v -= max; v >= 128; v >>= 7)
    out[n++] = (unsigned char)((v & 0x7f) | 0x80);
  out[n++] = (unsigned char)v;
  return n;
}

/* A literal header field without indexing, new name (§6.2.2).  */
static size_t
hpack_literal (unsigned char *out, const char *name, const char *value)
{
  size_t n = 0, nl = strlen (name), vl = strlen (value);

  out[n++] = 0;
  n += hpack_int (out + n, 0, 7, nl);
  memcpy (out + n, name, nl);
  n += nl;
  n += hpack_int (out + n, 0, 7, vl);
  memcpy (out + n, value, vl);
  return n + vl;
}

static int
send_request (struct conn_s *c, const char *method, const char *hname, const char *hvalue,
              const unsigned char *req, size_t len)
{
  static const char preface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
  const char *headers[][2] = {
    { ":method", "POST" },
    { ":scheme", "http" },
    { ":path", method },
    { ":authority", "localhost" },
    { "content-type", "application/grpc" },
    { "te", "trailers" },
    { hname, hvalue },
  };
  unsigned char block[2048], *msg;
  size_t n = 0, i;
  int ret;

  for (i = 0; i < sizeof (headers) / sizeof (headers[0]) && headers[i][0]; i++)
    {
      if (strlen (headers[i][0]) + strlen (headers[i][1]) + 16 > sizeof (block) - n)
        return -ENAMETOOLONG;
      n += hpack_literal (block + n, headers[i][0], headers[i][1]);
    }
  if (len > MAX_FRAME - 5)
    return -EMSGSIZE;
  msg = xmalloc (len + 5);
  /* The gRPC message: not compressed, its length, the bytes.  */
  msg[0] = 0;
  msg[1] = (unsigned char)(len >> 24), msg[2] = (unsigned char)(len >> 16), msg[3] = (unsigned char)(len >> 8);
  msg[4] = (unsigned char)len;
  memcpy (msg + 5, req, len);
  ret = entitle_write_all (c->fd, preface, sizeof (preface) - 1) < 0 ? -errno : 0;
  if (ret == 0)
    ret = send_frame (c, FRAME_SETTINGS, 0, 0, NULL, 0);
  if (ret == 0)
    ret = send_frame (c, FRAME_HEADERS, FLAG_END_HEADERS, STREAM, block, n);
  if (ret == 0)
    ret = send_frame (c, FRAME_DATA, FLAG_END_STREAM, STREAM, msg, len + 5);
  free (msg);
  return ret;
}

/* Give back to both windows what a DATA frame of @len took.  */
static int
window_update (struct conn_s *c, size_t len)
{
  unsigned char inc[4] = { (unsigned char)(len >> 24), (unsigned char)(len >> 16), (unsigned char)(len >> 8),
                           (unsigned char)len };
  int ret = len ? send_frame (c, FRAME_WINDOW_UPDATE, 0, 0, inc, 4) : 0;

  return ret == 0 && len ? send_frame (c, FRAME_WINDOW_UPDATE, 0, STREAM, inc, 4) : ret;
}

/* The payload of a DATA frame, its padding taken off, appended to the
   response.  */
static int
take_data (unsigned char *payload, size_t len, unsigned flags, unsigned char **body, size_t *n)
{
  size_t pad = 0;
  unsigned char *p;

  if (flags & FLAG_PADDED)
    {
      if (len == 0 || (size_t)payload[0] + 1 > len)
        return -EPROTO;
      pad = payload[0];
      payload++;
      len -= pad + 1;
    }
  if (*n + len > ENTITLE_GRPC_MAX_RESPONSE + 5)
    return -EFBIG;
  p = xrealloc (*body, *n + len + 1);
  memcpy (p + *n, payload, len);
  *body = p;
  *n += len;
  return 0;
}

/* Frames until stream 1 ends: its DATA into @body.  */
static int
read_response (struct conn_s *c, unsigned char **body, size_t *n)
{
  for (;;)
    {
      unsigned char h[9];
      cleanup_free unsigned char *payload = NULL;
      size_t len;
      unsigned type, flags;
      uint32_t stream;
      int ret = read_full (c, h, sizeof (h));

      if (ret < 0)
        return ret;
      len = (size_t)h[0] << 16 | (size_t)h[1] << 8 | h[2];
      type = h[3], flags = h[4];
      stream = ((uint32_t)h[5] << 24 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 8 | h[8]) & 0x7fffffff;
      if (len > MAX_FRAME)
        return -EPROTO;
      payload = xmalloc (len + 1);
      ret = read_full (c, payload, len);
      if (ret == 0 && type == FRAME_SETTINGS && !(flags & FLAG_ACK))
        ret = send_frame (c, FRAME_SETTINGS, FLAG_ACK, 0, NULL, 0);
      if (ret == 0 && type == FRAME_PING && !(flags & FLAG_ACK))
        ret = send_frame (c, FRAME_PING, FLAG_ACK, 0, payload, len);
      if (ret == 0 && type == FRAME_DATA && stream == STREAM)
        ret = take_data (payload, len, flags, body, n);
      if (ret == 0 && type == FRAME_DATA && stream == STREAM)
        ret = window_update (c, len);
      if (ret < 0)
        return ret;
      if (type == FRAME_GOAWAY || (type == FRAME_RST_STREAM && stream == STREAM))
        return -ECONNRESET;
      if ((type == FRAME_DATA || type == FRAME_HEADERS) && stream == STREAM && (flags & FLAG_END_STREAM))
        return 0;
    }
}

static int
connect_unix (const char *socket_path, int *fd)
{
  struct sockaddr_un sa = { .sun_family = AF_UNIX };

  if (strlen (socket_path) >= sizeof (sa.sun_path))
    return -ENAMETOOLONG;
  strcpy (sa.sun_path, socket_path);
  *fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (*fd < 0)
    return -errno;
  if (connect (*fd, (struct sockaddr *)&sa, sizeof (sa)) < 0)
    return -errno;
  return 0;
}

int
entitle_grpc_call (const char *socket, const char *method, const char *hname, const char *hvalue,
                   const unsigned char *req, size_t len, unsigned char **resp, size_t *resp_len, entitle_error_t *err)
{
  cleanup_close int fd = -1;
  cleanup_free unsigned char *body = NULL;
  struct conn_s c;
  size_t n = 0, mlen;
  int ret;

  clock_gettime (CLOCK_MONOTONIC, &c.deadline);
  c.deadline.tv_sec += ENTITLE_GRPC_TIMEOUT_MS / 1000;
  ret = connect_unix (socket, &fd);
  c.fd = fd;
  if (ret == 0)
    ret = send_request (&c, method, hname, hvalue, req, len);
  if (ret == 0)
    ret = read_response (&c, &body, &n);
  if (ret < 0)
    return entitle_make_error (err, -ret, "gRPC %s on `%s`: %s", method, socket, strerror (-ret));
  if (n < 5)
    return entitle_make_error (err, ENOENT, "gRPC %s on `%s`: no message in the answer", method, socket);
  mlen = (size_t)body[1] << 24 | (size_t)body[2] << 16 | (size_t)body[3] << 8 | body[4];
  if (body[0] != 0 || mlen != n - 5)
    return entitle_make_error (err, EPROTO, "gRPC %s on `%s`: a compressed or truncated message", method, socket);
  memmove (body, body + 5, mlen);
  *resp = get_and_reset (&body);
  *resp_len = mlen;
  return 0;
}
