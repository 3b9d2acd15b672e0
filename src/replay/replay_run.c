/* The blocking-core replay driver. Like the x86 driver (cpu/sim.c) it keeps
 * the memory system's ordering rules: the fabric's messages of a cycle go
 * before the cores' accesses of that cycle, a core runs ahead on hits only
 * while no message can reach it (the earliest pending event plus the
 * fabric's lookahead, and the snoops already on their way), and a miss is
 * issued only when its core is the earliest (cycle, core) of the machine,
 * so requests reach the fabric in global cycle order and a replay is
 * deterministic. */
#include "config.h"
#include "replay/replay_run.h"

#include <stdlib.h>
#include <string.h>
#include "replay/trace_reader.h"
#include "base/invariant.h"

/* The simulated address space: every 64-bit address but the very last byte
 * (memsys sizes memory by a 64-bit count). */
#define REPLAY_MEM_SIZE UINT64_MAX
/* Computation cycles a core may accumulate: far beyond any trace (52 days
 * at 1 GHz), and far enough below 2^53 that no miss's latency takes a clock
 * there, so that a ready key (below) fits 64 bits. */
#define REPLAY_MAX_CLOCK (1ull << 52)
/* A ready core's key is its clock << RC_CORE_BITS | its index: the keys
 * order the cores by (clock, core), the scheduler's order. */
#define RC_CORE_BITS 10
_Static_assert(CPU_MAX_CORES <= 1 << RC_CORE_BITS, "a core index fits RC_CORE_BITS");

/* Records a core reads ahead of its replay: one call to the parser per
 * batch, memory constant in the trace's length, and the cores' batches
 * (2 KiB each) small beside the host's L1 that the engine needs too. */
#define RC_BATCH 64

enum { RC_READY, RC_WAIT, RC_DONE };

struct rcore {
	uint64_t clock;
	int state;
	int has_rec;                /* rec is begun and not yet complete */
	int redo;                   /* woken by a fill: the next access is the miss's */
	int classified;             /* this line's access was counted private or shared */
	const struct rt_rec *rec;   /* the record being replayed, in batch */
	uint64_t addr;              /* the part of rec still to access */
	uint32_t left;
	int next, n;                /* batch[next..n) are still to replay */
	uint64_t wait_since;
	const struct rt_rec *batch; /* the records being replayed */
	struct rt_rec *own;         /* RC_BATCH records, when the replay reads its traces itself */
};

/* The driver's state (struct replay's run). ready[i] is core i's key while
 * it is ready, else UINT64_MAX: the scheduler's scan of every turn reads
 * one small array and takes its two least keys without a branch. */
struct rrun {
	struct rcore *core;
	uint64_t *ready;
	struct rt_rec *batches;
	struct trace_reader *reader;/* NULL: the traces are read on this thread */
};

static void wake(void *ctx, int core, int what, uint64_t t)
{
	(void)what;  /* a blocking core has one request at a time, loads and stores alike */
	struct replay *r = ctx;
	struct rrun *run = r->run;
	struct rcore *rc = &run->core[core];
	if (rc->state != RC_WAIT)
		return;
	r->stats[core].idle_cycles += t - rc->wait_since;
	rc->clock = t;
	rc->state = RC_READY;
	rc->redo = 1;
	run->ready[core] = t << RC_CORE_BITS | (uint64_t)core;
	ms_run_hold(r->ms, 0);  /* the run of fabric events ends with this one */
}

int replay_create(struct replay *r, const struct cpu_model *m, struct rt_stream **streams,
		  int n, struct err *e)
{
	memset(r, 0, sizeof *r);
	if (n < 1 || n > CPU_MAX_CORES) {
		for (int i = 0; i < n; i++)
			rt_close(streams[i]);
		return err_set(e, NULL, 0, 0, "%d traces: a replay takes 1 to %d", n, CPU_MAX_CORES);
	}
	r->m = *m;
	r->m.cores = n;
	r->ncores = n;
	/* One trace drives one core: a model with fewer says so in terms of
	 * the traces, not of a `cores` the user never wrote. */
	struct err why = {0};
	if (cpu_model_validate(&r->m, &why)) {
		for (int i = 0; i < n; i++)
			rt_close(streams[i]);
		return err_set(e, NULL, 0, 0, "%d traces on the CPU model '%s', a core each: %s", n, m->name,
			       why.msg);
	}
	for (int i = 0; i < n; i++)
		r->streams[i] = streams[i];
	r->stats = calloc((size_t)n, sizeof *r->stats);
	struct rrun *run = r->run = calloc(1, sizeof *run);
	if (run) {
		run->core = calloc((size_t)n, sizeof *run->core);
		run->ready = calloc((size_t)n, sizeof *run->ready);
		run->batches = calloc((size_t)n * RC_BATCH, sizeof *run->batches);
	}
	if (!r->stats || !run || !run->core || !run->ready || !run->batches) {
		replay_free(r);
		return err_internal(e, "replay: out of memory");
	}
	for (int i = 0; i < n; i++) {
		run->core[i].own = run->batches + (size_t)i * RC_BATCH;
		run->ready[i] = (uint64_t)i;   /* ready at cycle 0 */
	}
	if (!(r->ms = ms_create(&r->m, REPLAY_MEM_SIZE, e))) {
		replay_free(r);
		return -1;
	}
	ms_set_waker(r->ms, wake, r);
	return 0;
}

