/* scaling.s's workload in C: every CPU adds 1 to one counter NR_UPDATES
 * times, UPDATE_WORK cycles apart, reading it cheaply every READ_EVERY
 * adds; then CPU 0 waits for the others and reads it exactly. Compiled by
 * the host's compiler, so c_counters.json can set it beside the assembly
 * form and show where the compiler's code and the hand-written differ. */
#include "lib/percpu_counter.h"

#ifndef DESIGN
#define DESIGN 0          /* 0 atomic_t, 1 percpu_counter */
#endif
#ifndef NR_UPDATES
#define NR_UPDATES 256
#endif
#ifndef READ_EVERY
#define READ_EVERY 64     /* a power of two */
#endif
#ifndef UPDATE_WORK
#define UPDATE_WORK 200
#endif

/* Each on its own line, as scaling.s places them, so that the reports of
 * the two forms name the same symbols with the same sharing. */
atomic_t counter_atomic ____cacheline_aligned;
DEFINE_PER_CPU(s32, counter_fbc_pcpu) ____cacheline_aligned;
struct percpu_counter counter_fbc ____cacheline_aligned = { .counters = &counter_fbc_pcpu };
long final_count ____cacheline_aligned;
long count_lost;
static long nr_threads_done ____cacheline_aligned;

static inline void counter_inc(void)
{
	if (DESIGN == 1) {
		percpu_counter_add(&counter_fbc, 1);
	} else {
		atomic_inc(&counter_atomic);
		bounce_ghost_add(&counter_atomic, 1);
	}
}

/* the cheapest read each design offers (approximate for percpu_counter) */
static inline long counter_read(void)
{
	long v;
	if (DESIGN == 1)
		return percpu_counter_read(&counter_fbc);
	v = atomic_read(&counter_atomic);
	bounce_ghost_read(&counter_atomic, v);
	return v;
}

static inline long counter_sum(void)
{
	return DESIGN == 1 ? percpu_counter_sum(&counter_fbc) : counter_read();
}

void worker(void)
{
	for (long i = 0; i < NR_UPDATES; i++) {
		bounce_work(UPDATE_WORK);
		bounce_op();
		counter_inc();
		if (!(i & (READ_EVERY - 1)))
			counter_read();
	}
	atomic_long_inc((atomic_long_t *)&nr_threads_done);
	if (smp_processor_id() != 0)
		return;
	while (READ_ONCE(nr_threads_done) < NR_CPUS)
		cpu_relax();
	smp_mb();       /* what the others stored before they were done is visible */
	final_count = counter_sum();
	count_lost = (long)NR_CPUS * NR_UPDATES - final_count;
}
