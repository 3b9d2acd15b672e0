/* Text cache: each (font, colour, string) is rendered by SDL2_ttf once into
 * a texture and reused while it keeps being drawn. Open addressing keyed by
 * a hash of the triple; entries idle for UI_TEXT_IDLE frames are dropped
 * when the table fills, so a changing figure costs one render per change. */
#include "config.h"
#include "ui_text.h"

#include <SDL_ttf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UI_TEXT_SLOTS 2048      /* power of two */
#define UI_TEXT_MAXLEN 160
#define UI_TEXT_IDLE 90

static const struct { int pt; int style; } font_spec[UI_NFONTS] = {
	[UI_FONT_SMALL] = {11, TTF_STYLE_NORMAL},
	[UI_FONT_NORMAL] = {13, TTF_STYLE_NORMAL},
	[UI_FONT_BOLD] = {13, TTF_STYLE_BOLD},
	[UI_FONT_TITLE] = {16, TTF_STYLE_BOLD},
};

struct ui_fonts {
	TTF_Font *f[UI_NFONTS];
	int h[UI_NFONTS];
};

struct text_entry {
	uint32_t hash;          /* 0 = empty slot */
	uint32_t rgba;
	uint8_t font;
	char s[UI_TEXT_MAXLEN];
	SDL_Texture *tex;
	int w, h;
	unsigned long last;
};

struct ui_text {
	SDL_Renderer *r;
	struct ui_fonts *fonts;
	struct text_entry *slot;
	int used;
	unsigned long frame;
	FILE *log;
};

struct ui_fonts *ui_fonts_open(const char *path, char *errbuf, size_t n)
{
	struct ui_fonts *f = calloc(1, sizeof *f);
	if (!f) {
		snprintf(errbuf, n, "out of memory");
		return NULL;
	}
	for (int i = 0; i < UI_NFONTS; i++) {
		f->f[i] = TTF_OpenFont(path, font_spec[i].pt);
		if (!f->f[i]) {
			snprintf(errbuf, n, "%s: %s", path, TTF_GetError());
			ui_fonts_close(f);
			return NULL;
		}
		TTF_SetFontStyle(f->f[i], font_spec[i].style);
		TTF_SetFontHinting(f->f[i], TTF_HINTING_LIGHT);
		f->h[i] = TTF_FontHeight(f->f[i]);
	}
	return f;
}

void ui_fonts_close(struct ui_fonts *f)
{
	if (!f)
		return;
	for (int i = 0; i < UI_NFONTS; i++)
		if (f->f[i])
			TTF_CloseFont(f->f[i]);
	free(f);
}

int ui_fonts_height(const struct ui_fonts *f, enum ui_font font)
{
	return f->h[font];
}

struct ui_text *ui_text_create(SDL_Renderer *r, struct ui_fonts *f)
{
	struct ui_text *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->slot = calloc(UI_TEXT_SLOTS, sizeof *t->slot);
	if (!t->slot) {
		free(t);
		return NULL;
	}
	t->r = r;
	t->fonts = f;
	return t;
}

static void drop_all(struct ui_text *t)
{
	for (int i = 0; i < UI_TEXT_SLOTS; i++) {
		if (t->slot[i].tex)
			SDL_DestroyTexture(t->slot[i].tex);
		t->slot[i].tex = NULL;
		t->slot[i].hash = 0;
	}
	t->used = 0;
}

void ui_text_destroy(struct ui_text *t)
{
	if (!t)
		return;
	drop_all(t);
	free(t->slot);
	free(t);
}

/* Rebuild the table without the idle entries (open addressing cannot just
 * blank a slot: later probes would stop at the hole). */
static void evict_idle(struct ui_text *t)
{
	struct text_entry *old = t->slot;
	struct text_entry *nw = calloc(UI_TEXT_SLOTS, sizeof *nw);
	if (!nw) {
		drop_all(t);
		return;
	}
	t->used = 0;
	for (int i = 0; i < UI_TEXT_SLOTS; i++) {
		struct text_entry *e = &old[i];
		if (!e->hash)
			continue;
		if (t->frame - e->last > UI_TEXT_IDLE) {
			SDL_DestroyTexture(e->tex);
			continue;
		}
		uint32_t j = e->hash & (UI_TEXT_SLOTS - 1);
		while (nw[j].hash)
			j = (j + 1) & (UI_TEXT_SLOTS - 1);
		nw[j] = *e;
		t->used++;
	}
	free(old);
	t->slot = nw;
	if (t->used > UI_TEXT_SLOTS / 2)
		drop_all(t); /* everything is in use: start over rather than thrash */
}

void ui_text_log(struct ui_text *t, FILE *f)
{
	t->log = f;
}

void ui_text_frame(struct ui_text *t)
{
	t->frame++;
	if (t->used > UI_TEXT_SLOTS * 3 / 4)
		evict_idle(t);
}

static uint32_t hash_key(int font, uint32_t rgba, const char *s)
{
	uint32_t h = 2166136261u ^ (uint32_t)font;
	h = (h ^ rgba) * 16777619u;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h ? h : 1;
}

