/* Human and machine views of the JSON report: the summary table printed by
 * `bounce run`, CSV rows for sweeps and plotting tools, and JUnit XML with
 * one test case per expectation for CI systems. */
#include "config.h"
#include "report/report.h"

#include <math.h>
#include <string.h>

static double num(const cJSON *o, const char *path)
{
	const cJSON *x = rep_lookup(o, path);
	return cJSON_IsNumber(x) ? x->valuedouble : 0.0;
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
		if (cJSON_IsNumber(e) && cJSON_IsNumber(r) && r->valuedouble > 0) {
			*have = 1;
			if (e->valuedouble > m)
				m = e->valuedouble;
		}
	}
	return m;
}

static double footprint(const cJSON *v)
{
	double f = 0;
	const cJSON *s;
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(v, "symbols"))
		if (cJSON_IsTrue(cJSON_GetObjectItem(s, "accessed")))
			f += num(s, "footprint");
	return f;
}

void rep_print_summary(const cJSON *rep, FILE *f)
{
	const cJSON *vs = cJSON_GetObjectItem(rep, "variants");
	fprintf(f, "%s  (%s, %d cores, seed %.0f)\n",
		cJSON_GetStringValue(cJSON_GetObjectItem(rep, "scenario")),
		cJSON_GetStringValue(cJSON_GetObjectItem(rep, "cpu")), (int)num(rep, "cores"),
		num(rep, "seed"));
	fprintf(f, "%-16s %10s %10s %9s %9s %9s %9s %9s %8s %9s %9s %7s\n", "variant", "cycles",
		"ops/s", "bounces", "b/op", "hitm", "locked", "inval", "max_err", "footprint",
		"stopped", "vs 1st");
	double base = 0;
	const cJSON *v;
	cJSON_ArrayForEach(v, vs) {
		char cyc[16], ops[16], b[16], h[16], l[16], in[16], fp[16], err[16], ratio[16];
		double opsps = num(v, "ops_per_sec");
		if (v == vs->child)
			base = opsps;
		human(num(v, "cycles"), cyc, sizeof cyc);
		human(opsps, ops, sizeof ops);
		human(num(v, "totals.bounces"), b, sizeof b);
		human(num(v, "totals.hitm"), h, sizeof h);
		human(num(v, "totals.locked_ops"), l, sizeof l);
		human(num(v, "totals.invalidations"), in, sizeof in);
		human(footprint(v), fp, sizeof fp);
		int have;
		double me = max_error(v, &have);
		if (have)
			human(me, err, sizeof err);
		else
			snprintf(err, sizeof err, "-");
		if (base > 0)
			snprintf(ratio, sizeof ratio, "%.2fx", opsps / base);
		else
			snprintf(ratio, sizeof ratio, "-");
		fprintf(f, "%-16s %10s %10s %9s %9.3f %9s %9s %9s %8s %9s %9s %7s\n",
			cJSON_GetStringValue(cJSON_GetObjectItem(v, "name")), cyc, ops, b,
			num(v, "bounces_per_op"), h, l, in, err, fp,
			cJSON_GetStringValue(cJSON_GetObjectItem(v, "stopped")), ratio);
	}
	rep_print_expectations(rep, 0, f);
}

void rep_print_expectations(const cJSON *rep, int failures_only, FILE *f)
{
	const cJSON *ex;
	cJSON_ArrayForEach(ex, cJSON_GetObjectItem(rep, "expectations")) {
		int ok = cJSON_IsTrue(cJSON_GetObjectItem(ex, "ok"));
		int skipped = cJSON_IsTrue(cJSON_GetObjectItem(ex, "skipped"));
		if (failures_only && (ok || skipped))
			continue;
		const cJSON *msg = cJSON_GetObjectItem(ex, "message");
		fprintf(f, "%s %s%s%s\n", skipped ? "skip" : ok ? "ok  " : "FAIL",
			cJSON_GetStringValue(cJSON_GetObjectItem(ex, "metric")),
			msg ? ": " : "", msg ? msg->valuestring : "");
	}
}

