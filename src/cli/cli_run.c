/* `bounce run`, `bounce check` and `bounce view`: load a scenario, run each
 * variant, write the reports. Outputs are written only after every variant
 * finished, each whole or not at all. */
#include "config.h"
#include "cli/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli_inputs.h"
#include "cli/outfile.h"
#include "cli/progress_line.h"
#include "report/report.h"
#include "run/runner.h"
#include "report/report_source.h"
#include "report/trace.h"
#include "run/work_pool.h"

/* "atomic: 12.3M instructions, 33.3k ops, 5.2 ms simulated, 48.1M instr/s,
 * ETA 3 s": what is done and how fast. The end is known only for a run
 * stopped at a cycle count (at most that when it may halt earlier), once
 * enough of it is done (progress_eta), and never past `cap`, the seconds
 * left before --max-seconds stops it. */
static void show_progress(const struct runner *r, double elapsed, double cap, int force)
{
	struct core_stats cs;
	uint64_t cycles = sim_cycles(r->sim);
	sim_total_core_stats(r->sim, &cs);
	char ins[16], ops[16], rate[16], sim_t[24], eta[40] = "";
	progress_si((double)cs.instructions, ins, sizeof ins);
	progress_si((double)runner_ops(r), ops, sizeof ops);
	progress_si(elapsed > 0 ? (double)cs.instructions / elapsed : 0, rate, sizeof rate);
	progress_seconds((double)cycles / (r->run.cpu.ghz * 1e9), sim_t, sizeof sim_t);
	double t;
	if (r->run.stop.cycles && progress_eta(elapsed, (double)cycles / (double)r->run.stop.cycles, cap, &t)) {
		char left[24];
		progress_seconds(t, left, sizeof left);
		snprintf(eta, sizeof eta, ", %s %s", r->run.stop.halt ? "ETA at most" : "ETA", left);
	}
	progress_emit(force, "  %s: %s instructions, %s ops, %s simulated, %s instr/s%s", r->run.variant, ins, ops,
		      sim_t, rate, eta);
}

/* cli_simulate's progress: shown every 0.25 s, and the meter another
 * thread reads kept up to date. */
struct sim_watch {
	int progress, printed;
	double shown;
	struct cli_meter *m;
};

static void on_slice(void *ctx, const struct runner *r, double elapsed)
{
	struct sim_watch *w = ctx;
	struct cli_meter *m = w->m;
	if (w->progress && elapsed - w->shown >= 0.25) {
		show_progress(r, elapsed, m && m->deadline > 0 ? m->deadline - runner_clock() : INFINITY, 0);
		w->shown = elapsed;
		w->printed = 1;
	}
	if (m) {
		struct core_stats cs;
		sim_total_core_stats(r->sim, &cs);
		atomic_store(&m->instructions, cs.instructions);
		atomic_store(&m->ops, runner_ops(r));
		if (m->tick)
			m->tick(m->tick_ctx);
	}
}

enum run_stop cli_simulate(struct runner *r, int progress, struct cli_meter *m, struct err *e)
{
	struct sim_watch w = {.progress = progress, .m = m};
	struct runner_limits l = {.slice = on_slice, .ctx = &w};
	if (m) {
		l.deadline = m->deadline;
		l.cancel = m->stop;
	}
	double t0 = runner_clock();
	enum run_stop st = runner_run(r, &l, e);
	/* A run shorter than the first refresh still shows what it did once,
	 * so that asking for progress always gets some. */
	if (progress && !w.printed)
		show_progress(r, runner_clock() - t0, INFINITY, 1);
	/* Only the thread that drew the line erases it: a variant on a
	 * worker must not erase the line the caller's thread keeps. */
	if (progress)
		progress_erase();
	return st;
}

/* Each variant's expectation paths in the scenario's order, so that a
 * variant's check visits only its own: many variants with many
 * expectations stay linear. A path is a ref, 2 * expectation + 0 for its
 * metric, + 1 for a ratio's "to"; variant v's are refs[first[v] ..
 * first[v + 1]). */
struct metric_refs {
	size_t *first;
	size_t *refs;
};

static const char *ref_path(const struct scenario *s, size_t ref)
{
	const struct scen_expect *x = &s->expect[ref / 2];
	return ref % 2 ? x->to : x->metric;
}

