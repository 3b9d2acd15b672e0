/* `bounce run`, `bounce check` and `bounce view`: load a scenario, run each
 * variant, write the reports. Outputs are written only after every variant
 * finished, each whole or not at all. */
#include "config.h"
#include "cli/cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/outfile.h"
#include "report/report.h"
#include "report/runner.h"
#include "report/trace.h"

#define PROGRESS_CHUNK 2000000ull /* cycles simulated between progress checks */

static int selected(const struct cli_opts *o, const struct scenario *s, size_t v)
{
	return !o->variant || strcmp(o->variant, s->variants[v].name) == 0;
}

/* Run to the end in chunks, so that progress can be shown and a signal
 * stops the run between chunks. */
static enum sim_status run_variant(struct runner *r, int progress, struct err *e)
{
	enum sim_status st;
	uint64_t limit = sim_limit(r->sim);
	uint64_t until = 0;
	do {
		until += PROGRESS_CHUNK;
		st = sim_run_until(r->sim, until, e);
		if (progress)
			fprintf(stderr, "\r  %s: %" PRIu64 " Mcycles (%.0f%% of limit)   ", r->run.variant,
				sim_cycles(r->sim) / 1000000, 100.0 * (double)sim_cycles(r->sim) / (double)limit);
	} while (st == SIM_RUNNING && !cli_interrupted);
	if (progress)
		fprintf(stderr, "\r%60s\r", "");
	return st;
}

/* Every expectation path into variant r's report must exist there: checked
 * on the report of r before it ran, so a misspelled metric is refused
 * before any simulation (and by `check`, which simulates nothing). */
static int check_metrics(const struct scenario *s, const struct runner *r, struct err *e)
{
	cJSON *rep = rep_new(s, r);
	if (rep_add_variant(rep, r, e)) {
		cJSON_Delete(rep);
		return -1;
	}
	const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "variants"), 0);
	size_t nl = strlen(r->run.variant);
	int rc = 0;
	for (size_t i = 0; i < s->n_expect && !rc; i++) {
		const struct scen_expect *x = &s->expect[i];
		const char *paths[2] = {x->metric, x->to};
		for (int k = 0; k < 2 && !rc; k++) {
			const char *m = paths[k];
			char why[400];
			if (!m || strncmp(m + 9, r->run.variant, nl) != 0 || (m[9 + nl] && m[9 + nl] != '.'))
				continue;
			if (rep_metric_known(v, m, why, sizeof why))
				rc = err_set(e, s->file, x->loc.line, x->loc.col, "metric \"%s\": %s", m, why);
		}
	}
	cJSON_Delete(rep);
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
	int rc = EXIT_OK, pid = 0;
	int progress = !o->quiet && isatty(2);

	if (cli_setup(o, &s, &ov, &e))
		goto fail;
	if (o->trace && !(trace_out = outfile_open(o->trace, &e)))
		goto fail;
	for (size_t v = 0; v < s.n_variants; v++) {
		if (!selected(o, &s, v))
			continue;
		struct runner r;
		if (runner_prepare(&r, &s, v, &ov.ov, o->check, &e))
			goto fail;
		if (check_metrics(&s, &r, &e)) {
			runner_free(&r);
			goto fail;
		}
		if (!rep)
			rep = rep_new(&s, &r);
		struct trace *t = trace_out ? trace_start(&r, outfile_stream(trace_out), pid, pid == 0) : NULL;
		pid++;
		r.status = run_variant(&r, progress, &e);
		trace_finish(t);
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
		if (r.status == SIM_LIMIT && !r.run.stop.cycles && !o->quiet)
			fprintf(stderr, "bounce: variant '%s' stopped at limit (%" PRIu64
				" cycles) before every thread halted\n", r.run.variant, sim_limit(r.sim));
		int bad = rep_add_variant(rep, &r, &e);
		runner_free(&r);
		if (bad)
			goto fail;
	}
	int failed = rep_check_expectations(rep, &s);
	if (trace_out) {
		fputs("\n],\"displayTimeUnit\":\"ns\"}\n", outfile_stream(trace_out));
		int bad = outfile_commit(trace_out, &e);
		trace_out = NULL;
		if (bad)
			goto fail;
	}
	if ((o->json && write_output(o->json, rep, 'j', &e)) ||
	    (o->csv && write_output(o->csv, rep, 'c', &e)) ||
	    (o->junit && write_output(o->junit, rep, 'u', &e)) ||
	    (o->markdown && write_output(o->markdown, rep, 'm', &e)))
		goto fail;
	if (!o->quiet)
		rep_print_summary(rep, stdout);
	else
		rep_print_expectations(rep, 1, stdout);
	rc = failed ? EXIT_EXPECT : EXIT_OK;
	goto out;
fail:
	rc = cli_fail(&e);
out:
	outfile_abort(trace_out);
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
		if (check_metrics(&s, &r, &e)) {
			runner_free(&r);
			goto fail;
		}
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
