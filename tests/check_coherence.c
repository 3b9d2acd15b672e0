/* Unit tests of the memory layer through memsys's API: every table cell,
 * litmus-sized exact counts, fabric timing, MSI, MESIF, MOESI and Dragon, the
 * soundness walk over every registered protocol, bad CPU models, the
 * L1 lookaside under the checker, and randomized stress with the checker on. */
#include "config.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "mem/cache.h"
#include "mem/coherence.h"
#include "base/event_queue.h"
#include "mem/memsys.h"
#include "check_loop.h"

#define MEM (1u << 20)

/* A byte of backing memory set behind the protocol's back. */
static uint8_t mem_set(struct memsys *ms, uint64_t addr, uint8_t v)
{
	struct err e = {0};
	loop_assert_int_eq(ms_write_memory(ms, addr, &v, 1, &e), 0);
	return v;
}

static struct memsys *mk(int cores, enum fabric_kind f, enum protocol_kind p)
{
	struct cpu_model m;
	cpu_model_default(&m);
	m.cores = cores;
	m.fabric = f;
	m.protocol = p;
	struct err e = {0};
	struct memsys *ms = ms_create(&m, MEM, &e);
	ck_assert_msg(ms != NULL, "ms_create: %s", e.msg);
	ms_set_checking(ms, 1);
	return ms;
}

/* Every test ends by checking all invariants and that none was violated. */
static void done(struct memsys *ms)
{
	struct err e = {0};
	ck_assert_msg(ms_check_error(ms, &e) == 0, "checker: %s", e.msg);
	ck_assert_msg(ms_check_all(ms, &e) == 0, "check_all: %s", e.msg);
	ms_destroy(ms);
}

static struct ms_stats tot(const struct memsys *ms)
{
	struct ms_stats s;
	ms_total_stats(ms, &s);
	return s;
}

/* Counts since `before`: the statistics a step added. */
#define D(field) (tot(ms).field - before.field)

static uint64_t ld(struct memsys *ms, int c, uint64_t a)
{
	uint64_t v = 0;
	ms_load(ms, c, 0, a, 8, &v);
	return v;
}

static void st(struct memsys *ms, int c, uint64_t a, uint64_t v)
{
	ms_store(ms, c, 0, a, 8, v);
}

/* Push `a`'s line out of core c's 8-way L1 by loading 8 lines of its set. */
static void evict_line(struct memsys *ms, int c, uint64_t a)
{
	for (int k = 1; k <= 8; k++)
		ld(ms, c, (a + (uint64_t)k * 4096) % MEM);
	ck_assert_int_eq(ms_state_of(ms, c, a), MS_I);
}

#define S_(c) ms_state_of(ms, c, A)
static const uint64_t A = 0x1000;

/* ---------- the MESI table, cell by cell, through the API ---------- */

START_TEST(mesi_I_load_alone_gives_E)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	mem_set(ms, A, 7);
	ms_set_checking(ms, 1);   /* the shadow copies memory as it is now */
	struct ms_stats before = tot(ms);
	ck_assert_uint_eq(ld(ms, 0, A), 7);
	ck_assert_int_eq(S_(0), MS_E);
	ck_assert_uint_eq(D(transactions), 1);
	ck_assert_uint_eq(D(mem_reads), 1);
	ck_assert_uint_eq(D(bounces), 0);
	ck_assert_uint_eq(D(hitm) + D(c2c_transfers) + D(invalidations) + D(writebacks), 0);
	done(ms);
}
END_TEST

START_TEST(mesi_I_load_other_E_gives_S_S)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	ld(ms, 1, A);
	struct ms_stats before = tot(ms);
	ld(ms, 0, A);
	ck_assert_int_eq(S_(0), MS_S);
	ck_assert_int_eq(S_(1), MS_S);
	ck_assert_uint_eq(D(mem_reads), 1);  /* MESI: clean data from memory */
	ck_assert_uint_eq(D(hitm) + D(c2c_transfers) + D(invalidations) + D(writebacks) + D(bounces), 0);
	done(ms);
}
END_TEST

START_TEST(mesi_I_load_others_S_gives_S)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	ld(ms, 1, A);
	ld(ms, 2, A);
	struct ms_stats before = tot(ms);
	ld(ms, 0, A);
	ck_assert_int_eq(S_(0), MS_S);
	ck_assert_int_eq(S_(1), MS_S);
	ck_assert_int_eq(S_(2), MS_S);
	ck_assert_uint_eq(D(mem_reads), 1);
	ck_assert_uint_eq(D(hitm) + D(c2c_transfers) + D(invalidations) + D(writebacks), 0);
	done(ms);
}
END_TEST

START_TEST(mesi_I_load_other_M_hitm_writeback)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	st(ms, 1, A, 42);
	ck_assert_int_eq(S_(1), MS_M);
	ck_assert_uint_eq(ms_memory_byte(ms, A), 0);  /* dirty in core 1 only */
	ck_assert_uint_eq(ms_peek(ms, A, 8), 42);
	struct ms_stats before = tot(ms);
	ck_assert_uint_eq(ld(ms, 0, A), 42);
	ck_assert_int_eq(S_(0), MS_S);
	ck_assert_int_eq(S_(1), MS_S);
	ck_assert_uint_eq(D(hitm), 1);
	ck_assert_uint_eq(D(hitm_remote), 0);   /* cores 0 and 1 share socket 0 */
	ck_assert_uint_eq(D(c2c_transfers), 1);
	ck_assert_uint_eq(D(writebacks), 1);
	ck_assert_uint_eq(D(mem_reads), 0);
	ck_assert_uint_eq(D(invalidations), 0);
	ck_assert_uint_eq(D(bounces), 0);
	ck_assert_uint_eq(ms_memory_byte(ms, A), 42);
	done(ms);
}
END_TEST

START_TEST(mesi_I_store_alone_gives_M)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	struct ms_stats before = tot(ms);
	st(ms, 0, A, 1);
	ck_assert_int_eq(S_(0), MS_M);
	ck_assert_uint_eq(D(transactions), 1);
	ck_assert_uint_eq(D(mem_reads), 1);   /* read for ownership */
	ck_assert_uint_eq(D(bounces), 0);     /* first owner */
	ck_assert_uint_eq(D(invalidations) + D(hitm), 0);
	done(ms);
}
END_TEST

START_TEST(mesi_I_store_other_E_invalidates)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	ld(ms, 1, A);
	struct ms_stats before = tot(ms);
	st(ms, 0, A, 1);
	ck_assert_int_eq(S_(0), MS_M);
	ck_assert_int_eq(S_(1), MS_I);
	ck_assert_uint_eq(D(invalidations), 1);
	ck_assert_uint_eq(D(mem_reads), 1);
	ck_assert_uint_eq(D(bounces), 1);     /* core 1 held write ownership (E) */
	ck_assert_uint_eq(D(hitm) + D(c2c_transfers) + D(writebacks), 0);
	done(ms);
}
END_TEST

START_TEST(mesi_I_store_others_S_invalidates_all)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	ld(ms, 1, A);
	ld(ms, 2, A);
	ld(ms, 5, A);
	struct ms_stats before = tot(ms);
	st(ms, 0, A, 1);
	ck_assert_int_eq(S_(0), MS_M);
	ck_assert_int_eq(S_(1), MS_I);
	ck_assert_int_eq(S_(2), MS_I);
	ck_assert_int_eq(S_(5), MS_I);
	ck_assert_uint_eq(D(invalidations), 3);
	ck_assert_uint_eq(D(mem_reads), 1);
	ck_assert_uint_eq(D(bounces), 1);     /* core 1 was the last E owner */
	ck_assert_uint_eq(D(hitm) + D(c2c_transfers) + D(writebacks), 0);
	done(ms);
}
END_TEST

START_TEST(mesi_I_store_other_M_hitm_transfer)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	st(ms, 4, A, 9);
	struct ms_stats before = tot(ms);
	st(ms, 0, A + 8, 1);
	ck_assert_int_eq(S_(0), MS_M);
	ck_assert_int_eq(S_(4), MS_I);
	ck_assert_uint_eq(D(hitm), 1);
	ck_assert_uint_eq(D(hitm_remote), 1);  /* core 4 is on socket 1 */
	ck_assert_uint_eq(D(c2c_transfers), 1);
	ck_assert_uint_eq(D(invalidations), 1);
	ck_assert_uint_eq(D(bounces), 1);
	ck_assert_uint_eq(D(writebacks), 0);   /* ownership moves with the data */
	ck_assert_uint_eq(D(mem_reads), 0);
	ck_assert_uint_eq(ms_peek(ms, A, 8), 9);
	ck_assert_uint_eq(ms_memory_byte(ms, A), 0);
	done(ms);
}
END_TEST

START_TEST(mesi_S_load_hits)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	ld(ms, 0, A);
	ld(ms, 1, A);
	struct ms_stats before = tot(ms);
	uint64_t v;
	ck_assert_int_eq(ms_try_load(ms, 0, A, 8, &v), 1);
	ck_assert_uint_eq(ms_load(ms, 0, 100, A, 8, &v), 104);
	ck_assert_int_eq(S_(0), MS_S);
	ck_assert_uint_eq(D(transactions), 0);
	ck_assert_uint_eq(D(l1_hits), 2);
	ck_assert_int_eq(ms_try_store(ms, 0, A, 8, 1), 0);  /* needs an UPGRADE */
	ck_assert_uint_eq(D(stores), 0);
	done(ms);
}
END_TEST

START_TEST(mesi_S_store_upgrade)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	ld(ms, 1, A);
	ld(ms, 0, A);
	ld(ms, 2, A);
	struct ms_stats before = tot(ms);
	st(ms, 0, A, 5);
	ck_assert_int_eq(S_(0), MS_M);
	ck_assert_int_eq(S_(1), MS_I);
	ck_assert_int_eq(S_(2), MS_I);
	ck_assert_uint_eq(D(transactions), 1);
	ck_assert_uint_eq(D(upgrades), 1);
	ck_assert_uint_eq(D(invalidations), 2);
	ck_assert_uint_eq(D(bounces), 1);       /* core 1 was the last E owner */
	ck_assert_uint_eq(D(mem_reads) + D(c2c_transfers) + D(hitm) + D(writebacks), 0);
	done(ms);
}
END_TEST

START_TEST(mesi_S_store_upgrade_alone)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	ld(ms, 0, A);
	ld(ms, 1, A);
	evict_line(ms, 1, A);   /* silently: the directory must forget core 1 */
	ck_assert_int_eq(S_(0), MS_S);
	struct ms_stats before = tot(ms);
	st(ms, 0, A, 5);
	ck_assert_int_eq(S_(0), MS_M);
	ck_assert_uint_eq(D(upgrades), 1);
	ck_assert_uint_eq(D(invalidations), 0);
	ck_assert_uint_eq(D(bounces), 0);       /* core 0 was the last E owner */
	ck_assert_uint_eq(D(writebacks), 0);
	done(ms);
}
END_TEST

START_TEST(mesi_E_load_hit_store_silent)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	ld(ms, 0, A);
	struct ms_stats before = tot(ms);
	uint64_t v;
	ck_assert_int_eq(ms_try_load(ms, 0, A, 8, &v), 1);
	ck_assert_int_eq(S_(0), MS_E);
	ck_assert_int_eq(ms_try_store(ms, 0, A, 8, 3), 1);
	ck_assert_int_eq(S_(0), MS_M);
	ck_assert_uint_eq(D(transactions), 0);
	ck_assert_uint_eq(D(bounces), 0);
	ck_assert_uint_eq(ms_peek(ms, A, 8), 3);
	done(ms);
}
END_TEST

START_TEST(mesi_M_hits)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	st(ms, 0, A, 1);
	struct ms_stats before = tot(ms);
	uint64_t v;
	ck_assert_int_eq(ms_try_store(ms, 0, A, 8, 2), 1);
	ck_assert_int_eq(ms_try_load(ms, 0, A, 8, &v), 1);
	ck_assert_uint_eq(v, 2);
	ck_assert_uint_eq(ms_store(ms, 0, 10, A, 4, 3), 14);
	ck_assert_int_eq(S_(0), MS_M);
	ck_assert_uint_eq(D(transactions), 0);
	ck_assert_uint_eq(D(l1_hits), 3);
	done(ms);
}
END_TEST

START_TEST(mesi_evict_M_writes_back)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	st(ms, 0, A, 77);
	struct ms_stats before = tot(ms);
	evict_line(ms, 0, A);
	ck_assert_uint_eq(D(writebacks), 1);
	ck_assert_uint_eq(D(evictions), 1);
	ck_assert_uint_eq(ms_memory_byte(ms, A), 77);
	struct ms_line_info li;
	ck_assert_int_eq(ms_line_info(ms, A, &li), 1);
	ck_assert_int_eq(li.owner, MS_NO_CORE);
	ck_assert_int_eq(li.last_owner, 0);
	/* A later reader finds no copy anywhere: E from memory. */
	before = tot(ms);
	ck_assert_uint_eq(ld(ms, 3, A), 77);
	ck_assert_int_eq(S_(3), MS_E);
	ck_assert_uint_eq(D(mem_reads), 1);
	ck_assert_uint_eq(D(bounces), 1);       /* write ownership moved 0 -> 3 */
	done(ms);
}
END_TEST

