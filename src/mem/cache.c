/* Set-associative LRU caches (see cache.h). LRU is a per-way stamp; victim
 * selection scans one set, which at associativity <= 64 is cheaper than
 * keeping an ordered list up to date on every hit. */
#include "config.h"
#include "mem/cache.h"

#include <stdlib.h>

/* Sets of a geometry, or 0 when it is impossible (e says why). */
static uint32_t geometry(uint32_t size, uint32_t assoc, uint32_t line_size, struct err *e)
{
	if (!assoc || !line_size || size < assoc * line_size) {
		if (e)
			err_internal(e, "cache: %u bytes cannot hold %u ways of %u-byte lines",
				     size, assoc, line_size);
		return 0;
	}
	uint32_t sets = size / (assoc * line_size);
	if (sets & (sets - 1)) {
		if (e)
			err_internal(e, "cache: %u sets is not a power of two", sets);
		return 0;
	}
	return sets;
}

/* Bytes of one of the pool's arrays, rounded up to a host cache line. */
static size_t region(size_t n)
{
	return (n + 63) & ~(size_t)63;
}

/* The pool's arrays in one block: tags and LRU stamps (8 bytes a way), the
 * data, then the states (a byte a way). */
size_t cache_pool_bytes(uint32_t size, uint32_t assoc, uint32_t line_size, int with_data,
			uint32_t n)
{
	size_t ways = (size_t)geometry(size, assoc, line_size, NULL) * assoc * n;
	return 2 * region(ways * sizeof(uint64_t)) + (with_data ? region(ways * line_size) : 0) +
	       region(ways);
}

int cache_init_pooled(struct cache *c, uint32_t size, uint32_t assoc, uint32_t line_size,
		      int with_data, uint8_t *mem, uint32_t n, uint32_t i, struct err *e)
{
	uint32_t sets = geometry(size, assoc, line_size, e);
	if (!sets)
		return -1;
	size_t ways = (size_t)sets * assoc * n;
	uint8_t *tag = mem, *lru = tag + region(ways * sizeof(uint64_t));
	uint8_t *data = lru + region(ways * sizeof(uint64_t));
	uint8_t *state = data + (with_data ? region(ways * line_size) : 0);
	c->clock = 0;
	c->assoc = assoc;
	c->line_size = line_size;
	c->set_stride = n * assoc;
	c->set_mask = sets - 1;
	c->block = NULL;
	/* cache i's ways of a set follow the ways of caches 0..i-1 */
	c->tag = (uint64_t *)(void *)tag + (size_t)i * assoc;
	c->lru = (uint64_t *)(void *)lru + (size_t)i * assoc;
	c->data = with_data ? data + (size_t)i * assoc * line_size : NULL;
	c->state = state + (size_t)i * assoc;
	return 0;
}

int cache_init(struct cache *c, uint32_t size, uint32_t assoc, uint32_t line_size,
	       int with_data, struct err *e)
{
	c->block = NULL;  /* cache_free is safe whatever fails */
	size_t n = cache_pool_bytes(size, assoc, line_size, with_data, 1);
	void *b = n ? calloc(1, n) : NULL;
	if (n && !b)
		return err_internal(e, "cache: out of memory for %zu bytes", n);
	/* n == 0: the geometry is impossible, and cache_init_pooled says why */
	if (cache_init_pooled(c, size, assoc, line_size, with_data, b, 1, 0, e))
		return -1;
	c->block = b;
	return 0;
}

void cache_free(struct cache *c)
{
	free(c->block);
	c->block = NULL;
	c->tag = c->lru = NULL;
	c->state = c->data = NULL;
}

int cache_victim(const struct cache *c, uint64_t line)
{
	uint32_t base = (uint32_t)(line & c->set_mask) * c->set_stride;
	uint32_t best = base;
	for (uint32_t w = base; w < base + c->assoc; w++) {
		if (!c->tag[w])
			return (int)w;
		if (c->lru[w] < c->lru[best])
			best = w;
	}
	return (int)best;
}

void cache_fill(struct cache *c, int way, uint64_t line, uint8_t state)
{
	c->tag[way] = line + 1;
	c->state[way] = state;
	c->lru[way] = ++c->clock;
}

void cache_invalidate(struct cache *c, int way)
{
	c->tag[way] = 0;
	c->state[way] = 0;
}

int cache_probe(struct cache *c, uint64_t line)
{
	int w = cache_lookup(c, line);
	if (w < 0)
		return 0;
	cache_touch(c, w);
	return 1;
}

void cache_insert(struct cache *c, uint64_t line)
{
	if (cache_probe(c, line))
		return;
	cache_fill(c, cache_victim(c, line), line, 1);
}
