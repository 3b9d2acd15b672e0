/* Human and machine views of the JSON report: the summary table printed by
 * `bounce run`, CSV rows for sweeps and plotting tools, and JUnit XML with
 * one test case per expectation for CI systems. */
#include "config.h"
#include "report/report.h"
#include "cpu/totals.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double num(const cJSON *o, const char *path, struct err *e)
{
	return rep_need_number(o, path, e);
}

/* An integer field printed exactly (seeds reach 2^63-1). */
static const char *exact(const cJSON *o, const char *path, char *buf, size_t n, struct err *e)
{
	rep_format_number(rep_need(o, path, e), buf, n);
	return buf;
}

static void human(double v, char *buf, size_t n)
{
	const char *unit[] = {"", "k", "M", "G", "T"};
	int u = 0;
	while (fabs(v) >= 1000 && u < 4) {
		v /= 1000;
		u++;
	}
	snprintf(buf, n, u ? "%.3g%s" : "%.4g%s", v, unit[u]);
}

/* The worst approximate-read error over the variant's reported symbols. */
static double max_error(const cJSON *v, int *have)
{
	double m = 0;
	const cJSON *s;
	*have = 0;
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(v, "symbols")) {
		const cJSON *e = rep_lookup(s, "accuracy.max_error");
		const cJSON *r = rep_lookup(s, "accuracy.reads");
		if (rep_is_number(e) && rep_number(r) > 0) {
			*have = 1;
			if (rep_number(e) > m)
				m = rep_number(e);
		}
	}
	return m;
}

static double footprint(const cJSON *v, struct err *e)
{
	double f = 0;
	const cJSON *s;
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(v, "symbols"))
		if (cJSON_IsTrue(cJSON_GetObjectItem(s, "accessed")))
			f += num(s, "footprint", e);
	return f;
}

/* The summary's columns: a header, and a value printed by row(). Widths
 * grow to the longest entry, so names of any length keep the rows aligned. */
enum { COL_VARIANT, COL_CPU, COL_CORES, COL_CYCLES, COL_OPS, COL_BOUNCES, COL_BPOP, COL_HITM,
       COL_LOCKED, COL_INVAL, COL_ERR, COL_FOOT, COL_STOP, COL_RATIO, N_COLS };
static const char *const col_head[N_COLS] = {
	"variant", "cpu", "cores", "cycles", "ops/s", "bounces", "b/op", "hitm", "locked", "inval",
	"max_err", "footprint", "stopped", "vs 1st",
};

static void summary_row(const cJSON *v, double base, char cell[N_COLS][64], struct err *e)
{
	double opsps = num(v, "ops_per_sec", e);
	snprintf(cell[COL_VARIANT], 64, "%s", cJSON_GetStringValue(cJSON_GetObjectItem(v, "name")));
	snprintf(cell[COL_CPU], 64, "%s", cJSON_GetStringValue(cJSON_GetObjectItem(v, "cpu")));
	snprintf(cell[COL_CORES], 64, "%.0f", num(v, "core_count", e));
	human(num(v, "cycles", e), cell[COL_CYCLES], 64);
	human(opsps, cell[COL_OPS], 64);
	human(num(v, RUN_TOTAL_PATH(bounces), e), cell[COL_BOUNCES], 64);
	snprintf(cell[COL_BPOP], 64, "%.3f", num(v, "bounces_per_op", e));
	human(num(v, RUN_TOTAL_PATH(hitm), e), cell[COL_HITM], 64);
	human(num(v, RUN_TOTAL_PATH(locked_ops), e), cell[COL_LOCKED], 64);
	human(num(v, RUN_TOTAL_PATH(invalidations), e), cell[COL_INVAL], 64);
	int have;
	double me = max_error(v, &have);
	if (have)
		human(me, cell[COL_ERR], 64);
	else
		snprintf(cell[COL_ERR], 64, "-");
	/* bytes: the one column whose unit is not a count */
	char fp[32];
	human(footprint(v, e), fp, sizeof fp);
	size_t k = strlen(fp);
	if (k && fp[k - 1] >= 'A') /* "4.19k" -> "4.19 kB" */
		snprintf(cell[COL_FOOT], 64, "%.*s %cB", (int)(k - 1), fp, fp[k - 1]);
	else
		snprintf(cell[COL_FOOT], 64, "%s B", fp);
	snprintf(cell[COL_STOP], 64, "%s", cJSON_GetStringValue(cJSON_GetObjectItem(v, "stopped")));
	if (base > 0)
		snprintf(cell[COL_RATIO], 64, "%.2fx", opsps / base);
	else
		snprintf(cell[COL_RATIO], 64, "-");
}