START_TEST(mesi_evict_E_and_S_silent)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	ld(ms, 0, A);
	struct ms_stats before = tot(ms);
	evict_line(ms, 0, A);
	ck_assert_uint_eq(D(writebacks), 0);
	ck_assert_uint_eq(D(evictions), 1);
	ld(ms, 1, A);
	ck_assert_int_eq(S_(1), MS_E);          /* no stale sharer left */
	ld(ms, 2, A);
	evict_line(ms, 2, A);
	before = tot(ms);
	st(ms, 1, A, 1);                        /* S alone -> UPGRADE, nobody to invalidate */
	ck_assert_uint_eq(D(upgrades), 1);
	ck_assert_uint_eq(D(invalidations), 0);
	done(ms);
}
END_TEST

/* ---------- the tables themselves ---------- */

struct snoop_exp { enum ms_state from; enum ms_req req; enum ms_state next; int actions; };

/* MESI written out independently of coh_mesi.c; X marks impossible cells
 * (every cell of I, which no request snoops, and the UPDATE column, which
 * MESI lacks, are impossible too). */
#define X (-1)
static const struct snoop_exp mesi_snoops[] = {
	{ MS_S, MS_GETS, MS_S, 0 }, { MS_S, MS_GETM, MS_I, 0 }, { MS_S, MS_UPGRADE, MS_I, 0 },
	{ MS_E, MS_GETS, MS_S, 0 }, { MS_E, MS_GETM, MS_I, 0 }, { MS_E, MS_UPGRADE, MS_I, X },
	{ MS_M, MS_GETS, MS_S, COH_SUPPLY | COH_WRITEBACK | COH_HITM },
	{ MS_M, MS_GETM, MS_I, COH_SUPPLY | COH_HITM }, { MS_M, MS_UPGRADE, MS_I, X },
};

START_TEST(mesi_table_every_cell)
{
	const struct coh_protocol *p = coh_protocol_of(PROTO_MESI);
	for (size_t i = 0; i < sizeof mesi_snoops / sizeof mesi_snoops[0]; i++) {
		const struct snoop_exp *x = &mesi_snoops[i];
		const struct coh_snoop_cell *c = &p->state[x->from].snoop[x->req];
		if (x->actions == X)
			ck_assert_msg(c->actions == 0 && c->next == 0, "snoop %s x %s: impossible",
				      ms_state_name(x->from), ms_req_name(x->req));
		else
			ck_assert_msg(c->actions == (x->actions | COH_CAN) && c->next == x->next,
				      "snoop %s x %s", ms_state_name(x->from), ms_req_name(x->req));
	}
	for (int s = 0; s < MS_NSTATES; s++)
		ck_assert(!p->state[s].snoop[MS_UPDATE].actions);
	for (int r = 0; r < MS_NREQS; r++)
		ck_assert(!p->state[MS_I].snoop[r].actions);
	/* requester: (state x op); a locked RMW as a store */
	const struct coh_state_row *r = p->state;
	for (int op = COH_STORE; op <= COH_RMW; op++) {
		ck_assert(r[MS_I].access[op].what == COH_MISSES && r[MS_I].access[op].req == MS_GETM);
		ck_assert(r[MS_S].access[op].what == COH_MISSES && r[MS_S].access[op].req == MS_UPGRADE);
		ck_assert(r[MS_E].access[op].what == COH_HITS && r[MS_E].access[op].next == MS_M);
		ck_assert(r[MS_M].access[op].what == COH_HITS && r[MS_M].access[op].next == MS_M);
	}
	ck_assert(r[MS_I].access[COH_LOAD].what == COH_MISSES && r[MS_I].access[COH_LOAD].req == MS_GETS);
	ck_assert(r[MS_S].access[COH_LOAD].what == COH_HITS && r[MS_S].access[COH_LOAD].next == MS_S);
	ck_assert(r[MS_E].access[COH_LOAD].what == COH_HITS && r[MS_E].access[COH_LOAD].next == MS_E);
	ck_assert(r[MS_M].access[COH_LOAD].what == COH_HITS && r[MS_M].access[COH_LOAD].next == MS_M);
	/* requests: whom they snoop, data, the requester's state, the bounce rule */
	const struct coh_req_col *q = p->req;
	ck_assert_int_eq(q[MS_GETS].alone.next, MS_E);
	ck_assert_int_eq(q[MS_GETS].shared.next, MS_S);
	ck_assert_int_eq(q[MS_GETM].alone.next, MS_M);
	ck_assert_int_eq(q[MS_GETM].shared.next, MS_I);       /* impossible: nobody is left */
	ck_assert_int_eq(q[MS_UPGRADE].alone.next, MS_M);
	ck_assert_int_eq(q[MS_UPGRADE].shared.next, MS_I);
	ck_assert(q[MS_GETS].alone.owns && !q[MS_GETS].shared.owns);
	ck_assert(q[MS_GETM].alone.owns && q[MS_UPGRADE].alone.owns);
	ck_assert_int_eq(q[MS_GETS].snoop, COH_SNOOP_OWNER);
	ck_assert_int_eq(q[MS_GETM].snoop, COH_SNOOP_ALL);
	ck_assert_int_eq(q[MS_UPGRADE].snoop, COH_SNOOP_ALL);
	ck_assert_int_eq(q[MS_UPDATE].snoop, 0);
	ck_assert(q[MS_GETS].fetch && q[MS_GETM].fetch && !q[MS_UPGRADE].fetch);
	ck_assert(!q[MS_GETS].forward && q[MS_GETM].forward && q[MS_UPGRADE].forward);
	ck_assert(!q[MS_GETS].store_shared && !q[MS_GETM].store_shared && q[MS_UPGRADE].store_shared);
	ck_assert(!q[MS_GETS].update && !q[MS_GETM].update && !q[MS_UPGRADE].update);
	/* what each state is */
	ck_assert(r[MS_M].evict_writeback && !r[MS_E].evict_writeback && !r[MS_S].evict_writeback);
	ck_assert(r[MS_E].owner && r[MS_M].owner && !r[MS_S].owner && !r[MS_I].owner);
	ck_assert(r[MS_E].exclusive && r[MS_M].exclusive && !r[MS_S].exclusive);
	ck_assert(r[MS_M].dirty && !r[MS_E].dirty && !r[MS_S].dirty);
	ck_assert(!coh_has_state(p, MS_F) && !coh_has_state(p, MS_O) && !coh_has_state(p, MS_W));
	ck_assert(!coh_updates(p));
}
END_TEST

/* Two rows alike: their names by text (two tables' equal string literals
 * need not be one object: a sanitizer build keeps them apart), the rest
 * byte for byte. */
static int same_row(const struct coh_state_row *a, const struct coh_state_row *b)
{
	struct coh_state_row x, y;
	memcpy(&x, a, sizeof x);
	memcpy(&y, b, sizeof y);
	int names = (!x.name && !y.name) || (x.name && y.name && !strcmp(x.name, y.name));
	int whats = (!x.what && !y.what) || (x.what && y.what && !strcmp(x.what, y.what));
	x.name = y.name = NULL;
	x.what = y.what = NULL;
	return names && whats && !memcmp(&x, &y, sizeof x);
}

/* MSI, MESIF and MOESI are MESI's table with a few rows replaced: every
 * other row and column is MESI's, byte for byte, and the replaced ones hold
 * exactly the cells in which they differ. */
START_TEST(derived_tables_differ_only_where_declared)
{
	const struct coh_protocol *mesi = coh_protocol_of(PROTO_MESI);
	const struct coh_protocol *i = coh_protocol_of(PROTO_MSI);
	const struct coh_protocol *f = coh_protocol_of(PROTO_MESIF);
	const struct coh_protocol *o = coh_protocol_of(PROTO_MOESI);
	/* rows and columns a table replaces, as bitsets */
	struct { const struct coh_protocol *p; unsigned rows, reqs; } d[] = {
		{ i, 1u << MS_E, 1u << MS_GETS },
		{ f, 1u << MS_E | 1u << MS_F, 1u << MS_GETS },
		{ o, 1u << MS_M | 1u << MS_O, 0 },
	};
	for (size_t k = 0; k < sizeof d / sizeof d[0]; k++) {
		for (int s = 0; s < MS_NSTATES; s++)
			ck_assert_msg(same_row(&d[k].p->state[s], &mesi->state[s]) == !((d[k].rows >> s) & 1),
				      "%s row %s", d[k].p->name, ms_state_name(s));
		for (int r = 0; r < MS_NREQS; r++)
			ck_assert_msg(!memcmp(&d[k].p->req[r], &mesi->req[r], sizeof mesi->req[r]) ==
				      !((d[k].reqs >> r) & 1), "%s column %s", d[k].p->name, ms_req_name(r));
	}
	/* MSI: no E, so a lone reader takes S and owns nothing */
	ck_assert(!coh_has_state(i, MS_E));
	ck_assert_int_eq(i->req[MS_GETS].alone.next, MS_S);
	ck_assert(!i->req[MS_GETS].alone.owns);
	/* MESIF's E: only its snoops differ, by supplying */
	ck_assert(!memcmp(f->state[MS_E].access, mesi->state[MS_E].access, sizeof f->state[MS_E].access));
	ck_assert_int_eq(f->state[MS_E].snoop[MS_GETS].actions, COH_SUPPLY | COH_CAN);
	ck_assert_int_eq(f->state[MS_E].snoop[MS_GETM].actions, COH_SUPPLY | COH_CAN);
	ck_assert_int_eq(f->state[MS_F].snoop[MS_GETS].next, MS_S);
	ck_assert(coh_has_state(f, MS_F) && f->state[MS_F].owner && !f->state[MS_F].dirty);
	ck_assert_int_eq(f->req[MS_GETS].shared.next, MS_F);
	ck_assert_int_eq(f->req[MS_GETS].alone.next, MS_E);
	/* MOESI's M: a read leaves it O without a writeback */
	ck_assert_int_eq(o->state[MS_M].snoop[MS_GETS].next, MS_O);
	ck_assert_int_eq(o->state[MS_M].snoop[MS_GETS].actions, COH_SUPPLY | COH_HITM | COH_CAN);
	ck_assert(!memcmp(o->state[MS_M].access, mesi->state[MS_M].access, sizeof o->state[MS_M].access));
	ck_assert(coh_has_state(o, MS_O) && o->state[MS_O].owner && o->state[MS_O].dirty &&
		  o->state[MS_O].evict_writeback && !o->state[MS_O].exclusive);
	ck_assert_int_eq(o->state[MS_O].access[COH_STORE].req, MS_UPGRADE);
}
END_TEST

/* Dragon, written out independently of coh_dragon.c: no cell invalidates;
 * every write to a shared line is an update the other copies take. */
START_TEST(dragon_table)
{
	const struct coh_protocol *p = coh_protocol_of(PROTO_DRAGON);
	const struct coh_state_row *r = p->state;
	const struct coh_req_col *q = p->req;
	ck_assert_str_eq(r[MS_S].name, "Sc");
	ck_assert_str_eq(r[MS_O].name, "Sm");
	ck_assert_str_eq(r[MS_E].name, "E");
	ck_assert_str_eq(r[MS_M].name, "M");
	ck_assert(!coh_has_state(p, MS_F));
	ck_assert(coh_updates(p));
	/* a write to Sc or Sm is an UPDATE; E and M write silently */
	ck_assert(r[MS_S].access[COH_STORE].what == COH_MISSES && r[MS_S].access[COH_STORE].req == MS_UPDATE);
	ck_assert(r[MS_O].access[COH_STORE].what == COH_MISSES && r[MS_O].access[COH_STORE].req == MS_UPDATE);
	ck_assert(r[MS_E].access[COH_STORE].what == COH_HITS && r[MS_E].access[COH_STORE].next == MS_M);
	ck_assert(r[MS_M].access[COH_STORE].what == COH_HITS && r[MS_M].access[COH_STORE].next == MS_M);
	/* the granted writer: one store, sent to the others, then Sm; a locked
	 * RMW keeps the grant for its own store */
	ck_assert(r[MS_W].access[COH_STORE].what == COH_HITS && r[MS_W].access[COH_STORE].update);
	ck_assert_int_eq(r[MS_W].access[COH_STORE].next, MS_O);
	ck_assert(r[MS_W].access[COH_RMW].what == COH_HITS && r[MS_W].access[COH_RMW].next == MS_W);
	ck_assert(r[MS_W].access[COH_LOAD].what == COH_HITS && r[MS_W].access[COH_LOAD].next == MS_W);
	/* an update leaves every other copy valid and Sc */
	for (int s = MS_S; s < MS_NSTATES; s++)
		if (r[s].snoop[MS_UPDATE].actions) {
			ck_assert_int_eq(r[s].snoop[MS_UPDATE].next, MS_S);
			ck_assert(r[s].snoop[MS_UPDATE].actions & COH_UPDATED);
		}
	ck_assert_int_eq(r[MS_S].snoop[MS_UPDATE].actions, COH_UPDATED | COH_CAN);
	ck_assert_int_eq(r[MS_O].snoop[MS_UPDATE].actions, COH_UPDATED | COH_CAN);
	ck_assert_int_eq(r[MS_E].snoop[MS_UPDATE].actions, 0);   /* E is alone: impossible */
	ck_assert_int_eq(r[MS_M].snoop[MS_UPDATE].actions, 0);
	/* a read finding M leaves it Sm (the book's Flush), memory stale */
	ck_assert_int_eq(r[MS_M].snoop[MS_GETS].next, MS_O);
	ck_assert_int_eq(r[MS_M].snoop[MS_GETS].actions, COH_SUPPLY | COH_HITM | COH_CAN);
	ck_assert_int_eq(r[MS_E].snoop[MS_GETS].actions, COH_CAN);
	/* the shared wire: Sm (granted) beside copies, M alone */
	ck_assert_int_eq(q[MS_UPDATE].alone.next, MS_M);
	ck_assert_int_eq(q[MS_UPDATE].shared.next, MS_W);
	ck_assert_int_eq(q[MS_GETM].alone.next, MS_M);
	ck_assert_int_eq(q[MS_GETM].shared.next, MS_W);
	ck_assert(q[MS_UPDATE].update && q[MS_GETM].update && !q[MS_GETS].update);
	ck_assert(!q[MS_UPDATE].fetch && q[MS_UPDATE].store_shared);
	ck_assert_int_eq(q[MS_UPGRADE].snoop, 0);
	for (int k = 0; k < MS_NREQS; k++)
		ck_assert(!q[k].forward);
	ck_assert(r[MS_O].evict_writeback && r[MS_W].evict_writeback && r[MS_M].evict_writeback);
	ck_assert(!r[MS_S].evict_writeback && !r[MS_E].evict_writeback);
}
END_TEST