static struct text_entry *lookup(struct ui_text *t, enum ui_font font, SDL_Color c, const char *s)
{
	uint32_t rgba = (uint32_t)c.r << 24 | (uint32_t)c.g << 16 | (uint32_t)c.b << 8 | c.a;
	uint32_t h = hash_key(font, rgba, s);
	uint32_t j = h & (UI_TEXT_SLOTS - 1);
	while (t->slot[j].hash) {
		struct text_entry *e = &t->slot[j];
		if (e->hash == h && e->rgba == rgba && e->font == font && !strcmp(e->s, s)) {
			e->last = t->frame;
			return e;
		}
		j = (j + 1) & (UI_TEXT_SLOTS - 1);
	}
	if (t->used >= UI_TEXT_SLOTS - 1)
		return NULL;
	SDL_Surface *surf = TTF_RenderUTF8_Blended(t->fonts->f[font], s, c);
	if (!surf)
		return NULL;
	SDL_Texture *tex = SDL_CreateTextureFromSurface(t->r, surf);
	struct text_entry *e = &t->slot[j];
	e->w = surf->w;
	e->h = surf->h;
	SDL_FreeSurface(surf);
	if (!tex)
		return NULL;
	e->hash = h;
	e->rgba = rgba;
	e->font = (uint8_t)font;
	snprintf(e->s, sizeof e->s, "%s", s);
	e->tex = tex;
	e->last = t->frame;
	t->used++;
	return e;
}

int ui_text_draw(struct ui_text *t, enum ui_font font, SDL_Color c, int x, int y,
		 enum ui_align align, const char *s)
{
	if (!s[0])
		return 0;
	char buf[UI_TEXT_MAXLEN];
	if (strlen(s) >= sizeof buf) {
		/* Long strings are truncated rather than cached under a key that
		 * would not match the next lookup. */
		memcpy(buf, s, sizeof buf - 1);
		buf[sizeof buf - 1] = 0;
		s = buf;
	}
	if (t->log)
		fprintf(t->log, "%s\n", s);
	struct text_entry *e = lookup(t, font, c, s);
	if (!e)
		return 0;
	SDL_Rect dst = {x, y, e->w, e->h};
	if (align == UI_CENTER)
		dst.x -= e->w / 2;
	else if (align == UI_RIGHT)
		dst.x -= e->w;
	SDL_RenderCopy(t->r, e->tex, NULL, &dst);
	return e->w;
}

int ui_text_drawf(struct ui_text *t, enum ui_font font, SDL_Color c, int x, int y,
		  enum ui_align align, const char *fmt, ...)
{
	char buf[UI_TEXT_MAXLEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return ui_text_draw(t, font, c, x, y, align, buf);
}

int ui_text_width(struct ui_text *t, enum ui_font font, const char *s)
{
	int w = 0, h = 0;
	if (TTF_SizeUTF8(t->fonts->f[font], s, &w, &h))
		return 0;
	return w;
}

int ui_text_height(const struct ui_text *t, enum ui_font font)
{
	return t->fonts->h[font];
}

const char *ui_text_fit(struct ui_text *t, enum ui_font font, const char *s, int maxw, char *buf,
			size_t n)
{
	snprintf(buf, n, "%s", s);
	size_t len = strlen(buf);
	if (ui_text_width(t, font, buf) <= maxw)
		return buf;
	/* Drop characters (whole UTF-8 sequences) until text + "…" fits. */
	while (len > 0) {
		do
			len--;
		while (len > 0 && ((unsigned char)buf[len] & 0xc0) == 0x80);
		if (len + 4 > n)
			continue;
		memcpy(buf + len, "\xe2\x80\xa6", 4);
		if (ui_text_width(t, font, buf) <= maxw)
			return buf;
	}
	buf[0] = 0;
	return buf;
}

const char *ui_text_fit_mid(struct ui_text *t, enum ui_font font, const char *s, int maxw, char *buf,
			    size_t n)
{
	snprintf(buf, n, "%s", s);
	if (ui_text_width(t, font, buf) <= maxw)
		return buf;
	size_t len = strlen(s);
	/* Drop characters around the middle, alternating sides, until the two
	 * ends with "…" between them fit (whole UTF-8 sequences only). */
	for (size_t cut = 1; cut < len; cut++) {
		size_t head = (len - cut + 1) / 2, tail = len - cut - head;
		while (head > 0 && ((unsigned char)s[head] & 0xc0) == 0x80)
			head--;
		while (tail > 0 && ((unsigned char)s[len - tail] & 0xc0) == 0x80)
			tail--;
		if (head + tail + 4 > n)
			continue;
		snprintf(buf, n, "%.*s\xe2\x80\xa6%s", (int)head, s, s + len - tail);
		if (ui_text_width(t, font, buf) <= maxw)
			return buf;
	}
	return ui_text_fit(t, font, s, maxw, buf, n);
}
