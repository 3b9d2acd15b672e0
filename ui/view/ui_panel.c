/* The side panel (running figures of every variant side by side, then the
 * legend), the header bar and the key hints in the footer. Figures come
 * from each variant's snapshot, so scrubbing rewinds them too. */
#include "config.h"
#include "ui_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define ROW 18

static double per_op(uint64_t x, uint64_t ops)
{
	return ops ? (double)x / ops : 0;
}

typedef void (*cell_fn)(const struct ui_figs *f, char *buf, size_t n);

static void c_time(const struct ui_figs *f, char *b, size_t n) { ui_fmt_cycles(b, n, f->cycles, f->ghz); }
static void c_ops(const struct ui_figs *f, char *b, size_t n) { ui_fmt_count(b, n, (double)f->ops); }
static void c_ops_s(const struct ui_figs *f, char *b, size_t n)
{
	double sec = f->ghz > 0 ? f->cycles / (f->ghz * 1e9) : 0;
	ui_fmt_count(b, n, sec > 0 ? f->ops / sec : 0);
}
static void c_cyc_op(const struct ui_figs *f, char *b, size_t n)
{
	ui_fmt_count(b, n, f->ops ? (double)f->cycles / f->ops : 0);
}
static void c_bounce_op(const struct ui_figs *f, char *b, size_t n)
{
	snprintf(b, n, "%.3f", per_op(f->tot.bounces, f->ops));
}
static void c_hitm_op(const struct ui_figs *f, char *b, size_t n)
{
	snprintf(b, n, "%.3f", per_op(f->tot.hitm, f->ops));
}
static void c_bounces(const struct ui_figs *f, char *b, size_t n) { ui_fmt_count(b, n, (double)f->tot.bounces); }
static void c_locked(const struct ui_figs *f, char *b, size_t n) { ui_fmt_count(b, n, (double)f->locked_ops); }
static void c_inval(const struct ui_figs *f, char *b, size_t n) { ui_fmt_count(b, n, (double)f->tot.invalidations); }
static void c_hit(const struct ui_figs *f, char *b, size_t n)
{
	uint64_t acc = f->tot.l1_hits + f->tot.l1_misses;
	snprintf(b, n, "%.1f%%", acc ? 100.0 * f->tot.l1_hits / acc : 0.0);
}

static const struct { const char *label; cell_fn fn; } rows[] = {
	{"simulated time", c_time},
	{"ops", c_ops},
	{"ops / sim second", c_ops_s},
	{"cycles / op", c_cyc_op},
	{"bounces", c_bounces},
	{"bounces / op", c_bounce_op},
	{"HITM / op", c_hitm_op},
	{"locked ops", c_locked},
	{"invalidations", c_inval},
	{"L1 hit rate", c_hit},
};

/* The counter named `name` in figures f, NULL if the variant has none. */
static const struct ui_counter *counter_in(const struct ui_figs *f, const char *name)
{
	for (int k = 0; k < f->ncounters; k++)
		if (!strcmp(f->ctr[k].name, name))
			return &f->ctr[k];
	return NULL;
}

/* A value in a column: exact digits when they fit, else the short form. */
static void cell(struct ui_gfx *g, SDL_Color col, int xr, int y, int w, double v, int exact_digits)
{
	char b[48];
	if (exact_digits)
		snprintf(b, sizeof b, "%.0f", v);
	else
		ui_fmt_count(b, sizeof b, v);
	if (ui_text_width(g->txt, UI_FONT_NORMAL, b) > w)
		ui_fmt_count(b, sizeof b, v);
	ui_text_draw(g->txt, UI_FONT_NORMAL, col, xr, y, UI_RIGHT, b);
}

/* Which symbols get a block, in order: the shown variant's own first (its
 * counter must never hide behind another design's), then the others any
 * variant touched. A struct with no ghost has no single value to show. */
static int counter_order(const struct ui_app *a, const char **names, int max)
{
	int n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int v = pass ? 0 : a->cur; v < (pass ? a->nvar : a->cur + 1); v++) {
			const struct ui_figs *f = &ui_app_snap(a, v)->figs;
			for (int k = 0; k < f->ncounters && n < max; k++) {
				const struct ui_counter *c = &f->ctr[k];
				if (!c->accessed || (!c->ghost && !c->scalar))
					continue;
				int dup = 0;
				for (int i = 0; i < n && !dup; i++)
					dup = !strcmp(names[i], c->name);
				if (!dup)
					names[n++] = c->name;
			}
		}
	return n;
}

