/* What floats above the layout: the help overlay (h / ?), the detail card
 * of a clicked line row or core, and short status messages (screenshot
 * written, speed changed). */
#include "config.h"
#include "ui_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const help[][2] = {
	{"space", "pause / resume (leaves scrubbing)"},
	{".", "step one coherence transaction"},
	{"[  ]", "halve / double the speed (simulated cycles per second)"},
	{"←  →", "scrub back / forward through recorded frames"},
	{"v", "next variant"},
	{"r", "restart every variant"},
	{"s", "screenshot to bounce-NNNN.png"},
	{"h  ?", "this help"},
	{"q  Esc", "quit"},
	{"click", "a line row: its history; a core: its state"},
};

static void draw_help(struct ui_app *a, struct ui_gfx *g)
{
	int n = sizeof help / sizeof help[0];
	SDL_Rect r = {0, 0, 520, 56 + n * 22};
	r.x = (a->lay.w - r.w) / 2;
	r.y = (a->lay.h - r.h) / 2;
	SDL_SetRenderDrawColor(g->r, 0, 0, 0, 140);
	SDL_RenderFillRect(g->r, NULL);
	ui_fill_round(g->r, r, ui_col_panel2, 8);
	ui_frame_rect(g->r, r, ui_col_grid, 1);
	ui_text_draw(g->txt, UI_FONT_TITLE, ui_col_text, r.x + 20, r.y + 14, UI_LEFT, "Keys");
	for (int i = 0; i < n; i++) {
		int y = r.y + 46 + i * 22;
		ui_text_draw(g->txt, UI_FONT_BOLD, ui_col_accent, r.x + 20, y, UI_LEFT, help[i][0]);
		ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_text, r.x + 110, y, UI_LEFT, help[i][1]);
	}
}

static void draw_card(struct ui_app *a, struct ui_gfx *g, const char *title, const char *body,
		      const struct ui_txn_log *log)
{
	char lines[40][128];
	int n = 0;
	for (const char *p = body; *p && n < 24;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		snprintf(lines[n++], sizeof lines[0], "%.*s", (int)(len < 127 ? len : 127), p);
		p += len + (e ? 1 : 0);
	}
	if (log && log->n) {
		snprintf(lines[n++], sizeof lines[0], "recent transactions (cycle, newest first):");
		uint32_t k = log->n < UI_LINE_LOG ? log->n : UI_LINE_LOG;
		for (uint32_t i = 0; i < k && n < 40 && i < 12; i++) {
			const struct ms_txn *t = &log->t[(log->n - 1 - i) % UI_LINE_LOG];
			char sup[24];
			if (t->supplier == MS_NO_CORE)
				snprintf(sup, sizeof sup, "memory");
			else
				snprintf(sup, sizeof sup, "cpu%d", t->supplier);
			snprintf(lines[n++], sizeof lines[0], "  %" PRIu64 "  cpu%d %s %s→%s from %s%s%s",
				 t->issued, t->core, ms_req_name(t->req), ms_state_name(t->from),
				 ms_state_name(t->to), sup, t->hitm ? " HITM" : "", t->bounce ? " bounce" : "");
		}
	}
	int w = 470, h = 40 + n * 17;
	SDL_Rect m = a->lay.machine;
	SDL_Rect r = {m.x + m.w - w - 10, m.y + 30, w, h};
	if (r.y + r.h > a->lay.h - 30)
		r.y = a->lay.h - 30 - r.h;
	SDL_SetRenderDrawColor(g->r, 0x0c, 0x0e, 0x12, 235);
	SDL_RenderFillRect(g->r, &r);
	ui_frame_rect(g->r, r, ui_col_accent, 1);
	ui_text_draw(g->txt, UI_FONT_BOLD, ui_col_text, r.x + 12, r.y + 8, UI_LEFT, title);
	ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, r.x + w - 12, r.y + 10, UI_RIGHT, "click again to close");
	for (int i = 0; i < n; i++)
		ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_text, r.x + 12, r.y + 32 + i * 17, UI_LEFT, lines[i]);
}

void ui_draw_overlays(struct ui_app *a, struct ui_gfx *g)
{
	struct ui_var *v = &a->var[a->cur];
	char body[2048];
	const struct ui_snap *s = ui_app_snap(a, a->cur);
	if (a->sel_row >= 0 && a->sel_row < s->nrows && v->m) {
		ui_machine_line_detail(v->m, s->rows[a->sel_row].addr, body, sizeof body);
		char title[80];
		snprintf(title, sizeof title, "Line: %s", s->rows[a->sel_row].name);
		draw_card(a, g, title, body, &v->log[a->sel_row]);
	} else if (a->sel_core >= 0 && a->sel_core < a->ncores && v->m) {
		ui_machine_core_detail(v->m, a->sel_core, body, sizeof body);
		char title[80];
		snprintf(title, sizeof title, "Core %d (now, %s)", a->sel_core, v->name);
		draw_card(a, g, title, body, NULL);
	}
	if (a->status[0] && a->t_disp < a->status_until) {
		int w = ui_text_width(g->txt, UI_FONT_NORMAL, a->status) + 24;
		SDL_Rect r = {(a->lay.w - w) / 2, a->lay.header.h + 12, w, 26};
		ui_fill_round(g->r, r, ui_col_panel2, 6);
		ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_text, r.x + 12, r.y + 5, UI_LEFT, a->status);
	}
	if (a->help)
		draw_help(a, g);
}
