/* Building a runnable machine from a scenario variant (runner.h). This is
 * the only place that maps scenario names (labels, registers, CPU sets) to
 * the simulator's numbers, so every front end reports the same errors. */
#include "config.h"
#include "run/runner.h"

#include "asm/asm.h"
#include "base/suggest.h"
#include "load/c_compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* " (did you mean 'x'?)" for a name that is not a global label (data 0)
 * or .data/.percpu symbol (data 1) of p, x the closest global that is;
 * the reason when the name is one compiled file's own; else "". */
static void symbol_hint(const struct program *p, const char *name, int data, char *hint, size_t n)
{
	struct suggest g;
	suggest_init(&g, name);
	for (uint32_t i = 0; i < p->n_syms; i++) {
		int sec = p->syms[i].section;
		if (p->syms[i].local && strcmp(p->syms[i].name, name) == 0) {
			snprintf(hint, n, " (it is local to a compiled file: a static, or not .globl)");
			return;
		}
		if (!p->syms[i].local && (data ? sec == SEC_DATA || sec == SEC_PERCPU : sec == SEC_TEXT))
			suggest_offer(&g, p->syms[i].name);
	}
	if (suggest_best(&g))
		snprintf(hint, n, " (did you mean '%s'?)", suggest_best(&g));
	else
		hint[0] = 0;
}

static int label_index(const struct program *p, const char *label, const struct scenario *s,
		       const struct scen_loc *loc, const char *what, uint32_t *out, struct err *e)
{
	const struct symbol *sym = program_symbol(p, label);
	if (!sym || sym->section != SEC_TEXT) {
		char hint[160];
		symbol_hint(p, label, 0, hint, sizeof hint);
		return err_set(e, s->file, loc->line, loc->col,
			       "%s: %s label '%s' is not defined in the program%s", loc->path, what,
			       label, sym ? " (it names data, not code)" : hint);
	}
	*out = (uint32_t)sym->value;
	return 0;
}

/* Every name of "report" is a data or per-CPU symbol of this variant's
 * program (variants may assemble different programs): checked before the
 * run, at the name's place in the scenario, not after it when the report
 * is written. */
static int check_report(const struct runner *r, struct err *e)
{
	const struct program *p = &r->prog;
	for (size_t i = 0; i < r->run.n_report; i++) {
		const char *name = r->run.report[i];
		const struct symbol *sym = program_symbol(p, name);
		if (sym && (sym->section == SEC_DATA || sym->section == SEC_PERCPU))
			continue;
		char hint[160];
		symbol_hint(p, name, 1, hint, sizeof hint);
		const struct scen_loc *loc = &r->run.report_loc[i];
		return err_set(e, r->scen->file, loc->line, loc->col,
			       "%s: '%s' is not a .data or .percpu symbol of the program%s", loc->path, name,
			       !sym ? hint : sym->section == SEC_TEXT ? " (it names code)" : " (it is an .equ constant)");
	}
	return 0;
}

static int build_threads(struct runner *r, struct err *e)
{
	const struct scen_run *run = &r->run;
	size_t n = 0;
	for (size_t i = 0; i < run->n_threads; i++)
		for (int cpu = 0; cpu < run->cores; cpu++)
			n += scen_cpuset_has(&run->threads[i].cpus, cpu);
	r->threads = calloc(n ? n : 1, sizeof *r->threads);
	if (!r->threads)
		return err_internal(e, "out of memory");
	for (size_t i = 0; i < run->n_threads; i++) {
		const struct scen_thread *t = &run->threads[i];
		struct scen_loc loc = t->cpus.loc;
		snprintf(loc.path, sizeof loc.path, "$.threads[%zu].entry", i);
		uint32_t entry = 0;
		if (label_index(&r->prog, t->entry, r->scen, &loc, "entry", &entry, e))
			return -1;
		uint64_t regs[R_NREGS] = {0};
		uint32_t set = 0;
		for (size_t k = 0; k < t->n_regs; k++) {
			uint8_t reg, size;
			if (asm_reg_lookup(t->regs[k].name, strlen(t->regs[k].name), &reg, &size) ||
			    size != 8) {
				snprintf(loc.path, sizeof loc.path, "$.threads[%zu].regs.%s", i, t->regs[k].name);
				return err_set(e, r->scen->file, loc.line, loc.col,
					       "%s: not a 64-bit register (expected rax..r15)", loc.path);
			}
			regs[reg] = (uint64_t)t->regs[k].value;
			set |= 1u << reg;
		}
		for (int cpu = 0; cpu < run->cores; cpu++) {
			if (!scen_cpuset_has(&t->cpus, cpu))
				continue;
			struct sim_thread *st = &r->threads[r->n_threads++];
			st->cpu = cpu;
			st->entry = entry;
			memcpy(st->regs, regs, sizeof regs);
			st->regs_set = set;
		}
	}
	return 0;
}

