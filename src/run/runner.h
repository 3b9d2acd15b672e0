/* One variant of a scenario made ready to simulate: the scenario flattened
 * (scen_resolve), its program assembled, threads and interrupt sources
 * turned into the simulator's config, and the sim created. The CLI, sweeps
 * and the visualizer all build their machines here. */
#ifndef BOUNCE_RUNNER_H
#define BOUNCE_RUNNER_H

#include "load/scenario.h"
#include "cpu/program.h"
#include "cpu/sim.h"

#define RUNNER_MAX_MARKS 64

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
	enum sim_status status;
	/* Executions of each `mark NAME` (program.marks order). A workload
	 * counts one operation per `mark op` (docs/scenario-format.md). */
	uint64_t *mark_counts;
	struct sim_observer user_obs; /* forwarded to, after counting */
};

/* Prepare variant v of s with optional command-line overrides. check: run
 * the invariant checker after every transaction. On error r is left empty. */
int runner_prepare(struct runner *r, const struct scenario *s, size_t v,
		   const struct scen_overrides *o, int check, struct err *e);
/* Rebuild the sim from the same assembled program (the UI's restart). */
int runner_restart(struct runner *r, struct err *e);
void runner_free(struct runner *r);

/* Observe activity and marks too (the UI, the trace); NULL removes. */
void runner_set_observer(struct runner *r, const struct sim_observer *o);

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
