/* Replaying traces on the memory system with blocking cores: trace i drives
 * core i; a hit costs the model's L1 hit latency, a computation record its
 * cycles, a miss stalls its core until the line is there; no store buffer.
 * The memory system (src/mem) times and counts every transaction as it does
 * for the x86 cores. docs/replay.md states the model and every counter. */
#ifndef BOUNCE_REPLAY_RUN_H
#define BOUNCE_REPLAY_RUN_H

#include <stdint.h>
#include <stdio.h>
#include "base/cpu_model.h"
#include "base/error.h"
#include "mem/memsys.h"
#include "replay/replay_trace.h"

/* What a core's driver counts beside the memory system's statistics. */
struct replay_core_stats {
	uint64_t records;           /* records read, a lackey M counting twice */
	uint64_t compute_cycles;    /* cycles of computation records */
	uint64_t idle_cycles;       /* cycles stalled waiting for a line */
	uint64_t cycles;            /* when its last record completed */
	uint64_t private_accesses;  /* no other cache held the line when it was accessed */
	uint64_t shared_accesses;   /* another cache held it */
};

struct replay;
/* Called by replay_run every few milliseconds of work (2^16 turns of its
 * scheduler): a caller shows progress or notices a signal there. A non-zero
 * return stops the replay. */
typedef int (*replay_tick_fn)(void *ctx, const struct replay *r);

struct replay {
	struct cpu_model m;         /* cores = the number of traces */
	struct memsys *ms;
	int ncores;
	struct rt_stream *streams[CPU_MAX_CORES];
	struct replay_core_stats *stats;
	void *run;                  /* the driver's per-core state (replay_run.c) */
	replay_tick_fn tick;        /* NULL: none */
	void *tick_ctx;
	/* Set before replay_run: read the traces ahead on a host thread of
	 * their own (trace_reader.h). The results are the same either way. */
	int read_ahead;
};

/* Build a machine of model m with one core per stream (the streams move
 * into the replay). -1 with e set. */
int replay_create(struct replay *r, const struct cpu_model *m, struct rt_stream **streams,
		  int n, struct err *e);
/* Run every trace to its end: 0, or 1 when the tick stopped it, or -1
 * with e set at a bad record. */
int replay_run(struct replay *r, struct err *e);
/* The latest cycle any core has reached so far, and the records read. */
uint64_t replay_cycles(const struct replay *r);
uint64_t replay_records(const struct replay *r);
/* How far through the traces' input (bytes, as rt_input) the replay has
 * got, summed over the traces: *total 0 when no size is known. */
void replay_input(const struct replay *r, uint64_t *done, uint64_t *total);
void replay_free(struct replay *r);

/* The outputs (replay_report.c): JSON (cJSON), CSV, and the summary. */
int replay_write_json(const struct replay *r, FILE *f, struct err *e);
int replay_write_csv(const struct replay *r, FILE *f);
void replay_write_summary(const struct replay *r, FILE *f);

#endif