static void summary_line(FILE *f, const int *w, const char *const *cell)
{
	for (int c = 0; c < N_COLS; c++) {
		/* names left-aligned, figures right-aligned */
		int left = c == COL_VARIANT || c == COL_CPU || c == COL_STOP;
		if (c == N_COLS - 1 && left)
			fprintf(f, "%s", cell[c]);
		else
			fprintf(f, left ? "%-*s" : "%*s", w[c], cell[c]);
		fputs(c == N_COLS - 1 ? "\n" : "  ", f);
	}
}

int rep_print_summary(const cJSON *rep, FILE *f, struct err *e)
{
	const cJSON *vs = cJSON_GetObjectItem(rep, "variants");
	int n = cJSON_GetArraySize(vs);
	/* Each variant's own machine is in its row: variants may differ. */
	char seed[32];
	fprintf(f, "%s  (seed %s)\n", cJSON_GetStringValue(cJSON_GetObjectItem(rep, "scenario")),
		exact(rep, "seed", seed, sizeof seed, e));
	char (*cells)[N_COLS][64] = calloc((size_t)(n ? n : 1), sizeof *cells);
	if (!cells)
		return err_internal(e, "out of memory");
	/* Ratios to the first variant, or to --baseline's (the report's
	 * "baseline", which names a variant of it). */
	const char *head[N_COLS];
	char vs_head[96];
	const char *bname = cJSON_GetStringValue(cJSON_GetObjectItem(rep, "baseline"));
	memcpy(head, col_head, sizeof head);
	if (bname) {
		snprintf(vs_head, sizeof vs_head, "vs %s", bname);
		head[COL_RATIO] = vs_head;
	}
	int w[N_COLS];
	for (int c = 0; c < N_COLS; c++)
		w[c] = (int)strlen(head[c]);
	double base = 0;
	int i = 0;
	const cJSON *v;
	cJSON_ArrayForEach(v, vs)
		if (bname ? !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(v, "name")), bname) : v == vs->child)
			base = num(v, "ops_per_sec", e);
	cJSON_ArrayForEach(v, vs) {
		summary_row(v, base, cells[i], e);
		for (int c = 0; c < N_COLS; c++)
			if ((int)strlen(cells[i][c]) > w[c])
				w[c] = (int)strlen(cells[i][c]);
		i++;
	}
	summary_line(f, w, head);
	for (i = 0; i < n; i++) {
		const char *row[N_COLS];
		for (int c = 0; c < N_COLS; c++)
			row[c] = cells[i][c];
		summary_line(f, w, row);
	}
	free(cells);
	cJSON_ArrayForEach(v, vs) {
		const cJSON *note;
		cJSON_ArrayForEach(note, cJSON_GetObjectItem(v, "notes"))
			fprintf(f, "note %s: %s\n", cJSON_GetStringValue(cJSON_GetObjectItem(v, "name")),
				cJSON_GetStringValue(cJSON_GetObjectItem(note, "text")));
	}
	rep_print_expectations(rep, 0, f);
	return err_is_set(e) ? -1 : 0;
}

