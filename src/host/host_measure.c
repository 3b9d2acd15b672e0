/* The measurements of host_measure.h. The timed loops are inline assembly
 * so that the compiler can neither shorten them nor add to them: what runs
 * is exactly the instruction sequence the result is attributed to. */
#include "config.h"
#include "host/host_measure.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "base/rng.h"

/* Apart from each other by two lines, so the adjacent-line prefetcher does
 * not couple them. */
#define SEP 128

static double clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* Single-thread figures are timed in the thread's own CPU time: on a busy
 * host the wall clock also counts the time other processes had the CPU. */
static double cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

int host_pin_self(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	int r = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	if (r) {
		errno = r;
		return -1;
	}
	return 0;
}

/* ---- clock ---- */

double host_clock_ghz(long adds, int runs)
{
	double best = 0;
	for (int r = 0; r < runs; r++) {
		uint64_t x = 0;
		double t0 = cpu_ns();
		/* 100 adds, each waiting for the one before: 100 cycles, while
		 * the loop's own dec/jnz run beside them. */
		for (long i = 0; i < adds; i += 100)
			__asm__ volatile(".rept 100\n\tadd $1, %0\n\t.endr" : "+r"(x));
		double ghz = (double)adds / (cpu_ns() - t0);
		if (ghz > best)
			best = ghz;
	}
	return best;
}

/* Eight independent chains of adds, 800 per pass: the core retires as many
 * per cycle as it has ALUs to issue them to (the loop's dec/jnz beside). */
double host_adds_per_cycle(long adds, int runs, double ghz)
{
	double best = 0;
	for (int r = 0; r < runs; r++) {
		uint64_t a = 0, b = 0, c = 0, d = 0, f = 0, g = 0, h = 0, k = 0;
		double t0 = cpu_ns();
		for (long i = 0; i < adds; i += 800)
			__asm__ volatile(".rept 100\n\tadd $1, %0\n\tadd $1, %1\n\tadd $1, %2\n\tadd $1, %3\n"
					 "\tadd $1, %4\n\tadd $1, %5\n\tadd $1, %6\n\tadd $1, %7\n\t.endr"
					 : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(f), "+r"(g), "+r"(h), "+r"(k));
		double ipc = (double)adds / ((cpu_ns() - t0) * ghz);
		if (ipc > best)
			best = ipc;
	}
	return best;
}

/* Stores to the eight quadwords of one L1-resident line, 800 per pass,
 * none reading another: in a long run the buffer can empty no faster than
 * the L1 takes stores, so this is the store commit rate (the store ports),
 * with the loop's dec/jnz beside. */
double host_stores_per_cycle(long stores, int runs, double ghz)
{
	static _Alignas(64) uint64_t line[8];
	double best = 0;
	for (int r = 0; r < runs; r++) {
		uint64_t v = (uint64_t)r;
		double t0 = cpu_ns();
		for (long i = 0; i < stores; i += 800)
			__asm__ volatile(".rept 100\n\tmov %1, 0(%0)\n\tmov %1, 8(%0)\n\tmov %1, 16(%0)\n"
					 "\tmov %1, 24(%0)\n\tmov %1, 32(%0)\n\tmov %1, 40(%0)\n\tmov %1, 48(%0)\n"
					 "\tmov %1, 56(%0)\n\t.endr"
					 : : "r"(line), "r"(v) : "memory");
		double spc = (double)stores / ((cpu_ns() - t0) * ghz);
		if (spc > best)
			best = spc;
	}
	return best;
}

/* ---- pointer chasing ---- */

struct host_chain {
	char *mem;
	size_t bytes, stride;
	int mapped;
};

/* Sattolo's shuffle: one cycle through every slot, in an order the
 * prefetchers cannot follow, its pointers at byte `offset` of each slot. */
