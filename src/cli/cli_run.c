/* `bounce run`, `bounce check` and `bounce view`: load a scenario, run each
 * variant, write the reports. Outputs are written only after every variant
 * finished, each whole or not at all. */
#include "config.h"
#include "cli/cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/outfile.h"
#include "report/report.h"
#include "report/runner.h"
#include "report/report_source.h"
#include "report/trace.h"

/* Simulated core-cycles between checks for progress, signals and the wall
 * clock: about a tenth of a second of host time at any core count. */
#define CHECK_CORE_CYCLES 16000000ull

static int selected(const struct cli_opts *o, const struct scenario *s, size_t v)
{
	return !o->variant || strcmp(o->variant, s->variants[v].name) == 0;
}

static double now_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Run to the end in chunks, so that progress can be shown and a signal
 * or the wall-clock guard (deadline > 0) stops the run between chunks.
 * *walled is set when the deadline stopped it. */
static enum sim_status run_variant(struct runner *r, int progress, double deadline, int *walled,
				   struct err *e)
{
	enum sim_status st;
	uint64_t limit = sim_limit(r->sim);
	uint64_t chunk = CHECK_CORE_CYCLES / (uint64_t)r->run.cores;
	uint64_t until = 0;
	*walled = 0;
	do {
		until += chunk;
		st = sim_run_until(r->sim, until, e);
		if (progress)
			fprintf(stderr, "\r  %s: %" PRIu64 " Mcycles (%.0f%% of limit)   ", r->run.variant,
				sim_cycles(r->sim) / 1000000, 100.0 * (double)sim_cycles(r->sim) / (double)limit);
		if (st == SIM_RUNNING && deadline > 0 && now_seconds() >= deadline) {
			*walled = 1;
			st = SIM_LIMIT;
		}
	} while (st == SIM_RUNNING && !cli_interrupted);
	if (progress)
		fprintf(stderr, "\r%60s\r", "");
	return st;
}

/* One variant's line in the trace's metadata, and the warning on the
 * terminal when the limit cut it short. */
static int trace_note(cJSON *meta, const char *variant, int pid, uint64_t limit,
		      const struct trace_summary *ts)
{
	cJSON *vs = cJSON_GetObjectItem(meta, "variants");
	if (!vs) {
		cJSON_AddNumberToObject(meta, "trace_limit", (double)limit);
		vs = cJSON_AddArrayToObject(meta, "variants");
	}
	cJSON *v = cJSON_CreateObject();
	if (!vs || !v || !cJSON_AddItemToArray(vs, v))
		return -1;
	cJSON_AddStringToObject(v, "variant", variant);
	cJSON_AddNumberToObject(v, "pid", pid);
	cJSON_AddNumberToObject(v, "events", (double)ts->events);
	cJSON_AddNumberToObject(v, "cycles", (double)ts->cycles);
	cJSON_AddBoolToObject(v, "truncated", ts->truncated);
	if (ts->truncated) {
		cJSON_AddNumberToObject(v, "truncated_at_cycle", (double)ts->truncated_at);
		fprintf(stderr, "bounce: warning: trace of variant '%s' truncated at %" PRIu64
			" events: it covers cycles 0-%" PRIu64 " of %" PRIu64
			" (--trace-limit N raises the limit, 0 removes it)\n",
			variant, limit, ts->truncated_at, ts->cycles);
	}
	return 0;
}

/* Outputs that would replace an input of the run, or one another, are
 * refused before anything is simulated or written: the scenario, its CPU
 * models and programs, and (p not NULL) every file one variant's assembly
 * read, its .include files among them. */
