/* One simulated x86 core (registers, flags, its own clock, counters) and
 * the machine the cores share (core_env). The driver (sim.c) owns the event
 * queue and hands each core its exec and drain events, one at a time. */
#ifndef BOUNCE_CORE_H
#define BOUNCE_CORE_H

#include <stdint.h>
#include "cpu/activity.h"
#include "cpu/isa.h"
#include "cpu/program.h"
#include "mem/memsys.h"
#include "base/cpu_model.h"
#include "base/event_queue.h"
#include "cpu/store_buffer.h"
#include "cpu/interrupts.h"
#include "base/error.h"

/* The counters an instruction may bump (instructions, sb_forwards, the
 * busy and L1-hit cycles) are the first 32 bytes. */
struct core_stats {
	uint64_t instructions;
	uint64_t sb_forwards;          /* loads served by the store buffer */
	uint64_t cycles[CORE_NCYCLES]; /* indexed by enum core_activity */
	uint64_t locked_ops;           /* lock-prefixed RMWs and xchg with memory */
	uint64_t locked_cycles;        /* from taking the line to releasing it */
	uint64_t irqs_hard, irqs_soft; /* handlers run */
	uint64_t started, halted_at;   /* cycles; halted_at 0 while running */
};

enum core_run_state {
	CORE_IDLE,        /* no thread, or waiting for its start cycle */
	CORE_RUN,         /* has an exec event at ev_at */
	CORE_WAIT_SB,     /* waiting for the store buffer to drain to sb_wait_max */
	CORE_WAIT_MEM,    /* a load or locked RMW missed: waiting for its line */
	CORE_HALTED,
	CORE_FAULTED,
	CORE_PARKED,      /* fast-forwarded: no event until something it reads may change */
};

/* Event ids: 2*core for the core's execution, 2*core+1 for its store
 * buffer drain (its own activity, running while the core executes). */
#define CORE_EV_EXEC(c) ((uint32_t)(c) * 2u)
#define CORE_EV_DRAIN(c) ((uint32_t)(c) * 2u + 1u)

struct ghost_table;
struct core_env;

/* Fast-forward (fast_forward.c): the probe of a loop, then, parked, one
 * iteration's effect. `at` is the clock at the loop's head: the probe's
 * snapshot, or the parked core's last iteration start. */
#define FF_MAX_ACCESS MS_REPEAT_MAX
#define FF_MAX_STEPS 256
struct core_ff {
	uint8_t naccess;         /* the iteration's L1 accesses recorded */
	uint8_t zf, sf, cf, of, pf_byte, act; /* the snapshot at the head */
	/* the iteration began with stores in the buffer: the next one may
	 * differ, whatever the registers */
	uint8_t buffered;
	uint32_t head;           /* the loop's head (FF_NO_HEAD: not found yet) */
	uint32_t steps, iters, issued, call_depth;
	uint32_t stores;         /* bit i: access i is a store (else a load) */
	uint16_t npcs;           /* the iteration's instructions (core_ff_log.pc) */
	uint16_t counters;       /* parked: bit r, register r counts (core_ff_log.step) */
	uint64_t at;
	uint64_t period;         /* parked: cycles per iteration */
	uint64_t instructions;   /* snapshot at the head; parked: per iteration */
	uint64_t sb_forwards;    /* the same */
	uint64_t l1_accesses;    /* the L1's count at the head (ms_l1_accesses) */
	uint64_t cycles[CORE_NCYCLES];
	uint64_t r[R_NREGS];
};

/* The iteration's L1 accesses, in the order made (a store where bit i of
 * core_ff.stores is set). Beside struct core, not in it: at 1024 bytes a
 * core's place in the array is its number shifted, which every event
 * computes (core.c asserts the size). */
struct core_ff_log {
	uint64_t addr[FF_MAX_ACCESS];
	uint64_t old[FF_MAX_ACCESS];  /* a store's: what its place held before it */
	uint8_t size[FF_MAX_ACCESS];
	/* the iteration's instructions in the order run, and, parked, what
	 * each counting register adds an iteration (at its width: 4 or 8) */
	uint32_t pc[FF_MAX_STEPS];
	uint64_t step[R_NREGS];
	uint8_t width[R_NREGS];
};