/* The variant "variants.NAME.…" names, or -1. */
static int path_variant(const struct scenario *s, const char *m)
{
	char name[256];
	if (!m || strncmp(m, "variants.", 9) != 0)
		return -1;
	size_t len = strcspn(m + 9, ".");
	if (len >= sizeof name)
		return -1;
	memcpy(name, m + 9, len);
	name[len] = 0;
	return scen_find_variant(s, name);
}

static void metric_refs_free(struct metric_refs *mr)
{
	free(mr->first);
	free(mr->refs);
	mr->first = mr->refs = NULL;
}

static int metric_refs_build(const struct scenario *s, struct metric_refs *mr, struct err *e)
{
	/* Counted into first[v + 2], summed, then first[v + 1] is v's cursor
	 * while filling and ends as the start of v + 1. */
	mr->first = calloc(s->n_variants + 2, sizeof *mr->first);
	mr->refs = malloc((2 * s->n_expect + 1) * sizeof *mr->refs);
	if (!mr->first || !mr->refs) {
		metric_refs_free(mr);
		return err_internal(e, "out of memory");
	}
	for (size_t ref = 0; ref < 2 * s->n_expect; ref++) {
		int v = path_variant(s, ref_path(s, ref));
		if (v >= 0)
			mr->first[v + 2]++;
	}
	for (size_t v = 2; v < s->n_variants + 2; v++)
		mr->first[v] += mr->first[v - 1];
	for (size_t ref = 0; ref < 2 * s->n_expect; ref++) {
		int v = path_variant(s, ref_path(s, ref));
		if (v >= 0)
			mr->refs[mr->first[v + 1]++] = ref;
	}
	return 0;
}

/* Every expectation path into variant r's report must exist there: checked
 * on the report of r before it ran, so a misspelled metric is refused
 * before any simulation (and by `check`, which simulates nothing). */
static int check_metrics(const struct scenario *s, const struct metric_refs *mr, const struct runner *r,
			 struct err *e)
{
	cJSON *rep = rep_new(s, r);
	if (rep_add_variant(rep, r, e)) {
		cJSON_Delete(rep);
		return -1;
	}
	const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "variants"), 0);
	struct rep_index *ix = rep_index_new();
	if (!ix) {
		cJSON_Delete(rep);
		return err_internal(e, "out of memory");
	}
	int rc = 0;
	for (size_t j = mr->first[r->variant]; j < mr->first[r->variant + 1] && !rc; j++) {
		const struct scen_expect *x = &s->expect[mr->refs[j] / 2];
		const char *m = ref_path(s, mr->refs[j]);
		char why[400];
		if (rep_metric_known(ix, v, m, why, sizeof why))
			rc = err_set(e, s->file, x->loc.line, x->loc.col, "metric \"%s\": %s", m, why);
	}
	rep_index_free(ix);
	cJSON_Delete(rep);
	return rc;
}

/* run's report outputs, in the order they are written: opened before
 * anything is simulated (a path that cannot be written is refused at
 * once) and committed together at the end (outfile_commit_all), with the
 * trace, so a failed or interrupted run leaves none of them. */
enum { OUT_JSON, OUT_CSV, OUT_JUNIT, OUT_MARKDOWN, OUT_TRACE, N_OUTS };

static const char *out_path(const struct cli_opts *o, int k)
{
	const char *const paths[N_OUTS] = {o->json, o->csv, o->junit, o->markdown, o->trace};
	return paths[k];
}

static int write_output(FILE *f, const cJSON *rep, int kind, struct err *e)
{
	if (kind == OUT_JSON) {
		char *text = cJSON_Print(rep);
		if (!text)
			return err_internal(e, "out of memory");
		fputs(text, f);
		fputc('\n', f);
		free(text);
	} else if (kind == OUT_MARKDOWN) {
		return rep_write_markdown(rep, f, e);
	} else if (kind == OUT_CSV) {
		struct rep_csv_extra x = rep_csv_extra_of(rep);
		rep_write_csv_header(f, NULL, 0, &x);
		return rep_write_csv_rows(rep, NULL, 0, f, e);
	} else {
		rep_write_junit(rep, f);
	}
	return 0;
}

/* The warning on the terminal for each variant the limit cut short: only
 * once the trace is written, so that a run that fails after a cut variant
 * does not warn about a file it never wrote. */