static int check_outputs(const struct cli_opts *o, const struct scenario *s,
			 const struct program *p, struct err *e)
{
	const char *outs[5], *opts[5];
	size_t n = 0;
#define OUTPUT(field, opt) if (o->field) { outs[n] = o->field; opts[n++] = opt; }
	OUTPUT(json, "--json") OUTPUT(csv, "--csv") OUTPUT(junit, "--junit")
	OUTPUT(markdown, "--markdown") OUTPUT(trace, "--trace")
#undef OUTPUT
	if (!n)
		return 0;
	size_t cap = 2 + s->n_cpu_files + s->base.n_program + o->n_sets + (p ? p->n_files : 0);
	for (size_t v = 0; v < s->n_variants; v++)
		cap += s->variants[v].setup.n_program;
	const char **ins = malloc(cap * sizeof *ins), **kinds = malloc(cap * sizeof *kinds);
	char **owned = calloc(o->n_sets + 1, sizeof *owned);
	size_t k = 0, n_owned = 0;
	int rc = -1;
	if (!ins || !kinds || !owned) {
		err_internal(e, "out of memory");
		goto out;
	}
#define INPUT(path, kind) do { ins[k] = (path); kinds[k++] = (kind); } while (0)
	if (o->scenario)
		INPUT(o->scenario, "the scenario");
	for (size_t i = 0; i < s->n_cpu_files; i++)
		INPUT(s->cpu_files[i], "the CPU model");
	for (size_t i = 0; i < s->base.n_program; i++)
		INPUT(s->base.program[i], "the program");
	for (size_t v = 0; v < s->n_variants; v++)
		for (size_t i = 0; i < s->variants[v].setup.n_program; i++)
			INPUT(s->variants[v].setup.program[i], "the program");
	for (size_t i = 0; p && i < p->n_files; i++)
		INPUT(p->files[i], "the program file");
	for (size_t i = 0; i <= o->n_sets; i++) {
		const char *cpu = i == o->n_sets ? o->cpu :
				  strcmp(o->sets[i].name, "cpu") == 0 ? o->sets[i].values[0] : NULL;
		if (cpu && (owned[n_owned] = scen_cpu_file(cpu, ".")))
			INPUT(owned[n_owned++], "the CPU model");
	}
#undef INPUT
	rc = outfile_check_clash(outs, opts, n, ins, kinds, k, e);
out:
	for (size_t i = 0; i < n_owned; i++)
		free(owned[i]);
	free(owned);
	free(ins);
	free(kinds);
	return rc;
}

static int write_output(const char *path, const cJSON *rep, int kind, struct err *e)
{
	struct outfile *of = outfile_open(path, e);
	if (!of)
		return -1;
	FILE *f = outfile_stream(of);
	if (kind == 'j') {
		char *text = cJSON_Print(rep);
		if (!text) {
			outfile_abort(of);
			return err_internal(e, "out of memory");
		}
		fputs(text, f);
		fputc('\n', f);
		free(text);
	} else if (kind == 'm') {
		rep_write_markdown(rep, f);
	} else if (kind == 'c') {
		rep_write_csv_header(f, NULL, 0);
		rep_write_csv_rows(rep, NULL, 0, f);
	} else {
		rep_write_junit(rep, f);
	}
	return outfile_commit(of, e);
}