/* Field order is by use, in 64-byte host cache lines (the array is
 * 64-byte aligned; 64 cores' state does not fit in the host's L1, 1024
 * cores' not in its L2, so host lines touched per event are what a run
 * costs): line 0 what every instruction reads (clocks, address memo, pc,
 * flags), line 1 the store buffer, the per-event fields and the counters
 * an instruction bumps (the first 32 bytes of st), so that an event of the
 * run-ahead loop touches lines 0-1 and a register line; then the rest of
 * the counters and the fields only some instructions or interrupts use,
 * the registers on their own lines, the interrupt sources and the
 * interrupted context last. */
struct core {
	/* line 0; the struct is 1024 bytes, so that a core's place in the
	 * array is its number shifted (core.c) */
	_Alignas(1024) uint64_t clock; /* the core's own time: when its next instruction starts */
	uint64_t stop_at;        /* the run-ahead loop leaves its fast path at this clock */
	uint64_t ok_lo, ok_span; /* bad_access's memo: a mapped part of one line; span 0 = none */
	uint64_t gs_base;        /* this CPU's per-CPU offset */
	uint64_t ev_at;          /* time of the pending exec event (CORE_RUN) */
	uint64_t drain_at;       /* time of the pending drain event, UINT64_MAX if none */
	uint32_t pc;
	uint8_t zf, sf, cf, of;
	/* line 1 */
	struct sb sb;
	/* whether irq.n is non-zero, copied in core_start, so that an event
	 * of a core without interrupt sources never reads `irq` */
	uint8_t irq_any;
	/* PF, kept as the low byte of the result that last set it (PF is
	 * that byte's even parity): one byte stored per arithmetic
	 * instruction, the parity computed only when read (core_pf) */
	uint8_t pf_byte;
	uint8_t state;           /* enum core_run_state */
	uint8_t act;             /* enum core_activity, as last reported */
	int id;
	struct core_stats st;    /* its first 32 bytes end line 1 */
	/* CORE_WAIT_SB, CORE_WAIT_MEM: when the wait began. On the line of
	 * irq_hold and in_handler, which a fill's wake of the core reads too
	 * (core_mem_wake): at 1024 cores the woken core's state is cold, and
	 * a fourth host line was a fourth miss. */
	uint64_t wait_from;
	/* irq.next_min, copied whenever it may change (core_start, irq_poll) */
	uint64_t irq_next;
	/* An interrupt is taken only between instructions: while
	 * st.instructions equals irq_hold, the instruction that missed has
	 * its line (core_mem_wake) but has not retired, and nothing is
	 * delivered. NONE, or a count already passed, when no hold is on. */
	uint64_t irq_hold;
	int in_handler;          /* running an interrupt handler (context in `saved`) */
	uint8_t intr;            /* IF: hard interrupts enabled */
	/* Fast-forward's gate (struct core_ff), which every event of a quiet
	 * core reads (core_ff_wanted): here, in the padding of a line a wake
	 * reads anyway, rather than on a line of its own: a probe is under
	 * way; events to let pass before the next probe */
	uint8_t ff_probing, ff_backoff, ff_skip;
	uint32_t call_depth;     /* calls without their ret, in the current context */
	int bh_count, preempt_count;
	uint32_t issued;         /* instructions since the last cpi charge (issue_width > 1) */
	unsigned sb_wait_max;    /* CORE_WAIT_SB: resume when sb use <= this */

	_Alignas(64) uint64_t r[R_NREGS];
	uint64_t stack_lo, stack_hi;
	struct irq_cpu irq;

	/* Interrupt handler context: the interrupted state, restored by the
	 * handler's final ret (not only on the stack: a handler may clobber it). */
	struct {
		uint64_t r[R_NREGS];
		uint32_t pc, call_depth;
		uint8_t zf, sf, cf, of, pf_byte, intr;
	} saved;
	struct core_ff ff;
};

