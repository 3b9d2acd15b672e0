/* The simulation driver: builds the machine from a sim_config and runs it
 * by popping the (cycle, seq) event queue. Each event is a core's execution
 * or its store buffer's drain; nothing else is ever scheduled. */
#include "config.h"
#include "cpu/sim.h"
#include "cpu/fast_forward.h"
#include "mem/coherence.h"
#include "base/big_alloc.h"
#include "base/invariant.h"

#include <stdlib.h>
#include <string.h>

struct sim {
	struct cpu_model m;
	const struct program *prog;
	struct memsys *ms;
	struct evq q;
	struct core_env env;
	struct core *cores;
	struct core_ff_log *ff_log;
	struct irq_source *irq_src;
	uint8_t *forms;
	uint64_t limit;
	int check;
	enum sim_status status;
	struct err err;
	uint64_t end;
	struct sim_observer obs;
};

const char *sim_status_name(enum sim_status st)
{
	switch (st) {
	case SIM_RUNNING: return "running";
	case SIM_HALTED: return "all halted";
	case SIM_LIMIT: return "stopped at limit";
	default: return "error";
	}
}

static int validate(const struct sim_config *cfg, struct err *e)
{
	const struct program *p = cfg->prog;
	if (!p)
		return err_set(e, NULL, 0, 0, "no program");
	if (cpu_model_validate(&cfg->cpu, e))
		return -1;
	if (p->nr_cpus != cfg->cpu.cores)
		return err_set(e, NULL, 0, 0, "program assembled for %d CPUs, machine has %d",
			       p->nr_cpus, cfg->cpu.cores);
	if (p->line_size && p->line_size != cfg->cpu.line_size)
		return err_set(e, NULL, 0, 0, "program laid out for %u-byte lines, machine has %u",
			       p->line_size, cfg->cpu.line_size);
	for (uint32_t i = 0; i < p->n_insns; i++) {
		const struct insn *in = &p->insns[i];
		if ((in->op == OP_JMP || in->op == OP_JCC || in->op == OP_CALL) && in->target >= p->n_insns)
			return program_err(e, p, i, "invalid jump target %u", in->target);
		if (in->op >= OP_NOPCODES)
			return program_err(e, p, i, "unknown opcode %u", in->op);
	}
	uint8_t *seen = calloc((size_t)cfg->cpu.cores, 1);
	if (!seen)
		return err_internal(e, "out of memory");
	for (size_t t = 0; t < cfg->n_threads; t++) {
		const struct sim_thread *th = &cfg->threads[t];
		if (th->cpu < 0 || th->cpu >= cfg->cpu.cores) {
			free(seen);
			return err_set(e, NULL, 0, 0, "thread %zu: cpu %d does not exist (%d cores)", t,
				       th->cpu, cfg->cpu.cores);
		}
		if (seen[th->cpu]++) {
			free(seen);
			return err_set(e, NULL, 0, 0, "thread %zu: cpu %d already runs a thread", t, th->cpu);
		}
		if (th->entry >= p->n_insns) {
			free(seen);
			return err_set(e, NULL, 0, 0, "thread %zu: entry %u is outside the program", t,
				       th->entry);
		}
	}
	free(seen);
	for (size_t i = 0; i < cfg->n_irqs; i++) {
		const struct sim_irq_source *s = &cfg->irqs[i];
		if (s->handler >= p->n_insns)
			return err_set(e, NULL, 0, 0, "interrupt %zu: handler %u is outside the program", i,
				       s->handler);
		if (s->every < 1)
			return err_set(e, NULL, 0, 0, "interrupt %zu: every must be at least 1 cycle", i);
		if (!(s->jitter >= 0.0 && s->jitter <= 1.0))
			return err_set(e, NULL, 0, 0, "interrupt %zu: jitter %g is not in 0..1", i, s->jitter);
	}
	if (cfg->n_irqs > 65535)
		return err_set(e, NULL, 0, 0, "too many interrupt sources");
	return 0;
}

/* The initial memory image: .data once, .percpu once per CPU (zeros cost
 * nothing: memory is sparse). */