static void trace_warn(const cJSON *meta)
{
	double limit = cJSON_GetNumberValue(cJSON_GetObjectItem(meta, "trace_limit"));
	const cJSON *v;
	cJSON_ArrayForEach(v, cJSON_GetObjectItem(meta, "variants")) {
		if (!cJSON_IsTrue(cJSON_GetObjectItem(v, "truncated")))
			continue;
		fprintf(stderr, "bounce: warning: trace of variant '%s' truncated at %.0f events: it covers cycles 0-%.0f of %.0f"
			" (--trace-limit N raises the limit, 0 removes it)\n",
			cJSON_GetStringValue(cJSON_GetObjectItem(v, "variant")), limit,
			cJSON_GetNumberValue(cJSON_GetObjectItem(v, "truncated_at_cycle")),
			cJSON_GetNumberValue(cJSON_GetObjectItem(v, "cycles")));
	}
}

/* run's outputs, checked against every file the run reads and one another. */
static int check_outputs(const struct cli_opts *o, const struct cli_inputs *in, struct err *e)
{
	const char *outs[5], *opts[5];
	size_t n = 0;
#define OUTPUT(field, opt) if (o->field) { outs[n] = o->field; opts[n++] = opt; }
	OUTPUT(json, "--json") OUTPUT(csv, "--csv") OUTPUT(junit, "--junit")
	OUTPUT(markdown, "--markdown") OUTPUT(trace, "--trace")
#undef OUTPUT
	return cli_inputs_check(in, outs, opts, n, e);
}

/* One selected variant of a run: prepared, simulated (on the work pool's
 * threads or inline), then added to the report by the main thread in
 * scenario order, so the outputs do not depend on --jobs. */
struct slot {
	size_t v;
	struct runner r;
	int prepared;
	int late;               /* --max-seconds had passed before it could start */
	struct err e;
	FILE *trace;            /* the variant's trace events, copied in order */
	struct trace_summary ts;
	struct cli_meter meter;
};

struct batch {
	const struct cli_opts *o;
	const struct scenario *s;
	const struct cli_ov *ov;
	struct slot *slots;
	size_t n, reported;
	int jobs, tracing, progress;
	uint64_t trace_limit;
	struct work_pool *pool;
	double t0, shown;
	int printed;
};

/* Prepare and simulate slot k (a job of the work pool). A variant run on
 * the caller's thread shows its own progress; on workers, the batch's is
 * shown while waiting (show_batch_progress). */
static void run_slot(void *ctx, size_t k, const atomic_int *cancelled)
{
	struct batch *p = ctx;
	struct slot *sl = &p->slots[k];
	sl->meter.stop = cancelled;
	if (sl->meter.deadline > 0 && progress_now() >= sl->meter.deadline) {
		sl->late = 1;
		return;
	}
	if (runner_prepare(&sl->r, p->s, sl->v, &p->ov->ov, p->o->check, &sl->e)) {
		sl->r.stop = RUN_FAULT;
		return;
	}
	sl->prepared = 1;
	struct trace *t = NULL;
	if (p->tracing) {
		if (!(sl->trace = tmpfile())) {
			err_internal(&sl->e, "cannot create a temporary file for the trace: %s", strerror(errno));
			sl->r.stop = RUN_FAULT;
			return;
		}
		t = trace_start(&sl->r, sl->trace, (int)k, p->trace_limit);
		if (!t) {
			err_internal(&sl->e, "out of memory for the trace");
			sl->r.stop = RUN_FAULT;
			return;
		}
	}
	cli_simulate(&sl->r, p->progress && p->jobs <= 1, &sl->meter, &sl->e);
	trace_finish(t, &sl->ts);
}

/* "run: 2/6 variants, 12.3M instructions, 4.5M ops, 48M instr/s" over
 * every worker (their meters are atomics updated after each slice). */
static void show_batch_progress(const struct batch *p, double elapsed, int force)
{
	uint64_t ins = 0, ops = 0;
	for (size_t k = 0; k < p->n; k++) {
		ins += atomic_load(&p->slots[k].meter.instructions);
		ops += atomic_load(&p->slots[k].meter.ops);
	}
	char a[16], b[16], c[16];
	progress_si((double)ins, a, sizeof a);
	progress_si((double)ops, b, sizeof b);
	progress_si(elapsed > 0 ? (double)ins / elapsed : 0, c, sizeof c);
	progress_emit(force, "  run: %zu/%zu variants, %s instructions, %s ops, %s instr/s", p->reported, p->n, a, b, c);
}

static void batch_tick(void *ctx)
{
	struct batch *p = ctx;
	double t = progress_now();
	if (p->progress && t - p->shown >= 0.25) {
		show_batch_progress(p, t - p->t0, 0);
		p->shown = t;
		p->printed = 1;
	}
}

