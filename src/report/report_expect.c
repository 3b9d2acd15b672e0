/* Expectations evaluated on the JSON report: a metric is a dotted
 * path into it, so a scenario can assert on anything --json shows. */
#include "config.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include "load/json_pos.h"
#include <stdlib.h>
#include <string.h>

static const cJSON *child(struct rep_index *x, const cJSON *node, const char *key, size_t len)
{
	char buf[256];
	if (len >= sizeof buf)
		return NULL;
	memcpy(buf, key, len);
	buf[len] = 0;
	if (cJSON_IsArray(node)) {
		/* variants are found by name; other arrays by index */
		char *end;
		long idx = strtol(buf, &end, 10);
		if (*end || end == buf || idx < 0)
			idx = -1;
		return rep_index_element(x, node, buf, idx);
	}
	return rep_index_item(x, node, buf);
}

const cJSON *rep_index_lookup(struct rep_index *x, const cJSON *rep, const char *path)
{
	const cJSON *node = rep;
	const char *p = path;
	while (node && *p) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		node = child(x, node, p, len);
		p += len + (dot ? 1 : 0);
	}
	return node;
}

const cJSON *rep_lookup(const cJSON *rep, const char *path)
{
	return rep_index_lookup(NULL, rep, path);
}

/* The variant a metric names, to file its result under that variant too. */
static cJSON *metric_variant(struct rep_index *x, cJSON *rep, const char *metric)
{
	if (strncmp(metric, "variants.", 9) != 0)
		return NULL;
	const char *name = metric + 9;
	const char *dot = strchr(name, '.');
	return (cJSON *)child(x, cJSON_GetObjectItem(rep, "variants"), name,
			      dot ? (size_t)(dot - name) : strlen(name));
}

/* The variant name a metric path starts with ("variants.NAME.…"). */
static size_t metric_variant_name(const char *metric, const char **name)
{
	*name = metric + 9;
	const char *dot = strchr(*name, '.');
	return dot ? (size_t)(dot - *name) : strlen(*name);
}

/* Whether the variant a metric names ran (is in the report). */
static int metric_ran(struct rep_index *x, const cJSON *rep, const char *metric)
{
	return !metric || strncmp(metric, "variants.", 9) != 0 || metric_variant(x, (cJSON *)rep, metric);
}

/* The core count of the variant a metric names when it lies outside the
 * expectation's "cores" range, else 0: the expectation is no claim about
 * that machine size. */
static int cores_outside(struct rep_index *ix, const cJSON *rep, const char *metric,
			 const struct scen_expect *x)
{
	if (!metric || (x->cores_min <= 1 && x->cores_max >= CPU_MAX_CORES))
		return 0;
	const cJSON *var = metric_variant(ix, (cJSON *)rep, metric);
	const cJSON *n = var ? cJSON_GetObjectItemCaseSensitive(var, "core_count") : NULL;
	if (!n || !cJSON_IsNumber(n))
		return 0;
	int cores = n->valueint;
	return cores < x->cores_min || cores > x->cores_max ? cores : 0;
}

/* Fields that exist only once a run produced them: a symbol's "accuracy"
 * appears when a ghost_add touched it (report_json.c, symbol_json). */
static const char *const accuracy_fields[] = {"exact", "reads", "max_error", "mean_error", NULL};

static void key_list(const cJSON *obj, const char **names, size_t cap)
{
	size_t k = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, obj)
		if (k + 1 < cap && it->string)
			names[k++] = it->string;
	names[k] = NULL;
}

