/* The visualizer's only window on the engine: builds each variant's machine
 * through the runner, forwards the engine's observers (transactions,
 * activity, marks) to the UI's history and particles, and copies the state
 * the screen shows into a struct ui_snap once per frame. */
#include "config.h"
#include "ui_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui_engine.h"

#define HOLD_SLOTS 8192         /* lines whose holders are tracked; power of two */
#define REROW_FRAMES 30         /* re-pick the busiest lines this often */

/* Which caches hold a line, as far as the transactions tell: enough to aim
 * invalidation particles, which the transaction only counts. A clean line
 * evicted silently stays in the set; the count in the transaction caps the
 * particles drawn, so such a stale entry costs at most a wrong arrow. */
struct holders {
	uint64_t line;          /* line + 1; 0 = empty */
	uint64_t *bits;
};

struct ui_machine {
	struct runner run;
	struct ui_var *v;
	int ncores, words;
	struct holders *hold;
	struct rep_symbols syms;  /* naming lines as the report does */
	uint64_t *bitpool;
	int nhold;
	uint64_t txns;          /* transactions seen, for single-stepping */
	/* displayed rows */
	struct ui_row rows[UI_MAX_ROWS];
	int nrows, nreported;
	int more;               /* contended lines without a row */
	unsigned long snaps;
	int *inval_buf;
	uint8_t accessed[UI_MAX_COUNTERS]; /* sticky: a symbol once touched stays so */
	/* Source lines, as the reports read them: each file once. */
	struct rep_source *src;
};

int ui_source_nvariants(const struct scenario *sc)
{
	return (int)sc->n_variants;
}

const char *ui_source_variant_name(const struct scenario *sc, int i)
{
	return sc->variants[i].name;
}

static uint64_t *holders_of(struct ui_machine *m, uint64_t line)
{
	uint32_t h = (uint32_t)((line >> 6) * 2654435761u) & (HOLD_SLOTS - 1);
	while (m->hold[h].line) {
		if (m->hold[h].line == line + 1)
			return m->hold[h].bits;
		h = (h + 1) & (HOLD_SLOTS - 1);
	}
	if (m->nhold >= HOLD_SLOTS * 3 / 4) {
		/* Forget everything rather than probe forever: holders are only
		 * a drawing aid. */
		for (int i = 0; i < HOLD_SLOTS; i++)
			m->hold[i].line = 0;
		m->nhold = 0;
		return holders_of(m, line);
	}
	m->hold[h].line = line + 1;
	m->hold[h].bits = m->bitpool + (size_t)h * m->words;
	memset(m->hold[h].bits, 0, (size_t)m->words * sizeof(uint64_t));
	m->nhold++;
	return m->hold[h].bits;
}

static void on_txn(void *ctx, const struct ms_txn *t)
{
	struct ui_machine *m = ctx;
	m->txns++;
	uint64_t *hb = holders_of(m, t->line);
	int ninval = 0;
	if ((t->req == MS_GETM || t->req == MS_UPGRADE) && !t->updated) {
		for (int w = 0; w < m->words && ninval < (int)t->invalidated; w++) {
			uint64_t b = hb[w];
			while (b && ninval < (int)t->invalidated) {
				int c = w * 64 + __builtin_ctzll(b);
				b &= b - 1;
				if (c != t->core && c != t->supplier)
					m->inval_buf[ninval++] = c;
			}
		}
		memset(hb, 0, (size_t)m->words * sizeof(uint64_t));
		hb[t->core / 64] |= 1ull << (t->core % 64);
	} else if (t->req == MS_GETS || t->updated) {
		hb[t->core / 64] |= 1ull << (t->core % 64);
	}
	/* The engine notes which instruction each request is for (MS_NO_PC
	 * when none, which the cards print as "?"). */
	ui_var_on_txn(m->v, t, t->pc, m->inval_buf, ninval);
}

static void on_activity(void *ctx, int core, uint64_t cycle, enum core_activity act)
{
	struct ui_machine *m = ctx;
	ui_var_on_activity(m->v, core, cycle, (int)act);
}

static void on_mark(void *ctx, int core, uint64_t cycle, const char *name)
{
	struct ui_machine *m = ctx;
	ui_var_on_mark(m->v, core, cycle, name);
}