static int build_irqs(struct runner *r, struct err *e)
{
	const struct scen_run *run = &r->run;
	r->irqs = calloc(run->n_interrupts ? run->n_interrupts : 1, sizeof *r->irqs);
	if (!r->irqs)
		return err_internal(e, "out of memory");
	for (size_t i = 0; i < run->n_interrupts; i++) {
		const struct scen_interrupt *in = &run->interrupts[i];
		struct sim_irq_source *q = &r->irqs[r->n_irqs++];
		struct scen_loc loc = in->cpus.loc;
		snprintf(loc.path, sizeof loc.path, "$.interrupts[%zu].handler", i);
		if (label_index(&r->prog, in->handler, r->scen, &loc, "handler", &q->handler, e))
			return -1;
		scen_cpuset_resolve(&in->cpus, run->cores, &q->cpus);
		q->kind = in->kind;
		q->arrival = in->poisson ? SIM_ARRIVAL_POISSON : SIM_ARRIVAL_PERIODIC;
		q->every = in->every;
		q->jitter = in->jitter;
	}
	return 0;
}

static void count_mark(void *ctx, int core, uint64_t cycle, const char *name)
{
	struct runner *r = ctx;
	/* Marks are interned by the assembler, so a pointer comparison over
	 * the few mark names finds the index without string work. */
	for (uint32_t i = 0; i < r->prog.n_marks; i++)
		if (r->prog.marks[i] == name) {
			r->mark_counts[i]++;
			break;
		}
	if (r->user_obs.mark)
		r->user_obs.mark(r->user_obs.ctx, core, cycle, name);
}

static void forward_activity(void *ctx, int core, uint64_t cycle, enum core_activity act)
{
	struct runner *r = ctx;
	r->user_obs.activity(r->user_obs.ctx, core, cycle, act);
}

static void install_observer(struct runner *r)
{
	struct sim_observer o = {
		.activity = r->user_obs.activity ? forward_activity : NULL,
		.mark = count_mark,
		.ctx = r,
	};
	sim_set_observer(r->sim, &o);
}

void runner_set_observer(struct runner *r, const struct sim_observer *o)
{
	memset(&r->user_obs, 0, sizeof r->user_obs);
	r->release_obs = 0;
	if (o)
		r->user_obs = *o;
	if (r->sim)
		install_observer(r);
}

void runner_release_observer(struct runner *r)
{
	r->release_obs = 1;
}

static int create_sim(struct runner *r, struct err *e)
{
	memset(r->mark_counts, 0, (r->prog.n_marks ? r->prog.n_marks : 1) * sizeof *r->mark_counts);
	r->sim = sim_create(&r->cfg, e);
	if (!r->sim)
		return -1;
	r->stop = RUN_RUNNING;
	install_observer(r);
	return 0;
}

/* The variant's program: its .c files compiled first (their -D macros
 * are the variant's defines, so a define a C file mentions overrides
 * something even when no .equ has its name), then everything assembled
 * as one unit. */