int rep_metric_known(struct rep_index *x, const cJSON *variant, const char *metric, char *why, size_t n)
{
	const char *name;
	size_t len = metric_variant_name(metric, &name);
	const char *p = name + len;
	const cJSON *node = variant, *parent = NULL;
	while (*p == '.') {
		p++;
		const char *dot = strchr(p, '.');
		size_t l = dot ? (size_t)(dot - p) : strlen(p);
		char seg[256];
		snprintf(seg, sizeof seg, "%.*s", (int)l, p);
		if (cJSON_IsArray(node)) {
			/* An empty array (the line table) fills only as the run goes. */
			if (!node->child)
				return 0;
			const cJSON *c = child(x, node, p, l);
			if (!c) {
				snprintf(why, n, "no element \"%s\" in \"%s\" (it has %d)", seg,
					 node->string ? node->string : "", cJSON_GetArraySize(node));
				return -1;
			}
			parent = node;
			node = c;
		} else if (cJSON_IsObject(node)) {
			const cJSON *c = rep_index_item(x, node, seg);
			if (!c && parent && parent->string && strcmp(parent->string, "symbols") == 0 &&
			    strcmp(seg, "accuracy") == 0) {
				/* Known only after the run: check the field name alone. */
				const char *f = dot ? dot + 1 : "";
				for (const char *const *a = accuracy_fields; *a; a++)
					if (strcmp(*a, f) == 0)
						return 0;
				const char *hint = jpos_suggest(f, accuracy_fields);
				snprintf(why, n, "unknown field \"%s\" in \"accuracy\"%s%s%s", f,
					 hint ? " (did you mean \"" : " (expected exact, reads, max_error or mean_error)",
					 hint ? hint : "", hint ? "\"?)" : "");
				return -1;
			}
			if (!c) {
				const char *names[64] = {0};
				key_list(node, names, sizeof names / sizeof names[0]);
				if (parent && parent->string && strcmp(parent->string, "symbols") == 0 && !names[62]) {
					/* Offer "accuracy" too, which a run may add. */
					size_t k = 0;
					while (names[k])
						k++;
					names[k++] = "accuracy";
					names[k] = NULL;
				}
				const char *hint = jpos_suggest(seg, names);
				if (hint)
					snprintf(why, n, "unknown field \"%s\" (did you mean \"%s\"?)", seg, hint);
				else
					snprintf(why, n, "unknown field \"%s\" in \"%.*s\"", seg, (int)(p - 1 - metric),
						 metric);
				return -1;
			}
			parent = node;
			node = c;
		} else {
			snprintf(why, n, "\"%.*s\" is a %s, it has no field \"%s\"", (int)(p - 1 - metric), metric,
				 cJSON_IsString(node) ? "string" : "number", seg);
			return -1;
		}
		p += l;
	}
	if (!rep_is_number(node)) {
		snprintf(why, n, "names %s, not a number", cJSON_IsObject(node) ? "an object" :
			 cJSON_IsArray(node) ? "an array" : cJSON_IsString(node) ? "a string" : "a non-number");
		return -1;
	}
	return 0;
}

/* "expected <= 0.1", "expected in [2, 8]", "expected == 5": the bound a
 * value is judged by. */
static void bound_text(const struct scen_expect *x, char *buf, size_t n)
{
	if (x->has_equals && x->equals_is_int)
		snprintf(buf, n, "expected == %lld", (long long)x->equals_int);
	else if (x->has_equals)
		snprintf(buf, n, "expected == %.15g", x->equals);
	else if (x->has_min && x->has_max)
		snprintf(buf, n, "expected in [%.15g, %.15g]", x->min, x->max);
	else if (x->has_min)
		snprintf(buf, n, "expected >= %.15g", x->min);
	else
		snprintf(buf, n, "expected <= %.15g", x->max);
}

/* Whether value meets every bound of x; an integer against an integer
 * "equals" compares exactly (doubles cannot tell 2^53 from 2^53+1). */
static int within(const struct scen_expect *x, double value, int exact, int64_t ivalue)
{
	if (isnan(value))
		return 0;
	if (x->has_min && value < x->min)
		return 0;
	if (x->has_max && value > x->max)
		return 0;
	if (x->has_equals && x->equals_is_int)
		return exact ? ivalue == x->equals_int : value == (double)x->equals_int;
	if (x->has_equals)
		return value == x->equals;
	return 1;
}

static void add_bounds(cJSON *o, const struct scen_expect *x)
{
	if (x->has_min)
		cJSON_AddNumberToObject(o, "min", x->min);
	if (x->has_max)
		cJSON_AddNumberToObject(o, "max", x->max);
	if (x->has_equals && x->equals_is_int)
		cJSON_AddItemToObject(o, "equals", rep_int(x->equals_int));
	else if (x->has_equals)
		cJSON_AddNumberToObject(o, "equals", x->equals);
}

/* Judge x on its numbers a (and b, a ratio's denominator): fills o with
 * the value and the bounds, `why` with both sides and the bound, and
 * returns whether it holds. A ratio over a zero denominator is +inf (or
 * -inf) and is judged as such; 0 / 0 is undefined and fails. */
static int judge(const struct scen_expect *x, const cJSON *a, const cJSON *b, cJSON *o, char *why, size_t n)
{
	char bound[160], av[64], bv[64];
	bound_text(x, bound, sizeof bound);
	if (!rep_is_number(a)) {
		snprintf(why, n, "%s is not a number in the report", x->metric);
		return 0;
	}
	if (x->to && !rep_is_number(b)) {
		snprintf(why, n, "%s is not a number in the report", x->to);
		return 0;
	}
	rep_format_number(a, av, sizeof av);
	if (!x->to) {
		int64_t ivalue = 0;
		int exact = rep_integer(a, &ivalue);
		double value = rep_number(a);
		cJSON_AddItemToObject(o, "value", exact ? rep_int(ivalue) : cJSON_CreateNumber(value));
		add_bounds(o, x);
		snprintf(why, n, "%s = %s, %s", x->metric, av, bound);
		return within(x, value, exact, ivalue);
	}
	rep_format_number(b, bv, sizeof bv);
	cJSON_AddItemToObject(o, "numerator", cJSON_Duplicate(a, 1));
	cJSON_AddItemToObject(o, "denominator", cJSON_Duplicate(b, 1));
	double num = rep_number(a), den = rep_number(b);
	double value = den != 0 ? num / den : num > 0 ? INFINITY : num < 0 ? -INFINITY : NAN;
	if (isfinite(value))
		cJSON_AddNumberToObject(o, "value", value);
	add_bounds(o, x);
	if (den != 0)
		snprintf(why, n, "%s / %s = %s / %s = %.6g, %s", x->metric, x->to, av, bv, value, bound);
	else if (num != 0)
		snprintf(why, n, "%s / %s = %s / 0: the denominator is 0, the ratio %cinf; %s", x->metric, x->to, av,
			 num > 0 ? '+' : '-', bound);
	else
		snprintf(why, n, "%s / %s = 0 / 0: both are 0, the ratio is undefined; %s", x->metric, x->to, bound);
	return within(x, value, 0, 0);
}

