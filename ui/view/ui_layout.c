/* Screen layout: where every box, core tile, table cell and timeline lane
 * goes for a window of w x h, recomputed on resize. Drawing code and hit
 * tests both read the result, so a click lands on what was drawn. */
#include "config.h"
#include "ui_int.h"

#include <stdlib.h>
#include <string.h>

#define GAP 8
#define HEADER_H 38
#define FOOTER_H 24

int ui_layout_alloc(struct ui_layout *l, int ncores, int cps)
{
	memset(l, 0, sizeof *l);
	l->cps = cps;
	l->nsockets = (ncores + cps - 1) / cps;
	l->socket = calloc((size_t)l->nsockets, sizeof *l->socket);
	l->mem = calloc((size_t)l->nsockets, sizeof *l->mem);
	l->core = calloc((size_t)ncores, sizeof *l->core);
	return l->socket && l->mem && l->core ? 0 : -1;
}

void ui_layout_free(struct ui_layout *l)
{
	free(l->socket);
	free(l->mem);
	free(l->core);
	memset(l, 0, sizeof *l);
}

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* Sockets in a grid, cores in a grid inside each socket: try every shape
 * and keep the one with the biggest tiles. With hundreds of sockets there
 * is no room for titles and memory strips: the compact style drops them.
 * Returns 0 when nothing fits. */
static int layout_machine_style(struct ui_layout *l, int ncores, int compact)
{
	const SDL_Rect area = {l->machine.x + 10, l->machine.y + 28, l->machine.w - 20,
			       l->machine.h - 36};
	const int ns = l->nsockets, cps = l->cps;
	const int title_h = compact ? 0 : 18, mem_h = compact ? 0 : l->folded ? 12 : 16;
	const int pad = compact ? 1 : 6, sgap = compact ? 2 : GAP, npad = compact ? 2 : 3;
	const int tgap = l->folded ? 1 : 6;
	const int tmax_w = l->folded ? 28 : ncores <= 16 ? 170 : 140, tmax_h = l->folded ? 28 : ncores <= 16 ? 72 : 60;
	int best = -1, bsc = 1, bcc = 1, btw = 1, bth = 1;
	for (int sc = 1; sc <= ns; sc++) {
		int sr = (ns + sc - 1) / sc;
		int bw = (area.w - (sc - 1) * sgap) / sc, bh = (area.h - (sr - 1) * sgap) / sr;
		int iw = bw - 2 * pad, ih = bh - title_h - mem_h - npad * pad;
		if (iw < 1 || ih < 1)
			continue;
		for (int cc = 1; cc <= cps; cc++) {
			if (cps % cc) /* full rows only: ragged sockets look broken */
				continue;
			int cr = cps / cc;
			int tw = imin((iw + tgap) / cc - tgap, tmax_w);
			int th = imin((ih + tgap) / cr - tgap, tmax_h);
			if (tw < 1 || th < 1)
				continue;
			/* Biggest tiles win; on a tie the wider arrangement, which
			 * suits the landscape box. */
			int eh = imin(th, tw); /* tiles taller than wide waste the label */
			int score = (l->folded ? imin(tw, th) * imin(tw, th) : tw * eh) * 64 + cc + sc;
			if (score > best) {
				best = score;
				bsc = sc;
				bcc = cc;
				btw = tw;
				bth = th;
			}
		}
	}
	if (best < 0)
		return 0;
	if (l->folded) /* square cells */
		btw = bth = imin(btw, bth);
	int sr = (ns + bsc - 1) / bsc, bcr = (cps + bcc - 1) / bcc;
	int bw = 2 * pad + bcc * btw + (bcc - 1) * tgap;
	int bh = title_h + mem_h + npad * pad + bcr * bth + (bcr - 1) * tgap;
	int totw = bsc * bw + (bsc - 1) * sgap, toth = sr * bh + (sr - 1) * sgap;
	int x0 = area.x + (area.w - totw) / 2, y0 = area.y + imax(0, (area.h - toth) / 2);
	for (int s = 0; s < ns; s++) {
		SDL_Rect b = {x0 + (s % bsc) * (bw + sgap), y0 + (s / bsc) * (bh + sgap), bw, bh};
		l->socket[s] = b;
		l->mem[s] = compact ? (SDL_Rect){b.x + b.w / 2, b.y + b.h - 1, 0, 0}
				    : (SDL_Rect){b.x + pad, b.y + b.h - pad - mem_h, b.w - 2 * pad, mem_h};
		int gw = bcc * btw + (bcc - 1) * tgap;
		int gx = b.x + (b.w - gw) / 2, gy = b.y + title_h + pad;
		for (int k = 0; k < cps; k++) {
			int c = s * cps + k;
			if (c >= ncores)
				break;
			l->core[c] = (SDL_Rect){gx + (k % bcc) * (btw + tgap),
						gy + (k / bcc) * (bth + tgap), btw, bth};
		}
	}
	l->compact = compact;
	return 1;
}

static void layout_machine(struct ui_layout *l, int ncores)
{
	if (!layout_machine_style(l, ncores, 0) && !layout_machine_style(l, ncores, 1)) {
		/* A window too small for even the compact style: stack nothing
		 * off-screen; everything collapses into the box's corner. */
		for (int s = 0; s < l->nsockets; s++)
			l->socket[s] = l->mem[s] = (SDL_Rect){l->machine.x, l->machine.y, 0, 0};
		for (int c = 0; c < ncores; c++)
			l->core[c] = (SDL_Rect){l->machine.x, l->machine.y, 0, 0};
		l->compact = 1;
	}
}