int cli_run(const struct cli_opts *o)
{
	struct scenario s = {0};
	struct err e = {0};
	struct cli_ov ov;
	cJSON *rep = NULL;
	struct outfile *trace_out = NULL;
	cJSON *trace_meta = NULL;
	int rc = EXIT_OK, pid = 0, walled = 0;
	int progress = !o->quiet && isatty(2);
	double deadline = o->max_seconds > 0 ? now_seconds() + o->max_seconds : 0;

	if (cli_setup(o, &s, &ov, &e) || check_outputs(o, &s, NULL, &e))
		goto fail;
	if (o->trace && !(trace_out = outfile_open(o->trace, &e)))
		goto fail;
	if (trace_out && !(trace_meta = cJSON_CreateObject())) {
		err_internal(&e, "out of memory for the trace");
		goto fail;
	}
	for (size_t v = 0; v < s.n_variants; v++) {
		if (!selected(o, &s, v))
			continue;
		if (walled) {
			fprintf(stderr, "bounce: variant '%s' not run: the wall-clock limit of %g s was reached\n",
				s.variants[v].name, o->max_seconds);
			continue;
		}
		struct runner r;
		if (runner_prepare(&r, &s, v, &ov.ov, o->check, &e))
			goto fail;
		if (check_outputs(o, &s, &r.prog, &e)) {
			runner_free(&r);
			goto fail;
		}
		if (!rep)
			rep = rep_new(&s, &r);
		uint64_t limit = o->trace_limit < 0 ? TRACE_DEFAULT_LIMIT : (uint64_t)o->trace_limit;
		struct trace *t = trace_out ? trace_start(&r, outfile_stream(trace_out), pid, pid == 0, limit) : NULL;
		if (trace_out && !t) {
			runner_free(&r);
			err_internal(&e, "out of memory for the trace");
			goto fail;
		}
		pid++;
		r.status = run_variant(&r, progress, deadline, &walled, &e);
		struct trace_summary ts;
		trace_finish(t, &ts);
		if (t && trace_note(trace_meta, r.run.variant, pid - 1, limit, &ts)) {
			runner_free(&r);
			err_internal(&e, "out of memory for the trace");
			goto fail;
		}
		if (cli_interrupted) {
			fprintf(stderr, "bounce: interrupted in variant '%s' at cycle %" PRIu64
				" of %" PRIu64 "; no report written\n", r.run.variant, sim_cycles(r.sim),
				sim_limit(r.sim));
			runner_free(&r);
			rc = EXIT_INTERRUPTED;
			goto out;
		}
		if (r.status == SIM_ERROR) {
			runner_free(&r);
			goto fail;
		}
		if (r.status == SIM_LIMIT && !walled && (!r.run.stop.cycles || r.run.stop.halt) && !o->quiet) {
			if (!r.run.stop.cycles)
				fprintf(stderr, "bounce: variant '%s' stopped at limit (%" PRIu64 " cycles, the default: "
					"%" PRIu64 " core-cycles over %d cores, at most %" PRIu64 ") before every thread "
					"halted (\"stop\" sets another); where each unfinished core is:\n", r.run.variant,
					sim_limit(r.sim), (uint64_t)SIM_DEFAULT_CORE_CYCLES, r.run.cores,
					(uint64_t)SIM_DEFAULT_LIMIT);
			else
				fprintf(stderr, "bounce: variant '%s' stopped at limit (%" PRIu64
					" cycles) before every thread halted; where each unfinished core is:\n",
					r.run.variant, sim_limit(r.sim));
			rep_print_unfinished(&r, stderr);
		}
		if (walled)
			fprintf(stderr, "bounce: variant '%s' stopped at wall-clock limit (%g s) at cycle %" PRIu64
				"; its figures cover only those cycles\n", r.run.variant, o->max_seconds,
				sim_cycles(r.sim));
		int bad = rep_add_variant(rep, &r, &e);
		runner_free(&r);
		if (bad)
			goto fail;
		if (walled) { /* the report says why this variant stopped */
			cJSON *vs = cJSON_GetObjectItem(rep, "variants");
			cJSON_ReplaceItemInObject(cJSON_GetArrayItem(vs, cJSON_GetArraySize(vs) - 1), "stopped",
						  cJSON_CreateString("wall-clock"));
		}
	}
	int failed = rep_check_expectations(rep, &s);
	if (err_poll(&e))
		goto fail;
	if (trace_out) {
		/* What the trace covers, for whoever opens it: a truncated one
		 * says so here and in its process labels, never only silently. */
		char *meta = cJSON_PrintUnformatted(trace_meta);
		if (!meta) {
			err_internal(&e, "out of memory for the trace");
			goto fail;
		}
		fprintf(outfile_stream(trace_out), "\n],\"displayTimeUnit\":\"ns\",\"otherData\":%s}\n", meta);
		free(meta);
		int bad = outfile_commit(trace_out, &e);
		trace_out = NULL;
		if (bad)
			goto fail;
	}
	/* A signal while reports are written stops before the next one. */
	if ((o->json && (err_poll(&e) || write_output(o->json, rep, 'j', &e))) ||
	    (o->csv && (err_poll(&e) || write_output(o->csv, rep, 'c', &e))) ||
	    (o->junit && (err_poll(&e) || write_output(o->junit, rep, 'u', &e))) ||
	    (o->markdown && (err_poll(&e) || write_output(o->markdown, rep, 'm', &e))))
		goto fail;
	if (!o->quiet)
		rep_print_summary(rep, stdout);
	if (o->c2c)
		rep_print_c2c(rep, stdout);
	rc = failed ? EXIT_EXPECT : EXIT_OK;
	goto out;
fail:
	rc = cli_fail(&e);
out:
	outfile_abort(trace_out);
	cJSON_Delete(trace_meta);
	cJSON_Delete(rep);
	scen_free(&s);
	return rc;
}

int cli_check(const struct cli_opts *o)
{
	struct scenario s = {0};
	struct err e = {0};
	struct cli_ov ov;
	int rc = EXIT_OK;
	if (cli_setup(o, &s, &ov, &e))
		goto fail;
	size_t n = 0;
	for (size_t v = 0; v < s.n_variants; v++) {
		if (!selected(o, &s, v))
			continue;
		struct runner r;
		if (runner_prepare(&r, &s, v, &ov.ov, 0, &e))
			goto fail;
		if (!o->quiet)
			printf("%s: variant %s: %d cores, %u instructions, %u symbols\n", s.file,
			       r.run.variant, r.run.cores, r.prog.n_insns, r.prog.n_syms);
		runner_free(&r);
		n++;
	}
	if (!o->quiet)
		printf("%s: ok (%zu variants, %zu expectations)\n", s.file, n, s.n_expect);
	goto out;
fail:
	rc = cli_fail(&e);
out:
	scen_free(&s);
	return rc;
}

int cli_view(const struct cli_opts *o, cli_viewer_fn viewer)
{
	if (!viewer) {
		fprintf(stderr, "bounce: this build has no visualizer (configured with --disable-ui or without SDL2)\n");
		return EXIT_INPUT;
	}
	struct scenario s = {0};
	struct err e = {0};
	struct cli_ov ov;
	int rc = EXIT_OK;
	if (cli_setup(o, &s, &ov, &e) || viewer(&s, o, &ov, &e))
		goto fail;
	if (cli_interrupted)
		rc = EXIT_INTERRUPTED;
	goto out;
fail:
	rc = cli_fail(&e);
out:
	scen_free(&s);
	return rc;
}