static int assemble(struct runner *r, struct err *e)
{
	struct cc_output cc = { 0 };
	const char **dirs = NULL;
	struct asm_input in = {
		.files = r->run.program,
		.n_files = r->run.n_program,
		.include_dirs = r->run.include_dirs,
		.n_include_dirs = r->run.n_include_dirs,
		.defines = r->run.defines,
		.n_defines = r->run.n_defines,
		.nr_cpus = r->run.cores,
		.line_size = r->run.cpu.line_size,
	};
	if (cc_any_c(r->run.program, r->run.n_program)) {
		struct cc_input ci = {
			.files = r->run.program,
			.n_files = r->run.n_program,
			.defines = r->run.defines,
			.n_defines = r->run.n_defines,
			.cflags = r->run.cflags,
			.n_cflags = r->run.n_cflags,
			.include_dirs = r->run.include_dirs,
			.n_include_dirs = r->run.n_include_dirs,
			.nr_cpus = r->run.cores,
		};
		if (cc_compile(&ci, &cc, e))
			return -1;
		for (size_t i = 0; i < r->run.n_defines; i++)
			r->run.defines[i].used_by_c = cc.define_used[i];
		in.files = (const char *const *)cc.files;
		in.compiled = cc.compiled;
		/* The compiler ran here and was given the paths as the
		 * scenario resolved them: its .file names are relative to
		 * this directory, whichever directory ran the cached compile. */
		if (!(dirs = calloc(cc.n_files, sizeof *dirs))) {
			cc_output_free(&cc);
			return err_internal(e, "out of memory");
		}
		for (size_t i = 0; i < cc.n_files; i++)
			dirs[i] = cc.compiled[i] ? "" : NULL;
		in.compile_dirs = dirs;
	}
	int rc = asm_assemble(&in, &r->prog, e);
	for (size_t i = 0; !rc && i < cc.n_sources; i++)
		if (program_add_file(&r->prog, cc.sources[i]))
			rc = err_internal(e, "out of memory");
	free(dirs);
	cc_output_free(&cc);
	return rc;
}

int runner_check_wanted(int asked)
{
	const char *env = getenv("BOUNCE_CHECK");
	return asked || (env && strcmp(env, "1") == 0);
}

int runner_prepare(struct runner *r, const struct scenario *s, size_t v,
		   const struct scen_overrides *o, int check, struct err *e)
{
	memset(r, 0, sizeof *r);
	r->scen = s;
	r->variant = v;
	if (scen_resolve(s, v, o, &r->run, e))
		return -1;
	if (assemble(r, e))
		goto fail;
	r->mark_counts = calloc(r->prog.n_marks ? r->prog.n_marks : 1, sizeof *r->mark_counts);
	if (!r->mark_counts) {
		err_internal(e, "out of memory");
		goto fail;
	}
	if (check_report(r, e) || build_threads(r, e) || build_irqs(r, e))
		goto fail;
	r->cfg = (struct sim_config){
		.cpu = r->run.cpu,
		.prog = &r->prog,
		.threads = r->threads,
		.n_threads = r->n_threads,
		.irqs = r->irqs,
		.n_irqs = r->n_irqs,
		.stop_cycles = r->run.max_cycles,
		.seed = r->run.seed,
		.start_skew = 100,
		.check = runner_check_wanted(check),
		.no_fast_forward = o && o->no_fast_forward,
	};
	r->cfg.cpu.cores = r->run.cores;
	if (create_sim(r, e))
		goto fail;
	return 0;
fail:
	runner_free(r);
	return -1;
}

int runner_restart(struct runner *r, struct err *e)
{
	sim_destroy(r->sim);
	r->sim = NULL;
	return create_sim(r, e);
}

void runner_free(struct runner *r)
{
	if (r->sim)
		sim_destroy(r->sim);
	program_free(&r->prog);
	scen_run_free(&r->run);
	free(r->threads);
	free(r->irqs);
	free(r->mark_counts);
	memset(r, 0, sizeof *r);
}

uint64_t runner_ops(const struct runner *r)
{
	for (uint32_t i = 0; i < r->prog.n_marks; i++)
		if (strcmp(r->prog.marks[i], "op") == 0)
			return r->mark_counts[i];
	return 0;
}

static int64_t read_signed(struct sim *sim, uint64_t addr, unsigned size)
{
	uint64_t v = sim_peek(sim, addr, size);
	switch (size) {
	case 1: return (int8_t)v;
	case 2: return (int16_t)v;
	case 4: return (int32_t)v;
	default: return (int64_t)v;
	}
}

int64_t runner_symbol_value(const struct runner *r, const struct symbol *y)
{
	uint64_t size = y->size ? y->size : 8;
	unsigned vs = size >= 8 ? 8 : size >= 4 ? 4 : size >= 2 ? 2 : 1;
	if (y->section != SEC_PERCPU)
		return read_signed(r->sim, (uint64_t)y->value, vs);
	/* The copies' sum wraps at 64 bits, as a sum of them in the machine's
	 * registers (percpu_counter_sum's s64) would; in int64_t it would be
	 * undefined past its range. */
	uint64_t value = 0;
	for (int c = 0; c < r->run.cores; c++)
		value += (uint64_t)read_signed(r->sim, program_percpu_offset(&r->prog, c) + (uint64_t)y->value, vs);
	return (int64_t)value;
}
