/* Chrome / Perfetto trace-event JSON of a run: one track per core with its
 * activity as complete ("X") events, marks and coherence transactions as
 * instant events on the requester's track. */
#ifndef BOUNCE_TRACE_H
#define BOUNCE_TRACE_H

#include <stdio.h>
#include "report/runner.h"

#define TRACE_MAX_EVENTS 250000 /* beyond this the trace notes its truncation: a viewer stays usable */

struct trace;

/* Start tracing r's sim into f (owned by the caller); pid names the variant. */
struct trace *trace_start(struct runner *r, FILE *f, int pid, int first);
/* Close open segments at the end of the run and detach. */
void trace_finish(struct trace *t);

#endif
