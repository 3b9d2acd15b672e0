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

/* The simulated address space: every 64-bit address but the very last byte
 * (memsys sizes memory by a 64-bit count). */
#define REPLAY_MEM_SIZE UINT64_MAX
/* Computation cycles a core may accumulate: far beyond any trace, and far
 * from overflowing the clock. */
#define REPLAY_MAX_CLOCK (1ull << 62)

/* Records a core reads ahead of its replay: one call to the parser per
 * batch, and memory constant in the trace's length. */
#define RC_BATCH 256

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
	uint64_t wait_since;
	int next, n;                /* batch[next..n) are still to replay */
	struct rt_rec batch[RC_BATCH];
};

static void wake(void *ctx, int core, int what, uint64_t t)
{
	(void)what;  /* a blocking core has one request at a time, loads and stores alike */
	struct replay *r = ctx;
	struct rcore *rc = &((struct rcore *)r->run)[core];
	if (rc->state != RC_WAIT)
		return;
	r->stats[core].idle_cycles += t - rc->wait_since;
	rc->clock = t;
	rc->state = RC_READY;
	rc->redo = 1;
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
	for (int i = 0; i < n; i++)
		r->streams[i] = streams[i];
	r->stats = calloc((size_t)n, sizeof *r->stats);
	r->run = calloc((size_t)n, sizeof(struct rcore));
	if (!r->stats || !r->run) {
		replay_free(r);
		return err_internal(e, "replay: out of memory");
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
	free(r->run);
	ms_destroy(r->ms);
	memset(r, 0, sizeof *r);
}

/* The next record of core c into rc->rec: 1, 0 at the end, -1 on error. */
static int next_record(struct replay *r, int c, struct rcore *rc, struct err *e)
{
	if (rc->next == rc->n) {
		int got = rt_next_batch(r->streams[c], rc->batch, RC_BATCH, e);
		if (got <= 0)
			return got;
		rc->next = 0;
		rc->n = got;
	}
	const struct rt_rec *rec = rc->rec = &rc->batch[rc->next++];
	r->stats[c].records++;
	if (rec->kind != RT_COMPUTE && rec->size > REPLAY_MEM_SIZE - rec->addr)
		return err_set(e, rt_name(r->streams[c]), rec->line, 0,
			       "access at 0x%llx runs past the last simulated byte",
			       (unsigned long long)rec->addr);
	rc->addr = rec->addr;
	rc->left = rec->size;
	rc->classified = 0;
	rc->has_rec = 1;
	return 1;
}

/* Whether another core holds addr's line, for the private/shared count of
 * core c's access that just hit in state s. A hit changes no other cache,
 * so asking after it answers as before it; and in M or E no other cache
 * holds the line (the single-writer invariant), which spares the
 * directory lookup for nearly every private access. */
static inline int others_hold_after_hit(const struct memsys *ms, int c, uint64_t addr)
{
	enum ms_state s = ms_state_of(ms, c, addr);
	return s != MS_M && s != MS_E && ms_others_hold(ms, c, addr);
}

/* Run core c until it must yield: `hit_bound` is the cycle its hits must
 * stay below, (issue_t, issue_c) the earliest other (cycle, core) a miss of
 * its must come before, fab the fabric's next event. */
static int run_core(struct replay *r, int c, uint64_t hit_bound, uint64_t issue_t, int issue_c,
		    uint64_t fab, struct err *e)
{
	struct rcore *rc = &((struct rcore *)r->run)[c];
	struct replay_core_stats *st = &r->stats[c];
	struct memsys *ms = r->ms;
	const uint32_t ls = r->m.line_size, hit = r->m.lat_l1_hit;
	uint64_t snoop_at = ms_core_next_msg(ms, c);
	if (snoop_at < hit_bound)
		hit_bound = snoop_at;
	for (;;) {
		if (!rc->has_rec) {
			int got = next_record(r, c, rc, e);
			if (got < 0)
				return -1;
			if (!got) {
				rc->state = RC_DONE;
				st->cycles = rc->clock;
				return 0;
			}
		}
		const struct rt_rec *rec = rc->rec;
		if (rec->kind == RT_COMPUTE) {
			if (rec->cycles > REPLAY_MAX_CLOCK - rc->clock)
				return err_set(e, rt_name(r->streams[c]), rec->line, 0,
					       "computation runs the clock past 2^62 cycles");
			rc->clock += rec->cycles;
			st->compute_cycles += rec->cycles;
			rc->has_rec = 0;
			continue;
		}
		if (rc->clock >= hit_bound)
			return 0;
		/* One access per line the record touches, of at most 8 bytes. */
		uint32_t in_line = ls - (uint32_t)(rc->addr & (ls - 1));
		uint32_t n = rc->left < in_line ? rc->left : in_line;
		unsigned size = n < 8 ? n : 8;
		uint64_t v = 0;
		int done = rec->kind == RT_LOAD ? ms_hit_load(ms, c, rc->addr, size, &v)
						: ms_hit_store(ms, c, rc->addr, size, 0);
		if (!rc->classified) {
			/* A failed hit changed nothing: counted as of the first attempt. */
			int shared = done ? others_hold_after_hit(ms, c, rc->addr) : ms_others_hold(ms, c, rc->addr);
			st->shared_accesses += (uint64_t)shared;
			st->private_accesses += (uint64_t)!shared;
			rc->classified = 1;
		}
		if (!done) {
			/* a miss: only as the machine's earliest (cycle, core) */
			if (rc->clock >= fab || rc->clock > issue_t || (rc->clock == issue_t && c > issue_c))
				return 0;
			uint64_t t = rec->kind == RT_LOAD ? ms_load(ms, c, rc->clock, rc->addr, size, &v)
							  : ms_store(ms, c, rc->clock, rc->addr, size, 0);
			if (ms_check_error(ms, e))
				return -1;
			if (t != MS_PENDING)
				return err_internal(e, "replay: core %d: a miss at 0x%llx was not issued", c,
						    (unsigned long long)rc->addr);
			rc->state = RC_WAIT;
			rc->wait_since = rc->clock;
			return 0;
		}
		/* the access a fill completed costs nothing more: the miss's latency is the fill's */
		if (!rc->redo)
			rc->clock += hit;
		rc->redo = 0;
		rc->addr += n;
		rc->left -= n;
		rc->classified = 0;
		if (!rc->left)
			rc->has_rec = 0;
	}
}

int replay_run(struct replay *r, struct err *e)
{
	struct rcore *cores = r->run;
	const uint64_t look = ms_lookahead(r->ms);
	for (;;) {
		uint64_t fab = ms_next_event(r->ms);
		int c = -1, c2 = r->ncores, waiting = 0;
		uint64_t t1 = UINT64_MAX, t2 = UINT64_MAX;
		for (int i = 0; i < r->ncores; i++) {
			waiting += cores[i].state == RC_WAIT;
			if (cores[i].state != RC_READY)
				continue;
			if (cores[i].clock < t1) {
				t2 = t1, c2 = c;
				t1 = cores[i].clock, c = i;
			} else if (cores[i].clock < t2) {
				t2 = cores[i].clock, c2 = i;
			}
		}
		if (c2 < 0)
			c2 = r->ncores;
		if (fab != UINT64_MAX && fab <= t1) {
			ms_step(r->ms);
			if (ms_check_error(r->ms, e))
				return -1;
			continue;
		}
		if (c < 0) {
			if (waiting)
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
