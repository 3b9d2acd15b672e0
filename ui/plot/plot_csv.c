/* `bounce plot`'s input: an RFC 4180 CSV with a header row (fields may be
 * quoted, "" inside quotes is a quote), read a row at a time: each row's x
 * and metric are checked as it is read, the first fault stops the reading,
 * and only what the chart needs of a row is kept. The rows kept are then
 * grouped into one series per variant (or series column), sorted by x. */
#include "config.h"
#include "plot_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui_engine.h"

struct csv_row {
	char **f;
	long long *col;         /* 1-based byte column where each field starts */
	size_t n, cap;
	long long line;
};

static void row_clear(struct csv_row *r)
{
	for (size_t j = 0; j < r->n; j++)
		free(r->f[j]);
	r->n = 0;
}

static void row_free(struct csv_row *r)
{
	row_clear(r);
	free(r->f);
	free(r->col);
	memset(r, 0, sizeof *r);
}

static int add_field(struct csv_row *r, const char *s, size_t len, long long col)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		char **f = realloc(r->f, cap * sizeof *f);
		if (!f)
			return -1;
		r->f = f;
		long long *c = realloc(r->col, cap * sizeof *c);
		if (!c)
			return -1;
		r->col = c;
		r->cap = cap;
	}
	if (!(r->f[r->n] = malloc(len + 1)))
		return -1;
	memcpy(r->f[r->n], s, len);
	r->f[r->n][len] = 0;
	r->col[r->n++] = col;
	return 0;
}

/* The CSV being read: where the next byte is, and the field being built. */
struct csv_in {
	FILE *f;
	const char *file;
	long long line, col;
	char *buf;
	size_t len, cap;
};

static int put(struct csv_in *in, int c)
{
	if (in->len == in->cap) {
		size_t cap = in->cap ? 2 * in->cap : 256;
		char *b = realloc(in->buf, cap);
		if (!b)
			return -1;
		in->buf = b;
		in->cap = cap;
	}
	in->buf[in->len++] = (char)c;
	return 0;
}

/* The next row into r, blank lines skipped: 1, 0 at the end of the file,
 * -1 with e set. A quoted field may hold commas and newlines. */
static int csv_next(struct csv_in *in, struct csv_row *r, struct err *e)
{
	for (;;) {
		row_clear(r);
		if (err_poll(e))
			return -1;
		int c = getc(in->f);
		if (c == EOF)
			return ferror(in->f) ? err_set(e, in->file, in->line, in->col, "read error") : 0;
		ungetc(c, in->f);
		r->line = in->line;
		for (;;) { /* one field */
			long long start = in->col, sline = in->line;
			in->len = 0;
			c = getc(in->f);
			if (c == '"') {
				in->col++;
				for (;;) {
					c = getc(in->f);
					if (c == EOF)
						return err_set(e, in->file, sline, start, "quoted field not closed");
					if (c == '"') {
						c = getc(in->f);
						in->col++;
						if (c != '"')
							break;
					} else if (c == '\n') {
						in->line++;
						in->col = 0;
					}
					if (put(in, c))
						return err_internal(e, "out of memory");
					in->col++;
				}
				if (c != ',' && c != '\n' && c != '\r' && c != EOF)
					return err_set(e, in->file, in->line, in->col,
						       "text after a quoted field's closing quote");
			} else {
				for (; c != ',' && c != '\n' && c != '\r' && c != EOF; c = getc(in->f)) {
					if (put(in, c))
						return err_internal(e, "out of memory");
					in->col++;
				}
			}
			if (add_field(r, in->buf ? in->buf : "", in->len, start))
				return err_internal(e, "out of memory");
			if (c == ',') {
				in->col++;
				continue;
			}
			if (c == '\r' && (c = getc(in->f)) != '\n' && c != EOF)
				ungetc(c, in->f);
			in->line++;
			in->col = 1;
			break;
		}
		if (ferror(in->f))
			return err_set(e, in->file, r->line, 1, "read error");
		if (r->n > 1 || r->f[0][0])
			return 1;
	}
}