void replay_free(struct replay *r)
{
	for (int i = 0; i < r->ncores; i++)
		rt_close(r->streams[i]);
	free(r->stats);
	struct rrun *run = r->run;
	if (run) {
		free(run->core);
		free(run->ready);
		free(run->batches);
		free(run);
	}
	ms_destroy(r->ms);
	memset(r, 0, sizeof *r);
}

/* The next record of core c into rc->rec: 1, 0 at the end, -1 on error. */
static inline int next_record(struct replay *r, int c, struct rcore *rc, struct err *e)
{
	if (rc->next == rc->n) {
		struct trace_reader *reader = ((struct rrun *)r->run)->reader;
		int got;
		if (reader) {
			got = tr_next(reader, c, &rc->batch, e);
		} else {
			got = rt_next_batch(r->streams[c], rc->own, RC_BATCH, e);
			rc->batch = rc->own;
		}
		if (got <= 0)
			return got;
		rc->next = 0;
		rc->n = got;
	}
	const struct rt_rec *rec = rc->rec = &rc->batch[rc->next++];
	r->stats[c].records++;
	if (rec->kind != RT_COMPUTE && rec->size > REPLAY_MEM_SIZE - rec->addr)
		return err_set(e, rt_name(r->streams[c]), (long long)rec->line, rec->col,
			       "access at 0x%llx runs past the last simulated byte",
			       (unsigned long long)rec->addr);
	rc->addr = rec->addr;
	rc->left = rec->size;
	rc->classified = 0;
	rc->has_rec = 1;
	return 1;
}

/* Whether another core holds addr's line, for the private/shared count of
 * core c's access that just hit. A hit changes no other cache, so asking
 * after it answers as before it; and in M or E no other cache holds the
 * line (the single-writer invariant), which spares the directory lookup
 * for nearly every private access. */
static inline int others_hold_after_hit(const struct memsys *ms, int c, uint64_t addr)
{
	return !ms_l1_exclusive(ms, c, addr) && ms_others_hold(ms, c, addr);
}

/* Run core c until it must yield: `hit_bound` is the cycle its hits must
 * stay below, (issue_t, issue_c) the earliest other (cycle, core) a miss of
 * its must come before, fab the fabric's next event. The clock lives in a
 * local meanwhile: nothing here calls the waker. */
static int run_core(struct replay *r, int c, uint64_t hit_bound, uint64_t issue_t, int issue_c,
		    uint64_t fab, struct err *e)
{
	struct rrun *run = r->run;
	struct rcore *rc = &run->core[c];
	struct replay_core_stats *st = &r->stats[c];
	struct memsys *ms = r->ms;
	const uint32_t ls = r->m.line_size, hit = r->m.lat_l1_hit;
	uint64_t snoop_at = ms_core_next_msg(ms, c);
	if (snoop_at < hit_bound)
		hit_bound = snoop_at;
	uint64_t clock = rc->clock;
	for (;;) {
		if (!rc->has_rec) {
			int got = next_record(r, c, rc, e);
			if (got < 0)
				return -1;
			if (!got) {
				rc->state = RC_DONE;
				st->cycles = clock;
				break;
			}
		}
		const struct rt_rec *rec = rc->rec;
		if (rec->kind == RT_COMPUTE) {
			/* An access may have taken the clock past the limit
			 * already (a miss's latency beyond computation's 2^52):
			 * then the difference would wrap, and a clock let grow
			 * on to 2^54 would overflow the ready key. */
			if (clock > REPLAY_MAX_CLOCK || rec->cycles > REPLAY_MAX_CLOCK - clock)
				return err_set(e, rt_name(r->streams[c]), (long long)rec->line, rec->col,
					       "computation runs the clock past 2^52 cycles");
			clock += rec->cycles;
			st->compute_cycles += rec->cycles;
			rc->has_rec = 0;
			continue;
		}
		if (clock >= hit_bound)
			break;
		/* One access per line the record touches, of at most 8 bytes. */
		uint64_t addr = rc->addr;
		uint32_t in_line = ls - (uint32_t)(addr & (ls - 1));
		uint32_t n = rc->left < in_line ? rc->left : in_line;
		unsigned size = n < 8 ? n : 8;
		uint64_t v = 0;
		int done = rec->kind == RT_LOAD ? ms_hit_load(ms, c, addr, size, &v)
						: ms_hit_store(ms, c, addr, size, 0);
		if (!rc->classified) {
			/* A failed hit changed nothing: counted as of the first attempt. */
			int shared = done ? others_hold_after_hit(ms, c, addr) : ms_others_hold(ms, c, addr);
			st->shared_accesses += (uint64_t)shared;
			st->private_accesses += (uint64_t)!shared;
			rc->classified = 1;
		}
		if (!done) {
			/* a miss: only as the machine's earliest (cycle, core) */
			if (clock >= fab || clock > issue_t || (clock == issue_t && c > issue_c))
				break;
			uint64_t t = rec->kind == RT_LOAD ? ms_load(ms, c, clock, addr, size, &v)
							  : ms_store(ms, c, clock, addr, size, 0);
			if (ms_check_error(ms, e))
				return -1;
			if (NEVER(t != MS_PENDING))
				return err_internal(e, "replay: core %d: a miss at 0x%llx was not issued", c,
						    (unsigned long long)addr);
			rc->state = RC_WAIT;
			rc->wait_since = clock;
			break;
		}
		/* the access a fill completed costs nothing more: the miss's latency is the fill's */
		if (!rc->redo)
			clock += hit;
		rc->redo = 0;
		rc->addr = addr + n;
		rc->left -= n;
		rc->classified = 0;
		if (!rc->left)
			rc->has_rec = 0;
	}
	rc->clock = clock;
	run->ready[c] = rc->state == RC_READY ? clock << RC_CORE_BITS | (uint64_t)c : UINT64_MAX;
	return 0;
}

