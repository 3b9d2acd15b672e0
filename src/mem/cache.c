/* Set-associative LRU caches (see cache.h). LRU is a per-way stamp; victim
 * selection scans one set, which at associativity <= 64 is cheaper than
 * keeping an ordered list up to date on every hit. */
#include "config.h"
#include "mem/cache.h"

#include <stdlib.h>

int cache_init(struct cache *c, uint32_t size, uint32_t assoc, uint32_t line_size,
	       int with_data, struct err *e)
{
	c->tag = NULL;
	c->lru = NULL;
	c->state = NULL;
	c->data = NULL;
	c->clock = 0;
	if (!assoc || !line_size || size < assoc * line_size)
		return err_internal(e, "cache: %u bytes cannot hold %u ways of %u-byte lines",
				    size, assoc, line_size);
	c->assoc = assoc;
	c->line_size = line_size;
	c->sets = size / (assoc * line_size);
	if (c->sets & (c->sets - 1))
		return err_internal(e, "cache: %u sets is not a power of two", c->sets);
	c->set_mask = c->sets - 1;
	size_t ways = (size_t)c->sets * assoc;
	c->tag = calloc(ways, sizeof *c->tag);
	c->lru = calloc(ways, sizeof *c->lru);
	c->state = calloc(ways, 1);
	if (with_data)
		c->data = calloc(ways, line_size);
	if (!c->tag || !c->lru || !c->state || (with_data && !c->data)) {
		cache_free(c);
		return err_internal(e, "cache: out of memory for %zu ways", ways);
	}
	return 0;
}

void cache_free(struct cache *c)
{
	free(c->tag);
	free(c->lru);
	free(c->state);
	free(c->data);
	c->tag = c->lru = NULL;
	c->state = c->data = NULL;
}

int cache_victim(const struct cache *c, uint64_t line)
{
	uint32_t base = (uint32_t)(line & c->set_mask) * c->assoc;
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
