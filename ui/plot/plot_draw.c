/* `bounce plot`'s chart: axes with "nice" ticks (1, 2, 5 x 10^k on a linear
 * axis, powers of 2 or 10 on a log one), a grid, one coloured line with
 * markers per series and a legend, drawn by SDL2's software renderer into
 * an ARGB surface and saved with IMG_SavePNG. */
#include "config.h"
#include "plot_int.h"

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui_engine.h"
#include "ui_text.h"

#define MAX_TICKS 64

/* Tableau 10: distinct hues that stay apart for the common colour-vision
 * deficiencies; the marker shape and the dash pattern cycle too, so series
 * stay apart in grey and where they coincide. */
static const SDL_Color palette[] = {
	{0x4e, 0x79, 0xa7, 255}, {0xf2, 0x8e, 0x2b, 255}, {0xe1, 0x57, 0x59, 255},
	{0x59, 0xa1, 0x4f, 255}, {0xb0, 0x7a, 0xa1, 255}, {0x76, 0xb7, 0xb2, 255},
	{0xed, 0xc9, 0x48, 255}, {0x9c, 0x75, 0x5f, 255}, {0xff, 0x9d, 0xa7, 255},
	{0xba, 0xb0, 0xac, 255},
};
#define NPALETTE (sizeof palette / sizeof palette[0])
static const SDL_Color ink = {0x22, 0x22, 0x22, 255}, grey = {0x70, 0x70, 0x70, 255},
		       grid = {0xe4, 0xe4, 0xe4, 255}, white = {255, 255, 255, 255};

struct axis {
	double lo, hi;          /* the data range drawn, in data units */
	int log;                /* 0 linear, 2 or 10: the log base */
	double tick[MAX_TICKS];
	int nticks;
	int p0, p1;             /* pixel positions of lo and hi */
};

