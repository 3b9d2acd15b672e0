/* Set-associative caches with true LRU: the private L1D (real data and a
 * coherence state per way) and the optional per-socket LLC (tags only: it
 * decides whether a memory read is an LLC hit).
 *
 * A way is valid iff its tag is non-zero (tag = line number + 1), so an
 * all-zero cache is empty. */
#ifndef BOUNCE_CACHE_H
#define BOUNCE_CACHE_H

#include <stdint.h>
#include "base/error.h"

struct cache {
	uint64_t clock;   /* LRU stamp source (first: the L1 hit path's, memsys.h) */
	uint8_t *data;    /* line_size bytes a way, or NULL (tag-only) */
	uint64_t *tag;    /* per way; 0 = invalid way */
	uint64_t *lru;    /* last-use stamp per way */
	uint8_t *state;   /* coherence state per way (enum ms_state) */
	/* Way index = set * set_stride + way: set_stride is assoc for a cache
	 * alone, n * assoc for one of a pool of n (cache_init_pooled). */
	uint32_t set_stride, assoc, set_mask, line_size;
	void *block;      /* the arrays' one allocation, or NULL (a shared pool's) */
};

/* A cache of `size` bytes in its own allocation (a pool of one). */
int cache_init(struct cache *c, uint32_t size, uint32_t assoc, uint32_t line_size,
	       int with_data, struct err *e);
/* Host bytes of the arrays of n caches of one geometry laid out as a pool
 * (a multiple of 64), 0 for an impossible geometry. Each array holds set 0
 * of every cache, then set 1 of every cache, and so on: a many-core run
 * whose cores use few sets (a shared counter, a per-CPU one) then writes a
 * few host pages of the pool, not every cache's, and memory that is mapped
 * fresh (zero until written) costs the host only those pages. */
size_t cache_pool_bytes(uint32_t size, uint32_t assoc, uint32_t line_size, int with_data,
			uint32_t n);
/* Cache i of the pool of n at mem: cache_pool_bytes zeroed bytes, 8-byte
 * aligned at least (64: a way's data is then one host cache line), which
 * the caller owns. */
int cache_init_pooled(struct cache *c, uint32_t size, uint32_t assoc, uint32_t line_size,
		      int with_data, uint8_t *mem, uint32_t n, uint32_t i, struct err *e);
void cache_free(struct cache *c);

/* Way index (set * set_stride + way) holding line number `line`, or -1. */
static inline int cache_lookup(const struct cache *c, uint64_t line)
{
	uint32_t base = (uint32_t)(line & c->set_mask) * c->set_stride;
	const uint64_t *t = c->tag + base, want = line + 1;
	for (uint32_t w = 0; w < c->assoc; w++)
		if (t[w] == want)
			return (int)(base + w);
	return -1;
}

static inline void cache_touch(struct cache *c, int way)
{
	c->lru[way] = ++c->clock;
}

static inline uint8_t *cache_data(const struct cache *c, int way)
{
	return c->data + (size_t)way * c->line_size;
}

static inline uint64_t cache_line_of(const struct cache *c, int way)
{
	return c->tag[way] - 1;
}

static inline int cache_valid(const struct cache *c, int way)
{
	return c->tag[way] != 0;
}

/* The way a fill of `line` goes to: an invalid way of its set, else the
 * least recently used one (the caller evicts it first). */
int cache_victim(const struct cache *c, uint64_t line);
/* Make `way` hold `line` in `state`, most recently used. */
void cache_fill(struct cache *c, int way, uint64_t line, uint8_t state);
void cache_invalidate(struct cache *c, int way);

/* Tag-only use (LLC): is the line present (touching LRU)? Insert it,
 * replacing the LRU way. */
int cache_probe(struct cache *c, uint64_t line);
void cache_insert(struct cache *c, uint64_t line);

#endif