/* What memsys.c relies on when it applies any table, for every registered
 * protocol: an owner-only snoop is sound (every state but the owner's
 * ignores such a request), fills count a bounce exactly when the requester
 * ends able to write, a request fetches data exactly when it is issued
 * without a copy, a state with write ownership never issues a request, a
 * column the protocol lacks is zero throughout, and update columns leave
 * every copy valid. */
static void table_rules(const struct coh_protocol *p)
{
	ck_assert(coh_has_state(p, MS_I));
	for (int s = 0; s < MS_NSTATES; s++) {
		const struct coh_state_row *row = &p->state[s];
		if (!coh_has_state(p, s)) {
			static const struct coh_state_row zero;
			ck_assert_msg(!memcmp(row, &zero, sizeof zero), "%s: a row without a state", p->name);
			continue;
		}
		ck_assert(row->what && row->hue < COH_NHUES);
		if (s != MS_I) {
			ck_assert_msg(row->owner || s == MS_S, "%s: %s", p->name, ms_state_name(s));
			ck_assert(!row->dirty || row->owner);
			ck_assert(!row->exclusive || row->owner);
			ck_assert(!row->dirty || row->evict_writeback);
		}
		for (int r = 0; r < MS_NREQS; r++) {
			const struct coh_snoop_cell *c = &p->state[s].snoop[r];
			const struct coh_req_col *q = &p->req[r];
			if (!(c->actions & COH_CAN)) {
				ck_assert(!c->actions && !c->next);
				continue;
			}
			ck_assert_msg(s != MS_I && q->snoop, "%s: %s x %s can happen", p->name,
				      ms_state_name(s), ms_req_name(r));
			ck_assert(coh_has_state(p, c->next));
			/* a holder never keeps an exclusive state beside a requester */
			ck_assert(!p->state[c->next].exclusive);
			if (q->snoop == COH_SNOOP_OWNER && !row->owner)
				ck_assert_msg(c->next == s && c->actions == COH_CAN, "%s: %s ignores %s", p->name,
					      ms_state_name(s), ms_req_name(r));
			/* an update keeps every copy, and every copy takes it */
			ck_assert_msg(!q->update || c->next != MS_I, "%s: %s loses its copy to update %s",
				      p->name, ms_state_name(s), ms_req_name(r));
			ck_assert(!(c->actions & COH_UPDATED) || q->update);
			ck_assert(!q->update || (c->actions & COH_UPDATED));
		}
		for (int op = 0; op < COH_NOPS; op++) {
			const struct coh_access_cell *a = &row->access[op];
			ck_assert_msg(a->what == COH_HITS || a->what == COH_MISSES, "%s: %s has no cell for op %d",
				      p->name, ms_state_name(s), op);
			ck_assert(!row->exclusive || a->what == COH_HITS);
			ck_assert(a->what != COH_HITS || (s != MS_I && coh_has_state(p, a->next)));
			ck_assert(!a->update || (a->what == COH_HITS && op == COH_STORE));
			if (a->what == COH_MISSES) {
				ck_assert(p->req[a->req].snoop);
				/* a copy needs only permission; no copy needs the data */
				ck_assert_int_eq(p->req[a->req].fetch, s == MS_I);
			}
		}
	}
	for (int op = 0; op < COH_NOPS; op++)
		ck_assert(p->state[MS_I].access[op].what == COH_MISSES);
	for (int r = 0; r < MS_NREQS; r++) {
		const struct coh_req_col *q = &p->req[r];
		if (!q->snoop) {
			static const struct coh_req_col zero;
			ck_assert_msg(!memcmp(q, &zero, sizeof zero), "%s: column %s without requests", p->name,
				      ms_req_name(r));
			continue;
		}
		ck_assert(q->alone.next != MS_I || q->shared.next != MS_I);
		const struct coh_fill_cell *fc[2] = { &q->alone, &q->shared };
		for (int k = 0; k < 2; k++) {
			if (fc[k]->next == MS_I) {
				ck_assert(!fc[k]->owns);
				continue;
			}
			ck_assert(coh_has_state(p, fc[k]->next));
			ck_assert_int_eq(fc[k]->owns, p->state[fc[k]->next].access[COH_STORE].what == COH_HITS);
		}
		/* the agent forwards only behind a request that leaves no other copy */
		ck_assert(!q->forward || q->shared.next == MS_I);
	}
}

/* A line's copies on three cores, as states. */
#define WALK_CORES 3
#define WALK_CONFIGS (MS_NSTATES * MS_NSTATES * MS_NSTATES)

static int walk_code(const uint8_t *st)
{
	return (st[0] * MS_NSTATES + st[1]) * MS_NSTATES + st[2];
}

/* One core's access on configuration st, as memsys applies the table with
 * every request atomic: 0, having applied it, or a message naming the
 * zero cell it reached. */
static const char *walk_access(const struct coh_protocol *p, uint8_t *st, int core, int op)
{
	static char why[160];
	const struct coh_access_cell *a = &p->state[st[core]].access[op];
	if (!a->what) {
		snprintf(why, sizeof why, "%s: %s by a core in %s", p->name, op ? "a store" : "a load",
			 ms_state_name(st[core]));
		return why;
	}
	if (a->what == COH_MISSES) {
		const struct coh_req_col *q = &p->req[a->req];
		int owner = -1, others = 0;
		uint64_t targets = 0;
		for (int h = 0; h < WALK_CORES; h++)
			if (h != core && st[h] != MS_I && p->state[st[h]].owner)
				owner = h;
		for (int h = 0; h < WALK_CORES; h++)
			if (h != core && st[h] != MS_I &&
			    (q->snoop == COH_SNOOP_ALL || h == owner ||
			     (q->snoop == COH_SNOOP_OWNER_ELSE_ONE && owner < 0 && !targets)))
				targets |= 1ull << h;
		for (int h = 0; h < WALK_CORES; h++) {
			if (!((targets >> h) & 1))
				continue;
			const struct coh_snoop_cell *c = &p->state[st[h]].snoop[a->req];
			if (!(c->actions & COH_CAN)) {
				snprintf(why, sizeof why, "%s: %s snooping %s", p->name, ms_req_name(a->req),
					 ms_state_name(st[h]));
				return why;
			}
			st[h] = c->next;
		}
		for (int h = 0; h < WALK_CORES; h++)
			others += h != core && st[h] != MS_I;
		const struct coh_fill_cell *fc = others ? &q->shared : &q->alone;
		if (fc->next == MS_I) {
			snprintf(why, sizeof why, "%s: %s's fill with%s other copies", p->name, ms_req_name(a->req),
				 others ? "" : " no");
			return why;
		}
		st[core] = fc->next;
		/* the access made again after the fill must hit */
		a = &p->state[st[core]].access[op];
		if (a->what != COH_HITS) {
			snprintf(why, sizeof why, "%s: %s after its %s still misses", p->name,
				 ms_state_name(st[core]), ms_req_name(q - p->req));
			return why;
		}
	}
	st[core] = a->next;
	return NULL;
}

/* The copies of one line obey the protocol's own rules in st. */
static const char *walk_sound(const struct coh_protocol *p, const uint8_t *st)
{
	int valid = 0, excl = 0, owners = 0, dirty = 0;
	for (int c = 0; c < WALK_CORES; c++) {
		valid += st[c] != MS_I;
		excl += p->state[st[c]].exclusive;
		owners += p->state[st[c]].owner;
		dirty += p->state[st[c]].dirty;
	}
	if ((excl && valid > 1) || owners > 1 || dirty > 1)
		return "SWMR or a single owner violated";
	return NULL;
}

/* Every configuration of a line over three cores reachable from no copies
 * by loads, stores, locked RMWs and evictions: NULL when none reaches a
 * zero cell or breaks the single-owner rules and every state is reached,
 * else what went wrong. */
static const char *walk_reachable(const struct coh_protocol *p)
{
	static char msg[256];
	static uint8_t seen[WALK_CONFIGS];
	static uint8_t queue[WALK_CONFIGS][WALK_CORES];
	int head = 0, tail = 0, reached = 0;
	memset(seen, 0, sizeof seen);
	memset(queue[tail++], MS_I, WALK_CORES);
	seen[0] = 1;
	while (head < tail) {
		const uint8_t *cur = queue[head++];
		reached++;
		for (int c = 0; c < WALK_CORES; c++)
			for (int op = -1; op < COH_NOPS; op++) {
				uint8_t st[WALK_CORES];
				memcpy(st, cur, sizeof st);
				if (op < 0) {
					st[c] = MS_I;   /* an eviction: silent, or a writeback */
				} else {
					const char *why = walk_access(p, st, c, op);
					if (why) {
						snprintf(msg, sizeof msg, "%s (from %s%s%s)", why, ms_state_name(cur[0]),
							 ms_state_name(cur[1]), ms_state_name(cur[2]));
						return msg;
					}
				}
				const char *bad = walk_sound(p, st);
				if (bad) {
					snprintf(msg, sizeof msg, "%s: %s in %s%s%s", p->name, bad, ms_state_name(st[0]),
						 ms_state_name(st[1]), ms_state_name(st[2]));
					return msg;
				}
				int k = walk_code(st);
				if (!seen[k]) {
					seen[k] = 1;
					memcpy(queue[tail++], st, sizeof st);
				}
			}
	}
	/* every state of the protocol is reached */
	for (int s = 0; s < MS_NSTATES; s++) {
		int found = 0;
		for (int k = 0; k < tail && !found; k++)
			for (int c = 0; c < WALK_CORES; c++)
				found |= queue[k][c] == s;
		if (found != coh_has_state(p, s)) {
			snprintf(msg, sizeof msg, "%s: state %s %s", p->name, ms_state_name(s),
				 found ? "reached without a row" : "never reached");
			return msg;
		}
	}
	return reached > 1 ? NULL : "nothing reached";
}

/* The soundness test: every registered protocol (CPU_PROTOCOLS), as
 * declared and with clean supply, keeps the rules above and reaches no
 * zero cell. */
START_TEST(every_protocol_sound)
{
	for (int k = 0; k < CPU_NPROTOCOLS; k++) {
		const struct coh_protocol *p = coh_protocol_of((enum protocol_kind)k);
		ck_assert_str_eq(p->name, cpu_protocol_name((enum protocol_kind)k));
		table_rules(p);
		const char *why = walk_reachable(p);
		ck_assert_msg(!why, "%s", why);
		struct coh_protocol clean;
		coh_with_clean_supply(p, &clean);
		why = walk_reachable(&clean);
		ck_assert_msg(!why, "with clean supply: %s", why);
	}
}
END_TEST

/* The soundness test catches what it should: a table with one reachable
 * cell zeroed (MESI's M seeing GETS) fails the walk. */
START_TEST(soundness_walk_finds_a_zero_cell)
{
	struct coh_protocol broken = *coh_protocol_of(PROTO_MESI);
	memset(&broken.state[MS_M].snoop[MS_GETS], 0, sizeof broken.state[MS_M].snoop[MS_GETS]);
	const char *why = walk_reachable(&broken);
	ck_assert(why != NULL);
	ck_assert_msg(strstr(why, "GETS snooping M") != NULL, "%s", why);
}
END_TEST

/* ---------- litmus-sized exact cases ---------- */

/* Two cores alternate stores to one variable for K rounds (2K stores):
 * store 1 is a GETM from memory; each of the other 2K-1 finds the line M in
 * the other core: a HITM, a c2c transfer, one invalidation, a bounce. */
