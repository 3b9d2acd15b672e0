/* `bounce plot`: a CSV (a sweep, a merge, or any table with a header row)
 * drawn as a line chart to PNG, off-screen with SDL2's software renderer.
 * src/main.c is the only caller. */
#ifndef BOUNCE_PLOT_H
#define BOUNCE_PLOT_H

#include <signal.h>
#include <stdbool.h>

struct err;
struct ui_sink;          /* ui_sink.h */

/* What to draw, as the command line's options say (bounce help plot). */
struct plot_request {
	const char *csv, *output;
	const char *metric, *x, *series, *baseline;  /* NULL: the defaults */
	const char *title, *subtitle;                /* NULL: the defaults */
	int log_x;              /* 1 log, 0 linear, -1 by the data */
	bool log_y;
	int width, height;      /* 0: 960x600 */
};

/* The PNG goes through sink (ui_sink.h); once *interrupted is set (may be NULL)
 * it is dropped. Returns 0 when the PNG was written or it was interrupted
 * (the caller says so), -1 with e set: ERR_INPUT for a bad CSV (with
 * file:line:col) or an output that may not be written, ERR_INTERNAL for
 * SDL failures. No PNG is left behind unless written. */
int ui_plot(const struct plot_request *req, const struct ui_sink *sink,
	    const volatile sig_atomic_t *interrupted, struct err *e);

#endif
