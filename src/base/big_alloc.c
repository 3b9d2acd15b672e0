/* big_alloc.h's arrays: an anonymous mapping (zero pages until written, as
 * calloc's large blocks), 2 MiB aligned and advised as huge-page memory
 * from BIG_HUGE on. The sanitizer build takes the C library's allocator
 * instead, so that AddressSanitizer still sees every overrun of them. */
#include "config.h"
#include "base/big_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/asan.h"

#define BIG_PAGE ((size_t)2 << 20)
/* From here on an array is worth its own huge pages: at 1024 cores the
 * L1 arrays are 41 MiB and the per-core structs half a MiB each, where
 * 4 KiB pages cost a TLB miss at nearly every access of an event. */
#define BIG_HUGE ((size_t)256 << 10)

/* Past this no machine has the memory: refused before any allocator is
 * asked (AddressSanitizer's aborts on a size it cannot serve). */
#define BIG_MAX (SIZE_MAX / 2 - 2 * BIG_PAGE)

/* n * size, or 0 when it is 0 or past BIG_MAX. */
static size_t big_total(size_t n, size_t size)
{
	return n && size && n <= BIG_MAX / size ? n * size : 0;
}

#ifdef BOUNCE_ASAN
size_t big_alignment(size_t size)
{
	(void)size;
	return 4096;
}

void *big_zalloc(size_t n, size_t elem)
{
	size_t size = big_total(n, elem);
	if (!size)
		return NULL;
	size_t len = (size + 4095) & ~(size_t)4095;
	void *p = aligned_alloc(4096, len);
	if (p)
		memset(p, 0, len);
	return p;
}

void big_free(void *p)
{
	free(p);
}
#else
/* What the mapping's first page keeps for big_free, just below the block. */
struct big_head {
	void *map;
	size_t len;
};

size_t big_alignment(size_t size)
{
	return size >= BIG_HUGE ? BIG_PAGE : 4096;
}

void *big_zalloc(size_t n, size_t elem)
{
	size_t size = big_total(n, elem);
	if (!size)
		return NULL;
	size_t align = big_alignment(size);
	int huge = align == BIG_PAGE;
	size_t body = (size + align - 1) & ~(align - 1);
	/* one page for the head, and the slack to align the block */
	size_t len = 4096 + body + (huge ? BIG_PAGE : 0);
	uint8_t *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	uint8_t *p = map + 4096;
	p += -(uintptr_t)p & (align - 1);
#ifdef MADV_HUGEPAGE
	/* advice only: a kernel without transparent huge pages ignores it */
	if (huge)
		madvise(p, body, MADV_HUGEPAGE);
#endif
	struct big_head h = { map, len };
	memcpy(p - sizeof h, &h, sizeof h);
	return p;
}

void big_free(void *p)
{
	if (!p)
		return;
	struct big_head h;
	memcpy(&h, (uint8_t *)p - sizeof h, sizeof h);
	munmap(h.map, h.len);
}
#endif