static int column(const struct csv_row *h, const char *name)
{
	for (size_t j = 0; j < h->n; j++)
		if (!strcmp(h->f[j], name))
			return (int)j;
	return -1;
}

static int no_column(const char *file, const struct csv_row *h, const char *what, const char *name,
		     struct err *e)
{
	char list[700];
	size_t k = 0;
	list[0] = 0;
	for (size_t j = 0; j < h->n && k < sizeof list - 1; j++)
		k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", j ? ", " : "", h->f[j]);
	return err_set(e, file, 1, 1, "no %s column '%s' (columns: %s)", what, name, list);
}

static int number(const char *file, const struct csv_row *r, int j, const char *what, double *v,
		  struct err *e)
{
	const char *s = r->f[j];
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	/* An underflow (4.9e-324) is still a number, one a chart draws as 0. */
	if (!*s || *end || !isfinite(*v) || (errno == ERANGE && fabs(*v) >= 1))
		return err_set(e, file, r->line, r->col[j], "%s '%s' is not a number", what, s);
	/* Past this the axes' arithmetic (a span, a margin above the top)
	 * overflows, and a chart of such values says nothing anyway. */
	if (fabs(*v) > 1e300)
		return err_set(e, file, r->line, r->col[j], "%s '%s' is too large to draw (at most 1e300 either way)",
			       what, s);
	return 0;
}

/* Series in a chart: a palette's colours repeat after a few, and a legend
 * of thousands says nothing; --series over a column of distinct values
 * (every row its own series) took minutes before this was refused. */
#define PLOT_MAX_SERIES 256

/* The series called name, new if need be; NULL with *full set past the
 * limit, NULL alone when out of memory. Found by a linear search: the
 * limit keeps it short. */
static struct plot_series *series_named(struct plot_data *d, const char *name, int *full)
{
	for (size_t i = 0; i < d->ns; i++)
		if (!strcmp(d->s[i].name, name))
			return &d->s[i];
	if (d->ns == PLOT_MAX_SERIES) {
		*full = 1;
		return NULL;
	}
	struct plot_series *s = realloc(d->s, (d->ns + 1) * sizeof *s);
	if (!s)
		return NULL;
	d->s = s;
	s = &d->s[d->ns];
	memset(s, 0, sizeof *s);
	if (!(s->name = strdup(name)))
		return NULL;
	d->ns++;
	return s;
}

/* Appended in row order; sorted by x once all are read (sort_series).
 * bar: the point's error bar (lo, hi), NULL for none. */
static int series_add(struct plot_series *s, double x, double y, const double *bar, size_t row)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		for (int b = 0; bar && b < 2; b++) {
			double **arr = b ? &s->hi : &s->lo;
			double *nb = realloc(*arr, cap * sizeof *nb);
			if (!nb)
				return -1;
			*arr = nb;
		}
		double *nx = realloc(s->x, cap * sizeof *nx);
		if (!nx)
			return -1;
		s->x = nx;
		double *ny = realloc(s->y, cap * sizeof *ny);
		if (!ny)
			return -1;
		s->y = ny;
		size_t *nr = realloc(s->row, cap * sizeof *nr);
		if (!nr)
			return -1;
		s->row = nr;
		s->cap = cap;
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	if (bar) {
		s->lo[s->n] = bar[0];
		s->hi[s->n] = bar[1];
	}
	s->row[s->n] = row;
	s->n++;
	return 0;
}

struct point {
	double x, y, lo, hi;
	size_t row;
};

static int by_x_then_row(const void *a, const void *b)
{
	const struct point *p = a, *q = b;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->row < q->row ? -1 : p->row > q->row;
}

/* Sort every series by x (O(n log n): inserting each point in place was
 * quadratic for descending x) and find the first row, in file order, that
 * repeats an x of its series: 0 when none. */
