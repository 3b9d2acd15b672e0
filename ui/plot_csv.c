/* `bounce plot`'s input: an RFC 4180 CSV with a header row (fields may be
 * quoted, "" inside quotes is a quote), read whole, then grouped into one
 * series per variant (or series column) with the points sorted by x. */
#include "config.h"
#include "plot_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui_engine.h"

struct csv_row {
	char **f;
	int *col;               /* 1-based byte column where each field starts */
	size_t n;
	int line;
};

struct csv {
	struct csv_row *row;    /* row[0] is the header */
	size_t n, cap;
};

static void csv_free(struct csv *c)
{
	for (size_t i = 0; i < c->n; i++) {
		for (size_t j = 0; j < c->row[i].n; j++)
			free(c->row[i].f[j]);
		free(c->row[i].f);
		free(c->row[i].col);
	}
	free(c->row);
	memset(c, 0, sizeof *c);
}

static int add_field(struct csv_row *r, const char *s, size_t len, int col)
{
	char **f = realloc(r->f, (r->n + 1) * sizeof *f);
	if (!f)
		return -1;
	r->f = f;
	int *c = realloc(r->col, (r->n + 1) * sizeof *c);
	if (!c)
		return -1;
	r->col = c;
	if (!(r->f[r->n] = malloc(len + 1)))
		return -1;
	memcpy(r->f[r->n], s, len);
	r->f[r->n][len] = 0;
	r->col[r->n++] = col;
	return 0;
}

/* Split text into rows. A quoted field may hold commas and newlines. */
static int csv_parse(const char *file, const char *text, size_t len, struct csv *c, struct err *e)
{
	char *buf = malloc(len + 1);
	if (!buf)
		return err_internal(e, "out of memory");
	size_t i = 0;
	int line = 1, col = 1;
	while (i < len) {
		if (c->n == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 64;
			struct csv_row *r = realloc(c->row, cap * sizeof *r);
			if (!r)
				goto oom;
			c->row = r;
			c->cap = cap;
		}
		struct csv_row *r = &c->row[c->n++];
		memset(r, 0, sizeof *r);
		r->line = line;
		for (;;) { /* one field */
			size_t k = 0;
			int start = col, sline = line;
			if (i < len && text[i] == '"') {
				i++, col++;
				for (;;) {
					if (i >= len) {
						free(buf);
						return err_set(e, file, sline, start, "quoted field not closed");
					}
					if (text[i] == '"' && i + 1 < len && text[i + 1] == '"') {
						buf[k++] = '"';
						i += 2, col += 2;
					} else if (text[i] == '"') {
						i++, col++;
						break;
					} else {
						if (text[i] == '\n')
							line++, col = 0;
						buf[k++] = text[i++];
						col++;
					}
				}
				if (i < len && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
					free(buf);
					return err_set(e, file, line, col, "text after a quoted field's closing quote");
				}
			} else {
				while (i < len && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
					buf[k++] = text[i++];
					col++;
				}
			}
			if (add_field(r, buf, k, start))
				goto oom;
			if (i < len && text[i] == ',') {
				i++, col++;
				continue;
			}
			if (i < len && text[i] == '\r')
				i++;
			if (i < len && text[i] == '\n')
				i++;
			line++, col = 1;
			break;
		}
		if (r->n == 1 && !r->f[0][0]) { /* a blank line */
			free(r->f[0]);
			free(r->f);
			free(r->col);
			c->n--;
		}
	}
	free(buf);
	return 0;
oom:
	free(buf);
	return err_internal(e, "out of memory");
}

static int read_file(const char *path, char **text, size_t *len, struct err *e)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return err_set(e, path, 0, 0, "cannot open: %s", strerror(errno));
	size_t n = 0;
	char *t = input_read_all(f, 0, &n);
	int bad = t && ferror(f);
	fclose(f);
	if (!t)
		return err_internal(e, "out of memory");
	if (bad) {
		free(t);
		return err_set(e, path, 0, 0, "read error");
	}
	*text = t;
	*len = n;
	return 0;
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

/* The sweep parameters (columns between "point" and "scenario") other than
 * x whose value is not the same on every row: they split a variant into
 * several series. */
static void varying_params(const struct csv *c, int xc, int *params, size_t *np)
{
	const struct csv_row *h = &c->row[0];
	int p = column(h, "point"), sc = column(h, "scenario");
	*np = 0;
	if (p < 0 || sc < p)
		return;
	for (int j = p + 1; j < sc; j++) {
		if (j == xc)
			continue;
		for (size_t i = 2; i < c->n; i++)
			if (strcmp(c->row[i].f[j], c->row[1].f[j])) {
				params[(*np)++] = j;
				break;
			}
	}
}