static double axis_t(const struct axis *a, double v)
{
	if (a->log)
		return (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
	return (v - a->lo) / (a->hi - a->lo);
}

static int axis_px(const struct axis *a, double v)
{
	return a->p0 + (int)lround(axis_t(a, v) * (a->p1 - a->p0));
}

static double nice_step(double span, int want)
{
	double raw = span / want, mag = pow(10, floor(log10(raw))), f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void axis_linear(struct axis *a, double lo, double hi, int from_zero, double min_step)
{
	if (from_zero && lo > 0)
		lo = 0;
	if (hi <= lo)
		hi = lo + (lo ? fabs(lo) : 1);
	double step = nice_step(hi - lo, 6);
	if (step < min_step)
		step = min_step;
	a->lo = floor(lo / step) * step;
	a->hi = ceil(hi / step) * step;
	a->log = 0;
	a->nticks = 0;
	int steps = (int)lround((a->hi - a->lo) / step);
	for (int i = 0; i <= steps && a->nticks < MAX_TICKS; i++) {
		double t = a->lo + i * step;
		a->tick[a->nticks++] = fabs(t) < step / 1e6 ? 0 : t;
	}
}

/* Ticks at every power of base inside the range, thinned to at most 12.
 * A base-2 axis (counts: cores, threads) ends at the data, whether or not
 * its ends are powers of two: a sweep to 224 cores is not drawn to 256. */
static void axis_log(struct axis *a, double lo, double hi, int base)
{
	double l = floor(log(lo) / log(base) + 1e-9), h = ceil(log(hi) / log(base) - 1e-9);
	if (h <= l)
		h = l + 1;
	a->lo = pow(base, l);
	a->hi = pow(base, h);
	a->log = base;
	if (base == 2 && hi > lo) {
		a->lo = lo;
		a->hi = hi;
		l = ceil(log2(lo) - 1e-9);
		h = floor(log2(hi) + 1e-9);
	}
	int every = (int)ceil((h - l + 1) / 12.0);
	a->nticks = 0;
	for (int k = (int)l; k <= (int)h && a->nticks < MAX_TICKS; k += every) {
		a->tick[a->nticks++] = pow(base, k);
		/* A decimal axis over three decades or fewer reads better with
		 * 2 and 5 between the powers. */
		if (base == 10 && h - l <= 3 && k < h && a->nticks + 2 < MAX_TICKS) {
			a->tick[a->nticks++] = 2 * pow(base, k);
			a->tick[a->nticks++] = 5 * pow(base, k);
		}
	}
	/* With 2 and 5 in between, end the axis at the ticks around the data
	 * rather than at whole decades. */
	if (base == 10 && h - l <= 3 && a->nticks > 0) {
		int first = 0, last = a->nticks - 1;
		while (first + 1 < a->nticks && a->tick[first + 1] <= lo * (1 + 1e-9))
			first++;
		while (last - 1 > first && a->tick[last - 1] >= hi * (1 - 1e-9))
			last--;
		memmove(a->tick, a->tick + first, (size_t)(last - first + 1) * sizeof *a->tick);
		a->nticks = last - first + 1;
		a->lo = a->tick[0];
		a->hi = a->tick[a->nticks - 1];
	}
}

/* 1.5M, 20k, 1024, 0.25: short labels, SI prefixes from 10^4. */
static void fmt_value(char *buf, size_t n, double v)
{
	static const struct { double f; const char *p; } si[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
	if (fabs(v) < 1e4 && v == floor(v)) { /* 1024 cores, not 1.02k */
		snprintf(buf, n, "%.0f", v);
		return;
	}
	for (size_t i = 0; i < sizeof si / sizeof si[0]; i++)
		if (fabs(v) >= si[i].f) {
			snprintf(buf, n, "%.3g%s", v / si[i].f, si[i].p);
			return;
		}
	snprintf(buf, n, "%.3g", v);
}

static void set_color(SDL_Renderer *r, SDL_Color c)
{
	SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
}

static void thick_line(SDL_Renderer *r, int x0, int y0, int x1, int y1)
{
	for (int dx = 0; dx <= 1; dx++)
		for (int dy = 0; dy <= 1; dy++)
			SDL_RenderDrawLine(r, x0 + dx, y0 + dy, x1 + dx, y1 + dy);
}

/* Dash patterns by series, on and off runs in pixels along the line
 * (0-terminated; the first is solid): a series drawn over another that has
 * the same values lets the one below show through its gaps. */
static const int dashes[][5] = {{0}, {10, 6, 0}, {3, 4, 0}, {12, 4, 3, 4, 0}};
#define NDASHES (sizeof dashes / sizeof dashes[0])

/* The series' line through two points, continuing its dash pattern from
 * *phase (pixels drawn along the series so far). */
static void dashed_line(SDL_Renderer *r, const int *pat, double *phase, int x0, int y0, int x1, int y1)
{
	double len = hypot(x1 - x0, y1 - y0);
	if (!pat[0] || len < 1) {
		thick_line(r, x0, y0, x1, y1);
		*phase += len;
		return;
	}
	int period = 0, n = 0;
	while (n < 4 && pat[n])
		period += pat[n++];
	for (double a = 0; a < len;) {
		/* where in the pattern this point lies, and how far its run goes */
		double at = fmod(*phase + a, period);
		int k = 0;
		double end = pat[0];
		while (at >= end && k + 1 < n)
			end += pat[++k];
		double b = a + (end - at);
		if (b > len)
			b = len;
		if (k % 2 == 0)
			thick_line(r, x0 + (int)lround((x1 - x0) * a / len), y0 + (int)lround((y1 - y0) * a / len),
				   x0 + (int)lround((x1 - x0) * b / len), y0 + (int)lround((y1 - y0) * b / len));
		a = b + 1e-9;
	}
	*phase += len;
}

/* The first series before i with the same points and bars as i, or -1:
 * drawn exactly under it, it would vanish from the chart. */
static long coincides_with(const struct plot_data *d, size_t i)
{
	const struct plot_series *s = &d->s[i];
	for (size_t j = 0; j < i; j++) {
		const struct plot_series *o = &d->s[j];
		if (o->n != s->n || !o->lo != !s->lo)
			continue;
		size_t k = 0;
		while (k < s->n && o->x[k] == s->x[k] && o->y[k] == s->y[k] &&
		       (!s->lo || (o->lo[k] == s->lo[k] && o->hi[k] == s->hi[k])))
			k++;
		if (k == s->n)
			return (long)j;
	}
	return -1;
}

/* Series i's name in the legend, saying which series it hides under. */
static const char *legend_name(const struct plot_data *d, size_t i, char *buf, size_t n)
{
	long j = coincides_with(d, i);
	if (j < 0)
		return d->s[i].name;
	snprintf(buf, n, "%s (coincides with %s)", d->s[i].name, d->s[j].name);
	return buf;
}

/* A filled marker of radius rad: square, circle, triangle, diamond by
 * series, drawn as horizontal spans. */
static void marker(SDL_Renderer *r, int kind, int x, int y, int rad)
{
	for (int dy = -rad; dy <= rad; dy++) {
		double hw;
		switch (kind % 4) {
		case 0: hw = rad - 1; break;
		case 1: hw = sqrt((double)rad * rad - (double)dy * dy); break;
		case 2: hw = (dy + rad) * 0.6; break;
		default: hw = rad - abs(dy); break;
		}
		int w = (int)lround(hw);
		SDL_RenderDrawLine(r, x - w, y + dy, x + w, y + dy);
	}
}

static void axis_title(char *buf, size_t n, const char *column)
{
	const char *u = plot_unit(column);
	if (u && strcmp(u, column))
		snprintf(buf, n, "%s (%s)", column, u);
	else
		snprintf(buf, n, "%s", column);
}

static int data_range(const struct plot_data *d, int which, double *lo, double *hi)
{
	int any = 0;
	for (size_t i = 0; i < d->ns; i++)
		for (size_t k = 0; k < d->s[i].n; k++) {
			double v = which ? d->s[i].y[k] : d->s[i].x[k];
			/* y's range holds the error bars too */
			double a = which && d->s[i].lo ? d->s[i].lo[k] : v, b = which && d->s[i].hi ? d->s[i].hi[k] : v;
			if (!any || a < *lo)
				*lo = a;
			if (!any || b > *hi)
				*hi = b;
			any = 1;
		}
	return any;
}

static void draw_chart(SDL_Renderer *r, struct ui_text *t, const struct plot_data *d,
		       const struct plot_style *st, struct axis *ax, struct axis *ay)
{
	int W = st->width, H = st->height;
	set_color(r, white);
	SDL_RenderClear(r);

	char title[300], buf[300];
	if (st->title)
		snprintf(title, sizeof title, "%s", st->title);
	else
		snprintf(title, sizeof title, "%s by %s", d->yname, d->xname);
	int th = ui_text_height(t, UI_FONT_TITLE), nh = ui_text_height(t, UI_FONT_NORMAL),
	    sh = ui_text_height(t, UI_FONT_SMALL);
	ui_text_draw(t, UI_FONT_TITLE, ink, W / 2, 12, UI_CENTER,
		     ui_text_fit(t, UI_FONT_TITLE, title, W - 20, buf, sizeof buf));
	if (st->subtitle)
		ui_text_draw(t, UI_FONT_SMALL, grey, W / 2, 14 + th, UI_CENTER,
			     ui_text_fit(t, UI_FONT_SMALL, st->subtitle, W - 20, buf, sizeof buf));

	/* Legend to the right, as wide as its longest name. */
	int legw = 0;
	for (size_t i = 0; i < d->ns; i++) {
		char name[300];
		int w = ui_text_width(t, UI_FONT_NORMAL, legend_name(d, i, name, sizeof name));
		if (w > legw)
			legw = w;
	}
	legw = legw + 54 > W / 3 ? W / 3 : legw + 54;

	/* Plot area: room for tick labels on the left, the y title above. */
	int ylabw = 0;
	for (int i = 0; i < ay->nticks; i++) {
		fmt_value(buf, sizeof buf, ay->tick[i]);
		int w = ui_text_width(t, UI_FONT_SMALL, buf);
		if (w > ylabw)
			ylabw = w;
	}
	int left = ylabw + 24, top = 12 + th + sh + 14 + nh, right = W - legw - 24, bottom = H - 2 * nh - 24;
	ax->p0 = left;
	ax->p1 = right;
	ay->p0 = bottom;
	ay->p1 = top;

	for (int i = 0; i < ay->nticks; i++) {
		int y = axis_px(ay, ay->tick[i]);
		set_color(r, grid);
		SDL_RenderDrawLine(r, left, y, right, y);
		set_color(r, ink);
		SDL_RenderDrawLine(r, left - 5, y, left, y);
		fmt_value(buf, sizeof buf, ay->tick[i]);
		ui_text_draw(t, UI_FONT_SMALL, ink, left - 8, y - sh / 2, UI_RIGHT, buf);
	}
	for (int i = 0; i < ax->nticks; i++) {
		int x = axis_px(ax, ax->tick[i]);
		set_color(r, grid);
		SDL_RenderDrawLine(r, x, top, x, bottom);
		set_color(r, ink);
		SDL_RenderDrawLine(r, x, bottom, x, bottom + 5);
		fmt_value(buf, sizeof buf, ax->tick[i]);
		ui_text_draw(t, UI_FONT_SMALL, ink, x, bottom + 8, UI_CENTER, buf);
	}
	set_color(r, ink);
	SDL_RenderDrawLine(r, left, top, left, bottom);
	SDL_RenderDrawLine(r, left, bottom, right, bottom);

	axis_title(buf, sizeof buf, d->xname);
	if (ax->log)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ", log scale");
	ui_text_draw(t, UI_FONT_NORMAL, ink, (left + right) / 2, bottom + 10 + sh, UI_CENTER, buf);
	axis_title(buf, sizeof buf, d->yname);
	if (ay->log)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ", log scale");
	ui_text_draw(t, UI_FONT_NORMAL, ink, 8, top - nh - 8, UI_LEFT, buf);

	SDL_Rect clip = {left - 6, top - 6, right - left + 13, bottom - top + 12}; /* whole markers at the ends */
	SDL_RenderSetClipRect(r, &clip);
	for (size_t i = 0; i < d->ns; i++) {
		const struct plot_series *s = &d->s[i];
		set_color(r, palette[i % NPALETTE]);
		double phase = 0;
		for (size_t k = 1; k < s->n; k++)
			dashed_line(r, dashes[i % NDASHES], &phase, axis_px(ax, s->x[k - 1]), axis_px(ay, s->y[k - 1]),
				    axis_px(ax, s->x[k]), axis_px(ay, s->y[k]));
		for (size_t k = 0; s->lo && k < s->n; k++) {
			/* min..max of the replicates, capped at both ends */
			int x = axis_px(ax, s->x[k]), y0 = axis_px(ay, s->lo[k]), y1 = axis_px(ay, s->hi[k]);
			SDL_RenderDrawLine(r, x, y0, x, y1);
			SDL_RenderDrawLine(r, x - 5, y0, x + 5, y0);
			SDL_RenderDrawLine(r, x - 5, y1, x + 5, y1);
		}
		/* over a coinciding series, a smaller marker leaves its rim */
		int rad = 4;
		for (long j = (long)i; (j = coincides_with(d, (size_t)j)) >= 0 && rad > 2;)
			rad--;
		for (size_t k = 0; k < s->n; k++)
			marker(r, (int)i, axis_px(ax, s->x[k]), axis_px(ay, s->y[k]), rad);
	}
	SDL_RenderSetClipRect(r, NULL);

	int ly = top;
	for (size_t i = 0; i < d->ns; i++, ly += nh + 6) {
		int x = W - legw;
		set_color(r, palette[i % NPALETTE]);
		double phase = 0;
		dashed_line(r, dashes[i % NDASHES], &phase, x, ly + nh / 2, x + 26, ly + nh / 2);
		marker(r, (int)i, x + 13, ly + nh / 2, 4);
		char name[300];
		ui_text_draw(t, UI_FONT_NORMAL, ink, x + 34, ly, UI_LEFT,
			     ui_text_fit(t, UI_FONT_NORMAL, legend_name(d, i, name, sizeof name), legw - 38, buf,
					 sizeof buf));
	}
}

static int make_axes(const struct plot_data *d, const struct plot_style *st, struct axis *ax,
		     struct axis *ay, struct err *e)
{
	double xlo = 0, xhi = 0, ylo = 0, yhi = 0;
	if (!data_range(d, 0, &xlo, &xhi) || !data_range(d, 1, &ylo, &yhi))
		return err_set(e, NULL, 0, 0, "plot: nothing to draw");
	int logx = st->log_x;
	if (logx < 0)
		logx = xlo > 0 && xhi / xlo >= 16;
	if (logx && xlo <= 0)
		return err_set(e, NULL, 0, 0, "plot: --log-x needs every %s above 0 (the smallest is %g)",
			       d->xname, xlo);
	if (st->log_y && ylo <= 0)
		return err_set(e, NULL, 0, 0, "plot: --log-y needs every %s above 0 (the smallest is %g)",
			       d->yname, ylo);
	if (logx) {
		/* Counts (cores, threads: whole numbers, 1, 8, 56, 224 as much
		 * as 1, 2, 4) get ticks at powers of two, as one reads scaling;
		 * other figures decades. */
		int whole = 1;
		for (size_t i = 0; i < d->ns && whole; i++)
			for (size_t k = 0; k < d->s[i].n; k++)
				if (d->s[i].x[k] != floor(d->s[i].x[k]))
					whole = 0;
		axis_log(ax, xlo, xhi, whole ? 2 : 10);
	} else {
		/* Thread and core counts are whole: no tick at 1.5 threads. */
		int whole = 1;
		for (size_t i = 0; i < d->ns && whole; i++)
			for (size_t k = 0; k < d->s[i].n; k++)
				if (d->s[i].x[k] != floor(d->s[i].x[k]))
					whole = 0;
		axis_linear(ax, xlo, xhi, 0, whole ? 1 : 0);
	}
	if (st->log_y)
		axis_log(ay, ylo, yhi, 10);
	else
		axis_linear(ay, ylo, yhi * 1.04, ylo >= 0, 0);
	return 0;
}

int plot_draw_png(const struct plot_data *d, const struct plot_style *st, FILE *out,
		  const char *path, struct err *e)
{
	struct axis ax, ay;
	if (make_axes(d, st, &ax, &ay, e))
		return -1;
	if (SDL_Init(0))
		return err_internal(e, "plot: SDL: %s", SDL_GetError());
	int rc = -1;
	struct ui_fonts *f = NULL;
	struct ui_text *t = NULL;
	SDL_Surface *surf = NULL;
	SDL_Renderer *r = NULL;
	char eb[600];
	if (TTF_Init()) {
		err_internal(e, "plot: fonts: %s", TTF_GetError());
		goto out_sdl;
	}
	if (!(IMG_Init(IMG_INIT_PNG) & IMG_INIT_PNG)) {
		err_internal(e, "plot: PNG support: %s", IMG_GetError());
		goto out_ttf;
	}
	if (!(f = ui_fonts_open(st->font, eb, sizeof eb))) {
		err_internal(e, "plot: font %s", eb);
		goto out_img;
	}
	surf = SDL_CreateRGBSurfaceWithFormat(0, st->width, st->height, 32, SDL_PIXELFORMAT_ARGB8888);
	if (!surf || !(r = SDL_CreateSoftwareRenderer(surf)) || !(t = ui_text_create(r, f))) {
		err_internal(e, "plot: software renderer: %s", SDL_GetError());
		goto out;
	}
	draw_chart(r, t, d, st, &ax, &ay);
	SDL_RenderPresent(r);
	SDL_RWops *rw = SDL_RWFromFP(out, SDL_FALSE);  /* the caller closes out */
	if (!rw)
		err_internal(e, "plot: %s", SDL_GetError());
	else if (IMG_SavePNG_RW(surf, rw, 1))
		err_set(e, path, 0, 0, "cannot write: %s", IMG_GetError());
	else
		rc = 0;
out:
	ui_text_destroy(t);
	if (r)
		SDL_DestroyRenderer(r);
	if (surf)
		SDL_FreeSurface(surf);
	ui_fonts_close(f);
out_img:
	IMG_Quit();
out_ttf:
	TTF_Quit();
out_sdl:
	SDL_Quit();
	return rc;
}