static int load_image(struct memsys *ms, const struct program *p, struct err *e)
{
	if (ms_write_image(ms, p->data_base, &p->data_image, p->data_size, e))
		return -1;
	for (int c = 0; c < p->nr_cpus && p->percpu_size && p->percpu_image; c++)
		if (ms_write_memory(ms, program_percpu_offset(p, c), p->percpu_image, p->percpu_size, e))
			return -1;
	return 0;
}

static void wake(void *ctx, int core, int what, uint64_t t)
{
	struct core_env *env = ctx;
	if (what == MS_WAKE_MSG) {
		/* a parked core's lines may change at t: it runs again from
		 * before then (its event may lie before the fabric's next) */
		struct core *c = &env->cores[core];
		if (c->state == CORE_PARKED) {
			uint64_t at = core_ff_unpark(env, c, t);
			if (at == UINT64_MAX)
				env->failed = 1;
			ms_run_hold(env->ms, at == UINT64_MAX ? 0 : at);
		}
		return;
	}
	/* the cores' event it schedules may come before the fabric's next */
	ms_run_hold(env->ms, t);
	if (core_mem_wake(env, &env->cores[core], what, t)) {
		env->failed = 1;
		ms_run_hold(env->ms, 0);
	}
}

struct sim *sim_create(const struct sim_config *cfg, struct err *e)
{
	if (validate(cfg, e))
		return NULL;
	struct sim *s = calloc(1, sizeof *s);
	if (!s) {
		err_internal(e, "out of memory");
		return NULL;
	}
	uint16_t *which = NULL;
	s->m = cfg->cpu;
	s->prog = cfg->prog;
	uint64_t irq_pairs = 0;
	for (size_t t = 0; !cfg->stop_cycles && t < cfg->n_threads; t++)
		for (size_t i = 0; i < cfg->n_irqs; i++)
			irq_pairs += cpuset_has(&cfg->irqs[i].cpus, cfg->threads[t].cpu);
	s->limit = cfg->stop_cycles ? cfg->stop_cycles : sim_default_limit(cfg->cpu.cores, irq_pairs);
	s->check = cfg->check;
	s->status = SIM_RUNNING;
	int n = s->m.cores;

