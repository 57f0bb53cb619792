/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_OCI_FIELDS_H
#define ENTITLE_OCI_FIELDS_H

#include <stddef.h>
#include "json.h"

/* The objects of a config.json that runc decodes into Go structs, and the
   keys Go's encoding/json reads as their fields (go-fold.h): a key that
   only folds to a field's name is that field to runc, and no member at
   all to entitle, which reads keys as written (as crun does).  */

/** What a document is to runc: config.json, or exec --process FILE.  */
enum entitle_oci_doc
{
  ENTITLE_OCI_CONFIG,
  ENTITLE_OCI_PROCESS,
};

/**
 * Refuse @doc when a key of one of its struct-typed objects is not the
 * name of an OCI field but Go would read it as that field ("Process",
 * "noNewprivileges", "ſeccomp"), or when two of its keys fold to one.
 * The keys of maps (annotations, linux.sysctl, linux.resources.unified,
 * the names of linux.resources.rdma...) are the config's own: never
 * refused.  A member of another type than the field's is not looked
 * into (runc refuses it).  Returns 0, or a one-line error naming the key
 * and the field runc reads it as.
 */
int entitle_oci_fields_check (const json_t *doc, enum entitle_oci_doc kind, entitle_error_t *err);

/* The table, for its unit test.  A row: field @name of object @in, whose
   value is an object (@shape ONE), a list of them (LIST) or a map of them
   (MAP) of @of; @of 0: any other value, looked no further into.  Rows are
   grouped by @in, in increasing order.  */
enum entitle_oci_shape
{
  ENTITLE_OCI_ONE,
  ENTITLE_OCI_LIST,
  ENTITLE_OCI_MAP,
};
struct entitle_oci_field_s
{
  unsigned char in, of, shape;
  const char *name;
};
const struct entitle_oci_field_s *entitle_oci_fields (size_t *n);

#endif
