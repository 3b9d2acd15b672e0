/* One variant of a scenario made ready to simulate: the scenario flattened
 * (scen_resolve), its program assembled, threads and interrupt sources
 * turned into the simulator's config, and the sim created. The CLI, sweeps
 * and the visualizer all build their machines here. */
#ifndef BOUNCE_RUNNER_H
#define BOUNCE_RUNNER_H

#include <stdatomic.h>
#include "load/scenario.h"
#include "cpu/program.h"
#include "cpu/sim.h"

#define RUNNER_MAX_MARKS 64

/* Why a run stopped, with the word the report writes under "stopped". */
#define RUN_STOPS(X) \
	X(RUN_RUNNING, "running")         /* not stopped: more to simulate */ \
	X(RUN_HALTED, "halted")           /* every thread halted */ \
	X(RUN_CYCLE_LIMIT, "limit")       /* the variant's cycle limit, or the default one */ \
	X(RUN_WALL_CLOCK, "wall-clock")   /* the caller's wall-clock deadline (--max-seconds) */ \
	X(RUN_INTERRUPTED, "interrupted") /* a signal, or the caller's cancel flag */ \
	X(RUN_FAULT, "fault")             /* the program faulted or an invariant broke: the error says */
#define RUN_STOP_ENUM(name, word) name,
enum run_stop { RUN_STOPS(RUN_STOP_ENUM) };
#undef RUN_STOP_ENUM

struct runner {
	const struct scenario *scen;
	size_t variant;
	struct scen_run run;
	struct program prog;
	struct sim_thread *threads;
	size_t n_threads;
	struct sim_irq_source *irqs;
	size_t n_irqs;
	struct sim_config cfg;
	struct sim *sim;
	enum run_stop stop;
	/* Executions of each `mark NAME` (program.marks order). A workload
	 * counts one operation per `mark op` (docs/scenario-format.md). */
	uint64_t *mark_counts;
	struct sim_observer user_obs; /* forwarded to, after counting */
	int release_obs;              /* runner_release_observer asked */
};

/* Prepare variant v of s with optional command-line overrides. check: run
 * the invariant checker after every transaction. On error r is left empty. */
int runner_prepare(struct runner *r, const struct scenario *s, size_t v,
		   const struct scen_overrides *o, int check, struct err *e);
/* Rebuild the sim from the same assembled program (the UI's restart). */
int runner_restart(struct runner *r, struct err *e);
void runner_free(struct runner *r);

/* What ends a run besides the machine itself, checked between slices of
 * about 50 ms of wall clock (how a run is sliced never changes its
 * result). Every field may be left 0. */
struct runner_limits {
	double deadline;            /* runner_clock() time at which to stop; 0: none */
	const atomic_int *cancel;   /* set by another thread (a variant beside this one failed) */
	/* Called after every slice, with the seconds since the run started:
	 * where a front end shows progress. */
	void (*slice)(void *ctx, const struct runner *r, double elapsed);
	void *ctx;
};

/* Run r to its end (l may be NULL): halted, cycle limit, fault, or one of
 * l's limits or a signal (err_poll) first. Records the reason in r->stop
 * and returns it; RUN_FAULT with e set. */
enum run_stop runner_run(struct runner *r, const struct runner_limits *l, struct err *e);
/* Process events up to and including `cycle`, or one event: for a front
 * end that paces the run itself (the view). r->stop says where it is. */
enum run_stop runner_run_until(struct runner *r, uint64_t cycle, struct err *e);
enum run_stop runner_step_event(struct runner *r, struct err *e);
/* The monotonic clock deadlines are read on, in seconds. */
double runner_clock(void);
/* The report's word for a stop reason. */
const char *runner_stop_name(enum run_stop stop);

/* Observe activity and marks too (the UI, the trace); NULL removes. */
void runner_set_observer(struct runner *r, const struct sim_observer *o);
/* Called from the observer's own callbacks when it wants nothing more (a
 * full trace): the runner removes it when the machine's current call
 * returns, never inside it, so no core sees its observer vanish in the
 * middle of an event. A watched core is never parked, so an observer
 * kept to the end would run every waiting core's loop by instruction. */
void runner_release_observer(struct runner *r);

/* Operations counted so far (`mark op` executions). */
uint64_t runner_ops(const struct runner *r);

/* A reported symbol's value as the report states it: its first field (up
 * to 8 bytes, signed) in coherent memory, summed over every CPU's copy for
 * a per-CPU symbol (what a reader summing every CPU would get). */
int64_t runner_symbol_value(const struct runner *r, const struct symbol *y);

/* Whether the sim should check invariants: on when asked, or when the
 * environment sets BOUNCE_CHECK=1 (the sanitizer test run does). */
int runner_check_wanted(int asked);

#endif
