/* The discrete-event queue: events ordered by (cycle, sequence number), the
 * sequence assigned at push so that ties resolve in push order and every run
 * is deterministic, or by (cycle, id) (evq_order_by_id). An event is only a
 * cycle and a 32-bit id (a core number, an interrupt source...); what it
 * means is the caller's business. */
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

/* Near events, in a bucket per cycle of the window */
#define EVQ_WINDOW 256

struct evq_node {
	uint64_t time, seq;
	uint32_t id;
	uint32_t next;          /* the bucket's next node, or the free list's */
};

/* Invariant: every event lies either in the window, bucket time % EVQ_WINDOW
 * (a FIFO in seq order: all its events are at that one time, which lies in
 * [base, base + EVQ_WINDOW)), or in the far heap (anything else: beyond
 * the window when pushed, or before base). base, the latest time popped,
 * only grows, so a near event never leaves the window. */
struct evq {
	struct evq_node *node;  /* pool of near events */
	uint32_t node_cap, free_node, n_near;
	uint32_t head[EVQ_WINDOW], tail[EVQ_WINDOW];
	uint64_t busy[EVQ_WINDOW / 64]; /* bit b: bucket b holds events */
	unsigned first;         /* the earliest non-empty bucket, when n_near */
	uint64_t base;
	uint64_t min_time;      /* the earliest event's cycle, UINT64_MAX: none */
	struct evq_entry *heap; /* far events: 4-ary min-heap on (time, seq) */
	size_t n, cap;
	uint64_t next_seq;
	int by_id;              /* evq_order_by_id: seq is the id */
};

/* capacity is a hint (about one pending event per core); the queue grows. */
int evq_init(struct evq *q, size_t capacity, struct err *e);
void evq_free(struct evq *q);
/* Break ties by the event's id instead of push order, on an empty queue.
 * The order of same-cycle events then depends only on what they are, not
 * on when they were pushed: a driver whose pushes depend on how it batches
 * its work (cores running ahead) gets the same order however it batches. */
void evq_order_by_id(struct evq *q);
/* (time, seq) as one 128-bit key: a cmp/sbb pair, and no branch for the
 * compiler to mispredict when it picks the minimum */
static inline int evq_key_before(uint64_t ta, uint64_t sa, uint64_t tb, uint64_t sb)
{
	__extension__ typedef unsigned __int128 u128;
	return (((u128)ta << 64) | sa) < (((u128)tb << 64) | sb);
}

/* The general push and pop (event_queue.c); evq_push and evq_pop below
 * handle the commonest queues inline first. */
int evq_push_any(struct evq *q, uint64_t time, uint32_t id);
int evq_pop_any(struct evq *q, uint64_t *time, uint32_t *id);

/* Returns -1 only when growing the queue fails (out of memory). A queue of
 * no near events and a heap of none or one (the fabric's between most
 * messages of a contended line, and often the cores') takes its event
 * without a call, exactly where the heap would put it. */
static inline int evq_push(struct evq *q, uint64_t time, uint32_t id)
{
	if (q->n > 1 || q->n_near)
		return evq_push_any(q, time, id);
	struct evq_entry x = { time, q->by_id ? id : q->next_seq, id };
	if (!q->n) {
		q->heap[0] = x;
		q->min_time = time;
	} else if (evq_key_before(time, x.seq, q->heap[0].time, q->heap[0].seq)) {
		q->heap[1] = q->heap[0];
		q->heap[0] = x;
		q->min_time = time;
	} else {
		q->heap[1] = x;
	}
	q->n++;
	q->next_seq++;
	return 0;
}

/* Removes the earliest event; returns 0 when the queue is empty. A heap
 * of one or two events and nothing near pops without a call. */
static inline int evq_pop(struct evq *q, uint64_t *time, uint32_t *id)
{
	if (q->n_near || q->n > 2)
		return evq_pop_any(q, time, id);
	if (!q->n)
		return 0;
	*time = q->heap[0].time;
	*id = q->heap[0].id;
	if (*time > q->base)
		q->base = *time;
	if (--q->n) {
		q->heap[0] = q->heap[1];
		q->min_time = q->heap[0].time;
	} else {
		q->min_time = UINT64_MAX;
	}
	return 1;
}

static inline size_t evq_size(const struct evq *q) { return q->n + q->n_near; }
/* Events pushed since evq_init; less evq_size, the events popped. */
static inline uint64_t evq_pushed(const struct evq *q) { return q->next_seq; }
/* The earliest event's cycle, UINT64_MAX when empty. */
static inline uint64_t evq_peek_time(const struct evq *q)
{
	return q->min_time;
}

#endif
