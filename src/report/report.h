/* Reports: the result of a run as one JSON document, built from
 * the engine's statistics after each variant; expectations are evaluated
 * on that same document, so what CI checks is exactly what --json shows.
 * The text summary, CSV and JUnit outputs are views of it. */
#ifndef BOUNCE_REPORT_H
#define BOUNCE_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>
#include "run/runner.h"
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
/* A number the views read from the report this program built: one that is
 * not there is the program's bug, never a 0. rep_need records an internal
 * error in e (the first one counts) and returns NULL, rep_need_number
 * then 0; the view returns -1 and its caller exits with status 3. */
const cJSON *rep_need(const cJSON *o, const char *path, struct err *e);
double rep_need_number(const cJSON *o, const char *path, struct err *e);

/* Lookups into a report that stay quick however many variants, symbols or
 * lines it has (report_index.c): each large object or array is indexed
 * the first time a lookup passes through it. The report may grow between
 * lookups (appended children are seen) but must not otherwise change
 * while the index lives. NULL from rep_index_new (out of memory) and a
 * NULL index are valid: lookups then search, with the same answers. */
struct rep_index;
struct rep_index *rep_index_new(void);
void rep_index_free(struct rep_index *x);
/* cJSON_GetObjectItemCaseSensitive(obj, key), indexed. */
const cJSON *rep_index_item(struct rep_index *x, const cJSON *obj, const char *key);
/* The first element of array `arr` whose "name" is `name`, else the one
 * at position `pos` (-1: none). */
const cJSON *rep_index_element(struct rep_index *x, const cJSON *arr, const char *name, long pos);
/* rep_lookup through an index. */
const cJSON *rep_index_lookup(struct rep_index *x, const cJSON *rep, const char *path);

int rep_print_summary(const cJSON *rep, FILE *f, struct err *e);
/* The shared lines of each variant by HITM, with per-offset readers and
 * writers and the instructions behind the HITMs (perf c2c report). */
int rep_print_c2c(const cJSON *rep, FILE *f, struct err *e);
/* The expectation lines of the summary ("ok", "skip", "FAIL"); only the
 * failures when failures_only (what --quiet still prints). */
void rep_print_expectations(const cJSON *rep, int failures_only, FILE *f);
/* Whether `metric` ("variants.NAME.…") can name a number in a report of
 * its variant, given that variant's report before it ran (`variant`): 0,
 * or -1 with why. Parts that only a run creates are checked by name.
 * Lookups go through x (may be NULL), an index of that report. */
int rep_metric_known(struct rep_index *x, const cJSON *variant, const char *metric, char *why, size_t n);
/* The columns a CSV has beyond the plain ones: the replicates' spread
 * (--repeat) and the ratios to a baseline variant (--baseline). */
struct rep_csv_extra {
	int replicates;            /* 1: M_min, M_max, M_sd per figure */
	const char *baseline;      /* NULL: none; else M_vs_BASELINE per figure */
};
void rep_write_csv_header(FILE *f, const char *const *params, size_t n_params, const struct rep_csv_extra *x);
/* One row per variant; param values are prepended (sweeps). */
int rep_write_csv_rows(const cJSON *rep, const char *const *values, size_t n_values, FILE *f, struct err *e);
void rep_write_junit(const cJSON *rep, FILE *f);

/* The figures of a CSV row (report_output.c), the columns from core_count
 * to footprint: their number, column names, and a variant's value of one
 * (0 when it has none: max_error without an approximate read). */
size_t rep_n_figures(void);
const char *rep_figure_name(size_t i);
int rep_figure_raw(const cJSON *v, size_t i, double *out);

/* Replicates and baselines (report_compare.c). The figures they cover
 * are the CSV's from cycles on: core_count is a setting, not a result. */
#define REP_FIRST_COMPARED 1
/* Add "replicates" to variant v: the seeds of runs[0..n) (the same
 * variant at seeds S..S+n-1, runs[0] is v) and the mean, min, max and
 * sample standard deviation of each figure over them. */
void rep_add_replicates(cJSON *v, const cJSON *const *runs, size_t n);
/* A variant's figure i as the CSV gives it: the replicates' mean, else
 * its own. 0 when it has none. */
int rep_figure(const cJSON *v, size_t i, double *out);
/* Add "baseline": name at the top of rep and "vs_NAME" to each variant:
 * each figure divided by the baseline variant's (null where that is 0).
 * -1 when rep has no variant of that name. */
int rep_add_baseline(cJSON *rep, const char *name);
/* The optional columns (struct rep_csv_extra) of the header and of a
 * variant's row; rep says which it has. */
void rep_write_csv_extra_header(FILE *f, const struct rep_csv_extra *x);
struct rep_csv_extra rep_csv_extra_of(const cJSON *rep);
void rep_write_csv_extra_cells(FILE *f, const cJSON *rep, const cJSON *v);
/* The headline table of docs/results.md for one scenario. */
int rep_write_markdown(const cJSON *rep, FILE *f, struct err *e);

#endif