static size_t sort_series(struct plot_data *d, int *oom)
{
	size_t first_dup = 0;
	for (size_t i = 0; i < d->ns; i++) {
		struct plot_series *s = &d->s[i];
		struct point *p = malloc((s->n ? s->n : 1) * sizeof *p);
		if (!p) {
			*oom = 1;
			return 0;
		}
		for (size_t k = 0; k < s->n; k++)
			p[k] = (struct point){s->x[k], s->y[k], s->lo && s->hi ? s->lo[k] : 0, s->lo && s->hi ? s->hi[k] : 0,
					      s->row[k]};
		qsort(p, s->n, sizeof *p, by_x_then_row);
		for (size_t k = 0; k < s->n; k++) {
			s->x[k] = p[k].x;
			s->y[k] = p[k].y;
			if (s->lo && s->hi) {
				s->lo[k] = p[k].lo;
				s->hi[k] = p[k].hi;
			}
			s->row[k] = p[k].row;
			if (k && p[k].x == p[k - 1].x && (!first_dup || p[k].row < first_dup))
				first_dup = p[k].row;
		}
		free(p);
	}
	return first_dup;
}

/* What the chart needs of a data row: its x and metric, where it is, and
 * its x text, series value and sweep parameters (NUL-separated in key). */
struct kept_row {
	double x, y, bar[2];
	long long line, xcol, scol;
	char *key;
};

struct kept {
	struct kept_row *row;
	size_t n, cap;
	int series_col;         /* the series column, -1: none */
	int lo_col, hi_col;     /* the metric's M_min and M_max (error bars), -1: none */
	int params[64];         /* sweep parameters that may split a variant */
	size_t np;
};

static void kept_free(struct kept *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->row[i].key);
	free(k->row);
}

/* The i-th NUL-separated value of a key: 0 the x text, 1 the series
 * value, 2... the parameters. */
static const char *key_at(const char *key, size_t i)
{
	while (i--)
		key += strlen(key) + 1;
	return key;
}

static int keep(struct kept *k, const struct csv_row *r, int xc, double x, double y, const double *bar)
{
	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 256;
		struct kept_row *nr = realloc(k->row, cap * sizeof *nr);
		if (!nr)
			return -1;
		k->row = nr;
		k->cap = cap;
	}
	int cols[66];
	size_t nc = 0, len = 0;
	cols[nc++] = xc;
	cols[nc++] = k->series_col;
	for (size_t q = 0; q < k->np; q++)
		cols[nc++] = k->params[q];
	for (size_t q = 0; q < nc; q++)
		len += (cols[q] >= 0 ? strlen(r->f[cols[q]]) : 0) + 1;
	char *key = malloc(len), *at = key;
	if (!key)
		return -1;
	for (size_t q = 0; q < nc; q++) {
		const char *v = cols[q] >= 0 ? r->f[cols[q]] : "";
		size_t l = strlen(v) + 1;
		memcpy(at, v, l);
		at += l;
	}
	k->row[k->n++] = (struct kept_row){x, y, {bar[0], bar[1]}, r->line, r->col[xc],
					   k->series_col >= 0 ? r->col[k->series_col] : 1, key};
	return 0;
}

/* Group the rows kept into series. The first fault of the reading (a
 * value that is no number), if any, is in `fault`; a series past the
 * limit or a repeated point in an earlier row comes first. */
