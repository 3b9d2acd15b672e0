/* Memory traces in: each core's stream of records from a plain, gzip or zip
 * file, in the teaching simulators' text format or Valgrind lackey's
 * --trace-mem output (docs/replay.md). A stream reads through a fixed
 * buffer, so memory stays constant whatever the trace's length. */
#ifndef BOUNCE_REPLAY_TRACE_H
#define BOUNCE_REPLAY_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include "base/error.h"

enum rt_kind { RT_LOAD, RT_STORE, RT_COMPUTE };
enum rt_format { RT_UNKNOWN, RT_TEACHING, RT_LACKEY };

/* One record: an access of `size` bytes at addr, or `cycles` of computation. */
struct rt_rec {
	uint64_t addr;
	uint64_t cycles;
	uint64_t line;              /* the trace line it came from, for messages */
	enum rt_kind kind;
	uint16_t size;              /* at most RT_MAX_SIZE */
	uint16_t col;               /* where its address or cycle count starts */
};

#define RT_MAX_SIZE 4096   /* the widest access a record may make */

struct rt_stream;

/* Open the streams the paths give: a path is one stream, a zip archive one
 * stream per member NAME_0.data, NAME_1.data, ... in that order. At most
 * max_streams; returns how many, or -1 with e set (ERR_INPUT). */
int rt_open(char *const *paths, size_t n_paths, struct rt_stream **out, int max_streams,
	    struct err *e);
/* A stream over a buffer in memory (tests, the fuzz target); name for messages. */
struct rt_stream *rt_open_buffer(const char *name, const char *data, size_t len, struct err *e);
void rt_close(struct rt_stream *s);

/* The next record: 1, or 0 at the end, or -1 with e set at "file:line: what
 * is wrong". A lackey `M` is two records, a load and a store. */
int rt_next(struct rt_stream *s, struct rt_rec *r, struct err *e);
/* Up to max next records into out: how many, 0 at the end, or -1 with e
 * set. A bad line after some good ones ends the batch before it and is
 * reported by the next call, so records and errors come in trace order.
 * Teaching-format lines are decoded in one pass over the buffer, without
 * a call per record: the replay's hot path. */
int rt_next_batch(struct rt_stream *s, struct rt_rec *out, int max, struct err *e);
/* How far through its input the stream has read: *done of *total bytes
 * (*total 0 when not known), for a progress estimate. */
void rt_input(const struct rt_stream *s, uint64_t *done, uint64_t *total);
/* What the stream is called in messages, and its format once known. */
const char *rt_name(const struct rt_stream *s);
uint64_t rt_line(const struct rt_stream *s);   /* the line of the last record */
enum rt_format rt_format_of(const struct rt_stream *s);
const char *rt_format_name(enum rt_format f);

#endif