int cli_run(const struct cli_opts *o)
{
	struct scenario s = {0};
	struct err e = {0};
	struct cli_ov ov;
	cJSON *rep = NULL;
	struct outfile *outs[N_OUTS] = {0};
	struct trace_file *trace = NULL;  /* written on outs[OUT_TRACE] */
	struct batch p = {.o = o, .s = &s, .ov = &ov, .progress = progress_wanted(o->progress, o->quiet)};
	struct metric_refs mr = {0};
	struct cli_inputs inputs = {0};
	int rc = EXIT_OK;

	if (cli_setup(o, &s, &ov, &e) || cli_inputs_add_scenario(&inputs, o, &s, &e) ||
	    metric_refs_build(&s, &mr, &e))
		goto fail;
	if (!(p.slots = calloc(s.n_variants, sizeof *p.slots))) {
		err_internal(&e, "out of memory");
		goto fail;
	}
	/* Every variant is checked before any runs: a bad one is refused
	 * at once, whatever --jobs. */
	for (size_t v = 0; v < s.n_variants; v++) {
		if (!cli_selected(o, &s, v))
			continue;
		struct runner r;
		if (runner_prepare(&r, &s, v, &ov.ov, o->check, &e))
			goto fail;
		int bad = check_metrics(&s, &mr, &r, &e) || cli_inputs_add_program(&inputs, &r.prog, &e);
		runner_free(&r);
		if (bad)
			goto fail;
		p.slots[p.n++].v = v;
	}
	if (check_outputs(o, &inputs, &e))
		goto fail;
	for (int k = 0; k < N_OUTS; k++)
		if (out_path(o, k) && !(outs[k] = outfile_open(out_path(o, k), &e)))
			goto fail;
	p.tracing = outs[OUT_TRACE] != NULL;
	p.trace_limit = o->trace_limit < 0 ? TRACE_DEFAULT_LIMIT : (uint64_t)o->trace_limit;
	if (p.tracing && !(trace = trace_file_open(outfile_stream(outs[OUT_TRACE]), p.trace_limit))) {
		err_internal(&e, "out of memory for the trace");
		goto fail;
	}
	double deadline = o->max_seconds > 0 ? progress_now() + o->max_seconds : 0;
	for (size_t k = 0; k < p.n; k++)
		p.slots[k].meter.deadline = deadline;
	p.jobs = o->jobs < (int)p.n ? o->jobs : (int)p.n;
	/* Finished variants wait for the earlier ones to be reported: at
	 * most 2 x jobs of them are kept. */
	if (!(p.pool = work_pool_start(p.n, p.jobs, 2 * (size_t)p.jobs, run_slot, &p, &e)))
		goto fail;
	p.t0 = p.shown = progress_now();
	for (; p.reported < p.n; p.reported++) {
		struct slot *sl = &p.slots[p.reported];
		if (work_pool_wait(p.pool, p.reported, p.jobs > 1 ? batch_tick : NULL, &p))
			break; /* interrupted: the workers stop within a slice */
		/* Variants done before the first refresh still show what was
		 * done once, as one variant's run does: asking for progress
		 * always gets some. */
		if (p.jobs > 1 && p.progress && !p.printed) {
			show_batch_progress(&p, progress_now() - p.t0, 1);
			p.printed = 1;
		}
		if (cli_interrupted)
			break;
		struct runner *r = &sl->r;
		if (sl->late) {
			fprintf(stderr, "%sbounce: variant '%s' not run: the wall-clock limit of %g s was reached\n",
				progress_cr(), s.variants[sl->v].name, o->max_seconds);
			work_pool_release(p.pool, p.reported);
			continue;
		}
		if (sl->r.stop == RUN_FAULT) {
			e = sl->e;
			work_pool_cancel(p.pool);
			goto stop;
		}
		if (!rep)
			rep = rep_new(&s, r);
		const char *cr = progress_cr();
		/* Said even under --quiet: a run cut short fails its expectations,
		 * and this says why; where each core was is the detail --quiet drops. */
		if (r->stop == RUN_CYCLE_LIMIT && (!r->run.stop.cycles || r->run.stop.halt)) {
			const char *where = o->quiet ? "" : "; where each unfinished core is:";
			if (!r->run.stop.cycles)
				fprintf(stderr, "%sbounce: variant '%s' stopped at limit (%" PRIu64 " cycles, the default: "
					"%" PRIu64 " core-cycles over %d cores, at most %" PRIu64 ") before every thread "
					"halted (\"stop\" sets another)%s\n", cr, r->run.variant, sim_limit(r->sim),
					(uint64_t)SIM_DEFAULT_CORE_CYCLES, r->run.cores, (uint64_t)SIM_DEFAULT_LIMIT, where);
			else
				fprintf(stderr, "%sbounce: variant '%s' stopped at limit (%" PRIu64
					" cycles) before every thread halted%s\n", cr,
					r->run.variant, sim_limit(r->sim), where);
			if (!o->quiet)
				rep_print_unfinished(r, stderr);
		}
		if (r->stop == RUN_WALL_CLOCK)
			fprintf(stderr, "%sbounce: variant '%s' stopped at wall-clock limit (%g s) at cycle %" PRIu64
				"; its figures cover only those cycles\n", cr, r->run.variant, o->max_seconds,
				sim_cycles(r->sim));
		int bad = rep_add_variant(rep, r, &e) ||
			  (sl->trace && trace_file_add(trace, sl->trace, r->run.variant, (int)p.reported, &sl->ts, &e));
		/* --repeat: the other seeds here, in order, whatever --jobs */
		if (!bad)
			bad = cli_replicate(o, &s, sl->v, &ov.ov, r->run.seed, NULL,
					    cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "variants"),
							       cJSON_GetArraySize(cJSON_GetObjectItem(rep, "variants")) - 1),
					    &e);
		runner_free(r);
		sl->prepared = 0;
		if (sl->trace)
			fclose(sl->trace);
		sl->trace = NULL;
		work_pool_release(p.pool, p.reported);
		if (bad) {
			work_pool_cancel(p.pool);
			goto stop;
		}
	}
	progress_erase();
