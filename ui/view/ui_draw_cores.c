/* The machine view: sockets with their cores, each core tile coloured by
 * what it is doing now; above UI_FOLD_CORES cores the tiles shrink to a
 * heat map of bounces per core over the last second or so, with a thin
 * activity stripe where the cell is big enough to carry one. */
#include "config.h"
#include "ui_int.h"

#include <math.h>
#include <stdio.h>

static SDL_Color label_color(SDL_Color col)
{
	/* Dark text on the light colours, light on the dark ones. */
	int lum = col.r * 3 + col.g * 6 + col.b;
	return lum > 1400 ? (SDL_Color){0x14, 0x17, 0x1c, 255} : ui_col_text;
}

static void draw_tiles(struct ui_app *a, struct ui_gfx *g, const struct ui_snap *s)
{
	const struct ui_layout *l = &a->lay;
	for (int c = 0; c < a->ncores; c++) {
		SDL_Rect r = l->core[c];
		ui_fill_round(g->r, r, ui_col_act[s->act[c]], 5);
		if (c == a->sel_core)
			ui_frame_rect(g->r, (SDL_Rect){r.x - 2, r.y - 2, r.w + 4, r.h + 4}, ui_col_owner, 2);
	}
}

/* Labels go on top of the particles (drawn after them), so traffic never
 * hides which core is which. */
static void socket_labels(struct ui_app *a, struct ui_gfx *g, const struct ui_snap *s)
{
	const struct ui_layout *l = &a->lay;
	if (l->compact)
		return;
	for (int k = 0; k < a->nsockets; k++) {
		SDL_Rect b = l->socket[k];
		if (l->folded) {
			float sum = 0;
			for (int c = k * a->cps; c < (k + 1) * a->cps && c < a->ncores; c++)
				sum += s->heat[c];
			char n[32];
			ui_fmt_count(n, sizeof n, sum);
			ui_text_drawf(g->txt, UI_FONT_SMALL, ui_col_dim, b.x + 6, b.y + 3, UI_LEFT,
				      b.w >= 110 ? "s%d  %s bounces/s" : "s%d  %s/s", k, n);
		} else {
			ui_text_drawf(g->txt, UI_FONT_SMALL, ui_col_dim, b.x + 8, b.y + 4, UI_LEFT,
				      b.w >= 80 ? "socket %d" : "s%d", k);
		}
		SDL_Rect m = l->mem[k];
		if (m.h >= 14 && m.w >= 90)
			ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, m.x + m.w / 2, m.y + (m.h - 13) / 2,
				     UI_CENTER, "memory / LLC");
	}
}

void ui_draw_core_labels(struct ui_app *a, struct ui_gfx *g)
{
	const struct ui_layout *l = &a->lay;
	const struct ui_snap *s = ui_app_snap(a, a->cur);
	socket_labels(a, g, s);
	if (l->folded)
		return;
	int fh = ui_text_height(g->txt, UI_FONT_BOLD);
	for (int c = 0; c < a->ncores; c++) {
		SDL_Rect r = l->core[c];
		int act = s->act[c];
		SDL_Color tc = label_color(ui_col_act[act]);
		if (r.h >= 2 * fh + 2 && r.w >= 60) {
			int y = r.y + (r.h - 2 * fh) / 2;
			ui_text_drawf(g->txt, UI_FONT_BOLD, tc, r.x + r.w / 2, y, UI_CENTER, "cpu%d", c);
			ui_text_draw(g->txt, UI_FONT_SMALL, tc, r.x + r.w / 2, y + fh, UI_CENTER,
				     core_activity_names[act].label);
		} else if (r.h >= fh && r.w >= 22) {
			ui_text_drawf(g->txt, UI_FONT_SMALL, tc, r.x + r.w / 2, r.y + (r.h - fh) / 2 + 1,
				      UI_CENTER, "%d", c);
		}
	}
}

static void draw_heat(struct ui_app *a, struct ui_gfx *g, const struct ui_snap *s)
{
	const struct ui_layout *l = &a->lay;
	float mx = 0;
	for (int c = 0; c < a->ncores; c++)
		if (s->heat[c] > mx)
			mx = s->heat[c];
	/* Log scale: one hot core must not turn every other cell black; and a
	 * floor, so that a trickle of bounces spread evenly is not all "hot". */
	float lmx = log1pf(mx > 10 ? mx : 10);
	for (int c = 0; c < a->ncores; c++) {
		SDL_Rect r = l->core[c];
		float x = lmx > 0 ? log1pf(s->heat[c]) / lmx : 0;
		ui_fill(g->r, r, ui_heat_color(x));
		if (r.h >= 10) {
			SDL_Rect stripe = {r.x, r.y + r.h - 2, r.w, 2};
			ui_fill(g->r, stripe, ui_col_act[s->act[c]]);
		}
		if (c == a->sel_core)
			ui_frame_rect(g->r, (SDL_Rect){r.x - 2, r.y - 2, r.w + 4, r.h + 4}, ui_col_owner, 2);
	}
}

void ui_draw_cores(struct ui_app *a, struct ui_gfx *g)
{
	const struct ui_layout *l = &a->lay;
	const struct ui_snap *s = ui_app_snap(a, a->cur);
	char title[320];
	int cps = a->cps < a->ncores ? a->cps : a->ncores; /* --cores below a socket's worth */
	if (a->split)
		snprintf(title, sizeof title, "%s  ·  %d cores%s", a->var[a->cur].name, a->ncores,
			 l->folded ? "  ·  heat = bounces per core" : "");
	else if (l->folded)
		snprintf(title, sizeof title, "Machine: %d cores, %d sockets  ·  heat = bounces per core, last second",
			 a->ncores, a->nsockets);
	else
		snprintf(title, sizeof title, "Machine: %d cores, %d socket%s × %d  ·  %s", a->ncores,
			 a->nsockets, a->nsockets > 1 ? "s" : "", cps, a->cpu);
	ui_box(g, l->machine, title);
	for (int k = 0; k < a->nsockets; k++) {
		SDL_Rect b = l->socket[k];
		ui_fill_round(g->r, b, ui_col_panel2, l->compact ? 1 : 6);
		if (!l->compact)
			ui_fill_round(g->r, l->mem[k], ui_col_panel, 3);
	}
	if (l->folded)
		draw_heat(a, g, s);
	else
		draw_tiles(a, g, s);
}
