/* The JSON report of a run (report.h): per variant the totals, every
 * reported symbol, the perf-c2c-style shared-line table and every core.
 * Key order is fixed and numbers are integers where the model counts, so
 * the same scenario and seed give byte-identical output. */
#include "config.h"
#include "report/report.h"
#include "cpu/totals.h"
#include "mem/coherence.h"
#include "report/report_notes.h"
#include "report/report_source.h"
#include "report/symbol_at.h"
#include "base/invariant.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void add_u64(cJSON *o, const char *k, uint64_t v)
{
	rep_add_uint(o, k, v); /* exact at any size (report_num.c) */
}

static void add_hex(cJSON *o, const char *k, uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "0x%" PRIx64, v);
	cJSON_AddStringToObject(o, k, buf);
}

cJSON *rep_new(const struct scenario *s, const struct runner *first)
{
	cJSON *rep = cJSON_CreateObject();
	cJSON_AddStringToObject(rep, "scenario", s->name ? s->name : "");
	cJSON_AddStringToObject(rep, "file", s->file ? s->file : "");
	add_u64(rep, "seed", first ? first->run.seed : s->base.seed);
	cJSON_AddStringToObject(rep, "cpu", first ? first->run.cpu.name : s->base.cpu.name);
	add_u64(rep, "cores", first ? (uint64_t)first->run.cores : (uint64_t)s->base.cpu.cores);
	cJSON_AddItemToObject(rep, "variants", cJSON_CreateArray());
	return rep;
}

/* What a line address belongs to, for naming it in the line table. */
struct place {
	const struct symbol *sym; /* NULL: no symbol */
	int cpu;                  /* per-CPU copy or stack owner, -1 for .data */
	uint64_t sym_off;         /* offset of the address within sym */
	const char *region;       /* "data", "percpu", "stack", "?" */
};

static struct place place_of(const struct rep_symbols *o, uint64_t addr)
{
	const struct program *p = o->p;
	struct place pl = {NULL, -1, 0, "?"};
	if (addr >= p->data_base && addr < p->data_base + p->data_size) {
		pl.region = "data";
		pl.sym = rep_symbol_at(o, SEC_DATA, addr, &pl.sym_off);
	} else if (addr >= p->percpu_base &&
		   addr < p->percpu_base + (uint64_t)p->nr_cpus * p->percpu_stride) {
		pl.region = "percpu";
		pl.cpu = (int)((addr - p->percpu_base) / p->percpu_stride);
		pl.sym = rep_symbol_at(o, SEC_PERCPU, (addr - p->percpu_base) % p->percpu_stride, &pl.sym_off);
	} else if (addr >= p->stack_base && addr < p->mem_size) {
		pl.region = "stack";
		pl.cpu = (int)((addr - p->stack_base) / PROG_STACK_SIZE);
	}
	return pl;
}

static void place_name(const struct place *pl, char *buf, size_t n)
{
	if (pl->sym && pl->cpu >= 0)
		snprintf(buf, n, "%s+%" PRIu64 "@cpu%d", pl->sym->name, pl->sym_off, pl->cpu);
	else if (pl->sym)
		snprintf(buf, n, "%s+%" PRIu64, pl->sym->name, pl->sym_off);
	else if (pl->cpu >= 0)
		snprintf(buf, n, "%s@cpu%d", pl->region, pl->cpu);
	else
		snprintf(buf, n, "%s", pl->region);
}

/* The rows of mem_stats.h's table shown `where` (MS_IN_LINE, ...), and
 * those shown only under a protocol that updates copies when r's does. */