/* How the variant a metric names ended when it did not halt ("limit",
 * "wall-clock"), else NULL. */
static const char *stopped_early(struct rep_index *ix, cJSON *rep, const char *metric, const cJSON **var)
{
	*var = metric ? metric_variant(ix, rep, metric) : NULL;
	const char *how = *var ? cJSON_GetStringValue(cJSON_GetObjectItem(*var, "stopped")) : NULL;
	return how && strcmp(how, "halted") != 0 ? how : NULL;
}

int rep_check_expectations(cJSON *rep, const struct scenario *s)
{
	int failed = 0;
	cJSON *all = cJSON_AddArrayToObject(rep, "expectations");
	const cJSON *v;
	cJSON_ArrayForEach(v, cJSON_GetObjectItem(rep, "variants"))
		cJSON_AddArrayToObject((cJSON *)v, "expectations");
	struct rep_index *ix = rep_index_new();
	for (size_t i = 0; i < s->n_expect; i++) {
		const struct scen_expect *x = &s->expect[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "metric", x->metric);
		if (x->to)
			cJSON_AddStringToObject(o, "to", x->to);
		if (x->description)
			cJSON_AddStringToObject(o, "description", x->description);
		const cJSON *a = rep_index_lookup(ix, rep, x->metric);
		const cJSON *b = x->to ? rep_index_lookup(ix, rep, x->to) : NULL;
		char why[1024] = "";
		if (!metric_ran(ix, rep, x->metric) || !metric_ran(ix, rep, x->to)) {
			/* --variant left out a variant it names: nothing to judge. */
			const char *name;
			const char *m = !metric_ran(ix, rep, x->metric) || !x->to ? x->metric : x->to;
			size_t len = metric_variant_name(m, &name);
			snprintf(why, sizeof why, "variant %.*s did not run", (int)len, name);
			cJSON_AddBoolToObject(o, "skipped", 1);
			cJSON_AddStringToObject(o, "message", why);
			cJSON_AddItemToArray(all, o);
			continue;
		}
		/* the side that ran outside the range: the value's, else the ratio's denominator's */
		const char *om = x->metric;
		int out = cores_outside(ix, rep, om, x);
		if (!out && x->to)
			out = cores_outside(ix, rep, om = x->to, x);
		if (out && om) {
			const char *name;
			size_t len = metric_variant_name(om, &name);
			snprintf(why, sizeof why, "a claim about %d..%d cores; variant %.*s ran on %d", x->cores_min,
				 x->cores_max, (int)len, name, out);
			cJSON_AddBoolToObject(o, "skipped", 1);
			cJSON_AddStringToObject(o, "message", why);
			cJSON *var = metric_variant(ix, rep, x->metric);
			if (var)
				cJSON_AddItemToArray(cJSON_GetObjectItem(var, "expectations"), cJSON_Duplicate(o, 1));
			cJSON_AddItemToArray(all, o);
			continue;
		}
		char judged[900];
		int ok = judge(x, a, b, o, judged, sizeof judged);
		/* A figure of a run cut short is no result, whatever its value,
		 * unless the expectation is about such a run. */
		const cJSON *cut;
		const char *how = x->about_stopped ? NULL : stopped_early(ix, rep, x->metric, &cut);
		if (!how && !x->about_stopped && x->to)
			how = stopped_early(ix, rep, x->to, &cut);
		if (how) {
			char cycles[32];
			rep_format_number(cJSON_GetObjectItem(cut, "cycles"), cycles, sizeof cycles);
			snprintf(why, sizeof why, "variant %s did not halt (stopped at its %s limit, cycle %s): %s",
				 cJSON_GetStringValue(cJSON_GetObjectItem(cut, "name")),
				 strcmp(how, "wall-clock") == 0 ? "wall-clock" : "cycle", cycles, judged);
			cJSON_AddStringToObject(o, "stopped", how);
			ok = 0;
		} else {
			snprintf(why, sizeof why, "%s", judged);
		}
		cJSON_AddBoolToObject(o, "ok", ok);
		cJSON_AddStringToObject(o, "message", why);
		failed += !ok;
		cJSON *var = metric_variant(ix, rep, x->metric);
		if (var)
			cJSON_AddItemToArray(cJSON_GetObjectItem(var, "expectations"), cJSON_Duplicate(o, 1));
		cJSON_AddItemToArray(all, o);
	}
	rep_index_free(ix);
	return failed;
}
