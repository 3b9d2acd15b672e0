/* The hot-line table: one row per line (the scenario's reported symbols
 * first, then the busiest lines seen), one cell per core coloured by that
 * core's state for the line (as the protocol names and colours it), the
 * owner's cell framed in white. Folded (many cores), a cell summarises a
 * socket: the strongest state held there and how many copies. */
#include "config.h"
#include "ui_int.h"

#include <stdio.h>
#include <string.h>

/* Which state a socket summary shows: write ownership first, then dirt,
 * then the line's owner, then any copy (M, E, O, F, S, I under MOESI and
 * MESIF). */
static int strength(const struct coh_protocol *p, int s)
{
	const struct coh_state_row *r = &p->state[s];
	if (s == MS_I || !coh_has_state(p, (unsigned)s))
		return 0;
	return 1 + 4 * r->exclusive + 2 * r->dirty + r->owner;
}

static SDL_Color text_on(SDL_Color c)
{
	int lum = c.r * 3 + c.g * 6 + c.b;
	return lum > 1300 ? (SDL_Color){0x14, 0x17, 0x1c, 255} : (SDL_Color){0xf8, 0xf9, 0xfa, 255};
}

static void draw_header(struct ui_app *a, struct ui_gfx *g)
{
	const struct ui_layout *l = &a->lay;
	int y = l->cells.y - 17;
	int every = 1;
	int lw = l->folded ? 22 : 18; /* widest column label, px */
	while (every * l->cell_w < lw)
		every *= 2;
	for (int c = 0; c < l->ncols; c += every) {
		int x = l->cells.x + c * l->cell_w + l->cell_w / 2;
		if (every > 1)
			x = l->cells.x + c * l->cell_w;
		ui_text_drawf(g->txt, UI_FONT_SMALL, ui_col_dim, x, y, every > 1 ? UI_LEFT : UI_CENTER,
			      l->folded ? "s%d" : "%d", c);
	}
	ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, l->lines.x + 10, y, UI_LEFT, "line");
	ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, l->cells.x - 6, y, UI_RIGHT,
		     l->folded ? "socket" : "core");
	int x = l->cells.x + l->cells.w + 12;
#define STAT_HEAD(name, shown, view_head, view_w, what)                                   \
	if (view_w) {                                                                    \
		x += (view_w);                                                           \
		ui_text_draw(g->txt, UI_FONT_SMALL, ui_col_dim, x, y, UI_RIGHT, (view_head)); \
	}
	MS_STATS(STAT_HEAD)
#undef STAT_HEAD
}

static void draw_cells(struct ui_app *a, struct ui_gfx *g, const struct ui_snap *s, int row, SDL_Rect rr)
{
	const struct ui_layout *l = &a->lay;
	const uint8_t *st = s->state + (size_t)row * s->ncores;
	int owner = s->rows[row].owner;
	int gap = l->cell_w >= 8 ? 1 : 0;
	for (int c = 0; c < l->ncols; c++) {
		SDL_Rect cell = {l->cells.x + c * l->cell_w, rr.y + 1, l->cell_w - gap, l->row_h - 3};
		enum ms_state show = MS_I;
		int copies = 0, owned = 0;
		if (l->folded) {
			int lo = c * a->cps, hi = lo + a->cps < a->ncores ? lo + a->cps : a->ncores;
			for (int k = lo; k < hi; k++) {
				if (st[k] != MS_I)
					copies++;
				if (strength(s->proto, st[k]) > strength(s->proto, show))
					show = (enum ms_state)st[k];
			}
			owned = owner >= lo && owner < hi;
		} else {
			show = st[c];
			owned = owner == c;
		}
		SDL_Color col = ui_state_color(s->proto, show);
		ui_fill(g->r, cell, col);
		if (cell.w >= 14 && cell.h >= 12) {
			char txt[16];
			if (l->folded && copies > 1 && cell.w >= 26)
				snprintf(txt, sizeof txt, "%s%d", ui_state_name(s->proto, show), copies);
			else
				snprintf(txt, sizeof txt, "%s", ui_state_name(s->proto, show));
			SDL_Color tc = show == MS_I ? ui_col_dim : text_on(col);
			ui_text_draw(g->txt, UI_FONT_SMALL, tc, cell.x + cell.w / 2, cell.y + (cell.h - 13) / 2,
				     UI_CENTER, txt);
		}
		if (owned)
			ui_frame_rect(g->r, (SDL_Rect){cell.x - 1, cell.y - 1, cell.w + 2, cell.h + 2},
				      ui_col_owner, cell.w >= 8 ? 2 : 1);
	}
}

