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
	uint8_t *data;    /* sets*assoc*line_size bytes, or NULL (tag-only) */
	uint64_t *tag;    /* sets*assoc; 0 = invalid way */
	uint64_t *lru;    /* last-use stamp per way */
	uint8_t *state;   /* coherence state per way (enum ms_state) */
	uint32_t sets, assoc, set_mask, line_size;
	void *block;      /* the arrays' one allocation, or NULL (a shared pool's) */
};

/* A cache of `size` bytes in its own allocation. */
int cache_init(struct cache *c, uint32_t size, uint32_t assoc, uint32_t line_size,
	       int with_data, struct err *e);
/* Host bytes of one cache's arrays (a multiple of 64), 0 for an impossible
 * geometry. n caches laid out in one calloc of n times this need no
 * clearing at all once it is large enough for the C library to map fresh
 * pages, and a 1024-core machine's L1s then cost host memory only where
 * they are used. */
size_t cache_bytes(uint32_t size, uint32_t assoc, uint32_t line_size, int with_data);
/* A cache whose arrays are the cache_bytes zeroed bytes at mem (8-byte
 * aligned at least), which the caller owns. */
int cache_init_in(struct cache *c, uint32_t size, uint32_t assoc, uint32_t line_size,
		  int with_data, uint8_t *mem, struct err *e);
void cache_free(struct cache *c);

/* Way index (set*assoc + way) holding line number `line`, or -1. */
static inline int cache_lookup(const struct cache *c, uint64_t line)
{
	uint32_t base = (uint32_t)(line & c->set_mask) * c->assoc;
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
