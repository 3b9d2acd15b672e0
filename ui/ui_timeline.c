/* The timeline: one lane per core (or per group of cores when there are
 * too many for the height), coloured by activity over simulated time, with
 * `mark` markers, a time axis and the playhead. A pixel column shows the
 * activity that took most of its cycles, so a lane stays honest when one
 * column covers thousands of cycles. */
#include "config.h"
#include "ui_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPAN_SECONDS 2.5        /* display seconds of history the window spans */
#define PLAYHEAD_AT 0.85        /* fraction of the width left of the playhead */

/* The visible window [t0, t1) for playhead time p. */
static void window_of(const struct ui_app *a, uint64_t p, uint64_t *t0, uint64_t *t1)
{
	double span = a->speed * SPAN_SECONDS;
	if (span < 2000)
		span = 2000;
	double start = p - span * PLAYHEAD_AT;
	if (start < 0)
		start = 0;
	*t0 = (uint64_t)start;
	*t1 = (uint64_t)(start + span);
}

/* Add the cycles of core c's lane within [t0, t1) to per-column buckets. */
static void accumulate(const struct ui_lane *l, uint64_t t0, uint64_t t1, uint64_t tend,
		       double cpp, int w, float *acc)
{
	long i = ui_lane_find(l, t0);
	if (i < 0)
		return;
	for (; (uint32_t)i < l->n; i++) {
		const struct ui_seg *s = ui_lane_at(l, (uint32_t)i);
		if (s->t >= t1)
			break;
		uint64_t e = (uint32_t)i + 1 < l->n ? ui_lane_at(l, (uint32_t)i + 1)->t : tend;
		uint64_t a = s->t > t0 ? s->t : t0;
		if (e > t1)
			e = t1;
		if (e <= a)
			continue;
		double x0 = (a - t0) / cpp, x1 = (e - t0) / cpp;
		int c0 = (int)x0, c1 = (int)ceil(x1);
		if (c1 > w)
			c1 = w;
		for (int c = c0; c < c1; c++) {
			double lo = c > x0 ? c : x0, hi = c + 1 < x1 ? c + 1 : x1;
			acc[c * CORE_NACTS + s->act] += (float)(hi - lo);
		}
	}
}

static void draw_lane(struct ui_gfx *g, SDL_Rect r, const float *acc, int w)
{
	int run_start = 0, run_act = -1;
	for (int x = 0; x <= w; x++) {
		int best = -1;
		if (x < w) {
			float bv = 0;
			for (int k = 0; k < CORE_NACTS; k++)
				if (acc[x * CORE_NACTS + k] > bv) {
					bv = acc[x * CORE_NACTS + k];
					best = k;
				}
		}
		if (best == run_act)
			continue;
		if (run_act >= 0)
			ui_fill(g->r, (SDL_Rect){r.x + run_start, r.y, x - run_start, r.h}, ui_col_act[run_act]);
		run_start = x;
		run_act = best;
	}
}

