/* Event queue keyed by (time, seq) in two parts. Near events (within
 * EVQ_WINDOW cycles of the latest pop: nearly all of them, a core's next
 * exec event or a message in flight) sit in a bucket per cycle, each a
 * FIFO: push order is seq order, so a bucket needs no sorting, and a bitmap
 * of non-empty buckets finds the earliest in a few word scans. Push and pop
 * are O(1). The rest (a long `work N`, an interrupt's next arrival, events
 * pushed before the latest pop, and every event of a queue ordered by id,
 * whose buckets would need sorting) go to a 4-ary min-heap: O(log4 n)
 * compares, a node's children sharing one or two host cache lines. A pop
 * takes the smaller (time, seq) of the two fronts, so the order is exactly
 * one heap's. */
#include "config.h"
#include "base/event_queue.h"

#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX
/* The heap takes any event, the buckets only near ones. While the heap
 * holds fewer than this it takes them all: with a contended line most
 * pops leave a bucket empty and the next one must be searched, which a
 * heap of one or two does not pay (bench_core's atomic cases: 7% more host
 * instructions without it, the per-CPU ones 1% fewer; 2, 4 and 8 measured
 * alike for the atomic cases, 2 best for the per-CPU ones). */
#define EVQ_SMALL 2
#define WORDS (EVQ_WINDOW / 64)

static inline int before(const struct evq_entry *a, const struct evq_entry *b)
{
	return evq_key_before(a->time, a->seq, b->time, b->seq);
}

/* Chain nodes [from, to) into the free list. */
static void free_nodes(struct evq *q, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++)
		q->node[i].next = i + 1 < to ? i + 1 : q->free_node;
	if (from < to)
		q->free_node = from;
}

int evq_init(struct evq *q, size_t capacity, struct err *e)
{
	memset(q, 0, sizeof *q);
	q->min_time = UINT64_MAX;
	q->free_node = NIL;
	q->node_cap = capacity && capacity < (1u << 30) ? (uint32_t)capacity : 16;
	q->cap = 16;
	q->node = malloc(q->node_cap * sizeof *q->node);
	q->heap = malloc(q->cap * sizeof *q->heap);
	if (!q->node || !q->heap) {
		evq_free(q);
		return err_internal(e, "event queue: out of memory for %zu events", capacity);
	}
	free_nodes(q, 0, q->node_cap);
	return 0;
}

void evq_free(struct evq *q)
{
	free(q->node);
	free(q->heap);
	q->node = NULL;
	q->heap = NULL;
	q->n = q->cap = 0;
	q->node_cap = q->n_near = 0;
	q->free_node = NIL;
	memset(q->busy, 0, sizeof q->busy);
	q->min_time = UINT64_MAX;
}

/* The first non-empty bucket at or after bucket s, circularly. From the
 * earliest bucket on, bucket order is time order (the window starts at
 * base, which no near event precedes). Some bucket is non-empty. */
static unsigned next_bucket(const struct evq *q, unsigned s)
{
	unsigned w = s / 64;
	uint64_t m = q->busy[w] & (~0ull << (s % 64));
	if (m)
		return w * 64 + (unsigned)__builtin_ctzll(m);
	for (unsigned i = 1;; i++) {
		unsigned k = (w + i) % WORDS;  /* at i == WORDS, w's bits below s */
		if (q->busy[k])
			return k * 64 + (unsigned)__builtin_ctzll(q->busy[k]);
	}
}

static void set_min_time(struct evq *q)
{
	uint64_t t = q->n ? q->heap[0].time : UINT64_MAX;
	if (q->n_near) {
		uint64_t u = q->node[q->head[q->first]].time;
		t = u < t ? u : t;
	}
	q->min_time = t;
}

static int heap_push(struct evq *q, uint64_t time, uint64_t seq, uint32_t id)
{
	if (q->n == q->cap) {
		size_t cap = q->cap * 2;
		struct evq_entry *h = realloc(q->heap, cap * sizeof *h);
		if (!h)
			return -1;
		q->heap = h;
		q->cap = cap;
	}
	struct evq_entry x = { time, seq, id };
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

void evq_order_by_id(struct evq *q)
{
	/* Measured on bench_core's per-CPU cases (8, 64, 1024 cores): buckets
	 * that take an event only when its id is not below their tail's, the
	 * heap the rest, cost the same as the heap alone at 8 and 64 cores and
	 * 3% more at 1024; sorted insertion into the buckets 2.5x at 1024. */
	q->by_id = 1;
}

int evq_push_any(struct evq *q, uint64_t time, uint32_t id)
{
	if (q->by_id || q->n < EVQ_SMALL || time < q->base || time - q->base >= EVQ_WINDOW) {
		if (heap_push(q, time, q->by_id ? id : q->next_seq, id))
			return -1;
	} else {
		if (q->free_node == NIL) {
			uint32_t cap = q->node_cap * 2;
			struct evq_node *nd = cap > q->node_cap ? realloc(q->node, cap * sizeof *nd) : NULL;
			if (!nd)
				return -1;
			q->node = nd;
			free_nodes(q, q->node_cap, cap);
			q->node_cap = cap;
		}
		uint32_t k = q->free_node;
		struct evq_node *nd = &q->node[k];
		q->free_node = nd->next;
		*nd = (struct evq_node){ time, q->next_seq, id, NIL };
		unsigned b = (unsigned)(time & (EVQ_WINDOW - 1));
		uint64_t bit = 1ull << (b % 64);
		if (q->busy[b / 64] & bit) {
			q->node[q->tail[b]].next = k;
		} else {
			q->head[b] = k;
			q->busy[b / 64] |= bit;
			if (!q->n_near || time < q->node[q->head[q->first]].time)
				q->first = b;
		}
		q->tail[b] = k;
		q->n_near++;
	}
	q->next_seq++;
	if (time < q->min_time)
		q->min_time = time;
	return 0;
}

/* Bottom-up (Floyd): the hole left by the minimum goes down along the
 * minimum children to a leaf without comparing against the element that
 * refills it, then that element (the last one, usually among the latest)
 * sifts up, typically not at all. */
static void heap_pop(struct evq *q)
{
	struct evq_entry *h = q->heap;
	size_t n = --q->n, i = 0;
	if (!n)
		return;
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
}

int evq_pop_any(struct evq *q, uint64_t *time, uint32_t *id)
{
	if (q->n_near) {
		unsigned b = q->first;
		uint32_t k = q->head[b];
		struct evq_node *nd = &q->node[k];
		if (!q->n || !evq_key_before(q->heap[0].time, q->heap[0].seq, nd->time, nd->seq)) {
			*time = nd->time;
			*id = nd->id;
			int emptied = nd->next == NIL;
			if (emptied)
				q->busy[b / 64] &= ~(1ull << (b % 64));
			else
				q->head[b] = nd->next;
			nd->next = q->free_node;
			q->free_node = k;
			if (--q->n_near && emptied)
				q->first = next_bucket(q, b);
			goto popped;
		}
	}
	if (!q->n)
		return 0;
	*time = q->heap[0].time;
	*id = q->heap[0].id;
	heap_pop(q);
popped:
	if (*time > q->base)
		q->base = *time;
	set_min_time(q);
	return 1;
}