static void add_stats(cJSON *o, const struct ms_stats *st, unsigned where, const struct runner *r)
{
	unsigned hide = coh_updates(ms_protocol(sim_memsys(r->sim))) ? 0 : MS_IF_UPDATES;
#define ADD_STAT(name, shown, view_head, view_w, what) \
	if ((shown) & where && !((shown) & hide))      \
		add_u64(o, #name, st->name);
	MS_STATS(ADD_STAT)
#undef ADD_STAT
}

static cJSON *core_list(const uint64_t *bits, int cores)
{
	cJSON *a = cJSON_CreateArray();
	for (int c = 0; c < cores; c++)
		if (bits[c / 64] >> (c % 64) & 1)
			cJSON_AddItemToArray(a, cJSON_CreateNumber(c));
	return a;
}

static int popcount_bits(const uint64_t *bits, size_t words)
{
	int n = 0;
	for (size_t i = 0; i < words; i++)
		n += __builtin_popcountll(bits[i]);
	return n;
}

/* Different cores write different offsets of the line and no
 * offset is written by more than one core. */
static int false_sharing(const struct ms_line_info *li, size_t words)
{
	int written = 0;
	uint64_t first = UINT64_MAX;
	int distinct = 0;
	for (uint32_t i = 0; i < li->n_offsets; i++) {
		const struct ms_offset_stats *o = &li->offsets[i];
		if (!o->writes)
			continue;
		int w = popcount_bits(o->writers, words);
		if (w > 1)
			return 0;
		for (size_t k = 0; k < words; k++)
			if (o->writers[k]) {
				uint64_t c = k * 64 + (uint64_t)__builtin_ctzll(o->writers[k]);
				if (first == UINT64_MAX)
					first = c;
				else if (c != first)
					distinct = 1;
				break;
			}
		written++;
	}
	return written > 1 && distinct;
}

/* Busiest first: most HITMs, then most bounces, then program order. */
static int cmp_pc(const void *a, const void *b)
{
	const struct ms_pc_stats *x = a, *y = b;
	if (x->hitm != y->hitm)
		return x->hitm > y->hitm ? -1 : 1;
	if (x->bounces != y->bounces)
		return x->bounces > y->bounces ? -1 : 1;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The instructions whose misses found the line dirty elsewhere or took it
 * from another core: perf c2c's code behind each line. NULL when out of
 * memory. */
static cJSON *insns_json(const struct ms_line_info *li, struct rep_source *src)
{
	cJSON *a = cJSON_CreateArray();
	struct ms_pc_stats *v = malloc((li->n_pcs ? li->n_pcs : 1) * sizeof *v);
	if (!v || !a) {
		free(v);
		cJSON_Delete(a);
		return NULL;
	}
	memcpy(v, li->pcs, li->n_pcs * sizeof *v);
	qsort(v, li->n_pcs, sizeof *v, cmp_pc);
	for (uint32_t i = 0; i < li->n_pcs; i++) {
		char where[256], text[160];
		if (rep_source_insn(src, v[i].pc, where, sizeof where, text, sizeof text)) {
			free(v);
			cJSON_Delete(a);
			return NULL;
		}
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "at", where);
		cJSON_AddStringToObject(x, "insn", text);
#define ADD_PC_STAT(name, c2c_head) add_u64(x, #name, v[i].name);
		MS_PC_STATS(ADD_PC_STAT)
#undef ADD_PC_STAT
		cJSON_AddItemToArray(a, x);
	}
	free(v);
	return a;
}

static cJSON *line_json(const struct runner *r, const struct rep_symbols *so, const struct ms_line_info *li,
			size_t words, struct rep_source *src)
{
	int cores = r->run.cores;
	cJSON *o = cJSON_CreateObject();
	char name[256];
	add_hex(o, "address", li->line);
	struct place pl = place_of(so, li->line);
	cJSON_AddStringToObject(o, "region", pl.region);
	cJSON *syms = cJSON_AddArrayToObject(o, "symbols");
	const char *last = NULL;
	for (uint64_t a = li->line; a < li->line + r->run.cpu.line_size; a++) {
		struct place q = place_of(so, a);
		if (q.sym && (!last || strcmp(last, q.sym->name) != 0)) {
			cJSON_AddItemToArray(syms, cJSON_CreateString(q.sym->name));
			last = q.sym->name;
		}
	}
	add_stats(o, &li->stats, MS_IN_LINE, r);
	cJSON_AddBoolToObject(o, "false_sharing", false_sharing(li, words));
	cJSON *offs = cJSON_AddArrayToObject(o, "offsets");
	for (uint32_t i = 0; i < li->n_offsets; i++) {
		const struct ms_offset_stats *os = &li->offsets[i];
		cJSON *x = cJSON_CreateObject();
		add_u64(x, "offset", os->offset);
		struct place q = place_of(so, li->line + os->offset);
		place_name(&q, name, sizeof name);
		cJSON_AddStringToObject(x, "at", name);
		add_u64(x, "size", os->size);
#define ADD_OFFSET_STAT(name, to_symbol, c2c_head) add_u64(x, #name, os->name);
		MS_OFFSET_STATS(ADD_OFFSET_STAT)
#undef ADD_OFFSET_STAT
		cJSON_AddItemToObject(x, "readers", core_list(os->readers, cores));
		cJSON_AddItemToObject(x, "writers", core_list(os->writers, cores));
		cJSON_AddItemToArray(offs, x);
	}
	cJSON *insns = insns_json(li, src);
	if (!insns || !o) {
		cJSON_Delete(insns);
		cJSON_Delete(o);
		return NULL;
	}
	cJSON_AddItemToObject(o, "instructions", insns);
	return o;
}

/* Per-symbol totals: the lines a symbol occupies (every CPU's copy for a
 * per-CPU symbol), or for the statistics counted per offset (MS_BY_OFFSET)
 * the offsets inside it. */
static void symbol_lines(const struct runner *r, struct memsys *ms, uint64_t addr, uint64_t size,
			 struct ms_stats *acc, uint64_t *nlines, int *accessed)
{
	uint32_t ls = r->run.cpu.line_size;
	uint64_t first = addr & ~(uint64_t)(ls - 1);
	for (uint64_t l = first; l < addr + size; l += ls) {
		struct ms_line_info li;
		(*nlines)++;
		if (!ms_line_info(ms, l, &li))
			continue;
		*accessed = 1;
#define SUM_LINE(name, shown, view_head, view_w, what)                       \
	if ((shown) & MS_IN_SYMBOL && !(MS_BY_OFFSET & MS_STAT_BIT(name))) \
		acc->name += li.stats.name;
		MS_STATS(SUM_LINE)
#undef SUM_LINE
		for (uint32_t i = 0; i < li.n_offsets; i++) {
			const struct ms_offset_stats *os = &li.offsets[i];
			uint64_t a = l + os->offset;
			if (a >= addr && a < addr + size) {
#define SUM_OFFSET(name, to_symbol, c2c_head) MS_IF_##to_symbol(acc->name += os->name;)
				MS_OFFSET_STATS(SUM_OFFSET)
#undef SUM_OFFSET
			}
		}
	}
}

static cJSON *symbol_json(const struct runner *r, const struct symbol *y)
{
	struct sim *sim = r->sim;
	struct memsys *ms = sim_memsys(sim);
	const struct program *p = &r->prog;
	cJSON *o = cJSON_CreateObject();
	uint64_t size = y->size ? y->size : 8;
	struct ms_stats acc = {0};
	uint64_t nlines = 0;
	int64_t value = runner_symbol_value(r, y);
	int accessed = 0;
	uint64_t ghost_addr;
	if (y->section == SEC_PERCPU) {
		cJSON_AddStringToObject(o, "section", "percpu");
		/* The symbol's "address": CPU 0's copy; the others follow at the stride. */
		add_hex(o, "address", program_percpu_offset(p, 0) + (uint64_t)y->value);
		add_hex(o, "offset", (uint64_t)y->value);
		add_hex(o, "stride", p->percpu_stride);
		for (int c = 0; c < r->run.cores; c++) {
			uint64_t a = program_percpu_offset(p, c) + (uint64_t)y->value;
			symbol_lines(r, ms, a, size, &acc, &nlines, &accessed);
		}
		add_u64(o, "size", size);
		add_u64(o, "footprint", size * (uint64_t)r->run.cores);
		ghost_addr = (uint64_t)y->value;
	} else {
		cJSON_AddStringToObject(o, "section", "data");
		add_hex(o, "address", (uint64_t)y->value);
		symbol_lines(r, ms, (uint64_t)y->value, size, &acc, &nlines, &accessed);
		add_u64(o, "size", size);
		add_u64(o, "footprint", size);
		ghost_addr = (uint64_t)y->value;
	}
	/* A per-CPU symbol's value is the sum of its copies: what a reader
	 * summing every CPU would get. */
	rep_add_int(o, "value", value);
	add_u64(o, "lines", nlines);
	/* Variants often carry every design's instance; only the ones a run
	 * touched count towards its footprint in the summaries. */
	cJSON_AddBoolToObject(o, "accessed", accessed);
	add_stats(o, &acc, MS_IN_SYMBOL, r);
	const struct ghost *g = sim_ghost(sim, ghost_addr);
	if (g) {
		cJSON *x = cJSON_AddObjectToObject(o, "accuracy");
		rep_add_int(x, "exact", g->exact);
		add_u64(x, "reads", g->reads);
		add_u64(x, "max_error", g->max_err);
		cJSON_AddNumberToObject(x, "mean_error", g->mean_err);
	}
	return o;
}

static cJSON *core_json(const struct runner *r, int c)
{
	const struct core_stats *cs = sim_core_stats(r->sim, c);
	const struct ms_stats *ms = ms_core_stats(sim_memsys(r->sim), c);
	cJSON *o = cJSON_CreateObject();
	add_u64(o, "id", (uint64_t)c);
	add_u64(o, "socket", (uint64_t)cpu_model_place(&r->run.cpu, c).socket);
	add_u64(o, "instructions", cs->instructions);
	cJSON *cy = cJSON_AddObjectToObject(o, "cycles");
	for (int a = 0; a < CORE_NCYCLES; a++)
		add_u64(cy, core_activity_names[a].report, cs->cycles[a]);
	add_u64(o, "locked_ops", cs->locked_ops);
	add_u64(o, "locked_cycles", cs->locked_cycles);
	add_u64(o, "irqs", cs->irqs_hard + cs->irqs_soft);
	add_stats(o, ms, MS_IN_CORE, r);
	return o;
}

/* `ms` and `cs` are the names RUN_TOTALS' value expressions use. */
static void add_totals(cJSON *o, const struct ms_stats *ms, const struct core_stats *cs)
{
#define ADD_TOTAL(name, value, listed) add_u64(o, #name, (value));
	RUN_TOTALS(ADD_TOTAL)
#undef ADD_TOTAL
}

static void add_notes(cJSON *a, const struct runner *r)
{
	struct rep_note notes[8];
	size_t n = rep_runner_notes(r, notes, sizeof notes / sizeof notes[0]);
	for (size_t i = 0; i < n && i < sizeof notes / sizeof notes[0]; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "kind", notes[i].kind);
		if (notes[i].subject[0])
			cJSON_AddStringToObject(o, "symbol", notes[i].subject);
		cJSON_AddStringToObject(o, "text", notes[i].text);
		cJSON *ev = cJSON_AddObjectToObject(o, "evidence");
		for (size_t k = 0; k < notes[i].n_evidence; k++)
			add_u64(ev, notes[i].evidence[k].name, notes[i].evidence[k].value);
		cJSON_AddItemToArray(a, o);
	}
}

