/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_COMMANDS_H
#define ENTITLE_COMMANDS_H

#include "args.h"
#include "context.h"
#include "entitlements.h"
#include "error.h"
#include "help.h"
#include "json.h"
#include "probe.h"

/* What every command gets: the parsed command line, argv as given, the
   context, and the wrapped runtime.  */
struct shim_s
{
  int argc;
  char **argv;
  struct entitle_args_s args;
  struct entitle_ctx_s *ctx;
  const char *runtime;
};

/* A command returns only on error; success ends in exec or exit.  */
int shim_create (struct shim_s *s, entitle_error_t *err);
int shim_exec (struct shim_s *s, entitle_error_t *err);
int shim_features (struct shim_s *s, entitle_error_t *err);
int shim_compile (struct shim_s *s, entitle_error_t *err);
int shim_explain (struct shim_s *s, entitle_error_t *err);
int shim_version (struct shim_s *s, entitle_error_t *err);
int shim_probe_command (struct shim_s *s, entitle_error_t *err);
int shim_help (struct shim_s *s, entitle_error_t *err);
int shim_complete (struct shim_s *s, entitle_error_t *err);
int shim_checmate (struct shim_s *s, entitle_error_t *err);
int shim_why (struct shim_s *s, entitle_error_t *err);
int shim_inspect (struct shim_s *s, entitle_error_t *err);
int shim_learn (struct shim_s *s, entitle_error_t *err);
int shim_config (struct shim_s *s, entitle_error_t *err);

/** Is help asked for: `--help`, `help [COMMAND]`, or a command's `--help`?  */
bool shim_help_asked (const struct shim_s *s);

/**
 * Read the admin config.  A bad one is an error for a command that applies
 * @policy; otherwise a warning, and the runtime runs without it.
 */
int shim_load_config (struct shim_s *s, bool policy, entitle_error_t *err);

/** Find the wrapped runtime (@runtime, malloc'd) and mark it as the runtime.  */
int shim_find_runtime (struct shim_s *s, char **runtime, entitle_error_t *err);
int shim_configure (struct shim_s *s, entitle_error_t *err);

/** Could the engine's record of this container hold its image's label
    (the admin config's `image_labels`; no file opened)?  */
bool shim_image_applies (const struct entitle_config_s *cfg, const struct entitle_args_s *a);

/**
 * Put the label of the image the container runs into @spec's annotations
 * (full/image-label.c), where shim_image_applies: 1 when there is one, 0 when none applies, <0 on a malformed record or
 * label, or an annotation of the label the record does not confirm.
 */
int shim_image_label (struct shim_s *s, json_t *spec, entitle_error_t *err);

/** The fds past 2 the runtime passes the container (LISTEN_FDS, --preserve-fds).  */
int shim_preserved_fds (const struct entitle_args_s *a);

/**
 * Where @final takes the eBPF seccomp layer: load its filter and pass it to
 * the runtime as the next preserved fd (s->argv gets the new
 * --preserve-fds; the array is never freed: the runtime is exec'd next).
 */
int shim_seccomp_layer (struct shim_s *s, const struct entitle_set_s *final, entitle_error_t *err);

/**
 * Can this host attach the cgroup programs the final set @set needs for
 * @spec?  A request beyond what the programs hold is refused; a program
 * this host lacks is refused naming the entitlements (warned about, with
 * on_unenforceable "warn").
 */
int shim_check_bpf (struct entitle_ctx_s *ctx, const struct entitle_set_s *set, const json_t *spec,
                    entitle_error_t *err);

/** execv the wrapped runtime with entitle's own argv; returns on failure. */
int shim_exec_runtime (struct shim_s *s, entitle_error_t *err);

/**
 * Run the runtime with @argv (argv[0] ignored), collect its stdout into a
 * malloc'd buffer; its stderr is discarded.  Returns the exit status.
 */
int shim_capture (const char *runtime, char *const *argv, char **out, size_t *len,
                  entitle_error_t *err);

/** Print @doc on stdout as JSON for people (indented).  */
int shim_print_json (const json_t *doc, entitle_error_t *err);

/** Print @doc on stdout as one line of JSON, and flush (a stream of objects).  */
int shim_print_json_line (const json_t *doc, entitle_error_t *err);

/** Read and parse a JSON file of at most 16 MiB. */
int shim_load_json (const char *path, char **raw, size_t *len, json_t **out, entitle_error_t *err);

#endif