/* 1, 2, 5 x 10^k cycles: about six ticks across the window. */
static uint64_t tick_step(uint64_t span)
{
	double raw = span / 6.0, p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (uint64_t)((m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p);
}

void ui_draw_timeline(struct ui_app *a, struct ui_gfx *g)
{
	const struct ui_layout *l = &a->lay;
	const struct ui_var *v = &a->var[a->cur];
	const struct ui_snap *s = ui_app_snap(a, a->cur);
	ui_box(g, l->timeline, l->cores_per_lane > 1 ? "Timeline  ·  one lane per group of cores, colour = most cycles"
						      : "Timeline  ·  what each core spends its cycles on");
	SDL_Rect p = l->plot;
	if (p.w < 10 || p.h < 4)
		return;
	uint64_t play = s->now, t0, t1, tend = v->live.now;
	window_of(a, play, &t0, &t1);
	double cpp = (double)(t1 - t0) / p.w;
	ui_fill(g->r, p, ui_col_bg);

	float *acc = malloc((size_t)p.w * CORE_NACTS * sizeof *acc);
	if (!acc)
		return;
	for (int lane = 0; lane < l->nlanes; lane++) {
		memset(acc, 0, (size_t)p.w * CORE_NACTS * sizeof *acc);
		int c0 = lane * l->cores_per_lane;
		for (int c = c0; c < c0 + l->cores_per_lane && c < a->ncores; c++)
			accumulate(&v->hist.lane[c], t0, t1, tend, cpp, p.w, acc);
		int gap = l->lane_h >= 6 ? 1 : 0;
		SDL_Rect lr = {p.x, p.y + lane * l->lane_h, p.w, l->lane_h - gap};
		draw_lane(g, lr, acc, p.w);
		int every = l->lane_h >= 12 ? 1 : (12 + l->lane_h - 1) / l->lane_h;
		if (lane % every == 0) {
			char lab[24];
			if (l->cores_per_lane > 1)
				snprintf(lab, sizeof lab, "%d–%d", c0,
					 (c0 + l->cores_per_lane < a->ncores ? c0 + l->cores_per_lane : a->ncores) - 1);
			else
				snprintf(lab, sizeof lab, "cpu%d", c0);
			int fy = lr.y + (l->lane_h - 13) / 2;
			if (every > 1)
				fy = lr.y;
			ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, p.x - 6, fy, UI_RIGHT, lab);
		}
	}
	free(acc);

	/* Marks: a tick on the lane of the core that executed it, the name
	 * above the plot where there is room for it. */
	int last_label = -1000;
	for (uint32_t i = 0; i < v->hist.mark_n; i++) {
		const struct ui_mark *m = ui_hist_mark_at(&v->hist, i);
		if (m->t < t0 || m->t >= t1)
			continue;
		int x = p.x + (int)((m->t - t0) / cpp);
		int lane = m->core / l->cores_per_lane;
		ui_set_color(g->r, ui_col_mark);
		SDL_RenderDrawLine(g->r, x, p.y + lane * l->lane_h, x, p.y + (lane + 1) * l->lane_h - 1);
		if (x - last_label > 70) {
			ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_mark, x, p.y - 15, UI_CENTER, m->name);
			last_label = x;
		}
	}

	/* Axis */
	char b[32];
	uint64_t step = tick_step(t1 - t0);
	for (uint64_t t = (t0 + step - 1) / step * step; t < t1; t += step) {
		int x = p.x + (int)((t - t0) / cpp);
		ui_set_color(g->r, ui_col_grid);
		SDL_RenderDrawLine(g->r, x, p.y + p.h, x, p.y + p.h + 4);
		ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, x, p.y + p.h + 5, UI_CENTER,
			     ui_fmt_cycles(b, sizeof b, t, s->figs.ghz));
	}

	/* Playhead */
	int px = p.x + (int)((play - t0) / cpp);
	if (px >= p.x && px < p.x + p.w) {
		SDL_Color pc = a->scrub ? ui_col_mark : ui_col_owner;
		ui_set_color(g->r, pc);
		SDL_RenderDrawLine(g->r, px, p.y - 4, px, p.y + p.h + 2);
		SDL_RenderDrawLine(g->r, px + 1, p.y - 4, px + 1, p.y + p.h + 2);
		for (int i = 0; i < 5; i++)
			SDL_RenderDrawLine(g->r, px - 4 + i, p.y - 8 + i, px + 5 - i, p.y - 8 + i);
	}
	ui_text_drawf(g->txt, UI_FONT_SMALL, ui_col_dim, l->timeline.x + l->timeline.w - 10,
		      l->timeline.y + 7, UI_RIGHT, "%s%s · window %s", a->scrub ? "scrubbed to " : "",
		      ui_fmt_cycles(b, sizeof b, play, s->figs.ghz),
		      ui_fmt_cycles((char[32]){0}, 32, t1 - t0, s->figs.ghz));
}
