/* Zeroed arrays of per-core state that every simulated event reaches into
 * at a different core: on large machines they are backed by transparent
 * huge pages, so that a 1024-core run does not spend its time in TLB misses. */
#ifndef BOUNCE_BIG_ALLOC_H
#define BOUNCE_BIG_ALLOC_H

#include <stddef.h>

/* n zeroed elements of size bytes, as calloc: aligned to at least 4096
 * (so to any struct's alignment up to that), pages made resident only when
 * written; NULL when out of memory, when n * size is 0 or past any
 * machine's memory (overflow included). Free with big_free. */
void *big_zalloc(size_t n, size_t size);
void big_free(void *p);
/* The alignment big_zalloc gives `size` bytes: 2 MiB where it asks the
 * kernel for huge pages, else 4096. */
size_t big_alignment(size_t size);

#endif
