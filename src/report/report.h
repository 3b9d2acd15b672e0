/* Reports: the result of a run as one JSON document, built from
 * the engine's statistics after each variant; expectations are evaluated
 * on that same document, so what CI checks is exactly what --json shows.
 * The text summary, CSV and JUnit outputs are views of it. */
#ifndef BOUNCE_REPORT_H
#define BOUNCE_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>
#include "report/runner.h"
#include "base/error.h"

/* {"scenario", "file", "seed", "cpu", "cores", "variants": []} */
cJSON *rep_new(const struct scenario *s, const struct runner *first);
/* Append the finished variant of r to rep's "variants". */
int rep_add_variant(cJSON *rep, const struct runner *r, struct err *e);
/* Evaluate the scenario's expectations on rep; adds "expectations" at the
 * top and in each variant they name. Returns the number that failed. */
int rep_check_expectations(cJSON *rep, const struct scenario *s);

/* Numbers in the report (report_num.c): integers are exact whatever their
 * size, so read and print them through these, never valuedouble. */
cJSON *rep_int(int64_t v);
cJSON *rep_uint(uint64_t v);
void rep_add_int(cJSON *o, const char *key, int64_t v);
void rep_add_uint(cJSON *o, const char *key, uint64_t v);
int rep_is_number(const cJSON *n);
double rep_number(const cJSON *n);             /* 0 when not a number */
int rep_integer(const cJSON *n, int64_t *out); /* 1 when n is an exact integer */
/* Integers in decimal digits, other numbers as %.17g. */
void rep_format_number(const cJSON *n, char *buf, size_t size);

/* A metric path "variants.NAME.symbols.fbc.bounces" looked up in rep. */
const cJSON *rep_lookup(const cJSON *rep, const char *path);

void rep_print_summary(const cJSON *rep, FILE *f);
/* The shared lines of each variant by HITM, with per-offset readers and
 * writers and the instructions behind the HITMs (perf c2c report). */
void rep_print_c2c(const cJSON *rep, FILE *f);
/* The expectation lines of the summary ("ok", "skip", "FAIL"); only the
 * failures when failures_only (what --quiet still prints). */
void rep_print_expectations(const cJSON *rep, int failures_only, FILE *f);
/* Whether `metric` ("variants.NAME.…") can name a number in a report of
 * its variant, given that variant's report before it ran (`variant`): 0,
 * or -1 with why. Parts that only a run creates are checked by name. */
int rep_metric_known(const cJSON *variant, const char *metric, char *why, size_t n);
void rep_write_csv_header(FILE *f, const char *const *params, size_t n_params);
/* One row per variant; param values are prepended (sweeps). */
void rep_write_csv_rows(const cJSON *rep, const char *const *values, size_t n_values, FILE *f);
void rep_write_junit(const cJSON *rep, FILE *f);
/* The headline table of docs/results.md for one scenario. */
void rep_write_markdown(const cJSON *rep, FILE *f);

#endif