/* A column header too wide for its column wraps after the '_' or '-' that
 * balances its two lines best, each line then cut in its middle if still too
 * wide, so that names differing only at one end (percpu_counter and
 * percpu_cmpxchg) stay apart. Returns the lines used, 1 or 2. */
static int header_lines(struct ui_text *t, const char *name, int maxw, char *l1, char *l2, size_t n)
{
	char b[64];
	if (ui_text_width(t, UI_FONT_BOLD, name) <= maxw) {
		snprintf(l1, n, "%s", name);
		l2[0] = 0;
		return 1;
	}
	size_t len = strlen(name), best = 0;
	int best_w = 0;
	for (size_t i = 1; i + 1 < len && i < sizeof b; i++) {
		if (name[i - 1] != '_' && name[i - 1] != '-')
			continue;
		snprintf(b, sizeof b, "%.*s", (int)i, name);
		int w1 = ui_text_width(t, UI_FONT_BOLD, b), w2 = ui_text_width(t, UI_FONT_BOLD, name + i);
		int w = w1 > w2 ? w1 : w2;
		if (!best || w < best_w)
			best = i, best_w = w;
	}
	if (!best) {
		snprintf(l1, n, "%s", ui_text_fit_mid(t, UI_FONT_BOLD, name, maxw, b, sizeof b));
		l2[0] = 0;
		return 1;
	}
	char head[64];
	snprintf(head, sizeof head, "%.*s", (int)best, name);
	snprintf(l1, n, "%s", ui_text_fit_mid(t, UI_FONT_BOLD, head, maxw, b, sizeof b));
	snprintf(l2, n, "%s", ui_text_fit_mid(t, UI_FONT_BOLD, name + best, maxw, b, sizeof b));
	return 2;
}

static int draw_figures(struct ui_app *a, struct ui_gfx *g, SDL_Rect pr, int y, int ymax)
{
	/* Labels take what the value columns (76 px each) leave, within bounds. */
	int lab_w = pr.w - 20 - 76 * (a->nvar ? a->nvar : 1);
	lab_w = lab_w < 128 ? 128 : lab_w > 200 ? 200 : lab_w;
	int colw = (pr.w - 20 - lab_w) / (a->nvar ? a->nvar : 1);
	int x0 = pr.x + 10 + lab_w;
	char l1[UI_MAX_VARIANTS][64], l2[UI_MAX_VARIANTS][64];
	int head_rows = 1;
	for (int v = 0; v < a->nvar && v < UI_MAX_VARIANTS; v++) {
		int k = header_lines(g->txt, a->var[v].name, colw - 8, l1[v], l2[v], sizeof l1[v]);
		head_rows = k > head_rows ? k : head_rows;
	}
	for (int v = 0; v < a->nvar && v < UI_MAX_VARIANTS; v++) {
		int xr = x0 + (v + 1) * colw - 4;
		if (v == a->cur) {
			SDL_Rect hl = {x0 + v * colw, y - 2, colw, ROW * head_rows + 2};
			ui_fill_round(g->r, hl, ui_col_panel2, 4);
		}
		SDL_Color c = v == a->cur ? ui_col_accent : ui_col_dim;
		int w = ui_text_draw(g->txt, UI_FONT_BOLD, c, xr, y, UI_RIGHT, l1[v]);
		if (l2[v][0]) {
			int w2 = ui_text_draw(g->txt, UI_FONT_BOLD, c, xr, y + ROW, UI_RIGHT, l2[v]);
			w = w2 > w ? w2 : w;
		}
		if (strcmp(l1[v], a->var[v].name))
			ui_tip_add(a, (SDL_Rect){xr - w, y, w, ROW * head_rows}, a->var[v].name);
	}
	y += ROW * head_rows + 4;
	char b[48];
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_dim, pr.x + 10, y, UI_LEFT, rows[i].label);
		for (int v = 0; v < a->nvar; v++) {
			rows[i].fn(&ui_app_snap(a, v)->figs, b, sizeof b);
			ui_text_draw(g->txt, UI_FONT_NORMAL, v == a->cur ? ui_col_text : ui_col_dim,
				     x0 + (v + 1) * colw - 4, y, UI_RIGHT, b);
		}
		y += ROW;
	}
	/* Counters by symbol. A ghost counter: its exact count, what the
	 * design's own reads returned last, and their worst error (recorded at
	 * each read, so an exact design shows 0). Any other: its value, as the
	 * report reads it (Σ over the copies of a per-CPU symbol). */
	const char *names[UI_MAX_COUNTERS];
	int nnames = counter_order(a, names, UI_MAX_COUNTERS);
	int hidden = 0;
	if (nnames && y + 8 + ROW < ymax) {
		y += 8;
		ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, pr.x + 10, y, UI_LEFT,
			     "counters  ·  bold row: the exact count (ghost) or the value");
		y += ROW - 4;
	}
	for (int k = 0; k < nnames; k++) {
		int ghost = 0, percpu = 0;
		for (int v = 0; v < a->nvar; v++) {
			const struct ui_counter *c = counter_in(&ui_app_snap(a, v)->figs, names[k]);
			if (c && c->accessed) {
				ghost |= c->ghost;
				percpu |= c->percpu;
			}
		}
		int nsub = ghost ? 2 : 0;
		if (hidden || y + 6 + (nsub + 1) * ROW > ymax) {
			hidden++;
			continue;
		}
		y += 6;
		char nb[64], lab[64];
		snprintf(lab, sizeof lab, "%s%s", names[k], ghost ? "" : percpu ? " Σ" : "");
		const char *shown = ui_text_fit_mid(g->txt, UI_FONT_BOLD, lab, lab_w - 4, nb, sizeof nb);
		int w = ui_text_draw(g->txt, UI_FONT_BOLD, ui_col_text, pr.x + 10, y, UI_LEFT, shown);
		if (strcmp(shown, lab))
			ui_tip_add(a, (SDL_Rect){pr.x + 10, y, w, ROW}, lab);
		static const char *const sub[] = {"last read", "max |err| of reads"};
		for (int r = 0; r <= nsub; r++) {
			if (r)
				ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_dim, pr.x + 18, y, UI_LEFT, sub[r - 1]);
			for (int v = 0; v < a->nvar; v++) {
				int xr = x0 + (v + 1) * colw - 4;
				const struct ui_counter *c = counter_in(&ui_app_snap(a, v)->figs, names[k]);
				SDL_Color col = v == a->cur ? ui_col_text : ui_col_dim;
				if (!c || !c->accessed) {
					ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_grid, xr, y, UI_RIGHT, "·");
					continue;
				}
				if (r == 0)
					cell(g, col, xr, y, colw - 6, (double)(c->ghost ? c->exact : c->value), 1);
				else if (!c->ghost || !c->nreads)
					ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_grid, xr, y, UI_RIGHT, "–");
				else if (r == 1)
					cell(g, col, xr, y, colw - 6, (double)c->last_read, 1);
				else
					cell(g, c->max_err ? ui_col_act[CORE_ACT_MISS] : col, xr, y, colw - 6,
					     (double)c->max_err, 1);
			}
			y += ROW;
		}
	}
	if (hidden) {
		y += 4;
		ui_text_drawf(g->txt, UI_FONT_SMALL, ui_col_dim, pr.x + 10, y, UI_LEFT,
			      "%d more counter%s (other variants): enlarge the window", hidden, hidden > 1 ? "s" : "");
		y += ROW;
	}
	return y;
}

