/* Sparse structures of the memory system: a hash map from 64-bit keys (line
 * or page numbers) to non-zero 64-bit values, and simulated memory as 4 KiB
 * pages allocated on their first write. Host memory follows what a run
 * touches, not the size of the simulated address space, so any 32- or
 * 64-bit address can be simulated (a replayed trace, a 1 GiB .space). */
#ifndef BOUNCE_SPARSE_H
#define BOUNCE_SPARSE_H

#include <stddef.h>
#include <stdint.h>

/* Open addressing with linear probing; a slot's key is stored plus one, so
 * 0 marks an empty slot (keys here are line or page numbers, < 2^60). */
struct sp_slot {
	uint64_t key, val;  /* key + 1 (0: empty), and its value: one host cache line holds both */
};

struct sp_map {
	struct sp_slot *slots;
	size_t cap, n;      /* cap a power of two, or 0 */
	unsigned shift;     /* 64 - log2(cap) */
};

static inline size_t sp_map_slot(const struct sp_map *m, uint64_t key)
{
	return (size_t)(((key + 1) * 0x9E3779B97F4A7C15ull) >> m->shift);
}

/* The value stored for key, or 0 when there is none. */
static inline uint64_t sp_map_get(const struct sp_map *m, uint64_t key)
{
	if (!m->cap)
		return 0;
	for (size_t i = sp_map_slot(m, key);; i = (i + 1) & (m->cap - 1)) {
		if (m->slots[i].key == key + 1)
			return m->slots[i].val;
		if (!m->slots[i].key)
			return 0;
	}
}

/* Store a non-zero value for key (replacing any); -1 when out of memory. */
int sp_map_put(struct sp_map *m, uint64_t key, uint64_t val);
void sp_map_free(struct sp_map *m);

#define SP_PAGE_SHIFT 12
#define SP_PAGE_SIZE (1u << SP_PAGE_SHIFT)

/* Simulated memory: page number -> index of its page. A page never
 * written reads as zeros. Every line lies inside one page (line size <= 256). */
struct sp_mem {
	struct sp_map index;        /* page number -> index in pages + 1 */
	uint8_t **pages;
	size_t n, cap;
};

/* The byte at addr, or NULL when its page was never written (zeros). */
static inline uint8_t *sp_mem_peek(const struct sp_mem *s, uint64_t addr)
{
	uint64_t i = sp_map_get(&s->index, addr >> SP_PAGE_SHIFT);
	return i ? s->pages[i - 1] + (addr & (SP_PAGE_SIZE - 1)) : NULL;
}

/* The byte at addr, its page allocated (zeroed) if needed; NULL when out of memory. */
uint8_t *sp_mem_at(struct sp_mem *s, uint64_t addr);
/* Copy len bytes that lie inside one page out of memory. */
void sp_mem_read(const struct sp_mem *s, uint64_t addr, void *out, size_t len);
/* Copy len bytes into memory at addr (any span); all-zero parts of pages
 * never written allocate nothing. -1 when out of memory. */
int sp_mem_write(struct sp_mem *s, uint64_t addr, const void *src, uint64_t len);
/* Set len bytes from addr (any span) to byte; -1 when out of memory. */
int sp_mem_fill(struct sp_mem *s, uint64_t addr, uint8_t byte, uint64_t len);
/* Copy every page src holds into dst, src's address a landing at base + a
 * (base a multiple of SP_PAGE_SIZE); what src never wrote stays as it was in
 * dst, so into an empty dst this is a copy. -1 when out of memory. */
int sp_mem_copy_at(struct sp_mem *dst, uint64_t base, const struct sp_mem *src);
/* Bytes of host memory the pages take. */
uint64_t sp_mem_bytes(const struct sp_mem *s);
void sp_mem_free(struct sp_mem *s);

#endif
