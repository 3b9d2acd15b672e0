/* Expectations evaluated on the JSON report: a metric is a dotted
 * path into it, so a scenario can assert on anything --json shows. */
#include "config.h"
#include "report/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const cJSON *child(const cJSON *node, const char *key, size_t len)
{
	char buf[256];
	if (len >= sizeof buf)
		return NULL;
	memcpy(buf, key, len);
	buf[len] = 0;
	if (cJSON_IsArray(node)) {
		/* variants are found by name; other arrays by index */
		const cJSON *it;
		cJSON_ArrayForEach(it, node) {
			const cJSON *nm = cJSON_GetObjectItemCaseSensitive(it, "name");
			if (cJSON_IsString(nm) && strcmp(nm->valuestring, buf) == 0)
				return it;
		}
		char *end;
		long idx = strtol(buf, &end, 10);
		if (*end || end == buf || idx < 0)
			return NULL;
		return cJSON_GetArrayItem(node, (int)idx);
	}
	return cJSON_GetObjectItemCaseSensitive(node, buf);
}

const cJSON *rep_lookup(const cJSON *rep, const char *path)
{
	const cJSON *node = rep;
	const char *p = path;
	while (node && *p) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		node = child(node, p, len);
		p += len + (dot ? 1 : 0);
	}
	return node;
}

/* The variant a metric names, to file its result under that variant too. */
static cJSON *metric_variant(cJSON *rep, const char *metric)
{
	if (strncmp(metric, "variants.", 9) != 0)
		return NULL;
	const char *name = metric + 9;
	const char *dot = strchr(name, '.');
	return (cJSON *)child(cJSON_GetObjectItem(rep, "variants"), name,
			      dot ? (size_t)(dot - name) : strlen(name));
}

int rep_check_expectations(cJSON *rep, const struct scenario *s)
{
	int failed = 0;
	cJSON *all = cJSON_AddArrayToObject(rep, "expectations");
	const cJSON *v;
	cJSON_ArrayForEach(v, cJSON_GetObjectItem(rep, "variants"))
		cJSON_AddArrayToObject((cJSON *)v, "expectations");
	for (size_t i = 0; i < s->n_expect; i++) {
		const struct scen_expect *x = &s->expect[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "metric", x->metric);
		if (x->to)
			cJSON_AddStringToObject(o, "to", x->to);
		const cJSON *a = rep_lookup(rep, x->metric);
		const cJSON *b = x->to ? rep_lookup(rep, x->to) : NULL;
		char why[512] = "";
		double value = NAN;
		int64_t ivalue = 0;
		/* An integer metric against an integer "equals" compares exactly:
		 * doubles cannot tell 2^53 from 2^53+1. */
		int exact = !x->to && rep_integer(a, &ivalue);
		if (!rep_is_number(a))
			snprintf(why, sizeof why, "%s is not a number in the report", x->metric);
		else if (x->to && !rep_is_number(b))
			snprintf(why, sizeof why, "%s is not a number in the report", x->to);
		else if (x->to && rep_number(b) == 0)
			snprintf(why, sizeof why, "%s is 0: the ratio is undefined", x->to);
		else
			value = x->to ? rep_number(a) / rep_number(b) : rep_number(a);
		int ok = !why[0];
		if (ok) {
			cJSON_AddItemToObject(o, "value", exact ? rep_int(ivalue) : cJSON_CreateNumber(value));
			if (x->has_min) {
				cJSON_AddNumberToObject(o, "min", x->min);
				if (value < x->min)
					ok = 0;
			}
			if (x->has_max) {
				cJSON_AddNumberToObject(o, "max", x->max);
				if (value > x->max)
					ok = 0;
			}
			if (x->has_equals && x->equals_is_int) {
				cJSON_AddItemToObject(o, "equals", rep_int(x->equals_int));
				if (exact ? ivalue != x->equals_int : value != (double)x->equals_int)
					ok = 0;
			} else if (x->has_equals) {
				cJSON_AddNumberToObject(o, "equals", x->equals);
				if (value != x->equals)
					ok = 0;
			}
			char shown[32];
			if (exact)
				snprintf(shown, sizeof shown, "%" PRId64, ivalue);
			else
				snprintf(shown, sizeof shown, "%.6g", value);
			if (!ok)
				snprintf(why, sizeof why, "%s%s = %s is outside the expected range",
					 x->metric, x->to ? " ratio" : "", shown);
		}
		cJSON_AddBoolToObject(o, "ok", ok);
		if (!ok)
			cJSON_AddStringToObject(o, "message", why);
		failed += !ok;
		cJSON *var = metric_variant(rep, x->metric);
		if (var)
			cJSON_AddItemToArray(cJSON_GetObjectItem(var, "expectations"), cJSON_Duplicate(o, 1));
		cJSON_AddItemToArray(all, o);
	}
	return failed;
}