void rep_print_expectations(const cJSON *rep, int failures_only, FILE *f)
{
	const cJSON *ex;
	cJSON_ArrayForEach(ex, cJSON_GetObjectItem(rep, "expectations")) {
		int ok = cJSON_IsTrue(cJSON_GetObjectItem(ex, "ok"));
		int skipped = cJSON_IsTrue(cJSON_GetObjectItem(ex, "skipped"));
		if (failures_only && (ok || skipped))
			continue;
		const char *metric = cJSON_GetStringValue(cJSON_GetObjectItem(ex, "metric"));
		const char *msg = cJSON_GetStringValue(cJSON_GetObjectItem(ex, "message"));
		size_t len = strlen(metric);
		/* a message that starts with the metric names it already */
		int named = msg && strncmp(msg, metric, len) == 0 && msg[len] == ' ';
		fprintf(f, "%s %s%s%s\n", skipped ? "skip" : ok ? "ok  " : "FAIL", named ? "" : metric,
			msg && !named ? ": " : "", msg ? msg : "");
		/* what the scenario's author meant it to show: the first thing
		 * to read when it no longer holds */
		const cJSON *desc = cJSON_GetObjectItem(ex, "description");
		if (!ok && !skipped && cJSON_IsString(desc))
			fprintf(f, "     description: %s\n", desc->valuestring);
	}
}

/* Columns of a CSV row, as report paths within a variant. */
static const char *const csv_cols[] = {
	"core_count", "cycles", "seconds", "instructions", "ops", "ops_per_sec", "bounces_per_op",
	RUN_TOTAL_PATH(bounces), RUN_TOTAL_PATH(hitm), RUN_TOTAL_PATH(hitm_remote),
	RUN_TOTAL_PATH(c2c_transfers), RUN_TOTAL_PATH(invalidations), RUN_TOTAL_PATH(locked_ops),
	RUN_TOTAL_PATH(locked_cycles), RUN_TOTAL_PATH(mem_reads), RUN_TOTAL_PATH(writebacks),
};
#define N_CSV_COLS (sizeof csv_cols / sizeof csv_cols[0])

size_t rep_n_figures(void)
{
	return N_CSV_COLS + 2;
}

const char *rep_figure_name(size_t i)
{
	if (i >= N_CSV_COLS)
		return i == N_CSV_COLS ? "max_error" : "footprint";
	const char *c = strchr(csv_cols[i], '.');
	return c ? c + 1 : csv_cols[i];
}

int rep_figure_raw(const cJSON *v, size_t i, double *out)
{
	int have = 1;
	if (i < N_CSV_COLS) {
		const cJSON *n = rep_lookup(v, csv_cols[i]);
		have = rep_is_number(n);
		*out = rep_number(n);
	} else if (i == N_CSV_COLS) {
		*out = max_error(v, &have);
	} else {
		struct err e = {0};
		*out = footprint(v, &e);
		have = !err_is_set(&e);
	}
	return have;
}

void rep_write_csv_header(FILE *f, const char *const *params, size_t n_params, const struct rep_csv_extra *x)
{
	for (size_t i = 0; i < n_params; i++)
		fprintf(f, "%s,", params[i]);
	fprintf(f, "scenario,variant");
	for (size_t i = 0; i < N_CSV_COLS; i++)
		fprintf(f, ",%s", rep_figure_name(i));
	/* cpu and seed last: columns before them keep their places in
	 * every CSV written so far; the optional ones come after them. */
	fprintf(f, ",max_error,footprint,stopped,cpu,seed,notes");
	rep_write_csv_extra_header(f, x);
	fputc('\n', f);
}

static void csv_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The cpu column: the model's name, and what the command line changed in
 * it (cpu_set, placement), so that a row says which machine it is about. */
static void csv_cpu(FILE *f, const cJSON *v)
{
	char *label = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&label, &len);
	if (!m) {
		csv_string(f, cJSON_GetStringValue(cJSON_GetObjectItem(v, "cpu")));
		return;
	}
	fputs(cJSON_GetStringValue(cJSON_GetObjectItem(v, "cpu")), m);
	const cJSON *k;
	cJSON_ArrayForEach(k, cJSON_GetObjectItem(v, "cpu_set"))
		fprintf(m, " %s=%s", k->string, k->valuestring);
	const cJSON *pl = cJSON_GetObjectItem(v, "placement");
	if (pl)
		fprintf(m, " placement=%s", pl->valuestring);
	fclose(m);
	csv_string(f, label ? label : "");
	free(label);
}

