/* `bounce validate [--cpu FILE] [--threads N] [--quick]`: run the counter
 * workloads natively at 1..N pinned threads and in simulation
 * (scenarios/validate.json) on a model of this host, and print how far the
 * simulated ops/s are from the measured ones. */
#include "config.h"
#include "cli/cli.h"
#include "cli/outfile.h"
#include "cli/validate_verdict.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "host/host_measure.h"
#include "host/host_model.h"
#include "host/host_topology.h"
#include "asm/asm.h"
#include "load/cpu_json.h"
#include "load/json_pos.h"
#include "run/runner.h"

/* The calibrated model goes through the loader as its JSON, the file
 * `bounce calibrate -o` writes: what is simulated is what a user would
 * get from that file, topology and all. */
static int model_from_host(const struct host_model *hm, struct cpu_model *m, struct err *e)
{
	cJSON *j = host_model_json(hm);
	char *text = j ? cJSON_Print(j) : NULL;
	cJSON_Delete(j);
	if (!text)
		return err_internal(e, "out of memory");
	struct jpos_doc *d = jpos_parse("<calibrated model>", text, strlen(text), e);
	free(text);
	if (!d)
		return -1;
	int r = cpu_json_from_node(d, jpos_root(d), "host", m, e);
	jpos_free(d);
	return r;
}

/* One simulation of variant v at `threads` cores, `ops` operations per
 * thread: the operations done, the cycles they took and the cache-to-cache
 * transfers made; -1 with e set on error (or *interrupted). */
static int sim_point(const struct scenario *s, size_t v, const struct cpu_model *cpu, int threads, long ops,
		     uint64_t *done, uint64_t *cycles, uint64_t *moves, int *interrupted, struct err *e)
{
	struct asm_define def = {.name = "NR_OPS", .value = ops};
	char arg[48];
	snprintf(arg, sizeof arg, "--threads %d", threads);
	struct scen_overrides ov = {.cpu = cpu, .cores = threads, .cores_arg = arg, .defines = &def, .n_defines = 1};
	struct runner r;
	if (runner_prepare(&r, s, v, &ov, 0, e))
		return -1;
	enum run_stop st = runner_run(&r, NULL, e);
	int rc = -1;
	if (st == RUN_INTERRUPTED)
		*interrupted = 1;
	else if (st == RUN_FAULT)
		;
	else if (st != RUN_HALTED)
		err_set(e, s->file, 0, 0, "variant '%s' at %d cores hit the cycle limit before halting",
			r.run.variant, threads);
	else {
		struct ms_stats tot;
		ms_total_stats(sim_memsys(r.sim), &tot);
		*done = runner_ops(&r);
		*cycles = sim_cycles(r.sim);
		*moves = tot.c2c_transfers;
		rc = 0;
	}
	runner_free(&r);
	return rc;
}

/* Simulated ops/s of variant v at `threads` cores, in the steady state the
 * native loops measure (millions of operations, so their start costs
 * nothing): the rate of the operations a run of 2 x ops per thread does
 * beyond a run of ops. The difference of two deterministic runs leaves out
 * what both pay once: the cold misses (a thousand cycles and more each on
 * a calibrated host), the threads' start and the harness's end. The same
 * difference gives *per_move, operations per cache-to-cache transfer (0:
 * none). < 0 with e set on error. */
static double simulate(const struct scenario *s, size_t v, const struct cpu_model *cpu, int threads,
		       long ops, double *per_move, int *interrupted, struct err *e)
{
	uint64_t ops1, cyc1, mv1, ops2, cyc2, mv2;
	if (sim_point(s, v, cpu, threads, ops, &ops1, &cyc1, &mv1, interrupted, e) ||
	    sim_point(s, v, cpu, threads, 2 * ops, &ops2, &cyc2, &mv2, interrupted, e))
		return -1;
	*per_move = mv2 > mv1 ? (double)(ops2 - ops1) / (double)(mv2 - mv1) : 0;
	if (ops2 <= ops1 || cyc2 <= cyc1) {
		err_internal(e, "validate: %d threads: a run of %ld operations per thread took no longer than one "
			     "of %ld", threads, 2 * ops, ops);
		return -1;
	}
	return (double)(ops2 - ops1) / ((double)(cyc2 - cyc1) / (cpu->ghz * 1e9));
}

/* One table row: rates grouped in thousands with their unit, the error,
 * then the verdict and, for a miss, its likely cause. */
static void print_row(const struct validate_row *r, int clean)
{
	char nat[40], sim[40], med[40];
	validate_rate(r->native, nat, sizeof nat);
	validate_rate(r->simulated, sim, sizeof sim);
	validate_rate(r->native_median, med, sizeof med);
	printf("%-14s  %7d  %17s  %17s  %+7.1f%%  %17s  %s%s%s%s\n", r->workload, r->threads, nat, sim,
	       100.0 * r->error, med, r->within ? "within 25%" : "off by more than 25%", r->cause ? ": " : "",
	       r->cause ? r->cause : "", clean || !r->within ? "" : "  (every native run disturbed)");
	fflush(stdout);
}