static void attach(struct ui_machine *m)
{
	struct sim_observer o = {.activity = on_activity, .mark = on_mark, .ctx = m};
	runner_set_observer(&m->run, &o);
	ms_set_observer(sim_memsys(m->run.sim), on_txn, m);
	for (int i = 0; i < HOLD_SLOTS; i++)
		m->hold[i].line = 0;
	m->nhold = 0;
	m->txns = 0;
	m->snaps = 0;
	m->nrows = 0;
	m->more = 0;
	memset(m->accessed, 0, sizeof m->accessed);
	for (int c = 0; c < m->ncores; c++) {
		struct sim_core_view cv;
		sim_core_view(m->run.sim, c, &cv);
		ui_var_on_activity(m->v, c, 0, (int)cv.activity);
	}
}

struct ui_machine *ui_machine_create(const struct scenario *sc, int variant,
				     const struct scen_overrides *ov, struct ui_var *v, struct err *e)
{
	struct ui_machine *m = calloc(1, sizeof *m);
	if (!m) {
		err_internal(e, "out of memory");
		return NULL;
	}
	if (runner_prepare(&m->run, sc, (size_t)variant, ov, 0, e)) {
		free(m);
		return NULL;
	}
	m->v = v;
	m->ncores = m->run.run.cores;
	m->words = (m->ncores + 63) / 64;
	m->hold = calloc(HOLD_SLOTS, sizeof *m->hold);
	m->bitpool = calloc((size_t)HOLD_SLOTS * m->words, sizeof(uint64_t));
	m->inval_buf = calloc((size_t)m->ncores, sizeof(int));
	(void)rep_symbols_init(&m->syms, &m->run.prog); /* without memory, a search per name */
	m->src = rep_source_new(&m->run);
	if (!m->hold || !m->bitpool || !m->inval_buf || !m->src) {
		err_internal(e, "out of memory");
		ui_machine_destroy(m);
		return NULL;
	}
	return m;
}

/* Observers are attached separately: the variant's history must exist
 * before the first activity report, and it is sized from the CPU model. */
void ui_machine_attach(struct ui_machine *m)
{
	attach(m);
}

void ui_machine_destroy(struct ui_machine *m)
{
	if (!m)
		return;
	rep_symbols_free(&m->syms);
	rep_source_free(m->src);
	runner_free(&m->run);
	free(m->hold);
	free(m->bitpool);
	free(m->inval_buf);
	free(m);
}

const struct cpu_model *ui_machine_cpu(const struct ui_machine *m)
{
	return &m->run.cfg.cpu;
}

int ui_source_cpu(const struct scenario *sc, int variant, const struct scen_overrides *ov,
		  struct cpu_model *out, struct err *e)
{
	struct scen_run r;
	if (scen_resolve(sc, (size_t)variant, ov, &r, e))
		return -1;
	*out = r.cpu;
	out->cores = r.cores;  /* as runner_prepare sets it */
	scen_run_free(&r);
	return 0;
}

int ui_machine_restart(struct ui_machine *m, struct err *e)
{
	if (runner_restart(&m->run, e))
		return -1;
	attach(m);
	return 0;
}

uint64_t ui_machine_now(const struct ui_machine *m)
{
	return sim_now(m->run.sim);
}

static int finished(enum run_stop st)
{
	if (st == RUN_FAULT)
		return -1;
	return st != RUN_RUNNING;
}

int ui_machine_run(struct ui_machine *m, uint64_t until, struct err *e)
{
	if (m->run.stop != RUN_RUNNING)
		return 1;
	return finished(runner_run_until(&m->run, until, e));
}

int ui_machine_step(struct ui_machine *m, struct err *e)
{
	if (m->run.stop != RUN_RUNNING)
		return 1;
	/* One coherence transaction: events that only run cores ahead do not
	 * change anything the screen shows, so keep going until one does. */
	uint64_t seen = m->txns;
	for (int i = 0; i < 100000 && m->txns == seen; i++) {
		enum run_stop st = runner_step_event(&m->run, e);
		if (st != RUN_RUNNING)
			return finished(st);
	}
	return 0;
}

/* ---- naming lines ---- */