int rep_write_csv_rows(const cJSON *rep, const char *const *values, size_t n_values, FILE *f, struct err *e)
{
	const cJSON *v;
	cJSON_ArrayForEach(v, cJSON_GetObjectItem(rep, "variants")) {
		for (size_t i = 0; i < n_values; i++)
			fprintf(f, "%s,", values[i]);
		csv_string(f, cJSON_GetStringValue(cJSON_GetObjectItem(rep, "scenario")));
		fputc(',', f);
		csv_string(f, cJSON_GetStringValue(cJSON_GetObjectItem(v, "name")));
		/* Replicated: the means (rep_add_replicates) in the figures' columns. */
		const cJSON *mean = rep_lookup(v, "replicates.mean");
		for (size_t i = 0; i < N_CSV_COLS; i++) {
			char cell[32];
			fprintf(f, ",%s", exact(mean && i ? mean : v, mean && i ? rep_figure_name(i) : csv_cols[i],
						cell, sizeof cell, e));
		}
		int have;
		double me = max_error(v, &have);
		if (mean) {
			have = rep_is_number(cJSON_GetObjectItem(mean, "max_error"));
			me = rep_number(cJSON_GetObjectItem(mean, "max_error"));
		}
		if (have)
			fprintf(f, ",%.17g", me);
		else
			fprintf(f, ",");
		fprintf(f, ",%.17g,%s,", mean ? num(mean, "footprint", e) : footprint(v, e),
			cJSON_GetStringValue(cJSON_GetObjectItem(v, "stopped")));
		csv_cpu(f, v);
		char seed[32];
		fprintf(f, ",%s,", exact(v, "seed", seed, sizeof seed, e));
		/* the kinds of its notes, space-separated; the text is in the JSON */
		const cJSON *note;
		cJSON_ArrayForEach(note, cJSON_GetObjectItem(v, "notes"))
			fprintf(f, "%s%s", note == cJSON_GetObjectItem(v, "notes")->child ? "" : " ",
				cJSON_GetStringValue(cJSON_GetObjectItem(note, "kind")));
		rep_write_csv_extra_cells(f, rep, v);
		fputc('\n', f);
	}
	return err_is_set(e) ? -1 : 0;
}

static void xml_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

void rep_write_junit(const cJSON *rep, FILE *f)
{
	const cJSON *ex = cJSON_GetObjectItem(rep, "expectations");
	int n = cJSON_GetArraySize(ex), failures = 0, skipped = 0;
	const cJSON *x;
	cJSON_ArrayForEach(x, ex) {
		failures += !cJSON_IsTrue(cJSON_GetObjectItem(x, "ok")) &&
			    !cJSON_IsTrue(cJSON_GetObjectItem(x, "skipped"));
		skipped += cJSON_IsTrue(cJSON_GetObjectItem(x, "skipped"));
	}
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(rep, "scenario"));
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
	fprintf(f, "  <testsuite name=\"");
	xml_escaped(f, name);
	if (skipped)
		fprintf(f, "\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", n, failures, skipped);
	else
		fprintf(f, "\" tests=\"%d\" failures=\"%d\">\n", n, failures);
	cJSON_ArrayForEach(x, ex) {
		fprintf(f, "    <testcase classname=\"");
		xml_escaped(f, name);
		fprintf(f, "\" name=\"");
		xml_escaped(f, cJSON_GetStringValue(cJSON_GetObjectItem(x, "metric")));
		const cJSON *to = cJSON_GetObjectItem(x, "to");
		if (to) {
			fprintf(f, " / ");
			xml_escaped(f, to->valuestring);
		}
		if (cJSON_IsTrue(cJSON_GetObjectItem(x, "ok"))) {
			fprintf(f, "\"/>\n");
			continue;
		}
		if (cJSON_IsTrue(cJSON_GetObjectItem(x, "skipped"))) {
			fprintf(f, "\">\n      <skipped message=\"");
			xml_escaped(f, cJSON_GetStringValue(cJSON_GetObjectItem(x, "message")));
			fprintf(f, "\"/>\n    </testcase>\n");
			continue;
		}
		fprintf(f, "\">\n      <failure message=\"");
		xml_escaped(f, cJSON_GetStringValue(cJSON_GetObjectItem(x, "message")));
		const cJSON *desc = cJSON_GetObjectItem(x, "description");
		if (cJSON_IsString(desc)) {
			fprintf(f, "\">");
			xml_escaped(f, desc->valuestring);
			fprintf(f, "</failure>\n    </testcase>\n");
		} else {
			fprintf(f, "\"/>\n    </testcase>\n");
		}
	}
	/* The notes belong to no expectation: the suite's output carries them. */
	int notes = 0;
	cJSON_ArrayForEach(x, cJSON_GetObjectItem(rep, "variants")) {
		const cJSON *note;
		cJSON_ArrayForEach(note, cJSON_GetObjectItem(x, "notes")) {
			fprintf(f, "%s", notes++ ? "\n" : "    <system-out>");
			fprintf(f, "note ");
			xml_escaped(f, cJSON_GetStringValue(cJSON_GetObjectItem(x, "name")));
			fprintf(f, ": ");
			xml_escaped(f, cJSON_GetStringValue(cJSON_GetObjectItem(note, "text")));
		}
	}
	if (notes)
		fprintf(f, "</system-out>\n");
	fprintf(f, "  </testsuite>\n</testsuites>\n");
}