	if (!(s->ms = ms_create(&s->m, s->prog->mem_size, e)))
		goto fail;
	if (load_image(s->ms, s->prog, e))
		goto fail;
	ms_set_checking(s->ms, cfg->check);
	if (evq_init(&s->q, 2 * (size_t)n + 4, e))
		goto fail;
	/* Cores' events of one cycle go in core order (a core's execution
	 * before its buffer's drain), not in push order: when a core pushes
	 * its next event depends on how far it ran ahead, which must not
	 * decide which of two misses in one cycle is issued first. */
	evq_order_by_id(&s->q);
	/* aligned as struct core asks (its hot fields are laid out by line) */
	_Static_assert(_Alignof(struct core) <= 4096, "big_zalloc aligns to a page");
	s->cores = big_zalloc((size_t)n, sizeof *s->cores);
	s->ff_log = calloc((size_t)n, sizeof *s->ff_log);
	s->irq_src = calloc(cfg->n_irqs ? cfg->n_irqs : 1, sizeof *s->irq_src);
	which = malloc((cfg->n_irqs ? cfg->n_irqs : 1) * sizeof *which);
	struct core_env *env = &s->env;
	env->ghosts = ghost_table_new();
	s->forms = core_forms_new(cfg->prog, cfg->generic_dispatch);
	if (!s->cores || !s->ff_log || !s->irq_src || !which || !env->ghosts || !s->forms) {
		err_internal(e, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < cfg->n_irqs; i++) {
		const struct sim_irq_source *c = &cfg->irqs[i];
		s->irq_src[i] = (struct irq_source){
			.kind = (uint8_t)c->kind,
			.poisson = c->arrival == SIM_ARRIVAL_POISSON,
			.handler = c->handler, .every = c->every, .jitter = c->jitter,
		};
	}
	env->prog = s->prog;
	env->forms = s->forms;
	env->m = &s->m;
	env->ms = s->ms;
	env->q = &s->q;
	env->cores = s->cores;
	env->ff_log = s->ff_log;
	env->ncores = n;
	env->limit = s->limit;
	/* Parking rests on a held line changing only by a message to its
	 * core; an update protocol's store changes the other copies in place
	 * (memsys.c, send_update), so there waiting cores run their loops. */
	env->fast_forward = !cfg->no_fast_forward && !coh_updates(ms_protocol(s->ms));
	env->lookahead = ms_lookahead(s->ms);
	env->issue_lookahead = ms_issue_lookahead(s->ms);
	ms_set_waker(s->ms, wake, env);
	/* A store reaches L1 one L1 access after it enters the buffer, so a
	 * load right behind it can pass it (SB's r1 = r2 = 0). */
	env->sb_delay = s->m.lat_l1_hit ? s->m.lat_l1_hit : 1;
	env->store_forward = s->m.lat_store_forward;
	env->irq_src = s->irq_src;
	const struct program *p = s->prog;
	env->map[0][0] = p->data_base;
	env->map[0][1] = p->data_base + p->data_size;
	env->map[1][0] = p->percpu_base;
	env->map[1][1] = p->percpu_base + (uint64_t)p->nr_cpus * p->percpu_stride;
	env->map[2][0] = p->stack_base;
	env->map[2][1] = p->mem_size;

	for (int c = 0; c < n; c++) {
		core_init(env, &s->cores[c], c);
		if (sb_init(&s->cores[c].sb, s->m.sb_entries, s->m.store_commit_width, e))
			goto fail;
	}
	struct rng skew;
	rng_seed(&skew, cfg->seed, 0);
	for (size_t t = 0; t < cfg->n_threads; t++) {
		const struct sim_thread *th = &cfg->threads[t];
		struct core *c = &s->cores[th->cpu];
		uint64_t start = rng_upto(&skew, cfg->start_skew);
		unsigned k = 0;
		for (size_t i = 0; i < cfg->n_irqs; i++)
			if (cpuset_has(&cfg->irqs[i].cpus, th->cpu))
				which[k++] = (uint16_t)i;
		if (irq_cpu_init(&c->irq, s->irq_src, which, k, cfg->seed, th->cpu, start, e))
			goto fail;
		core_start(env, c, th->entry, th->regs, th->regs_set, start);
		if (evq_push(&s->q, start, CORE_EV_EXEC(th->cpu))) {
			err_internal(e, "out of memory in the event queue");
			goto fail;
		}
	}
	free(which);
	if (env->running == 0)
		s->status = SIM_HALTED;
	return s;
fail:
	free(which);
	sim_destroy(s);
	return NULL;
}

void sim_destroy(struct sim *s)
{
	if (!s)
		return;
	if (s->cores)
		for (int c = 0; c < s->m.cores; c++)
			core_free(&s->cores[c]);
	big_free(s->cores);
	free(s->ff_log);
	free(s->irq_src);
	free(s->forms);
	ghost_table_free(s->env.ghosts);
	evq_free(&s->q);
	ms_destroy(s->ms);
	free(s);
}

static enum sim_status finish(struct sim *s, enum sim_status st, struct err *e)
{
	s->status = st;
	if (st == SIM_ERROR && e)
		*e = s->err;
	if (st == SIM_HALTED) {
		s->end = 0;
		for (int c = 0; c < s->m.cores; c++)
			if (s->cores[c].st.halted_at > s->end)
				s->end = s->cores[c].st.halted_at;
	} else if (st == SIM_LIMIT) {
		s->end = s->limit;
		for (int c = 0; c < s->m.cores && s->env.parked; c++)
			if (s->cores[c].state == CORE_PARKED && core_ff_finish(&s->env, &s->cores[c], s->limit)) {
				s->err = s->env.err;
				s->status = SIM_ERROR;
				if (e)
					*e = s->err;
				return SIM_ERROR;
			}
		for (int c = 0; c < s->m.cores; c++)
			core_stop_at_limit(&s->cores[c], s->limit);
	}
	if (ghost_settle(s->env.ghosts, UINT64_MAX)) {
		err_internal(&s->err, "out of memory for ghost counters");
		s->status = SIM_ERROR;
		if (e)
			*e = s->err;
		return SIM_ERROR;
	}
	return st;
}

/* The next event of either queue: the cores' or the fabric's messages
 * (*fabric: the fabric's; messages of a cycle go before the cores' events). */
static inline uint64_t next_at(const struct sim *s, int *fabric)
{
	uint64_t a = evq_peek_time(&s->q), b = ms_next_event(s->ms);
	*fabric = b <= a;
	/* with nothing left to happen, parked cores wait until the limit */
	if (a == UINT64_MAX && b == UINT64_MAX && s->env.parked)
		return s->limit;
	return a < b ? a : b;
}

/* One event (with `many`, a run of the fabric's), if its cycle is below
 * `bound`; next and fabric are next_at's. */
static enum sim_status step_at(struct sim *s, uint64_t next, int fabric, uint64_t bound,
			       int many, struct err *e)
{
	uint64_t t;
	uint32_t id;
	if (s->status != SIM_RUNNING) {
		if (s->status == SIM_ERROR && e)
			*e = s->err;
		return s->status;
	}
	if (next == UINT64_MAX) {
		if (ALWAYS(s->env.running == 0))
			return finish(s, SIM_HALTED, e);
		err_internal(&s->err, "no events left but %d threads have not halted", s->env.running);
		return finish(s, SIM_ERROR, e);
	}
	if (next >= s->limit)
		return finish(s, SIM_LIMIT, e);
	if (next >= bound)
		return SIM_RUNNING;
	struct core_env *env = &s->env;
	if (fabric) {
		/* Messages of a cycle arrive before the cores act in it. With
		 * `many`, the fabric's events that come before the cores' next
		 * one (a fill may add an earlier one: wake holds the run there)
		 * are taken in one ms_run, as this loop would take them one by
		 * one: a contended operation has about four in a row. */
		env->now = next;
		if (many) {
			uint64_t last = ms_run(s->ms, evq_peek_time(&s->q), bound < s->limit ? bound : s->limit);
			if (last > next)
				env->now = last;
		} else {
			ms_step(s->ms);
		}
		if (env->failed || err_is_set(&env->err)) {
			s->err = env->err;
			return finish(s, SIM_ERROR, e);
		}
		if (ms_check_error(s->ms, &s->err))
			return finish(s, SIM_ERROR, e);
		return SIM_RUNNING;
	}
	if (NEVER(!evq_pop(&s->q, &t, &id))) {  /* next came from this queue */
		err_internal(&s->err, "the core queue is empty at cycle %llu", (unsigned long long)next);
		return finish(s, SIM_ERROR, e);
	}
	/* The bound only decides when to stop popping: cores run ahead exactly
	 * as in one sim_run, so a run viewed frame by frame is the same run. */
	env->now = t;
	struct core *c = &s->cores[id / 2];
	int r = id & 1 ? core_drain_event(env, c) : core_exec_event(env, c);
	if (r || env->failed || err_is_set(&env->err)) {
		s->err = env->err;
		if (NEVER(!err_is_set(&s->err)))
			err_internal(&s->err, "core %d failed without a message", c->id);
		return finish(s, SIM_ERROR, e);
	}
	if (ms_check_error(s->ms, &s->err))
		return finish(s, SIM_ERROR, e);
	if (env->running == 0 && evq_size(&s->q) == 0)
		return finish(s, SIM_HALTED, e);
	return SIM_RUNNING;
}

enum sim_status sim_run_until(struct sim *s, uint64_t cycle, struct err *e)
{
	uint64_t bound = cycle == UINT64_MAX ? UINT64_MAX : cycle + 1;
	enum sim_status st;
	s->env.run_bound = bound;
	int fabric;
	uint64_t next = next_at(s, &fabric);
	do {
		st = step_at(s, next, fabric, bound, 1, e);
		next = next_at(s, &fabric);
	} while (st == SIM_RUNNING && next < bound);
	/* a parked core's counts as far as the run has come, for whoever
	 * reads them before the next call */
	for (int c = 0; st == SIM_RUNNING && s->env.parked && c < s->m.cores; c++)
		core_ff_settle(&s->env, &s->cores[c], cycle);
	return st;
}

enum sim_status sim_run(struct sim *s, struct err *e)
{
	return sim_run_until(s, UINT64_MAX, e);
}

enum sim_status sim_step_event(struct sim *s, struct err *e)
{
	s->env.run_bound = 0; /* one event: a core that would go on yields */
	int fabric;
	uint64_t next = next_at(s, &fabric);
	return step_at(s, next, fabric, UINT64_MAX, 0, e);
}

enum sim_status sim_status(const struct sim *s) { return s->status; }
uint64_t sim_now(const struct sim *s) { return s->env.now; }
uint64_t sim_limit(const struct sim *s) { return s->limit; }
uint64_t sim_events(const struct sim *s)
{
	return evq_pushed(&s->q) - evq_size(&s->q) + ms_events(s->ms);
}
int sim_cores(const struct sim *s) { return s->m.cores; }
int sim_parked_cores(const struct sim *s) { return s->env.parked; }
struct memsys *sim_memsys(struct sim *s) { return s->ms; }
const struct program *sim_program(const struct sim *s) { return s->prog; }
const struct cpu_model *sim_cpu(const struct sim *s) { return &s->m; }

uint64_t sim_cycles(const struct sim *s)
{
	if (s->status == SIM_HALTED || s->status == SIM_LIMIT)
		return s->end;
	uint64_t t = s->env.now;
	for (int c = 0; c < s->m.cores; c++) {
		const struct core *k = &s->cores[c];
		uint64_t ct = k->state == CORE_HALTED ? k->st.halted_at : k->clock;
		if (k->state != CORE_IDLE && ct > t)
			t = ct;
	}
	return t;
}

void sim_core_view(const struct sim *s, int core, struct sim_core_view *out)
{
	const struct core *c = &s->cores[core];
	memset(out, 0, sizeof *out);
	memcpy(out->regs, c->r, sizeof out->regs);
	out->pc = c->pc;
	out->zf = c->zf;
	out->sf = c->sf;
	out->cf = c->cf;
	out->of = c->of;
	out->pf = (uint8_t)core_pf(c);
	out->intr_enabled = c->intr;
	out->bh_count = c->bh_count;
	out->preempt_count = c->preempt_count;
	out->in_handler = c->in_handler;
	out->halted = c->state == CORE_HALTED;
	out->activity = (enum core_activity)c->act;
	out->clock = c->clock;
	out->sb_used = sb_used(&c->sb);
}

const struct core_stats *sim_core_stats(const struct sim *s, int core)
{
	return &s->cores[core].st;
}

void sim_total_core_stats(const struct sim *s, struct core_stats *out)
{
	memset(out, 0, sizeof *out);
	for (int c = 0; c < s->m.cores; c++) {
		const struct core_stats *k = &s->cores[c].st;
		out->instructions += k->instructions;
		for (int i = 0; i < CORE_NCYCLES; i++)
			out->cycles[i] += k->cycles[i];
		out->locked_ops += k->locked_ops;
		out->locked_cycles += k->locked_cycles;
		out->irqs_hard += k->irqs_hard;
		out->irqs_soft += k->irqs_soft;
		out->sb_forwards += k->sb_forwards;
		if (k->halted_at > out->halted_at)
			out->halted_at = k->halted_at;
	}
}

/* The ghost instructions made so far: mid-run, those before the event
 * being processed (no core can make one before it any more); once the run
 * has ended, all (finish settled them, reporting a failure there). Out of
 * memory mid-run, a view shows what was applied. */
static void settle_ghosts(struct sim *s)
{
	(void)ghost_settle(s->env.ghosts, s->status == SIM_RUNNING ? s->env.now : UINT64_MAX);
}

size_t sim_ghosts(struct sim *s, const struct ghost **out)
{
	settle_ghosts(s);
	return ghost_list(s->env.ghosts, out);
}

const struct ghost *sim_ghost(struct sim *s, uint64_t addr)
{
	settle_ghosts(s);
	return ghost_find(s->env.ghosts, addr);
}

void sim_set_observer(struct sim *s, const struct sim_observer *o)
{
	if (o)
		s->obs = *o;
	else
		memset(&s->obs, 0, sizeof s->obs);
	/* a watched core is never parked: its loop's activity changes */
	for (int c = 0; s->obs.activity && s->env.parked && c < s->m.cores; c++)
		if (s->cores[c].state == CORE_PARKED)
			core_ff_unpark(&s->env, &s->cores[c], s->env.now);
	s->env.on_activity = s->obs.activity;
	s->env.on_mark = s->obs.mark;
	s->env.obs_ctx = s->obs.ctx;
}
