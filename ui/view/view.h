/* The SDL2 visualizer's public entry point: `bounce view` runs one
 * scenario's variants live in a window, or renders N frames off-screen to a
 * PNG with the same drawing code. The CLI is the only caller. */
#ifndef BOUNCE_VIEW_H
#define BOUNCE_VIEW_H

#include <signal.h>

struct scenario;
struct scen_overrides;
struct err;
struct ui_sink;           /* ui_sink.h */

/* The window's size bounds: below 640x400 the panels the layout places
 * side by side no longer fit. The CLI refuses --width/--height outside
 * them (its own copy, CLI_VIEW_MIN_WIDTH..., which src/main.c asserts
 * equal), and ui_view again for any other caller. */
#define UI_MIN_WIDTH 640
#define UI_MIN_HEIGHT 400
#define UI_MAX_SIDE 8192

struct ui_options {
	double speed;           /* simulated cycles per displayed second; 0 = default */
	const char *screenshot; /* non-NULL: off-screen mode, write this PNG */
	const struct ui_sink *sink; /* how the screenshot is written; NULL: a plain file */
	int frames;             /* off-screen: frames to advance before the shot */
	int steps;              /* off-screen: then pause and step this many transactions */
	const char *textlog;    /* off-screen: every string the shot draws, one a line */
	int width, height;      /* window / image size; 0 = 1280x800 */
	const char *variant;    /* variant shown first; NULL = the first one */
	int split;              /* start with the next variant side by side */
	const struct scen_overrides *overrides; /* --cpu/--cores/--seed/--set, as for run; may be NULL */
	/* Set asynchronously (the CLI's SIGINT/SIGTERM handler) to close the
	 * window as `q` would, or to drop the screenshot; may be NULL. The
	 * CLI's handler replaces SDL's, which would otherwise turn the signals
	 * into SDL_QUIT. */
	const volatile sig_atomic_t *interrupted;
};

/* Returns 0 when the user quit (or the PNG was written), -1 with e filled:
 * ERR_INPUT for bad options (unknown variant), ERR_INTERNAL for SDL failures
 * and engine errors. */
int ui_view(const struct scenario *sc, const struct ui_options *opt, struct err *e);

#endif