static void line_name(const struct ui_machine *m, uint64_t line, char *buf, size_t n)
{
	const struct program *p = &m->run.prog;
	uint64_t off;
	uint64_t pcpu_end = p->percpu_base + (uint64_t)p->nr_cpus * p->percpu_stride;
	if (p->percpu_stride && line >= p->percpu_base && line < pcpu_end) {
		uint64_t rel = line - p->percpu_base;
		int cpu = (int)(rel / p->percpu_stride);
		const struct symbol *s = rep_symbol_at(&m->syms, SEC_PERCPU, rel % p->percpu_stride, &off);
		if (s) {
			snprintf(buf, n, "%s @cpu%d", s->name, cpu);
			return;
		}
		snprintf(buf, n, "percpu+%#" PRIx64 " @cpu%d", rel % p->percpu_stride, cpu);
		return;
	}
	if (line >= p->stack_base) {
		snprintf(buf, n, "stack cpu%d", (int)((line - p->stack_base) / PROG_STACK_SIZE));
		return;
	}
	const struct symbol *s = rep_symbol_in(&m->syms, SEC_DATA, line, line + p->line_size);
	if (s && (uint64_t)s->value < line)
		snprintf(buf, n, "%s+%#" PRIx64, s->name, line - (uint64_t)s->value);
	else if (s)
		snprintf(buf, n, "%s", s->name);
	else
		snprintf(buf, n, "%#" PRIx64, line);
}

/* The scenario's reported symbols, each on its own row (a percpu symbol
 * shows CPU 0's copy). */
static void pick_reported(struct ui_machine *m)
{
	const struct program *p = &m->run.prog;
	uint64_t mask = ~(uint64_t)(p->line_size - 1);
	m->nrows = 0;
	for (size_t i = 0; i < m->run.run.n_report && m->nrows < UI_MAX_ROWS; i++) {
		const struct symbol *s = program_symbol(p, m->run.run.report[i]);
		if (!s || (s->section != SEC_DATA && s->section != SEC_PERCPU))
			continue;
		uint64_t addr = s->section == SEC_DATA ? (uint64_t)s->value
						       : program_percpu_offset(p, 0) + (uint64_t)s->value;
		struct ui_row *r = &m->rows[m->nrows];
		memset(r, 0, sizeof *r);
		r->addr = addr & mask;
		r->reported = 1;
		snprintf(r->name, sizeof r->name, "%s%s", s->name, s->section == SEC_PERCPU ? " @cpu0" : "");
		int dup = 0;
		for (int k = 0; k < m->nrows; k++)
			dup |= m->rows[k].addr == r->addr;
		if (!dup)
			m->nrows++;
	}
	m->nreported = m->nrows;
}

static uint64_t score_of(const struct ms_line_info *li)
{
	return li->stats.bounces + li->stats.invalidations;
}

/* The busiest other lines by bounces + invalidations. A line keeps its row
 * while it stays among the busiest (rows are identified by line, not by
 * rank), so a row does not jump from line to line as counts change. */
static void pick_busiest(struct ui_machine *m, int want)
{
	const struct ms_line_info *hot;
	/* without memory for the list, this frame shows the rows it had */
	ptrdiff_t got = ms_hot_lines(sim_memsys(m->run.sim), &hot);
	size_t n = got > 0 ? (size_t)got : 0;
	uint64_t chosen[UI_MAX_ROWS] = {0};
	int nchosen = 0, nrep = 0;
	for (int i = 0; i < m->nrows; i++)
		nrep += m->rows[i].reported;
	int room = want - nrep;
	/* The top `room` lines not reported, by a partial selection. */
	while (nchosen < room) {
		const struct ms_line_info *best = NULL;
		for (size_t i = 0; i < n; i++) {
			/* a line with HITMs only ranks nowhere by this score */
			if (!score_of(&hot[i]) || (best && score_of(&hot[i]) <= score_of(best)))
				continue;
			int taken = 0;
			for (int j = 0; j < m->nrows && !taken; j++)
				taken = m->rows[j].reported && m->rows[j].addr == hot[i].line;
			for (int j = 0; j < nchosen && !taken; j++)
				taken = chosen[j] == hot[i].line;
			if (!taken)
				best = &hot[i];
		}
		if (!best)
			break;
		chosen[nchosen++] = best->line;
	}
	/* Count what is left out, for the table's "n more". */
	m->more = 0;
	for (size_t i = 0; i < n; i++) {
		if (!score_of(&hot[i]))
			continue;
		int shown = 0;
		for (int j = 0; j < m->nrows && !shown; j++)
			shown = m->rows[j].reported && m->rows[j].addr == hot[i].line;
		for (int j = 0; j < nchosen && !shown; j++)
			shown = chosen[j] == hot[i].line;
		m->more += !shown;
	}
	/* Old rows still chosen stay where they were; new lines fill the gaps. */
	struct ui_row out[UI_MAX_ROWS];
	int used[UI_MAX_ROWS] = {0};
	int k = 0;
	for (int i = 0; i < m->nrows; i++)
		if (m->rows[i].reported)
			out[k++] = m->rows[i];
	int slot = k;
	for (int i = 0; i < m->nrows; i++) {
		if (m->rows[i].reported)
			continue;
		for (int j = 0; j < nchosen; j++)
			if (!used[j] && chosen[j] == m->rows[i].addr && slot < UI_MAX_ROWS) {
				used[j] = 1;
				out[slot++] = m->rows[i];
				break;
			}
	}
	for (int j = 0; j < nchosen && slot < UI_MAX_ROWS; j++) {
		if (used[j])
			continue;
		struct ui_row *r = &out[slot++];
		memset(r, 0, sizeof *r);
		r->addr = chosen[j];
		line_name(m, chosen[j], r->name, sizeof r->name);
	}
	memcpy(m->rows, out, sizeof out[0] * (size_t)slot);
	m->nrows = slot;
}