static int add_json_row(cJSON *rows, const struct validate_row *r, int clean)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(rows, o))
		return cJSON_Delete(o), -1;
	int ok = cJSON_AddStringToObject(o, "workload", r->workload) &&
		 cJSON_AddNumberToObject(o, "threads", r->threads) &&
		 cJSON_AddNumberToObject(o, "native_ops_per_sec", r->native) &&
		 cJSON_AddNumberToObject(o, "simulated_ops_per_sec", r->simulated) &&
		 cJSON_AddNumberToObject(o, "error", r->error) &&
		 cJSON_AddNumberToObject(o, "native_median_ops_per_sec", r->native_median) &&
		 cJSON_AddBoolToObject(o, "native_disturbed", !clean) &&
		 cJSON_AddBoolToObject(o, "within_tolerance", r->within) &&
		 (r->cause ? cJSON_AddStringToObject(o, "cause", r->cause) != NULL
			   : cJSON_AddNullToObject(o, "cause") != NULL);
	return ok ? 0 : -1;
}

/* The --json document: what was compared with what, and the rows; own,
 * when measured: native and simulated operations per ownership at 2
 * threads. Takes rows and out, whatever happens. */
static int write_json(struct outfile *out, cJSON *rows, const struct host_topo *topo, long nthreads, int runs,
		      const char *model_from, const struct cpu_model *m, const double *own, struct err *e)
{
	cJSON *doc = cJSON_CreateObject(), *model = cJSON_CreateObject();
	/* Once added, each belongs to doc; what could not be added is freed here. */
	if (!doc || !cJSON_AddItemToObject(doc, "rows", rows))
		cJSON_Delete(rows);
	if (!doc || !model || !cJSON_AddItemToObject(doc, "model", model)) {
		cJSON_Delete(model);
		model = NULL;
	}
	int ok = doc && model && cJSON_AddStringToObject(model, "name", m->name) &&
		 cJSON_AddStringToObject(model, "from", model_from) && cJSON_AddNumberToObject(model, "ghz", m->ghz) &&
		 cJSON_AddNumberToObject(doc, "host_cpus", topo->ncpus) &&
		 cJSON_AddNumberToObject(doc, "threads", (double)nthreads) &&
		 cJSON_AddNumberToObject(doc, "native_runs", runs) &&
		 cJSON_AddNumberToObject(doc, "tolerance", VALIDATE_TOLERANCE) &&
		 (!own || (cJSON_AddNumberToObject(doc, "native_ops_per_ownership", own[0]) &&
			   cJSON_AddNumberToObject(doc, "simulated_ops_per_ownership", own[1])));
	char *text = ok ? cJSON_Print(doc) : NULL;
	cJSON_Delete(doc);
	if (!text) {
		outfile_abort(out);
		return err_internal(e, "out of memory");
	}
	fprintf(outfile_stream(out), "%s\n", text);
	free(text);
	return outfile_commit(out, e);
}

