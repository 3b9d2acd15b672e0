/* The discrete-event queue: events ordered by (cycle, sequence number), the
 * sequence assigned at push so that ties resolve in push order and every run
 * is deterministic, or by (cycle, id) (evq_order_by_id). An event is only a
 * cycle and a 32-bit id (a core number, an interrupt source...); what it
 * means is the caller's business. One event at a time may wait for its
 * sequence number (evq_push_at_pass): it takes it only when the queue's
 * order passes a given key, as if an event at that key, taken out, had
 * pushed it on being popped. */
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
	uint64_t min_time;      /* the earliest event's cycle, the waiting one's too; UINT64_MAX: none */
	struct evq_entry *heap; /* far events: 4-ary min-heap on (time, seq) */
	size_t n, cap;
	uint64_t next_seq;
	int by_id;              /* evq_order_by_id: seq is the id */
	/* The event waiting for its number (evq_push_at_pass): its cycle
	 * (UINT64_MAX: none) and id, and the key whose passing pushes it */
	uint64_t pass_at, pass_time, pass_seq;
	uint32_t pass_id;
	int failed;             /* it could not be pushed: out of memory */
	uint64_t removed;       /* events taken out by evq_remove */
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
int evq_remove_any(struct evq *q, uint64_t time, uint32_t id, uint64_t *seq);

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
		q->min_time = time < q->pass_at ? time : q->pass_at;
	} else if (evq_key_before(time, x.seq, q->heap[0].time, q->heap[0].seq)) {
		q->heap[1] = q->heap[0];
		q->heap[0] = x;
		q->min_time = time < q->pass_at ? time : q->pass_at;
	} else {
		q->heap[1] = x;
	}
	q->n++;
	q->next_seq++;
	return 0;
}

/* The waiting event takes the next number, as the push it stands for. */
static inline int evq_pass_now(struct evq *q)
{
	uint64_t t = q->pass_at;
	q->pass_at = UINT64_MAX;
	if (evq_push(q, t, q->pass_id)) {
		q->failed = 1;
		return -1;
	}
	return 0;
}

/* Before a pop: the waiting event is pushed if its pass key comes before
 * every event in the queue. -1: out of memory. */
static inline int evq_pass_before_pop(struct evq *q)
{
	if (__builtin_expect(q->pass_at == UINT64_MAX, 1))
		return 0;
	if (q->n && !q->n_near &&
	    evq_key_before(q->heap[0].time, q->heap[0].seq, q->pass_time, q->pass_seq))
		return 0;
	if (q->n_near) {
		uint64_t t = q->pass_time, sq = q->pass_seq;
		const struct evq_node *nd = &q->node[q->head[q->first]];
		if (evq_key_before(nd->time, nd->seq, t, sq) ||
		    (q->n && evq_key_before(q->heap[0].time, q->heap[0].seq, t, sq)))
			return 0;
	}
	return evq_pass_now(q);
}

/* Removes the earliest event; returns 0 when the queue is empty (or the
 * waiting event could not be pushed: evq_failed). A heap of one or two
 * events and nothing near pops without a call. */
static inline int evq_pop(struct evq *q, uint64_t *time, uint32_t *id)
{
	if (__builtin_expect(evq_pass_before_pop(q), 0))
		return 0;
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
		q->min_time = q->heap[0].time < q->pass_at ? q->heap[0].time : q->pass_at;
	} else {
		q->min_time = q->pass_at;
	}
	return 1;
}

/* Whether an event may wait for its number now (one at a time). */
static inline int evq_can_wait(const struct evq *q) { return q->pass_at == UINT64_MAX && !q->by_id; }
/* Pushes (time, id), once evq_can_wait, to take the number that a push
 * made right after the queue's order passes (pass_time, pass_seq) would
 * take: at the first pop of a later key, or at evq_pass of a cycle from
 * pass_time on, whichever comes first. Until then it counts for
 * evq_peek_time and evq_size but cannot be popped. time lies past
 * pass_time. The key is one evq_remove took out: the event then stands
 * where the one that event would have pushed on being popped would. */
static inline void evq_push_at_pass(struct evq *q, uint64_t pass_time, uint64_t pass_seq,
				    uint64_t time, uint32_t id)
{
	q->pass_time = pass_time;
	q->pass_seq = pass_seq;
	q->pass_at = time;
	q->pass_id = id;
	if (time < q->min_time)
		q->min_time = time;
}
/* A push from outside the queue's own pops is about to be made at the end
 * of cycle `time` (after every event of that cycle): a waiting event whose
 * pass lies at or before it takes its number first. -1: out of memory. */
static inline int evq_pass(struct evq *q, uint64_t time)
{
	if (__builtin_expect(q->pass_at != UINT64_MAX, 0) && q->pass_time <= time)
		return evq_pass_now(q);
	return 0;
}
static inline int evq_failed(const struct evq *q) { return q->failed; }

/* Takes out the event of this cycle and id (the first such in the queue's
 * order), giving its sequence number; 0 if there is none (the waiting
 * event is not looked at). For a queue ordered by sequence. */
static inline int evq_remove(struct evq *q, uint64_t time, uint32_t id, uint64_t *seq)
{
	if (q->n_near || q->n > 2)
		return evq_remove_any(q, time, id, seq);
	struct evq_entry *h = q->heap;
	uint32_t k = q->n && h[0].time == time && h[0].id == id ? 0
		   : q->n > 1 && h[1].time == time && h[1].id == id ? 1 : 2;
	if (k == 2)
		return 0;
	*seq = h[k].seq;
	if (!k)
		h[0] = h[1];
	q->n--;
	q->removed++;
	uint64_t t = q->n ? h[0].time : UINT64_MAX;
	q->min_time = t < q->pass_at ? t : q->pass_at;
	return 1;
}

static inline size_t evq_size(const struct evq *q)
{
	return q->n + q->n_near + (q->pass_at != UINT64_MAX);
}
/* Events pushed since evq_init (the waiting one once it has its number). */
static inline uint64_t evq_pushed(const struct evq *q) { return q->next_seq; }
/* Events popped since evq_init. */
static inline uint64_t evq_popped(const struct evq *q)
{
	return q->next_seq - q->n - q->n_near - q->removed;
}
/* The earliest event's cycle, UINT64_MAX when empty. */
static inline uint64_t evq_peek_time(const struct evq *q)
{
	return q->min_time;
}

#endif
