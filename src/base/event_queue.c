/* Event queue as an implicit 4-ary min-heap of fixed 24-byte entries keyed by
 * (time, seq). Push and pop cost O(log4 n) compares: at 1024 pending events
 * that is 5 levels, and a 4-ary node's children share one or two host cache
 * lines, so a pop touches about half the lines a binary heap does. A timing
 * wheel would be O(1) but needs a bound on how far ahead events lie, which
 * interrupts and `work N` do not give us. */
#include "config.h"
#include "base/event_queue.h"

#include <stdlib.h>

static inline int before(const struct evq_entry *a, const struct evq_entry *b)
{
	/* (time, seq) as one 128-bit key: a cmp/sbb pair, and no branch for
	 * the compiler to mispredict when it picks the minimum child */
	__extension__ typedef unsigned __int128 u128;
	return (((u128)a->time << 64) | a->seq) < (((u128)b->time << 64) | b->seq);
}

int evq_init(struct evq *q, size_t capacity, struct err *e)
{
	q->n = 0;
	q->next_seq = 0;
	q->cap = capacity ? capacity : 16;
	q->heap = malloc(q->cap * sizeof *q->heap);
	if (!q->heap)
		return err_internal(e, "event queue: out of memory for %zu events", q->cap);
	return 0;
}

void evq_free(struct evq *q)
{
	free(q->heap);
	q->heap = NULL;
	q->n = q->cap = 0;
}

int evq_push(struct evq *q, uint64_t time, uint32_t id)
{
	if (q->n == q->cap) {
		size_t cap = q->cap * 2;
		struct evq_entry *h = realloc(q->heap, cap * sizeof *h);
		if (!h)
			return -1;
		q->heap = h;
		q->cap = cap;
	}
	struct evq_entry x = { time, q->next_seq++, id };
	size_t i = q->n++;
	while (i > 0) {
		size_t p = (i - 1) / 4;
		if (!before(&x, &q->heap[p]))
			break;
		q->heap[i] = q->heap[p];
		i = p;
	}
	q->heap[i] = x;
	return 0;
}

/* Bottom-up (Floyd): the hole left by the minimum goes down along the
 * minimum children to a leaf without comparing against the element that
 * refills it, then that element (the last one, usually among the latest)
 * sifts up, typically not at all. Keys are unique (seq), so the pop order
 * is the same whatever shape the heap takes. */
int evq_pop(struct evq *q, uint64_t *time, uint32_t *id)
{
	if (!q->n)
		return 0;
	struct evq_entry *h = q->heap;
	*time = h[0].time;
	*id = h[0].id;
	size_t n = --q->n, i = 0;
	if (!n)
		return 1;
	struct evq_entry x = h[n];
	for (;;) {
		size_t c = 4 * i + 1, best = c;
		if (c + 4 <= n) {
			size_t b2 = before(&h[c + 1], &h[c]) ? c + 1 : c;
			size_t b3 = before(&h[c + 3], &h[c + 2]) ? c + 3 : c + 2;
			best = before(&h[b3], &h[b2]) ? b3 : b2;
		} else if (c < n) {
			for (size_t k = c + 1; k < n; k++)
				best = before(&h[k], &h[best]) ? k : best;
		} else {
			break;
		}
		h[i] = h[best];
		i = best;
	}
	while (i > 0) {
		size_t p = (i - 1) / 4;
		if (!before(&x, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = x;
	return 1;
}
