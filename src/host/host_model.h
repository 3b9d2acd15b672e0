/* From measurements to a CPU model: calibrate runs the measurements of
 * host_measure.h on the CPUs host_topology.h found, converts nanoseconds
 * to core cycles with the measured clock, and writes the model JSON (the
 * "topology" form), which the scenario loader reads like any cpus/ file. */
#ifndef BOUNCE_HOST_MODEL_H
#define BOUNCE_HOST_MODEL_H

#include <cjson/cJSON.h>
#include "base/cpu_model.h"
#include "base/error.h"
#include "base/topology.h"
#include "host/host_topology.h"

/* Defaults for what calibrate does not measure, documented in the model's
 * "source" and in docs/calibration.md. */
#define HOST_DEFAULT_SB_ENTRIES 64 /* when the probe finds no step: recent x86 cores buffer some 50 to 120 stores */

struct host_model {
	const struct host_topo *topo;
	char brand[64];                /* CPUID brand string */
	char vendor[16];
	int quick, runs;
	double ghz;
	double ipc;             /* independent adds per cycle */
	uint32_t issue_width;
	double spc;             /* independent stores to one line per cycle */
	uint32_t store_commit_width;
	uint32_t sb_entries;     /* measured, or HOST_DEFAULT_SB_ENTRIES */
	double ns_l1, ns_llc, ns_mem, ns_mem_remote, ns_locked, ns_store_locked, ns_rmw_chain, ns_mfence, ns_pause;
	size_t llc_probe, mem_probe;   /* bytes chased */
	double ns_c2c[TOPO_NLEVELS];   /* per transfer; < 0: not measured */
	int pair[TOPO_NLEVELS];        /* the CPU id paired with CPU t->id[0] */
	int c2c_runs, c2c_clean[TOPO_NLEVELS]; /* runs, and how many had both CPUs to themselves */
	double ns_c2c_median[TOPO_NLEVELS];
	/* The model, in core cycles. */
	uint32_t lat_l1_hit, lat_llc_hit, lat_mem_local, lat_mem_remote, lat_locked_op, lat_lock_drain, lat_store_forward,
		 lat_mfence, lat_pause;
	uint32_t c2c[TOPO_NLEVELS];    /* SMT, CLUSTER, SOCKET; REMOTE is 1 hop */
	uint32_t l1_size, l1_assoc, line_size, llc_size, llc_assoc;
	char missing[512];             /* what could not be measured, "; " between items */
};

/* Return non-zero to stop calibrating (an interrupt). */
typedef int (*host_progress_fn)(void *ctx, const char *line);

/* Measure this host. quick: fewer, shorter runs (tests). Returns 0, 1 when
 * `progress` asked to stop, or -1 with e set. */
int host_calibrate(struct host_model *m, const struct host_topo *t, int quick,
		   host_progress_fn progress, void *ctx, struct err *e);

/* The model as a CPU-model JSON object (caller deletes), NULL when out of memory. */
cJSON *host_model_json(const struct host_model *m);

#endif
