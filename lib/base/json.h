/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef ENTITLE_JSON_H
#define ENTITLE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "error.h"

/* A small JSON DOM on top of yajl's callback parser.  It keeps what a
   lossless rewrite needs: key order, duplicate keys, and numbers exactly as
   written (seccomp argument values are uint64; they must never pass
   through a double or a long long).  */

enum json_type
{
  JSON_NULL,
  JSON_FALSE,
  JSON_TRUE,
  JSON_NUMBER,
  JSON_STRING,
  JSON_OBJECT,
  JSON_ARRAY,
};

/* 32 bytes a node: a config of 16 MiB can hold a node every few bytes,
   and entitle's memory must stay a small multiple of the config.  A
   scalar's text, and the key it has in its object, live in the node's
   own allocation.  */
typedef struct json_s json_t;
struct json_s
{
  unsigned char type;  /**< enum json_type */
  unsigned char flags; /**< lib/base/json.c's own */
  uint32_t len;        /**< length of text */
  uint32_t n, cap;     /**< members of an object or array */
  union
  {
    char *text; /**< string value or number as written (JSON_STRING, JSON_NUMBER) */
    struct
    {
      char **keys;    /**< object keys (NUL-terminated); NULL in an array */
      json_t **items; /**< object values or array elements */
    };
  };
};

/**
 * Parse @len bytes of @buf.  The whole buffer must be one JSON value.
 * Returns 0 and stores the tree in @out, or a negative error whose
 * message is one line.
 */
int json_parse (const char *buf, size_t len, json_t **out, entitle_error_t *err);

/* Where the first JSON value of a stream ends, found as the bytes come
   (exec --process FILE, which runc reads with a decoder that stops
   there: what follows is never read).  Only the structure is followed;
   json_parse judges the bytes.  Zero-initialise.  */
struct json_scan_s
{
  size_t pos;   /**< bytes scanned */
  size_t depth; /**< objects and arrays open */
  bool in_string, escape;
};

/**
 * Scan on through @buf, of which @len bytes have arrived (the first
 * @s->pos were scanned by earlier calls).  Returns the length of the
 * object or array @buf starts with (after white space) once it is
 * closed; 0 while it may go on; -1 when @buf starts with anything else
 * (no process, which must be an object: json_parse says what it is).
 */
long json_scan (struct json_scan_s *s, const char *buf, size_t len);

/**
 * Serialise @v, indented, with a trailing newline, into a malloc'd buffer.
 */
int json_generate (const json_t *v, char **out, size_t *len, entitle_error_t *err);

/**
 * Serialise @v without indentation, with a trailing newline: what entitle
 * writes back for the runtime (a rewrite must not grow a config past what
 * entitle-hook and the runtimes read).
 */
int json_generate_compact (const json_t *v, char **out, size_t *len, entitle_error_t *err);

/** Free @v and everything below it; NULL is fine. */
/* The length of the well-formed UTF-8 sequence of more than one byte at
   @s[@i], or 0 (RFC 3629: no overlong forms, surrogates, or code points
   past U+10FFFF).  */
size_t entitle_utf8_len (const unsigned char *s, size_t i, size_t len);

/* The compact form, ill-formed UTF-8 written as \ufffd: for log records,
   which must not be lost.  NULL only for a value that is not JSON.  */
char *json_generate_record (const json_t *v, size_t *len);

void json_free (json_t *v);

static inline void
cleanup_jsonp (json_t **v)
{
  json_free (*v);
}
#define cleanup_json __attribute__ ((cleanup (cleanup_jsonp)))

/** Constructors; they abort on out-of-memory, as yajl's allocator does. */
json_t *json_new (enum json_type type);
json_t *json_new_string (const char *s);
json_t *json_new_number (const char *text);
json_t *json_new_uint (unsigned long long v);
json_t *json_new_bool (bool v);
json_t *json_clone (const json_t *v);

/** The value of the last @key in object @obj, or NULL. */
json_t *json_get (const json_t *obj, const char *key);

/** Object member @key of @obj, created with @type when missing or of another type. */
json_t *json_get_or_add (json_t *obj, const char *key, enum json_type type);

/** Set @key of @obj to @val (taking it), replacing every existing @key. */
void json_set (json_t *obj, const char *key, json_t *val);

/** Remove every @key from @obj; returns true if one was there.  @key must
    not be one of @obj's own keys (json_remove_at removes a member).  */
bool json_del (json_t *obj, const char *key);

/** Append @val (taking it) to array @arr. */
void json_push (json_t *arr, json_t *val);

/** Remove and free member @i of the array or object @arr. */
void json_remove_at (json_t *arr, size_t i);

/** Remove and free, in one pass, every element of array @arr for which
    @drop (given @data) is true; returns how many.  */
size_t json_array_drop (json_t *arr, bool (*drop) (const json_t *item, void *data), void *data);

/** The string of @v, or NULL when @v is not a string. */
const char *json_string (const json_t *v);

/** Index of string @s in array @arr, or -1. */
long json_array_find_string (const json_t *arr, const char *s);

/** Deep equality (numbers compared as written). */
bool json_equal (const json_t *a, const json_t *b);

#endif
