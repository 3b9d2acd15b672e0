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
 * until its line arrives and it is written.
 *
 * The L1 takes at most commit_width stores a cycle from the buffer (its
 * store ports; 0: no limit). The head's `ready` already includes the
 * wait for a port: sb_commit and sb_line_came move it on when the port
 * is busy, so a buffer without a limit pays nothing on its hot path. The
 * port's own state, only used with a limit, lives in a spare entry after
 * the ring (e[cap]: `ready` the cycle of the last commit, `size` how many
 * went in it), so that this struct stays 24 bytes on the core's second
 * host line (core.h). */
struct sb {
	struct sb_entry *e;
	unsigned cap, head, n;
	uint8_t commit_width;
};

enum sb_lookup { SB_MISS, SB_HIT, SB_PARTIAL };

/* cap 1..256 entries; commit_width 0 (no limit) .. 255 stores a cycle */
int sb_init(struct sb *b, unsigned cap, unsigned commit_width, struct err *err);
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

/* The newest entry, the store pushed last. Precondition: n > 0. */
static inline const struct sb_entry *sb_newest(const struct sb *b)
{
	unsigned i = b->head + b->n - 1;
	return &b->e[i >= b->cap ? i - b->cap : i];
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

/* When the head may leave. */
static inline uint64_t sb_head_at(const struct sb *b)
{
	return b->e[b->head].ready;
}

/* With a commit width: the new head may leave no earlier than `at`. */
static inline void sb_head_not_before(struct sb *b, uint64_t at)
{
	struct sb_entry *h = &b->e[b->head];
	if (b->n && h->ready < at)
		h->ready = at;
}

/* The head's line came at cycle t after an RFO: the stores that waited
 * behind it leave from t on, commit_width a cycle. */
static inline void sb_line_came(struct sb *b, uint64_t t)
{
	if (b->commit_width)
		sb_head_not_before(b, t);
}

/* The head leaves at cycle `at` (sb_head_at, or later). With a width,
 * it takes one of that cycle's commit slots, and the next head waits for
 * the next free one (store_buffer.c: out of line, off the hot path of a
 * buffer without a limit). A store pushed into an empty buffer needs no
 * such wait: it is ready an L1 hit (at least a cycle) after the core's
 * clock, and no commit happens past that clock. */
void sb_commit_limited(struct sb *b, uint64_t at);

static inline void sb_commit(struct sb *b, uint64_t at)
{
	if (__builtin_expect(b->commit_width != 0, 0))
		sb_commit_limited(b, at);
	else
		sb_pop(b);
}

/* Store-to-load forwarding: SB_HIT with *val from the newest store that
 * covers [addr, addr+size) entirely, and *ready that store's ready cycle
 * (when it executed, plus the core's buffer delay; with a commit width, a
 * head that waited for a port or its line carries when it may leave, a
 * few cycles later at most for a load that comes then); SB_PARTIAL when the
 * newest store that overlaps it does not cover it (the load must wait for
 * the drain). */
static inline enum sb_lookup sb_lookup(const struct sb *b, uint64_t addr, unsigned size, uint64_t *val,
				       uint64_t *ready)
{
	for (unsigned k = b->n; k-- > 0;) {
		unsigned i = b->head + k;
		const struct sb_entry *e = &b->e[i >= b->cap ? i - b->cap : i];
		if (e->addr == addr && e->size >= size) { /* the common case: the same variable */
			*val = size == 8 ? e->val : e->val & ((1ull << (8 * size)) - 1);
			*ready = e->ready;
			return SB_HIT;
		}
		if (e->addr + e->size <= addr || addr + size <= e->addr)
			continue;
		if (e->addr <= addr && addr + size <= e->addr + e->size) {
			uint64_t v = e->val >> (8 * (addr - e->addr));
			*val = size == 8 ? v : v & ((1ull << (8 * size)) - 1);
			*ready = e->ready;
			return SB_HIT;
		}
		return SB_PARTIAL;
	}
	return SB_MISS;
}

#endif