stop:
	work_pool_free(p.pool);
	p.pool = NULL;
	if (cli_interrupted) {
		if (p.jobs <= 1 && p.reported < p.n && p.slots[p.reported].prepared) {
			const struct runner *r = &p.slots[p.reported].r;
			fprintf(stderr, "bounce: interrupted in variant '%s' at cycle %" PRIu64 " of %" PRIu64
				"; no report written\n", r->run.variant, sim_cycles(r->sim), sim_limit(r->sim));
		} else
			fprintf(stderr, "%sbounce: interrupted with %zu of %zu variants done; no report written\n",
				progress_cr(), p.reported, p.n);
		rc = EXIT_INTERRUPTED;
		goto out;
	}
	if (e.kind != ERR_NONE)
		goto fail;
	if (!rep) {
		err_set(&e, NULL, 0, 0, "no variant started before the wall-clock limit of %g s", o->max_seconds);
		goto fail;
	}
	if (cli_add_baseline(o, rep, &e))
		goto fail;
	int failed = rep_check_expectations(rep, &s);
	if (err_poll(&e))
		goto fail;
	if (trace && trace_file_close(trace, &e))
		goto fail;
	/* A signal while reports are written stops before the next one, and
	 * before any is put in place. */
	for (int k = 0; k < OUT_TRACE; k++)
		if (outs[k] && (err_poll(&e) || write_output(outfile_stream(outs[k]), rep, k, &e)))
			goto fail;
	if (err_poll(&e))
		goto fail;
	/* The text before the files are put in place: a failure to print
	 * (out of memory) then leaves none of them. */
	if (o->quiet)
		rep_print_expectations(rep, 1, stdout);
	else if (rep_print_summary(rep, stdout, &e))
		goto fail;
	if (o->c2c && rep_print_c2c(rep, stdout, &e))
		goto fail;
	{
		int bad = outfile_commit_all(outs, N_OUTS, &e);
		memset(outs, 0, sizeof outs);
		if (bad)
			goto fail;
	}
	if (trace)
		trace_warn(trace_file_meta(trace));
	rc = failed ? EXIT_EXPECT : EXIT_OK;
	goto out;
fail:
	rc = cli_fail(&e);
out:
	work_pool_free(p.pool);
	for (size_t k = 0; k < p.n; k++) {
		if (p.slots[k].prepared)
			runner_free(&p.slots[k].r);
		if (p.slots[k].trace)
			fclose(p.slots[k].trace);
	}
	free(p.slots);
	for (int k = 0; k < N_OUTS; k++)
		outfile_abort(outs[k]);
	trace_file_free(trace);
	cJSON_Delete(rep);
	cli_inputs_free(&inputs);
	metric_refs_free(&mr);
	scen_free(&s);
	return rc;
}

