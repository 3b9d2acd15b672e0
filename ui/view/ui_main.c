/* `bounce view`: SDL setup, the window's event loop (keys, mouse, resize,
 * frame pacing) and the off-screen mode that advances N frames and writes
 * a PNG. Everything drawn comes from ui_draw_frame, in both modes. */
#include "config.h"
#include "ui_int.h"

#include <SDL_image.h>
#include <SDL_ttf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "ui_engine.h"

#define DEFAULT_W 1280
#define DEFAULT_H 800
#define SIM_BUDGET_MS 9.0       /* of a 16.7 ms frame; the rest draws */

static int sdl_fail(struct err *e, const char *what)
{
	return err_internal(e, "view: %s: %s", what, SDL_GetError());
}

static double ms_since(Uint64 t0)
{
	return (SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)SDL_GetPerformanceFrequency();
}

/* Frame-time figures for the performance note (BOUNCE_UI_STATS=1). */
struct frame_stats {
	double sum, max, sum_sim, sum_draw;
	int n;
};

static void stats_add(struct frame_stats *s, double sim_ms, double draw_ms)
{
	double f = sim_ms + draw_ms;
	s->sum += f;
	s->sum_sim += sim_ms;
	s->sum_draw += draw_ms;
	if (f > s->max)
		s->max = f;
	s->n++;
}

static void stats_print(const struct frame_stats *s, const struct ui_app *a)
{
	if (!s->n || !getenv("BOUNCE_UI_STATS"))
		return;
	fprintf(stderr,
		"view: %d frames, %d cores, %d variant(s): mean frame %.2f ms (simulate %.2f + draw %.2f), "
		"max %.2f ms, %.0f fps\n",
		s->n, a->ncores, a->nvar, s->sum / s->n, s->sum_sim / s->n, s->sum_draw / s->n, s->max,
		1000.0 * s->n / s->sum);
}

static int offscreen(struct ui_app *a, struct ui_fonts *f, const struct ui_options *opt, int w,
		     int h, struct err *e)
{
	struct ui_offscreen o;
	char eb[512];
	struct frame_stats st = {0};
	/* Opened first: a path that cannot be written is refused before any
	 * frame is simulated, and a signal's cleanup removes its temporary. */
	FILE *out = NULL;
	const struct ui_sink *sink = opt->sink ? opt->sink : &ui_plain_sink;
	void *shot = sink->open(opt->screenshot, "--screenshot", NULL, NULL, &out, e);
	if (!shot)
		return -1;
	if (ui_offscreen_open(&o, f, w, h, eb, sizeof eb)) {
		sink->abort(shot);
		return err_internal(e, "view: %s", eb);
	}
	ui_app_layout(a, o.g.txt, w, h);
	int frames = opt->frames > 0 ? opt->frames : 120;
	int rc = 0;
	const volatile sig_atomic_t *stop = opt->interrupted;
	for (int i = 0; i < frames && !rc && !(stop && *stop); i++) {
		Uint64 t0 = SDL_GetPerformanceCounter();
		rc = ui_app_tick(a, 1.0 / UI_FPS, 0, e);
		double sim_ms = ms_since(t0);
		t0 = SDL_GetPerformanceCounter();
		ui_draw_frame(a, &o.g);
		a->last_sim_ms = sim_ms;
		a->last_draw_ms = ms_since(t0);
		stats_add(&st, sim_ms, a->last_draw_ms);
	}
	for (int i = 0; i < opt->steps && !rc; i++)
		rc = ui_app_step(a, e);
	if (opt->steps > 0 && !rc)
		rc = ui_app_tick(a, 1.0 / UI_FPS, 0, e); /* paused: draws the step */
	FILE *log = NULL;
	if (!rc && opt->textlog && !(log = fopen(opt->textlog, "w")))
		rc = err_internal(e, "view: %s: cannot write", opt->textlog);
	if (!rc) {
		/* The shot shows the last frame's timings, like the window does. */
		ui_text_log(o.g.txt, log);
		ui_draw_frame(a, &o.g);
		ui_text_log(o.g.txt, NULL);
		if (log && fclose(log))
			rc = err_internal(e, "view: %s: write failed", opt->textlog);
		log = NULL;
		if (!rc && ui_offscreen_save(&o, out, eb, sizeof eb))
			rc = err_set(e, opt->screenshot, 0, 0, "%s", eb);
	}
	if (log)
		fclose(log);
	/* interrupted: the run stopped short of its frames, and its shot is
	 * not the one asked for */
	if (!rc && !(stop && *stop))
		rc = sink->commit(shot, e);
	else
		sink->abort(shot);
	stats_print(&st, a);
	ui_offscreen_close(&o);
	return rc;
}

static void on_click(struct ui_app *a, int x, int y);

