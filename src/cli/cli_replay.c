/* `bounce replay [--cpu MODEL] [--json F] [--csv F] [-q] TRACE...`: trace i
 * drives core i of a machine of as many cores (a zip's NAME_N.data members
 * count one each), with blocking cores (src/replay/). Outputs are written
 * whole or not at all; a bad record stops the replay with exit status 2. */
#include "config.h"
#include "cli/cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli_inputs.h"
#include "cli/outfile.h"
#include "cli/progress_line.h"
#include "replay/replay_run.h"

/* The replay's tick (replay_run.h): stop on a signal, and on a terminal
 * keep a line of what is done, how fast, and what is left of the input. */
struct ticker {
	int progress, shown_any;
	double t0, shown;
};

static void show_progress(const struct replay *r, double elapsed, int force)
{
	uint64_t done, total;
	replay_input(r, &done, &total);
	uint64_t recs = replay_records(r);
	char n[16], rate[16], sim_t[24], left[24], eta[64] = "";
	progress_si((double)recs, n, sizeof n);
	progress_si(elapsed > 0 ? (double)recs / elapsed : 0, rate, sizeof rate);
	progress_seconds((double)replay_cycles(r) / (r->m.ghz * 1e9), sim_t, sizeof sim_t);
	/* The input read so far says how much is left: the traces' records
	 * are read at about the rate they are replayed. */
	double t;
	if (total && progress_eta(elapsed, (double)done / (double)total, INFINITY, &t)) {
		progress_seconds(t, left, sizeof left);
		snprintf(eta, sizeof eta, ", %.0f%% of the input read, ETA %s", 100.0 * (double)done / (double)total,
			 left);
	}
	progress_emit(force, "  replay: %s records, %s simulated, %s records/s%s", n, sim_t, rate, eta);
}

static int tick(void *ctx, const struct replay *r)
{
	struct ticker *t = ctx;
	if (cli_interrupted)
		return 1;
	if (t->progress) {
		double now = progress_now();
		if (now - t->shown >= 0.25) {
			show_progress(r, now - t->t0, 0);
			t->shown = now;
			t->shown_any = 1;
		}
	}
	return 0;
}

static int write_csv(const struct replay *r, FILE *f, struct err *e)
{
	if (replay_write_csv(r, f))
		return err_internal(e, "cannot write the CSV");
	return 0;
}

/* The outputs may replace no trace, nor the CPU model file, nor each
 * other; they are opened before the replay (a path that cannot be written
 * is refused at once) and committed together after it. */
static int open_outputs(const char *json, const char *csv, const char *cpu, char **traces, int n,
			struct outfile **outs, struct err *e)
{
	const char *paths[2], *opts[2];
	size_t k = 0;
	if (json)
		paths[k] = json, opts[k++] = "--json";
	if (csv)
		paths[k] = csv, opts[k++] = "--csv";
	struct cli_inputs in = {0};
	char *cpu_file = scen_cpu_file(cpu, ".");
	int rc = -1, bad = cpu_file ? cli_inputs_add(&in, cpu_file, "the CPU model", e) : err_internal(e, "out of memory");
	for (int i = 0; i < n && !bad; i++)
		bad = cli_inputs_add(&in, traces[i], "the trace", e);
	if (bad || cli_inputs_check(&in, paths, opts, k, e))
		goto out;
	if ((json && !(outs[0] = outfile_open(json, e))) || (csv && !(outs[1] = outfile_open(csv, e))))
		goto out;
	rc = 0;
out:
	cli_inputs_free(&in);
	free(cpu_file);
	return rc;
}

int cli_replay(const struct cli_opts *o)
{
	const char *cpu = o->cpu ? o->cpu : "teaching-4core", *json = o->json, *csv = o->csv;
	int quiet = o->quiet, jobs = o->jobs;
	char **traces = o->rest;
	int ntraces = (int)o->n_rest;
	struct err e = {0};
	struct cpu_model m;
	if (scen_load_cpu(cpu, &m, &e))
		return cli_fail(&e);
	struct outfile *outs[2] = {NULL, NULL};
	if (open_outputs(json, csv, cpu, traces, ntraces, outs, &e)) {
		outfile_abort(outs[0]);
		return cli_fail(&e);
	}
	struct rt_stream *streams[CPU_MAX_CORES];
	int n = rt_open(traces, (size_t)ntraces, streams, CPU_MAX_CORES, &e);
	struct replay r;
	if (n < 0 || replay_create(&r, &m, streams, n, &e)) {
		outfile_abort(outs[0]);
		outfile_abort(outs[1]);
		return cli_fail(&e);
	}
	struct ticker t = {.progress = progress_wanted(o->progress, quiet)};
	t.t0 = t.shown = progress_now();
	r.tick = tick;
	r.tick_ctx = &t;
	/* A second thread only ever reads: more than two have nothing to do. */
	r.read_ahead = jobs > 1;
	int rc = replay_run(&r, &e);
	/* asked for, progress shows at least once, however short the replay */
	if (t.progress && (t.shown_any || rc >= 0)) {
		if (!t.shown_any)
			show_progress(&r, progress_now() - t.t0, 1);
		progress_erase();
	}
	if (!rc && outs[0])
		rc = replay_write_json(&r, outfile_stream(outs[0]), &e);
	if (!rc && outs[1])
		rc = write_csv(&r, outfile_stream(outs[1]), &e);
	/* a signal seen by a reader (between records) or by the replay */
	if ((!rc && cli_interrupted) || (rc < 0 && e.kind == ERR_INTERRUPTED))
		rc = 1;
	if (rc > 0) {
		outfile_abort(outs[0]);
		outfile_abort(outs[1]);
		replay_free(&r);
		fprintf(stderr, "bounce: replay interrupted; no report written\n");
		return EXIT_INTERRUPTED;
	}
	if (!rc)
		rc = outfile_commit_all(outs, 2, &e);
	else {
		outfile_abort(outs[0]);
		outfile_abort(outs[1]);
	}
	if (!rc && !quiet && !(json && !strcmp(json, "-")))
		replay_write_summary(&r, stdout);
	replay_free(&r);
	return rc ? cli_fail(&e) : EXIT_OK;
}
