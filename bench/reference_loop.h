/* The bare event-loop reference for the contended benchmark: what moving
 * one line between N cores costs when nothing else is simulated. */
#ifndef BOUNCE_BENCH_REFERENCE_LOOP_H
#define BOUNCE_BENCH_REFERENCE_LOOP_H

#include <stdint.h>

/* Runs `ops` operations of `cores` cores on one shared line through a
 * binary-heap event loop (no caches, no interpreter): each operation by a
 * core that does not own the line first moves it there. Returns operations
 * per host second; *moves gets how many times the line moved. */
double reference_loop_ops_per_s(int cores, uint64_t ops, uint64_t *moves);

#endif
