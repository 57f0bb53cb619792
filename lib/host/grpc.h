/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_GRPC_H
#define ENTITLE_GRPC_H

#include <stddef.h>
#include "error.h"

/* One unary gRPC call over a unix socket: HTTP/2 with the headers sent as
   HPACK literals (no table, no Huffman), one request message, the first
   response message read back.  What entitle asks containerd (its record
   of a container: lib/host/image-containerd.c), with a deadline, so that
   a daemon that does not answer never holds a create for long.  */

/* The deadline of a whole call.  */
#define ENTITLE_GRPC_TIMEOUT_MS 2000

/* The largest response message read.  */
#define ENTITLE_GRPC_MAX_RESPONSE (4 * 1024 * 1024)

/**
 * Call @method ("/package.Service/Method") on the gRPC server at @socket
 * with the protobuf message @req of @len bytes and the extra header
 * @hname: @hvalue (NULL: none); the response message into @resp (malloc'd,
 * @resp_len bytes).  ENOENT when the server ended the call with no
 * message (an error status, such as containerd's NotFound), ETIMEDOUT
 * past the deadline, others as the socket says.
 */
int entitle_grpc_call (const char *socket, const char *method, const char *hname, const char *hvalue,
                       const unsigned char *req, size_t len, unsigned char **resp, size_t *resp_len,
                       entitle_error_t *err);

#endif
