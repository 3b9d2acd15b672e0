/* locks.s's waiting-core workloads as a user writes them in C, compiled by
 * the host compiler: every CPU takes one lock NR_TAKES times around a
 * shared increment (LOCK 0 test-and-set, 1 ticket, 2 test-and-set with a
 * bounded exponential backoff between tries); CPU 0 writes a
 * seqlock-protected pair NR_TAKES times while the others read each version
 * (3); every CPU meets the others at a sense-reversing barrier NR_TAKES
 * times (4); the ticket lock again with its head read by a helper function
 * (5) or into a local (6), which -O0 code makes a call or a stack slot
 * written each time round (locks_c_O0.json); the ticket lock counting its
 * spins (7). Waiters spin with __atomic loads and pause, as compiled code
 * does: what fast-forward must find without any marking. */
#include <bounce.h>

#ifndef LOCK
#define LOCK 0
#endif
#define NR_TAKES 8

struct ticket { u16 head, tail; };
static struct ticket ticket ____cacheline_aligned;
static int tas ____cacheline_aligned;
long shared ____cacheline_aligned;
static unsigned seq ____cacheline_aligned;
static long pair_a, pair_b;
long torn ____cacheline_aligned;
static long bar_count ____cacheline_aligned;
static long bar_sense ____cacheline_aligned;

static void ticket_lock(struct ticket *l)
{
	u16 me = __atomic_fetch_add(&l->tail, 1, __ATOMIC_ACQUIRE);
	while (__atomic_load_n(&l->head, __ATOMIC_ACQUIRE) != me)
		cpu_relax();
}

static u16 ticket_head(struct ticket *l)
{
	return __atomic_load_n(&l->head, __ATOMIC_ACQUIRE);
}

/* The ticket lock as beginners write it: the head read by a helper
 * function (5), or kept in a local (6); at -O0 every one of them is a call
 * or a stack slot written each time round. */
static void ticket_lock_by_helper(struct ticket *l)
{
	u16 me = __atomic_fetch_add(&l->tail, 1, __ATOMIC_ACQUIRE);
	while (ticket_head(l) != me)
		cpu_relax();
}

static void ticket_lock_by_local(struct ticket *l)
{
	u16 me = __atomic_fetch_add(&l->tail, 1, __ATOMIC_ACQUIRE);
	u16 now;
	do {
		now = ticket_head(l);
		if (now != me)
			cpu_relax();
	} while (now != me);
}

/* The ticket lock counting its waiter's spins, as a user measuring the
 * wait writes it (7): the count is a register the loop only adds to. */
long spins ____cacheline_aligned;

static void ticket_lock_counting(struct ticket *l)
{
	u16 me = __atomic_fetch_add(&l->tail, 1, __ATOMIC_ACQUIRE);
	long n = 0;
	while (__atomic_load_n(&l->head, __ATOMIC_ACQUIRE) != me) {
		n++;
		cpu_relax();
	}
	__atomic_fetch_add(&spins, n, __ATOMIC_RELAXED);
}

static void ticket_unlock(struct ticket *l)
{
	__atomic_store_n(&l->head, (u16)(l->head + 1), __ATOMIC_RELEASE);
}

static void tas_lock(int *l, int backoff)
{
	unsigned delay = 1;
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE)) {
		if (backoff) {
			for (volatile unsigned i = 0; i < delay; i++)
				cpu_relax();
			if (delay < 64)
				delay *= 2;
		}
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			cpu_relax();
	}
}

static void tas_unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

static void seq_round(int cpu, long v)
{
	if (cpu == 0) {
		WRITE_ONCE(seq, seq + 1);
		smp_wmb();
		WRITE_ONCE(pair_a, v);
		WRITE_ONCE(pair_b, -v);
		smp_wmb();
		WRITE_ONCE(seq, seq + 1);
		return;
	}
	unsigned s;
	long a, b;
	do {
		while ((s = READ_ONCE(seq)) & 1 || s < 2 * v)
			cpu_relax();
		smp_rmb();
		a = READ_ONCE(pair_a);
		b = READ_ONCE(pair_b);
		smp_rmb();
	} while (READ_ONCE(seq) != s);
	if (a != -b)
		__atomic_fetch_add(&torn, 1, __ATOMIC_RELAXED);
}

static void barrier_wait(long *sense)
{
	long s = !*sense;
	*sense = s;
	if (__atomic_add_fetch(&bar_count, 1, __ATOMIC_ACQ_REL) == NR_CPUS) {
		WRITE_ONCE(bar_count, 0);
		__atomic_store_n(&bar_sense, s, __ATOMIC_RELEASE);
	} else {
		while (__atomic_load_n(&bar_sense, __ATOMIC_ACQUIRE) != s)
			cpu_relax();
	}
}

void worker(void)
{
	int cpu = smp_processor_id();
	long sense = 0;
	for (long i = 1; i <= NR_TAKES; i++) {
		if (LOCK == 1 || LOCK == 5 || LOCK == 6 || LOCK == 7) {
			if (LOCK == 7)
				ticket_lock_counting(&ticket);
			else if (LOCK == 5)
				ticket_lock_by_helper(&ticket);
			else if (LOCK == 6)
				ticket_lock_by_local(&ticket);
			else
				ticket_lock(&ticket);
			shared++;
			ticket_unlock(&ticket);
		} else if (LOCK == 0 || LOCK == 2) {
			tas_lock(&tas, LOCK == 2);
			shared++;
			tas_unlock(&tas);
		} else if (LOCK == 3) {
			seq_round(cpu, i);
		} else {
			barrier_wait(&sense);
			__atomic_fetch_add(&shared, 1, __ATOMIC_RELAXED);
		}
		bounce_op();
	}
}
