/* `bounce plot`: a CSV (a sweep, a merge, or any table with a header row)
 * drawn as a line chart to PNG, off-screen with SDL2's software renderer.
 * src/main.c is the only caller. */
#ifndef BOUNCE_PLOT_H
#define BOUNCE_PLOT_H

struct err;

/* argv[0] is "plot". Returns 0 when the PNG was written (or --help was
 * printed), -1 with e set: ERR_INPUT for bad options or a bad CSV (with
 * file:line:col), ERR_INTERNAL for SDL failures. No PNG is left behind on
 * failure. */
int ui_plot_cmd(int argc, char **argv, struct err *e);

#endif