/* "a_long_symbol+0x40" too wide: shorten the symbol, keep the offset or
 * "@cpuN" suffix, which is what tells two rows apart. */
static const char *fit_name(struct ui_gfx *g, const char *name, int maxw)
{
	static char out[96];
	if (ui_text_width(g->txt, UI_FONT_NORMAL, name) <= maxw)
		return name;
	const char *cut = strrchr(name, '+');
	const char *at = strstr(name, " @");
	if (at && (!cut || at > cut))
		cut = at;
	if (!cut || cut == name)
		return ui_text_fit(g->txt, UI_FONT_NORMAL, name, maxw, out, sizeof out);
	char head[64];
	snprintf(head, sizeof head, "%.*s", (int)(cut - name), name);
	int sw = ui_text_width(g->txt, UI_FONT_NORMAL, cut);
	char hb[64];
	snprintf(out, sizeof out, "%s%s", ui_text_fit(g->txt, UI_FONT_NORMAL, head, maxw - sw, hb, sizeof hb), cut);
	return out;
}

void ui_draw_lines(struct ui_app *a, struct ui_gfx *g)
{
	const struct ui_layout *l = &a->lay;
	const struct ui_snap *s = ui_app_snap(a, a->cur);
	/* A narrow box (split view) keeps the title short: the right corner
	 * says how many lines were left out. */
	ui_box(g, l->lines, l->lines.w < 640 ? "Hot lines"
			    : l->folded ? "Hot lines  ·  strongest state per socket (copies), owner framed"
					: "Hot lines  ·  line state per core, owner framed");
	if (l->nrows_fit <= 0)
		return;
	draw_header(a, g);
	int n = s->nrows < l->nrows_fit ? s->nrows : l->nrows_fit;
	/* Rows cut for room, and contended lines never given one, are said. */
	int more = s->more_rows + (s->nrows - n);
	if (more > 0)
		ui_text_drawf(g->txt, UI_FONT_SMALL, ui_col_mark, l->lines.x + l->lines.w - 10, l->lines.y + 7,
			      UI_RIGHT, "%d more line%s not shown", more, more > 1 ? "s" : "");
	if (n == 0) {
		ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_dim, l->lines.x + 10, l->cells.y + 4, UI_LEFT,
			     "no shared lines yet");
		return;
	}
	char b[32];
	for (int i = 0; i < n; i++) {
		const struct ui_row *row = &s->rows[i];
		SDL_Rect rr = {l->lines.x + 4, l->cells.y + i * l->row_h, l->lines.w - 8, l->row_h};
		if (row->addr + 1 == a->sel_line)
			ui_fill(g->r, rr, ui_col_panel2);
		SDL_Color nc = row->reported ? ui_col_text : ui_col_dim;
		SDL_Rect clip = {l->lines.x + 10, rr.y, l->label_w - 8, l->row_h};
		SDL_RenderSetClipRect(g->r, &clip);
		const char *shown = fit_name(g, row->name, clip.w);
		ui_text_draw(g->txt, UI_FONT_NORMAL, nc, clip.x, rr.y + (l->row_h - 16) / 2, UI_LEFT, shown);
		if (shown != row->name) /* shortened: the full name on hover */
			ui_tip_add(a, clip, row->name);
		SDL_RenderSetClipRect(g->r, NULL);
		draw_cells(a, g, s, i, rr);
		int x = l->cells.x + l->cells.w + 12;
		int ty = rr.y + (l->row_h - 16) / 2;
#define STAT_CELL(name, shown, view_head, view_w, what)                                     \
	if (view_w) {                                                                      \
		x += (view_w);                                                             \
		ui_text_draw(g->txt, UI_FONT_NORMAL, ui_col_text, x, ty, UI_RIGHT,          \
			     ui_fmt_count(b, sizeof b, (double)row->stats.name));          \
	}
		MS_STATS(STAT_CELL)
#undef STAT_CELL
	}
}
