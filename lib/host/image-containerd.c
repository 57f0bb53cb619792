/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * containerd's record of a container (docs/image-labels.md, "containerd"):
 * at creation containerd copies the labels of the image's config into
 * the container's record (ctr run; the CRI plugin the same), so the
 * record's label `io.entitle.entitlements` is the label of the image the
 * container was made from, whatever its name names since.  The record is
 * in a database containerd holds locked: entitle asks containerd over its
 * gRPC socket (Containers.Get) with the namespace the bundle's path
 * names.  A `ctr run --label` of the same key reaches config.json's
 * annotations too, where it wins before the record is asked.  The CRI's
 * record also names the image by digest (its extension
 * io.cri-containerd.container.metadata, `ImageRef`).
 */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "grpc.h"
#include "image-engine.h"
#include "protobuf.h"
#include "request.h"
#include "utils.h"

#define GET_METHOD  "/containerd.services.containers.v1.Containers/Get"
#define CRI_META    "io.cri-containerd.container.metadata"
#define FIELD_ID    1  /* GetContainerRequest.id */
#define FIELD_CTR   1  /* GetContainerResponse.container */
#define FIELD_LABEL 2  /* Container.labels, map<string, string> */
#define FIELD_EXT   10 /* Container.extensions, map<string, Any> */

/* Fields 1 and 2 of the map entry or Any @f.  */
static int
pair (const struct entitle_pb_field_s *f, struct entitle_pb_field_s *one, struct entitle_pb_field_s *two)
{
  struct entitle_pb_field_s x;
  size_t pos = 0;
  int ret;

  memset (one, 0, sizeof (*one));
  memset (two, 0, sizeof (*two));
  while ((ret = entitle_pb_next (f->data, f->len, &pos, &x)) > 0)
    if (x.wire == 2 && (x.number == 1 || x.number == 2))
      *(x.number == 1 ? one : two) = x;
  return ret;
}

static bool
is (const struct entitle_pb_field_s *f, const char *s)
{
  return f->data && f->len == strlen (s) && memcmp (f->data, s, f->len) == 0;
}

static char *
dup_field (const struct entitle_pb_field_s *f)
{
  char *s = xstrndup (f->data ? (const char *)f->data : "", f->len);
  return s;
}

/* The CRI's `ImageRef`, the image's digest, from its JSON extension.  */
static char *
cri_image_ref (const struct entitle_pb_field_s *any_value)
{
  cleanup_json json_t *doc = NULL;
  entitle_error_t err = NULL;
  const char *ref;

  if (json_parse ((const char *)any_value->data, any_value->len, &doc, &err) < 0)
    {
      entitle_error_release (&err);
      return NULL;
    }
  ref = json_string (json_get (json_get (doc, "Metadata"), "ImageRef"));
  return entitle_image_digest_valid (ref) ? xstrdup (ref) : NULL;
}

struct record_s
{
  char *label;
  bool has_label;
  char *digest; /**< the CRI's ImageRef, or NULL */
};

static int
read_container (const unsigned char *buf, size_t len, struct record_s *r)
{
  struct entitle_pb_field_s f, k, v, type, value;
  size_t pos = 0;
  int ret;

  while ((ret = entitle_pb_next (buf, len, &pos, &f)) > 0)
    {
      if (f.wire != 2)
        continue;
      if ((f.number == FIELD_LABEL || f.number == FIELD_EXT) && pair (&f, &k, &v) < 0)
        return -1;
      if (f.number == FIELD_LABEL && is (&k, ENTITLE_ANNOTATION) && !r->has_label)
        {
          r->label = dup_field (&v), r->has_label = true;
          if (strlen (r->label) != v.len)
            return -1;
        }
      if (f.number == FIELD_EXT && is (&k, CRI_META) && v.data && pair (&v, &type, &value) == 0 && value.data)
        r->digest = cri_image_ref (&value);
    }
  return ret;
}

int
entitle_image_containerd (const char *socket, const char *ns, const char *id, struct entitle_image_request_s *out,
                          entitle_error_t *err)
{
  cleanup_free unsigned char *resp = NULL;
  unsigned char req[512];
  struct entitle_pb_field_s f;
  struct record_s r = { 0 };
  size_t n = 0, len, pos = 0;
  int ret;

  if (!entitle_pb_put_bytes (req, sizeof (req), &n, FIELD_ID, id, strlen (id)))
    return entitle_make_error (err, ENAMETOOLONG, "container id `%s` is too long", id);
  ret = entitle_grpc_call (socket, GET_METHOD, "containerd-namespace", ns, req, n, &resp, &len, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "containerd's record of container %s", id);
  while ((ret = entitle_pb_next (resp, len, &pos, &f)) > 0)
    if (f.number == FIELD_CTR && f.wire == 2 && read_container (f.data, f.len, &r) < 0)
      {
        ret = -1;
        break;
      }
  if (ret == 0 && r.has_label)
    {
      out->entitlements = get_and_reset (&r.label);
      out->digest = get_and_reset (&r.digest);
    }
  free (r.label);
  free (r.digest);
  if (ret < 0)
    return entitle_make_error (err, EPROTO, "containerd's record of container %s is not a Container message", id);
  return out->entitlements ? 1 : 0;
}
