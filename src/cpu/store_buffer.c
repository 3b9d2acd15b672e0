/* The store buffer's storage. Push, pop and forwarding are inline in
 * store_buffer.h, being on every load's and store's path; at most 256
 * entries (sb_entries), a linear forwarding search is the right cost. */
#include "config.h"
#include "cpu/store_buffer.h"
#include "base/invariant.h"

#include <stdlib.h>
#include <string.h>

int sb_init(struct sb *b, unsigned cap, unsigned commit_width, struct err *err)
{
	memset(b, 0, sizeof *b);
	if (NEVER(cap > 256 || commit_width > 255)) /* cpu_model_validate bounds both */
		return err_internal(err, "store buffer: %u entries, %u stores a cycle: out of range", cap, commit_width);
	b->cap = cap ? cap : 1;
	b->commit_width = (uint8_t)commit_width;
	/* 64-byte aligned: slots 0-1, where a short queue stays (sb_pop), are
	 * one host cache line. One more slot than the ring holds: the commit
	 * port's (store_buffer.h). The size is rounded up to what
	 * aligned_alloc requires, a multiple of the alignment. */
	size_t bytes = ((size_t)(b->cap + 1) * sizeof *b->e + 63) & ~(size_t)63;
	b->e = aligned_alloc(64, bytes);
	if (!b->e)
		return err_internal(err, "out of memory for a store buffer");
	memset(b->e, 0, bytes);
	return 0;
}

void sb_commit_limited(struct sb *b, uint64_t at)
{
	struct sb_entry *port = &b->e[b->cap];
	if (at != port->ready) {
		port->ready = at;
		port->size = 0;
	}
	uint64_t next = ++port->size == b->commit_width ? at + 1 : at;
	sb_pop(b);
	sb_head_not_before(b, next);
}

void sb_free(struct sb *b)
{
	free(b->e);
	b->e = NULL;
}