/* Zoom the timeline by f about pixel column x: the time under x stays. */
static void zoom_timeline(struct ui_app *a, double f, int x)
{
	uint64_t t0, t1;
	uint64_t at = ui_timeline_time_at(a, x);
	double z = a->tl_zoom * f;
	if (z < 1.0 / 64 || z > 4096)
		return;
	ui_timeline_window(a, ui_app_snap(a, a->cur)->now, &t0, &t1);
	double span = (double)(t1 - t0) / f;
	double frac = a->lay.plot.w > 0 ? (double)(x - a->lay.plot.x) / a->lay.plot.w : 0.5;
	a->tl_zoom = z;
	a->tl_t0 = at - frac * span > 0 ? at - frac * span : 0;
	a->tl_follow = 0;
}

/* Scrub to the recorded frame at simulated time t (the newest at or
 * before it); the live frame when t is past it. */
static void seek(struct ui_app *a, uint64_t t)
{
	const struct ui_hist *h = &a->var[a->cur].hist;
	uint32_t back = 0;
	while (back + 1 < h->snap_n && ui_hist_snap(h, back)->now > t)
		back++;
	a->scrub = back;
	a->paused = 1;
}

static int in_rect(SDL_Rect r, int x, int y)
{
	return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

static void on_mouse(struct ui_app *a, const SDL_Event *ev)
{
	const SDL_Rect p = a->lay.plot;
	if (ev->type == SDL_MOUSEMOTION) {
		a->mouse_x = ev->motion.x;
		a->mouse_y = ev->motion.y;
		if (a->drag_x >= 0 && ev->motion.x != a->drag_x) {
			uint64_t t0, t1;
			ui_timeline_window(a, ui_app_snap(a, a->cur)->now, &t0, &t1);
			double cpp = p.w > 0 ? (double)(t1 - t0) / p.w : 0;
			double nt = a->drag_t0 - (ev->motion.x - a->drag_x) * cpp;
			a->tl_t0 = nt > 0 ? nt : 0;
			a->tl_follow = 0;
			a->dragged = 1;
		}
	} else if (ev->type == SDL_MOUSEWHEEL) {
		if (in_rect(a->lay.timeline, a->mouse_x, a->mouse_y) && ev->wheel.y)
			zoom_timeline(a, ev->wheel.y > 0 ? 1.25 : 0.8, a->mouse_x);
	} else if (ev->type == SDL_MOUSEBUTTONDOWN && ev->button.button == SDL_BUTTON_LEFT) {
		if (in_rect(p, ev->button.x, ev->button.y)) {
			uint64_t t0, t1;
			ui_timeline_window(a, ui_app_snap(a, a->cur)->now, &t0, &t1);
			a->drag_x = ev->button.x;
			a->drag_t0 = (double)t0;
			a->dragged = 0;
		} else {
			on_click(a, ev->button.x, ev->button.y);
		}
	} else if (ev->type == SDL_MOUSEBUTTONUP && ev->button.button == SDL_BUTTON_LEFT && a->drag_x >= 0) {
		if (!a->dragged) /* a click, not a drag: seek there */
			seek(a, ui_timeline_time_at(a, ev->button.x));
		a->drag_x = -1;
	}
}

static void on_key(struct ui_app *a, SDL_Keysym k, struct ui_fonts *f, int *quit, struct err *e,
		   int *rc)
{
	switch (k.sym) {
	case SDLK_q:
	case SDLK_ESCAPE:
		if (k.sym == SDLK_ESCAPE && a->help)
			a->help = 0;
		else
			*quit = 1;
		break;
	case SDLK_SPACE:
		if (a->scrub) {
			a->scrub = 0;
			a->paused = 0;
		} else {
			a->paused = !a->paused;
		}
		a->step_what[0] = a->step_why[0] = 0;
		break;
	case SDLK_PERIOD:
		if (ui_app_step(a, e))
			*rc = -1, *quit = 1;
		break;
	case SDLK_LEFTBRACKET:
		a->speed = fmax(a->speed / 2, 100);
		ui_app_status(a, "speed %.0f simulated cycles per second", a->speed);
		break;
	case SDLK_RIGHTBRACKET:
		a->speed = fmin(a->speed * 2, 1e11);
		ui_app_status(a, "speed %.0f simulated cycles per second", a->speed);
		break;
	case SDLK_LEFT:
	case SDLK_RIGHT: {
		uint32_t n = a->var[a->cur].hist.snap_n;
		uint32_t step = (k.mod & KMOD_SHIFT) ? 30 : 1;
		if (k.sym == SDLK_LEFT)
			a->scrub = a->scrub + step < n ? a->scrub + step : (n ? n - 1 : 0);
		else
			a->scrub = a->scrub > step ? a->scrub - step : 0;
		break;
	}
	case SDLK_2:
	case SDLK_KP_2:
		if (a->nvar < 2) {
			ui_app_status(a, "one variant: nothing to compare side by side");
			break;
		}
		a->split = !a->split;
		if (a->other == a->cur)
			a->other = (a->cur + 1) % a->nvar;
		ui_app_layout(a, NULL, a->lay.w, a->lay.h);
		ui_app_status(a, a->split ? "side by side: %s | %s" : "one variant: %s%s", a->var[a->cur].name,
			      a->split ? a->var[a->other].name : "");
		break;
	case SDLK_v:
		a->cur = (a->cur + 1) % a->nvar;
		if (a->split) /* the right pane shows the variant after the left one */
			a->other = (a->cur + 1) % a->nvar;
		ui_xfers_clear(&a->var[a->other].xf);
		a->sel_line = 0;
		ui_xfers_clear(&a->var[a->cur].xf);
		ui_app_status(a, "variant %s", a->var[a->cur].name);
		break;
	case SDLK_r:
		if (ui_app_restart(a, e))
			*rc = -1, *quit = 1;
		else
			ui_app_status(a, "restarted");
		break;
	case SDLK_s: {
		/* The next name not taken, so shots from an earlier run stay. */
		char path[64], eb[512];
		struct stat st;
		int shot = 0;
		do
			snprintf(path, sizeof path, "bounce-%04d.png", shot++);
		while (!stat(path, &st) && shot < 10000);
		if (ui_render_png(a, f, a->lay.w, a->lay.h, path, eb, sizeof eb))
			ui_app_status(a, "screenshot failed: %s", eb);
		else
			ui_app_status(a, "screenshot written to %s", path);
		break;
	}
	case SDLK_EQUALS:
	case SDLK_PLUS:
	case SDLK_KP_PLUS:
	case SDLK_MINUS:
	case SDLK_KP_MINUS:
		zoom_timeline(a, k.sym == SDLK_MINUS || k.sym == SDLK_KP_MINUS ? 0.5 : 2.0,
			      a->lay.plot.x + a->lay.plot.w / 2);
		break;
	case SDLK_t:
		a->show_times = !a->show_times;
		break;
	case SDLK_0:
		a->tl_zoom = 1;
		a->tl_follow = 1;
		ui_app_status(a, "timeline follows the playhead");
		break;
	case SDLK_h:
	case SDLK_QUESTION:
		a->help = (a->help + 1) % 3;
		break;
	case SDLK_SLASH:
		if (k.mod & KMOD_SHIFT)
			a->help = (a->help + 1) % 3;
		break;
	default:
		break;
	}
}

static void on_click(struct ui_app *a, int x, int y)
{
	const struct ui_snap *s = ui_app_snap(a, a->cur);
	int row = ui_layout_row_at(&a->lay, s->nrows, x, y);
	if (row >= 0) {
		uint64_t line = s->rows[row].addr + 1;
		a->sel_line = a->sel_line == line ? 0 : line;
		a->sel_core = -1;
		return;
	}
	int core = ui_layout_core_at(&a->lay, a->ncores, x, y);
	a->sel_core = core >= 0 && a->sel_core != core ? core : -1;
	a->sel_line = 0;
}

static int windowed(struct ui_app *a, struct ui_fonts *f, int w, int h,
		    const volatile sig_atomic_t *interrupted, struct err *e)
{
	char title[200];
	snprintf(title, sizeof title, "bounce — %s", a->title);
	/* Hidden until it has a renderer: trying a GL renderer makes SDL
	 * destroy the X window and make another (under Xvfb, two more before
	 * the one that stays), so a shown window would flash up and vanish,
	 * and whoever looked it up by name would hold a dead window. */
	SDL_Window *win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
					   SDL_WINDOW_RESIZABLE | SDL_WINDOW_HIDDEN);
	if (!win)
		return sdl_fail(e, "window");
	SDL_Renderer *r = SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED);
	if (!r)
		r = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
	if (!r) {
		SDL_DestroyWindow(win);
		return sdl_fail(e, "renderer");
	}
	SDL_ShowWindow(win);
	struct ui_gfx g = {0};
	int rc = 0, quit = 0;
	struct frame_stats st = {0};
	if (ui_gfx_init(&g, r, f)) {
		rc = sdl_fail(e, "textures");
		goto out;
	}
	int lw = 0, lh = 0;
	Uint64 last = SDL_GetPerformanceCounter();
	while (!quit && !(interrupted && *interrupted)) {
		Uint64 t0 = SDL_GetPerformanceCounter();
		SDL_Event ev;
		while (SDL_PollEvent(&ev)) {
			if (ev.type == SDL_QUIT)
				quit = 1;
			else if (ev.type == SDL_KEYDOWN)
				on_key(a, ev.key.keysym, f, &quit, e, &rc);
			else
				on_mouse(a, &ev);
		}
		if (quit)
			break;
		int ow, oh;
		SDL_GetRendererOutputSize(r, &ow, &oh);
		if (ow != lw || oh != lh) {
			ui_app_layout(a, g.txt, ow, oh);
			lw = ow;
			lh = oh;
		}
		double dt = ms_since(last) / 1000.0;
		last = SDL_GetPerformanceCounter();
		if (dt > 0.1) /* after a stall, do not try to catch up */
			dt = 0.1;
		if (ui_app_tick(a, dt, SIM_BUDGET_MS, e)) {
			rc = -1;
			break;
		}
		double sim_ms = a->last_sim_ms;
		Uint64 d0 = SDL_GetPerformanceCounter();
		ui_draw_frame(a, &g);
		SDL_RenderPresent(r);
		a->last_draw_ms = ms_since(d0);
		stats_add(&st, sim_ms, a->last_draw_ms);
		double spent = ms_since(t0);
		if (spent < 1000.0 / UI_FPS)
			SDL_Delay((Uint32)(1000.0 / UI_FPS - spent));
	}
	stats_print(&st, a);