static void swatch(struct ui_gfx *g, int x, int y, SDL_Color c, const char *letter, const char *label)
{
	SDL_Rect r = {x, y + 1, 18, 15};
	ui_fill(g->r, r, c);
	if (letter) {
		int lum = c.r * 3 + c.g * 6 + c.b;
		SDL_Color tc = lum > 1300 ? (SDL_Color){0x14, 0x17, 0x1c, 255} : (SDL_Color){0xf8, 0xf9, 0xfa, 255};
		ui_text_draw(g->txt, UI_FONT_SMALL, tc, x + 9, y + 1, UI_CENTER, letter);
	}
	ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_text, x + 24, y + 2, UI_LEFT, label);
}

static int draw_legend(struct ui_app *a, struct ui_gfx *g, SDL_Rect pr, int y)
{
	int half = (pr.w - 20) / 2, x = pr.x + 10;
	/* the states the current variant's protocol has, in its table's words */
	const struct coh_protocol *p = a->var[a->cur].m ? ui_machine_protocol(a->var[a->cur].m)
						     : coh_protocol_of(PROTO_MESI);
	ui_text_drawf(g->txt, UI_FONT_BOLD, ui_col_dim, x, y, UI_LEFT, "Line state (%s)", p->name);
	y += ROW + 2;
	static const enum ms_state order[] = {MS_M, MS_E, MS_S, MS_I, MS_F, MS_O, MS_W};
	_Static_assert(sizeof order / sizeof order[0] == MS_NSTATES, "every state slot in the legend's order");
	int k = 0;
	for (size_t i = 0; i < MS_NSTATES; i++) {
		if (!coh_has_state(p, order[i]))
			continue;
		swatch(g, x + (k % 2) * half, y, ui_state_color(p, order[i]), p->state[order[i]].name,
		       p->state[order[i]].what);
		if (k++ % 2)
			y += ROW;
	}
	if (k % 2)
		y += ROW;
	SDL_Rect own = {x, y + 1, 18, 15};
	ui_fill(g->r, own, ui_state_color(p, MS_M));
	ui_frame_rect(g->r, (SDL_Rect){own.x - 1, own.y - 1, own.w + 2, own.h + 2}, ui_col_owner, 2);
	ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_text, x + 24, y + 2, UI_LEFT, "owner (white frame)");
	y += ROW + 8;

	ui_text_draw(g->txt, UI_FONT_BOLD, ui_col_dim, x, y, UI_LEFT, "Core activity");
	y += ROW + 2;
	for (int i = 0; i < CORE_NACTS; i++) {
		swatch(g, x + (i % 2) * half, y, ui_col_act[i], NULL, core_activity_names[i].label);
		if (i % 2)
			y += ROW;
	}
	/* A mark is a tick above the lanes, never a lane colour: shown as one. */
	int mx = x + (CORE_NACTS % 2) * half;
	ui_fill(g->r, (SDL_Rect){mx + 6, y + 3, 6, 7}, ui_col_marker);
	ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_text, mx + 24, y + 2, UI_LEFT, "mark (tick above lanes)");
	y += ROW;
	y += 8;
	ui_text_draw(g->txt, UI_FONT_BOLD, ui_col_dim, x, y, UI_LEFT, "Transfers");
	y += ROW + 2;
	for (int i = 0; i < UI_NXFERS; i++) {
		SDL_Color c = ui_col_xfer[i];
		int xx = x + (i % 2) * half;
		ui_set_color(g->r, (SDL_Color){c.r, c.g, c.b, 150});
		ui_line_thick(g->r, xx, y + 9, xx + 14, y + 9, i == UI_XFER_INVAL ? 1 : 2);
		SDL_SetTextureColorMod(g->dot, c.r, c.g, c.b);
		SDL_SetTextureAlphaMod(g->dot, 255);
		SDL_RenderCopy(g->r, g->dot, NULL, &(SDL_Rect){xx + 10, y + 4, 10, 10});
		ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_text, xx + 24, y + 2, UI_LEFT, ui_xfer_name[i]);
		if (i % 2 || i == UI_NXFERS - 1)
			y += ROW;
	}
	if (a->lay.folded) {
		y += 8;
		ui_text_draw(g->txt, UI_FONT_BOLD, ui_col_dim, x, y, UI_LEFT, "Heat: bounces per core");
		y += ROW + 2;
		int w = pr.w - 20;
		for (int i = 0; i < w; i++) {
			ui_set_color(g->r, ui_heat_color((float)i / (w - 1)));
			SDL_RenderDrawLine(g->r, x + i, y, x + i, y + 10);
		}
		ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, x, y + 12, UI_LEFT, "none");
		ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, x + w, y + 12, UI_RIGHT, "max, ≥ 10/s (log scale)");
		y += 30;
	}
	return y;
}

