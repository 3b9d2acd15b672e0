/* Replicates and baselines: the spread of a variant's figures over runs
 * at several seeds, and each figure as a ratio to one variant's, both
 * added to the JSON report so that the CSV and the summary are views of
 * it like every other figure. */
#include "config.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const stat_names[] = {"mean", "min", "max", "sd"};
enum { ST_MEAN, ST_MIN, ST_MAX, ST_SD, N_STATS };

/* min and max are runs' own values: a count stays an integer. */
static cJSON *run_value(double x)
{
	if (x == floor(x) && fabs(x) < 9007199254740992.0) /* 2^53: exact in a double */
		return rep_int((int64_t)x);
	return cJSON_CreateNumber(x);
}

void rep_add_replicates(cJSON *v, const cJSON *const *runs, size_t n)
{
	cJSON *r = cJSON_AddObjectToObject(v, "replicates");
	cJSON *seeds = cJSON_AddArrayToObject(r, "seeds");
	for (size_t k = 0; k < n; k++)
		cJSON_AddItemToArray(seeds, cJSON_Duplicate(cJSON_GetObjectItem(runs[k], "seed"), 1));
	cJSON *st[N_STATS];
	for (int s = 0; s < N_STATS; s++)
		st[s] = cJSON_AddObjectToObject(r, stat_names[s]);
	for (size_t i = REP_FIRST_COMPARED; i < rep_n_figures(); i++) {
		const char *name = rep_figure_name(i);
		double sum = 0, lo = 0, hi = 0, x;
		size_t have = 0;
		for (size_t k = 0; k < n; k++) {
			if (!rep_figure_raw(runs[k], i, &x))
				continue;
			if (!have || x < lo)
				lo = x;
			if (!have || x > hi)
				hi = x;
			sum += x;
			have++;
		}
		if (have < n) {
			/* a figure some runs lack (max_error) has no statistics */
			for (int s = 0; s < N_STATS; s++)
				cJSON_AddNullToObject(st[s], name);
			continue;
		}
		double mean = sum / (double)n, ss = 0;
		for (size_t k = 0; k < n; k++) {
			rep_figure_raw(runs[k], i, &x);
			ss += (x - mean) * (x - mean);
		}
		cJSON_AddNumberToObject(st[ST_MEAN], name, mean);
		cJSON_AddItemToObject(st[ST_MIN], name, run_value(lo));
		cJSON_AddItemToObject(st[ST_MAX], name, run_value(hi));
		cJSON_AddNumberToObject(st[ST_SD], name, n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0);
	}
}

int rep_figure(const cJSON *v, size_t i, double *out)
{
	const cJSON *mean = rep_lookup(v, "replicates.mean");
	*out = 0;
	if (!mean || i < REP_FIRST_COMPARED)
		return rep_figure_raw(v, i, out);
	const cJSON *n = cJSON_GetObjectItem(mean, rep_figure_name(i));
	if (!rep_is_number(n))
		return 0;
	*out = rep_number(n);
	return 1;
}

int rep_add_baseline(cJSON *rep, const char *name)
{
	const cJSON *vs = cJSON_GetObjectItem(rep, "variants"), *v, *base = NULL;
	cJSON_ArrayForEach(v, vs)
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(v, "name")), name))
			base = v;
	if (!base)
		return -1;
	cJSON_AddStringToObject(rep, "baseline", name);
	char key[160];
	snprintf(key, sizeof key, "vs_%s", name);
	cJSON_ArrayForEach(v, vs) {
		cJSON *o = cJSON_AddObjectToObject((cJSON *)v, key);
		for (size_t i = REP_FIRST_COMPARED; i < rep_n_figures(); i++) {
			double a, b;
			if (rep_figure(v, i, &a) && rep_figure(base, i, &b) && b != 0)
				cJSON_AddNumberToObject(o, rep_figure_name(i), a / b);
			else
				cJSON_AddNullToObject(o, rep_figure_name(i));
		}
	}
	return 0;
}

void rep_write_csv_extra_header(FILE *f, const struct rep_csv_extra *x)
{
	if (!x)
		return;
	for (size_t i = REP_FIRST_COMPARED; x->replicates && i < rep_n_figures(); i++)
		fprintf(f, ",%s_min,%s_max,%s_sd", rep_figure_name(i), rep_figure_name(i), rep_figure_name(i));
	for (size_t i = REP_FIRST_COMPARED; x->baseline && i < rep_n_figures(); i++)
		fprintf(f, ",%s_vs_%s", rep_figure_name(i), x->baseline);
}

static void cell(FILE *f, const cJSON *n)
{
	char buf[40] = "";
	if (rep_is_number(n))
		rep_format_number(n, buf, sizeof buf);
	fprintf(f, ",%s", buf);
}

void rep_write_csv_extra_cells(FILE *f, const cJSON *rep, const cJSON *v)
{
	const cJSON *r = cJSON_GetObjectItem(v, "replicates");
	for (size_t i = REP_FIRST_COMPARED; r && i < rep_n_figures(); i++)
		for (int s = ST_MIN; s <= ST_SD; s++)
			cell(f, cJSON_GetObjectItem(cJSON_GetObjectItem(r, stat_names[s]), rep_figure_name(i)));
	const char *base = cJSON_GetStringValue(cJSON_GetObjectItem(rep, "baseline"));
	if (!base)
		return;
	char key[160];
	snprintf(key, sizeof key, "vs_%s", base);
	const cJSON *o = cJSON_GetObjectItem(v, key);
	for (size_t i = REP_FIRST_COMPARED; i < rep_n_figures(); i++)
		cell(f, cJSON_GetObjectItem(o, rep_figure_name(i)));
}

struct rep_csv_extra rep_csv_extra_of(const cJSON *rep)
{
	const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "variants"), 0);
	return (struct rep_csv_extra){
		.replicates = cJSON_GetObjectItem(v, "replicates") != NULL,
		.baseline = cJSON_GetStringValue(cJSON_GetObjectItem(rep, "baseline")),
	};
}
