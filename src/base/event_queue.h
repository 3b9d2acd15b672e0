/* The discrete-event queue: events ordered by (cycle, sequence number), the
 * sequence assigned at push so that ties resolve in push order and every run
 * is deterministic. An event is only a cycle and a 32-bit id (a core number,
 * an interrupt source...); what it means is the caller's business. */
#ifndef BOUNCE_EVENT_QUEUE_H
#define BOUNCE_EVENT_QUEUE_H

#include <stddef.h>
#include <stdint.h>
#include "base/error.h"

struct evq_entry {
	uint64_t time;
	uint64_t seq;
	uint32_t id;
};

struct evq {
	struct evq_entry *heap; /* 4-ary min-heap on (time, seq) */
	size_t n, cap;
	uint64_t next_seq;
};

/* capacity is a hint (about one pending event per core); the queue grows. */
int evq_init(struct evq *q, size_t capacity, struct err *e);
void evq_free(struct evq *q);
/* Returns -1 only when growing the heap fails (out of memory). */
int evq_push(struct evq *q, uint64_t time, uint32_t id);
/* Removes the earliest event; returns 0 when the queue is empty. */
int evq_pop(struct evq *q, uint64_t *time, uint32_t *id);

static inline size_t evq_size(const struct evq *q) { return q->n; }
/* The earliest event's cycle, UINT64_MAX when empty. */
static inline uint64_t evq_peek_time(const struct evq *q)
{
	return q->n ? q->heap[0].time : UINT64_MAX;
}

#endif
