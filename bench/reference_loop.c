/* The bare event-loop reference (reference_loop.h): a binary heap of core
 * events keyed by (time, sequence), one line's owner, nothing else. The
 * contended benchmark divides bounce's rate by this one's, so the ratio says
 * how much of bounce's per-operation cost is the model around the loop. */
#include "config.h"
#include "reference_loop.h"

#include <stdlib.h>
#include <time.h>

struct ev {
	uint64_t t, seq;
	int core;
};

static int before(const struct ev *a, const struct ev *b)
{
	return a->t != b->t ? a->t < b->t : a->seq < b->seq;
}

static void sift_up(struct ev *h, size_t i)
{
	struct ev x = h[i];
	while (i && before(&x, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = x;
}

static void sift_down(struct ev *h, size_t n, size_t i)
{
	struct ev x = h[i];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && before(&h[c + 1], &h[c]))
			c++;
		if (!before(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/* Out of line even under LTO, so that a profile of bench_core can leave the
 * reference out (callgrind --toggle-collect=reference_loop_ops_per_s). */
__attribute__((noinline)) double reference_loop_ops_per_s(int cores, uint64_t ops, uint64_t *moves)
{
	struct ev *h = malloc((size_t)cores * sizeof *h);
	if (!h)
		return 0;
	size_t n = 0;
	uint64_t seq = 0;
	for (int c = 0; c < cores; c++) {
		h[n] = (struct ev){ (uint64_t)c, seq++, c };
		sift_up(h, n++);
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int owner = -1;
	uint64_t moved = 0;
	/* The same costs as the benchmark's machine, in round numbers: a hit
	 * and a transfer. Only the loop's work matters, not the figures. */
	const uint64_t hit = 24, transfer = 120;
	for (uint64_t i = 0; i < ops; i++) {
		struct ev e = h[0];
		uint64_t cost = hit;
		if (e.core != owner) {
			owner = e.core;
			moved++;
			cost += transfer;
		}
		h[0] = (struct ev){ e.t + cost, seq++, e.core };
		sift_down(h, n, 0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	free(h);
	if (moves)
		*moves = moved;
	double dt = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
	return dt > 0 ? (double)ops / dt : 0;
}
