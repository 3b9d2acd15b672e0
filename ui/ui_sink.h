/* What the two SDL2 programs (the view's screenshot, plot's chart) write
 * their PNGs through: the CLI's output files, which ui/ does not see. */
#ifndef BOUNCE_UI_SINK_H
#define BOUNCE_UI_SINK_H

#include <stdio.h>

struct err;

/* Where a PNG named on the command line goes: the CLI's output files,
 * written whole or not at all (a temporary renamed over the target; a
 * symlink followed, a device written through), which ui/ does not see.
 * open refuses a path that names `input` (described as input_kind; may
 * be NULL), and returns a handle and the stream to write, or NULL with e
 * set; commit (which may fail, e set) and abort each end the handle. */
struct ui_sink {
	void *(*open)(const char *path, const char *opt, const char *input, const char *input_kind,
		      FILE **f, struct err *e);
	int (*commit)(void *h, struct err *e);
	void (*abort)(void *h);
};

#endif