static void fill_figs(struct ui_machine *m, struct ui_figs *f)
{
	struct sim *s = m->run.sim;
	struct core_stats cs;
	memset(f, 0, sizeof *f);
	f->cycles = sim_cycles(s);
	f->ghz = m->run.cfg.cpu.ghz;
	f->ops = runner_ops(&m->run);
	ms_total_stats(sim_memsys(s), &f->tot);
	sim_total_core_stats(s, &cs);
	f->instructions = cs.instructions;
	f->locked_ops = cs.locked_ops;
	f->locked_cycles = cs.locked_cycles;
	f->finished = m->run.stop != RUN_RUNNING;
	struct rep_note notes[UI_MAX_NOTES];
	size_t nn = rep_runner_notes(&m->run, notes, UI_MAX_NOTES);
	for (size_t i = 0; i < nn && i < UI_MAX_NOTES; i++)
		snprintf(f->note[f->nnotes++], sizeof f->note[0], "%s", notes[i].text);
	/* Counters: every reported symbol, read as the report reads it,
	 * beside its ghost (the exact count) when the workload keeps one. */
	const struct program *p = &m->run.prog;
	struct memsys *ms = sim_memsys(s);
	uint32_t ls = m->run.cfg.cpu.line_size;
	for (size_t i = 0; i < m->run.run.n_report && f->ncounters < UI_MAX_COUNTERS; i++) {
		const struct symbol *sym = program_symbol(p, m->run.run.report[i]);
		if (!sym || (sym->section != SEC_DATA && sym->section != SEC_PERCPU))
			continue;
		int k = f->ncounters++;
		struct ui_counter *c = &f->ctr[k];
		uint64_t size = sym->size ? sym->size : 8;
		snprintf(c->name, sizeof c->name, "%s", sym->name);
		c->percpu = sym->section == SEC_PERCPU;
		c->scalar = size <= 8;
		c->value = runner_symbol_value(&m->run, sym);
		/* Accessed as the report decides it: a line of any copy was
		 * touched. Untouched symbols are checked every frame at first
		 * (a frame recorded for scrubbing must not miss its counters),
		 * then every few frames (a per-CPU symbol has a copy per core). */
		if (!m->accessed[k] && (m->snaps <= 32 || m->snaps % 8 == 0 || f->finished)) {
			int copies = c->percpu ? m->ncores : 1;
			struct ms_line_info li;
			for (int cpu = 0; cpu < copies && !m->accessed[k]; cpu++) {
				uint64_t a = (c->percpu ? program_percpu_offset(p, cpu) : 0) + (uint64_t)sym->value;
				for (uint64_t l = a & ~(uint64_t)(ls - 1); l < a + size && !m->accessed[k]; l += ls)
					m->accessed[k] = (uint8_t)ms_line_info(ms, l, &li);
			}
		}
		c->accessed = m->accessed[k];
		const struct ghost *g = sim_ghost(s, (uint64_t)sym->value);
		c->ghost = g != NULL;
		if (g) {
			c->exact = g->exact;
			c->last_read = g->last_read;
			c->nreads = g->reads;
			c->max_err = g->max_err;
			c->mean_err = g->mean_err;
		}
	}
}