START_TEST(litmus_ping_pong_stores)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_MESI);
	const uint64_t K = 1000;
	for (uint64_t r = 0; r < K; r++) {
		st(ms, 0, A, 2 * r);
		st(ms, 1, A, 2 * r + 1);
	}
	struct ms_stats s = tot(ms);
	ck_assert_uint_eq(s.transactions, 2 * K);
	ck_assert_uint_eq(s.bounces, 2 * K - 1);
	ck_assert_uint_eq(s.hitm, 2 * K - 1);
	ck_assert_uint_eq(s.c2c_transfers, 2 * K - 1);
	ck_assert_uint_eq(s.invalidations, 2 * K - 1);
	ck_assert_uint_eq(s.mem_reads, 1);
	ck_assert_uint_eq(s.writebacks, 0);
	ck_assert_uint_eq(ms_core_stats(ms, 0)->bounces, K - 1);
	ck_assert_uint_eq(ms_core_stats(ms, 1)->bounces, K);
	ck_assert_uint_eq(ms_peek(ms, A, 8), 2 * K - 1);
	done(ms);
}
END_TEST

/* Two cores alternate a plain `add [m]` (load, then store) for K rounds:
 * the first is a GETS (E) and a silent E->M; each of the other 2K-1 is a
 * GETS that hits M (HITM, c2c, writeback, M->S) and an UPGRADE that
 * invalidates the other S copy and bounces the line. */
START_TEST(litmus_ping_pong_load_store)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	const uint64_t K = 500;
	for (uint64_t r = 0; r < 2 * K; r++) {
		int c = (int)(r & 1);
		st(ms, c, A, ld(ms, c, A) + 1);
	}
	struct ms_stats s = tot(ms);
	ck_assert_uint_eq(s.transactions, 1 + 2 * (2 * K - 1));
	ck_assert_uint_eq(s.upgrades, 2 * K - 1);
	ck_assert_uint_eq(s.bounces, 2 * K - 1);
	ck_assert_uint_eq(s.hitm, 2 * K - 1);
	ck_assert_uint_eq(s.c2c_transfers, 2 * K - 1);
	ck_assert_uint_eq(s.writebacks, 2 * K - 1);
	ck_assert_uint_eq(s.invalidations, 2 * K - 1);
	ck_assert_uint_eq(s.mem_reads, 1);
	ck_assert_uint_eq(ms_peek(ms, A, 8), 2 * K);
	done(ms);
}
END_TEST

/* The same ping-pong with the instructions noted: every HITM is the load's
 * (its GETS finds the other's M), every bounce the store's (its UPGRADE
 * takes the line), and the line's per-instruction counts add up to its own.
 * A request made without a note is MS_NO_PC's. */
START_TEST(litmus_hitm_per_instruction)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	const uint64_t K = 100;
	for (uint64_t r = 0; r < 2 * K; r++) {
		int c = (int)(r & 1);
		ms_note_pc(ms, c, MS_WAKE_EXEC, 10);
		uint64_t v = ld(ms, c, A);
		ms_note_pc(ms, c, MS_WAKE_DRAIN, 11);
		st(ms, c, A, v + 1);
	}
	ld(ms, 0, A);  /* no note: a HITM of nobody's instruction */
	struct ms_line_info li;
	ck_assert_int_eq(ms_line_info(ms, A, &li), 1);
	ck_assert_uint_eq(li.n_pcs, 3);
	uint64_t hitm = 0, bounces = 0;
	for (uint32_t i = 0; i < li.n_pcs; i++) {
		const struct ms_pc_stats *p = &li.pcs[i];
		hitm += p->hitm;
		bounces += p->bounces;
		if (p->pc == 10) {
			ck_assert_uint_eq(p->hitm, 2 * K - 1);
			ck_assert_uint_eq(p->bounces, 0);
		} else if (p->pc == 11) {
			ck_assert_uint_eq(p->hitm, 0);
			ck_assert_uint_eq(p->bounces, 2 * K - 1);
		} else {
			ck_assert_uint_eq(p->pc, MS_NO_PC);
			ck_assert_uint_eq(p->hitm, 1);
		}
	}
	ck_assert_uint_eq(hitm, li.stats.hitm);
	ck_assert_uint_eq(bounces, li.stats.bounces);
	done(ms);
}
END_TEST

/* Different words of one line bounce exactly like one variable, and the
 * shared-line detail shows one writer per offset (false sharing). */
START_TEST(litmus_false_sharing)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_MESI);
	const uint64_t K = 1000;
	for (uint64_t r = 0; r < K; r++) {
		st(ms, 0, A, r);
		st(ms, 1, A + 8, r);
	}
	struct ms_stats s = tot(ms);
	ck_assert_uint_eq(s.bounces, 2 * K - 1);
	ck_assert_uint_eq(s.hitm, 2 * K - 1);
	ck_assert_uint_eq(s.invalidations, 2 * K - 1);
	const struct ms_line_info *hot;
	size_t n = ms_hot_lines(ms, &hot);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(hot[0].line, A);
	ck_assert_uint_eq(hot[0].stats.bounces, 2 * K - 1);
	ck_assert_uint_eq(hot[0].n_offsets, 2);
	ck_assert_uint_eq(hot[0].offsets[0].offset, 0);
	ck_assert_uint_eq(hot[0].offsets[1].offset, 8);
	ck_assert_uint_eq(hot[0].offsets[0].writers[0], 1u << 0);
	ck_assert_uint_eq(hot[0].offsets[1].writers[0], 1u << 1);
	ck_assert_uint_eq(hot[0].offsets[0].size, 8);
	/* detail starts at the first bounce: core 1's first store onward */
	ck_assert_uint_eq(hot[0].offsets[0].writes, K - 1);
	ck_assert_uint_eq(hot[0].offsets[1].writes, K);
	ck_assert_uint_eq(hot[0].offsets[1].hitm, K);
	done(ms);
}
END_TEST

/* Locked RMWs ping-ponging on one counter: the offset table shows the
 * counter's own offset (not offset 0), its writers and its HITMs. */
START_TEST(litmus_locked_rmw_offsets)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_MESI);
	const uint64_t K = 100;
	uint64_t now = 0;
	for (uint64_t r = 0; r < 2 * K; r++) {
		int c = (int)(r & 1) * 4;   /* cores 0 and 4: different sockets */
		uint64_t v;
		now = ms_rmw_begin(ms, c, now, A + 16);
		ck_assert_int_eq(ms_try_load(ms, c, A + 16, 4, &v), 1);
		ck_assert_int_eq(ms_try_store(ms, c, A + 16, 4, v + 1), 1);
		ms_rmw_end(ms, c, A + 16, now + 20);
	}
	ck_assert_uint_eq(ms_peek(ms, A + 16, 4), 2 * K);
	struct ms_line_info li;
	ck_assert_int_eq(ms_line_info(ms, A + 20, &li), 1);
	ck_assert_uint_eq(li.line, A);
	ck_assert_uint_eq(li.stats.rmws, 2 * K);
	ck_assert_uint_eq(li.stats.bounces, 2 * K - 1);
	ck_assert_uint_eq(li.stats.hitm_remote, 2 * K - 1);
	ck_assert_uint_eq(li.n_offsets, 1);
	ck_assert_uint_eq(li.offsets[0].offset, 16);
	ck_assert_uint_eq(li.offsets[0].size, 4);
	ck_assert_uint_eq(li.offsets[0].hitm, 2 * K - 1);
	ck_assert_uint_eq(li.offsets[0].hitm_remote, 2 * K - 1);
	ck_assert_uint_eq(li.offsets[0].writers[0], (1u << 0) | (1u << 4));
	ck_assert_uint_eq(li.offsets[0].readers[0], (1u << 0) | (1u << 4));
	done(ms);
}
END_TEST

START_TEST(litmus_different_lines_never_bounce)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_MESI);
	for (uint64_t r = 0; r < 1000; r++) {
		st(ms, 0, A, r);
		st(ms, 1, A + 64, r);
	}
	struct ms_stats s = tot(ms);
	ck_assert_uint_eq(s.transactions, 2);
	ck_assert_uint_eq(s.mem_reads, 2);
	ck_assert_uint_eq(s.bounces + s.hitm + s.invalidations + s.c2c_transfers, 0);
	const struct ms_line_info *hot;
	ck_assert_uint_eq(ms_hot_lines(ms, &hot), 0);
	done(ms);
}
END_TEST

/* ---------- timing ---------- */

/* Default model: 8 cores, 4 per socket; mem 200/300, c2c 60/120, bus 8,
 * L1 hit 4; line L's home is socket L % 2. So a leg inside a socket is
 * 60/3 = 20 cycles and one across is 20 + (120-60)/2 = 50; a request is
 * ordered at the innermost domain holding it and the line's copies (else
 * at the home socket); behind an exclusive request it is forwarded to that
 * request's requester on arrival and handled there after that one's fill;
 * uncontended memory costs 200/300 from issue. */
START_TEST(timing_directory_parallel_lines_fifo_per_line)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_MESI);
	ck_assert_uint_eq(ms_store(ms, 0, 0, 0, 8, 1), 200);      /* line 0, home 0 */
	ck_assert_uint_eq(ms_store(ms, 1, 0, 128, 8, 1), 200);    /* line 2: in parallel */
	/* at the agent at 20 behind core 0's GETM: forwarded, at core 0 at 40,
	 * handled the cycle after core 0's fill (200) let it store: 201; the
	 * data takes a leg: 221 */
	ck_assert_uint_eq(ms_store(ms, 2, 0, 0, 8, 2), 221);
	/* core 4 on socket 1: ordered at the home socket 0, there at 60,
	 * forwarded to core 2 (80), handled after core 2's fill at 222, the
	 * data crosses the link: 272 */
	ck_assert_uint_eq(ms_store(ms, 4, 10, 0, 8, 3), 272);
	uint64_t v;
	ck_assert_uint_eq(ms_load(ms, 5, 0, 64, 8, &v), 200);     /* line 1, home 1 = socket of core 5 */
	ck_assert_uint_eq(ms_load(ms, 0, 0, 192, 8, &v), 300);    /* line 3, home 1: remote memory */
	ck_assert_uint_eq(ms_load(ms, 0, 1000, 192, 8, &v), 1004); /* hit */
	ms_set_home(ms, 256, 64, 0);                              /* line 4 now homed on socket 0 */
	ck_assert_uint_eq(ms_load(ms, 5, 0, 256, 8, &v), 300);
	done(ms);
}
END_TEST

START_TEST(timing_bus_serializes_everything)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	ck_assert_uint_eq(ms_store(ms, 0, 0, 0, 8, 1), 200);
	ck_assert_uint_eq(ms_store(ms, 1, 0, 128, 8, 1), 8 + 200);
	ck_assert_uint_eq(ms_store(ms, 2, 0, 256, 8, 1), 16 + 200);
	ck_assert_uint_eq(ms_store(ms, 3, 100, 384, 8, 1), 100 + 200); /* bus free again */
	done(ms);
}
END_TEST

START_TEST(timing_locked_rmw_holds_the_line)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_MESI);
	ck_assert_uint_eq(ms_rmw_begin(ms, 0, 0, A), 200);
	ck_assert_int_eq(S_(0), MS_M);
	ck_assert_int_eq(ms_can_write(ms, 0, A), 1);
	uint64_t v;
	ck_assert_int_eq(ms_try_load(ms, 0, A, 8, &v), 1);
	ck_assert_int_eq(ms_try_store(ms, 0, A, 8, v + 1), 1);
	ms_rmw_end(ms, 0, A, 500);
	/* the snoop reaches core 0 at 340, waits for the lock until 500,
	 * and the data takes one leg: 520 */
	ck_assert_uint_eq(ms_store(ms, 1, 300, A, 8, 5), 520);
	ck_assert_uint_eq(ms_store(ms, 2, 300, A + 128, 8, 5), 300 + 200); /* other line unaffected */
	ck_assert_uint_eq(ms_core_stats(ms, 0)->rmws, 1);
	done(ms);
}
END_TEST

/* A line owned Modified by one CPU and written by another, with nothing
 * else in flight, moves in a cold transfer: three legs (request, forward,
 * data), each half the ping-pong figure of the closest level the two share
 * inside a socket, so one and a half times that figure; across sockets the
 * link (hop latency - socket latency) on each leg that crosses. */
static uint64_t move_cost(struct memsys *ms, int from, int to, uint64_t *t)
{
	ck_assert_uint_eq(ms_store(ms, from, *t, A, 8, 1) > *t, 1);
	*t += 10000;
	uint64_t done = ms_store(ms, to, *t, A, 8, 2);
	uint64_t cost = done - *t;
	*t += 10000;
	return cost;
}

/* Two sockets of two clusters of two SMT cores (16 CPUs, smt-last), with
 * ping-pong transfer latencies 4 / 20 / 60 inside a socket and 165 across:
 * legs of 2 / 10 / 30, and 30 + 135 across. */
static struct memsys *mk_levels(struct cpu_model *m)
{
	cpu_model_default(m);
	m->fabric = FABRIC_DIRECTORY;
	m->cores = 16;
	m->topology.sockets = 2;
	m->topology.cores_per_socket = 4;
	m->topology.cores_per_cluster = 2;
	m->topology.threads_per_core = 2;
	m->topology.c2c[TOPO_SMT] = 4;
	m->topology.c2c[TOPO_CLUSTER] = 20;
	m->topology.c2c[TOPO_SOCKET] = 60;
	m->topology.hops[0][1] = m->topology.hops[1][0] = 1;
	m->topology.c2c_hop[1] = 165;
	struct err e = {0};
	struct memsys *ms = ms_create(m, MEM, &e);
	ck_assert_msg(ms != NULL, "%s", e.msg);
	ms_set_checking(ms, 1);
	return ms;
}