/* Columns of a CSV row, as report paths within a variant. */
static const char *const csv_cols[] = {
	"core_count", "cycles", "seconds", "instructions", "ops", "ops_per_sec", "bounces_per_op",
	"totals.bounces", "totals.hitm", "totals.hitm_remote", "totals.c2c_transfers",
	"totals.invalidations", "totals.locked_ops", "totals.locked_cycles", "totals.mem_reads",
	"totals.writebacks",
};
#define N_CSV_COLS (sizeof csv_cols / sizeof csv_cols[0])

void rep_write_csv_header(FILE *f, const char *const *params, size_t n_params)
{
	for (size_t i = 0; i < n_params; i++)
		fprintf(f, "%s,", params[i]);
	fprintf(f, "scenario,variant");
	for (size_t i = 0; i < N_CSV_COLS; i++) {
		const char *c = strchr(csv_cols[i], '.');
		fprintf(f, ",%s", c ? c + 1 : csv_cols[i]);
	}
	fprintf(f, ",max_error,footprint,stopped\n");
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

void rep_write_csv_rows(const cJSON *rep, const char *const *values, size_t n_values, FILE *f)
{
	const cJSON *v;
	cJSON_ArrayForEach(v, cJSON_GetObjectItem(rep, "variants")) {
		for (size_t i = 0; i < n_values; i++)
			fprintf(f, "%s,", values[i]);
		csv_string(f, cJSON_GetStringValue(cJSON_GetObjectItem(rep, "scenario")));
		fputc(',', f);
		csv_string(f, cJSON_GetStringValue(cJSON_GetObjectItem(v, "name")));
		for (size_t i = 0; i < N_CSV_COLS; i++)
			fprintf(f, ",%.17g", num(v, csv_cols[i]));
		int have;
		double me = max_error(v, &have);
		if (have)
			fprintf(f, ",%.17g", me);
		else
			fprintf(f, ",");
		fprintf(f, ",%.17g,%s\n", footprint(v),
			cJSON_GetStringValue(cJSON_GetObjectItem(v, "stopped")));
	}
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
		fprintf(f, "\"/>\n    </testcase>\n");
	}
	fprintf(f, "  </testsuite>\n</testsuites>\n");
}

void rep_write_markdown(const cJSON *rep, FILE *f)
{
	const cJSON *vs = cJSON_GetObjectItem(rep, "variants");
	fprintf(f, "### %s\n\n", cJSON_GetStringValue(cJSON_GetObjectItem(rep, "scenario")));
	fprintf(f, "`%s` on %s, %d cores, seed %.0f.\n\n",
		cJSON_GetStringValue(cJSON_GetObjectItem(rep, "file")),
		cJSON_GetStringValue(cJSON_GetObjectItem(rep, "cpu")), (int)num(rep, "cores"),
		num(rep, "seed"));
	fprintf(f, "| variant | cores | ops | bounces/op | HITM/op | locked ops/op | ops per simulated s | max read error | footprint (B) | vs first |\n");
	fprintf(f, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	double base = 0;
	const cJSON *v;
	cJSON_ArrayForEach(v, vs) {
		double ops = num(v, "ops"), opsps = num(v, "ops_per_sec");
		if (v == vs->child)
			base = opsps;
		char err[32] = "-", ratio[32] = "-";
		int have;
		double me = max_error(v, &have);
		if (have)
			snprintf(err, sizeof err, "%.0f", me);
		if (base > 0)
			snprintf(ratio, sizeof ratio, "%.2fx", opsps / base);
		fprintf(f, "| %s | %d | %.0f | %.3f | %.3f | %.3f | %.4g | %s | %.0f | %s |\n",
			cJSON_GetStringValue(cJSON_GetObjectItem(v, "name")), (int)num(v, "core_count"), ops,
			ops ? num(v, "totals.bounces") / ops : 0.0, ops ? num(v, "totals.hitm") / ops : 0.0,
			ops ? num(v, "totals.locked_ops") / ops : 0.0, opsps, err, footprint(v), ratio);
	}
	fprintf(f, "\n");
}