static int cmp_line_addr(const void *a, const void *b)
{
	const struct ms_line_info *x = a, *y = b;
	return x->line < y->line ? -1 : x->line > y->line;
}

int rep_add_variant(cJSON *rep, const struct runner *r, struct err *e)
{
	struct sim *sim = r->sim;
	struct memsys *ms = sim_memsys(sim);
	const struct program *p = &r->prog;
	cJSON *v = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_GetObjectItem(rep, "variants"), v);
	cJSON_AddStringToObject(v, "name", r->run.variant);
	const char *desc = r->scen->variants[r->variant].description;
	if (desc && desc[0])
		cJSON_AddStringToObject(v, "description", desc);
	cJSON_AddStringToObject(v, "cpu", r->run.cpu.name);
	/* What the command line changed in the model, only when it did: the
	 * reports of runs without them stay as they were. */
	if (r->run.n_cpu_keys) {
		cJSON *ck = cJSON_AddObjectToObject(v, "cpu_set");
		for (size_t i = 0; i < r->run.n_cpu_keys; i++)
			cJSON_AddStringToObject(ck, r->run.cpu_keys[i].key, r->run.cpu_keys[i].value);
	}
	if (r->run.placement != PLACE_NONE)
		cJSON_AddStringToObject(v, "placement", placement_name(r->run.placement));
	/* "cores" is the per-core table, so the count has its own name. */
	add_u64(v, "core_count", (uint64_t)r->run.cores);
	add_u64(v, "seed", r->run.seed);
	cJSON_AddStringToObject(v, "stopped", runner_stop_name(r->stop));
	uint64_t cycles = sim_cycles(sim);
	add_u64(v, "cycles", cycles);
	double secs = (double)cycles / (r->run.cpu.ghz * 1e9);
	cJSON_AddNumberToObject(v, "seconds", secs);
	struct core_stats cs;
	sim_total_core_stats(sim, &cs);
	add_u64(v, "instructions", cs.instructions);
	uint64_t ops = runner_ops(r);
	add_u64(v, "ops", ops);
	cJSON_AddNumberToObject(v, "ops_per_sec", secs > 0 ? (double)ops / secs : 0.0);

	struct ms_stats t;
	ms_total_stats(ms, &t);
	cJSON_AddNumberToObject(v, "bounces_per_op", ops ? (double)t.bounces / (double)ops : 0.0);
	add_totals(cJSON_AddObjectToObject(v, "totals"), &t, &cs);

	cJSON *marks = cJSON_AddObjectToObject(v, "marks");
	for (uint32_t i = 0; i < p->n_marks; i++)
		add_u64(marks, p->marks[i], r->mark_counts[i]);
	add_notes(cJSON_AddArrayToObject(v, "notes"), r);

	cJSON *syms = cJSON_AddObjectToObject(v, "symbols");
	for (size_t i = 0; i < r->run.n_report; i++) {
		const struct symbol *y = program_symbol(p, r->run.report[i]);
		if (NEVER(!y || (y->section != SEC_DATA && y->section != SEC_PERCPU))) {
			/* runner_prepare checked every name (check_report); syms
			 * belongs to rep already: freed with it. */
			return err_internal(e, "report: '%s' is not a .data or .percpu symbol of the program",
					    r->run.report[i]);
		}
		cJSON_AddItemToObject(syms, y->name, symbol_json(r, y));
	}

	/* The shared-line table: every line that bounced, busiest first. */
	const struct ms_line_info *hot;
	ptrdiff_t got = ms_hot_lines(ms, &hot);
	size_t n = got > 0 ? (size_t)got : 0;
	struct ms_line_info *sorted = got < 0 ? NULL : malloc((n ? n : 1) * sizeof *sorted);
	if (!sorted)
		return err_internal(e, "out of memory");
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (hot[i].stats.bounces || hot[i].stats.hitm)
			sorted[m++] = hot[i];
	qsort(sorted, m, sizeof *sorted, cmp_line_addr);
	cJSON *lines = cJSON_AddArrayToObject(v, "lines");
	size_t words = ms_bitset_words(ms);
	struct rep_source *src = rep_source_new(r);
	if (!src) {
		free(sorted);
		return err_internal(e, "out of memory");
	}
	struct rep_symbols so;
	if (rep_symbols_init(&so, p)) {
		rep_source_free(src);
		free(sorted);
		return err_internal(e, "out of memory");
	}
	int oom = 0;
	for (size_t i = 0; i < m && !oom; i++) {
		cJSON *l = line_json(r, &so, &sorted[i], words, src);
		oom = !l;
		cJSON_AddItemToArray(lines, l);
	}
	rep_symbols_free(&so);
	rep_source_free(src);
	free(sorted);
	if (oom)
		return err_internal(e, "out of memory");

	cJSON *cores = cJSON_AddArrayToObject(v, "cores");
	for (int c = 0; c < r->run.cores; c++)
		cJSON_AddItemToArray(cores, core_json(r, c));
	return 0;
}