START_TEST(timing_topology_levels)
{
	struct cpu_model m;
	struct err e = {0};
	struct memsys *ms = mk_levels(&m);
	uint64_t t = 0;
	/* smt-last numbering: CPU 8 is CPU 0's sibling, CPU 1 shares its
	 * cluster, CPU 2 only its socket, CPU 4 is on socket 1. Across, the
	 * home is on one side: the forward and the data cross (30 + 2 x 135). */
	ck_assert_uint_eq(move_cost(ms, 0, 8, &t), 6);
	ck_assert_uint_eq(move_cost(ms, 0, 1, &t), 30);
	ck_assert_uint_eq(move_cost(ms, 0, 2, &t), 90);
	ck_assert_uint_eq(move_cost(ms, 0, 4, &t), 300);
	ck_assert_uint_eq(move_cost(ms, 4, 0, &t), 300);
	done(ms);

	/* Eight sockets, 1 or 2 hops apart: sockets 0 and 5 are 2 hops. */
	cpu_model_default(&m);
	m.fabric = FABRIC_DIRECTORY;
	m.cores = 16;
	m.topology.sockets = 8;
	m.topology.cores_per_socket = 2;
	m.topology.cores_per_cluster = 2;
	m.topology.threads_per_core = 1;
	m.topology.c2c[TOPO_SOCKET] = 85;
	m.topology.c2c_hop[1] = 298;
	m.topology.c2c_hop[2] = 692;
	static const uint8_t hops[8][8] = {
		{0, 1, 2, 1, 1, 2, 2, 2}, {1, 0, 1, 2, 2, 1, 2, 2}, {2, 1, 0, 1, 2, 2, 1, 2},
		{1, 2, 1, 0, 2, 2, 2, 1}, {1, 2, 2, 2, 0, 2, 1, 1}, {2, 1, 2, 2, 2, 0, 1, 1},
		{2, 2, 1, 2, 1, 1, 0, 2}, {2, 2, 2, 1, 1, 1, 2, 0}};
	for (int s = 0; s < 8; s++)
		memcpy(m.topology.hops[s], hops[s], 8);
	ms = ms_create(&m, MEM, &e);
	ck_assert_msg(ms != NULL, "%s", e.msg);
	ms_set_checking(ms, 1);
	ms_set_home(ms, A, 64, 0);
	t = 0;
	/* Legs are whole cycles: 85 / 2 -> 43 in a socket; links of
	 * 298 - 85 = 213 (1 hop) and 692 - 85 = 607 (2 hops). Home socket 0:
	 * the request from socket 1 or 5 and the data cross, the forward not. */
	ck_assert_uint_eq(move_cost(ms, 0, 1, &t), 3 * 43);
	ck_assert_uint_eq(move_cost(ms, 0, 2, &t), 43 + 2 * (43 + 213));   /* socket 1: 1 hop */
	ck_assert_uint_eq(move_cost(ms, 0, 10, &t), 43 + 2 * (43 + 607));  /* socket 5: 2 hops */
	/* Home on a third socket: the request and the snoop cross links too. */
	ms_set_home(ms, A, 64, 1);
	uint64_t three = move_cost(ms, 0, 10, &t);
	/* R to home 1 hop, home to owner (socket 0) 1 hop, data 2 hops */
	ck_assert_uint_eq(three, (43 + 213) + (43 + 213) + (43 + 607));
	done(ms);
}
END_TEST

/* Fill times of a driven fabric, by core. */
static uint64_t woken_at[16];
static void record_wake(void *ctx, int core, int what, uint64_t t)
{
	(void)ctx;
	(void)what;
	woken_at[core] = t;
}

/* Every message until the fabric is idle. */
static void drain(struct memsys *ms)
{
	while (ms_next_event(ms) != UINT64_MAX)
		ck_assert_int_eq(ms_step(ms), 1);
}

/* Core 0 holds A in M (home socket 0), the fabric idle; from now on the
 * fills are recorded in woken_at. */
static void owned_by_core0(struct memsys *ms)
{
	ms_set_home(ms, A, 64, 0);
	ck_assert_uint_eq(ms_store(ms, 0, 0, A, 8, 1) > 0, 1);
	drain(ms);
	ms_set_waker(ms, record_wake, NULL);
	memset(woken_at, 0, sizeof woken_at);
}

/* Core stores v to A at cycle `at`, once the messages before it are handled. */
static void store_at(struct memsys *ms, int core, uint64_t at, uint64_t v)
{
	while (ms_next_event(ms) < at)
		ck_assert_int_eq(ms_step(ms), 1);
	ck_assert_uint_eq(ms_store(ms, core, at, A, 8, v), MS_PENDING);
}

/* Core 0 holding A, cores c[k] store to it at at[k]: each one's data
 * arrives at fill[k], and c[2], last in the chain, ends with A in M. */
struct three_stores {
	int c[3];
	uint64_t at[3], fill[3];
};

static void check_three_stores(struct memsys *ms, const struct three_stores *t)
{
	for (int k = 0; k < 3; k++)
		store_at(ms, t->c[k], t->at[k], (uint64_t)k + 2);
	drain(ms);
	for (int k = 0; k < 3; k++)
		ck_assert_msg(woken_at[t->c[k]] == t->fill[k], "core %d: data at %llu, expected %llu",
			      t->c[k], (unsigned long long)woken_at[t->c[k]], (unsigned long long)t->fill[k]);
	ck_assert_int_eq(ms_state_of(ms, t->c[2], A), MS_M);
}

START_TEST(timing_agent_follows_a_line_in_flight)
{
	/* SMT siblings 0 and 8 (c2c 4: legs of 2), socket legs of 30. Core 8
	 * takes A from core 0 at 1000: served 1002, snoop at core 0 1004,
	 * data at core 8 1006. Core 0 wants A back at 1005, while it is on its
	 * way to core 8: no core holds it, but it stays inside the core, and
	 * so does core 0's request: at the agent 1007, forwarded to core 8
	 * (1009), data 1011. Ordered at the home socket instead, it would
	 * arrive at 1035 and take until 1067. */
	struct cpu_model m;
	struct memsys *ms = mk_levels(&m);
	owned_by_core0(ms);
	store_at(ms, 8, 1000, 2);
	store_at(ms, 0, 1005, 3);
	drain(ms);
	ck_assert_uint_eq(woken_at[8], 1006);
	ck_assert_uint_eq(woken_at[0], 1011);
	done(ms);
}
END_TEST

/* Forwarding on the default model (legs of 20 inside a socket). Cores 0,
 * 1 and 2 of socket 0 store, store and load A at cycle 0, all at the agent
 * at 20 in issue order. Core 0's GETM fetches from memory: data at 200.
 * Core 1's is forwarded to core 0 on arrival, reaches it at 40 and waits
 * for its fill; it is handled the cycle after (201), data at 221. Core 2's
 * GETS is forwarded to core 1 the same way: 222, data at 242. Core 3's
 * store waits behind the read (the agent does not know which copies a
 * read leaves): served at core 2's unblock, 262, its invalidations reach
 * cores 1 and 2 at 282. Two bounces (0 to 1, 1 to 3): a read does not
 * take ownership. */
START_TEST(timing_forwarding_chain)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_MESI);
	ms_set_home(ms, A, 64, 0);
	ms_set_waker(ms, record_wake, NULL);
	memset(woken_at, 0, sizeof woken_at);
	uint64_t v;
	ck_assert_uint_eq(ms_store(ms, 0, 0, A, 8, 1), MS_PENDING);
	ck_assert_uint_eq(ms_store(ms, 1, 0, A, 8, 2), MS_PENDING);
	ck_assert_uint_eq(ms_load(ms, 2, 0, A, 8, &v), MS_PENDING);
	ck_assert_uint_eq(ms_store(ms, 3, 0, A, 8, 3), MS_PENDING);
	while (ms_next_event(ms) < 282)
		ck_assert_int_eq(ms_step(ms), 1);
	ck_assert_uint_eq(woken_at[0], 200);
	ck_assert_uint_eq(woken_at[1], 221);
	ck_assert_uint_eq(woken_at[2], 242);
	ck_assert_uint_eq(woken_at[3], 0);
	ck_assert_int_eq(ms_state_of(ms, 1, A), MS_S);
	ck_assert_int_eq(ms_state_of(ms, 2, A), MS_S);
	ck_assert_uint_eq(ms_next_event(ms), 282);
	ck_assert_int_eq(ms_step(ms), 1);
	ck_assert_int_eq(ms_state_of(ms, 1, A), MS_I);
	ck_assert_int_eq(ms_state_of(ms, 2, A), MS_I);
	while (ms_next_event(ms) != UINT64_MAX)
		ck_assert_int_eq(ms_step(ms), 1);
	ck_assert_int_eq(ms_state_of(ms, 3, A), MS_M);
	/* MESI's S copies do not supply: memory does, once core 1's
	 * writeback (M to S at 222) has landed, 222 + 180 = 402, and its data
	 * takes the rest of memory's 200 cycles: 582. */
	ck_assert_uint_eq(woken_at[3], 582);
	struct ms_stats s = tot(ms);
	ck_assert_uint_eq(s.bounces, 2);      /* 0 -> 1, 1 -> 3 */
	ck_assert_uint_eq(s.c2c_transfers, 2);
	done(ms);
}
END_TEST

/* Merging at the shared cache, on the default model (two sockets of four
 * cores, legs of 20 inside a socket and 50 across, A's home socket 0).
 * Core 0 holds A in M. Core 4 (socket 1) stores at 1000: its GETM is
 * ordered at the home, where it arrives at 1050. Core 5, of the same
 * socket, stores at 1010, while core 4's request is on its way: it waits
 * at socket 1's cache behind it. Core 1 (socket 0) stores at 1035 and
 * reaches the agent at 1055. Core 4's GETM is served at 1050; its snoop
 * takes core 0's copy at 1070, the data reaches core 4 at 1120. Core 5's
 * merged request comes next, inside socket 1: handled at core 4 the cycle
 * after its fill, data at core 5 at 1141. Core 1's is forwarded to core 5
 * and waits there for that fill: 1142, data 1192. Two transfers cross the
 * link instead of three (ordered at the home, core 1 would come before
 * core 5, and the line would cross back and forth). */
START_TEST(timing_merged_at_the_shared_cache)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_MESI);
	owned_by_core0(ms);
	struct ms_stats before = tot(ms);
	check_three_stores(ms, &(struct three_stores){{4, 5, 1}, {1000, 1010, 1035}, {1120, 1141, 1192}});
	struct ms_stats s = tot(ms);
	ck_assert_uint_eq(s.bounces - before.bounces, 3);          /* 0 -> 4 -> 5 -> 1 */
	ck_assert_uint_eq(s.hitm_remote - before.hitm_remote, 2);  /* 0 -> 4, 5 -> 1 */
	ck_assert_uint_eq(s.hitm - before.hitm, 3);
	done(ms);
}
END_TEST

/* The same at a cluster's shared cache (mk_levels: clusters of cores 0-1
 * and 2-3 in socket 0; legs 10 inside a cluster, 30 across the socket).
 * Core 0 holds A. Core 2 stores at 1000: ordered at the socket, there at
 * 1030; snoop at core 0 1060, data at core 2 1090. Core 3, of core 2's
 * cluster, stores at 1020 and waits at the cluster's cache; core 1, in
 * core 0's cluster, stores at 1025 and reaches its agent at 1035, before
 * core 3's request would have reached the socket's (1050). Merged, core 3
 * comes first: 1091 + 10 = 1101, then core 1: 1102 + 30 = 1132 (ordered
 * at the socket, core 1 would get A at 1121 and core 3 at 1152). */
START_TEST(timing_merged_at_the_cluster_cache)
{
	struct cpu_model m;
	struct memsys *ms = mk_levels(&m);
	owned_by_core0(ms);
	check_three_stores(ms, &(struct three_stores){{2, 3, 1}, {1000, 1020, 1025}, {1090, 1101, 1132}});
	done(ms);
}
END_TEST

/* Core 0 evicts A (dirty or clean) by loading the rest of its set; core 1,
 * on the same socket as A's home, then reads A: the cycles its miss took. */
static uint64_t read_after_eviction(int dirty)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_MESI);
	ms_set_home(ms, A, 64, 0);
	uint64_t t = 0, v = 0;
	t = dirty ? ms_store(ms, 0, t, A, 8, 5) : ms_load(ms, 0, t, A, 8, &v);
	for (int k = 1; k <= 8; k++)
		t = ms_load(ms, 0, t, A + (uint64_t)k * 4096, 8, &v);
	ck_assert_int_eq(ms_state_of(ms, 0, A), MS_I);
	uint64_t done_at = ms_load(ms, 1, t, A, 8, &v);
	ck_assert_uint_eq(v, dirty ? 5 : 0);
	done(ms);
	return done_at - t;
}