/* Rows of lines the run touched first (reported symbols, then the busiest),
 * reported symbols never accessed last: with little room, show activity. */
static void order_rows(struct ui_machine *m)
{
	struct ui_row tmp[UI_MAX_ROWS] = {0};
	int n = 0;
	struct ms_line_info li;
	struct memsys *ms = sim_memsys(m->run.sim);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < m->nrows; i++) {
			int active = !m->rows[i].reported || ms_line_info(ms, m->rows[i].addr, &li);
			if (active == (pass == 0))
				tmp[n++] = m->rows[i];
		}
	memcpy(m->rows, tmp, sizeof tmp[0] * (size_t)n);
}

const struct coh_protocol *ui_machine_protocol(const struct ui_machine *m)
{
	return ms_protocol(sim_memsys(m->run.sim));
}

void ui_machine_snap(struct ui_machine *m, struct ui_snap *s, int want_rows)
{
	struct sim *sim = m->run.sim;
	struct memsys *ms = sim_memsys(sim);
	if (want_rows > UI_MAX_ROWS)
		want_rows = UI_MAX_ROWS;
	if (m->nrows == 0 || m->snaps % REROW_FRAMES == 0 || m->nrows < want_rows) {
		if (m->snaps == 0 || m->nreported == 0)
			pick_reported(m);
		pick_busiest(m, want_rows);
		order_rows(m);
	}
	m->snaps++;
	s->now = sim_cycles(sim);
	s->ncores = m->ncores;
	s->proto = ms_protocol(ms);
	for (int c = 0; c < m->ncores; c++) {
		struct sim_core_view cv;
		sim_core_view(sim, c, &cv);
		s->act[c] = (uint8_t)cv.activity;
	}
	s->nrows = m->nrows < want_rows ? m->nrows : want_rows;
	s->more_rows = m->more + (m->nrows - s->nrows);
	for (int i = 0; i < s->nrows; i++) {
		struct ui_row *r = &m->rows[i];
		struct ms_line_info li;
		if (ms_line_info(ms, r->addr, &li)) {
			r->owner = li.owner;
			r->stats = li.stats;
		} else {
			r->owner = MS_NO_CORE;
		}
		s->rows[i] = *r;
		uint8_t *st = s->state + (size_t)i * m->ncores;
		for (int c = 0; c < m->ncores; c++)
			st[c] = (uint8_t)ms_state_of(ms, c, r->addr);
	}
	fill_figs(m, &s->figs);
}

int ui_machine_line_detail(struct ui_machine *m, uint64_t addr, char *buf, size_t n)
{
	struct ms_line_info li;
	size_t k = 0;
	char name[64];
	line_name(m, addr, name, sizeof name);
	k += (size_t)snprintf(buf + k, n - k, "line %#" PRIx64 "  %s\n", addr, name);
	if (!ms_line_info(sim_memsys(m->run.sim), addr, &li)) {
		snprintf(buf + k, n - k, "never accessed\n");
		return 0;
	}
	const struct ms_stats *st = &li.stats;
	k += (size_t)snprintf(buf + k, n - k,
			      "bounces %" PRIu64 "   HITM %" PRIu64 " (remote %" PRIu64 ")\n"
			      "c2c %" PRIu64 "   invalidations %" PRIu64 "   mem reads %" PRIu64 "\n",
			      st->bounces, st->hitm, st->hitm_remote, st->c2c_transfers,
			      st->invalidations, st->mem_reads);
	char own[16] = "none", last[16] = "none";
	if (li.owner != MS_NO_CORE)
		snprintf(own, sizeof own, "cpu%d", li.owner);
	if (li.last_owner != MS_NO_CORE)
		snprintf(last, sizeof last, "cpu%d", li.last_owner);
	if (k < n)
		k += (size_t)snprintf(buf + k, n - k, "owner %s   last owner %s\n", own, last);
	for (uint32_t i = 0; i < li.n_offsets && i < 6 && k < n; i++) {
		const struct ms_offset_stats *o = &li.offsets[i];
		k += (size_t)snprintf(buf + k, n - k,
				      "+%-3u %uB  reads %" PRIu64 "  writes %" PRIu64 "  HITM %" PRIu64 "\n",
				      o->offset, o->size, o->reads, o->writes, o->hitm);
	}
	return 0;
}