static int link_cycle(struct host_chain *c, size_t offset, uint64_t seed)
{
	size_t n = c->bytes / c->stride;
	size_t *order = malloc(n * sizeof *order);
	if (!order)
		return -1;
	struct rng r;
	rng_seed(&r, seed, 0);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rng_upto(&r, i - 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(c->mem + order[i] * c->stride + offset) = c->mem + order[(i + 1) % n] * c->stride + offset;
	free(order);
	return 0;
}

struct host_chain *host_chain_new(size_t bytes, size_t stride, uint64_t seed)
{
	size_t n = bytes / stride;
	if (n < 2 || stride < sizeof(void *))
		return NULL;
	struct host_chain *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->bytes = n * stride;
	c->stride = stride;
	if (c->bytes >= (4u << 20)) {
		/* Large chains are for the LLC and memory: huge pages where the
		 * kernel has them, so TLB misses add less to the figure. */
		c->mem = mmap(NULL, c->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (c->mem == MAP_FAILED) {
			c->mem = NULL;
			goto fail;
		}
		c->mapped = 1;
#ifdef MADV_HUGEPAGE
		madvise(c->mem, c->bytes, MADV_HUGEPAGE);
#endif
	} else if (!(c->mem = aligned_alloc(4096, (c->bytes + 4095) / 4096 * 4096))) {
		goto fail;
	}
	if (link_cycle(c, 0, seed))
		goto fail;
	return c;
fail:
	host_chain_free(c);
	return NULL;
}

void host_chain_free(struct host_chain *c)
{
	if (!c)
		return;
	if (c->mapped)
		munmap(c->mem, c->bytes);
	else
		free(c->mem);
	free(c);
}

struct chase_job {
	struct host_chain *c;
	long steps;
	int runs, cpu;
	double ns;
};

static void *chase(void *arg)
{
	struct chase_job *j = arg;
	j->ns = -1;
	if (j->cpu >= 0 && host_pin_self(j->cpu))
		return NULL;
	void **p = (void **)j->c->mem;
	/* One pass to bring the chain to its steady place in the hierarchy. */
	for (size_t i = 0; i < j->c->bytes / 64 && i < (size_t)j->steps; i++)
		p = *p;
	long loads = (j->steps + 15) / 16 * 16; /* whole groups of 16 */
	for (int r = 0; r < j->runs; r++) {
		double t0 = cpu_ns();
		for (long i = 0; i < j->steps; i += 16)
			__asm__ volatile(".rept 16\n\tmov (%0), %0\n\t.endr" : "+r"(p) : : "memory");
		double ns = (cpu_ns() - t0) / (double)loads;
		if (j->ns < 0 || ns < j->ns)
			j->ns = ns;
	}
	return NULL;
}

double host_chain_ns(struct host_chain *c, long steps, int runs, int cpu)
{
	struct chase_job j = {c, steps, runs, cpu, -1};
	if (cpu < 0) {
		chase(&j);
		return j.ns;
	}
	pthread_t t;
	if (pthread_create(&t, NULL, chase, &j))
		return -1;
	pthread_join(t, NULL);
	return j.ns;
}

/* ---- the store buffer's depth ----
 *
 * Two independent pointer chases through memory, A and B, with N stores
 * to L1-resident lines after each load: A, N stores, B, N stores. A store
 * leaves the buffer only after it retires, and nothing retires past A
 * while A misses, so B can be issued beside A only while the N stores
 * between them fit in the buffer: up to its depth an iteration costs one
 * miss, beyond it two. sb_probe_N is that loop for one N. */
#define SB_STORES(N, at) ".set k_, " at "\n\t.rept " #N "\n\tmov %%eax, k_(%2)\n\t.set k_, k_ + 16\n\t.endr\n\t"
#define SB_PROBE(N)                                                                                 \
	static void sb_probe_##N(void ***pa, void ***pb, long iters)                                \
	{                                                                                           \
		void **a = *pa, **b = *pb;                                                          \
		for (long i = 0; i < iters; i++)                                                    \
			__asm__ volatile("mov (%0), %0\n\t" SB_STORES(N, "0") "mov (%1), %1\n\t"      \
					 SB_STORES(N, "4096")                                       \
					 : "+r"(a), "+r"(b) : "r"(sb_lines) : "memory", "eax");      \
		*pa = a;                                                                            \
		*pb = b;                                                                            \
	}
static _Alignas(64) char sb_lines[8192];
SB_PROBE(8) SB_PROBE(16) SB_PROBE(24) SB_PROBE(32) SB_PROBE(40) SB_PROBE(48) SB_PROBE(56) SB_PROBE(64)
SB_PROBE(72) SB_PROBE(80) SB_PROBE(88) SB_PROBE(96) SB_PROBE(104) SB_PROBE(112) SB_PROBE(120) SB_PROBE(128)
SB_PROBE(136) SB_PROBE(144) SB_PROBE(152) SB_PROBE(160) SB_PROBE(168) SB_PROBE(176) SB_PROBE(184) SB_PROBE(192)
SB_PROBE(200) SB_PROBE(208) SB_PROBE(216) SB_PROBE(224) SB_PROBE(232) SB_PROBE(240) SB_PROBE(248) SB_PROBE(256)
static void (*const sb_probes[HOST_SB_STEPS])(void ***, void ***, long) = {
	sb_probe_8, sb_probe_16, sb_probe_24, sb_probe_32, sb_probe_40, sb_probe_48, sb_probe_56, sb_probe_64,
	sb_probe_72, sb_probe_80, sb_probe_88, sb_probe_96, sb_probe_104, sb_probe_112, sb_probe_120, sb_probe_128,
	sb_probe_136, sb_probe_144, sb_probe_152, sb_probe_160, sb_probe_168, sb_probe_176, sb_probe_184, sb_probe_192,
	sb_probe_200, sb_probe_208, sb_probe_216, sb_probe_224, sb_probe_232, sb_probe_240, sb_probe_248, sb_probe_256,
};

int host_sb_probe(struct host_chain *c, long iters, int runs, double ns[HOST_SB_STEPS])
{
	/* B's cycle runs through the same slots, at the middle of each: its
	 * own random order, so that it misses wherever A is. */
	if (c->stride < 2 * sizeof(void *) || link_cycle(c, c->stride / 2, 0xb5eed))
		return -1;
	void **a = (void **)c->mem, **b = (void **)(c->mem + c->stride / 2);
	sb_probes[0](&a, &b, iters);  /* warm both chases and the stores' lines */
	for (int k = 0; k < HOST_SB_STEPS; k++)
		ns[k] = -1;
	for (int r = 0; r < runs; r++)
		for (int k = 0; k < HOST_SB_STEPS; k++) {
			double t0 = cpu_ns();
			sb_probes[k](&a, &b, iters);
			double t = (cpu_ns() - t0) / (double)iters;
			if (ns[k] < 0 || t < ns[k])
				ns[k] = t;
		}
	return 0;
}

int host_sb_step(const double ns[HOST_SB_STEPS])
{
	double base = ns[0];
	for (int k = 1; k < 4; k++)
		if (ns[k] < base)
			base = ns[k];
	if (!(base > 0))
		return -1;
	/* Two in a row: one slow point is a disturbed run, not the step. */
	for (int k = 1; k < HOST_SB_STEPS; k++)
		if (ns[k] > 1.5 * base && (k + 1 == HOST_SB_STEPS || ns[k + 1] > 1.5 * base))
			return k;
	return -1;
}

/* ---- one instruction back to back ----
 *
 * The body of the functions below: ns per instruction of `insn` (a string
 * literal) run ten at a time, best of `runs`; the rest of the arguments
 * are its asm operands. */
#define TIME_REPEATED(ops, runs, insn, ...)                                             \
	do {                                                                            \
		double best_ = -1;                                                      \
		long done_ = ((ops) + 9) / 10 * 10; /* whole groups of 10 */            \
		for (int r_ = 0; r_ < (runs); r_++) {                                   \
			double t0_ = cpu_ns();                                          \
			for (long i_ = 0; i_ < (ops); i_ += 10)                         \
				__asm__ volatile(".rept 10\n\t" insn "\n\t.endr" __VA_ARGS__); \
			double ns_ = (cpu_ns() - t0_) / (double)done_;                  \
			if (best_ < 0 || ns_ < best_)                                   \
				best_ = ns_;                                            \
		}                                                                       \
		return best_;                                                           \
	} while (0)

double host_locked_ns(long ops, int runs)
{
	static _Alignas(SEP) uint64_t line[SEP / 8];
	uint64_t v = 1;
	TIME_REPEATED(ops, runs, "lock xaddq %0, %1", : "+r"(v), "+m"(line[0]) : : "memory");
}

double host_store_locked_ns(long ops, int runs)
{
	static _Alignas(SEP) uint64_t line[SEP / 8], other[SEP / 8];
	uint64_t v = 1;
	TIME_REPEATED(ops, runs, "movq %0, %2\n\tlock xaddq %0, %1", : "+r"(v), "+m"(line[0]), "=m"(other[0]) : : "memory");
}

double host_rmw_chain_ns(long ops, int runs)
{
	static _Alignas(SEP) uint64_t line[SEP / 8];
	TIME_REPEATED(ops, runs, "incq %0", : "+m"(line[0]) : : "memory", "cc");
}

double host_mfence_ns(long ops, int runs)
{
	TIME_REPEATED(ops, runs, "mfence", : : : "memory");
}

double host_pause_ns(long ops, int runs)
{
	TIME_REPEATED(ops, runs, "pause", : : : "memory");
}

/* ---- threads started together ---- */

/* n threads pinned to their CPUs wait at a start line; the last to arrive
 * takes the start time and lets them go, so no unpinned thread competes
 * for a CPU while they run. */
struct gang {
	atomic_int ready;
	atomic_int go;
	int n;
	double t0;
};

static void gang_start(struct gang *g)
{
	if (atomic_fetch_add(&g->ready, 1) == g->n - 1) {
		g->t0 = now_ns();
		atomic_store(&g->go, 1);
	}
	while (!atomic_load_explicit(&g->go, memory_order_acquire))
		__asm__ volatile("pause");
}

/* The median of the undisturbed values (of all when none was). */
static double median_of(double *v, const int *clean, int n, int nclean)
{
	double pick[HOST_MAX_RUNS] = {0};
	int m = 0;
	for (int i = 0; i < n; i++)
		if (!nclean || clean[i])
			pick[m++] = v[i];
	for (int i = 1; i < m; i++)
		for (int j = i; j > 0 && pick[j - 1] > pick[j]; j--) {
			double t = pick[j];
			pick[j] = pick[j - 1];
			pick[j - 1] = t;
		}
	return m ? (m % 2 ? pick[m / 2] : (pick[m / 2 - 1] + pick[m / 2]) / 2) : -1;
}

/* ---- CAS ping-pong ---- */

struct pingpong {
	struct gang g;
	_Alignas(SEP) uint64_t flag;
	_Alignas(SEP) long trips;
};

struct pp_thread {
	struct pingpong *pp;
	int cpu, me;
	double end, cpu_time;
	int ok;
};

/* Whether a thread ran for (nearly) all of a run: otherwise another
 * process had its CPU for part of it and the run says little. */
static int undisturbed(double cpu_time, double wall)
{
	return cpu_time >= 0.9 * wall;
}

static void *pp_run(void *arg)
{
	struct pp_thread *t = arg;
	struct pingpong *pp = t->pp;
	/* A thread that could not be pinned still plays its part, or its
	 * partner would wait for it forever; the result is then discarded. */
	t->ok = host_pin_self(t->cpu) == 0;
	gang_start(&pp->g);
	double c0 = cpu_ns();
	uint64_t mine = (uint64_t)t->me, theirs = mine ^ 1;
	for (long i = 0; i < pp->trips; i++) {
		uint64_t exp;
		do
			exp = mine;
		while (!__atomic_compare_exchange_n(&pp->flag, &exp, theirs, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
	}
	t->end = now_ns();
	t->cpu_time = cpu_ns() - c0;
	return NULL;
}

double host_c2c_ns(int cpu_a, int cpu_b, long round_trips, int runs, struct host_runs *how)
{
	double best = -1, best_clean = -1, all[HOST_MAX_RUNS] = {0};
	int clean = 0, is_clean[HOST_MAX_RUNS] = {0};
	if (runs > HOST_MAX_RUNS)
		runs = HOST_MAX_RUNS;
	struct pingpong *pp = aligned_alloc(SEP, (sizeof *pp + SEP - 1) / SEP * SEP);
	if (!pp)
		return -1;
	for (int r = 0; r < runs; r++) {
		memset(pp, 0, sizeof *pp);
		pp->g.n = 2;
		pp->trips = round_trips;
		struct pp_thread th[2] = {{pp, cpu_a, 0, 0, 0, 0}, {pp, cpu_b, 1, 0, 0, 0}};
		pthread_t id[2];
		int started = 0;
		for (; started < 2; started++)
			if (pthread_create(&id[started], NULL, pp_run, &th[started]))
				break;
		if (started < 2) {
			/* The one that started waits for a partner: release it. */
			pp->trips = 0;
			atomic_store(&pp->g.go, 1);
		}
		for (int i = 0; i < started; i++)
			pthread_join(id[i], NULL);
		if (started < 2 || !th[0].ok || !th[1].ok) {
			best = -1;
			break;
		}
		double end = th[0].end > th[1].end ? th[0].end : th[1].end;
		double ns = (end - pp->g.t0) / (double)round_trips / 2;
		if (best < 0 || ns < best)
			best = ns;
		all[r] = ns;
		is_clean[r] = undisturbed(th[0].cpu_time, th[0].end - pp->g.t0) &&
			      undisturbed(th[1].cpu_time, th[1].end - pp->g.t0);
		if (is_clean[r]) {
			clean++;
			if (best_clean < 0 || ns < best_clean)
				best_clean = ns;
		}
	}
	free(pp);
	if (how) {
		how->clean = clean;
		how->median = best < 0 ? -1 : median_of(all, is_clean, runs, clean);
	}
	return best < 0 || best_clean < 0 ? best : best_clean;
}

/* ---- the validate workloads ---- */

const char *host_workload_name(enum host_workload w)
{
	static const char *const names[] = {"contended", "padded", "false_sharing"};
	return (unsigned)w < HOST_WL_N ? names[w] : "?";
}

/* Not one of validate's rows: the contended loop counting ownerships
 * (host_ownership). */
#define WL_OWNERSHIP HOST_WL_N

struct wl_thread {
	struct gang *g;
	int w;          /* an enum host_workload, or WL_OWNERSHIP */
	uint64_t *target;
	long ops, owned;
	int cpu, ok;
	double end, cpu_time;
};

static void *wl_run(void *arg)
{
	struct wl_thread *t = arg;
	t->ok = host_pin_self(t->cpu) == 0;
	gang_start(t->g);
	double c0 = cpu_ns();
	long n = t->ops;
	if (t->ok && n > 0 && t->w == WL_OWNERSHIP) {
		/* A value one more than this thread's last means that nobody
		 * took the line between its two operations; any other value
		 * starts an ownership. Counted in registers, so the loop stays a
		 * locked add, a compare, the count and the loop's branch. */
		uint64_t last = UINT64_MAX - 1;
		long owned = 0;
		for (long i = 0; i < n; i++) {
			uint64_t v = __atomic_fetch_add(t->target, 1, __ATOMIC_SEQ_CST);
			owned += v != last + 1;
			last = v;
		}
		t->owned = owned;
	} else if (t->ok && n > 0) {
		if (t->w == HOST_WL_CONTENDED)
			__asm__ volatile("1:\n\tmov $1, %%eax\n\tlock xaddq %%rax, (%1)\n\tdec %0\n\tjnz 1b"
					 : "+r"(n) : "r"(t->target) : "rax", "memory", "cc");
		else
			__asm__ volatile("1:\n\tincq (%1)\n\tdec %0\n\tjnz 1b"
					 : "+r"(n) : "r"(t->target) : "memory", "cc");
	}
	t->end = now_ns();
	t->cpu_time = cpu_ns() - c0;
	return NULL;
}

/* One run of workload w (or WL_OWNERSHIP) on threads pinned to cpus[0..n-1]
 * over mem, n + 2 separated lines, zeroed here: 0 with every thread's
 * figures in th and the start time in *t0, -1 when a thread could not be
 * started or pinned. */
static int gang_run(int w, const int *cpus, int n, long ops, uint64_t *mem, struct wl_thread *th,
		    pthread_t *id, double *t0)
{
	memset(mem, 0, (size_t)SEP * ((size_t)n + 2));
	struct gang g = {.n = n};
	int started = 0;
	for (; started < n; started++) {
		struct wl_thread *t = &th[started];
		*t = (struct wl_thread){.g = &g, .w = w, .ops = ops, .cpu = cpus[started]};
		/* Padded: a line pair each; packed: 8 bytes each of one array. */
		t->target = w == HOST_WL_PADDED ? mem + (size_t)(started + 1) * (SEP / 8)
			  : w == HOST_WL_PACKED ? mem + started
						: mem;
		if (pthread_create(&id[started], NULL, wl_run, t))
			break;
	}
	if (started < n) {
		/* Those started wait for the rest: let them go with nothing to do. */
		for (int i = 0; i < started; i++)
			th[i].ops = 0;
		atomic_store(&g.go, 1);
	}
	for (int i = 0; i < started; i++)
		pthread_join(id[i], NULL);
	int ok = started == n;
	for (int i = 0; i < started; i++)
		ok &= th[i].ok;
	*t0 = g.t0;
	return ok ? 0 : -1;
}

/* Whether every thread of a gang run ran undisturbed, each over its own
 * span (one may finish first). */
static int gang_undisturbed(const struct wl_thread *th, int n, double t0)
{
	int quiet = 1;
	for (int i = 0; i < n; i++)
		quiet &= undisturbed(th[i].cpu_time, th[i].end - t0);
	return quiet;
}

double host_workload_ops(enum host_workload w, const int *cpus, int n, long ops, int runs, struct host_runs *how)
{
	if (n < 1 || ops < 1)
		return -1;
	uint64_t *mem = aligned_alloc(SEP, (size_t)SEP * ((size_t)n + 2));
	struct wl_thread *th = calloc((size_t)n, sizeof *th);
	pthread_t *id = calloc((size_t)n, sizeof *id);
	double best = -1, best_clean = -1, all[HOST_MAX_RUNS] = {0};
	int clean = 0, is_clean[HOST_MAX_RUNS] = {0};
	if (runs > HOST_MAX_RUNS)
		runs = HOST_MAX_RUNS;
	if (!mem || !th || !id)
		goto out;
	for (int r = 0; r < runs; r++) {
		double t0;
		if (gang_run((int)w, cpus, n, ops, mem, th, id, &t0)) {
			best = best_clean = -1;
			break;
		}
		double end = 0;
		for (int i = 0; i < n; i++)
			if (th[i].end > end)
				end = th[i].end;
		double rate = (double)ops * n / ((end - t0) * 1e-9);
		if (rate > best)
			best = rate;
		int quiet = gang_undisturbed(th, n, t0);
		all[r] = rate;
		is_clean[r] = quiet;
		if (quiet) {
			clean++;
			if (rate > best_clean)
				best_clean = rate;
		}
	}
	if (how) {
		how->clean = clean;
		how->median = best < 0 ? -1 : median_of(all, is_clean, runs, clean);
	}
	if (best_clean > 0)
		best = best_clean;
out:
	free(mem);
	free(th);
	free(id);
	return best;
}

double host_ownership(int cpu_a, int cpu_b, long ops, int runs, struct host_runs *how)
{
	if (ops < 1)
		return -1;
	if (runs > HOST_MAX_RUNS)
		runs = HOST_MAX_RUNS;
	const int cpus[2] = {cpu_a, cpu_b};
	uint64_t *mem = aligned_alloc(SEP, (size_t)SEP * 4);
	struct wl_thread th[2];
	pthread_t id[2];
	double all[HOST_MAX_RUNS] = {0}, result = -1;
	int clean = 0, is_clean[HOST_MAX_RUNS] = {0};
	if (!mem)
		return -1;
	for (int r = 0; r < runs; r++) {
		double t0;
		if (gang_run(WL_OWNERSHIP, cpus, 2, ops, mem, th, id, &t0))
			goto out;
		/* each maximal run of one thread's consecutive values is one
		 * ownership of the line */
		all[r] = 2.0 * (double)ops / (double)(th[0].owned + th[1].owned);
		is_clean[r] = gang_undisturbed(th, 2, t0);
		clean += is_clean[r];
	}
	result = median_of(all, is_clean, runs, clean);
	if (how) {
		how->clean = clean;
		how->median = result;
	}
out:
	free(mem);
	return result;
}