START_TEST(timing_writeback_delays_memory_reads)
{
	/* Test model: memory 200 cycles, socket legs 60 / 3 = 20. A clean
	 * eviction is silent: the read costs memory's 200. The dirty data
	 * lands at memory 200 - 20 = 180 cycles after the eviction, and the
	 * read, waiting at the home for it, goes on from there: 180 + 180. */
	ck_assert_uint_eq(read_after_eviction(0), 200);
	ck_assert_uint_eq(read_after_eviction(1), 360);
}
END_TEST

START_TEST(timing_upgrade_and_llc)
{
	struct cpu_model m;
	cpu_model_default(&m);
	m.fabric = FABRIC_DIRECTORY;
	m.llc_size = 1 << 20;
	struct err e = {0};
	struct memsys *ms = ms_create(&m, MEM, &e);
	ck_assert_ptr_nonnull(ms);
	ms_set_checking(ms, 1);
	uint64_t v;
	ck_assert_uint_eq(ms_load(ms, 0, 0, A, 8, &v), 200);
	/* socket 0's LLC has it (data at 220 + 40 - 20 = 240), but core 0's
	 * E copy must answer the snoop first: 240 + 20 */
	ck_assert_uint_eq(ms_load(ms, 1, 0, A, 8, &v), 260);
	ck_assert_uint_eq(ms_store(ms, 1, 1000, A, 8, 1), 1060); /* UPGRADE: snoop 1040, ack 1060 */
	ck_assert_uint_eq(ms_load(ms, 4, 0, A + 64, 8, &v), 200); /* line 0x41: home 1 */
	/* Ordered at home socket 1 (arrives at 50), served at core 4's
	 * unblock (220); socket 0's LLC lacks it: remote memory, 300 - 50
	 * after serving: 470 (core 4's ack came at 290) */
	ck_assert_uint_eq(ms_load(ms, 0, 0, A + 64, 8, &v), 470);
	struct ms_stats s = tot(ms);
	ck_assert_uint_eq(s.llc_hits, 1);
	ck_assert_uint_eq(s.mem_reads, 3);
	done(ms);
}
END_TEST

/* ---------- MESIF and MOESI ---------- */

START_TEST(mesif_forwarder)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_MESIF);
	ld(ms, 0, A);
	ck_assert_int_eq(S_(0), MS_E);
	struct ms_stats before = tot(ms);
	ld(ms, 1, A);                       /* E forwards, newest reader takes F */
	ck_assert_int_eq(S_(0), MS_S);
	ck_assert_int_eq(S_(1), MS_F);
	ck_assert_uint_eq(D(c2c_transfers), 1);
	ck_assert_uint_eq(D(mem_reads), 0);
	ld(ms, 2, A);
	ck_assert_int_eq(S_(1), MS_S);
	ck_assert_int_eq(S_(2), MS_F);
	ck_assert_uint_eq(D(c2c_transfers), 2);
	ck_assert_uint_eq(D(hitm), 0);
	st(ms, 0, A, 1);                    /* S -> UPGRADE invalidates S and F */
	ck_assert_uint_eq(D(invalidations), 2);
	ck_assert_int_eq(S_(0), MS_M);
	done(ms);
}
END_TEST

/* MSI: a read alone takes S, not E, so a read then a write of a private
 * line costs two transactions (MESI's silent E->M saves the second), and
 * the S copy owns nothing: the UPGRADE, its first write ownership, is no
 * bounce. */
START_TEST(msi_no_exclusive)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_MSI);
	ld(ms, 0, A);
	ck_assert_int_eq(S_(0), MS_S);
	st(ms, 0, A, 5);
	ck_assert_int_eq(S_(0), MS_M);
	struct ms_stats s = tot(ms);
	ck_assert_uint_eq(s.transactions, 2);
	ck_assert_uint_eq(s.upgrades, 1);
	ck_assert_uint_eq(s.bounces, 0);
	ck_assert_uint_eq(ms_l1_exclusive(ms, 0, A), 1);
	ck_assert_uint_eq(ld(ms, 1, A), 5);   /* M supplies and writes back: both S */
	ck_assert_int_eq(S_(0), MS_S);
	ck_assert_int_eq(S_(1), MS_S);
	ck_assert_uint_eq(ms_l1_exclusive(ms, 0, A), 0);
	ck_assert_uint_eq(tot(ms).writebacks, 1);
	done(ms);
}
END_TEST

/* Dragon, two cores alternating a plain `add [m]` (load, then store) for
 * K rounds, 2K adds: the first is a GETS alone (E, from memory) and a
 * silent E->M; the second reader's GETS finds M (HITM, c2c: M->Sm, the
 * reader Sc); from then on every load hits, since nothing is invalidated,
 * and each of the 2K-1 stores is one UPDATE whose word the other copy
 * takes, moving ownership (Sm) to the writer: a bounce. */
START_TEST(dragon_ping_pong_add)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_DRAGON);
	const uint64_t K = 500;
	for (uint64_t r = 0; r < 2 * K; r++) {
		int c = (int)(r & 1);
		st(ms, c, A, ld(ms, c, A) + 1);
	}
	struct ms_stats s = tot(ms);
	ck_assert_uint_eq(s.transactions, 2 + (2 * K - 1));
	ck_assert_uint_eq(s.gets, 2);
	ck_assert_uint_eq(s.updates_sent, 2 * K - 1);
	ck_assert_uint_eq(s.updates_received, 2 * K - 1);
	ck_assert_uint_eq(s.bounces, 2 * K - 1);
	ck_assert_uint_eq(s.invalidations, 0);
	ck_assert_uint_eq(s.hitm, 1);
	ck_assert_uint_eq(s.c2c_transfers, 1);
	ck_assert_uint_eq(s.mem_reads, 1);
	ck_assert_uint_eq(s.writebacks, 0);
	ck_assert_uint_eq(s.l1_hits, 2 * K - 1);        /* the loads after each core's first; E->M */
	ck_assert_uint_eq(ms_core_stats(ms, 0)->updates_sent, K - 1);
	ck_assert_uint_eq(ms_core_stats(ms, 1)->updates_sent, K);
	ck_assert_int_eq(S_(1), MS_O);                    /* the last writer: Sm */
	ck_assert_int_eq(S_(0), MS_S);                    /* Sc, holding its store */
	ck_assert_uint_eq(ld(ms, 0, A), 2 * K);
	ck_assert_uint_eq(ms_peek(ms, A, 8), 2 * K);
	ck_assert_uint_eq(ms_memory_byte(ms, A), 0);      /* never written back: Sm is dirty */
	done(ms);
}
END_TEST

/* Dragon, two cores alternating locked increments (lock inc) for K rounds:
 * the first is a write miss alone (M); the second a write miss that finds
 * M (HITM, c2c), leaves it Sc and is granted Su, whose RMW keeps the grant
 * until its own store goes to the other copy; each of the other 2K-2 is an
 * UPDATE. So every RMW but the first sends one update, and bounces. */
START_TEST(dragon_locked_increments)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_DRAGON);
	const uint64_t K = 200;
	uint64_t now = 0;
	for (uint64_t r = 0; r < 2 * K; r++) {
		int c = (int)(r & 1);
		uint64_t v;
		now = ms_rmw_begin(ms, c, now, A);
		ck_assert_int_eq(ms_rmw_load(ms, c, A, 8, &v), 1);
		ck_assert_int_eq(ms_rmw_finish(ms, c, A, 8, v + 1, now + 20), 1);
		now += 20;
	}
	struct ms_stats s = tot(ms);
	ck_assert_uint_eq(s.transactions, 2 * K);
	ck_assert_uint_eq(s.getm, 2);
	ck_assert_uint_eq(s.updates_sent, 2 * K - 1);
	ck_assert_uint_eq(s.updates_received, 2 * K - 1);
	ck_assert_uint_eq(s.bounces, 2 * K - 1);
	ck_assert_uint_eq(s.invalidations, 0);
	ck_assert_uint_eq(s.hitm, 1);
	ck_assert_uint_eq(ld(ms, 0, A), 2 * K);
	ck_assert_uint_eq(ld(ms, 1, A), 2 * K);
	done(ms);
}
END_TEST

/* Dragon's shared wire: a write miss beside two clean copies updates both
 * (memory supplies the line: no copy is dirty); an Sm whose sharers have
 * left becomes M at its next write (an UPDATE that reaches nobody, no
 * update sent); M and Sm write back when evicted, Sc does not. */
START_TEST(dragon_shared_wire)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_DRAGON);
	ld(ms, 0, A);
	ld(ms, 1, A);
	ck_assert_int_eq(S_(0), MS_S);
	ck_assert_int_eq(S_(1), MS_S);
	struct ms_stats before = tot(ms);
	st(ms, 2, A, 7);
	ck_assert_int_eq(S_(2), MS_O);
	ck_assert_uint_eq(D(updates_sent), 1);
	ck_assert_uint_eq(D(updates_received), 2);
	ck_assert_uint_eq(D(mem_reads), 1);
	ck_assert_uint_eq(D(c2c_transfers), 0);
	ck_assert_uint_eq(ld(ms, 0, A), 7);
	ck_assert_uint_eq(ld(ms, 1, A), 7);
	evict_line(ms, 0, A);
	evict_line(ms, 1, A);
	ck_assert_uint_eq(D(writebacks), 0);
	before = tot(ms);
	st(ms, 2, A, 8);                        /* nobody left to update */
	ck_assert_int_eq(S_(2), MS_M);
	ck_assert_uint_eq(D(updates_sent), 0);
	ck_assert_uint_eq(D(transactions), 1);
	st(ms, 2, A, 9);                        /* M writes silently */
	ck_assert_uint_eq(D(transactions), 1);
	evict_line(ms, 2, A);
	ck_assert_uint_eq(D(writebacks), 1);
	ck_assert_uint_eq(ms_memory_byte(ms, A), 9);
	done(ms);
}
END_TEST

START_TEST(moesi_owned)
{
	struct memsys *ms = mk(8, FABRIC_DIRECTORY, PROTO_MOESI);
	st(ms, 0, A, 11);
	struct ms_stats before = tot(ms);
	ck_assert_uint_eq(ld(ms, 1, A), 11);
	ck_assert_int_eq(S_(0), MS_O);
	ck_assert_int_eq(S_(1), MS_S);
	ck_assert_uint_eq(D(writebacks), 0);   /* dirty sharing */
	ck_assert_uint_eq(D(hitm), 1);
	ck_assert_uint_eq(ms_memory_byte(ms, A), 0);
	ck_assert_uint_eq(ld(ms, 2, A), 11);   /* O supplies again */
	ck_assert_uint_eq(D(hitm), 2);
	ck_assert_uint_eq(D(c2c_transfers), 2);
	evict_line(ms, 0, A);                  /* O writes back on eviction */
	ck_assert_uint_eq(D(writebacks), 1);
	ck_assert_uint_eq(ms_memory_byte(ms, A), 11);
	st(ms, 1, A, 12);                      /* S -> UPGRADE */
	ck_assert_int_eq(S_(2), MS_I);
	done(ms);
}
END_TEST

START_TEST(moesi_owner_upgrades)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MOESI);
	st(ms, 0, A, 11);
	ld(ms, 1, A);
	struct ms_stats before = tot(ms);
	st(ms, 0, A, 12);                      /* O -> M, invalidating S */
	ck_assert_int_eq(S_(0), MS_M);
	ck_assert_int_eq(S_(1), MS_I);
	ck_assert_uint_eq(D(upgrades), 1);
	ck_assert_uint_eq(D(bounces), 0);
	ld(ms, 1, A);
	st(ms, 1, A, 13);                      /* S -> M: the O copy goes, no writeback */
	ck_assert_int_eq(S_(0), MS_I);
	ck_assert_uint_eq(D(writebacks), 0);
	ck_assert_uint_eq(ms_peek(ms, A, 8), 13);
	done(ms);
}
END_TEST

/* ---------- errors and the checker ---------- */

/* The L1s' pool: 4 sets of 2 ways of 64-byte lines a cache, three caches.
 * Each array holds set 0 of every cache, then set 1 of every cache: a way
 * index is set * 6 + way, and cache i's ways of a set follow cache i-1's. */
