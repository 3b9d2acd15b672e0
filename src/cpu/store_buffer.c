/* The x86-TSO store buffer as a ring: push at the tail, pop at the head,
 * forwarding searches newest to oldest (store_buffer.h, inline: the hot
 * path). Its size is the CPU model's sb_entries (at most 256), so a linear
 * search is the right cost. */
#include "config.h"
#include "cpu/store_buffer.h"

#include <stdlib.h>
#include <string.h>

int sb_init(struct sb *b, unsigned cap, struct err *err)
{
	memset(b, 0, sizeof *b);
	b->cap = cap ? cap : 1;
	/* 64-byte aligned: slots 0-1, where a short queue stays (sb_pop), are
	 * one host cache line. The size is rounded up to what aligned_alloc
	 * requires, a multiple of the alignment. */
	size_t bytes = ((size_t)b->cap * sizeof *b->e + 63) & ~(size_t)63;
	b->e = aligned_alloc(64, bytes);
	if (!b->e)
		return err_internal(err, "out of memory for a store buffer");
	memset(b->e, 0, bytes);
	return 0;
}

void sb_free(struct sb *b)
{
	free(b->e);
	b->e = NULL;
}
