/* Sanity notes (report_notes.h): each test reads only what the run counted
 * (ghost counters, mark counts, the cores' cycle split, the lines the
 * memory system saw), so a note is evidence, never a guess about intent. */
#include "config.h"
#include "report/report_notes.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct notes {
	struct rep_note *out;
	size_t cap, n;
	struct rep_note scratch; /* where notes past cap are written */
};

static struct rep_note *note_new(struct notes *ns, const char *kind, const char *subject)
{
	struct rep_note *n = ns->n < ns->cap ? &ns->out[ns->n] : &ns->scratch;
	ns->n++;
	memset(n, 0, sizeof *n);
	n->kind = kind;
	snprintf(n->subject, sizeof n->subject, "%s", subject ? subject : "");
	return n;
}

static void evidence(struct rep_note *n, const char *name, uint64_t value)
{
	if (n->n_evidence < REP_NOTE_MAX_EVIDENCE) {
		n->evidence[n->n_evidence].name = name;
		n->evidence[n->n_evidence].value = value;
		n->n_evidence++;
	}
}

static void say(struct rep_note *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct rep_note *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(n->text, sizeof n->text, fmt, ap);
	va_end(ap);
}

/* A reported counter whose approximate reads were each, when off, 0: none
 * of the count ever reached what they read. For a percpu_counter that is a
 * batch no CPU's share reached, and the read error is the whole count. */
static void never_folded(const struct runner *r, struct notes *ns)
{
	for (size_t i = 0; i < r->run.n_report; i++) {
		const struct symbol *y = program_symbol(&r->prog, r->run.report[i]);
		const struct ghost *g = y ? sim_ghost(r->sim, (uint64_t)y->value) : NULL;
		if (!g || !g->off_reads || g->blind_reads != g->off_reads)
			continue;
		struct rep_note *n = note_new(ns, "never_folded", y->name);
		evidence(n, "reads", g->reads);
		evidence(n, "off_reads", g->off_reads);
		evidence(n, "blind_reads", g->blind_reads);
		evidence(n, "max_error", g->max_err);
		say(n, "%s: every approximate read that was off (%" PRIu64 " of %" PRIu64 ") returned 0, none of "
		    "the count (max error %" PRIu64 "): a per-CPU counter whose CPUs never folded (its batch is "
		    "more than any CPU added), so its read error is the whole count", y->name, g->off_reads,
		    g->reads, g->max_err);
	}
}

static void few_ops(const struct runner *r, struct notes *ns)
{
	uint64_t ops = runner_ops(r), cores = (uint64_t)r->run.cores;
	if (ops >= cores)
		return;
	struct rep_note *n = note_new(ns, "few_ops", NULL);
	evidence(n, "ops", ops);
	evidence(n, "cores", cores);
	if (ops == 0)
		say(n, "no operation (`mark op`) ran on its %" PRIu64 " cores: ops/s and every per-op figure are 0",
		    cores);
	else
		say(n, "%" PRIu64 " operation%s on %" PRIu64 " cores, fewer than one per core: per-op figures rest "
		    "on a few operations and cores that did none", ops, ops == 1 ? "" : "s", cores);
}

static uint64_t core_cycles(const struct core_stats *cs)
{
	uint64_t t = 0;
	for (int a = 0; a < CORE_NCYCLES; a++)
		t += cs->cycles[a];
	return t;
}

/* Warm-up: every line's first access is a fetch from memory, which costs
 * at least the model's local memory latency. */
static void warm_up(const struct runner *r, struct notes *ns, const struct core_stats *cs)
{
	uint64_t lines = ms_lines_touched(sim_memsys(r->sim));
	uint64_t all = core_cycles(cs), lat = r->run.cpu.lat_mem_local;
	uint64_t cost = lines * lat;
	if (!all || (double)cost <= REP_NOTE_WARM_UP_SHARE * (double)all)
		return;
	struct rep_note *n = note_new(ns, "warm_up", NULL);
	evidence(n, "lines_touched", lines);
	evidence(n, "lat_mem_local", lat);
	evidence(n, "core_cycles", all);
	say(n, "the first touch of its %" PRIu64 " lines, a fetch from memory of %" PRIu64 " cycles or more "
	    "each, is %.0f%% of the cores' %" PRIu64 " cycles, over %.0f%%: its figures are mostly warm-up; "
	    "a longer run amortises it", lines, lat, 100.0 * (double)cost / (double)all, all,
	    100 * REP_NOTE_WARM_UP_SHARE);
}

/* A lock's waiters: pause in its wait loop, and a miss each time the
 * lock's line changes hands. Pause alone undercounts them on a CPU whose
 * pause is short; misses alone are any contended line's, so both must be. */
static void spinning(struct notes *ns, const struct core_stats *cs)
{
	uint64_t all = core_cycles(cs), spin = cs->cycles[CORE_ACT_SPIN], miss = cs->cycles[CORE_ACT_MISS];
	if (!all || (double)spin < REP_NOTE_SPIN_MIN * (double)all ||
	    (double)(spin + miss) <= REP_NOTE_WAIT_SHARE * (double)all)
		return;
	struct rep_note *n = note_new(ns, "spinning", NULL);
	evidence(n, "spin_cycles", spin);
	evidence(n, "miss_stall_cycles", miss);
	evidence(n, "core_cycles", all);
	say(n, "its cores spun (pause, in lock wait loops) %.0f%% of their %" PRIu64 " cycles and stalled on "
	    "misses %.0f%% (a waiter re-fetches the lock's line at each hand-over; --c2c names the lines), "
	    "%.0f%% in all: the figures measure waiting more than the work", 100.0 * (double)spin / (double)all,
	    all, 100.0 * (double)miss / (double)all, 100.0 * (double)(spin + miss) / (double)all);
}

/* Under an update protocol a store reaches the other copies when it is
 * made, not a message's leg later, while cores run up to two legs ahead
 * of one another: a core may read a store before it was made, and stores
 * to two lines can be seen out of order (docs/architecture.md, Coherence
 * protocols). Said of every run where an update was sent, for an algorithm
 * that orders two lines can then fail where hardware would not. */
static void update_order(const struct runner *r, struct notes *ns)
{
	struct ms_stats t;
	ms_total_stats(sim_memsys(r->sim), &t);
	if (!t.updates_sent)
		return;
	struct rep_note *n = note_new(ns, "update_order", NULL);
	evidence(n, "updates_sent", t.updates_sent);
	say(n, "%" PRIu64 " stores updated other cores' copies (an update protocol): here a store reaches them when "
	    "it is made, while cores run up to two legs apart, so stores to two lines may be seen out of order "
	    "(x86-TSO forbids it); figures that rest on the order of two lines may be wrong",
	    t.updates_sent);
}

size_t rep_runner_notes(const struct runner *r, struct rep_note *out, size_t cap)
{
	struct notes ns = {.out = out, .cap = cap};
	if (!r->sim)
		return 0;
	struct core_stats cs;
	sim_total_core_stats(r->sim, &cs);
	never_folded(r, &ns);
	few_ops(r, &ns);
	warm_up(r, &ns, &cs);
	spinning(&ns, &cs);
	update_order(r, &ns);
	return ns.n;
}
