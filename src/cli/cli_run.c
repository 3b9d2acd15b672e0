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
#include "report/report_source.h"
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
	int rc = EXIT_OK, pid = 0;
	int progress = !o->quiet && isatty(2);

	if (cli_setup(o, &s, &ov, &e))
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
		struct runner r;
		if (runner_prepare(&r, &s, v, &ov.ov, o->check, &e))
			goto fail;
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
		r.status = run_variant(&r, progress, &e);
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
		if (r.status == SIM_LIMIT && (!r.run.stop.cycles || r.run.stop.halt) && !o->quiet) {
			fprintf(stderr, "bounce: variant '%s' stopped at limit (%" PRIu64
				" cycles) before every thread halted; where each unfinished core is:\n",
				r.run.variant, sim_limit(r.sim));
			rep_print_unfinished(&r, stderr);
		}
		int bad = rep_add_variant(rep, &r, &e);
		runner_free(&r);
		if (bad)
			goto fail;
	}
	int failed = rep_check_expectations(rep, &s);
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
	if ((o->json && write_output(o->json, rep, 'j', &e)) ||
	    (o->csv && write_output(o->csv, rep, 'c', &e)) ||
	    (o->junit && write_output(o->junit, rep, 'u', &e)) ||
	    (o->markdown && write_output(o->markdown, rep, 'm', &e)))
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
