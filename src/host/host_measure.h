/* Measurements on this host with threads pinned to CPUs: the core clock,
 * load latencies by pointer chasing, the cost of a locked RMW, CAS
 * ping-pong between two CPUs, and the native counterparts of the counter
 * workloads `bounce validate` compares with the simulator. Every figure is
 * the best of several runs: the host may be shared, and interference only
 * ever makes a run slower. */
#ifndef BOUNCE_HOST_MEASURE_H
#define BOUNCE_HOST_MEASURE_H

#include <stddef.h>
#include <stdint.h>

/* Pin the calling thread to logical CPU `cpu`; 0 or -1 (errno set). */
int host_pin_self(int cpu);

/* The core clock in GHz: a long chain of dependent 1-cycle adds timed
 * with clock_gettime in this thread's CPU time (as are the other
 * single-thread figures). `runs` >= 1. */
double host_clock_ghz(long adds, int runs);
/* Independent adds retired per cycle at `ghz` (eight chains side by side):
 * how many simple instructions the core issues at once. */
double host_adds_per_cycle(long adds, int runs, double ghz);

/* Independent stores to one L1-resident line retired per cycle at `ghz`:
 * how many stores a cycle the L1 takes from the store buffer. */
double host_stores_per_cycle(long stores, int runs, double ghz);

/* A random cyclic pointer chain through `bytes` of memory, one pointer per
 * `stride` bytes, built (and so first touched) by the calling thread. */
struct host_chain;
struct host_chain *host_chain_new(size_t bytes, size_t stride, uint64_t seed);
void host_chain_free(struct host_chain *c);
/* ns per dependent load following the chain `steps` times, best of
 * `runs`, on CPU `cpu` (-1: where the caller runs). < 0 on failure. */
double host_chain_ns(struct host_chain *c, long steps, int runs, int cpu);

/* The store-buffer probe: ns per iteration of two independent chases of
 * c (a second cycle is linked at the middle of each slot: the stride must
 * hold two pointers) with HOST_SB_STORES(k) stores after each load, for
 * k < HOST_SB_STEPS, best of `runs`. The iteration costs about one miss
 * while those stores fit in the store buffer and two once they do not. */
#define HOST_SB_STEPS 32
#define HOST_SB_STORES(k) (8 * ((k) + 1))
int host_sb_probe(struct host_chain *c, long iters, int runs, double ns[HOST_SB_STEPS]);
/* Where the probe's iteration time steps up: the first k whose time, and
 * the next one's, exceed 1.5 times the least of the first four; -1 when
 * there is none (or the times are not positive). The buffer holds at
 * least HOST_SB_STORES(k - 1) stores and fewer than HOST_SB_STORES(k). */
int host_sb_step(const double ns[HOST_SB_STEPS]);

/* ns per `lock xadd` to a line only this thread uses, best of `runs`. */
double host_locked_ns(long ops, int runs);
/* ns per pair of a store to one line and a `lock xadd` to another, both
 * only this thread's, best of `runs`: the locked RMW waits for the store
 * to leave the store buffer, so this minus host_locked_ns is one store's
 * drain before a locked op. */
double host_store_locked_ns(long ops, int runs);
/* ns per `inc` of one quadword in memory, back to back, best of `runs`:
 * each reads what the one before wrote, so this is a link of a chain
 * through memory (store-to-load forwarding, or memory renaming). */
double host_rmw_chain_ns(long ops, int runs);

/* ns per `mfence` back to back (nothing stored: the buffer is empty, so
 * this is the fence's own cost), and per `pause` back to back; best of
 * `runs`. */
double host_mfence_ns(long ops, int runs);
double host_pause_ns(long ops, int runs);

/* How a multi-thread figure's runs went: how many ran undisturbed (no
 * thread lost its CPU to another process), and the median of those (of
 * all runs when none did), to show the spread beside the best. */
struct host_runs {
	int clean;
	double median;
};

#define HOST_MAX_RUNS 64

/* One line moving between CPUs a and b by the core-to-core-latency
 * method: two threads take turns compare-and-swapping it from their value
 * to the other's; ns per transfer is the round trip / 2. Best of the
 * undisturbed runs (of all when none was; runs <= HOST_MAX_RUNS), `how`
 * may be NULL; < 0 when the threads cannot be pinned. Timed on the wall
 * clock: CPU time cannot see the waiting a transfer is made of. */
double host_c2c_ns(int cpu_a, int cpu_b, long round_trips, int runs, struct host_runs *how);

/* Ops per ownership of a contended counter on CPUs a and b: two threads
 * `lock xadd` one counter `ops` times each; a thread whose value is not
 * one more than its last has had the line taken in between, so the runs of
 * consecutive values say how many operations each ownership held. The
 * median over the undisturbed runs (of all when none was; `how` may be
 * NULL); < 0 when the threads cannot be pinned or memory is short. */
double host_ownership(int cpu_a, int cpu_b, long ops, int runs, struct host_runs *how);

/* The workloads validate runs, written here as the same instruction loop
 * as scenarios/validate.s. */
enum host_workload {
	HOST_WL_CONTENDED, /* every thread: lock xadd on one shared counter */
	HOST_WL_PADDED,    /* each thread: inc on its own counter, one line each */
	HOST_WL_PACKED,    /* each thread: inc on its own 8 bytes of one array (false sharing) */
	HOST_WL_N
};
const char *host_workload_name(enum host_workload w);
/* Run `w` with one thread pinned to each of cpus[0..n-1], `ops` operations
 * per thread; returns the best total ops/s of `runs` (undisturbed runs
 * first, as for host_c2c_ns), < 0 on failure. */
double host_workload_ops(enum host_workload w, const int *cpus, int n, long ops, int runs, struct host_runs *how);

#endif
