/* Exact integers in the report. cJSON keeps every number as a double, which
 * holds integers exactly only up to 2^53 and prints 15 significant digits;
 * an integer with more digits is kept as raw JSON text instead, so a seed
 * of 2^63-1 or a .quad of 2^53+1 reads back as what was simulated. */
#include "config.h"
#include "report/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* cJSON prints up to 15 significant digits exactly; beyond, raw text. */
#define REP_EXACT_DOUBLE 1000000000000000ll

static cJSON *raw_number(const char *text)
{
	return cJSON_CreateRaw(text);
}

cJSON *rep_int(int64_t v)
{
	if (v > -REP_EXACT_DOUBLE && v < REP_EXACT_DOUBLE)
		return cJSON_CreateNumber((double)v);
	char buf[24];
	snprintf(buf, sizeof buf, "%" PRId64, v);
	return raw_number(buf);
}

cJSON *rep_uint(uint64_t v)
{
	if (v < (uint64_t)REP_EXACT_DOUBLE)
		return cJSON_CreateNumber((double)v);
	char buf[24];
	snprintf(buf, sizeof buf, "%" PRIu64, v);
	return raw_number(buf);
}

void rep_add_int(cJSON *o, const char *key, int64_t v)
{
	cJSON_AddItemToObject(o, key, rep_int(v));
}

void rep_add_uint(cJSON *o, const char *key, uint64_t v)
{
	cJSON_AddItemToObject(o, key, rep_uint(v));
}

/* Raw text is an integer when it is digits with an optional minus sign. */
static int raw_integer_text(const cJSON *n)
{
	if (!cJSON_IsRaw(n) || !n->valuestring)
		return 0;
	const char *s = n->valuestring;
	s += *s == '-';
	return *s && strspn(s, "0123456789") == strlen(s);
}

int rep_is_number(const cJSON *n)
{
	return cJSON_IsNumber(n) || raw_integer_text(n);
}

double rep_number(const cJSON *n)
{
	if (cJSON_IsNumber(n))
		return n->valuedouble;
	return raw_integer_text(n) ? strtod(n->valuestring, NULL) : 0.0;
}

int rep_integer(const cJSON *n, int64_t *out)
{
	if (cJSON_IsNumber(n)) {
		double x = n->valuedouble;
		if (!(x > -9007199254740992.0 && x < 9007199254740992.0) || x != (double)(int64_t)x)
			return 0;
		*out = (int64_t)x;
		return 1;
	}
	if (!raw_integer_text(n))
		return 0;
	errno = 0;
	long long v = strtoll(n->valuestring, NULL, 10);
	if (errno)
		return 0;
	*out = v;
	return 1;
}

void rep_format_number(const cJSON *n, char *buf, size_t size)
{
	int64_t v;
	if (rep_integer(n, &v))
		snprintf(buf, size, "%" PRId64, v);
	else if (raw_integer_text(n))
		snprintf(buf, size, "%s", n->valuestring); /* beyond int64: as written */
	else
		snprintf(buf, size, "%.17g", rep_number(n));
}

const cJSON *rep_need(const cJSON *o, const char *path, struct err *e)
{
	const cJSON *n = rep_lookup(o, path);
	if (!rep_is_number(n)) {
		err_internal(e, "report: no number at \"%s\"%s%s", path, o && o->string ? " of " : "",
			     o && o->string ? o->string : "");
		return NULL;
	}
	return n;
}

double rep_need_number(const cJSON *o, const char *path, struct err *e)
{
	return rep_number(rep_need(o, path, e));
}
