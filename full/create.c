/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach-after.h"
#include "commands.h"
#include "compile.h"
#include "rewrite.h"
#include "fault.h"
#include "file.h"
#include "hooks.h"
#include "json.h"
#include "request-mark.h"
#include "utils.h"

/* Could anything apply?  Only then is config.json parsed: the admin sets
   defaults or a floor, or the config may ask (lib/model/request-mark.h;
   the front, shim/front.c, asks the same before it runs entitle-full).  */

int
shim_create (struct shim_s *s, entitle_error_t *err)
{
  cleanup_free char *path = entitle_args_config_path (&s->args), *raw = NULL, *out = NULL;
  cleanup_json json_t *spec = NULL;
  cleanup_entitle_set struct entitle_set_s final = { 0 };
  /* Could the engine's record hold the image's label (no file opened)?  */
  bool image = shim_image_applies (s->ctx->config, &s->args);
  size_t len = 0, out_len;
  int ret;

  ret = entitle_file_read (path, ENTITLE_MAX_CONFIG_SIZE, &raw, &len, err);
  /* Transparent where nothing could apply: a missing config is the
     runtime's error to report, in its words; one too large to parse
     passes if it asks nothing.  */
  if (!entitle_create_may_apply (s->ctx->config, image, path, raw, len, ret < 0 ? (*err)->status : 0))
    {
      entitle_error_release (err);
      return shim_exec_runtime (s, err);
    }
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "load config");
  ret = json_parse (raw, len, &spec, err);
  if (UNLIKELY (ret < 0))
    return entitle_error_wrap (err, "load `%s`", path);
  /* Not needed again: the memory create takes stays the tree and the text
     it writes back.  */
  free (get_and_reset (&raw));
  ENTITLE_FAULT_POINT ("after-parse");
  ret = image ? shim_image_label (s, spec, err) : 0;
  if (UNLIKELY (ret < 0))
    return ret;
  ret = entitle_rewrite (s->ctx, spec, &final, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (ret == 0)
    return shim_exec_runtime (s, err);
  /* Refuse before the runtime starts anything (and before the bundle is
     touched) when this host cannot run what the hook would attach.  */
  ret = shim_check_bpf (s->ctx, &final, spec, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ret = json_generate_compact (spec, &out, &out_len, err);
  if (UNLIKELY (ret < 0))
    return ret;
  if (out_len > ENTITLE_MAX_CONFIG_SIZE)
    return entitle_make_error (err, EFBIG, "the rewritten config would be %zu bytes, more than the %d that entitle reads",
                               out_len, ENTITLE_MAX_CONFIG_SIZE);
  /* A bundle entitle rewrote before compiles to the same bytes: nothing
     to write.  */
  if (entitle_file_equal (path, out, out_len) != 1)
    {
      ret = entitle_file_write_atomic (path, out, out_len, err);
      if (UNLIKELY (ret < 0))
        return ret;
    }
  entitle_log_debug (s->ctx->log, "rewrote `%s`: %s", path,
                     json_string (json_get (json_get (spec, "annotations"), ENTITLE_ANNOTATION_APPLIED)));
  ret = shim_seccomp_layer (s, &final, err);
  if (UNLIKELY (ret < 0))
    return ret;
  ENTITLE_FAULT_POINT ("before-exec");
  if (s->ctx->attach_after && entitle_needs_bpf (&final))
    return shim_create_attach_after (s, spec, &final, err);
  return shim_exec_runtime (s, err);
}