int cli_validate(const struct cli_opts *o)
{
	const char *cpu = o->cpu, *json_path = o->json;
	int quick = o->quick, quiet = o->quiet;
	struct err e = {0};
	struct host_topo *topo = NULL;
	struct scenario s = {0};
	struct cpu_model model;
	struct host_model hm;
	char *path = NULL;
	struct outfile *jout = NULL;
	cJSON *jrows = NULL;
	int rc = EXIT_OK, interrupted = 0;
	const char *model_from;

	long nthreads = o->threads;
	/* --threads against the online CPUs first: calibrating takes seconds
	 * and a GB of memory, which a refused request must not cost */
	if (!(topo = cli_host_topo(&e)))
		goto fail;
	if (!nthreads)
		nthreads = topo->ncpus;
	if (nthreads > topo->ncpus) {
		fprintf(stderr, "bounce: validate: --threads: %ld is more than this host's %d online CPUs\n",
			nthreads, topo->ncpus);
		rc = EXIT_INPUT;
		goto out;
	}
	/* Opened before anything is measured: a path that cannot be written is
	 * refused at once, and nothing is left of it if the run fails. */
	if (json_path && (!(jout = outfile_open(json_path, &e)) || !(jrows = cJSON_CreateArray()))) {
		if (jout && !jrows)
			err_internal(&e, "out of memory");
		goto fail;
	}
	if (cpu) {
		if (scen_load_cpu(cpu, &model, &e))
			goto fail;
		model_from = cpu;
	} else {
		int r = cli_calibrate_model(topo, &hm, quick, quiet, &e);
		if (r < 0)
			goto fail;
		if (r > 0 || cli_interrupted) {
			interrupted = 1;
			goto out;
		}
		if (model_from_host(&hm, &model, &e))
			goto fail;
		model_from = "this host, calibrated now";
	}
	size_t plen = strlen(scen_datadir()) + 32;
	path = malloc(plen);
	if (!path) {
		err_internal(&e, "out of memory");
		goto fail;
	}
	snprintf(path, plen, "%s/scenarios/validate.json", scen_datadir());
	if (scen_load(path, &s, &e))
		goto fail;

	int runs = quick ? 3 : 5;
	long sim_ops = quick ? 500 : 2000;
	printf("validate: native on this host (%d CPUs, threads on CPUs %d..%d, best of %d runs; the host may be "
	       "shared, so native figures are noisy) vs simulated on %s (\"%s\", %.3f GHz)\n",
	       topo->ncpus, topo->id[0], topo->id[nthreads - 1], runs, model_from, model.name, model.ghz);
	printf("%-14s  %7s  %17s  %17s  %8s  %17s  %s\n", "workload", "threads", "native", "simulated", "error",
	       "native median", "verdict");
	fflush(stdout);
	double drop_native[2] = {0}, drop_sim[2] = {0}, own_sim = 0;
	for (int w = 0; w < HOST_WL_N; w++) {
		const char *name = host_workload_name((enum host_workload)w);
		int v = scen_find_variant(&s, name);
		if (v < 0) {
			err_set(&e, path, 0, 0, "no variant named '%s'", name);
			goto fail;
		}
		/* A fixed total of operations shared by the threads: long enough
		 * that thread start-up skew does not count (a padded increment
		 * takes about a cycle), short enough that a run stays well under a
		 * second even where every operation moves a line. */
		long total = w == HOST_WL_CONTENDED ? (quick ? 400000 : 2000000) : (quick ? 8000000 : 40000000);
		double first_error = 0;
		for (int t = 1; t <= nthreads; t++) {
			long ops = total / t;
			struct host_runs how = {0, -1};
			double nat = host_workload_ops((enum host_workload)w, topo->id, t, ops, runs, &how);
			if (nat < 0) {
				err_set(&e, NULL, 0, 0, "cannot run %d threads pinned to CPUs %d..%d", t, topo->id[0],
					topo->id[t - 1]);
				goto fail;
			}
			double per_move = 0;
			double sim = simulate(&s, (size_t)v, &model, t, sim_ops, &per_move, &interrupted, &e);
			if (interrupted)
				goto out;
			if (sim < 0)
				goto fail;
			struct validate_row row = {.workload = name, .threads = t, .native = nat, .simulated = sim,
						   .native_median = how.median, .error = (sim - nat) / nat};
			if (t == 1)
				first_error = row.error;
			validate_judge(&row, first_error, validate_threads_share_core(topo, t), !how.clean);
			print_row(&row, how.clean);
			if (jrows && add_json_row(jrows, &row, how.clean)) {
				err_internal(&e, "out of memory");
				goto fail;
			}
			if (w == HOST_WL_CONTENDED && t <= 2)
				drop_native[t - 1] = nat, drop_sim[t - 1] = sim;
			if (w == HOST_WL_CONTENDED && t == 2)
				own_sim = per_move;
		}
	}
	struct host_runs own_how = {0, -1};
	double own_native = -1;
	if (nthreads >= 2) {
		double dn = drop_native[0] / drop_native[1], ds = drop_sim[0] / drop_sim[1];
		printf("contended, 1 -> 2 threads: native ops/s drop %.2fx, simulated %.2fx (simulated / native %.2f)\n",
		       dn, ds, ds / dn);
		/* The mechanism behind that drop: how many operations a CPU makes
		 * while it holds the line, natively read off the counter's values,
		 * simulated as operations per transfer. */
		own_native = host_ownership(topo->id[0], topo->id[1], quick ? 200000 : 1000000, runs, &own_how);
		if (own_native < 0) {
			err_set(&e, NULL, 0, 0, "cannot run 2 threads pinned to CPUs %d and %d", topo->id[0], topo->id[1]);
			goto fail;
		}
		printf("contended, 2 threads: operations per ownership of the line: native %.2f (median of %d runs%s), "
		       "simulated %.2f\n",
		       own_native, runs, own_how.clean ? "" : ", every one disturbed", own_sim);
	}
	if (jout) {
		struct outfile *jo = jout;
		cJSON *r = jrows;
		jout = NULL;
		jrows = NULL;
		double own[2] = {own_native, own_sim};
		if (write_json(jo, r, topo, nthreads, runs, model_from, &model, own_native >= 0 ? own : NULL, &e))
			goto fail;
	}
	goto out;
fail:
	rc = cli_fail(&e);
out:
	if (interrupted) {
		fprintf(stderr, "bounce: validate interrupted\n");
		rc = EXIT_INTERRUPTED;
	}
	outfile_abort(jout);
	cJSON_Delete(jrows);
	free(path);
	scen_free(&s);
	free(topo);
	return rc;
}
