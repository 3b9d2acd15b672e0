/* Sparse structures of the memory system (sparse.h): the hash map and the
 * paged simulated memory built on it. */
#include "config.h"
#include "mem/sparse.h"

#include <stdlib.h>
#include <string.h>

static int grow(struct sp_map *m)
{
	size_t cap = m->cap ? 2 * m->cap : 64;
	unsigned shift = 64;
	for (size_t c = cap; c > 1; c >>= 1)
		shift--;
	struct sp_map n = { calloc(cap, sizeof *n.slots), cap, m->n, shift };
	if (!n.slots)
		return -1;
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].key)
			continue;
		size_t j = sp_map_slot(&n, m->slots[i].key - 1);
		while (n.slots[j].key)
			j = (j + 1) & (cap - 1);
		n.slots[j] = m->slots[i];
	}
	free(m->slots);
	*m = n;
	return 0;
}

int sp_map_put(struct sp_map *m, uint64_t key, uint64_t val)
{
	/* at most half full: probes stay short */
	if (2 * (m->n + 1) > m->cap && grow(m))
		return -1;
	size_t i = sp_map_slot(m, key);
	while (m->slots[i].key && m->slots[i].key != key + 1)
		i = (i + 1) & (m->cap - 1);
	if (!m->slots[i].key)
		m->n++;
	m->slots[i].key = key + 1;
	m->slots[i].val = val;
	return 0;
}

void sp_map_free(struct sp_map *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

uint8_t *sp_mem_at(struct sp_mem *s, uint64_t addr)
{
	uint8_t *p = sp_mem_peek(s, addr);
	if (p)
		return p;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		uint8_t **pages = realloc(s->pages, cap * sizeof *pages);
		if (!pages)
			return NULL;
		s->pages = pages;
		s->cap = cap;
	}
	uint8_t *page = calloc(1, SP_PAGE_SIZE);
	if (!page || sp_map_put(&s->index, addr >> SP_PAGE_SHIFT, s->n + 1)) {
		free(page);
		return NULL;
	}
	s->pages[s->n++] = page;
	return page + (addr & (SP_PAGE_SIZE - 1));
}

void sp_mem_read(const struct sp_mem *s, uint64_t addr, void *out, size_t len)
{
	const uint8_t *p = sp_mem_peek(s, addr);
	if (p)
		memcpy(out, p, len);
	else
		memset(out, 0, len);
}

static int all_zero(const uint8_t *p, size_t n)
{
	static const uint8_t zeros[SP_PAGE_SIZE];
	return !memcmp(p, zeros, n);   /* n <= one page */
}

int sp_mem_write(struct sp_mem *s, uint64_t addr, const void *src, uint64_t len)
{
	const uint8_t *from = src;
	while (len) {
		size_t room = SP_PAGE_SIZE - (size_t)(addr & (SP_PAGE_SIZE - 1));
		size_t n = len < room ? (size_t)len : room;
		uint8_t *p = sp_mem_peek(s, addr);
		if (!p && !all_zero(from, n) && !(p = sp_mem_at(s, addr)))
			return -1;
		if (p)
			memcpy(p, from, n);
		addr += n;
		from += n;
		len -= n;
	}
	return 0;
}

int sp_mem_fill(struct sp_mem *s, uint64_t addr, uint8_t byte, uint64_t len)
{
	while (len) {
		size_t room = SP_PAGE_SIZE - (size_t)(addr & (SP_PAGE_SIZE - 1));
		size_t n = len < room ? (size_t)len : room;
		uint8_t *p = byte ? sp_mem_at(s, addr) : sp_mem_peek(s, addr);
		if (byte && !p)
			return -1;
		if (p)
			memset(p, byte, n);
		addr += n;
		len -= n;
	}
	return 0;
}

int sp_mem_copy_at(struct sp_mem *dst, uint64_t base, const struct sp_mem *src)
{
	for (size_t i = 0; i < src->index.cap; i++) {
		const struct sp_slot *sl = &src->index.slots[i];
		if (sl->key && sp_mem_write(dst, base + ((sl->key - 1) << SP_PAGE_SHIFT),
					    src->pages[sl->val - 1], SP_PAGE_SIZE))
			return -1;
	}
	return 0;
}

uint64_t sp_mem_bytes(const struct sp_mem *s)
{
	return (uint64_t)s->n * SP_PAGE_SIZE + s->index.cap * sizeof(struct sp_slot) +
	       s->cap * sizeof *s->pages;
}

void sp_mem_free(struct sp_mem *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->pages[i]);
	free(s->pages);
	sp_map_free(&s->index);
	memset(s, 0, sizeof *s);
}