START_TEST(cache_pool_set_by_set)
{
	struct err e = {0};
	enum { N = 3, SIZE = 512, ASSOC = 2, LS = 64, WAYS = 4 * ASSOC * N };
	size_t bytes = cache_pool_bytes(SIZE, ASSOC, LS, 1, N);
	/* tags and LRU stamps 192 bytes each, data 1536, states 24 -> 64 */
	ck_assert_uint_eq(bytes, 8 * WAYS + 8 * WAYS + LS * WAYS + 64);
	uint8_t *mem = aligned_alloc(64, bytes);
	ck_assert_ptr_nonnull(mem);
	memset(mem, 0, bytes);
	struct cache c[N];
	for (uint32_t i = 0; i < N; i++) {
		ck_assert_int_eq(cache_init_pooled(&c[i], SIZE, ASSOC, LS, 1, mem, N, i, &e), 0);
		ck_assert_uint_eq(c[i].set_stride, N * ASSOC);
	}
	/* line 5 lies in set 1: cache 1's first way there is index 6, the
	 * pool's way 8 (after cache 0's 6 and 7) */
	int w = cache_victim(&c[1], 5);
	ck_assert_int_eq(w, 6);
	cache_fill(&c[1], w, 5, 3);
	ck_assert_int_eq(cache_lookup(&c[1], 5), 6);
	ck_assert_int_eq(cache_lookup(&c[0], 5), -1);
	ck_assert_int_eq(cache_lookup(&c[2], 5), -1);
	ck_assert_ptr_eq(&c[1].tag[6], (uint64_t *)(void *)mem + 8);
	ck_assert_ptr_eq(&c[1].lru[6], (uint64_t *)(void *)mem + WAYS + 8);
	ck_assert_ptr_eq(cache_data(&c[1], 6), mem + 16 * WAYS + 8 * LS);
	ck_assert_ptr_eq(&c[1].state[6], mem + 16 * WAYS + LS * WAYS + 8);
	ck_assert_uint_eq(c[1].state[6], 3);
	/* the set's other way next, then the least recently used (line 5) */
	ck_assert_int_eq(cache_victim(&c[1], 9), 7);
	cache_fill(&c[1], 7, 9, 1);
	ck_assert_int_eq(cache_victim(&c[1], 13), 6);
	memset(mem, 0, bytes);
	for (uint32_t i = 0; i < N; i++)
		c[i].clock = 0;
	/* every way of every cache full, each with its own data: nothing
	 * overlaps, and each cache finds exactly its own lines */
	for (uint32_t i = 0; i < N; i++)
		for (uint64_t line = 0; line < 8; line++) {
			uint64_t l = 100 * i + line;
			int v = cache_victim(&c[i], l);
			ck_assert(!cache_valid(&c[i], v));
			cache_fill(&c[i], v, l, 1);
			memset(cache_data(&c[i], v), (int)(l & 0xff), LS);
			ck_assert_uint_eq((uintptr_t)cache_data(&c[i], v) % 64, 0);
		}
	for (uint32_t i = 0; i < N; i++)
		for (uint32_t j = 0; j < N; j++)
			for (uint64_t line = 0; line < 8; line++) {
				int v = cache_lookup(&c[i], 100 * j + line);
				if (i != j) {
					ck_assert_int_eq(v, -1);
					continue;
				}
				ck_assert_int_ge(v, 0);
				const uint8_t *d = cache_data(&c[i], v);
				for (int b = 0; b < LS; b++)
					ck_assert_uint_eq(d[b], (100 * i + line) & 0xff);
			}
	/* a cache alone is a pool of one */
	struct cache a;
	ck_assert_int_eq(cache_init(&a, SIZE, ASSOC, LS, 1, &e), 0);
	ck_assert_uint_eq(a.set_stride, ASSOC);
	ck_assert_int_eq(cache_victim(&a, 5), 2);
	cache_free(&a);
	/* an impossible geometry: no bytes, and init says why */
	ck_assert_uint_eq(cache_pool_bytes(96, 2, 64, 1, N), 0);
	ck_assert_int_eq(cache_init_pooled(&a, 96, 2, 64, 1, NULL, N, 0, &e), -1);
	ck_assert(err_is_set(&e));
	free(mem);
}
END_TEST