/* The machine the cores share. */
struct core_env {
	const struct program *prog;
	const uint8_t *forms;    /* core_forms_new(prog, ...) */
	const struct cpu_model *m;
	struct memsys *ms;
	struct evq *q;
	struct core *cores;
	struct core_ff_log *ff_log;  /* one a core */
	int ncores;
	uint64_t now;            /* the event being processed */
	uint64_t limit;          /* no core runs past this */
	uint64_t horizon;        /* run-ahead bound of the event being processed */
	uint64_t run_bound;      /* the driver pops no event at or past this cycle */
	int running;             /* threads started and not halted */
	uint64_t map[3][2];      /* mapped [lo, hi): .data, the per-CPU areas, the stacks */
	uint64_t lookahead;       /* ahead of the fabric's next event (ms_lookahead) */
	uint64_t issue_lookahead; /* ahead of the cores' next event (ms_issue_lookahead) */
	uint64_t sb_delay;       /* cycles from a store entering the buffer to its commit */
	uint64_t store_forward;  /* the model's lat_store_forward, beside sb_delay */
	struct ghost_table *ghosts;
	const struct irq_source *irq_src;
	/* Observer (sim.h), NULL when none. */
	void (*on_activity)(void *ctx, int core, uint64_t cycle, enum core_activity act);
	void (*on_mark)(void *ctx, int core, uint64_t cycle, const char *name);
	void *obs_ctx;
	struct err err;          /* first runtime fault */
	int failed;
	int fast_forward;        /* park waiting cores (fast_forward.c) */
	int parked;              /* cores in CORE_PARKED */
};

/* An operand's effective address. Forced inline: GCC otherwise keeps an
 * out-of-line clone, which a locked RMW calls on each attempt. */
static inline __attribute__((always_inline)) uint64_t core_ea(const struct core *c, const struct operand *o)
{
	uint64_t a = (uint64_t)o->imm;
	if (o->base != R_NONE)
		a += c->r[o->base];
	if (o->index != R_NONE)
		a += c->r[o->index] * o->scale;
	if (o->gs)
		a += c->gs_base;
	return a;
}

static inline int core_pf(const struct core *c)
{
	return !__builtin_parity(c->pf_byte);
}

/* Set a core up for a thread (registers, stack, start cycle). */
void core_init(struct core_env *env, struct core *c, int id);
void core_start(struct core_env *env, struct core *c, uint32_t entry, const uint64_t *regs,
		uint32_t regs_set, uint64_t start);
/* The interpreter's pre-decoded form of each instruction of p, and one
 * past the end (the caller frees it); NULL when out of memory. `generic`
 * gives every instruction the form that runs execute() itself, as the
 * differential test of the forms does. */
uint8_t *core_forms_new(const struct program *p, int generic);
/* What one step of the run-ahead loop came to: go on, leave for the event
 * queue (an exec event at the core's clock is due), the core stopped
 * (waits, halted), a fault. */
enum core_step { CORE_STEP_NEXT, CORE_STEP_YIELD, CORE_STEP_STOP, CORE_STEP_FAIL };
/* One step of the run-ahead loop of a core without interrupt sources or an
 * activity observer: the boundary when its clock has reached its stop,
 * else the instruction at pc (with a fused jne/je, two), as the loop does. */
int core_step(struct core_env *env, struct core *c);
/* Process the core's exec event at env->now. Returns -1 on a fault (env->err). */
int core_exec_event(struct core_env *env, struct core *c);
/* Process the core's store-buffer drain event at env->now. */
int core_drain_event(struct core_env *env, struct core *c);
/* The memory system's waker: the line core c missed on has arrived at
 * cycle t, for its execution and/or its store buffer (MS_WAKE_*). */
int core_mem_wake(struct core_env *env, struct core *c, int what, uint64_t t);
void core_free(struct core *c);
/* The run stopped at its cycle limit: the core's cycle split is made to
 * cover the run's cycles, no more (core.c says how). */
void core_stop_at_limit(struct core *c, uint64_t limit);


#endif
