/* `bounce validate [--cpu FILE] [--threads N] [--quick]`: run the counter
 * workloads natively at 1..N pinned threads and in simulation
 * (scenarios/validate.json) on a model of this host, and print how far the
 * simulated ops/s are from the measured ones. */
#include "config.h"
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host/host_measure.h"
#include "host/host_model.h"
#include "host/host_topology.h"
#include "load/cpu_json.h"
#include "load/json_pos.h"
#include "report/runner.h"

static const char validate_usage[] =
	"usage: bounce validate [--cpu MODEL] [--threads N] [--quick] [--quiet]\n"
	"  Run one contended lock xadd counter, per-thread padded counters and an\n"
	"  unpadded per-thread array natively at 1..N threads pinned to CPUs 0..N-1,\n"
	"  and in simulation on MODEL (default: calibrate this host first); print\n"
	"  native and simulated ops/s and the error.\n"
	"  --cpu MODEL   a cpus/ name or a CPU model file\n"
	"  --threads N   1..online CPUs (default: all online CPUs)\n"
	"  --quick       shorter native runs and simulations (tests)\n"
	"  -q, --quiet   no calibration progress on stderr\n";

#define SIM_CHUNK 2000000ull

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
 * thread: the operations done and the cycles they took; -1 with e set on
 * error (or *interrupted). */
static int sim_point(const struct scenario *s, size_t v, const struct cpu_model *cpu, int threads, long ops,
		     uint64_t *done, uint64_t *cycles, int *interrupted, struct err *e)
{
	struct asm_define def = {.name = "NR_OPS", .value = ops};
	char arg[48];
	snprintf(arg, sizeof arg, "--threads %d", threads);
	struct scen_overrides ov = {.cpu = cpu, .cores = threads, .cores_arg = arg, .defines = &def, .n_defines = 1};
	struct runner r;
	if (runner_prepare(&r, s, v, &ov, 0, e))
		return -1;
	enum sim_status st;
	uint64_t until = 0;
	do {
		until += SIM_CHUNK;
		st = sim_run_until(r.sim, until, e);
	} while (st == SIM_RUNNING && !cli_interrupted);
	int rc = -1;
	if (cli_interrupted)
		*interrupted = 1;
	else if (st == SIM_ERROR)
		;
	else if (st != SIM_HALTED)
		err_set(e, s->file, 0, 0, "variant '%s' at %d cores hit the cycle limit before halting",
			r.run.variant, threads);
	else {
		*done = runner_ops(&r);
		*cycles = sim_cycles(r.sim);
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
 * a calibrated host), the threads' start and the harness's end. < 0 with e
 * set on error. */
static double simulate(const struct scenario *s, size_t v, const struct cpu_model *cpu, int threads,
		       long ops, int *interrupted, struct err *e)
{
	uint64_t ops1, cyc1, ops2, cyc2;
	if (sim_point(s, v, cpu, threads, ops, &ops1, &cyc1, interrupted, e) ||
	    sim_point(s, v, cpu, threads, 2 * ops, &ops2, &cyc2, interrupted, e))
		return -1;
	if (ops2 <= ops1 || cyc2 <= cyc1) {
		err_internal(e, "validate: %d threads: a run of %ld operations per thread took no longer than one "
			     "of %ld", threads, 2 * ops, ops);
		return -1;
	}
	return (double)(ops2 - ops1) / ((double)(cyc2 - cyc1) / (cpu->ghz * 1e9));
}

int cli_validate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"cpu", required_argument, NULL, 'c'},
		{"threads", required_argument, NULL, 't'},
		{"quick", no_argument, NULL, 'Q'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *cpu = NULL, *threads_arg = NULL;
	int quick = 0, quiet = 0, c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': cpu = optarg; break;
		case 't': threads_arg = optarg; break;
		case 'Q': quick = 1; break;
		case 'q': quiet = 1; break;
		case 'h': fputs(validate_usage, stdout); return EXIT_OK;
		default:
			return cli_getopt_fail("validate", c, argv);
		}
	}
	if (optind < argc)
		return cli_extra_arg("validate", argv[optind]);

	struct err e = {0};
	struct host_topo *topo = NULL;
	struct scenario s = {0};
	struct cpu_model model;
	struct host_model hm;
	char *path = NULL;
	int rc = EXIT_OK, interrupted = 0;
	const char *model_from;

	long nthreads = 0;
	if (threads_arg) {
		char *end;
		errno = 0;
		nthreads = strtol(threads_arg, &end, 10);
		if (errno || end == threads_arg || *end || nthreads < 1 || nthreads > HOST_MAX_CPUS) {
			fprintf(stderr, "bounce: validate: --threads: '%s' is not a thread count (1..online CPUs)\n",
				threads_arg);
			return EXIT_INPUT;
		}
	}
	/* --threads against the online CPUs first: calibrating takes seconds
	 * and a GB of memory, and used to come before this refusal */
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
	printf("%-14s %7s %15s %15s %8s %15s\n", "workload", "threads", "native ops/s", "simulated ops/s", "error",
	       "native median");
	fflush(stdout);
	double drop_native[2] = {0}, drop_sim[2] = {0};
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
		for (int t = 1; t <= nthreads; t++) {
			long ops = total / t;
			struct host_runs how = {0, -1};
			double nat = host_workload_ops((enum host_workload)w, topo->id, t, ops, runs, &how);
			if (nat < 0) {
				err_set(&e, NULL, 0, 0, "cannot run %d threads pinned to CPUs %d..%d", t, topo->id[0],
					topo->id[t - 1]);
				goto fail;
			}
			double sim = simulate(&s, (size_t)v, &model, t, sim_ops, &interrupted, &e);
			if (interrupted)
				goto out;
			if (sim < 0)
				goto fail;
			printf("%-14s %7d %15.0f %15.0f %+7.1f%% %15.0f%s\n", name, t, nat, sim, 100.0 * (sim - nat) / nat,
			       how.median, how.clean ? "" : "  (every native run disturbed)");
			fflush(stdout);
			if (w == HOST_WL_CONTENDED && t <= 2)
				drop_native[t - 1] = nat, drop_sim[t - 1] = sim;
		}
	}
	if (nthreads >= 2) {
		double dn = drop_native[0] / drop_native[1], ds = drop_sim[0] / drop_sim[1];
		printf("contended, 1 -> 2 threads: native ops/s drop %.2fx, simulated %.2fx (simulated / native %.2f)\n",
		       dn, ds, ds / dn);
	}
	goto out;
fail:
	rc = cli_fail(&e);
out:
	if (interrupted) {
		fprintf(stderr, "bounce: validate interrupted\n");
		rc = EXIT_INTERRUPTED;
	}
	free(path);
	scen_free(&s);
	free(topo);
	return rc;
}
