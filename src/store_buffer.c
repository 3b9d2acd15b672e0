/* The x86-TSO store buffer as a ring: push at the tail, pop at the head,
 * forwarding searches newest to oldest (store_buffer.h, inline: the hot
 * path). Its size is the CPU model's sb_entries (at most 256), so a linear
 * search is the right cost. */
#include "config.h"
#include "store_buffer.h"

#include <stdlib.h>
#include <string.h>

int sb_init(struct sb *b, unsigned cap, struct err *err)
{
	memset(b, 0, sizeof *b);
	b->e = calloc(cap ? cap : 1, sizeof *b->e);
	if (!b->e)
		return err_internal(err, "out of memory for a store buffer");
	b->cap = cap ? cap : 1;
	return 0;
}

void sb_free(struct sb *b)
{
	free(b->e);
	b->e = NULL;
}