/* A total per op of the variant, 0 without ops. */
static double per_op(const cJSON *v, const char *path, double ops, struct err *e)
{
	double x = num(v, path, e);
	return ops ? x / ops : 0.0;
}

int rep_write_markdown(const cJSON *rep, FILE *f, struct err *e)
{
	const cJSON *vs = cJSON_GetObjectItem(rep, "variants");
	char seed[32];
	fprintf(f, "### %s\n\n", cJSON_GetStringValue(cJSON_GetObjectItem(rep, "scenario")));
	fprintf(f, "`%s` on %s, %d cores, seed %s.\n\n",
		cJSON_GetStringValue(cJSON_GetObjectItem(rep, "file")),
		cJSON_GetStringValue(cJSON_GetObjectItem(rep, "cpu")), (int)num(rep, "cores", e),
		exact(rep, "seed", seed, sizeof seed, e));
	fprintf(f, "| variant | cores | ops | bounces/op | HITM/op | locked ops/op | ops per simulated s | max read error | footprint (B) | vs first |\n");
	fprintf(f, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	double base = 0;
	const cJSON *v;
	cJSON_ArrayForEach(v, vs) {
		double ops = num(v, "ops", e), opsps = num(v, "ops_per_sec", e);
		char opsx[32];
		if (v == vs->child)
			base = opsps;
		char err[32] = "-", ratio[32] = "-";
		int have;
		double me = max_error(v, &have);
		if (have)
			snprintf(err, sizeof err, "%.0f", me);
		if (base > 0)
			snprintf(ratio, sizeof ratio, "%.2fx", opsps / base);
		fprintf(f, "| %s | %d | %s | %.3f | %.3f | %.3f | %.4g | %s | %.0f | %s |\n",
			cJSON_GetStringValue(cJSON_GetObjectItem(v, "name")), (int)num(v, "core_count", e),
			exact(v, "ops", opsx, sizeof opsx, e), per_op(v, RUN_TOTAL_PATH(bounces), ops, e),
			per_op(v, RUN_TOTAL_PATH(hitm), ops, e), per_op(v, RUN_TOTAL_PATH(locked_ops), ops, e),
			opsps, err, footprint(v, e), ratio);
	}
	fprintf(f, "\n");
	/* What a reader must know before trusting a row: said under the table. */
	int any = 0;
	cJSON_ArrayForEach(v, vs) {
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(v, "name"));
		const char *how = cJSON_GetStringValue(cJSON_GetObjectItem(v, "stopped"));
		if (how && strcmp(how, "halted") != 0) {
			char cycles[32];
			fprintf(f, "- `%s` did not halt (stopped at its %s limit, cycle %s): its figures cover only those cycles\n",
				name, strcmp(how, "wall-clock") == 0 ? "wall-clock" : "cycle",
				exact(v, "cycles", cycles, sizeof cycles, e));
			any = 1;
		}
		const cJSON *note;
		cJSON_ArrayForEach(note, cJSON_GetObjectItem(v, "notes")) {
			fprintf(f, "- `%s`: %s\n", name, cJSON_GetStringValue(cJSON_GetObjectItem(note, "text")));
			any = 1;
		}
	}
	if (any)
		fprintf(f, "\n");
	return err_is_set(e) ? -1 : 0;
}