static int group(const char *file, const struct csv_row *h, const struct kept *k, const char *xn, const char *yn,
		 struct err *fault, struct plot_data *d, struct err *e)
{
	/* The candidate parameters whose value is not the same on every row
	 * split a variant into several series. */
	int vary[64] = {0};
	for (size_t q = 0; q < k->np; q++)
		for (size_t i = 1; i < k->n && !vary[q]; i++)
			vary[q] = strcmp(key_at(k->row[i].key, q + 2), key_at(k->row[0].key, q + 2)) != 0;
	struct err at = {0};
	int bad = 0;
	size_t bad_row = 0;
	for (size_t i = 0; i < k->n; i++) {
		const struct kept_row *r = &k->row[i];
		char name[256];
		size_t n = (size_t)snprintf(name, sizeof name, "%s", k->series_col >= 0 ? key_at(r->key, 1) : yn);
		for (size_t q = 0; q < k->np && n < sizeof name; q++)
			if (vary[q])
				n += (size_t)snprintf(name + n, sizeof name - n, " %s=%s", h->f[k->params[q]],
						      key_at(r->key, q + 2));
		int full = 0;
		struct plot_series *s = series_named(d, name, &full);
		if (full) {
			bad_row = i + 1;
			bad = err_set(&at, file, r->line, r->scol,
				      "series '%s' is one more than the limit of %d in a chart (choose a --series "
				      "with fewer values)", name, PLOT_MAX_SERIES);
			break;
		}
		if (!s || series_add(s, r->x, r->y, k->hi_col >= 0 ? r->bar : NULL, i + 1))
			return err_internal(e, "out of memory");
	}
	if (!bad && err_is_set(fault)) {
		bad = -1;
		bad_row = k->n + 1;
		at = *fault;
	}
	/* A row that repeats a point, if one comes before the fault, is the
	 * first fault in file order. */
	int oom = 0;
	size_t dup = sort_series(d, &oom);
	if (oom)
		return err_internal(e, "out of memory");
	if (dup && (!bad || dup < bad_row)) {
		const struct kept_row *r = &k->row[dup - 1];
		char name[256] = "";
		for (size_t j = 0; j < d->ns; j++)
			for (size_t q = 0; q < d->s[j].n; q++)
				if (d->s[j].row[q] == dup)
					snprintf(name, sizeof name, "%s", d->s[j].name);
		return err_set(e, file, r->line, r->xcol,
			       "a second row for series '%s' at %s = %s (plot each point once: "
			       "use --series, or merge the shards first)",
			       name, xn, key_at(r->key, 0));
	}
	if (bad) {
		*e = at;
		return -1;
	}
	return 0;
}

/* The header's columns: x, metric and series, and the sweep parameters
 * (columns between "point" and "scenario") other than x that may split a
 * variant into several series when no --series is given. */
static int columns(const char *file, const struct csv_row *h, const struct plot_spec *spec, int *xc, int *yc,
		   struct kept *k, char *yn, size_t yn_size, struct err *e)
{
	const char *xn = spec->x ? spec->x : "cores", *metric = spec->metric ? spec->metric : "ops_per_sec";
	int sc = -1;
	snprintf(yn, yn_size, "%s", metric);
	if (spec->baseline) {
		/* the sweep's --baseline column: the ratio computed where the
		 * figures were, not again from rounded text */
		snprintf(yn, yn_size, "%s_vs_%s", metric, spec->baseline);
		if (column(h, yn) < 0)
			return err_set(e, file, 1, 1, "no column '%s' (sweep with --baseline %s to have it)", yn,
				       spec->baseline);
	}
	if ((*xc = column(h, xn)) < 0)
		return no_column(file, h, "x", xn, e);
	if ((*yc = column(h, yn)) < 0)
		return no_column(file, h, "metric", yn, e);
	char bar_name[300];
	snprintf(bar_name, sizeof bar_name, "%s_min", yn);
	k->lo_col = column(h, bar_name);
	snprintf(bar_name, sizeof bar_name, "%s_max", yn);
	k->hi_col = k->lo_col >= 0 ? column(h, bar_name) : -1;
	if (spec->series && (sc = column(h, spec->series)) < 0)
		return no_column(file, h, "series", spec->series, e);
	if (sc < 0 && (sc = column(h, "series")) < 0)
		sc = column(h, "variant");
	k->series_col = sc;
	k->np = 0;
	int p = column(h, "point"), end = column(h, "scenario");
	if (!spec->series && sc >= 0 && !strcmp(h->f[sc], "variant") && h->n <= 64 && p >= 0 && end > p)
		for (int j = p + 1; j < end; j++)
			if (j != *xc)
				k->params[k->np++] = j;
	return 0;
}