uint64_t replay_cycles(const struct replay *r)
{
	const struct rrun *run = r->run;
	uint64_t t = 0;
	for (int i = 0; i < r->ncores; i++)
		if (run->core[i].clock > t)
			t = run->core[i].clock;
	return t;
}

void replay_input(const struct replay *r, uint64_t *done, uint64_t *total)
{
	const struct rrun *run = r->run;
	if (run->reader) {
		tr_input(run->reader, done, total);
		return;
	}
	*done = *total = 0;
	for (int i = 0; i < r->ncores; i++) {
		uint64_t d, t;
		rt_input(r->streams[i], &d, &t);
		*done += d;
		*total += t;
	}
}

uint64_t replay_records(const struct replay *r)
{
	uint64_t n = 0;
	for (int i = 0; i < r->ncores; i++)
		n += r->stats[i].records;
	return n;
}

static int run_all(struct replay *r, struct err *e)
{
	struct rrun *run = r->run;
	const uint64_t *ready = run->ready;
	const uint64_t look = ms_lookahead(r->ms);
	const uint64_t core_mask = (1u << RC_CORE_BITS) - 1;
	for (uint32_t turn = 1;; turn++) {
		if (!(turn & 0xffff) && r->tick && r->tick(r->tick_ctx, r))
			return 1;
		uint64_t fab = ms_next_event(r->ms);
		/* the earliest ready core c (at t1) and the next one c2 (at t2):
		 * the least key and the second least, by minima and maxima the
		 * compiler makes conditional moves (which core is earliest changes
		 * unpredictably from turn to turn) */
		uint64_t k1 = UINT64_MAX, k2 = UINT64_MAX;
		for (int i = 0; i < r->ncores; i++) {
			uint64_t k = ready[i], hi = k > k1 ? k : k1;
			k2 = hi < k2 ? hi : k2;
			k1 = k < k1 ? k : k1;
		}
		int c = k1 == UINT64_MAX ? -1 : (int)(k1 & core_mask);
		int c2 = k2 == UINT64_MAX ? r->ncores : (int)(k2 & core_mask);
		uint64_t t1 = k1 == UINT64_MAX ? UINT64_MAX : k1 >> RC_CORE_BITS;
		uint64_t t2 = k2 == UINT64_MAX ? UINT64_MAX : k2 >> RC_CORE_BITS;
		if (fab != UINT64_MAX && fab <= t1) {
			/* the fabric's events up to t1; a scan again only once one
			 * wakes a core (wake ends the run), which may then be the
			 * earliest */
			ms_run(r->ms, t1, UINT64_MAX);
			if (ms_check_error(r->ms, e))
				return -1;
			continue;
		}
		if (c < 0) {
			int waiting = 0;
			for (int i = 0; i < r->ncores; i++)
				waiting += run->core[i].state == RC_WAIT;
			if (NEVER(waiting))
				return err_internal(e, "replay: %d cores wait for lines and nothing is on its way",
						    waiting);
			return 0;
		}
		uint64_t earliest = fab < t2 ? fab : t2;
		uint64_t bound = earliest > UINT64_MAX - look ? UINT64_MAX : earliest + look;
		if (run_core(r, c, bound, t2, c2, fab, e))
			return -1;
	}
}

int replay_run(struct replay *r, struct err *e)
{
	struct rrun *run = r->run;
	if (r->read_ahead && !(run->reader = tr_start(r->streams, r->ncores, e)))
		return -1;
	int rc = run_all(r, e);
	/* the streams are the report's again (their names and formats) */
	tr_stop(run->reader);
	run->reader = NULL;
	return rc;
}