int cli_check(const struct cli_opts *o)
{
	struct scenario s = {0};
	struct err e = {0};
	struct cli_ov ov;
	struct metric_refs mr = {0};
	struct cli_inputs inputs = {0};
	struct outfile *out = NULL;
	int rc = EXIT_OK;
	/* --json: what the text says, as one document (docs/report-format.md) */
	cJSON *doc = o->json ? cJSON_CreateObject() : NULL, *vars = doc ? cJSON_AddArrayToObject(doc, "variants") : NULL;
	if (o->json && !vars) {
		err_internal(&e, "out of memory");
		goto fail;
	}
	if (cli_setup(o, &s, &ov, &e) || metric_refs_build(&s, &mr, &e) || cli_inputs_add_scenario(&inputs, o, &s, &e))
		goto fail;
	size_t n = 0;
	for (size_t v = 0; v < s.n_variants; v++) {
		if (!cli_selected(o, &s, v))
			continue;
		struct runner r;
		if (runner_prepare(&r, &s, v, &ov.ov, 0, &e))
			goto fail;
		if (check_metrics(&s, &mr, &r, &e) || cli_inputs_add_program(&inputs, &r.prog, &e)) {
			runner_free(&r);
			goto fail;
		}
		if (cli_prints_text(o))
			printf("%s: variant %s: %d cores, %u instructions, %u symbols\n", s.file,
			       r.run.variant, r.run.cores, r.prog.n_insns, r.prog.n_syms);
		cJSON *jv = vars ? cJSON_CreateObject() : NULL;
		if (vars && (!jv || !cJSON_AddItemToArray(vars, jv) || !cJSON_AddStringToObject(jv, "name", r.run.variant) ||
			     !cJSON_AddNumberToObject(jv, "cores", r.run.cores) ||
			     !cJSON_AddNumberToObject(jv, "instructions", r.prog.n_insns) ||
			     !cJSON_AddNumberToObject(jv, "symbols", r.prog.n_syms))) {
			runner_free(&r);
			err_internal(&e, "out of memory");
			goto fail;
		}
		runner_free(&r);
		n++;
	}
	if (cli_prints_text(o))
		printf("%s: ok (%zu variants, %zu expectations)\n", s.file, n, s.n_expect);
	if (doc) {
		const char *opt = "--json";
		if (!cJSON_AddStringToObject(doc, "scenario", s.file) || !cJSON_AddStringToObject(doc, "name", s.name) ||
		    !cJSON_AddBoolToObject(doc, "ok", 1) || !cJSON_AddNumberToObject(doc, "expectations", (double)s.n_expect)) {
			err_internal(&e, "out of memory");
			goto fail;
		}
		char *text = NULL;
		if (cli_inputs_check(&inputs, &o->json, &opt, 1, &e) || !(out = outfile_open(o->json, &e)))
			goto fail;
		if (!(text = cJSON_Print(doc))) {
			err_internal(&e, "out of memory");
			goto fail;
		}
		fputs(text, outfile_stream(out));
		fputc('\n', outfile_stream(out));
		free(text);
		struct outfile *done = out;
		out = NULL;
		if (outfile_commit(done, &e))
			goto fail;
	}
	goto out;
fail:
	rc = cli_fail(&e);
out:
	outfile_abort(out);
	cJSON_Delete(doc);
	cli_inputs_free(&inputs);
	metric_refs_free(&mr);
	scen_free(&s);
	return rc;
}

int cli_view(const struct cli_opts *o)
{
	if (!o->ui) {
		fprintf(stderr, "bounce: this build has no visualizer (configured with --disable-ui or without SDL2)\n");
		return EXIT_INPUT;
	}
	struct scenario s = {0};
	struct err e = {0};
	struct cli_ov ov;
	int rc = EXIT_OK;
	if (cli_setup(o, &s, &ov, &e) || o->ui->view(&s, o, &ov, &e))
		goto fail;
	if (cli_interrupted) {
		/* closing the window is the user's way out; a screenshot dropped is news */
		if (o->screenshot)
			fputs("bounce: view: interrupted; no screenshot written\n", stderr);
		rc = EXIT_INTERRUPTED;
	}
	goto out;
fail:
	rc = cli_fail(&e);
out:
	scen_free(&s);
	return rc;
}