static void layout_lines(struct ui_layout *l, int ncores)
{
	l->row_h = l->folded || ncores > 16 ? 18 : 22;
	l->label_w = imin(210, l->lines.w * 2 / 7);
	/* the view columns of mem_stats.h, and the margins either side */
	l->stats_w = 12 + 8;
#define STAT_W(name, shown, view_head, view_w, what) l->stats_w += (view_w);
	MS_STATS(STAT_W)
#undef STAT_W
	l->ncols = l->folded ? l->nsockets : ncores;
	int avail = l->lines.w - l->label_w - l->stats_w - 24;
	l->cell_w = imax(2, imin(l->folded ? 48 : 34, avail / imax(1, l->ncols)));
	int top = l->lines.y + 28 + 18; /* title, column header */
	l->nrows_fit = imax(0, (l->lines.y + l->lines.h - 6 - top) / l->row_h);
	if (l->nrows_fit > UI_MAX_ROWS)
		l->nrows_fit = UI_MAX_ROWS;
	l->cells = (SDL_Rect){l->lines.x + 10 + l->label_w, top, l->cell_w * l->ncols,
			      l->nrows_fit * l->row_h};
}

static void layout_timeline(struct ui_layout *l, int ncores)
{
	SDL_Rect t = l->timeline;
	l->plot = (SDL_Rect){t.x + 64, t.y + 44, t.w - 64 - 12, t.h - 44 - 22};
	int max_lanes = imin(64, imax(1, l->plot.h / 3));
	int cpl = (ncores + max_lanes - 1) / max_lanes;
	/* Many cores: a lane per socket when they fit 6 px each, so lanes
	 * read as the machine's sockets. */
	if (ncores > UI_FOLD_CORES && l->nsockets * 6 <= l->plot.h && l->cps >= cpl)
		cpl = l->cps;
	/* Group lanes along socket boundaries, so a lane is a socket or an
	 * equal share of one. */
	if (cpl > 1 && cpl <= l->cps)
		while (l->cps % cpl)
			cpl++;
	else if (cpl > l->cps)
		cpl = (cpl + l->cps - 1) / l->cps * l->cps;
	l->cores_per_lane = cpl;
	l->nlanes = (ncores + l->cores_per_lane - 1) / l->cores_per_lane;
	l->lane_h = imax(1, l->plot.h / l->nlanes);
	l->plot.h = l->lane_h * l->nlanes;
}

void ui_layout_compute(struct ui_layout *l, struct ui_text *t, int w, int h, int ncores,
		       int nvariants, int rows_hint, int pane, int npanes)
{
	l->w = w;
	l->h = h;
	l->folded = ncores > UI_FOLD_CORES;
	l->header = (SDL_Rect){0, 0, w, HEADER_H};
	l->footer = (SDL_Rect){0, h - FOOTER_H, w, FOOTER_H};
	int pw = imin(imax(w * 27 / 100, 300), 440);
	if (nvariants > 2)
		pw = imin(pw + 70 * (nvariants - 2), w / 2);
	int top = HEADER_H + GAP, bottom = h - FOOTER_H - GAP;
	l->panel = (SDL_Rect){w - pw - GAP, top, pw, bottom - top};
	int lw = w - pw - 3 * GAP;
	/* Side by side: the left column split into npanes, this one pane's. */
	int x0 = GAP;
	if (npanes > 1) {
		lw = (lw - (npanes - 1) * GAP) / npanes;
		x0 = GAP + pane * (lw + GAP);
	}

	int lanes = imin(ncores, 64);
	int th = imin(imax((bottom - top) * 30 / 100, 150), 120 + lanes * 14);
	l->timeline = (SDL_Rect){x0, bottom - th, lw, th};
	int mid = l->timeline.y - GAP - top;
	/* The line table gets what its rows need, the machine the rest. */
	int row_h = l->folded || ncores > 16 ? 18 : 22;
	int rows = imin(UI_MAX_ROWS, imax(2, rows_hint));
	int lines_h = imin(28 + 18 + rows * row_h + 10, mid * 45 / 100);
	l->lines = (SDL_Rect){x0, l->timeline.y - GAP - lines_h, lw, lines_h};
	l->machine = (SDL_Rect){x0, top, lw, mid - lines_h - GAP};
	(void)t;
	layout_machine(l, ncores);
	layout_lines(l, ncores);
	layout_timeline(l, ncores);
}

static int inside(SDL_Rect r, int x, int y)
{
	return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

int ui_layout_core_at(const struct ui_layout *l, int ncores, int x, int y)
{
	for (int c = 0; c < ncores; c++)
		if (inside(l->core[c], x, y))
			return c;
	return -1;
}

int ui_layout_row_at(const struct ui_layout *l, int nrows, int x, int y)
{
	SDL_Rect all = {l->lines.x, l->cells.y, l->lines.w, l->row_h * imin(nrows, l->nrows_fit)};
	if (!inside(all, x, y))
		return -1;
	return (y - l->cells.y) / l->row_h;
}

SDL_Point ui_layout_anchor(const struct ui_layout *l, int who)
{
	SDL_Rect r;
	if (UI_IS_SOCK(who)) {
		int s = UI_SOCK_OF(who);
		r = s >= 0 && s < l->nsockets ? l->socket[s] : l->machine;
	} else if (UI_IS_MEM(who)) {
		int s = UI_MEM_SOCK(who);
		r = s >= 0 && s < l->nsockets ? l->mem[s] : l->machine;
	} else {
		r = l->core[who];
	}
	return (SDL_Point){r.x + r.w / 2, r.y + r.h / 2};
}
