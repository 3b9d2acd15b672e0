/* The text c2c report (bounce run --c2c), a view of the JSON report like
 * `perf c2c report`: per variant the shared lines, those several cores
 * write first, then by HITM, each with who read and wrote every offset and
 * the instructions behind its HITMs. */
#include "config.h"
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

#define C2C_LINES 10  /* lines shown per variant */
#define C2C_INSNS 5   /* instructions shown per line */

static double num(const cJSON *o, const char *k, struct err *e)
{
	return rep_need_number(o, k, e);
}

static const char *str(const cJSON *o, const char *k)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(o, k));
	return s ? s : "";
}

/* A line of the table, for sorting. */
struct line_ref {
	const cJSON *l;
	int writers;  /* distinct cores that wrote it */
	double hitm, bounces;
};

/* The cores that wrote any offset of line l. */
static int count_writers(const cJSON *l)
{
	unsigned char seen[CPU_MAX_CORES] = {0};
	int n = 0;
	const cJSON *o, *c;
	cJSON_ArrayForEach(o, cJSON_GetObjectItem(l, "offsets"))
		cJSON_ArrayForEach(c, cJSON_GetObjectItem(o, "writers")) {
			int k = (int)c->valuedouble;
			if (k >= 0 && k < CPU_MAX_CORES && !seen[k]) {
				seen[k] = 1;
				n++;
			}
		}
	return n;
}

/* What a user would fix first: a line several cores write (a shared
 * counter, false sharing) before one only its owner writes (a per-CPU
 * copy that another core's sum reads), then most HITMs, most bounces. */
static int by_fix(const void *a, const void *b)
{
	const struct line_ref *p = a, *q = b;
	const cJSON *x = p->l, *y = q->l;
	if ((p->writers > 1) != (q->writers > 1))
		return p->writers > 1 ? -1 : 1;
	if (p->hitm != q->hitm)
		return p->hitm > q->hitm ? -1 : 1;
	if (p->bounces != q->bounces)
		return p->bounces > q->bounces ? -1 : 1;
	return strcmp(str(x, "address"), str(y, "address")); /* same width: hex order */
}

/* A core list as ranges: "0-3,6". */
static void cores_text(const cJSON *list, char *buf, size_t n)
{
	size_t k = 0;
	int first = -2, last = -2;
	const cJSON *c;
	buf[0] = 0;
	for (c = list ? list->child : NULL;; c = c->next) {
		int v = c ? (int)c->valuedouble : -2;
		if (c && v == last + 1) {
			last = v;
			continue;
		}
		if (first >= 0 && k < n) {
			k += (size_t)snprintf(buf + k, n - k, k ? ",%d" : "%d", first);
			if (last > first && k < n)
				k += (size_t)snprintf(buf + k, n - k, "-%d", last);
		}
		if (!c)
			break;
		first = last = v;
	}
	if (!buf[0])
		snprintf(buf, n, "-");
}

static void print_line(const cJSON *l, int writers, int rank, FILE *f, struct err *e)
{
	char syms[256] = "";
	const cJSON *s;
	size_t k = 0;
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(l, "symbols"))
		if (k < sizeof syms)
			k += (size_t)snprintf(syms + k, sizeof syms - k, "%s%s", k ? " " : "", s->valuestring);
	char shared[48] = "";
	if (writers > 1)
		snprintf(shared, sizeof shared, ", %d cores write it", writers);
	fprintf(f, "  #%d line %s (%s%s%s): %.0f HITM (%.0f remote), %.0f bounces, %.0f invalidations%s%s\n",
		rank, str(l, "address"), str(l, "region"), syms[0] ? ": " : "", syms, num(l, MS_STAT_KEY(hitm), e),
		num(l, MS_STAT_KEY(hitm_remote), e), num(l, MS_STAT_KEY(bounces), e),
		num(l, MS_STAT_KEY(invalidations), e), shared,
		cJSON_IsTrue(cJSON_GetObjectItem(l, "false_sharing")) ? ", FALSE SHARING" : "");
	/* Offsets: the name column as wide as its longest entry. */
	const cJSON *offs = cJSON_GetObjectItem(l, "offsets"), *o;
	int w = 2;
	cJSON_ArrayForEach(o, offs)
		if ((int)strlen(str(o, "at")) > w)
			w = (int)strlen(str(o, "at"));
	fprintf(f, "      %6s  %-*s %4s", "offset", w, "at", "size");
