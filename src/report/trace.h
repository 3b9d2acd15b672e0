/* Chrome / Perfetto trace-event JSON of a run: per core one track of its
 * activity as slices with its marks as instant events, and two tracks of
 * coherence transactions (its execution's requests and its store buffer's:
 * each has at most one in flight, so neither track's slices overlap). */
#ifndef BOUNCE_TRACE_H
#define BOUNCE_TRACE_H

#include <stdio.h>
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

/* Start tracing r's sim into f (owned by the caller); pid names the
 * variant; at most `limit` events (0: all). */
struct trace *trace_start(struct runner *r, FILE *f, int pid, int first, uint64_t limit);
/* Close open slices at the end of the run, say in the trace whether it
 * was truncated, fill *out (may be NULL) and detach. */
void trace_finish(struct trace *t, struct trace_summary *out);

#endif
