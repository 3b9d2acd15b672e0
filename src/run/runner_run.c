/* A prepared machine run to its end (runner.h): the one place where a
 * run's limits are checked (the machine's halt and cycle limit, the
 * caller's wall-clock deadline and cancel flag, a signal) and the reason
 * it stopped is recorded for the report. */
#include "config.h"
#include "run/runner.h"

#include <time.h>

#define RUN_STOP_WORD(name, word) [name] = (word),
static const char *const stop_words[] = { RUN_STOPS(RUN_STOP_WORD) };
#undef RUN_STOP_WORD

const char *runner_stop_name(enum run_stop stop)
{
	return stop_words[stop];
}

double runner_clock(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static enum run_stop stop_of(enum sim_status st)
{
	switch (st) {
	case SIM_RUNNING: return RUN_RUNNING;
	case SIM_HALTED: return RUN_HALTED;
	case SIM_LIMIT: return RUN_CYCLE_LIMIT;
	default: return RUN_FAULT;
	}
}

/* Between two calls into the machine: the one place an observer that
 * asked to go is removed. */
static void drop_released_observer(struct runner *r)
{
	if (r->release_obs)
		runner_set_observer(r, NULL);
}

enum run_stop runner_run_until(struct runner *r, uint64_t cycle, struct err *e)
{
	if (r->stop == RUN_RUNNING)
		r->stop = stop_of(sim_run_until(r->sim, cycle, e));
	drop_released_observer(r);
	return r->stop;
}

enum run_stop runner_step_event(struct runner *r, struct err *e)
{
	if (r->stop == RUN_RUNNING)
		r->stop = stop_of(sim_step_event(r->sim, e));
	drop_released_observer(r);
	return r->stop;
}

enum run_stop runner_run(struct runner *r, const struct runner_limits *l, struct err *e)
{
	static const struct runner_limits none;
	if (!l)
		l = &none;
	/* Slices of about 50 ms: the slice grows or shrinks with the speed,
	 * so that a limit or a signal is noticed within a fraction of a
	 * second whatever the machine's size. */
	uint64_t slice = 10000, until = 0;
	double t0 = runner_clock();
	while (r->stop == RUN_RUNNING) {
		double a = runner_clock();
		until = until > UINT64_MAX - slice ? UINT64_MAX : until + slice;
		runner_run_until(r, until, e);
		double b = runner_clock();
		if (b - a < 0.025 && slice < (1ull << 40))
			slice *= 2;
		else if (b - a > 0.1 && slice > 1000)
			slice /= 2;
		if (l->slice)
			l->slice(l->ctx, r, b - t0);
		if (r->stop != RUN_RUNNING)
			break;
		if (l->deadline > 0 && b >= l->deadline)
			r->stop = RUN_WALL_CLOCK;
		else if (err_poll(NULL) || (l->cancel && atomic_load(l->cancel)))
			r->stop = RUN_INTERRUPTED;
	}
	return r->stop;
}