int plot_read(const struct plot_spec *spec, struct plot_data *d, struct err *e)
{
	memset(d, 0, sizeof *d);
	const char *file = spec->csv;
	/* A regular file only: a device would be read without end and a FIFO
	 * without a writer would block the open. */
	struct stat st;
	int errnum, fd = input_open(file, &st, &errnum);
	if (fd < 0)
		return errnum ? err_sys(e, file, errnum, "cannot open") :
		       err_set(e, file, 0, 0, "is %s (expected a CSV file)", input_kind(st.st_mode));
	struct csv_in in = {.f = fdopen(fd, "rb"), .file = file, .line = 1, .col = 1};
	if (!in.f) {
		close(fd);
		return err_internal(e, "out of memory");
	}
	struct csv_row h = {0}, r = {0};
	struct kept k = {0};
	struct err fault = {0};
	const char *xn = spec->x ? spec->x : "cores";
	char yn[256] = "";
	int xc = -1, yc = -1, got = csv_next(&in, &h, e);
	int rc = got < 0 ? -1 : got == 0 ? err_set(e, file, 1, 1, "empty file") :
		 columns(file, &h, spec, &xc, &yc, &k, yn, sizeof yn, e);
	while (!rc && (got = csv_next(&in, &r, e)) > 0) {
		double x, y, bar[2] = {0, 0};
		if (r.n != h.n)
			rc = err_set(e, file, r.line, 1, "%zu fields, the header has %zu", r.n, h.n);
		else if (number(file, &r, xc, xn, &x, &fault) || number(file, &r, yc, yn, &y, &fault) ||
			 (k.hi_col >= 0 && (number(file, &r, k.lo_col, h.f[k.lo_col], &bar[0], &fault) ||
					    number(file, &r, k.hi_col, h.f[k.hi_col], &bar[1], &fault))))
			break;
		else if (keep(&k, &r, xc, x, y, bar))
			rc = err_internal(e, "out of memory");
	}
	if (!rc && got < 0)
		rc = -1;
	if (!rc && !k.n && !err_is_set(&fault))
		rc = err_set(e, file, 2, 1, "no data rows after the header");
	if (!rc && !(d->xname = strdup(xn)))
		rc = err_internal(e, "out of memory");
	if (!rc && !(d->yname = strdup(yn)))
		rc = err_internal(e, "out of memory");
	if (!rc)
		rc = group(file, &h, &k, xn, yn, &fault, d, e);
	fclose(in.f);
	free(in.buf);
	row_free(&h);
	row_free(&r);
	kept_free(&k);
	if (rc)
		plot_data_free(d);
	return rc;
}

void plot_data_free(struct plot_data *d)
{
	for (size_t i = 0; i < d->ns; i++) {
		free(d->s[i].name);
		free(d->s[i].x);
		free(d->s[i].y);
		free(d->s[i].lo);
		free(d->s[i].hi);
		free(d->s[i].row);
	}
	free(d->s);
	free(d->xname);
	free(d->yname);
	memset(d, 0, sizeof *d);
}

const char *plot_unit(const char *column)
{
	static const struct { const char *col, *unit; } units[] = {
		{"ops_per_sec", "ops/s"}, {"bounces_per_op", "bounces/op"}, {"cycles", "cycles"},
		{"seconds", "s"}, {"locked_cycles", "cycles"}, {"cores", "cores"},
		{"core_count", "cores"}, {"threads", "threads"}, {"footprint", "bytes"},
		{"instructions", "instructions"}, {"ops", "ops"}, {"bounces", "bounces"},
		{"hitm", "HITMs"}, {"hitm_remote", "HITMs"}, {"c2c_transfers", "transfers"},
		{"invalidations", "invalidations"}, {"locked_ops", "locked ops"},
		{"mem_reads", "reads"}, {"writebacks", "writebacks"}, {"max_error", "counts"},
	};
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(units[i].col, column))
			return units[i].unit;
	return NULL;
}