int ui_machine_core_detail(struct ui_machine *m, int core, char *buf, size_t n)
{
	struct sim_core_view cv;
	sim_core_view(m->run.sim, core, &cv);
	const struct core_stats *cs = sim_core_stats(m->run.sim, core);
	const struct ms_stats *ms = ms_core_stats(sim_memsys(m->run.sim), core);
	char where[160] = "";
	if (cv.pc < m->run.prog.n_insns)
		ui_machine_where(m, cv.pc, where, sizeof where);
	uint64_t tot = 0;
	for (int a = 0; a < CORE_NCYCLES; a++)
		tot += cs->cycles[a];
	if (!tot)
		tot = 1;
	size_t k = (size_t)snprintf(buf, n,
			     "cpu%d  socket %d  %s%s\n"
			     "clock %" PRIu64 "  at %s\n"
			     "store buffer %u used  bh %d  preempt %d\n"
			     "instructions %" PRIu64 "  locked ops %" PRIu64 "\n"
			     "loads %" PRIu64 "  stores %" PRIu64 "  L1 hits %" PRIu64 "  misses %" PRIu64 "\n"
			     "bounces %" PRIu64 "  HITM %" PRIu64 "\n",
			     core, cpu_model_place(&m->run.cfg.cpu, core).socket,
			     core_activity_names[cv.activity].label, cv.in_handler ? " (in handler)" : "",
			     cv.clock, where[0] ? where : "-", cv.sb_used, cv.bh_count, cv.preempt_count,
			     cs->instructions, cs->locked_ops, ms->loads, ms->stores, ms->l1_hits,
			     ms->l1_misses, ms->bounces, ms->hitm);
	for (int a = 0; a < CORE_NCYCLES && k < n; a++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s %.1f%%", a % 4 ? "   " : a ? "\n" : "",
				      core_activity_names[a].label, 100.0 * cs->cycles[a] / tot);
	if (k < n)
		snprintf(buf + k, n - k, "\n");
	return 0;
}

/* ---- naming instructions and transactions ---- */

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* "file:line  text", the file by its base name: a card is narrow. */
void ui_machine_where(struct ui_machine *m, uint32_t pc, char *buf, size_t n)
{
	char where[256], text[160];
	(void)rep_source_insn(m->src, pc, where, sizeof where, text, sizeof text); /* "?" without memory */
	snprintf(buf, n, "%s%s%s", base_name(where), text[0] ? "  " : "", text);
}

void ui_machine_line_name(struct ui_machine *m, uint64_t line, char *buf, size_t n)
{
	line_name(m, line, buf, n);
}

void ui_machine_describe(struct ui_machine *m, const struct ui_txn *x, char *what, size_t nw,
			 char *why, size_t ny)
{
	const struct ms_txn *t = &x->t;
	const struct coh_protocol *p = ui_machine_protocol(m);
	char name[64], sup[48];
	line_name(m, t->line, name, sizeof name);
	if (t->supplier == MS_NO_CORE)
		snprintf(sup, sizeof sup, "%s", t->llc_hit ? "the LLC" : "memory");
	else
		snprintf(sup, sizeof sup, "cpu%d (%s)", t->supplier, ui_state_name(p, t->supplier_state));
	char inv[32] = "";
	if (t->invalidated)
		snprintf(inv, sizeof inv, ", %u invalidated", t->invalidated);
	snprintf(what, nw, "cpu%d %s %s (line %#" PRIx64 ")\n%s→%s from %s, %" PRIu64 " cycles%s%s%s%s",
		 t->core, ms_req_name(t->req), name, t->line, ui_state_name(p, t->from), ui_state_name(p, t->to),
		 sup, t->done - t->issued, t->bounce ? ", bounce" : ", no bounce", t->hitm ? ", HITM" : "",
		 t->remote ? ", remote" : "", inv);
	char where[160];
	ui_machine_where(m, x->pc, where, sizeof where);
	snprintf(why, ny, "for %s", where);
}
