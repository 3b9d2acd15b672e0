/* Reading the traces ahead on a host thread of their own: decompressing and
 * decoding records costs about a fifth of a plain-text replay's host time
 * and more than half of a gzip one's, and none of it depends on the
 * simulation, so a second host core can do it meanwhile. The replay takes
 * the same records in the same order either way: its results do not depend
 * on whether, or how far, the reader runs ahead. */
#ifndef BOUNCE_TRACE_READER_H
#define BOUNCE_TRACE_READER_H

#include <stdint.h>
#include "base/error.h"
#include "replay/replay_trace.h"

struct trace_reader;

/* Start reading streams[0..n) on a new thread (the streams stay the
 * caller's, and only the reader touches them until tr_stop). NULL with e
 * set when the thread or its buffers cannot be had. */
struct trace_reader *tr_start(struct rt_stream *const *streams, int n, struct err *e);
/* Stream i's next batch of records in *recs: how many, 0 at its end, or
 * -1 with e set at the bad record (the stream then stays ended). The batch
 * stays valid until the next call for stream i. Waits while the reader has
 * not got that far. */
int tr_next(struct trace_reader *t, int i, const struct rt_rec **recs, struct err *e);
/* How far through their input the batches handed out so far reach (as
 * rt_input, summed over the streams): the replay's progress, not the
 * reader's. */
void tr_input(struct trace_reader *t, uint64_t *done, uint64_t *total);
/* Stop the thread (once the batch it may be reading is in) and free what
 * tr_start took; the streams stay open. */
void tr_stop(struct trace_reader *t);

#endif