static int group(const char *file, const struct csv *c, const struct plot_spec *spec,
		 struct plot_data *d, struct err *e)
{
	const struct csv_row *h = &c->row[0];
	const char *xn = spec->x ? spec->x : "cores", *yn = spec->metric ? spec->metric : "ops_per_sec";
	char ratio[256], bar_name[300];
	if (spec->baseline) {
		/* the sweep's --baseline column: the ratio computed where the
		 * figures were, not again from rounded text */
		snprintf(ratio, sizeof ratio, "%s_vs_%s", yn, spec->baseline);
		if (column(h, ratio) < 0)
			return err_set(e, file, 1, 1, "no column '%s' (sweep with --baseline %s to have it)", ratio,
				       spec->baseline);
		yn = ratio;
	}
	int xc = column(h, xn), yc = column(h, yn), sc = -1;
	if (xc < 0)
		return no_column(file, h, "x", xn, e);
	if (yc < 0)
		return no_column(file, h, "metric", yn, e);
	snprintf(bar_name, sizeof bar_name, "%s_min", yn);
	int loc = column(h, bar_name);
	snprintf(bar_name, sizeof bar_name, "%s_max", yn);
	int hic = loc >= 0 ? column(h, bar_name) : -1;
	if (spec->series && (sc = column(h, spec->series)) < 0)
		return no_column(file, h, "series", spec->series, e);
	if (sc < 0 && (sc = column(h, "series")) < 0)
		sc = column(h, "variant");
	int params[64];
	size_t np = 0;
	if (!spec->series && sc >= 0 && !strcmp(h->f[sc], "variant") && h->n <= 64)
		varying_params(c, xc, params, &np);
	if (!(d->xname = strdup(xn)) || !(d->yname = strdup(yn)))
		return err_internal(e, "out of memory");
	/* The first fault of a row (a value that is no number, a series past
	 * the limit) stops the reading; duplicates are found after it. */
	struct err at = {0};
	int bad = 0;
	size_t bad_row = 0;
	for (size_t i = 1; i < c->n; i++) {
		const struct csv_row *r = &c->row[i];
		double x, y, bar[2];
		if (number(file, r, xc, xn, &x, &at) || number(file, r, yc, yn, &y, &at) ||
		    (hic >= 0 && (number(file, r, loc, h->f[loc], &bar[0], &at) ||
				  number(file, r, hic, h->f[hic], &bar[1], &at)))) {
			bad = 1;
			bad_row = i;
			break;
		}
		char name[256];
		size_t k = (size_t)snprintf(name, sizeof name, "%s", sc >= 0 ? r->f[sc] : yn);
		for (size_t q = 0; q < np && k < sizeof name; q++)
			k += (size_t)snprintf(name + k, sizeof name - k, " %s=%s", h->f[params[q]],
					      r->f[params[q]]);
		int full = 0;
		struct plot_series *s = series_named(d, name, &full);
		if (full)
			bad_row = i, bad = err_set(&at, file, r->line, sc >= 0 ? r->col[sc] : 1,
				      "series '%s' is one more than the limit of %d in a chart (choose a --series "
				      "with fewer values)", name, PLOT_MAX_SERIES);
		else if (!s || series_add(s, x, y, hic >= 0 ? bar : NULL, i))
			return err_internal(e, "out of memory");
		if (bad)
			break;
	}
	/* A row that repeats a point, if one comes before the fault found
	 * above, is the first fault in file order. */
	int oom = 0;
	size_t dup = sort_series(d, &oom);
	if (oom)
		return err_internal(e, "out of memory");
	if (dup && (!bad || dup < bad_row)) {
		const struct csv_row *r = &c->row[dup];
		char name[256];
		for (size_t k = 0; k < d->ns; k++)
			for (size_t q = 0; q < d->s[k].n; q++)
				if (d->s[k].row[q] == dup)
					snprintf(name, sizeof name, "%s", d->s[k].name);
		return err_set(e, file, r->line, r->col[xc],
			       "a second row for series '%s' at %s = %s (plot each point once: "
			       "use --series, or merge the shards first)",
			       name, xn, r->f[xc]);
	}
	if (bad) {
		*e = at;
		return -1;
	}
	return 0;
}

int plot_read(const struct plot_spec *spec, struct plot_data *d, struct err *e)
{
	memset(d, 0, sizeof *d);
	char *text = NULL;
	size_t len = 0;
	if (read_file(spec->csv, &text, &len, e))
		return -1;
	struct csv c = {0};
	int rc = csv_parse(spec->csv, text, len, &c, e);
	free(text);
	if (!rc && c.n < 2)
		rc = err_set(e, spec->csv, c.n ? 2 : 1, 1, c.n ? "no data rows after the header" : "empty file");
	for (size_t i = 1; !rc && i < c.n; i++)
		if (c.row[i].n != c.row[0].n)
			rc = err_set(e, spec->csv, c.row[i].line, 1, "%zu fields, the header has %zu",
				     c.row[i].n, c.row[0].n);
	if (!rc)
		rc = group(spec->csv, &c, spec, d, e);
	csv_free(&c);
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