/* Text wrapped at spaces into at most maxlines lines of width maxw, the
 * last cut with an ellipsis; returns the y below it. */
static int draw_wrapped(struct ui_app *a, struct ui_gfx *g, SDL_Color c, int x, int y, int maxw,
			const char *text, int maxlines)
{
	char line[256];
	const char *p = text;
	for (int n = 0; *p && n < maxlines; n++) {
		size_t fit = 0, len = strlen(p);
		for (size_t k = 0; k <= len && k < sizeof line; k++) {
			if (p[k] != ' ' && p[k])
				continue;
			memcpy(line, p, k);
			line[k] = 0;
			if (ui_text_width(g->txt, UI_FONT_SMALL, line) > maxw && fit)
				break;
			fit = k;
		}
		if (!fit)
			fit = len < sizeof line - 1 ? len : sizeof line - 1;
		memcpy(line, p, fit);
		line[fit] = 0;
		p += fit;
		while (*p == ' ')
			p++;
		char cut[sizeof line + 8];
		const char *shown = line;
		if (*p && n == maxlines - 1) {
			snprintf(cut, sizeof cut, "%s …", line);
			shown = ui_text_fit(g->txt, UI_FONT_SMALL, cut, maxw, line, sizeof line);
			ui_tip_add(a, (SDL_Rect){x, y, maxw, ROW}, text);
		}
		ui_text_draw(g->txt, UI_FONT_SMALL, c, x, y, UI_LEFT, shown);
		y += ROW - 4;
	}
	return y;
}

/* The current variant's notes (report_notes.h) under its figures, in the
 * miss colour: a figure above them is not what it seems. */
