/* What a replay reports, as JSON, CSV and a printed summary: one table of
 * counters (docs/replay.md says what each means) read per core and for the
 * whole machine, so the three views cannot disagree. */
#include "config.h"
#include "replay/replay_run.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One core's counters, or the machine's sums. */
struct row {
	struct replay_core_stats d;
	struct ms_stats m;
};

/* The counters by name, in the order of the JSON, the CSV and the summary;
 * miss_rate, the one fraction, is last. */
enum { N_COUNTERS = 30 };
static const char *const counter_names[N_COUNTERS] = {
	"records", "cycles", "compute_cycles", "idle_cycles", "loads", "stores",
	"l1_hits", "l1_misses", "load_misses", "store_misses", "private_accesses",
	"shared_accesses", "transactions", "gets", "getm", "upgrades", "bus_broadcasts",
	"invalidations", "c2c_transfers", "mem_reads", "llc_hits", "writebacks", "evictions",
	"bounces", "hitm", "bytes_memory", "bytes_c2c", "bytes_writeback", "bytes_total",
	"miss_rate",
};

static void counter_values(const struct replay *r, const struct row *w, double v[N_COUNTERS])
{
	const uint64_t ls = r->m.line_size;
	const struct ms_stats *m = &w->m;
	uint64_t acc = m->loads + m->stores;
	const uint64_t u[N_COUNTERS - 1] = {
		w->d.records, w->d.cycles, w->d.compute_cycles, w->d.idle_cycles, m->loads, m->stores,
		m->l1_hits, m->l1_misses, m->load_misses, m->l1_misses - m->load_misses,
		w->d.private_accesses, w->d.shared_accesses, m->transactions, m->gets, m->getm,
		m->upgrades,
		/* on a bus every transaction is broadcast; a directory sends point to point */
		r->m.fabric == FABRIC_BUS ? m->transactions : 0,
		m->invalidations, m->c2c_transfers, m->mem_reads, m->llc_hits, m->writebacks,
		m->evictions, m->bounces, m->hitm,
		(m->mem_reads + m->llc_hits) * ls, m->c2c_transfers * ls, m->writebacks * ls,
		(m->mem_reads + m->llc_hits + m->c2c_transfers + m->writebacks) * ls,
	};
	for (int k = 0; k < N_COUNTERS - 1; k++)
		v[k] = (double)u[k];
	/* six decimals: the same figure on every host */
	v[N_COUNTERS - 1] = acc ? round(1e6 * (double)m->l1_misses / (double)acc) / 1e6 : 0.0;
}

static void core_row(const struct replay *r, int c, struct row *out)
{
	out->d = r->stats[c];
	out->m = *ms_core_stats(r->ms, c);
}

static void total_row(const struct replay *r, struct row *out)
{
	memset(out, 0, sizeof *out);
	ms_total_stats(r->ms, &out->m);
	for (int c = 0; c < r->ncores; c++) {
		const struct replay_core_stats *s = &r->stats[c];
		out->d.records += s->records;
		out->d.compute_cycles += s->compute_cycles;
		out->d.idle_cycles += s->idle_cycles;
		out->d.private_accesses += s->private_accesses;
		out->d.shared_accesses += s->shared_accesses;
		if (s->cycles > out->d.cycles)  /* the machine's: when its last core finished */
			out->d.cycles = s->cycles;
	}
}

static int add_row(cJSON *o, const struct replay *r, const struct row *w)
{
	double v[N_COUNTERS];
	counter_values(r, w, v);
	for (int k = 0; k < N_COUNTERS; k++)
		if (!cJSON_AddNumberToObject(o, counter_names[k], v[k]))
			return 0;
	return 1;
}

