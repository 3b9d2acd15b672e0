/* One frame, drawn the same way for the window and for an off-screen
 * ARGB8888 surface (SDL_CreateSoftwareRenderer), and the PNG writer that
 * renders into such a surface: the screenshot key and --screenshot share
 * it, so tests see exactly what users see. */
#include "config.h"
#include "ui_int.h"

#include <SDL_image.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ui_draw_header(struct ui_app *a, struct ui_gfx *g);
void ui_draw_footer(struct ui_app *a, struct ui_gfx *g);

void ui_draw_frame(struct ui_app *a, struct ui_gfx *g)
{
	ui_text_frame(g->txt);
	a->ntips = 0;
	SDL_SetRenderDrawBlendMode(g->r, SDL_BLENDMODE_BLEND);
	ui_set_color(g->r, ui_col_bg);
	SDL_RenderClear(g->r);
	/* Each part timed for the `t` key's breakdown (the sum is the draw). */
	static void (*const part[])(struct ui_app *, struct ui_gfx *) = {
		ui_draw_header, ui_draw_cores, ui_draw_lines, ui_draw_timeline, ui_draw_panel,
		ui_draw_footer, ui_draw_transfers, ui_draw_core_labels,
	};
	enum { PANE_PARTS = 0x1 << 1 | 0x1 << 2 | 0x1 << 3 | 0x1 << 6 | 0x1 << 7 };
	double freq = (double)SDL_GetPerformanceFrequency();
	for (size_t i = 0; i < sizeof part / sizeof part[0]; i++) {
		Uint64 t0 = SDL_GetPerformanceCounter();
		part[i](a, g);
		if (a->split && (PANE_PARTS >> i & 1)) {
			/* The second pane: the same drawing with the other
			 * variant and the other layout swapped in. */
			struct ui_layout keep = a->lay;
			int cur = a->cur;
			a->lay = a->lay2;
			a->cur = a->other;
			part[i](a, g);
			a->lay = keep;
			a->cur = cur;
		}
		a->part_ms[i] = (SDL_GetPerformanceCounter() - t0) * 1000.0 / freq;
	}
	ui_draw_overlays(a, g);
}

int ui_offscreen_open(struct ui_offscreen *o, struct ui_fonts *f, int w, int h, char *errbuf, size_t n)
{
	memset(o, 0, sizeof *o);
	o->surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
	if (!o->surf) {
		snprintf(errbuf, n, "off-screen surface: %s", SDL_GetError());
		return -1;
	}
	o->r = SDL_CreateSoftwareRenderer(o->surf);
	if (!o->r || ui_gfx_init(&o->g, o->r, f)) {
		snprintf(errbuf, n, "software renderer: %s", SDL_GetError());
		ui_offscreen_close(o);
		return -1;
	}
	return 0;
}

int ui_offscreen_save(struct ui_offscreen *o, FILE *f, char *errbuf, size_t n)
{
	SDL_RenderPresent(o->r);
	SDL_RWops *rw = SDL_RWFromFP(f, SDL_FALSE);
	if (!rw) {
		snprintf(errbuf, n, "%s", SDL_GetError());
		return -1;
	}
	if (IMG_SavePNG_RW(o->surf, rw, 1)) {
		snprintf(errbuf, n, "cannot write: %s", IMG_GetError());
		return -1;
	}
	return 0;
}

void ui_offscreen_close(struct ui_offscreen *o)
{
	ui_gfx_free(&o->g);
	if (o->r)
		SDL_DestroyRenderer(o->r);
	if (o->surf)
		SDL_FreeSurface(o->surf);
	memset(o, 0, sizeof *o);
}

/* ui_plain_sink: a plain file, removed when aborted. */
struct plain {
	FILE *f;
	char path[4096];
};

static void *plain_open(const char *path, const char *opt, const char *input, const char *input_kind,
			FILE **f, struct err *e)
{
	(void)opt, (void)input, (void)input_kind;
	struct plain *p = calloc(1, sizeof *p);
	if (!p || strlen(path) >= sizeof p->path) {
		free(p);
		err_set(e, path, 0, 0, "cannot create output file: %s", p ? "path too long" : "out of memory");
		return NULL;
	}
	if (!(p->f = fopen(path, "wb"))) {
		err_set(e, path, 0, 0, "cannot create output file: %s", strerror(errno));
		free(p);
		return NULL;
	}
	snprintf(p->path, sizeof p->path, "%s", path);  /* fits: checked above */
	*f = p->f;
	return p;
}

static int plain_commit(void *h, struct err *e)
{
	struct plain *p = h;
	int bad = fclose(p->f) != 0;
	if (bad) {
		err_set(e, p->path, 0, 0, "cannot write output file: %s", strerror(errno));
		remove(p->path);
	}
	free(p);
	return bad ? -1 : 0;
}

static void plain_abort(void *h)
{
	struct plain *p = h;
	fclose(p->f);
	remove(p->path);
	free(p);
}

const struct ui_sink ui_plain_sink = {plain_open, plain_commit, plain_abort};

int ui_render_png(struct ui_app *a, struct ui_fonts *f, int w, int h, const char *path,
		  char *errbuf, size_t n)
{
	/* A new file, never one that exists (a symlink included): the key
	 * picks a name not taken, and a name taken meanwhile is a failure. */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
	FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!out) {
		snprintf(errbuf, n, "%s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			remove(path);
		}
		return -1;
	}
	struct ui_offscreen o;
	int rc = ui_offscreen_open(&o, f, w, h, errbuf, n);
	if (!rc) {
		ui_draw_frame(a, &o.g);
		rc = ui_offscreen_save(&o, out, errbuf, n);
		ui_offscreen_close(&o);
	}
	if (fclose(out) && !rc)
		rc = -1, snprintf(errbuf, n, "%s: %s", path, strerror(errno));
	if (rc)
		remove(path);
	return rc;
}
