/* Sets of CPU ids as bitsets: the one representation of "which CPUs" from
 * a scenario's "cpus" to the driver's interrupt sources. Membership, count
 * and the highest id are computed from the bits, never kept beside them. */
#ifndef BOUNCE_CPUSET_H
#define BOUNCE_CPUSET_H

#include <stdbool.h>
#include <stdint.h>
#include "base/cpu_model.h"

#define CPUSET_WORDS (CPU_MAX_CORES / 64)

/* Bit c of word c/64 is CPU c; {0} is the empty set. */
struct cpuset {
	uint64_t w[CPUSET_WORDS];
};

static inline void cpuset_add(struct cpuset *s, int cpu)
{
	s->w[cpu / 64] |= 1ull << (cpu % 64);
}

static inline bool cpuset_has(const struct cpuset *s, int cpu)
{
	return (s->w[cpu / 64] >> (cpu % 64)) & 1;
}

static inline int cpuset_count(const struct cpuset *s)
{
	int n = 0;
	for (int i = 0; i < CPUSET_WORDS; i++)
		n += __builtin_popcountll(s->w[i]);
	return n;
}

/* The highest CPU in the set, or -1 when it is empty. */
static inline int cpuset_last(const struct cpuset *s)
{
	for (int i = CPUSET_WORDS - 1; i >= 0; i--)
		if (s->w[i])
			return i * 64 + 63 - __builtin_clzll(s->w[i]);
	return -1;
}

#endif
