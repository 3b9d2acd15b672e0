/* `bounce plot`: a CSV (a sweep, a merge, or any table with a header row)
 * drawn as a line chart to PNG, off-screen with SDL2's software renderer.
 * src/main.c is the only caller. */
#ifndef BOUNCE_PLOT_H
#define BOUNCE_PLOT_H

#include <signal.h>

struct err;
struct ui_sink;

/* argv[0] is "plot". The PNG goes through sink (ui.h); once *interrupted
 * is set (may be NULL) it is dropped. Returns 0 when the PNG was written,
 * --help was printed, or it was interrupted (the caller says so), -1 with
 * e set: ERR_INPUT for bad options or a bad CSV (with file:line:col),
 * ERR_INTERNAL for SDL failures. No PNG is left behind unless written. */
int ui_plot_cmd(int argc, char **argv, const struct ui_sink *sink,
		const volatile sig_atomic_t *interrupted, struct err *e);

#endif
