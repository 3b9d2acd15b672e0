/* include/linux/percpu_counter.h, for lib/percpu_counter.c: the counter is
 * a shared s64 plus a per-CPU s32 delta folded in when it reaches batch. */
#ifndef LIB_PERCPU_COUNTER_H
#define LIB_PERCPU_COUNTER_H

#include <bounce.h>

struct percpu_counter {
	raw_spinlock_t lock;
	s64 count;
	s32 __percpu *counters;
};

/* The kernel's percpu_counter_init allocates the per-CPU deltas with
 * alloc_percpu; here they are a static per-CPU variable beside the
 * counter (no allocator): DEFINE_PERCPU_COUNTER(name) declares both. */
#define DEFINE_PERCPU_COUNTER(name)                                    \
	static DEFINE_PER_CPU(s32, name##_counters);                   \
	struct percpu_counter name = { .counters = &name##_counters }

extern int percpu_counter_batch;

void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch);
s64 __percpu_counter_sum(struct percpu_counter *fbc);
int __percpu_counter_compare(struct percpu_counter *fbc, s64 rhs, s32 batch);

static inline void percpu_counter_add(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add_batch(fbc, amount, percpu_counter_batch);
}

static inline void percpu_counter_inc(struct percpu_counter *fbc)
{
	percpu_counter_add(fbc, 1);
}

static inline void percpu_counter_dec(struct percpu_counter *fbc)
{
	percpu_counter_add(fbc, -1);
}

static inline void percpu_counter_sub(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add(fbc, -amount);
}

static inline s64 percpu_counter_sum(struct percpu_counter *fbc)
{
	return __percpu_counter_sum(fbc);
}

static inline s64 percpu_counter_sum_positive(struct percpu_counter *fbc)
{
	s64 ret = __percpu_counter_sum(fbc);
	return ret < 0 ? 0 : ret;
}

/* Approximate: off by up to batch for each CPU. bounce records the read
 * against the exact count (its error) at this instant. */
static inline s64 percpu_counter_read(struct percpu_counter *fbc)
{
	s64 ret = READ_ONCE(fbc->count);
	bounce_ghost_read(fbc, ret);
	return ret;
}

/* As the kernel's: a count that per-CPU deltas not yet folded have left
 * negative reads as 0. The read recorded is the value returned. */
static inline s64 percpu_counter_read_positive(struct percpu_counter *fbc)
{
	s64 ret = READ_ONCE(fbc->count);
	if (ret < 0)
		ret = 0;
	bounce_ghost_read(fbc, ret);
	return ret;
}

static inline int percpu_counter_compare(struct percpu_counter *fbc, s64 rhs)
{
	return __percpu_counter_compare(fbc, rhs, percpu_counter_batch);
}

#endif