int replay_write_json(const struct replay *r, FILE *f, struct err *e)
{
	cJSON *root = cJSON_CreateObject(), *run = cJSON_AddObjectToObject(root, "replay");
	cJSON *traces = cJSON_AddArrayToObject(run, "traces");
	int ok = root && run && traces;
	ok = ok && cJSON_AddStringToObject(run, "mode", "blocking") &&
	     cJSON_AddStringToObject(run, "cpu", r->m.name) &&
	     cJSON_AddNumberToObject(run, "cores", r->ncores) &&
	     cJSON_AddNumberToObject(run, "line_size", r->m.line_size) &&
	     cJSON_AddStringToObject(run, "fabric", cpu_fabric_name(r->m.fabric)) &&
	     cJSON_AddStringToObject(run, "protocol", cpu_protocol_name(r->m.protocol));
	for (int c = 0; ok && c < r->ncores; c++) {
		cJSON *t = cJSON_CreateObject();
		ok = t && cJSON_AddItemToArray(traces, t) && cJSON_AddNumberToObject(t, "core", c) &&
		     cJSON_AddStringToObject(t, "file", rt_name(r->streams[c])) &&
		     cJSON_AddStringToObject(t, "format", rt_format_name(rt_format_of(r->streams[c])));
	}
	struct row w;
	cJSON *tot = ok ? cJSON_AddObjectToObject(root, "totals") : NULL;
	ok = ok && tot;
	if (ok) {
		total_row(r, &w);
		ok = add_row(tot, r, &w);
	}
	cJSON *cores = ok ? cJSON_AddArrayToObject(root, "cores") : NULL;
	ok = ok && cores;
	for (int c = 0; ok && c < r->ncores; c++) {
		cJSON *o = cJSON_CreateObject();
		core_row(r, c, &w);
		ok = o && cJSON_AddItemToArray(cores, o) && cJSON_AddNumberToObject(o, "core", c) &&
		     add_row(o, r, &w);
	}
	char *text = ok ? cJSON_Print(root) : NULL;
	cJSON_Delete(root);
	if (!text)
		return err_internal(e, "replay: out of memory for the JSON report");
	fputs(text, f);
	fputc('\n', f);
	free(text);
	return 0;
}

static void csv_row(const struct replay *r, FILE *f, const char *who, const struct row *w)
{
	double v[N_COUNTERS];
	counter_values(r, w, v);
	fputs(who, f);
	for (int k = 0; k < N_COUNTERS - 1; k++)
		fprintf(f, ",%.0f", v[k]);
	fprintf(f, ",%.6f\n", v[N_COUNTERS - 1]);
}

int replay_write_csv(const struct replay *r, FILE *f)
{
	fputs("core", f);
	for (int k = 0; k < N_COUNTERS; k++)
		fprintf(f, ",%s", counter_names[k]);
	fputc('\n', f);
	struct row w;
	char who[16];
	for (int c = 0; c < r->ncores; c++) {
		core_row(r, c, &w);
		snprintf(who, sizeof who, "%d", c);
		csv_row(r, f, who, &w);
	}
	total_row(r, &w);
	csv_row(r, f, "total", &w);
	return ferror(f) ? -1 : 0;
}

/* The summary shows the first SUMMARY_CORES cores side by side, then the machine. */
#define SUMMARY_CORES 8

void replay_write_summary(const struct replay *r, FILE *f)
{
	int n = r->ncores < SUMMARY_CORES ? r->ncores : SUMMARY_CORES;
	double v[SUMMARY_CORES + 1][N_COUNTERS];
	struct row w;
	for (int c = 0; c < n; c++) {
		core_row(r, c, &w);
		counter_values(r, &w, v[c]);
	}
	total_row(r, &w);
	counter_values(r, &w, v[n]);
	fprintf(f, "replay: %d cores of %s (%s, %s, %u-byte lines), blocking cores\n", r->ncores,
		r->m.name, cpu_fabric_name(r->m.fabric), cpu_protocol_name(r->m.protocol), r->m.line_size);
	fprintf(f, "%-17s", "");
	for (int c = 0; c < n; c++)
		fprintf(f, " %9s%-3d", "core ", c);
	fprintf(f, " %12s\n", "total");
	for (int k = 0; k < N_COUNTERS; k++) {
		fprintf(f, "%-17s", counter_names[k]);
		for (int c = 0; c <= n; c++)
			fprintf(f, k == N_COUNTERS - 1 ? " %12.6f" : " %12.0f", v[c][k]);
		fputc('\n', f);
	}
}
