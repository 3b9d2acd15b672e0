/* Text for the visualizer: SDL2_ttf glyph runs rendered once into textures
 * and kept in a small per-renderer cache, because most labels are the same
 * from frame to frame and TTF rendering dominates a naive frame. */
#ifndef BOUNCE_UI_TEXT_H
#define BOUNCE_UI_TEXT_H

#include <SDL.h>
#include <stdio.h>

enum ui_font { UI_FONT_SMALL, UI_FONT_NORMAL, UI_FONT_BOLD, UI_FONT_TITLE, UI_NFONTS };
enum ui_align { UI_LEFT = 0, UI_CENTER = 1, UI_RIGHT = 2 };

struct ui_fonts;
struct ui_text;

/* The fonts are shared by every renderer (window and off-screen). */
struct ui_fonts *ui_fonts_open(const char *path, char *errbuf, size_t n);
void ui_fonts_close(struct ui_fonts *f);
int ui_fonts_height(const struct ui_fonts *f, enum ui_font font);

struct ui_text *ui_text_create(SDL_Renderer *r, struct ui_fonts *f);
void ui_text_destroy(struct ui_text *t);
/* Write every string drawn from now on to f, one a line (NULL stops):
 * tests read what the screen says. */
void ui_text_log(struct ui_text *t, FILE *f);
/* Call once per frame: entries unused for a while are evicted. */
void ui_text_frame(struct ui_text *t);

/* Draw s with its top at y and its anchor at x (left, centre or right).
 * Returns the width drawn. */
int ui_text_draw(struct ui_text *t, enum ui_font font, SDL_Color c, int x, int y,
		 enum ui_align align, const char *s);
int ui_text_drawf(struct ui_text *t, enum ui_font font, SDL_Color c, int x, int y,
		  enum ui_align align, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
int ui_text_width(struct ui_text *t, enum ui_font font, const char *s);
int ui_text_height(const struct ui_text *t, enum ui_font font);
/* s shortened with a trailing ellipsis to fit maxw pixels, into buf. */
const char *ui_text_fit(struct ui_text *t, enum ui_font font, const char *s, int maxw, char *buf,
			size_t n);

/* s shortened in the middle ("percpu_c…_pcpu"): the two ends are what tell
 * similar names apart. */
const char *ui_text_fit_mid(struct ui_text *t, enum ui_font font, const char *s, int maxw, char *buf,
			    size_t n);

#endif
