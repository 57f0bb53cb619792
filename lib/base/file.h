/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_FILE_H
#define ENTITLE_FILE_H

#include <stddef.h>
#include <sys/types.h>
#include "error.h"

/* A config.json larger than this is refused (DESIGN §5).  */
#define ENTITLE_MAX_CONFIG_SIZE (16 * 1024 * 1024)

/**
 * Read the regular file @path, at most @max bytes, into a NUL-terminated
 * malloc'd buffer.  A larger file is an error, not a truncation.
 */
int entitle_file_read (const char *path, size_t max, char **buf, size_t *len,
                       entitle_error_t *err);

/**
 * entitle_file_read of @rel under the directory @root, never following a
 * symbolic link and never leaving @root (openat2 RESOLVE_BENEATH,
 * RESOLVE_NO_SYMLINKS): for an engine's records, which entitle reads but
 * does not own.
 */
int entitle_file_read_beneath (const char *root, const char *rel, size_t max, char **buf, size_t *len,
                               entitle_error_t *err);

/** write(2) all of @buf, across short writes and EINTR; -1 on error. */
int entitle_write_all (int fd, const char *buf, size_t len);

/**
 * Replace @path with @len bytes of @buf atomically: a temporary file in the
 * same directory, fsync, rename, fsync of the directory.  The file's mode
 * and owner are kept.  @path must be a regular file, never a symlink.
 */
int entitle_file_write_atomic (const char *path, const char *buf, size_t len,
                               entitle_error_t *err);

/**
 * entitle_file_write_atomic, and where @path does not exist, make it a
 * new file of mode @mode, owned by the caller.
 */
int entitle_file_create_atomic (const char *path, const char *buf, size_t len, mode_t mode,
                                entitle_error_t *err);

/**
 * Does the file @path hold the bytes @needle?  1 or 0, -1 when it cannot
 * be read.  Used on files too large to parse, without reading them whole.
 */
int entitle_file_contains (const char *path, const char *needle);

/**
 * Does the file @path hold exactly the @len bytes of @buf?  1 or 0, -1
 * when it cannot be read.  Read in pieces: the file may be as large as a
 * config, and is not kept.
 */
int entitle_file_equal (const char *path, const char *buf, size_t len);

/**
 * Make the directory @path of entitle's state (mode 0700), and first its
 * @parents nearest ancestors where they are missing (the state directory
 * itself may not exist yet), never further up.  An existing @path is no
 * error.  The error names @path ("mkdir `PATH`") with the errno of the
 * mkdir that failed.
 */
int entitle_mkdir_state (const char *path, int parents, entitle_error_t *err);

#endif