out:
	ui_gfx_free(&g);
	SDL_DestroyRenderer(r);
	SDL_DestroyWindow(win);
	return rc;
}

int ui_view(const struct scenario *sc, const struct ui_options *opt, struct err *e)
{
	static const struct ui_options none = {0};
	if (!opt)
		opt = &none;
	int w = opt->width > 0 ? opt->width : DEFAULT_W, h = opt->height > 0 ? opt->height : DEFAULT_H;
	if (w < UI_MIN_WIDTH || h < UI_MIN_HEIGHT || w > UI_MAX_SIDE || h > UI_MAX_SIDE)
		return err_set(e, NULL, 0, 0, "view: size %dx%d out of range (%dx%d to %dx%d)", w, h,
			       UI_MIN_WIDTH, UI_MIN_HEIGHT, UI_MAX_SIDE, UI_MAX_SIDE);
	if (opt->screenshot && opt->frames < 0)
		return err_set(e, NULL, 0, 0, "view: --frames must be positive");

	/* The machines first: a bad scenario or variant is reported before any
	 * window opens, exactly as batch mode reports it. */
	struct ui_app *a = calloc(1, sizeof *a);
	if (!a)
		return err_internal(e, "out of memory");
	int rc = ui_app_init(a, sc, opt, e);
	if (rc) {
		ui_app_free(a);
		free(a);
		return -1;
	}
	if (!opt->screenshot && !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY") &&
	    !getenv("SDL_VIDEODRIVER")) {
		ui_app_free(a);
		free(a);
		return err_set(e, NULL, 0, 0, "view: no display (DISPLAY is not set): run it under X, or use --screenshot F.png");
	}
	Uint32 flags = opt->screenshot ? 0 : SDL_INIT_VIDEO | SDL_INIT_TIMER;
	struct ui_fonts *f = NULL;
	char eb[600];
	if (SDL_Init(flags)) {
		rc = sdl_fail(e, opt->screenshot ? "SDL" : "video (is DISPLAY set? --screenshot needs none)");
		goto out;
	}
	/* With no display SDL falls back to its offscreen driver, where a
	 * window would run unseen forever: refuse unless asked for by name. */
	const char *drv = SDL_GetCurrentVideoDriver();
	if (!opt->screenshot && drv && (!strcmp(drv, "offscreen") || !strcmp(drv, "dummy")) &&
	    !getenv("SDL_VIDEODRIVER")) {
		rc = err_set(e, NULL, 0, 0,
			     "view: no display (SDL found only its '%s' video driver): set DISPLAY, or use --screenshot F.png",
			     drv);
		goto out_sdl;
	}
	if (TTF_Init()) {
		rc = err_internal(e, "view: fonts: %s", TTF_GetError());
		goto out_sdl;
	}
	if (!(IMG_Init(IMG_INIT_PNG) & IMG_INIT_PNG)) {
		rc = err_internal(e, "view: PNG support: %s", IMG_GetError());
		goto out_ttf;
	}
	const char *font = getenv("BOUNCE_FONT") ? getenv("BOUNCE_FONT") : UI_FONT_PATH;
	f = ui_fonts_open(font, eb, sizeof eb);
	if (!f) {
		rc = err_internal(e, "view: font %s", eb);
		goto out_img;
	}
	rc = opt->screenshot ? offscreen(a, f, opt, w, h, e)
			     : windowed(a, f, w, h, opt->interrupted, e);
	ui_fonts_close(f);
out_img:
	IMG_Quit();
out_ttf:
	TTF_Quit();
out_sdl:
	SDL_Quit();
out:
	ui_app_free(a);
	free(a);
	return rc ? -1 : 0;
}