static int draw_notes(struct ui_app *a, struct ui_gfx *g, SDL_Rect pr, int y, int ymax)
{
	const struct ui_figs *f = &ui_app_snap(a, a->cur)->figs;
	for (int i = 0; i < f->nnotes && y + 2 * ROW < ymax; i++) {
		y += 6;
		char head[300];
		snprintf(head, sizeof head, "note: %s", f->note[i]);
		y = draw_wrapped(a, g, ui_col_act[CORE_ACT_MISS], pr.x + 10, y, pr.w - 20, head,
				 (ymax - y) / (ROW - 4) < 3 ? (ymax - y) / (ROW - 4) : 3);
	}
	return y;
}

void ui_draw_panel(struct ui_app *a, struct ui_gfx *g)
{
	SDL_Rect pr = a->lay.panel;
	ui_box(g, pr, "Running figures per variant");
	/* The legend keeps its room at the bottom; counters take what is left. */
	int legend_h = 300 + (a->lay.folded ? 50 : 0) + (a->show_times ? 20 : 0);
	int y = draw_figures(a, g, pr, pr.y + 30, pr.y + pr.h - legend_h);
	y = draw_notes(a, g, pr, y, pr.y + pr.h - legend_h);
	y += 12;
	ui_set_color(g->r, ui_col_grid);
	SDL_RenderDrawLine(g->r, pr.x + 10, y, pr.x + pr.w - 10, y);
	y += 10;
	SDL_RenderSetClipRect(g->r, &pr);
	draw_legend(a, g, pr, y);
	SDL_RenderSetClipRect(g->r, NULL);
	if (a->show_times)
		ui_text_drawf(g->txt, UI_FONT_SMALL, ui_col_dim, pr.x + 10, pr.y + pr.h - 18, UI_LEFT,
			      "frame: simulate %.1f · draw %.1f ms (machine %.1f, lines %.1f, timeline %.1f, "
			      "panel %.1f, particles %.1f)", a->last_sim_ms, a->last_draw_ms,
			      a->part_ms[1] + a->part_ms[7], a->part_ms[2], a->part_ms[3], a->part_ms[4], a->part_ms[6]);
}

void ui_draw_header(struct ui_app *a, struct ui_gfx *g);
void ui_draw_header(struct ui_app *a, struct ui_gfx *g)
{
	SDL_Rect h = a->lay.header;
	ui_fill(g->r, h, ui_col_panel);
	int x = 12, y = (h.h - 20) / 2;
	x += ui_text_draw(g->txt, UI_FONT_TITLE, ui_col_accent, x, y, UI_LEFT, "bounce") + 14;
	SDL_Rect clip = {x, 0, h.w / 2 - x, h.h};
	SDL_RenderSetClipRect(g->r, &clip);
	ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_text, x, y + 2, UI_LEFT, a->title);
	SDL_RenderSetClipRect(g->r, NULL);

	char right[200], sp[32], now[32];
	const struct ui_snap *s = ui_app_snap(a, a->cur);
	const char *state = a->scrub ? "scrubbing" : a->var[a->cur].finished ? "finished"
			    : a->paused ? "paused" : a->lagging ? "running (sim-bound)" : "running";
	char which[120];
	if (a->split)
		snprintf(which, sizeof which, "variants %s | %s", a->var[a->cur].name, a->var[a->other].name);
	else if (a->left_out)  /* the rest are of another machine shape (ui_app_init) */
		snprintf(which, sizeof which, "variant %s (%d/%d; %d of another shape left out)", a->var[a->cur].name,
			 a->cur + 1, a->nvar, a->left_out);
	else
		snprintf(which, sizeof which, "variant %s (%d/%d)", a->var[a->cur].name, a->cur + 1, a->nvar);
	snprintf(right, sizeof right, "%s  ·  %s  ·  t = %s  ·  speed %s cycles/s", which, state,
		 ui_fmt_cycles(now, sizeof now, s->now, s->figs.ghz), ui_fmt_count(sp, sizeof sp, a->speed));
	ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_text, h.w - 12, y + 2, UI_RIGHT, right);
}

void ui_draw_footer(struct ui_app *a, struct ui_gfx *g);
void ui_draw_footer(struct ui_app *a, struct ui_gfx *g)
{
	SDL_Rect f = a->lay.footer;
	ui_fill(g->r, f, ui_col_panel);
	ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, 12, f.y + 5, UI_LEFT,
		     "space pause   . step   [ ] speed   ← → scrub   + - zoom   v variant   2 split   "
		     "r restart   s screenshot   h help   q quit   click: details");
}
