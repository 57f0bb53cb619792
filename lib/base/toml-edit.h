/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_TOML_EDIT_H
#define ENTITLE_TOML_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include "error.h"

/* A careful editor of the [table] sections of a TOML file, for `entitle
   configure`: not a TOML parser.  It is for what must keep a file the
   user owns as it was: the `imports` entry of containerd's config.toml
   (and --remove taking it out again), the runtimes written into the
   config itself (containerd --in-place, Podman's and CRI-O's --config
   FILE), Podman's and CRI-O's drop-ins, which a second run edits rather
   than replaces, and containerd's drop-in, which is generated whole but
   carries a copy of the user's CRI tables as written, the runtimes set
   among them.  It also reads them (the version, the default runtime,
   runc's options, the CRI tables to copy).  The file is kept as its lines; an edit replaces the
   value of one `key = value` line or inserts lines, and every other byte
   (comments, blank lines, indentation, quoting, order) stays as it was.

   What it reads: comments; `[table]` and `[[array]]` headers; `key =
   value` lines whose key is bare, "quoted" or 'literal', dotted or not,
   and whose value is any TOML value (strings of the four kinds, numbers,
   booleans, dates, arrays over several lines with comments, inline
   tables), each followed by an optional comment.  Anything else is
   refused with its line number: the file is never half understood.

   What it edits: only tables written as a `[table]` header.  A table the
   file makes another way (with dotted keys, as an inline table, or in an
   [[array]]), a table whose header appears twice, a key that is a table,
   are refused rather than edited.  New tables are placed after the
   section of their closest relative and indented like the file's
   sections; new keys go after the table's last key.

   A table is a NULL-terminated array of its key's components, unquoted:
   { "plugins", "io.containerd.grpc.v1.cri", NULL }; { NULL } is the root
   table (the keys before the first header).  Values are passed as TOML
   text (entitle_toml_string makes a string's).  */

typedef struct entitle_toml_s entitle_toml_t;

/**
 * Read the @len bytes of @text (the file @name, for messages).  Returns 0
 * and the document in @out, or a negative error naming the line.
 */
int entitle_toml_parse (const char *name, const char *text, size_t len, entitle_toml_t **out,
                        entitle_error_t *err);

void entitle_toml_free (entitle_toml_t *doc);

static inline void
cleanup_tomlp (entitle_toml_t **doc)
{
  entitle_toml_free (*doc);
}
#define cleanup_toml __attribute__ ((cleanup (cleanup_tomlp)))

/** The document as text (malloc'd, NUL-terminated; its length in @len).  */
char *entitle_toml_text (const entitle_toml_t *doc, size_t *len);

/** Does the document hold no key and no table (only comments and blanks)?  */
bool entitle_toml_is_empty (const entitle_toml_t *doc);

/** Is there a [@table] header?  */
bool entitle_toml_has_table (const entitle_toml_t *doc, const char *const *table);

/**
 * The value of @key in @table as the file writes it, in @raw (malloc'd).
 * Returns 1, or 0 when the key (or the table) is not there; a table
 * entitle cannot edit is an error.
 */
int entitle_toml_get (const entitle_toml_t *doc, const char *const *table, const char *key, char **raw,
                      entitle_error_t *err);

/**
 * The string value of @key in @table, decoded, in @out (malloc'd).
 * Returns 1, or 0 when the key (or the table) is not there; a value that
 * is not a one-line string, or a table entitle cannot edit, is an error.
 */
int entitle_toml_get_string (const entitle_toml_t *doc, const char *const *table, const char *key,
                             char **out, entitle_error_t *err);

/**
 * Set @key of @table to the TOML text @value, making the table when it is
 * missing.  A value equal to the one there (as TOML text, or as the same
 * string) is left as written.
 */
int entitle_toml_set (entitle_toml_t *doc, const char *const *table, const char *key, const char *value,
                      entitle_error_t *err);

/**
 * Make the array of strings @key of @table hold @s: appended after its
 * last item when missing, the array made when there is none.  Returns 1,
 * or 0 when @s is there already; a value that is not an array of strings
 * is an error.
 */
int entitle_toml_array_add (entitle_toml_t *doc, const char *const *table, const char *key, const char *s,
                            entitle_error_t *err);

/**
 * Copy each one-line `key = value` of @from (but the keys of the
 * NULL-terminated @skip) into @to with entitle_toml_set.  Nothing to do
 * when @from has no header.
 */
int entitle_toml_copy_keys (entitle_toml_t *doc, const char *const *from, const char *const *to,
                            const char *const *skip, entitle_error_t *err);

/**
 * Take the string @s out of the array @key of @table: the inverse of
 * entitle_toml_array_add (`, "S"` after the item before it; `[]` when it
 * was the only one).  Returns 1, or 0 when it is not there.
 */
int entitle_toml_array_remove (entitle_toml_t *doc, const char *const *table, const char *key, const char *s,
                               entitle_error_t *err);

/** Delete the line of @key in @table.  Returns 1, or 0 when it is not there.  */
int entitle_toml_delete (entitle_toml_t *doc, const char *const *table, const char *key, entitle_error_t *err);

/**
 * A new root key `@key = @value` on a line of its own before the file's
 * first key or header (after a comment block that opens the file): the
 * one line entitle_toml_delete takes out again.  A key already there is
 * an error.
 */
int entitle_toml_prepend_key (entitle_toml_t *doc, const char *key, const char *value, entitle_error_t *err);

/**
 * The text of every [header] section of @table and of the tables under
 * it, in the file's order, as written (malloc'd, its length in @len); NULL
 * and an error when the file makes @table another way.
 */
char *entitle_toml_tree_text (const entitle_toml_t *doc, const char *const *table, size_t *len,
                              entitle_error_t *err);

/** @s as a TOML basic string, quoted and escaped (malloc'd).  */
char *entitle_toml_string (const char *s);

#endif
