/* Inside `bounce plot`: the table read from the CSV, grouped into series
 * (plot_csv.c), and the chart drawn from it (plot_draw.c). No SDL here, so
 * the CSV side can be read without the renderer in mind. */
#ifndef BOUNCE_PLOT_INT_H
#define BOUNCE_PLOT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct err;

struct plot_series {
	char *name;
	double *x, *y;          /* sorted by x; no two points share an x */
	double *lo, *hi;        /* each y's error bar (the CSV's M_min, M_max), NULL: none */
	size_t *row;            /* while reading: each point's CSV row, for messages */
	size_t n, cap;
};

struct plot_data {
	char *xname, *yname;    /* the CSV columns drawn */
	struct plot_series *s;
	size_t ns;
};

struct plot_spec {
	const char *csv;        /* input file */
	const char *x;          /* x column; NULL = "cores" */
	const char *metric;     /* y column; NULL = "ops_per_sec" */
	const char *series;     /* series column; NULL = see plot_read */
	const char *baseline;   /* NULL, or draw the metric's ratio column M_vs_BASELINE */
};

/* Read spec->csv into d. Series: the --series column when given, else a
 * "series" column, else "variant" plus every sweep parameter other than x
 * whose value varies (a sweep's parameters are the columns between "point"
 * and "scenario"), else one series. Every x and metric value must be a
 * number; a series may not have two rows at the same x. When the CSV has
 * the metric's M_min and M_max (sweep --repeat), each point gets them as
 * its error bar, and y is the mean. */
int plot_read(const struct plot_spec *spec, struct plot_data *d, struct err *e);
void plot_data_free(struct plot_data *d);

struct plot_style {
	const char *title;      /* NULL: "<metric> by <x>" */
	const char *subtitle;   /* small grey line under the title; may be NULL */
	const char *font;       /* TrueType file */
	int width, height;
	int log_x;              /* 1 log, 0 linear, -1 auto (log2 when x spans 16x or more) */
	bool log_y;
};

/* Draw d and write it as PNG to out (path names it in messages). */
int plot_draw_png(const struct plot_data *d, const struct plot_style *st, FILE *out,
		  const char *path, struct err *e);

/* The unit of a known report column ("ops/s" for ops_per_sec), or NULL. */
const char *plot_unit(const char *column);

#endif
