/* Coherence throughput benchmark: cores driven from an event loop over evq,
 * each re-issuing an access when its previous one completes, as the core
 * model does. Reports coherence transactions (and accesses) per host second.
 * Usage: bench_coherence [events-per-case [case-number]] */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>
#include "base/event_queue.h"
#include "mem/memsys.h"

enum pattern {
	HOT_STORE,        /* every core stores to one line: each store is a GETM + HITM */
	OWN_PLUS_SHARED,  /* store own line (a hit), then store the shared line */
	HOT_LOAD_STORE,   /* plain `add [m]`: load then store one line */
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int run(const char *name, int cores, enum fabric_kind fabric, enum pattern pat, long events)
{
	struct cpu_model m;
	cpu_model_default(&m);
	m.cores = cores;
	m.cores_per_socket = cores < 16 ? 4 : 16;
	m.fabric = fabric;
	struct err e = {0};
	struct memsys *ms = ms_create(&m, (uint64_t)(cores + 2) * 64 * 2, &e);
	struct evq q;
	if (!ms || evq_init(&q, (size_t)cores, &e)) {
		fprintf(stderr, "bench_coherence: %s\n", e.msg);
		return -1;
	}
	uint8_t *phase = calloc((size_t)cores, 1);
	for (int c = 0; c < cores; c++)
		evq_push(&q, (uint64_t)c, (uint32_t)c);
	const uint64_t shared = 0;
	double t0 = now_s();
	uint64_t t, cyc = 0;
	uint32_t c;
	for (long i = 0; i < events && evq_pop(&q, &t, &c); i++) {
		uint64_t v = 0, done;
		switch (pat) {
		case HOT_STORE:
			done = ms_store(ms, (int)c, t, shared, 8, (uint64_t)i);
			break;
		case OWN_PLUS_SHARED:
			done = phase[c] ? ms_store(ms, (int)c, t, shared, 8, (uint64_t)i)
					: ms_store(ms, (int)c, t, (uint64_t)(c + 1) * 128, 8, (uint64_t)i);
			phase[c] ^= 1;
			break;
		default:
			done = phase[c] ? ms_store(ms, (int)c, t, shared, 8, v + 1)
					: ms_load(ms, (int)c, t, shared, 8, &v);
			phase[c] ^= 1;
			break;
		}
		cyc = done;
		evq_push(&q, done, c);
	}
	double dt = now_s() - t0;
	struct ms_stats s;
	ms_total_stats(ms, &s);
	uint64_t acc = s.loads + s.stores;
	printf("%-44s %5d cores %-9s %8.2f M txn/s %8.2f M acc/s  (%llu txn, %llu bounces, %.3f s, %llu cycles)\n",
	       name, cores, cpu_fabric_name(fabric), s.transactions / dt / 1e6, acc / dt / 1e6,
	       (unsigned long long)s.transactions, (unsigned long long)s.bounces, dt,
	       (unsigned long long)cyc);
	free(phase);
	evq_free(&q);
	ms_destroy(ms);
	return 0;
}

/* Host memory of a 1024-core machine over 256 MiB of simulated memory after
 * 100k distinct lines were written: directory entries grow with the lines
 * touched, not with mem_size x cores. */
static int footprint(void)
{
	struct cpu_model m;
	cpu_model_default(&m);
	m.cores = 1024;
	m.cores_per_socket = 64;
	m.fabric = FABRIC_DIRECTORY;
	struct err e = {0};
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	const uint64_t mem = 256ull << 20;
	struct memsys *ms = ms_create(&m, mem, &e);
	if (!ms) {
		fprintf(stderr, "bench_coherence: %s\n", e.msg);
		return -1;
	}
	for (uint64_t i = 0; i < 100000; i++)
		ms_store(ms, (int)(i % 1024), i, (i * 2654435761u) % (mem / 64) * 64, 8, i);
	getrusage(RUSAGE_SELF, &r1);
	printf("footprint: 1024 cores, 256 MiB simulated, 100k lines written: max RSS %ld -> %ld MiB\n",
	       r0.ru_maxrss / 1024, r1.ru_maxrss / 1024);
	ms_destroy(ms);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 4000000;
	int only = argc > 2 ? atoi(argv[2]) : 0, rc = 0;
	if (!only || only == 1)
		rc |= run("8 cores, one hot line (stores)", 8, FABRIC_BUS, HOT_STORE, n);
	if (!only || only == 2)
		rc |= run("64 cores, own lines + one shared line", 64, FABRIC_DIRECTORY, OWN_PLUS_SHARED, n);
	if (!only || only == 3)
		rc |= run("1024 cores, one hot line (stores)", 1024, FABRIC_DIRECTORY, HOT_STORE, n);
	if (!only || only == 4)
		rc |= run("8 cores, one hot line (load+store)", 8, FABRIC_BUS, HOT_LOAD_STORE, n);
	if (!only || only == 5)
		rc |= run("1024 cores, one hot line (load+store)", 1024, FABRIC_DIRECTORY, HOT_LOAD_STORE, n / 4);
	if (!only || only == 6)
		rc |= footprint();
	return rc ? 1 : 0;
}
