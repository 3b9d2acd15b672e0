/* JSON documents with positions: cJSON parses, and a second pass over the
 * same text records where every node (its key and its value) starts, so a
 * semantic error can say FILE:LINE:COL: $.json.path: what is wrong. */
#ifndef BOUNCE_JSON_POS_H
#define BOUNCE_JSON_POS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include "base/error.h"

#define JPOS_MAX_DEPTH 64             /* nesting of arrays/objects */
#define JPOS_MAX_BYTES (16u << 20)    /* 16 MiB */
#define JPOS_MAX_NUMBER 63            /* characters in one number (cJSON's buffer) */

struct jpos_doc;

/* Read and parse a file. Refuses directories, unreadable and empty files,
 * non-UTF-8, nesting deeper than JPOS_MAX_DEPTH, inputs over JPOS_MAX_BYTES,
 * syntax errors, duplicate keys and numbers cJSON accepts but JSON does not. */
struct jpos_doc *jpos_load(const char *path, struct err *e);
/* The same from memory; `name` is the file name used in messages. */
struct jpos_doc *jpos_parse(const char *name, const char *text, size_t len, struct err *e);
void jpos_free(struct jpos_doc *d);
/* cJSON_ParseWithLengthOpts (not null-terminated) under one lock: cJSON
 * keeps its last error in a variable of the process, which threads
 * loading at once (a sweep's points, run's variants) would race on. Every
 * parse of bounce's inputs goes through here. */
cJSON *jpos_cjson_parse(const char *text, size_t len, const char **end);

cJSON *jpos_root(const struct jpos_doc *d);
const char *jpos_name(const struct jpos_doc *d);

/* Where a node's value (or, for an object member, its key) starts; 1-based,
 * columns count characters. 0:0 for a node not from this document. */
void jpos_where(const struct jpos_doc *d, const cJSON *n, int *line, int *col);
void jpos_key_where(const struct jpos_doc *d, const cJSON *n, int *line, int *col);
/* "$.threads[0].cpus" */
void jpos_path(const struct jpos_doc *d, const cJSON *n, char *buf, size_t size);

/* Record "FILE:LINE:COL: $.path: msg" at a node's value (or key). Return -1. */
int jpos_error(const struct jpos_doc *d, const cJSON *n, struct err *e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int jpos_key_error(const struct jpos_doc *d, const cJSON *n, struct err *e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#ifdef __clang_analyzer__
/* Always -1, as err_set (error.h). */
#define jpos_error(...) (jpos_error(__VA_ARGS__), -1)
#define jpos_key_error(...) (jpos_key_error(__VA_ARGS__), -1)
#endif

/* Typed access: each returns 0, or -1 with a positioned error naming what was
 * expected. Integers are read from the source text, so 64-bit values are exact;
 * 1e6 is accepted when it is a whole number. */
int jpos_int(const struct jpos_doc *d, const cJSON *n, int64_t min, int64_t max,
	     int64_t *out, struct err *e);
int jpos_double(const struct jpos_doc *d, const cJSON *n, double min, double max,
		double *out, struct err *e);
int jpos_bool(const struct jpos_doc *d, const cJSON *n, bool *out, struct err *e);
/* A string of 1..maxlen bytes (maxlen 0: any non-empty length). */
int jpos_string(const struct jpos_doc *d, const cJSON *n, size_t maxlen, const char **out,
		struct err *e);
int jpos_object(const struct jpos_doc *d, const cJSON *n, struct err *e);
int jpos_array(const struct jpos_doc *d, const cJSON *n, struct err *e);
/* Every key of object `obj` must be in the NULL-terminated `allowed`; an
 * unknown key is an error at the key, with "did you mean" when one is close. */
int jpos_check_keys(const struct jpos_doc *d, const cJSON *obj, const char *const *allowed,
		    struct err *e);
/* The closest of `cands` (NULL-terminated) to `s` within a small edit
 * distance, or NULL. */
const char *jpos_suggest(const char *s, const char *const *cands);
const char *jpos_type_name(const cJSON *n);
/* `names` (NULL-terminated) quoted and joined for a message:
 * "a" or "b" or "c". Truncated to fit `n`. */
void jpos_alternatives(const char *const *names, char *buf, size_t n);

#endif
