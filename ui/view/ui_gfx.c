/* Drawing primitives the SDL2 renderer lacks (rounded boxes, thick lines,
 * a soft particle sprite) and number formatting shared by the panels. Kept
 * to what the software renderer does quickly: rectangles and copies. */
#include "config.h"
#include "ui_int.h"

#include <math.h>
#include <stdio.h>

#define DOT 16

int ui_gfx_init(struct ui_gfx *g, SDL_Renderer *r, struct ui_fonts *f)
{
	g->r = r;
	g->txt = ui_text_create(r, f);
	if (!g->txt)
		return -1;
	/* A radial falloff rendered once; particles are copies of it,
	 * colour-modulated, which is far cheaper than drawing circles. */
	SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, DOT, DOT, 32, SDL_PIXELFORMAT_ARGB8888);
	if (!s)
		return -1;
	Uint32 *px = s->pixels;
	for (int y = 0; y < DOT; y++)
		for (int x = 0; x < DOT; x++) {
			float dx = x - (DOT - 1) / 2.0f, dy = y - (DOT - 1) / 2.0f;
			float d = sqrtf(dx * dx + dy * dy) / (DOT / 2.0f);
			float a = d < 0.55f ? 1.0f : d < 1.0f ? (1.0f - d) / 0.45f : 0.0f;
			Uint32 al = (Uint32)(a * 255.0f);
			px[y * (s->pitch / 4) + x] = al << 24 | 0xffffffu;
		}
	g->dot = SDL_CreateTextureFromSurface(r, s);
	SDL_FreeSurface(s);
	if (!g->dot)
		return -1;
	SDL_SetTextureBlendMode(g->dot, SDL_BLENDMODE_BLEND);
	SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
	return 0;
}

void ui_gfx_free(struct ui_gfx *g)
{
	if (g->dot)
		SDL_DestroyTexture(g->dot);
	ui_text_destroy(g->txt);
	g->dot = NULL;
	g->txt = NULL;
}

void ui_fill(SDL_Renderer *r, SDL_Rect rc, SDL_Color c)
{
	ui_set_color(r, c);
	SDL_RenderFillRect(r, &rc);
}

void ui_frame_rect(SDL_Renderer *r, SDL_Rect rc, SDL_Color c, int thick)
{
	ui_set_color(r, c);
	for (int i = 0; i < thick && rc.w > 2 * i && rc.h > 2 * i; i++) {
		SDL_Rect f = {rc.x + i, rc.y + i, rc.w - 2 * i, rc.h - 2 * i};
		SDL_RenderDrawRect(r, &f);
	}
}

/* Corners cut by a quarter circle, drawn as horizontal spans. */
void ui_fill_round(SDL_Renderer *r, SDL_Rect rc, SDL_Color c, int rad)
{
	if (rad * 2 > rc.w)
		rad = rc.w / 2;
	if (rad * 2 > rc.h)
		rad = rc.h / 2;
	ui_set_color(r, c);
	if (rad <= 1) {
		SDL_RenderFillRect(r, &rc);
		return;
	}
	SDL_Rect mid = {rc.x, rc.y + rad, rc.w, rc.h - 2 * rad};
	SDL_RenderFillRect(r, &mid);
	for (int i = 0; i < rad; i++) {
		float dy = rad - i - 0.5f;
		int inset = rad - (int)lroundf(sqrtf((float)rad * rad - dy * dy));
		SDL_Rect top = {rc.x + inset, rc.y + i, rc.w - 2 * inset, 1};
		SDL_Rect bot = {rc.x + inset, rc.y + rc.h - 1 - i, rc.w - 2 * inset, 1};
		SDL_RenderFillRect(r, &top);
		SDL_RenderFillRect(r, &bot);
	}
}

void ui_line_thick(SDL_Renderer *r, float x0, float y0, float x1, float y1, int thick)
{
	float dx = x1 - x0, dy = y1 - y0;
	float len = sqrtf(dx * dx + dy * dy);
	if (len < 0.5f)
		return;
	float nx = -dy / len, ny = dx / len;
	for (int i = 0; i < thick; i++) {
		float o = i - (thick - 1) / 2.0f;
		SDL_RenderDrawLineF(r, x0 + nx * o, y0 + ny * o, x1 + nx * o, y1 + ny * o);
	}
}

/* A titled panel: background, hairline border, title in the top-left. */
void ui_box(struct ui_gfx *g, SDL_Rect rc, const char *title)
{
	ui_fill_round(g->r, rc, ui_col_panel, 6);
	if (title && *title)
		ui_text_draw(g->txt, UI_FONT_BOLD, ui_col_dim, rc.x + 10, rc.y + 6, UI_LEFT, title);
}

/* 1234 -> "1234", 123456 -> "123.5k", 12345678 -> "12.35M". */
const char *ui_fmt_count(char *buf, size_t n, double v)
{
	double a = fabs(v);
	if (a < 10000)
		snprintf(buf, n, a == floor(a) ? "%.0f" : a < 10 ? "%.2f" : "%.1f", v);
	else if (a < 1e6)
		snprintf(buf, n, "%.1fk", v / 1e3);
	else if (a < 1e9)
		snprintf(buf, n, "%.2fM", v / 1e6);
	else
		snprintf(buf, n, "%.2fG", v / 1e9);
	return buf;
}

/* Cycles as time at the model's clock: "12.34 µs", "1.203 ms". */
const char *ui_fmt_cycles(char *buf, size_t n, uint64_t c, double ghz)
{
	if (ghz <= 0) {
		ui_fmt_count(buf, n, (double)c);
		return buf;
	}
	double ns = c / ghz;
	if (ns < 1e3)
		snprintf(buf, n, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, n, "%.2f µs", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, n, "%.3f ms", ns / 1e6);
	else
		snprintf(buf, n, "%.3f s", ns / 1e9);
	return buf;
}