START_TEST(bad_cpu_models_rejected)
{
	struct cpu_model m;
	struct err e;
	cpu_model_default(&m);
	m.cores = 0;
	memset(&e, 0, sizeof e);
	ck_assert_ptr_null(ms_create(&m, MEM, &e));
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_msg(strstr(e.msg, "cores") != NULL, "%s", e.msg);

	cpu_model_default(&m);
	m.line_size = 48;
	memset(&e, 0, sizeof e);
	ck_assert_ptr_null(ms_create(&m, MEM, &e));
	ck_assert_msg(strstr(e.msg, "line_size") && strstr(e.msg, "power of two"), "%s", e.msg);

	cpu_model_default(&m);
	m.cores = 100000;
	memset(&e, 0, sizeof e);
	ck_assert_ptr_null(ms_create(&m, MEM, &e));
	ck_assert_msg(strstr(e.msg, "100000") != NULL, "%s", e.msg);

	/* 64 MiB L1s of 16-byte lines on 1024 cores: 2^32 lines, more than the
	 * L1 pool's int way index holds; 32 MiB ones, 2^31 lines (the last
	 * index 2^31 - 1), are refused only by the host budget
	 * (host_budget_refused_at_the_key) */
	cpu_model_default(&m);
	m.cores = 1024;
	m.cores_per_socket = 64;
	m.line_size = 16;
	m.l1_size = 64u << 20;
	memset(&e, 0, sizeof e);
	ck_assert_int_eq(cpu_model_validate(&m, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_msg(strstr(e.msg, "l1_size") && strstr(e.msg, "4294967296 lines"), "%s", e.msg);
	m.l1_size = 32u << 20;
	memset(&e, 0, sizeof e);
	ck_assert_int_eq(cpu_model_validate(&m, &e), 0);

	cpu_model_default(&m);
	memset(&e, 0, sizeof e);
	ck_assert_ptr_null(ms_create(&m, 0, &e));
	ck_assert_int_eq(e.kind, ERR_INPUT);
}
END_TEST

/* The host budget: the sizes are what ms_create allocates, and a model one
 * core past the budget is refused at the key of its larger part, saying how
 * many cores fit, while one core fewer is built. */
START_TEST(host_budget_refused_at_the_key)
{
	struct cpu_model m;
	struct ms_size sz;
	struct err e;
	cpu_model_default(&m);
	m.cores = 1024;
	m.cores_per_socket = 16;
	m.fabric = FABRIC_DIRECTORY;
	m.line_size = 16;
	m.l1_assoc = 1;
	m.l1_size = 2u << 20;
	ms_size_of(&m, &sz);
	/* an L1 line: tag and LRU stamp 8 bytes each, 16 of data, its state
	 * and its way's entry pointer */
	ck_assert_uint_eq(sz.l1, (size_t)1024 * (2u << 20) / 16 * (8 + 8 + 16 + 1));
	ck_assert_uint_eq(sz.way_le, (size_t)1024 * (2u << 20) / 16 * 8);
	ck_assert_uint_eq(sz.n_llc, 64);
	ck_assert_uint_eq(sz.llc_each, 0);
	ck_assert_uint_eq(sz.total, sz.per_core + sz.l1 + sz.way_le);
	memset(&e, 0, sizeof e);
	ck_assert_int_eq(ms_model_check(&m, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INPUT);
	ck_assert_msg(strstr(e.msg, "l1_size: the caches of 1024 cores") &&
		      strstr(e.msg, "5249 MiB of host memory, over the limit of 4096 MiB (799 of these cores fit)"),
		      "%s", e.msg);
	m.cores = 800;
	ck_assert_int_eq(ms_model_check(&m, &e), -1);
	m.cores = 799;
	ms_size_of(&m, &sz);
	ck_assert_uint_le(sz.total, MS_HOST_BUDGET);
	ck_assert_int_eq(ms_model_check(&m, &e), 0);

	/* LLCs the larger part: 1 GiB ones of 16-byte lines, one per socket */
	cpu_model_default(&m);
	m.cores = 8;
	m.cores_per_socket = 1;
	m.line_size = 16;
	m.llc_size = 1u << 30;
	m.llc_assoc = 16;
	m.lat_llc_hit = 40;
	ms_size_of(&m, &sz);
	ck_assert_uint_eq(sz.n_llc, 8);
	ck_assert_uint_eq(sz.llc_each, (size_t)(1u << 30) / 16 * 17);
	memset(&e, 0, sizeof e);
	ck_assert_int_eq(ms_model_check(&m, &e), -1);
	ck_assert_msg(strstr(e.msg, "llc_size: ") == e.msg && strstr(e.msg, "8 LLCs of 1073741824 bytes") &&
		      strstr(e.msg, "(3 of these cores fit)"), "%s", e.msg);
	ck_assert_ptr_null(ms_create(&m, MEM, &e));
	ck_assert_int_eq(e.kind, ERR_INPUT);
}
END_TEST

START_TEST(checker_catches_stale_memory)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	ld(ms, 0, A);
	mem_set(ms, A, 0x55);   /* behind the protocol's back */
	struct err e = {0};
	ck_assert_int_eq(ms_check_all(ms, &e), -1);
	ck_assert_int_eq(e.kind, ERR_INTERNAL);
	ck_assert_msg(strstr(e.msg, "0x1000") != NULL, "%s", e.msg);
	uint64_t v;
	memset(&e, 0, sizeof e);
	ms_load(ms, 0, 0, MEM, 8, &v);   /* outside memory: an error, not a crash */
	ck_assert_int_eq(ms_check_error(ms, &e), -1);
	ms_destroy(ms);
}
END_TEST

static void count_txn(void *ctx, const struct ms_txn *t)
{
	uint64_t *n = ctx;
	(void)t;
	(*n)++;
}

START_TEST(observer_sees_every_transaction)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	uint64_t n = 0;
	ms_set_observer(ms, count_txn, &n);
	for (int r = 0; r < 10; r++)
		st(ms, r & 3, A, (uint64_t)r);
	ck_assert_uint_eq(n, tot(ms).transactions);
	ck_assert_uint_eq(n, 10);
	done(ms);
}
END_TEST

/* ---------- randomized stress ---------- */

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Cores issue random loads/stores of 1-8 bytes from an event loop (each
 * re-issues when its access completes), over 4 hot lines and 1024 cold
 * ones, through a 512-byte 2-way L1 that evicts all the time. Every loaded
 * value is compared with a sequential reference (transactions are atomic
 * and performed in event order), the checker runs after every transaction,
 * and the final coherent memory must equal the reference byte for byte. */
static void stress(int cores, enum fabric_kind f, enum protocol_kind p, long ops, uint64_t seed)
{
	struct cpu_model m;
	cpu_model_default(&m);
	m.cores = cores;
	m.cores_per_socket = cores / 4;
	m.l1_size = 512;
	m.l1_assoc = 2;
	m.fabric = f;
	m.protocol = p;
	const uint64_t hot = 4, cold = 1024, mem = (hot + cold) * 64;
	struct err e = {0};
	struct memsys *ms = ms_create(&m, mem, &e);
	ck_assert_msg(ms != NULL, "%s", e.msg);
	uint8_t *ref = calloc(mem, 1);
	for (uint64_t i = 0; i < mem; i++)
		ref[i] = mem_set(ms, i, (uint8_t)(i * 7));
	ms_set_checking(ms, 1);
	struct evq q;
	ck_assert_int_eq(evq_init(&q, (size_t)cores, &e), 0);
	for (int c = 0; c < cores; c++)
		evq_push(&q, rng(&seed) % 100, (uint32_t)c);
	uint64_t now;
	uint32_t core;
	long stores = 0;
	for (long i = 0; i < ops && evq_pop(&q, &now, &core); i++) {
		uint64_t r = rng(&seed);
		uint64_t line = (r & 1) ? (r >> 8) % hot : hot + (r >> 8) % cold;
		unsigned size = 1u << ((r >> 4) & 3);
		uint64_t addr = line * 64 + (((r >> 32) % 64) & ~(uint64_t)(size - 1));
		uint64_t t;
		if ((r >> 2) & 1) {
			uint64_t v = rng(&seed);
			t = ms_store(ms, (int)core, now, addr, size, v);
			memcpy(ref + addr, &v, size);
			stores++;
		} else {
			uint64_t v = 0, want = 0;
			t = ms_load(ms, (int)core, now, addr, size, &v);
			memcpy(&want, ref + addr, size);
			loop_assert_msg(v == want, "op %ld: core %u loaded 0x%llx at 0x%llx, expected 0x%llx", i,
				        core, (unsigned long long)v, (unsigned long long)addr,
				        (unsigned long long)want);
		}
		loop_assert_uint_gt(t, now);
		if ((i & 4095) == 0)
			loop_assert_msg(ms_check_error(ms, &e) == 0, "op %ld: %s", i, e.msg);
		evq_push(&q, t, core);
	}
	ck_assert_msg(ms_check_error(ms, &e) == 0, "%s", e.msg);
	ck_assert_msg(ms_check_all(ms, &e) == 0, "%s", e.msg);
	for (uint64_t a = 0; a < mem; a++)
		loop_assert_msg(ms_peek(ms, a, 1) == ref[a], "byte 0x%llx", (unsigned long long)a);
	struct ms_stats s = tot(ms);
	ck_assert_uint_eq(s.stores, (uint64_t)stores);
	ck_assert_uint_eq(s.loads + s.stores, (uint64_t)ops);
	ck_assert_uint_eq(s.l1_hits + s.l1_misses, (uint64_t)ops);
	ck_assert_uint_gt(s.bounces, 0);
	ck_assert_uint_gt(s.evictions, 0);
	ck_assert_uint_gt(s.writebacks, 0);
	evq_free(&q);
	free(ref);
	ms_destroy(ms);
}

/* ---------- the lookaside under the checker ---------- */

/* White-box: does core c hold a lookaside entry for addr's line? */
static int la_has(const struct memsys *ms, int c, uint64_t addr)
{
	const struct ms_fast *f = (const struct ms_fast *)ms;
	uint64_t want = (addr >> f->shift) + 1;
	return (f->pc[c].la[want & (MS_LA_SIZE - 1)].key & ~MS_LA_OKS) == want;
}

/* Accesses as the core issues them (the inline hit path first, then the
 * transaction), over per-core private lines (lookaside hits, silent E->M,
 * evictions from a 4-set 2-way L1), lines shared with the other cores
 * (snoops that downgrade or invalidate a copy the lookaside names) and a
 * last line cut short by the end of memory; locked RMWs too. A line leaves
 * the lookaside for good once contended, so each round starts a fresh
 * memory system. Every loaded value is compared with a sequential
 * reference, and after every access the checker (value comparison on)
 * walks every line and every lookaside entry. */
static void lookaside_run(enum fabric_kind f, enum protocol_kind p, int rounds, long ops, uint64_t seed)
{
	struct cpu_model m;
	cpu_model_default(&m);
	m.cores = 4;
	m.cores_per_socket = 2;
	m.l1_size = 512;
	m.l1_assoc = 2;
	m.fabric = f;
	m.protocol = p;
	const uint64_t priv = 16, shared = 16, lines = 4 * priv + shared, mem = lines * 64 + 40;
	uint8_t *ref = calloc(mem, 1);
	long la_hits = 0, la_met = 0;
	struct ms_stats s = {0};
	for (int round = 0; round < rounds; round++) {
		struct err e = {0};
		struct memsys *ms = ms_create(&m, mem, &e);
		ck_assert_msg(ms != NULL, "%s", e.msg);
		for (uint64_t i = 0; i < mem; i++)
			ref[i] = mem_set(ms, i, (uint8_t)(i * 13 + (uint64_t)round));
		ms_set_checking(ms, 1);
		uint64_t now = 0;
		for (long i = 0; i < ops; i++, now += 3) {
			uint64_t r = rng(&seed);
			int c = (int)(r & 3);
			unsigned where = (r >> 2) % 16;   /* 9/16 a hot private line, 3/16 any private one */
			uint64_t line = where < 9 ? (uint64_t)c * priv + (r >> 8) % 4
				      : where < 12 ? (uint64_t)c * priv + (r >> 8) % priv
				      : 4 * priv + (r >> 8) % (shared + 1);   /* + the cut-short line */
			unsigned size = 1u << ((r >> 16) & 3);
			uint64_t addr = line * 64 + ((((r >> 20) % 64) & ~(uint64_t)(size - 1)));
			if (addr + size > mem)
				addr = mem - size;
			for (int o = 0; o < 4; o++)
				la_met += o != c && la_has(ms, o, addr);
			uint64_t v = 0, want = 0;
			int la = 0;
			switch ((r >> 28) % 8) {
			case 0: case 1: case 2: case 3:   /* load */
				la = ms_la_hit(ms, c, addr, size, MS_ACC_LOAD, &v);
				if (!la && !ms_hit_load(ms, c, addr, size, &v))
					ms_load(ms, c, now, addr, size, &v);
				memcpy(&want, ref + addr, size);
				loop_assert_msg(v == want, "op %ld: core %d loaded 0x%llx at 0x%llx, expected 0x%llx",
					        i, c, (unsigned long long)v, (unsigned long long)addr,
					        (unsigned long long)want);
				break;
			case 4: case 5: case 6:           /* store */
				v = rng(&seed);
				la = ms_la_hit(ms, c, addr, size, MS_ACC_STORE, &v);
				if (!la && !ms_hit_store(ms, c, addr, size, v))
					ms_store(ms, c, now, addr, size, v);
				memcpy(ref + addr, &v, size);
				break;
			default:                          /* locked RMW: add 1 */
				now = ms_rmw_begin(ms, c, now, addr);
				loop_assert_int_eq(ms_try_load(ms, c, addr, size, &v), 1);
				memcpy(&want, ref + addr, size);
				loop_assert_uint_eq(v, want);
				v++;
				loop_assert_int_eq(ms_try_store(ms, c, addr, size, v), 1);
				ms_rmw_end(ms, c, addr, now + 5);
				memcpy(ref + addr, &v, size);
				break;
			}
			la_hits += la;
			loop_assert_msg(ms_check_error(ms, &e) == 0, "op %ld: %s", i, e.msg);
			loop_assert_msg(ms_check_all(ms, &e) == 0, "op %ld: %s", i, e.msg);
		}
		for (uint64_t a = 0; a < mem; a++)
			loop_assert_msg(ms_peek(ms, a, 1) == ref[a], "byte 0x%llx", (unsigned long long)a);
		struct ms_stats t = tot(ms);
		s.evictions += t.evictions;
		s.invalidations += t.invalidations;
		s.updates_received += t.updates_received;
		s.bounces += t.bounces;
		ms_destroy(ms);
	}
	/* the lookaside served a good share of the hits, and met every event */
	ck_assert_msg(la_hits > rounds * ops / 4, "%ld lookaside hits in %ld accesses", la_hits, rounds * ops);
	ck_assert_msg(la_met > rounds, "only %ld accesses to lines another core's lookaside named", la_met);
	ck_assert_uint_gt(s.evictions, 0);
	/* other copies changed: invalidated, or updated in place (Dragon) */
	ck_assert_uint_gt(p == PROTO_DRAGON ? s.updates_received : s.invalidations, 0);
	ck_assert_uint_gt(s.bounces, 0);
	free(ref);
}

START_TEST(lookaside_checked_mesi_bus) { lookaside_run(FABRIC_BUS, PROTO_MESI, 40, 1500, 11); }
END_TEST
START_TEST(lookaside_checked_mesif_directory) { lookaside_run(FABRIC_DIRECTORY, PROTO_MESIF, 40, 1500, 12); }
END_TEST
START_TEST(lookaside_checked_moesi_directory) { lookaside_run(FABRIC_DIRECTORY, PROTO_MOESI, 40, 1500, 13); }
END_TEST

START_TEST(lookaside_checked_dragon_directory) { lookaside_run(FABRIC_DIRECTORY, PROTO_DRAGON, 40, 1500, 14); }
END_TEST

/* The checker's lookaside comparison can fail: an entry granting more than
 * the state allows, and an entry left behind by an invalidation. */
START_TEST(checker_catches_stale_lookaside)
{
	struct memsys *ms = mk(8, FABRIC_BUS, PROTO_MESI);
	struct ms_fast *f = (struct ms_fast *)ms;
	uint64_t v;
	ld(ms, 0, A);                                   /* E: loads hit, a store would be E->M */
	ck_assert_int_eq(ms_hit_load(ms, 0, A, 8, &v), 1);
	ck_assert(la_has(ms, 0, A));
	struct ms_la *la = &f->pc[0].la[((A >> f->shift) + 1) & (MS_LA_SIZE - 1)];
	struct ms_la saved = *la;
	struct err e = {0};
	ck_assert_msg(ms_check_all(ms, &e) == 0, "%s", e.msg);
	la->key |= MS_LA_OK(1);
	ck_assert_int_eq(ms_check_all(ms, &e), -1);
	ck_assert_msg(strstr(e.msg, "lookaside") && strstr(e.msg, "state E"), "%s", e.msg);
	la->key = saved.key;
	st(ms, 1, A, 5);                                /* invalidates core 0's copy */
	ck_assert(!la_has(ms, 0, A));
	*la = saved;                                    /* as if the snoop had not dropped it */
	memset(&e, 0, sizeof e);
	ck_assert_int_eq(ms_check_all(ms, &e), -1);
	ck_assert_msg(strstr(e.msg, "lookaside") && strstr(e.msg, "lacks"), "%s", e.msg);
	/* and the access through it is caught as it happens */
	memset(&e, 0, sizeof e);
	ck_assert_int_eq(ms_hit_load(ms, 0, A, 8, &v), 1);
	ck_assert_int_eq(ms_check_error(ms, &e), -1);
	ck_assert_msg(strstr(e.msg, "lookaside"), "%s", e.msg);
	ms_destroy(ms);
}
END_TEST

START_TEST(stress_mesi_64_directory) { stress(64, FABRIC_DIRECTORY, PROTO_MESI, 800000, 1); }
END_TEST
START_TEST(stress_mesi_16_bus) { stress(16, FABRIC_BUS, PROTO_MESI, 400000, 2); }
END_TEST
START_TEST(stress_mesif_32) { stress(32, FABRIC_DIRECTORY, PROTO_MESIF, 300000, 3); }
END_TEST
START_TEST(stress_moesi_32) { stress(32, FABRIC_BUS, PROTO_MOESI, 300000, 4); }
END_TEST

START_TEST(stress_msi_16_directory) { stress(16, FABRIC_DIRECTORY, PROTO_MSI, 200000, 5); }
END_TEST

START_TEST(stress_dragon_16_directory) { stress(16, FABRIC_DIRECTORY, PROTO_DRAGON, 200000, 6); }
END_TEST

START_TEST(stress_dragon_16_bus) { stress(16, FABRIC_BUS, PROTO_DRAGON, 200000, 7); }
END_TEST

int main(void)
{
	Suite *s = suite_create("coherence");
	TCase *t = tcase_create("mesi_cells");
	tcase_add_test(t, mesi_I_load_alone_gives_E);
	tcase_add_test(t, mesi_I_load_other_E_gives_S_S);
	tcase_add_test(t, mesi_I_load_others_S_gives_S);
	tcase_add_test(t, mesi_I_load_other_M_hitm_writeback);
	tcase_add_test(t, mesi_I_store_alone_gives_M);
	tcase_add_test(t, mesi_I_store_other_E_invalidates);
	tcase_add_test(t, mesi_I_store_others_S_invalidates_all);
	tcase_add_test(t, mesi_I_store_other_M_hitm_transfer);
	tcase_add_test(t, mesi_S_load_hits);
	tcase_add_test(t, mesi_S_store_upgrade);
	tcase_add_test(t, mesi_S_store_upgrade_alone);
	tcase_add_test(t, mesi_E_load_hit_store_silent);
	tcase_add_test(t, mesi_M_hits);
	tcase_add_test(t, mesi_evict_M_writes_back);
	tcase_add_test(t, mesi_evict_E_and_S_silent);
	tcase_add_test(t, mesi_table_every_cell);
	tcase_add_test(t, derived_tables_differ_only_where_declared);
	tcase_add_test(t, dragon_table);
	tcase_add_test(t, every_protocol_sound);
	tcase_add_test(t, soundness_walk_finds_a_zero_cell);
	suite_add_tcase(s, t);

	t = tcase_create("litmus");
	tcase_add_test(t, litmus_ping_pong_stores);
	tcase_add_test(t, litmus_ping_pong_load_store);
	tcase_add_test(t, litmus_hitm_per_instruction);
	tcase_add_test(t, litmus_false_sharing);
	tcase_add_test(t, litmus_locked_rmw_offsets);
	tcase_add_test(t, litmus_different_lines_never_bounce);
	suite_add_tcase(s, t);

	t = tcase_create("timing");
	tcase_add_test(t, timing_directory_parallel_lines_fifo_per_line);
	tcase_add_test(t, timing_bus_serializes_everything);
	tcase_add_test(t, timing_locked_rmw_holds_the_line);
	tcase_add_test(t, timing_upgrade_and_llc);
	tcase_add_test(t, timing_writeback_delays_memory_reads);
	tcase_add_test(t, timing_agent_follows_a_line_in_flight);
	tcase_add_test(t, timing_forwarding_chain);
	tcase_add_test(t, timing_merged_at_the_shared_cache);
	tcase_add_test(t, timing_merged_at_the_cluster_cache);
	tcase_add_test(t, timing_topology_levels);
	suite_add_tcase(s, t);

	t = tcase_create("protocols");
	tcase_add_test(t, mesif_forwarder);
	tcase_add_test(t, moesi_owned);
	tcase_add_test(t, msi_no_exclusive);
	tcase_add_test(t, dragon_ping_pong_add);
	tcase_add_test(t, dragon_locked_increments);
	tcase_add_test(t, dragon_shared_wire);
	tcase_add_test(t, moesi_owner_upgrades);
	suite_add_tcase(s, t);

	t = tcase_create("errors");
	tcase_add_test(t, bad_cpu_models_rejected);
	tcase_add_test(t, host_budget_refused_at_the_key);
	tcase_add_test(t, checker_catches_stale_memory);
	tcase_add_test(t, observer_sees_every_transaction);
	tcase_add_test(t, checker_catches_stale_lookaside);
	suite_add_tcase(s, t);

	t = tcase_create("cache");
	tcase_add_test(t, cache_pool_set_by_set);
	suite_add_tcase(s, t);

	t = tcase_create("lookaside");
	tcase_add_test(t, lookaside_checked_mesi_bus);
	tcase_add_test(t, lookaside_checked_mesif_directory);
	tcase_add_test(t, lookaside_checked_moesi_directory);
	tcase_add_test(t, lookaside_checked_dragon_directory);
	tcase_set_timeout(t, 300);
	suite_add_tcase(s, t);

	t = tcase_create("stress");
	tcase_add_test(t, stress_mesi_64_directory);
	tcase_add_test(t, stress_mesi_16_bus);
	tcase_add_test(t, stress_mesif_32);
	tcase_add_test(t, stress_moesi_32);
	tcase_add_test(t, stress_msi_16_directory);
	tcase_add_test(t, stress_dragon_16_directory);
	tcase_add_test(t, stress_dragon_16_bus);
	tcase_set_timeout(t, 300);
	suite_add_tcase(s, t);

	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
