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

/* The visible window [t0, t1) for playhead time p: the zoom divides the
 * span; following, the playhead sits at PLAYHEAD_AT, else the window stays
 * where the user panned it. While the run goes on the span is a fixed share
 * of the playback speed, so a cycle keeps its pixel column as the run ages;
 * once it has finished the span is the run, so the axis ends where it does. */
void ui_timeline_window(const struct ui_app *a, uint64_t p, uint64_t *t0, uint64_t *t1)
{
	const struct ui_var *v = &a->var[a->cur];
	double zoom = a->tl_zoom > 0 ? a->tl_zoom : 1;
	double end = (double)v->live.now;
	double span = (v->finished && end > 0 ? end : a->speed * SPAN_SECONDS) / zoom;
	if (span < 200)
		span = 200;
	double start = a->tl_follow ? p - span * PLAYHEAD_AT : a->tl_t0;
	if (v->finished && a->tl_follow && start > end - span)
		start = end - span;
	if (start < 0)
		start = 0;
	*t0 = (uint64_t)start;
	*t1 = (uint64_t)(start + span);
}

/* Simulated time under pixel column x of the plot. */
uint64_t ui_timeline_time_at(const struct ui_app *a, int x)
{
	uint64_t t0, t1;
	ui_timeline_window(a, ui_app_snap(a, a->cur)->now, &t0, &t1);
	const SDL_Rect p = a->lay.plot;
	double f = p.w > 0 ? (double)(x - p.x) / p.w : 0;
	if (f < 0)
		f = 0;
	return t0 + (uint64_t)(f * (double)(t1 - t0));
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

static int imin(int a, int b)
{
	return a < b ? a : b;
}

/* Before the oldest change a lane kept, once its ring has dropped older
 * ones: hatched, so that forgotten activity never passes for idle time. */
static void forgotten(struct ui_gfx *g, SDL_Rect r, const struct ui_lane *lanes, int n, uint64_t t0, double cpp)
{
	uint64_t kept = 0;
	for (int i = 0; i < n; i++)
		if (lanes[i].dropped && lanes[i].n && ui_lane_at(&lanes[i], 0)->t > kept)
			kept = ui_lane_at(&lanes[i], 0)->t;
	if (kept <= t0)
		return;
	int w = (int)((kept - t0) / cpp);
	if (w > r.w)
		w = r.w;
	ui_fill(g->r, (SDL_Rect){r.x, r.y, w, r.h}, ui_col_bg);
	ui_set_color(g->r, ui_col_grid);
	for (int x = 0; x < w + r.h; x += 6) {
		int xa = x - r.h, ya = r.y + r.h - 1, xb = x, yb = r.y;
		if (xa < 0)
			ya -= -xa, xa = 0;
		if (xb > w - 1)
			yb += xb - (w - 1), xb = w - 1;
		if (ya >= yb)
			SDL_RenderDrawLine(g->r, r.x + xa, ya, r.x + xb, yb);
	}
}

/* Rectangles per activity, filled with one call each after all lanes. */
#define STACK_W 3               /* pixel columns per stacked bar */
struct stacks { SDL_Rect *r[CORE_NACTS]; int n[CORE_NACTS], cap; };

/* A group of cores: each bar of STACK_W columns is split by the share of
 * cycles each activity took, so a mix shows as a mix, not as its majority. */
static void stack_lane(struct stacks *st, SDL_Rect r, const float *acc, int w)
{
	for (int x0 = 0; x0 < w; x0 += STACK_W) {
		int x1 = x0 + STACK_W < w ? x0 + STACK_W : w;
		float sum[CORE_NACTS] = {0}, tot = 0;
		for (int x = x0; x < x1; x++)
			for (int k = 0; k < CORE_NACTS; k++)
				sum[k] += acc[x * CORE_NACTS + k];
		for (int k = 0; k < CORE_NACTS; k++)
			tot += sum[k];
		if (tot <= 0)
			continue;
		float y = (float)(r.y + r.h);
		for (int k = 0; k < CORE_NACTS; k++) {
			if (sum[k] <= 0)
				continue;
			float h = r.h * sum[k] / tot;
			int ya = (int)(y - h + 0.5f), yb = (int)(y + 0.5f);
			y -= h;
			if (yb <= ya || st->n[k] >= st->cap)
				continue;
			st->r[k][st->n[k]++] = (SDL_Rect){r.x + x0, ya, x1 - x0, yb - ya};
		}
	}
}

/* 1, 2, 5 x 10^k cycles: a tick per 90 px or so, six at most. */
static uint64_t tick_step(uint64_t span, int width)
{
	int n = width / 90 < 2 ? 2 : width / 90 > 6 ? 6 : width / 90;
	double raw = span / (double)n, p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (uint64_t)((m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p);
}

void ui_draw_timeline(struct ui_app *a, struct ui_gfx *g)
{
	const struct ui_layout *l = &a->lay;
	const struct ui_var *v = &a->var[a->cur];
	const struct ui_snap *s = ui_app_snap(a, a->cur);
	ui_box(g, l->timeline, l->timeline.w < 640 ? "Timeline"
			       : l->cores_per_lane > 1 ? "Timeline  ·  per group of cores: share of cycles in each activity"
						       : "Timeline  ·  what each core spends its cycles on");
	SDL_Rect p = l->plot;
	if (p.w < 10 || p.h < 4)
		return;
	uint64_t play = s->now, t0, t1, tend = v->live.now;
	ui_timeline_window(a, play, &t0, &t1);
	double cpp = (double)(t1 - t0) / p.w;
	ui_fill(g->r, p, ui_col_bg);

	float *acc = malloc((size_t)p.w * CORE_NACTS * sizeof *acc);
	if (!acc)
		return;
	struct stacks st = {.cap = l->cores_per_lane > 1 ? l->nlanes * (p.w / STACK_W + 1) : 0};
	for (int k = 0; k < CORE_NACTS && st.cap; k++)
		if (!(st.r[k] = malloc((size_t)st.cap * sizeof(SDL_Rect))))
			st.cap = 0;
	int every = l->lane_h >= 12 ? 1 : (12 + l->lane_h - 1) / l->lane_h;
	for (int lane = 0; lane < l->nlanes; lane++) {
		memset(acc, 0, (size_t)p.w * CORE_NACTS * sizeof *acc);
		int c0 = lane * l->cores_per_lane;
		for (int c = c0; c < c0 + l->cores_per_lane && c < a->ncores; c++)
			accumulate(&v->hist.lane[c], t0, t1, tend, cpp, p.w, acc);
		int gap = l->lane_h >= 6 ? 1 : 0;
		SDL_Rect lr = {p.x, p.y + lane * l->lane_h, p.w, l->lane_h - gap};
		if (st.cap)
			stack_lane(&st, lr, acc, p.w);
		else
			draw_lane(g, lr, acc, p.w);
		forgotten(g, lr, v->hist.lane + c0, imin(l->cores_per_lane, a->ncores - c0), t0, cpp);
		if (lane % every == 0) {
			char lab[24];
			int c1 = (c0 + l->cores_per_lane < a->ncores ? c0 + l->cores_per_lane : a->ncores) - 1;
			if (l->cores_per_lane > 1 && l->cores_per_lane % l->cps == 0 && l->cores_per_lane == l->cps)
				snprintf(lab, sizeof lab, "s%d", c0 / l->cps);
			else if (l->cores_per_lane > 1)
				snprintf(lab, sizeof lab, "%d–%d", c0, c1);
			else
				snprintf(lab, sizeof lab, "cpu%d", c0);
			int fy = lr.y + (l->lane_h * every - 13) / 2;
			ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, p.x - 6, fy, UI_RIGHT, lab);
		}
	}
	for (int k = 0; k < CORE_NACTS; k++) {
		if (st.cap && st.n[k]) {
			ui_set_color(g->r, ui_col_act[k]);
			SDL_RenderFillRects(g->r, st.r[k], st.n[k]);
		}
		if (st.cap)
			free(st.r[k]);
	}
	free(acc);

	/* Marks: ticks in their own strip above the lanes, in a colour no
	 * activity uses, so that they never pass for one; named at its left. */
	ui_set_color(g->r, ui_col_marker);
	for (uint32_t i = 0; i < v->hist.mark_n; i++) {
		const struct ui_mark_run *m = &v->hist.mark[i];
		if (m->t1 < t0 || m->t0 >= t1)
			continue;
		int x0 = m->t0 > t0 ? (int)((m->t0 - t0) / cpp) : 0;
		int x1 = (int)((m->t1 - t0) / cpp);
		if (x1 >= p.w)
			x1 = p.w - 1;
		ui_fill(g->r, (SDL_Rect){p.x + x0, p.y - UI_MARK_STRIP, x1 - x0 + 1, UI_MARK_STRIP - 3},
			ui_col_marker);
	}
	if (v->hist.mark_names[0])
		ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_marker, p.x - 6, p.y - UI_MARK_STRIP - 4, UI_RIGHT,
			     v->hist.mark_names);

	/* Axis */
	char b[32];
	uint64_t step = tick_step(t1 - t0, p.w);
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
		      l->timeline.y + 7, UI_RIGHT, "%s%s · window %s%s", a->scrub ? "scrubbed to " : "",
		      ui_fmt_cycles(b, sizeof b, play, s->figs.ghz),
		      ui_fmt_cycles((char[32]){0}, 32, t1 - t0, s->figs.ghz),
		      a->tl_follow ? "" : " · panned (0: follow)");
}
