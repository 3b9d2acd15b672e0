/* The engine's front door: build one variant's machine from a sim_config
 * and run it, whole or in slices; the CLI, the reports, the UI and the
 * tests all go through this API rather than the cores and memory system. */
#ifndef BOUNCE_SIM_H
#define BOUNCE_SIM_H

#include <stddef.h>
#include <stdint.h>
#include "base/cpu_model.h"
#include "base/cpuset.h"
#include "cpu/program.h"
#include "mem/memsys.h"
#include "cpu/core.h"
#include "cpu/ghost.h"
#include "cpu/sim_limit.h"
#include "base/error.h"


/* A thread: what runs on one CPU from the start. Registers not named in
 * regs_set start at 0, except rsp, which starts at the top of the CPU's
 * stack. A CPU without a thread is idle (takes no interrupts). */
struct sim_thread {
	int cpu;
	uint32_t entry;              /* instruction index (a .text symbol's value) */
	uint64_t regs[R_NREGS];
	uint32_t regs_set;           /* bit r: regs[r] is given */
};

enum sim_arrival { SIM_ARRIVAL_PERIODIC, SIM_ARRIVAL_POISSON };

/* An interrupt source, instantiated once on every CPU of `cpus`. Periodic:
 * gaps uniform in every*(1 +- jitter), first arrival at a random phase in
 * [0, every). Poisson: exponential gaps of mean `every`. Arrivals come only
 * from the seeded generator. The handler ends with `ret`. */
struct sim_irq_source {
	struct cpuset cpus;
	enum irq_kind kind;
	uint32_t handler;            /* instruction index */
	enum sim_arrival arrival;
	uint64_t every;              /* cycles, >= 1 */
	double jitter;               /* 0..1, periodic only */
};

struct sim_config {
	struct cpu_model cpu;        /* copied; cpu.cores is the core count */
	const struct program *prog;  /* borrowed: must outlive the sim; nr_cpus == cpu.cores */
	const struct sim_thread *threads;
	size_t n_threads;
	const struct sim_irq_source *irqs;
	size_t n_irqs;
	uint64_t stop_cycles;        /* 0: sim_default_limit(cores, irq_pairs). The run also ends when all threads halted */
	uint64_t seed;
	uint64_t start_skew;         /* each thread starts at a cycle drawn uniformly in [0, start_skew] */
	int check;                   /* run the memsys invariant checker after every transaction */
	int no_fast_forward;         /* execute waiting cores' loops instead of parking them */
	int generic_dispatch;        /* every instruction through execute(), none by its form (tests) */
};

enum sim_status {
	SIM_RUNNING,                 /* more to do: call sim_run_until again */
	SIM_HALTED,                  /* every thread executed hlt (store buffers drained) */
	SIM_LIMIT,                   /* stopped at the cycle limit ("stopped at limit") */
	SIM_ERROR,                   /* a runtime fault or broken invariant: see sim_error */
};

/* What a core is doing, for the UI timeline and the trace (core.h). */
struct sim_observer {
	/* Core `core` does `act` from `cycle` on. Reported only on a change.
	 * Cycles are the core's own clock: monotonic per core, but cores run
	 * ahead of each other by up to two of the shortest legs (a request's
	 * and its snoop's: docs/architecture.md). */
	void (*activity)(void *ctx, int core, uint64_t cycle, enum core_activity act);
	/* `mark NAME` executed by core at cycle. */
	void (*mark)(void *ctx, int core, uint64_t cycle, const char *name);
	void *ctx;
};

/* A snapshot of one core, for the UI and tests. */
struct sim_core_view {
	uint64_t regs[R_NREGS];
	uint32_t pc;                 /* next instruction index */
	uint8_t zf, sf, cf, of, pf, intr_enabled;
	int bh_count, preempt_count;
	int in_handler;              /* running an interrupt handler */
	int halted;
	enum core_activity activity;
	uint64_t clock;              /* the core's own time */
	unsigned sb_used;            /* store-buffer entries in use */
};

struct sim;

/* Validates the config (threads on existing CPUs, one per CPU, entries and
 * handlers inside the program) and builds the machine with the program's
 * memory image. Returns NULL with e set (ERR_INPUT for a bad config). */
struct sim *sim_create(const struct sim_config *cfg, struct err *e);
void sim_destroy(struct sim *s);

/* Process events up to and including `cycle` (capped at the limit). Call
 * again to continue (the UI does, frame by frame): the events processed do
 * not depend on how the run is cut into calls, so the result is the same
 * as one sim_run. Core clocks may be ahead of `cycle` by up to the
 * two shortest legs plus one instruction. On SIM_ERROR, e holds the
 * fault: ERR_INPUT at the instruction's file:line:col for a fault in the
 * user's program, ERR_INTERNAL for a broken invariant. */
enum sim_status sim_run_until(struct sim *s, uint64_t cycle, struct err *e);
/* Run to the end: all halted, limit, or error. */
enum sim_status sim_run(struct sim *s, struct err *e);
/* Process exactly one event (a core may execute many instructions in it). */
enum sim_status sim_step_event(struct sim *s, struct err *e);
enum sim_status sim_status(const struct sim *s);

/* The cycle of the last processed event (global time). */
uint64_t sim_now(const struct sim *s);
/* Simulated time of the run so far: when finished, the cycle at which the
 * last thread halted or the limit; while running, the latest core clock. */
uint64_t sim_cycles(const struct sim *s);
uint64_t sim_limit(const struct sim *s);
/* Cores parked now by the fast-forward of waiting loops. */
int sim_parked_cores(const struct sim *s);
/* Events processed so far, the cores' and the fabric's messages: a core's
 * event may run many instructions, a miss takes several messages. What an
 * operation costs the host is about its events (bench_core prints them). */
uint64_t sim_events(const struct sim *s);

int sim_cores(const struct sim *s);
struct memsys *sim_memsys(struct sim *s);
const struct program *sim_program(const struct sim *s);
const struct cpu_model *sim_cpu(const struct sim *s);
void sim_core_view(const struct sim *s, int core, struct sim_core_view *out);
const struct core_stats *sim_core_stats(const struct sim *s, int core);
/* Sum over all cores. */
void sim_total_core_stats(const struct sim *s, struct core_stats *out);

/* Ghost counters, sorted by address; valid until the next run call. */
size_t sim_ghosts(struct sim *s, const struct ghost **out);
/* NULL when no ghost instruction touched addr. */
const struct ghost *sim_ghost(struct sim *s, uint64_t addr);

/* The observer is copied; NULL removes it. */
void sim_set_observer(struct sim *s, const struct sim_observer *o);

/* The value in coherent memory now (store buffers not included). */
static inline uint64_t sim_peek(struct sim *s, uint64_t addr, unsigned size)
{
	return ms_peek(sim_memsys(s), addr, size);
}

const char *sim_status_name(enum sim_status st);

#endif
