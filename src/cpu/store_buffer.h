/* One core's x86-TSO store buffer: stores that have executed but are not
 * yet visible to other cores, newest first for loads. Only the data
 * structure: when entries leave, and the RFOs they need, is core.c's. */
#ifndef BOUNCE_STORE_BUFFER_H
#define BOUNCE_STORE_BUFFER_H

#include <stdint.h>
#include "base/error.h"

struct sb_entry {
	uint64_t addr;
	uint64_t val;
	uint64_t ready;     /* earliest cycle it may leave the buffer */
	uint32_t size;
	uint32_t pc;        /* the store instruction: its RFO's HITMs and the UI's step name it */
};

/* Invariant: entries e[(head + i) % cap], i < n, oldest first. A store
 * whose RFO is in flight stays at the head, invisible to other cores,
 * until its line arrives and it is written. */
struct sb {
	struct sb_entry *e;
	unsigned cap, head, n;
};

enum sb_lookup { SB_MISS, SB_HIT, SB_PARTIAL };

int sb_init(struct sb *b, unsigned cap, struct err *err);
void sb_free(struct sb *b);

static inline unsigned sb_used(const struct sb *b)
{
	return b->n;
}
static inline int sb_full(const struct sb *b)
{
	return sb_used(b) >= b->cap;
}
static inline struct sb_entry *sb_head(struct sb *b)
{
	return &b->e[b->head];
}
/* On the run-ahead hot path, hence inline. The caller checks for room. */
static inline void sb_push(struct sb *b, uint64_t addr, unsigned size, uint64_t val, uint64_t ready,
			   uint32_t pc)
{
	unsigned i = b->head + b->n;
	struct sb_entry *e = &b->e[i >= b->cap ? i - b->cap : i];
	e->addr = addr;
	e->size = size;
	e->val = val;
	e->ready = ready;
	e->pc = pc;
	b->n++;
}

/* A queue left with one store moves it to slot 0 (emptied: restarts
 * there), so that a core that keeps a store or two in flight, the common
 * case, stays in slots 0-1 (one host cache line: sb_init aligns the ring)
 * instead of walking the whole ring, a new line at every other store.
 * Slots are invisible outside this file: the FIFO is unchanged. */
static inline void sb_pop(struct sb *b)
{
	unsigned h = b->head + 1 == b->cap ? 0 : b->head + 1;
	if (--b->n <= 1) {
		b->e[0] = b->e[h];  /* harmless when n is 0 or h is 0 */
		h = 0;
	}
	b->head = h;
}

/* Store-to-load forwarding: SB_HIT with *val from the newest store that
 * covers [addr, addr+size) entirely; SB_PARTIAL when the newest store that
 * overlaps it does not cover it (the load must wait for the drain). */
static inline enum sb_lookup sb_lookup(const struct sb *b, uint64_t addr, unsigned size, uint64_t *val)
{
	for (unsigned k = b->n; k-- > 0;) {
		unsigned i = b->head + k;
		const struct sb_entry *e = &b->e[i >= b->cap ? i - b->cap : i];
		if (e->addr == addr && e->size >= size) { /* the common case: the same variable */
			*val = size == 8 ? e->val : e->val & ((1ull << (8 * size)) - 1);
			return SB_HIT;
		}
		if (e->addr + e->size <= addr || addr + size <= e->addr)
			continue;
		if (e->addr <= addr && addr + size <= e->addr + e->size) {
			uint64_t v = e->val >> (8 * (addr - e->addr));
			*val = size == 8 ? v : v & ((1ull << (8 * size)) - 1);
			return SB_HIT;
		}
		return SB_PARTIAL;
	}
	return SB_MISS;
}

#endif
