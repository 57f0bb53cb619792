/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_GO_FOLD_H
#define ENTITLE_GO_FOLD_H

#include <stdbool.h>

/* How Go's encoding/json, which runc decodes config.json and exec's
   process with, matches an object key to a struct field whose name is
   ASCII (every OCI field's is): the exact name first, else any key equal
   to it once folded.  Folded: an ASCII letter in either case, U+017F
   (LATIN SMALL LETTER LONG S) as s, U+212A (KELVIN SIGN) as k; every
   other byte as itself.  Go 1.19's fold.go (equalFoldRight,
   asciiEqualFold, simpleLetterEqualFold, picked by foldFunc) and Go
   1.21's (foldName, through unicode.SimpleFold) agree on these: no other
   code point folds to an ASCII letter.  Keys are valid UTF-8 (json_parse
   refuses any other).  */

/**
 * Compare @a and @b folded: 0 when Go would match both to one field,
 * else their order (for sorting keys so that such keys meet).
 */
int entitle_go_fold_cmp (const char *a, const char *b);

/** Would Go match @key to the field named @field (ASCII)?  */
static inline bool
entitle_go_fold_matches (const char *field, const char *key)
{
  return entitle_go_fold_cmp (field, key) == 0;
}

#endif
