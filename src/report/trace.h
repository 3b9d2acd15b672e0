/* Chrome / Perfetto trace-event JSON of a run: per core one track of its
 * activity as slices with its marks as instant events, and two tracks of
 * coherence transactions (its execution's requests and its store buffer's:
 * each has at most one in flight, so neither track's slices overlap).
 * A trace file holds one part per variant, written apart (variants run on
 * threads of their own) and added in order. */
#ifndef BOUNCE_TRACE_H
#define BOUNCE_TRACE_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "base/error.h"
#include "run/runner.h"

/* Events per variant unless --trace-limit says otherwise (0: no limit):
 * enough for a viewer to stay usable; beyond it the trace says where it
 * stopped, and so does the command line. */
#define TRACE_DEFAULT_LIMIT 250000

struct trace;

struct trace_summary {
	uint64_t events;       /* written, not counting the ends of open slices */
	int truncated;         /* the limit left events out */
	uint64_t truncated_at; /* cycle of the first event left out */
	uint64_t cycles;       /* the run's length */
};

/* Start tracing r's sim into f (owned by the caller), one variant's part
 * of a trace file; pid names the variant; at most `limit` events (0: all). */
struct trace *trace_start(struct runner *r, FILE *f, int pid, uint64_t limit);
/* Close open slices at the end of the run, say in the trace whether it
 * was truncated, fill *out (may be NULL) and detach. */
void trace_finish(struct trace *t, struct trace_summary *out);

struct trace_file;

/* Begin the trace file on f (owned by the caller): its opening is written
 * at once. NULL when out of memory. */
struct trace_file *trace_file_open(FILE *f, uint64_t limit);
/* Append one variant's part (trace_start's file, read from its start) and
 * note what it covers in the file's metadata. */
int trace_file_add(struct trace_file *tf, FILE *part, const char *variant, int pid,
		   const struct trace_summary *ts, struct err *e);
/* End the trace file: the closing, with the metadata ("otherData": the
 * limit, and per variant its events and where it was truncated). */
int trace_file_close(struct trace_file *tf, struct err *e);
/* The metadata: {"trace_limit": N, "variants": [{"variant", "pid",
 * "events", "cycles", "truncated", "truncated_at_cycle"}...]}. */
const cJSON *trace_file_meta(const struct trace_file *tf);
void trace_file_free(struct trace_file *tf);

#endif