#define OFFSET_HEAD(name, to_symbol, c2c_head) fprintf(f, " %10s", c2c_head);
	MS_OFFSET_STATS(OFFSET_HEAD)
#undef OFFSET_HEAD
	fprintf(f, "  %-16s %s\n", "readers", "writers");
	cJSON_ArrayForEach(o, offs) {
		char rd[256], wr[256];
		cores_text(cJSON_GetObjectItem(o, "readers"), rd, sizeof rd);
		cores_text(cJSON_GetObjectItem(o, "writers"), wr, sizeof wr);
		fprintf(f, "      %6.0f  %-*s %4.0f", num(o, "offset", e), w, str(o, "at"), num(o, "size", e));
#define OFFSET_CELL(name, to_symbol, c2c_head) fprintf(f, " %10.0f", num(o, #name, e));
		MS_OFFSET_STATS(OFFSET_CELL)
#undef OFFSET_CELL
		fprintf(f, "  %-16s %s\n", rd, wr);
	}
	const cJSON *insns = cJSON_GetObjectItem(l, "instructions"), *x;
	int n = 0, total = cJSON_GetArraySize(insns), ww = 2;
	cJSON_ArrayForEach(x, insns)
		if ((int)strlen(str(x, "at")) > ww)
			ww = (int)strlen(str(x, "at"));
	if (total) {
		fprintf(f, "     ");
#define PC_HEAD(name, c2c_head) fprintf(f, " %10s", c2c_head);
		MS_PC_STATS(PC_HEAD)
#undef PC_HEAD
		fprintf(f, "  %-*s %s\n", ww, "code", "instruction");
	}
	cJSON_ArrayForEach(x, insns) {
		if (n++ == C2C_INSNS) {
			fprintf(f, "      ... %d more instruction%s (--json has them all)\n", total - C2C_INSNS,
				total - C2C_INSNS == 1 ? "" : "s");
			break;
		}
		fprintf(f, "     ");
#define PC_CELL(name, c2c_head) fprintf(f, " %10.0f", num(x, #name, e));
		MS_PC_STATS(PC_CELL)
#undef PC_CELL
		fprintf(f, "  %-*s %s\n", ww, str(x, "at"), str(x, "insn"));
	}
}

int rep_print_c2c(const cJSON *rep, FILE *f, struct err *e)
{
	const cJSON *v;
	cJSON_ArrayForEach(v, cJSON_GetObjectItem(rep, "variants")) {
		const cJSON *lines = cJSON_GetObjectItem(v, "lines");
		int n = cJSON_GetArraySize(lines);
		fprintf(f, "\nc2c: variant %s (%s, %.0f cores): %d shared line%s", str(v, "name"), str(v, "cpu"),
			num(v, "core_count", e), n, n == 1 ? "" : "s");
		if (!n) {
			fprintf(f, "\n");
			continue;
		}
		fprintf(f, ", those several cores write first, then by HITM\n");
		struct line_ref *sorted = malloc((size_t)n * sizeof *sorted);
		if (!sorted)
			return err_internal(e, "out of memory");
		int k = 0;
		const cJSON *l;
		cJSON_ArrayForEach(l, lines) {
			sorted[k].l = l;
			sorted[k].hitm = num(l, MS_STAT_KEY(hitm), e);
			sorted[k].bounces = num(l, MS_STAT_KEY(bounces), e);
			sorted[k++].writers = count_writers(l);
		}
		qsort(sorted, (size_t)n, sizeof *sorted, by_fix);
		int i = 0, minor = 0;
		for (; i < n && i < C2C_LINES; i++) {
			/* A per-CPU copy that a sum read once is the design working:
			 * the ones after it would only crowd out nothing to fix. */
			minor = sorted[i].writers <= 1 && sorted[i].hitm <= 1 && sorted[i].bounces <= 1;
			if (minor)
				break;
			print_line(sorted[i].l, sorted[i].writers, i + 1, f, e);
		}
		if (i < n)
			fprintf(f, "  ... %d more line%s%s (--json has them all)\n", n - i, n - i == 1 ? "" : "s",
				minor ? ", each written by one core at most, with 1 HITM and 1 bounce at most" : "");
		free(sorted);
	}
	return err_is_set(e) ? -1 : 0;
}
